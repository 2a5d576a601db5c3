//! `{{#dumplab-answer-key}}`: every placed question's answer, for print.
//!
//! The answers come from [`dumplab::grade::reveal`] on each question's sealed
//! key and content hash, the call behind the page's "Show answer" and
//! `mdbook-dumplab grade --reveal`, so the key cannot drift from what the
//! checker grades. Questions are listed per chapter in book order, as they
//! are placed (a question in no chapter is in no key).
//!
//! The key shows only in print (`theme/print.css`): on screen its chapter
//! says where the key is instead, so the web pages keep every answer sealed
//! to the eye. The text is still in the page, as any print stylesheet's
//! would be; `book.toml` also keeps the chapter out of mdBook's search
//! index (`[output.html.search.chapter."answer-key.md"]`).

use crate::exercises::render::{inline, type_label};
use crate::html::escape;
use dumplab::Diagnostic;
use dumplab::exercise::key::Mode;
use dumplab::exercise::resolve::Resolved;
use dumplab::grade::{Verdict, reveal};
use std::fmt::Write as _;

/// The questions one chapter shows, in page order.
pub(crate) struct ChapterQuestions<'a> {
    /// The chapter's page, relative to the book root (`two-dumps.html`).
    pub(crate) page: String,
    /// The chapter's title.
    pub(crate) title: String,
    /// Its questions.
    pub(crate) questions: Vec<&'a Resolved>,
}

/// The answer key's HTML (one raw-HTML block), or errors for questions
/// whose key does not open (never for keys this build sealed). `chapter`
/// names the key's chapter in diagnostics.
pub(crate) fn render(
    chapter: &str,
    chapters: &[ChapterQuestions<'_>],
    diags: &mut Vec<Diagnostic>,
) -> String {
    let mut out = String::from(
        "\n\n<div class=\"dumplab-answer-key\">\n<p class=\"dumplab-key-screen\">The answer key prints at the end of the book: open the <a href=\"print.html\">printable book</a> and print it. It is not shown on screen, so that it gives no exercise away.</p>\n",
    );
    for ch in chapters.iter().filter(|c| !c.questions.is_empty()) {
        let _ = writeln!(
            out,
            "<section class=\"dumplab-key-chapter\"><h2>{}</h2>\n<ol class=\"dumplab-key-list\">",
            escape(&ch.title)
        );
        for q in &ch.questions {
            match reveal(&q.id, &q.hash, &q.sealed) {
                Ok(v) => entry(&mut out, &ch.page, q, &v),
                Err(_) => diags.push(Diagnostic::error(
                    chapter,
                    1,
                    1,
                    format!("the sealed key of question `{}` does not open", q.id),
                )),
            }
        }
        out.push_str("</ol></section>\n");
    }
    out.push_str("</div>\n\n");
    crate::html::inert(out)
}

/// One question's entry: what was asked (linked to the question), the
/// answer as "Show answer" words it, for an evidence question the lines
/// that prove it, and the explanation.
fn entry(out: &mut String, page: &str, q: &Resolved, v: &Verdict) {
    let id = escape(&q.id);
    let _ = write!(
        out,
        "<li class=\"dumplab-key-entry\" data-dumplab-key-for=\"{id}\" data-answer=\"{}\"><p class=\"dumplab-key-q\"><a href=\"{}#q-{id}\">{}</a>: {}</p>",
        escape(&v.answer_ids.join(",")),
        escape(page),
        type_label(q.type_name),
        inline(&q.prompt)
    );
    let _ = write!(
        out,
        "<p class=\"dumplab-key-a\"><strong>Answer:</strong> {}</p>",
        inline(&v.answer)
    );
    // The proving lines are the answer of an evidence question; elsewhere
    // they are the page's supporting detail, too long for a printed key.
    if q.mode == Mode::Lines && !v.lines.is_empty() {
        out.push_str("<ul class=\"dumplab-key-lines\">");
        for (line, note) in &v.lines {
            let _ = write!(
                out,
                "<li><strong>Line {line}:</strong> {}</li>",
                inline(note)
            );
        }
        out.push_str("</ul>");
    }
    if !v.explanation.is_empty() {
        let _ = write!(
            out,
            "<p class=\"dumplab-key-why\">{}</p>",
            inline(&v.explanation)
        );
    }
    out.push_str("</li>\n");
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::exercises::tests::{exercises, golden};

    fn chapters(ex: &crate::exercises::Exercises) -> Vec<ChapterQuestions<'_>> {
        let qs: Vec<&Resolved> = ex.files()["exercises/t.toml"].iter().collect();
        vec![
            ChapterQuestions {
                page: "a.html".into(),
                title: "Intro <&> \"quoted\"".into(),
                questions: vec![],
            },
            ChapterQuestions {
                page: "ch/t.html".into(),
                title: "Two <b>dumps</b>".into(),
                questions: qs,
            },
        ]
    }

    #[test]
    fn the_key_matches_the_golden_html() {
        let (ex, diags) = exercises();
        assert!(diags.is_empty(), "{diags:#?}");
        let mut diags = Vec::new();
        let html = render("src/answer-key.md", &chapters(&ex), &mut diags);
        assert!(diags.is_empty(), "{diags:#?}");
        golden("answer-key.html", &html);
    }

    /// Each entry's answer is the resolver's plain key (never unsealed by
    /// hand here), and every authored string is escaped.
    #[test]
    fn every_answer_is_the_resolved_key_and_nothing_is_markup() {
        let (ex, _) = exercises();
        let mut diags = Vec::new();
        let html = render("src/answer-key.md", &chapters(&ex), &mut diags);
        for q in &ex.files()["exercises/t.toml"] {
            let want = format!(
                "data-dumplab-key-for=\"{}\" data-answer=\"{}\"",
                q.id,
                q.key.answer.join(",")
            );
            assert!(html.contains(&want), "{want}\n{html}");
        }
        assert_eq!(
            html.matches("<section").count(),
            1,
            "a chapter without questions has no section"
        );
        assert!(html.contains("<h2>Two &lt;b&gt;dumps&lt;/b&gt;</h2>"));
        for bad in ["<script", "<img", "</label><", "{{"] {
            assert!(!html.contains(bad), "{bad} in {html}");
        }
        assert!(
            !html.contains("\n\n\n") && html.trim().lines().all(|l| !l.trim().is_empty()),
            "one raw-HTML block"
        );
    }

    #[test]
    fn a_key_that_does_not_open_is_an_error_not_a_guess() {
        let (ex, _) = exercises();
        let mut broken = ex.files()["exercises/t.toml"][0].clone();
        broken.sealed = "AAAA".into();
        let qs = vec![&broken];
        let chapters = vec![ChapterQuestions {
            page: "t.html".into(),
            title: "T".into(),
            questions: qs,
        }];
        let mut diags = Vec::new();
        let html = render("src/answer-key.md", &chapters, &mut diags);
        assert_eq!(diags.len(), 1);
        assert!(
            diags[0].message.contains("classify-1"),
            "{}",
            diags[0].message
        );
        assert!(!html.contains("data-dumplab-key-for"));
    }
}
