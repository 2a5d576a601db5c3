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
    while let Some(&c) = b.get(j) {
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
        let Some(eq) = item.find('=') else { return };
        let key = item.get(..eq).unwrap_or("").trim();
        let raw = item.get(eq + 1..).unwrap_or("");
        let lead = raw.len() - raw.trim_start().len();
        if !key.is_empty() && key.bytes().all(|c| is_name_byte(c)) {
            f(key, raw.trim(), from + eq + 1 + lead);
        }
    };
    while let Some(&c) = b.get(j) {
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
    while let Some(pos) = s.get(from..).and_then(|r| r.find(key)) {
        let at = from + pos;
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
            let end = v.bytes().position(|c| c == b' ' || c == b',' || c == b'}').unwrap_or(v.len());
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
