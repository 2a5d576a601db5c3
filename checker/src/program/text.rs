//! Text scanning for the HLO reader: physical lines joined into logical
//! ones while brackets are open, and operand lists split with XLA's
//! `/*index=N*/` comments skipped.

use crate::analysis::scan::{self, string_end};

/// Net bracket depth of a line (`(`, `[`, `{` against their closers),
/// outside double-quoted strings; a string still open at the end of the
/// line runs to it.
pub(crate) fn depth_delta(l: &str) -> isize {
    let b = l.as_bytes();
    let mut d = 0isize;
    let mut i = 0usize;
    // Brackets and quotes are a few per line: jump between them.
    while let Some(k) = scan::next_special::<false>(b, i) {
        match b.get(k) {
            Some(b'"') => match string_end(b, k + 1) {
                Some(e) => i = e + 1,
                None => break,
            },
            Some(b'(' | b'[' | b'{') => {
                d += 1;
                i = k + 1;
            }
            Some(_) => {
                d -= 1;
                i = k + 1;
            }
            None => break,
        }
    }
    d
}

/// The byte offset of `part` (a slice of `text`) in `text`.
pub(crate) fn offset_in(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

/// Strips every `/* ... */` comment from the ends of an operand
/// (`/*index=5*/%f.1` → `%f.1`).
pub(crate) fn strip_comments(mut s: &str) -> &str {
    loop {
        s = s.trim();
        if let Some(rest) = s.strip_prefix("/*") {
            match rest.find("*/") {
                Some(e) => s = rest.get(e + 2..).unwrap_or(""),
                None => return "",
            }
        } else if let Some(rest) = s.strip_suffix("*/") {
            match rest.rfind("/*") {
                Some(e) => s = rest.get(..e).unwrap_or(""),
                None => return s,
            }
        } else {
            return s;
        }
    }
}

/// Calls `f` on each top-level comma-separated part of `s` (not inside
/// brackets, braces, parentheses or strings), trimmed.
pub(crate) fn for_each_top<'a>(s: &'a str, mut f: impl FnMut(&'a str)) {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut start = 0usize;
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => match string_end(b, i + 1) {
                Some(e) => i = e,
                None => break,
            },
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                f(s.get(start..i).unwrap_or("").trim());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let last = s.get(start..).unwrap_or("").trim();
    if !last.is_empty() {
        f(last);
    }
}

/// One operand as printed: (shape printed before it, name without `%`).
/// `f32[8]{0} %x` → (`f32[8]{0}`, `x`); `/*index=5*/%f.1` → (none, `f.1`).
pub(crate) fn operand(part: &str) -> (Option<&str>, &str) {
    let p = strip_comments(part);
    match p.rsplit_once(' ') {
        Some((shape, name)) => (Some(shape.trim()), scan::strip_pct(strip_comments(name))),
        None => (None, scan::strip_pct(p)),
    }
}

/// `[%]name = ` at the start of a trimmed line, followed by a shape's
/// first byte.
pub(crate) fn looks_like_instruction(t: &str) -> bool {
    let b = t.as_bytes();
    let s = usize::from(b.first() == Some(&b'%'));
    let e = scan::take_while(b, s, scan::is_name_byte);
    if e == s {
        return false;
    }
    let k = scan::skip_ws(b, e);
    if b.get(k) != Some(&b'=') {
        return false;
    }
    let k = scan::skip_ws(b, k + 1);
    b.get(k)
        .is_some_and(|&c| c == b'(' || c.is_ascii_lowercase())
}
