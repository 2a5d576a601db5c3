//! Question HTML.
//!
//! Each question is one raw-HTML block with no blank line inside (so
//! CommonMark keeps it one block and runs no Markdown in it), carrying
//! `data-dumplab-question`, `data-type`, its content hash and its sealed key.
//! Dumps are the viewer's markup ([`crate::viewer`]).
//! Everything authored is escaped; the page works without JavaScript as a
//! printed worksheet, and `theme/exercises.js` turns it interactive.

use crate::html::escape;
use crate::templates::Templates;
use crate::templates::data::{FeedbackData, OptionData, QuestionData};
use dumplab::exercise::key::Mode;
use dumplab::exercise::resolve::{Resolved, Snippet};
use std::fmt::Write as _;

/// Escapes `text` and renders `` `code` `` spans as `<code>`.
pub(crate) fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            out.push_str(&escape(part));
        }
    }
    // An odd number of backticks leaves the last one literal: re-render plainly.
    if text.matches('`').count() % 2 == 1 {
        return escape(text);
    }
    out
}

/// What the page calls each question type: one row per
/// [`Question::TYPE_NAMES`](dumplab::exercise::model::Question::TYPE_NAMES)
/// entry (a test checks every one).
const TYPE_LABELS: [(&str, &str); 12] = [
    ("classify", "Which call?"),
    ("evidence", "Find the evidence"),
    ("count", "Count"),
    ("cost", "Where the time goes"),
    ("diff", "What changed"),
    ("folder", "The dump folder"),
    ("explain", "Why these kernels"),
    ("collective", "Many devices"),
    ("finding", "What was pasted"),
    ("pair", "Find the pair"),
    ("choice", "Multiple choice"),
    ("backend", "Which backend?"),
];

/// The page's label of question type `type_name` ("Question" for a type
/// without a row, which the test of [`TYPE_LABELS`] rules out).
pub(crate) fn type_label(type_name: &str) -> &'static str {
    TYPE_LABELS
        .iter()
        .find(|(t, _)| *t == type_name)
        .map_or("Question", |(_, label)| label)
}

/// The viewer of one dump (generated markup, dump text escaped).
fn snippet(s: &Snippet, selectable: bool) -> String {
    // Long quoted strings (a kernel serialized into a backend_config) are
    // cut for display; the line numbers still count the dump's lines.
    let text: Vec<_> = s.text.lines().map(super::longline::shorten).collect();
    crate::viewer::render(&crate::viewer::Dump {
        text: &text.join("\n"),
        language: s.language,
        first_line: s.first_line,
        caption: &s.caption,
        name: None,
        selectable,
    })
}

/// The HTML of one question, from the course's question and feedback
/// templates ([`crate::templates`]). Authored text reaches the template
/// either as raw text (escaped by the template) or as `*_html` fields
/// rendered here with every authored character escaped.
pub(crate) fn question(q: &Resolved, templates: &Templates) -> Result<String, String> {
    let mode = q.mode.as_str().to_owned();
    let feedback = templates.feedback(&FeedbackData {
        id: q.id.clone(),
        type_name: q.type_name.to_owned(),
        mode: mode.clone(),
    })?;
    templates.question(&QuestionData {
        id: q.id.clone(),
        type_name: q.type_name.to_owned(),
        type_label: type_label(q.type_name).to_owned(),
        is_single: q.mode == Mode::Single,
        is_lines: q.mode == Mode::Lines,
        is_number: q.mode == Mode::Number,
        mode,
        hash: q.hash.clone(),
        key: q.sealed.clone(),
        prompt_html: inline(&q.prompt),
        context_html: q.context.as_deref().map(inline),
        instruction_html: q.instruction.as_deref().map(inline),
        snippet_html: q
            .snippet
            .as_ref()
            .map(|s| snippet(s, q.mode == Mode::Lines)),
        candidates_html: q.candidates.iter().map(|c| snippet(c, false)).collect(),
        options: q
            .options
            .iter()
            .map(|(value, label)| OptionData {
                value: value.clone(),
                label_html: inline(label),
            })
            .collect(),
        feedback_html: feedback,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_code_and_escaping() {
        assert_eq!(
            inline("use `a<b>` here"),
            "use <code>a&lt;b&gt;</code> here"
        );
        assert_eq!(inline("odd ` tick <"), "odd ` tick &lt;");
        assert_eq!(inline("\"q\" & 'a'"), "&quot;q&quot; &amp; &#39;a&#39;");
    }

    /// Every question type has its label: a missing row would show the
    /// page's "Question" fallback on every question of that type.
    #[test]
    fn every_question_type_has_its_label() {
        use dumplab::exercise::model::Question;
        for t in Question::TYPE_NAMES {
            assert_eq!(
                TYPE_LABELS.iter().filter(|(n, _)| *n == t).count(),
                1,
                "TYPE_LABELS needs one row for `{t}`"
            );
        }
        assert_eq!(TYPE_LABELS.len(), Question::TYPE_NAMES.len());
    }
}
