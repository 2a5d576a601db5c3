//! Problems found in course sources (glossary, fixtures, exercises), each
//! pointing at a place in a file.
//!
//! Validators collect every problem before reporting, so an instructor fixes
//! a whole file in one round trip. Rendering follows the compiler convention
//! `file:line:column: error: message` that editors and terminals link.

use std::fmt;

/// How bad a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Stops the build: a learner would be graded against something wrong.
    Error,
    /// Reported, but the build goes on (for example a fixture still marked draft).
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One problem in one source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The file as the user names it (repo-relative where possible).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error at `line:column` of `file`.
    pub fn error(
        file: impl Into<String>,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity: Severity::Error,
            file: file.into(),
            line,
            column,
            message: message.into(),
            hint: None,
        }
    }

    /// A warning at `line:column` of `file`.
    pub fn warning(
        file: impl Into<String>,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(file, line, column, message)
        }
    }

    /// An error at the byte `offset` of `source`, the text of `file`.
    pub fn error_at(
        file: impl Into<String>,
        source: &str,
        offset: usize,
        message: impl Into<String>,
    ) -> Self {
        let (line, column) = line_column(source, offset);
        Self::error(file, line, column, message)
    }

    /// A warning at the byte `offset` of `source`, the text of `file`.
    pub fn warning_at(
        file: impl Into<String>,
        source: &str,
        offset: usize,
        message: impl Into<String>,
    ) -> Self {
        let (line, column) = line_column(source, offset);
        Self::warning(file, line, column, message)
    }

    /// Adds what to do about it.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The order problems are printed in: errors before warnings (so a
    /// warning that says "has errors (above)" follows them), each by file
    /// and position.
    pub fn report_order(&self, other: &Self) -> std::cmp::Ordering {
        (self.severity, &self.file, self.line, self.column).cmp(&(
            other.severity,
            &other.file,
            other.line,
            other.column,
        ))
    }

    /// Whether this stops the build.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// One line `file:line:column: severity: message`, then `  help: hint`.
    /// Messages quote course text, so control characters (terminal escapes,
    /// line breaks, bidi overrides) are shown escaped, never acted on.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}: {}",
            printable(&self.file),
            self.line,
            self.column,
            self.severity,
            printable(&self.message)
        )?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  help: {}", printable(hint))?;
        }
        Ok(())
    }
}

/// `s` with control characters and bidirectional overrides escaped
/// (`\u{1b}`, `\n`, `\u{202e}`), for text printed to a terminal.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    let hostile =
        |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !s.chars().any(hostile) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if hostile(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The candidate closest to `word` when it is close enough to be a typo:
/// at most one edit for words of four letters or fewer, else two or a third
/// of the candidate's length, case ignored. The one "did you mean" of the
/// course's messages.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let word = word.to_lowercase();
    let short = word.chars().count() <= 4;
    candidates
        .into_iter()
        .map(|c| (edit_distance(&word, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= if short { 1 } else { 2.max(c.len() / 3) })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance, with a transposition counting as one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: the one before the previous (for transpositions), the
    // previous, the current.
    let mut two_back = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(two_back[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut two_back, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The 1-based line and character column of byte `offset` in `source`.
///
/// An offset past the end, or inside a multi-byte character, is clamped to
/// the nearest character boundary before it.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_characters_not_bytes() {
        let src = "ab\nµx\n";
        assert_eq!(line_column(src, 0), (1, 1));
        assert_eq!(line_column(src, 3), (2, 1));
        assert_eq!(line_column(src, 5), (2, 2)); // after the two-byte µ
        assert_eq!(line_column(src, 4), (2, 1)); // inside µ: clamped back
        assert_eq!(line_column(src, 999), (3, 1));
    }

    #[test]
    fn did_you_mean_finds_typos_only() {
        let keys = ["tooltips", "glossary", "fixtures", "exercises"];
        for (word, expect) in [
            ("tooltip", Some("tooltips")),
            ("glosary", Some("glossary")),
            ("Fixtures", Some("fixtures")),
            ("exercsie", Some("exercises")),
            ("command", None),
            ("x", None),
        ] {
            assert_eq!(did_you_mean(word, keys), expect, "{word}");
        }
        assert_eq!(did_you_mean("exercize", ["exercise"]), Some("exercise"));
        assert_eq!(did_you_mean("include", ["exercise"]), None);
        assert_eq!(did_you_mean("titel", ["title"]), Some("title"));
    }

    #[test]
    fn control_characters_are_shown_not_acted_on() {
        let d = Diagnostic::error("a\u{1b}[2J.toml", 1, 1, "id `x\u{1b}]8;;evil\u{7}\n`")
            .with_hint("rename \u{202e}gnp.exe");
        assert_eq!(
            d.to_string(),
            "a\\u{1b}[2J.toml:1:1: error: id `x\\u{1b}]8;;evil\\u{7}\\n`\n  help: rename \\u{202e}gnp.exe"
        );
    }

    #[test]
    fn renders_like_a_compiler() {
        let d = Diagnostic::error("glossary.toml", 3, 7, "duplicate id `xla`")
            .with_hint("rename one of them");
        assert_eq!(
            d.to_string(),
            "glossary.toml:3:7: error: duplicate id `xla`\n  help: rename one of them"
        );
    }
}
