//! What `print.html` holds beyond mdBook's concatenation of every chapter.
//!
//! mdBook builds `print.html` from all chapters with the HTML renderer, so a
//! preprocessor cannot drop a chapter from print alone (it sees one book for
//! both). Instead, a chapter named in `print-omit` (`[preprocessor.dumplab]`,
//! the instructors' chapter by default) is wrapped in
//! `<div class="dumplab-print-omit">`, and `theme/print.css` hides it, with
//! the page break before it, on the page whose `<html>` carries
//! `dumplab-print-book` (set by `theme/index.hbs` for `print.html` only).
//! The chapter's own page is untouched, on screen and printed.
//!
//! The answer key ([`answer_key`]) is the other half: every placed
//! question's answer, from its sealed key, shown only in print.

pub(crate) mod answer_key;

use dumplab::Diagnostic;
use std::collections::BTreeSet;
use std::path::Path;

/// The class that `theme/print.css` hides inside `print.html`.
pub(crate) const OMIT_CLASS: &str = "dumplab-print-omit";

/// `content` wrapped so that `print.html` leaves it out. The blank lines
/// keep the chapter's Markdown Markdown (an HTML block ends at a blank line).
pub(crate) fn omit(content: &str) -> String {
    format!("<div class=\"{OMIT_CLASS}\">\n\n{content}\n\n</div>\n")
}

/// Reports each configured `print-omit` entry that names no chapter, at the
/// setting's value in `book.toml`, with the nearest chapter path.
pub(crate) fn check_omitted(
    root: &Path,
    omitted: &[String],
    chapters: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) {
    for entry in omitted.iter().filter(|e| !chapters.contains(*e)) {
        let mut hint = String::from(
            "name a chapter by its path under `src/`, as in SUMMARY.md (`instructors.md`), or remove it",
        );
        if let Some(near) = dumplab::did_you_mean(entry, chapters.iter().map(String::as_str)) {
            hint = format!("did you mean `{near}`? {hint}");
        }
        diags.push(
            crate::settings::error_at_value(
                root,
                "print-omit",
                format!("`print-omit` names `{entry}`, which is no chapter of this book"),
            )
            .with_hint(hint),
        );
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// `check(entries, expect)`: the diagnostics as `line:col message | hint`.
    fn check(entries: &[&str], expect: &[&str]) {
        let dir = std::env::temp_dir().join(format!("dumplab-print-omit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("book.toml"),
            "[book]\ntitle = \"t\"\n\n[preprocessor.dumplab]\nprint-omit = [\"x\"]\n",
        )
        .unwrap();
        let chapters: BTreeSet<String> = ["intro.md", "instructors.md", "part/teachers.md"]
            .map(String::from)
            .into();
        let entries: Vec<String> = entries.iter().map(|e| (*e).to_owned()).collect();
        let mut diags = Vec::new();
        check_omitted(&dir, &entries, &chapters, &mut diags);
        let got: Vec<String> = diags.iter().map(crate::settings::tests::brief).collect();
        assert_eq!(got, expect);
    }

    #[test]
    fn omitted_entries_must_name_chapters() {
        check(&["instructors.md", "part/teachers.md"], &[]);
        check(&[], &[]);
        check(
            &["instructor.md"],
            &[
                "5:14 `print-omit` names `instructor.md`, which is no chapter of this book | did you mean `instructors.md`? name a chapter by its path under `src/`, as in SUMMARY.md (`instructors.md`), or remove it",
            ],
        );
        check(
            &["zzzzzz"],
            &[
                "5:14 `print-omit` names `zzzzzz`, which is no chapter of this book | name a chapter by its path under `src/`, as in SUMMARY.md (`instructors.md`), or remove it",
            ],
        );
    }

    #[test]
    fn omitted_content_stays_markdown_inside_one_wrapper() {
        let out = omit("# Title\n\nText with `code`.");
        assert_eq!(
            out,
            "<div class=\"dumplab-print-omit\">\n\n# Title\n\nText with `code`.\n\n</div>\n"
        );
        // Markdown still sees the heading and the code span between the
        // wrapper's two HTML blocks.
        use pulldown_cmark::{Event, Parser, Tag};
        let events: Vec<Event<'_>> = Parser::new(&out).collect();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Start(Tag::Heading { .. })))
        );
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Code(c) if &**c == "code"))
        );
        let html: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                Event::Html(h) => Some(h.trim().to_owned()),
                _ => None,
            })
            .collect();
        assert_eq!(html, ["<div class=\"dumplab-print-omit\">", "</div>"]);
    }
}
