//! Where a question's problems are reported: the exercise file, the
//! question's table in it, and the diagnostics collected so far.

use crate::diagnostic::Diagnostic;
use std::ops::Range;

/// The question being resolved, for diagnostics.
pub(super) struct Cx<'a> {
    /// The exercise file's name.
    pub(super) file: &'a str,
    /// Its text.
    pub(super) source: &'a str,
    /// The question's `[[question]]` table in it.
    pub(super) span: Range<usize>,
    /// Every problem found so far.
    pub(super) diags: &'a mut Vec<Diagnostic>,
}

impl Cx<'_> {
    /// The offset of `key = ` inside the question's table (which runs to
    /// the next `[[question]]`), or the table's start.
    fn offset_of(&self, key: &str) -> usize {
        let start = self.span.start.min(self.source.len());
        key_offset(self.source, start, key).unwrap_or(start)
    }

    /// Reports an error at `key` of the question.
    pub(super) fn error(&mut self, key: &str, message: impl Into<String>, hint: &str) {
        let d = Diagnostic::error_at(self.file, self.source, self.offset_of(key), message)
            .with_hint(hint);
        self.diags.push(d);
    }
}

/// The offset of the line setting `key` in the `[[question]]` table that
/// starts at `start` (searching up to the next `[[question]]` header).
pub(super) fn key_offset(source: &str, start: usize, key: &str) -> Option<usize> {
    let mut pos = start;
    for (i, line) in source[start..].split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if i > 0 && trimmed.trim_end() == "[[question]]" {
            return None;
        }
        if let Some(rest) = trimmed.strip_prefix(key)
            && let Some(after_eq) = rest.trim_start().strip_prefix('=')
        {
            // The value, which is what an author changes.
            let value = after_eq.trim_start();
            return Some(pos + line.len() - trimmed.len() + key.len() + rest.len() - value.len());
        }
        pos += line.len();
    }
    None
}

/// The closest of `names` to `name`, for "did you mean".
pub(super) fn did_you_mean<'n>(
    name: &str,
    names: impl Iterator<Item = &'n str>,
) -> Option<&'n str> {
    crate::diagnostic::did_you_mean(name, names)
}

/// The row of `rows` whose name (`name_of`) is `asked`; else one error at
/// `ask` that names the closest ask and every one (`what`: "a cost
/// question").
pub(super) fn find_ask<'r, R>(
    rows: &'r [R],
    name_of: impl Fn(&R) -> &'static str,
    asked: &str,
    what: &str,
    cx: &mut Cx<'_>,
) -> Option<&'r R> {
    if let Some(row) = rows.iter().find(|r| name_of(r) == asked) {
        return Some(row);
    }
    let names = rows.iter().map(&name_of);
    let near = did_you_mean(asked, names.clone())
        .map(|n| format!("did you mean `{n}`? "))
        .unwrap_or_default();
    let all = names.collect::<Vec<_>>().join(", ");
    cx.error(
        "ask",
        format!("`{asked}` is not something {what} asks"),
        &format!("{near}The asks: {all}"),
    );
    None
}
