//! The data each template is rendered with: every field, as the
//! instructors' chapter documents it. Fields ending in `_html` are markup
//! DumpLab generated (authored text inside is escaped already); every other
//! string is raw text that the template's `{{field}}` escapes.

use super::names::{FEEDBACK, OCCURRENCE, QUESTION};
use serde::Serialize;
use serde_json::{Value, json};

/// `dumplab-question.hbs`: one question.
#[derive(Debug, Serialize)]
pub(crate) struct QuestionData {
    /// The question id (`gelu-which-call`); unique in the book.
    pub(crate) id: String,
    /// The question type: `classify`, `evidence`, `count`, `pair`, `choice`
    /// or `backend`.
    #[serde(rename = "type")]
    pub(crate) type_name: String,
    /// The type's heading ("Which call?", "Find the evidence", ...).
    pub(crate) type_label: String,
    /// How it is answered: `single` (options), `lines` (pick dump lines) or
    /// `number`.
    pub(crate) mode: String,
    /// `mode` as three booleans, for `{{#if}}`.
    pub(crate) is_single: bool,
    /// See `is_single`.
    pub(crate) is_lines: bool,
    /// See `is_single`.
    pub(crate) is_number: bool,
    /// The content hash progress is kept under (`data-dumplab-hash`).
    pub(crate) hash: String,
    /// The sealed key the browser grades with (`data-dumplab-key`).
    pub(crate) key: String,
    /// The prompt: escaped text, `` `code` `` spans as `<code>`.
    pub(crate) prompt_html: String,
    /// What the dump is (function, shapes, call), same rendering; or null.
    pub(crate) context_html: Option<String>,
    /// How to answer, same rendering; or null.
    pub(crate) instruction_html: Option<String>,
    /// The dump viewer of the question's dump; or null.
    pub(crate) snippet_html: Option<String>,
    /// The dump viewers of a pair question's candidates (empty otherwise).
    pub(crate) candidates_html: Vec<String>,
    /// The options of a `single` question, in order (empty otherwise).
    pub(crate) options: Vec<OptionData>,
    /// The feedback area, rendered by `dumplab-feedback.hbs`.
    pub(crate) feedback_html: String,
}

/// One option of a `single` question.
#[derive(Debug, Serialize)]
pub(crate) struct OptionData {
    /// What the browser sends to the grader (`data-option`, the radio's value).
    pub(crate) value: String,
    /// The option's text: escaped, `` `code` `` spans as `<code>`.
    pub(crate) label_html: String,
}

/// `dumplab-feedback.hbs`: where the buttons and the verdict of a question go.
#[derive(Debug, Serialize)]
pub(crate) struct FeedbackData {
    /// The question id.
    pub(crate) id: String,
    /// The question type, as in `dumplab-question.hbs`.
    #[serde(rename = "type")]
    pub(crate) type_name: String,
    /// How it is answered, as in `dumplab-question.hbs`.
    pub(crate) mode: String,
}

/// `dumplab-tooltip.hbs`: one marked occurrence of a glossary term.
#[derive(Clone, Copy, Debug, Serialize)]
pub(crate) struct TooltipData<'a> {
    /// The term's id (`hlo`), `data-term`; theme/glossary.js looks it up.
    pub(crate) id: &'a str,
    /// The term as the glossary spells it ("HLO").
    pub(crate) term: &'a str,
    /// The definition as plain text, for `data-def` (the no-script tooltip).
    pub(crate) definition: &'a str,
    /// The definition as sanitized inline HTML.
    pub(crate) definition_html: &'a str,
    /// The title of the chapter that teaches the term.
    pub(crate) taught_in: &'a str,
    /// The term as written in the chapter (Markdown text, passed through).
    /// Set by [`super::Templates::tooltip`].
    pub(crate) occurrence: &'a str,
}

impl<'a> TooltipData<'a> {
    /// The same data with `occurrence` set.
    pub(crate) fn with_occurrence(&self, occurrence: &'a str) -> TooltipData<'a> {
        TooltipData {
            occurrence,
            ..*self
        }
    }
}

/// Data with every field present (optional ones set, lists non-empty), to
/// try a course's template on at load: strict mode then finds every field
/// it names that does not exist.
pub(crate) fn samples(template: &str) -> Value {
    let question = QuestionData {
        id: "sample-question".to_owned(),
        type_name: "evidence".to_owned(),
        type_label: "Find the evidence".to_owned(),
        mode: "lines".to_owned(),
        is_single: true,
        is_lines: true,
        is_number: true,
        hash: "0123456789abcdef".to_owned(),
        key: "c2VhbGVk".to_owned(),
        prompt_html: "Which line?".to_owned(),
        context_html: Some("From <code>f.py</code>".to_owned()),
        instruction_html: Some("Select one line.".to_owned()),
        snippet_html: Some("<figure></figure>".to_owned()),
        candidates_html: vec!["<figure></figure>".to_owned()],
        options: vec![OptionData {
            value: "a".to_owned(),
            label_html: "A".to_owned(),
        }],
        feedback_html: String::new(),
    };
    match template {
        QUESTION => serde_json::to_value(&question).unwrap_or(Value::Null),
        FEEDBACK => serde_json::to_value(FeedbackData {
            id: question.id,
            type_name: question.type_name,
            mode: question.mode,
        })
        .unwrap_or(Value::Null),
        _ => serde_json::to_value(TooltipData {
            id: "hlo",
            term: "HLO",
            definition: "XLA's program text.",
            definition_html: "XLA&#39;s program text.",
            taught_in: "HLO text",
            occurrence: OCCURRENCE,
        })
        .unwrap_or_else(|_| json!({})),
    }
}

/// The field names of a sample, nested ones (`options` → `value`) after
/// their list, each once.
pub(crate) fn field_names(sample: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut stack = vec![sample];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    if !out.contains(k) {
                        out.push(k.clone());
                    }
                    stack.push(v);
                }
            }
            Value::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
    out
}
