//! Small, panic-free text scanning helpers shared by the three parsers.
//!
//! Everything works on bytes with checked access (`get`), walks forward only
//! and keeps nesting in a counter, never in recursion, so deeply nested or
//! truncated input costs linear time and constant stack.

/// Whether `c` may appear in an HLO or jaxpr identifier.
pub(crate) fn is_name_byte(c: u8) -> bool {
    NAME[c as usize]
}

/// [`is_name_byte`] as a table: one load instead of four comparisons, on
/// the path every instruction name and attribute key takes.
const NAME: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'-';
        i += 1;
    }
    t
};

/// Whitespace as [`str::trim`] sees it, for ASCII bytes.
fn is_ascii_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// [`str::trim_start`], with a byte loop for the ASCII whitespace every
/// indented line starts with; falls back to the Unicode-aware trim only when
/// a non-ASCII byte comes first, so the result is the same.
pub(crate) fn trim_start(s: &str) -> &str {
    let b = s.as_bytes();
    if b.first().is_some_and(|&c| c > b' ' && c < 0x80) {
        return s;
    }
    // Indentation is a few bytes: a plain loop beats `take_while`'s set-up.
    let mut i = 0usize;
    while b.get(i).is_some_and(|&c| is_ascii_space(c)) {
        i += 1;
    }
    let rest = s.get(i..).unwrap_or("");
    match b.get(i) {
        Some(&c) if c >= 0x80 => rest.trim_start(),
        _ => rest,
    }
}

/// [`str::trim`], with byte loops for ASCII whitespace (same answer: the
/// Unicode-aware trims run only when a non-ASCII byte is reached).
pub(crate) fn trim(s: &str) -> &str {
    // ASCII whitespace is at most b' '; a visible ASCII byte at both ends
    // means nothing to trim (the common case).
    let visible = |c: &u8| *c > b' ' && *c < 0x80;
    if s.as_bytes().first().is_some_and(visible) && s.as_bytes().last().is_some_and(visible) {
        return s;
    }
    let s = trim_start(s);
    let b = s.as_bytes();
    if b.last().is_none_or(visible) {
        return s;
    }
    let mut e = b.len();
    while let Some(&c) = e.checked_sub(1).and_then(|i| b.get(i)) {
        if !is_ascii_space(c) {
            break;
        }
        e -= 1;
    }
    let rest = s.get(..e).unwrap_or("");
    match e.checked_sub(1).and_then(|i| b.get(i)) {
        Some(&c) if c >= 0x80 => rest.trim_end(),
        _ => rest,
    }
}

/// `s.trim().is_empty()`, with a byte loop for ASCII (same answer).
pub(crate) fn is_blank(s: &str) -> bool {
    match s.bytes().find(|&c| !is_ascii_space(c)) {
        None => true,
        Some(c) if c >= 0x80 => s.trim().is_empty(),
        Some(_) => false,
    }
}

/// Eight `0x01` bytes: with [`HI`], the SWAR ("SIMD within a register")
/// constants of the byte searches below, which look at eight bytes per step
/// with plain `u64` arithmetic (no dependency, no `unsafe`, fine on wasm32).
const LO: u64 = 0x0101_0101_0101_0101;
/// Eight `0x80` bytes.
const HI: u64 = 0x8080_8080_8080_8080;

/// The high bit of every byte of `w` equal to the byte repeated in `pat`.
/// Only the lowest set bit is exact (a borrow can mark bytes above a real
/// match), which is the only one callers read.
fn eq_mask(w: u64, pat: u64) -> u64 {
    let x = w ^ pat;
    x.wrapping_sub(LO) & !x & HI
}

/// Offset of the lowest marked byte of a non-zero mask.
fn lowest(m: u64) -> usize {
    (m.trailing_zeros() / 8) as usize
}

