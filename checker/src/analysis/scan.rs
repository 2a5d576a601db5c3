//! Small, panic-free text scanning helpers shared by the three parsers.
//!
//! Everything works on bytes with checked access (`get`), walks forward only
//! and keeps nesting in a counter, never in recursion, so deeply nested or
//! truncated input costs linear time and constant stack.

/// Whether `c` may appear in an HLO or jaxpr identifier.
pub(crate) fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'-'
}

/// The first index at or after `i` that is not a space or tab.
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(&c) = b.get(i) {
        if c != b' ' && c != b'\t' && c != b'\r' {
            break;
        }
        i += 1;
    }
    i
}

/// The end of the run of bytes satisfying `f` that starts at `i`.
pub(crate) fn take_while(b: &[u8], mut i: usize, f: impl Fn(u8) -> bool) -> usize {
    while let Some(&c) = b.get(i) {
        if !f(c) {
            break;
        }
        i += 1;
    }
    i
}

/// From an opening bracket at `i`, the index just past its matching closer.
///
/// Counts `(`, `[`, `{` against `)`, `]`, `}` (tolerantly, without checking
/// that kinds match) and skips double-quoted strings with escapes. `None`
/// when the line ends first.
pub(crate) fn skip_balanced(b: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = i;
    let mut in_str = false;
    while let Some(k) = next_special(b, j) {
        j = k;
        let c = b.get(j).copied().unwrap_or(0);
        if in_str {
            if c == b'\\' {
                j += 1;
            } else if c == b'"' {
                in_str = false;
            }
        } else {
            match c {
                b'"' => in_str = true,
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(j + 1);
                    }
                }
                _ => {}
            }
        }
        j += 1;
    }
    None
}

/// Calls `f(key, value, value_start)` for every top-level `key=value` item of
/// a comma-separated attribute list (`, kind=kLoop, calls=%f, metadata={...}`).
/// `value_start` is the byte offset of the value within `s`.
pub(crate) fn for_each_attr<'a>(s: &'a str, mut f: impl FnMut(&'a str, &'a str, usize)) {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut in_str = false;
    let mut start = 0usize;
    let mut j = 0usize;
    let mut emit = |from: usize, to: usize| {
        let Some(item) = s.get(from..to) else { return };
        let Some(eq) = item.bytes().position(|c| c == b'=') else {
            return;
        };
        let key = item.get(..eq).unwrap_or("").trim();
        let raw = item.get(eq + 1..).unwrap_or("");
        let lead = raw.len() - raw.trim_start().len();
        if !key.is_empty() && key.bytes().all(is_name_byte) {
            f(key, raw.trim(), from + eq + 1 + lead);
        }
    };
    while let Some(k) = next_special(b, j) {
        j = k;
        let c = b.get(j).copied().unwrap_or(0);
        if in_str {
            if c == b'\\' {
                j += 1;
            } else if c == b'"' {
                in_str = false;
            }
        } else {
            match c {
                b'"' => in_str = true,
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => {
                    emit(start, j);
                    start = j + 1;
                }
                _ => {}
            }
        }
        j += 1;
    }
    emit(start, b.len());
}

/// The value of `key="..."` (quoted) or `key=word` inside `s` (for example
/// `op_name` inside a `metadata={...}` value).
pub(crate) fn field<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0usize;
    while let Some(at) = find_from(s, key, from) {
        let before_ok = at == 0 || s.as_bytes().get(at - 1).is_some_and(|&c| !is_name_byte(c));
        let after = at + key.len();
        if before_ok && s.as_bytes().get(after) == Some(&b'=') {
            let v = s.get(after + 1..)?;
            if let Some(rest) = v.strip_prefix('"') {
                let b = rest.as_bytes();
                let mut j = 0usize;
                while let Some(&c) = b.get(j) {
                    if c == b'\\' {
                        j += 2;
                        continue;
                    }
                    if c == b'"' {
                        return rest.get(..j);
                    }
                    j += 1;
                }
                return Some(rest);
            }
            let end = v
                .bytes()
                .position(|c| c == b' ' || c == b',' || c == b'}')
                .unwrap_or(v.len());
            return v.get(..end);
        }
        from = after;
    }
    None
}

