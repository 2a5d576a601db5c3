//! Long dump lines, shown sanely: a custom call that carries a compiled
//! kernel (a Pallas kernel's Mosaic body, its Triton IR) prints one quoted
//! string of thousands of characters on one line. In a question's snippet
//! such a string is cut to its first characters and a count of what was
//! left out, so the attributes around it (the target, the grid, the name,
//! the metadata) stay on screen. Only the shown text changes: line numbers,
//! keys and grading read the dump itself.

use std::borrow::Cow;

/// A quoted string longer than this many characters is cut.
const LONG_STRING: usize = 160;
/// How many of its characters stay.
const KEEP: usize = 48;

/// `line` with every quoted string longer than [`LONG_STRING`] characters
/// cut to its first [`KEEP`] and `…[N more characters]`.
pub(crate) fn shorten(line: &str) -> Cow<'_, str> {
    if line.len() <= LONG_STRING {
        return Cow::Borrowed(line);
    }
    let mut out = String::new();
    let mut copied = 0;
    for (open, close) in quoted_spans(line) {
        let body = &line[open + 1..close];
        let chars = body.chars().count();
        if chars <= LONG_STRING {
            continue;
        }
        let keep_end = body.char_indices().nth(KEEP).map_or(body.len(), |(i, _)| i);
        out.push_str(&line[copied..open + 1 + keep_end]);
        out.push_str(&format!("…[{} more characters]", group(chars - KEEP)));
        copied = close;
    }
    if copied == 0 {
        return Cow::Borrowed(line);
    }
    out.push_str(&line[copied..]);
    Cow::Owned(out)
}

/// Byte offsets of each `"` that opens a string and of the `"` closing it
/// (a backslash escapes the next byte). An unclosed string is left alone.
fn quoted_spans(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'"' {
            i += 1;
            continue;
        }
        let open = i;
        i += 1;
        while i < b.len() && b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        if i >= b.len() {
            break;
        }
        spans.push((open, i));
        i += 1;
    }
    spans
}

/// `2171` as `2,171`.
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shorten;

    fn check(cases: &[(&str, &str)]) {
        for &(line, want) in cases {
            assert_eq!(shorten(line), want, "{line}");
        }
    }

    #[test]
    fn long_strings_are_cut_short_ones_kept() {
        let blob = "A".repeat(2200);
        let escaped = format!("{}\\\"{}", "b".repeat(100), "c".repeat(100));
        let long = format!(
            "%k = custom-call(%x), backend_config={{\"body\":\"{blob}\",\"x\":\"short\"}}, metadata={{op_name=\"p\"}}"
        );
        check(&[
            ("short line \"kept\"", "short line \"kept\""),
            (
                &long,
                &format!(
                    "%k = custom-call(%x), backend_config={{\"body\":\"{}…[2,152 more characters]\",\"x\":\"short\"}}, metadata={{op_name=\"p\"}}",
                    "A".repeat(48)
                ),
            ),
            // An escaped quote does not end the string; multi-byte text is
            // cut on a character boundary.
            (
                &format!("{}\"{escaped}\" tail", " ".repeat(170)),
                &format!(
                    "{}\"{}…[154 more characters]\" tail",
                    " ".repeat(170),
                    "b".repeat(48)
                ),
            ),
            (
                &format!("x \"{}\"", "é".repeat(300)),
                &format!("x \"{}…[252 more characters]\"", "é".repeat(48)),
            ),
            // Unclosed: left as it is.
            (
                &format!("x \"{}", "d".repeat(400)),
                &format!("x \"{}", "d".repeat(400)),
            ),
        ]);
    }
}
