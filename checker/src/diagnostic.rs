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

    /// Adds what to do about it.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Whether this stops the build.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}: {}",
            self.file, self.line, self.column, self.severity, self.message
        )?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  help: {hint}")?;
        }
        Ok(())
    }
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
    fn renders_like_a_compiler() {
        let d = Diagnostic::error("glossary.toml", 3, 7, "duplicate id `xla`")
            .with_hint("rename one of them");
        assert_eq!(
            d.to_string(),
            "glossary.toml:3:7: error: duplicate id `xla`\n  help: rename one of them"
        );
    }
}