/// The first index at or after `from` whose byte `hit` marks (`hit` maps
/// a little-endian word to an [`eq_mask`]-style mask); `tail` tests single
/// bytes of the last partial word.
fn find_word(
    b: &[u8],
    from: usize,
    hit: impl Fn(u64) -> u64,
    tail: impl Fn(u8) -> bool,
) -> Option<usize> {
    let rest = b.get(from..)?;
    // Two words per step, one branch for both: lines and strings run for
    // dozens of bytes between hits.
    let mut pairs = rest.chunks_exact(16);
    let mut off = from;
    for p in &mut pairs {
        if let Ok(w) = <[u8; 16]>::try_from(p) {
            let v = u128::from_le_bytes(w);
            let (m0, m1) = (hit(v as u64), hit((v >> 64) as u64));
            if m0 | m1 != 0 {
                return Some(if m0 != 0 {
                    off + lowest(m0)
                } else {
                    off + 8 + lowest(m1)
                });
            }
        }
        off += 16;
    }
    let mut chunks = pairs.remainder().chunks_exact(8);
    for c in &mut chunks {
        if let Ok(w) = <[u8; 8]>::try_from(c) {
            let m = hit(u64::from_le_bytes(w));
            if m != 0 {
                return Some(off + lowest(m));
            }
        }
        off += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| tail(c))
        .map(|p| off + p)
}

/// The first index at or after `from` holding byte `c`.
pub(crate) fn find_byte(b: &[u8], from: usize, c: u8) -> Option<usize> {
    let pat = LO.wrapping_mul(u64::from(c));
    find_word(b, from, |w| eq_mask(w, pat), |x| x == c)
}

/// [`str::lines`], with the word-at-a-time [`find_byte`] for the `\n`s:
/// the same lines (a `\r` before a `\n` dropped, none after the last
/// `\n`), found with less work per byte than `lines`' general search.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut cursor = Lines::new(text);
    std::iter::from_fn(move || cursor.next_from(0))
}

/// [`lines`] as a cursor that can be told where the line it reads next
/// ends at the earliest: a line the caller already holds read (an
/// instruction the program model read whole on one line) is not searched
/// byte by byte for its `\n` again. The same lines as [`lines`].
pub(crate) struct Lines<'t> {
    text: &'t str,
    start: usize,
}

impl<'t> Lines<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        Lines { text, start: 0 }
    }

    /// The lines of `text` from byte `start` on (the start of a line).
    pub(crate) fn starting_at(text: &'t str, start: usize) -> Self {
        Lines { text, start }
    }

    /// The next line, its `\n` searched from `from` (clamped to the line's
    /// start): no `\n` may lie between the line's start and `from`.
    pub(crate) fn next_from(&mut self, from: usize) -> Option<&'t str> {
        let b = self.text.as_bytes();
        let start = self.start;
        if start >= b.len() {
            return None;
        }
        let (end, next) = match find_byte(b, from.clamp(start, b.len()), b'\n') {
            Some(e) => {
                let cr = e > start && b.get(e - 1) == Some(&b'\r');
                (if cr { e - 1 } else { e }, e + 1)
            }
            None => (b.len(), b.len()),
        };
        self.start = next;
        Some(self.text.get(start..end).unwrap_or(""))
    }
}