/// 1-based character column of byte offset `byte` in `line`.
pub(crate) fn char_col(line: &str, byte: usize) -> usize {
    let b = byte.min(line.len());
    let mut n = 0usize;
    for (i, _) in line.char_indices() {
        if i >= b {
            break;
        }
        n += 1;
    }
    n + 1
}

/// Strips one leading `%`.
pub(crate) fn strip_pct(s: &str) -> &str {
    s.strip_prefix('%').unwrap_or(s)
}

/// Byte offset of the first `needle` in `hay` at or after `from`: a plain
/// first-byte scan, much cheaper than `str::find` on the short haystacks of
/// one line (no searcher set-up per call).
pub(crate) fn find_from(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    let (&first, rest) = n.split_first()?;
    let mut i = from;
    while let Some(p) = h.get(i..).and_then(|r| r.iter().position(|&c| c == first)) {
        let at = i + p;
        if h.get(at + 1..at + 1 + rest.len()) == Some(rest) {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// [`find_from`] from the start.
pub(crate) fn find(hay: &str, needle: &str) -> Option<usize> {
    find_from(hay, needle, 0)
}

/// Every offset of `needle` in `hay`.
pub(crate) fn find_all<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0usize;
    std::iter::from_fn(move || {
        let at = find_from(hay, needle, from)?;
        from = at + 1;
        Some(at)
    })
}

/// Calls `f(key, value, offset_of_key)` for each `key=value` or
/// `key="value"` of a space-separated list such as HLO's
/// `{op_name="jit(f)/sin" source_line=3}`, in one pass.
pub(crate) fn for_each_field<'a>(s: &'a str, mut f: impl FnMut(&'a str, &'a str, usize)) {
    let b = s.as_bytes();
    let mut i = 0usize;
    while i < b.len() {
        i = take_while(b, i, |c| c == b' ' || c == b'{' || c == b'}' || c == b',');
        let k0 = i;
        let k1 = take_while(b, i, is_name_byte);
        if k1 == k0 || b.get(k1) != Some(&b'=') {
            // Not a field: skip to the next space.
            i = take_while(b, k1.max(i + 1), |c| c != b' ');
            continue;
        }
        let v0 = k1 + 1;
        let (val, next) = if b.get(v0) == Some(&b'"') {
            let mut j = v0 + 1;
            while let Some(&c) = b.get(j) {
                if c == b'\\' {
                    j += 2;
                    continue;
                }
                if c == b'"' {
                    break;
                }
                j += 1;
            }
            (s.get(v0 + 1..j.min(b.len())).unwrap_or(""), j + 1)
        } else {
            let j = take_while(b, v0, |c| c != b' ' && c != b'}' && c != b',');
            (s.get(v0..j).unwrap_or(""), j)
        };
        if let Some(key) = s.get(k0..k1) {
            f(key, val, k0);
        }
        i = next.max(i + 1);
    }
}

/// A cheap hash (FxHash's step) for the short op names the histogram counts (the
/// keys come from the text, but a histogram has a few dozen of them, so
/// hash flooding is not a concern here).
#[derive(Clone, Copy, Default)]
pub(crate) struct Fx(u64);

impl std::hash::Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes at a time (the FxHash step): op names are short, and a
        // per-byte loop showed up in profiles.
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
        self.0 = h;
    }
}

impl std::hash::BuildHasher for Fx {
    type Hasher = Fx;
    fn build_hasher(&self) -> Fx {
        Fx(0)
    }
}

/// Bytes that change the nesting or quoting state of an attribute list.
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    let s = b"\"\\()[]{},";
    while i < s.len() {
        t[s[i] as usize] = true;
        i += 1;
    }
    t
};

/// The next index at or after `i` holding a [`SPECIAL`] byte.
fn next_special(b: &[u8], i: usize) -> Option<usize> {
    b.get(i..)?
        .iter()
        .position(|&c| SPECIAL[c as usize])
        .map(|p| i + p)
}
