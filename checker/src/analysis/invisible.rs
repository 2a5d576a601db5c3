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

/// The line (1-based) whose `ENTRY` keyword holds one of these characters
/// (it reads `ENTRY` once they are taken out, and not before), and the
/// first such character in it.
pub fn hidden_entry(text: &str) -> Option<(usize, char)> {
    text.lines().zip(1..).find_map(|(l, n)| {
        let head = l.trim_start();
        let first = head.chars().take(8).find(|&c| is_invisible(c))?;
        let clean: String = head
            .chars()
            .take(16)
            .filter(|&c| !is_invisible(c))
            .collect();
        clean.starts_with("ENTRY").then_some((n, first))
    })
}

/// For a message that `text` (repaired, its lines as pasted by `map`,
/// empty when nothing moved) has no `ENTRY` computation: nothing when the
/// text holds none of these characters, else a sentence to append, saying
/// how many there are and where: the line whose `ENTRY` one hides, or
/// else the first.
pub fn hint(text: &str, map: &LineMap) -> String {
    let pasted = |line: usize| {
        if map.is_empty() {
            line
        } else {
            map.get(line).0
        }
    };
    let (n, first) = find(text);
    let Some((line, c)) = first else {
        return String::new();
    };
    let many = if n == 1 { "" } else { "s" };
    match hidden_entry(text) {
        Some((at, h)) => format!(
            " (a U+{:04X} inside `ENTRY` on line {}, which is then not read; the text holds {n} zero-width or bidi control character{many})",
            u32::from(h),
            pasted(at)
        ),
        None => format!(
            " (the text holds {n} zero-width or bidi control character{many}, the first a U+{:04X} on line {}: a keyword with one inside, such as ENTRY, is not read)",
            u32::from(c),
            pasted(line)
        ),
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
                " (a U+200B inside `ENTRY` on line 3, which is then not read; the text holds 1 zero-width or bidi control character)",
            ),
            (
                "HloModule jit_\u{2066}fn\n\nEN\u{2060}TRY %main.3 (Arg_0.1: f32[8]) -> f32[8] {\n\u{AD}",
                " (a U+2060 inside `ENTRY` on line 3, which is then not read; the text holds 3 zero-width or bidi control characters)",
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