/// Inside a double-quoted string starting at `from` (just past the opening
/// quote), the index of the closing quote, skipping `\`-escaped bytes;
/// `None` when the text ends first.
pub(crate) fn string_end(b: &[u8], from: usize) -> Option<usize> {
    const QUOTE: u64 = LO.wrapping_mul(b'"' as u64);
    const BACKSLASH: u64 = LO.wrapping_mul(b'\\' as u64);
    let mut i = from;
    loop {
        let hit = find_word(
            b,
            i,
            |w| eq_mask(w, QUOTE) | eq_mask(w, BACKSLASH),
            |c| c == b'"' || c == b'\\',
        )?;
        if b.get(hit) == Some(&b'"') {
            return Some(hit);
        }
        i = hit + 2;
    }
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
pub(crate) fn take_while(b: &[u8], i: usize, f: impl Fn(u8) -> bool) -> usize {
    let Some(rest) = b.get(i..) else { return i };
    // Four bytes per step: names, keys and dimensions run for several bytes,
    // and the unrolled loop has one bound check per four.
    let mut it = rest.chunks_exact(4);
    let mut off = i;
    for c in &mut it {
        if let [c0, c1, c2, c3] = *c {
            if !f(c0) {
                return off;
            }
            if !f(c1) {
                return off + 1;
            }
            if !f(c2) {
                return off + 2;
            }
            if !f(c3) {
                return off + 3;
            }
        }
        off += 4;
    }
    for &c in it.remainder() {
        if !f(c) {
            return off;
        }
        off += 1;
    }
    off
}

/// From an opening bracket at `i`, the index just past its matching closer.
///
/// Counts `(`, `[`, `{` against `)`, `]`, `}` (tolerantly, without checking
/// that kinds match) and skips double-quoted strings with escapes. `None`
/// when the line ends first.
pub(crate) fn skip_balanced(b: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = i;
    while let Some(k) = next_special::<false>(b, j) {
        j = k;
        match b.get(j).map_or(PLAIN, |&c| CLASS[c as usize]) {
            PLAIN => {}
            QUOTE => j = string_end(b, j + 1)?,
            OPEN => depth += 1,
            CLOSE => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// From the `(` at `open`, the index just past its matching `)`, as
/// [`skip_balanced`] gives it, and whether nothing between them is a
/// bracket or a quote: plain operand names, the usual case, found without
/// counting.
pub(crate) fn close_paren(b: &[u8], open: usize) -> (Option<usize>, bool) {
    match next_special::<false>(b, open + 1) {
        Some(k) if b.get(k) == Some(&b')') => (Some(k + 1), true),
        _ => (skip_balanced(b, open), false),
    }
}

/// What [`for_each_attr`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// A top-level `key=value` attribute; its offset is the value's in the list.
    Attr,
    /// A field of the value of the attribute reported just before (one whose
    /// key is the `fields_of` argument), as [`for_each_field`] reads it; its
    /// offset is the field key's within that value.
    Field,
}

/// Calls `f(Item::Attr, key, value, value_start)` for every top-level
/// `key=value` item of a comma-separated attribute list (`, kind=kLoop,
/// calls=%f, metadata={...}`), `value_start` being the byte offset of the
/// value within `s`; after each attribute whose key is `fields_of`, calls
/// `f(Item::Field, ...)` for each field [`for_each_field`] finds in its value.
///
/// Reading the fields here, not in a second pass, matters for speed: nearly
/// every compiled instruction ends in `metadata={op_name="..." ...}`, the
/// longest part of the line. That usual form is read in one walk (see
/// [`fields_item`]); anything else is split byte by byte and its fields
/// read afterwards, which gives the same answer.
pub(crate) fn for_each_attr<'a>(
    s: &'a str,
    fields_of: &str,
    f: impl FnMut(Item, &'a str, &'a str, usize),
) {
    let _ = for_each_attr_balanced(s, fields_of, f);
}

/// [`for_each_attr`], answering whether the list's brackets balance: no
/// string left open, no closer without its opener, none left open (the
/// fields of a `fields_of` value read in one walk count as balanced).
pub(crate) fn for_each_attr_balanced<'a>(
    s: &'a str,
    fields_of: &str,
    mut f: impl FnMut(Item, &'a str, &'a str, usize),
) -> bool {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut start = 0usize;
    let mut j = 0usize;
    let mut item_start = true;
    let mut balanced = true;
    loop {
        if item_start {
            item_start = false;
            if let Some(end) = fields_item(s, start, fields_of, &mut f) {
                if end >= b.len() {
                    return balanced && depth == 0;
                }
                start = end + 1;
                j = start;
                item_start = true;
                continue;
            }
        }
        let Some(k) = next_special::<true>(b, j) else {
            break;
        };
        j = k;
        match b.get(j).map_or(PLAIN, |&c| CLASS[c as usize]) {
            PLAIN => {}
            QUOTE => match string_end(b, j + 1) {
                Some(e) => j = e,
                // An unterminated string runs to the end of the list.
                None => {
                    balanced = false;
                    break;
                }
            },
            OPEN => depth += 1,
            CLOSE => {
                balanced &= depth > 0;
                depth = depth.saturating_sub(1);
            }
            COMMA if depth == 0 => {
                emit_attr(s, start, j, fields_of, &mut f);
                start = j + 1;
                item_start = true;
            }
            _ => {}
        }
        j += 1;
    }
    emit_attr(s, start, b.len(), fields_of, &mut f);
    balanced && depth == 0
}

/// Reports the item `s[from..to]` of [`for_each_attr`]'s list when it is a
/// `key=value`, then the fields of its value when `key` is `fields_of`.
fn emit_attr<'a>(
    s: &'a str,
    from: usize,
    to: usize,
    fields_of: &str,
    f: &mut impl FnMut(Item, &'a str, &'a str, usize),
) {
    // An empty item (before the `,` every attribute list starts with) has
    // no `=`.
    if from >= to {
        return;
    }
    let Some(item) = s.get(from..to) else { return };
    let Some(eq) = find_byte(item.as_bytes(), 0, b'=') else {
        return;
    };
    let key = trim(item.get(..eq).unwrap_or(""));
    let raw = item.get(eq + 1..).unwrap_or("");
    let lead = raw.len() - trim_start(raw).len();
    if !key.is_empty() && key.bytes().all(is_name_byte) {
        let v = trim(raw);
        f(Item::Attr, key, v, from + eq + 1 + lead);
        if key == fields_of {
            for_each_field(v, |k, fv, at| f(Item::Field, k, fv, at));
        }
    }
}

