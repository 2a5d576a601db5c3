//! What one question type resolves to, before it is keyed, hashed and
//! sealed: how it is answered, its answer, lit lines and hints, and what the
//! page shows (snippet, context, instruction, candidates, options).

use super::page::Snippet;
use crate::exercise::key::{Hint, Mode};

/// `(id, text)` pairs: option labels or option notes.
pub(super) type Pairs = Vec<(String, String)>;

/// A question as its type resolved it.
pub(super) struct Parts {
    /// How it is answered.
    pub(super) mode: Mode,
    /// The right answer ids (option ids, line numbers, a count).
    pub(super) answer: Vec<String>,
    /// The answer as "Show answer" says it.
    pub(super) answer_text: String,
    /// The lines lit once answered, with a note each.
    pub(super) lines: Vec<(usize, String)>,
    /// How many right lines make a right answer (evidence questions).
    pub(super) need: usize,
    /// Likely wrong counts and what each one missed.
    pub(super) miscounts: Vec<(String, String)>,
    /// Where to look again after a wrong answer.
    pub(super) hints: Vec<Hint>,
    /// A line of the shown snippet that proves nothing (for the self-test).
    pub(super) idle_line: Option<usize>,
    /// The dump shown above the answer, if any.
    pub(super) snippet: Option<Snippet>,
    /// What the shown dump is, from the fixture's provenance.
    pub(super) context: Option<String>,
    /// How to answer, where the type needs one.
    pub(super) instruction: Option<String>,
    /// For `pair`: the candidates.
    pub(super) candidates: Vec<Snippet>,
    /// Option ids and labels.
    pub(super) options: Pairs,
    /// Option ids and the note each one gets when picked.
    pub(super) option_notes: Pairs,
    /// The explanation when the question has none of its own (a `choice`
    /// question's right option says why).
    pub(super) explanation: Option<String>,
}

impl Parts {
    /// A single-answer question: `answer`, said as `answer_text`, with
    /// `lines` lit; nothing shown yet.
    pub(super) fn single(
        answer: String,
        answer_text: String,
        lines: Vec<(usize, String)>,
    ) -> Parts {
        Parts {
            mode: Mode::Single,
            answer: vec![answer],
            answer_text,
            lines,
            need: 0,
            miscounts: Vec::new(),
            hints: Vec::new(),
            idle_line: None,
            snippet: None,
            context: None,
            instruction: None,
            candidates: Vec::new(),
            options: Vec::new(),
            option_notes: Vec::new(),
            explanation: None,
        }
    }
}
