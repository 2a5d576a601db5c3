//! Zero-width and bidi control characters in a text: invisible where a
//! dump is shown, and a keyword with one inside (`EN\u{200B}TRY`) is not
//! the keyword, so a reader that finds no `ENTRY` says they are there
//! ([`hint`]). The same characters as the playground's table
//! (`src/dumplab-playground-invisible.js`), which shows them.

/// The characters, one row per range of code points: the soft hyphen and
/// the combining grapheme joiner (nothing drawn mid-line), the Arabic
/// letter mark, zero-width spaces and joiners with the left-to-right and
/// right-to-left marks, embeddings and overrides, the word joiner and the
/// invisible operators, isolates, the BOM.
pub const RANGES: [(char, char); 8] = [
    ('\u{00AD}', '\u{00AD}'),
    ('\u{034F}', '\u{034F}'),
    ('\u{061C}', '\u{061C}'),
    ('\u{200B}', '\u{200F}'),
    ('\u{202A}', '\u{202E}'),
    ('\u{2060}', '\u{2064}'),
    ('\u{2066}', '\u{2069}'),
    ('\u{FEFF}', '\u{FEFF}'),
];

/// Whether `c` is one of [`RANGES`].
pub fn is_invisible(c: char) -> bool {
    RANGES.iter().any(|&(a, z)| (a..=z).contains(&c))
}

/// How many such characters `text` holds, and the first: its 1-based line
/// and the character. One pass over the text.
pub fn find(text: &str) -> (usize, Option<(usize, char)>) {
    let mut n = 0usize;
    let mut first = None;
    let mut line = 1usize;
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        } else if is_invisible(c) {
            n += 1;
            first = first.or(Some((line, c)));
        }
    }
    (n, first)
}

/// For a message that `text` (repaired, its lines as pasted by `map`,
/// empty when nothing moved) has no `ENTRY` computation: nothing when the
/// text holds none of these characters, else a sentence to append, saying
/// how many and on which pasted line the first is.
pub fn hint(text: &str, map: &LineMap) -> String {
    match find(text) {
        (n, Some((line, c))) => format!(
            " (the text holds {n} zero-width or bidi control character{}, the first a U+{:04X} on line {line}: a keyword with one inside, such as ENTRY, is not read)",
            if n == 1 { "" } else { "s" },
            u32::from(c),
            line = if map.is_empty() {
                line
            } else {
                map.get(line).0
            }
        ),
        _ => String::new(),
    }
}

use super::pasted::LineMap;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn found_and_said() {
        for (text, want) in [
            ("ENTRY %main.3 (Arg_0.1: f32[8]) -> f32[8] {", ""),
            (
                "HloModule jit_fn\n\nEN\u{200B}TRY %main.3 (Arg_0.1: f32[8]) -> f32[8] {",
                " (the text holds 1 zero-width or bidi control character, the first a U+200B on line 3: a keyword with one inside, such as ENTRY, is not read)",
            ),
            (
                "HloModule jit_fn\n\nEN\u{2060}TRY %main.3 (Arg_0.1: f32[8]) -> f32[8] {\n\u{AD}",
                " (the text holds 2 zero-width or bidi control characters, the first a U+2060 on line 3: a keyword with one inside, such as ENTRY, is not read)",
            ),
            (
                "\u{FEFF}HloModule jit_\u{202E}fn, is_scheduled=true\n\u{061C}",
                " (the text holds 3 zero-width or bidi control characters, the first a U+FEFF on line 1: a keyword with one inside, such as ENTRY, is not read)",
            ),
        ] {
            assert_eq!(hint(text, &LineMap::default()), want, "{text}");
        }
        // Every row's ends, and the characters beside them.
        for &(a, z) in &RANGES {
            assert!(is_invisible(a) && is_invisible(z));
            assert!(!is_invisible(
                char::from_u32(u32::from(a) - 1).unwrap_or('a')
            ));
            assert!(!is_invisible(
                char::from_u32(u32::from(z) + 1).unwrap_or('a')
            ));
        }
    }
}