/// Fields one attribute value may hold for [`fields_item`]'s one walk;
/// more go the long way.
const MAX_FIELDS: usize = 6;

/// Bytes that end an unquoted field value: the separators
/// [`for_each_field`] stops at, and the bytes [`for_each_attr`]'s splitting
/// acts on (after which [`fields_item`] leaves the item to it).
const FIELD_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = CLASS[i] != PLAIN || i == b' ' as usize;
        i += 1;
    }
    t
};

/// At the start of an attribute item (`start`, at depth 0), the usual form
/// `key={k="v" k=v ...}` with `key` equal to `fields_of`, followed by
/// whitespace and a `,` or the end of the list: reports it and its fields
/// through `f` exactly as [`for_each_attr`]'s byte-by-byte splitting and
/// [`for_each_field`] would, and returns the index of that `,` (or the
/// length). `None`, having reported nothing, for anything else: a byte that
/// the splitting would treat specially outside the strings (so its item end
/// could differ), a field that is not `key=value`, more than
/// [`MAX_FIELDS`] fields, an unterminated string.
fn fields_item<'a>(
    s: &'a str,
    start: usize,
    fields_of: &str,
    f: &mut impl FnMut(Item, &'a str, &'a str, usize),
) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = start;
    while b.get(i).is_some_and(|&c| is_ascii_space(c)) {
        i += 1;
    }
    let k1 = take_while(b, i, is_name_byte);
    let key = s.get(i..k1)?;
    if key.is_empty() || key != fields_of || b.get(k1..k1 + 2) != Some(b"={") {
        return None;
    }
    let v0 = k1 + 1;
    let mut fields = [("", "", 0usize); MAX_FIELDS];
    let mut nf = 0usize;
    let mut i = v0 + 1;
    let close = loop {
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        if *b.get(i)? == b'}' {
            break i;
        }
        let f1 = take_while(b, i, is_name_byte);
        if f1 == i || b.get(f1) != Some(&b'=') {
            return None;
        }
        let (val, next) = if b.get(f1 + 1) == Some(&b'"') {
            let e = string_end(b, f1 + 2)?;
            (s.get(f1 + 2..e)?, e + 1)
        } else {
            let e = take_while(b, f1 + 1, |c| !FIELD_STOP[c as usize]);
            (s.get(f1 + 1..e)?, e)
        };
        if !matches!(b.get(next), Some(b' ' | b'}')) {
            return None;
        }
        *fields.get_mut(nf)? = (s.get(i..f1)?, val, i - v0);
        nf += 1;
        i = next;
    };
    let mut end = close + 1;
    while b.get(end).is_some_and(|&c| is_ascii_space(c)) {
        end += 1;
    }
    if !matches!(b.get(end), None | Some(b',')) {
        return None;
    }
    f(Item::Attr, key, s.get(v0..close + 1)?, v0);
    for &(k, v, at) in fields.get(..nf)? {
        f(Item::Field, k, v, at);
    }
    Some(end)
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
    while let Some(at) = find_byte(h, i, first) {
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
            i = find_byte(b, k1.max(i + 1), b' ').unwrap_or(b.len());
            continue;
        }
        let v0 = k1 + 1;
        let (val, next) = if b.get(v0) == Some(&b'"') {
            let j = string_end(b, v0 + 1).unwrap_or(b.len());
            (s.get(v0 + 1..j).unwrap_or(""), j + 1)
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

/// A cheap hash (FxHash's step, then a finalizer) for the hot maps keyed by
/// short op names (the histogram, source ops). FxHash alone leaves the low
/// bits, which pick the bucket, to the first bytes of the last word, so
/// names that differ only in their trailing digits (`fused_computation.N`)
/// pile into a few buckets; the finalizer (MurmurHash3's `fmix64`) spreads
/// every input bit over every output bit. Maps that can hold hundreds of
/// thousands of names from the dump use [`Sip`] instead.
#[derive(Clone, Copy, Default)]
pub(crate) struct Fx(u64);

impl std::hash::Hasher for Fx {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
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

/// SipHash-1-3 with fixed keys (std's `DefaultHasher`): deterministic, so
/// output never depends on a run, and without a known way to make many names
/// collide short of brute force. For maps keyed by names or ids from the
/// dump that can grow with it (computations, stack-frame tables).
pub(crate) type Sip = std::hash::BuildHasherDefault<std::hash::DefaultHasher>;

impl std::hash::BuildHasher for Fx {
    type Hasher = Fx;
    fn build_hasher(&self) -> Fx {
        Fx(0)
    }
}

/// What a byte means to [`skip_balanced`] and [`for_each_attr`]: one table
/// load per byte and a single loop, instead of a search per special byte.
const CLASS: [u8; 256] = {
    let mut t = [PLAIN; 256];
    t[b'"' as usize] = QUOTE;
    t[b'(' as usize] = OPEN;
    t[b'[' as usize] = OPEN;
    t[b'{' as usize] = OPEN;
    t[b')' as usize] = CLOSE;
    t[b']' as usize] = CLOSE;
    t[b'}' as usize] = CLOSE;
    t[b',' as usize] = COMMA;
    t
};
/// [`CLASS`] with `,` as [`PLAIN`]: what [`skip_balanced`] looks for.
const BRACKETS: [u8; 256] = {
    let mut t = CLASS;
    t[b',' as usize] = PLAIN;
    t
};
/// A byte that changes no state.
const PLAIN: u8 = 0;
/// `"`: a string starts (and runs to the next unescaped `"`).
const QUOTE: u8 = 1;
/// `(`, `[`, `{`.
const OPEN: u8 = 2;
/// `)`, `]`, `}`.
const CLOSE: u8 = 3;
/// `,`: separates attributes at depth 0.
const COMMA: u8 = 4;

/// The first index at or after `from` holding `"`, a bracket (`()[]{}`) or,
/// with `COMMA`, a `,`: the bytes [`skip_balanced`] and [`for_each_attr`]
/// act on. A byte loop (unrolled by four) with one table load per byte:
/// these bytes are a few apart in shapes, operand lists and attributes,
/// where a word-at-a-time search costs more than it saves.
pub(crate) fn next_special<const COMMA: bool>(b: &[u8], from: usize) -> Option<usize> {
    let table = if COMMA { &CLASS } else { &BRACKETS };
    let rest = b.get(from..)?;
    let mut it = rest.chunks_exact(4);
    let mut off = from;
    for c in &mut it {
        if let [c0, c1, c2, c3] = *c {
            if table[c0 as usize] != PLAIN {
                return Some(off);
            }
            if table[c1 as usize] != PLAIN {
                return Some(off + 1);
            }
            if table[c2 as usize] != PLAIN {
                return Some(off + 2);
            }
            if table[c3 as usize] != PLAIN {
                return Some(off + 3);
            }
        }
        off += 4;
    }
    it.remainder()
        .iter()
        .position(|&c| table[c as usize] != PLAIN)
        .map(|p| off + p)
}

/// `]{` followed by a digit or `}`: a layout printed after a shape.
pub(crate) fn has_layout(l: &str) -> bool {
    // From each `]` (a byte search), look at the two bytes after it.
    let b = l.as_bytes();
    let mut i = 0usize;
    while let Some(at) = find_byte(b, i, b']') {
        if b.get(at + 1) == Some(&b'{')
            && b.get(at + 2)
                .is_some_and(|&c| c.is_ascii_digit() || c == b'}')
        {
            return true;
        }
        i = at + 1;
    }
    false
}

/// `param_` followed by a digit, starting a name.
pub(crate) fn has_param_name(l: &str) -> bool {
    find_all(l, "param_").any(|i| {
        let before_ok = i == 0 || !is_ident_byte(l.as_bytes().get(i - 1).copied().unwrap_or(b' '));
        before_ok && l.as_bytes().get(i + 6).is_some_and(|c| c.is_ascii_digit())
    })
}

/// A tile `T(` digits inside a layout (`:T(8,128)` or `)T(` chained tiles).
pub(crate) fn has_tiling(l: &str) -> bool {
    has_layout_part(l, "T(")
}

/// `S(` digits `)` inside a layout, after `:` or `)`.
pub(crate) fn has_memory_space(l: &str) -> bool {
    has_layout_part(l, "S(")
}

/// `open` (`T(` or `S(`) followed by a digit, after the `:` or `)` that
/// puts it inside a layout.
fn has_layout_part(l: &str, open: &str) -> bool {
    let b = l.as_bytes();
    find_all(l, open).any(|i| {
        let prev = i.checked_sub(1).and_then(|p| b.get(p)).copied();
        matches!(prev, Some(b':' | b')'))
            && b.get(i + open.len()).is_some_and(|c| c.is_ascii_digit())
    })
}

pub(crate) fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'-'
}

#[cfg(test)]
mod tests {
    //! The word-at-a-time searches and ASCII fast paths must answer exactly
    //! what the plain byte loops (and `str`'s Unicode-aware trims) answer:
    //! each is checked against a straightforward reference on inputs that
    //! put the interesting bytes at every offset of an eight-byte word.

    use super::*;
    use proptest::prelude::*;

    /// The byte-at-a-time reference of [`skip_balanced`] (the loop it replaced).
    fn ref_skip_balanced(b: &[u8], i: usize) -> Option<usize> {
        let (mut depth, mut j, mut in_str) = (0usize, i, false);
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

    /// The byte-at-a-time reference of [`for_each_attr`]'s splitting.
    fn ref_attrs(s: &str) -> Vec<(String, String, usize)> {
        let b = s.as_bytes();
        let (mut depth, mut in_str, mut start, mut j) = (0usize, false, 0usize, 0usize);
        let mut out = Vec::new();
        let mut emit = |from: usize, to: usize| {
            let Some(item) = s.get(from..to) else { return };
            let Some(eq) = item.find('=') else { return };
            let key = item.get(..eq).unwrap_or("").trim();
            let raw = item.get(eq + 1..).unwrap_or("");
            let lead = raw.len() - raw.trim_start().len();
            if !key.is_empty() && key.bytes().all(is_name_byte) {
                out.push((key.to_owned(), raw.trim().to_owned(), from + eq + 1 + lead));
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
        out
    }

    /// [`for_each_attr`]'s attributes, and the fields it reports after each
    /// `metadata` attribute.
    fn attrs(s: &str) -> Vec<(String, String, usize)> {
        let mut out = Vec::new();
        for_each_attr(s, "metadata", |item, k, v, at| {
            let k = match item {
                Item::Attr => k.to_owned(),
                Item::Field => format!("field {k}"),
            };
            out.push((k, v.to_owned(), at));
        });
        out
    }

    /// The reference: byte-by-byte splitting, then [`for_each_field`] on
    /// every `metadata` value.
    fn ref_attrs_fields(s: &str) -> Vec<(String, String, usize)> {
        let mut out = Vec::new();
        for (k, v, at) in ref_attrs(s) {
            let fields = k == "metadata";
            out.push((k, v.clone(), at));
            if fields {
                for_each_field(&v, |fk, fv, fat| {
                    out.push((format!("field {fk}"), fv.to_owned(), fat));
                });
            }
        }
        out
    }

    /// Checks every search on `s` from every offset against its reference.
    fn check(s: &str) {
        let b = s.as_bytes();
        for from in 0..=b.len() + 1 {
            for c in [b'"', b'(', b']', b'=', b' ', 0xc3] {
                let want = b
                    .get(from..)
                    .and_then(|r| r.iter().position(|&x| x == c))
                    .map(|p| from + p);
                assert_eq!(find_byte(b, from, c), want, "find_byte {s:?} {from} {c}");
            }
            assert_eq!(
                skip_balanced(b, from),
                ref_skip_balanced(b, from),
                "skip_balanced {s:?} {from}"
            );
            if let Some(t) = s.get(from..) {
                assert_eq!(attrs(t), ref_attrs_fields(t), "for_each_attr {t:?}");
            }
        }
        assert_eq!(
            lines(s).collect::<Vec<_>>(),
            s.lines().collect::<Vec<_>>(),
            "lines {s:?}"
        );
        assert_eq!(trim(s), s.trim(), "trim {s:?}");
        assert_eq!(trim_start(s), s.trim_start(), "trim_start {s:?}");
        assert_eq!(is_blank(s), s.trim().is_empty(), "is_blank {s:?}");
    }

    #[test]
    fn searches_agree_with_byte_loops() {
        for s in [
            "",
            "\"",
            "\\",
            "[256]{0:T(256)}",
            "(f32[8]{0}, s32[])",
            "{op_name=\"jit(fn)/sin\" stack_frame_id=1}",
            ", kind=kLoop, calls=%fused_computation.1, metadata={op_name=\"a\\\"(b\" source_line=3}",
            "backend_config={\"flag_configs\":[],\"window_config\":{\"kernel_window_bounds\":[\"8\",\"128\"]}}",
            "x=\"unterminated, y=1",
            "x=\"ends with backslash\\",
            "a=\"é\\é\", b=(ü, c=]] , d=}",
            "{{{{{{{{{{{{{{{{{{{{}",
            "\u{a0} padded \u{2003}",
            " \t\r\n\u{b}\u{c}",
            "\u{85}x\u{85}",
            "  %x.1 = f32[8]{0} parameter(0)  ",
            ", metadata={op_name=\"jit(f)/sin\" source_file=\"/x.py\" source_line=3}, backend_config={}",
            " metadata={op_name=\"a\" stack_frame_id=1} , x=1",
            "metadata={}, metadata={ }, metadata={a=1,b=2}, metadata={a=(1) b=2}",
            "metadata={a=\"x\"b=2}, metadata={a=\"x\\\"}\"}, metadata={a=1}x, y=2",
            "metadata={a=1 b=2 c=3 d=4 e=5 f=6 g=7}, metadata={a=1 b=2 c=3 d=4 e=5 f=6}",
            "metadata ={a=1}, metadata= {a=1}, metadata={=1}, metadata={a=1} }, z=2",
            "metadata={a=1}\t, \u{a0}metadata={a=1}, metadata={a=1}\u{a0}, metadata={a=}",
            "metadata={a=1 b=\"2\"}",
            "metadata={a=\"unterminated",
            "metadata={a=1 a=2}, metadata={b=3}",
            "a\nb\r\nc\r\r\n\n\r\nd\r",
            "\n",
            "\r\n\r",
            "last line\n\n",
        ] {
            check(s);
            // Shift the interesting bytes across a word boundary.
            for pad in 1..9 {
                check(&format!("{}{s}", "a".repeat(pad)));
            }
        }
    }

    proptest! {
        #[test]
        fn random_text_agrees(s in "[\"\\\\()\\[\\]{},= a0:Té\u{a0}\t]{0,40}") {
            check(&s);
        }

        #[test]
        fn random_lines_agree(s in "[a\r\né]{0,40}") {
            check(&s);
        }

        #[test]
        fn random_attribute_lists_agree(parts in prop::collection::vec(prop::sample::select(vec![
            "metadata", "={", "=", "\"", "\\", " ", ",", "}", "{", "(", ")", "op_name", "a", "1", "é", "\t", "\u{a0}",
        ]), 0..24)) {
            check(&parts.concat());
        }
    }
}
