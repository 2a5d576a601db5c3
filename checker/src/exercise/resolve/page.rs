//! What a resolved question gives the page: its snippets and the question
//! itself with its sealed key.

use crate::exercise::key::{Key, Mode};

/// Which grammar highlights a snippet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// HLO text, before or after optimization.
    Hlo,
    /// MLIR (StableHLO).
    Mlir,
    /// A jaxpr.
    Jaxpr,
}

/// A piece of a dump shown in a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    /// Its grammar.
    pub language: Language,
    /// The dump line number of its first line.
    pub first_line: usize,
    /// The lines, verbatim, joined with `\n`.
    pub text: String,
    /// A caption that gives nothing away ("Dump A", "lines 12-30").
    pub caption: String,
}

/// A question ready to render.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The question id.
    pub id: String,
    /// The `type` spelling.
    pub type_name: &'static str,
    /// The prompt.
    pub prompt: String,
    /// What the shown dump is, from the fixture's provenance (function,
    /// shapes and, where it gives nothing away, backend and call).
    pub context: Option<String>,
    /// How to answer, generated from the key's rule ("Select at least two
    /// lines ..."), when the type needs one.
    pub instruction: Option<String>,
    /// How it is answered.
    pub mode: Mode,
    /// The dump shown above the answer, if any.
    pub snippet: Option<Snippet>,
    /// For `pair`: the candidates, each an option.
    pub candidates: Vec<Snippet>,
    /// Option ids and labels, for single-choice questions.
    pub options: Vec<(String, String)>,
    /// The content hash: keys progress and salts the seal.
    pub hash: String,
    /// The sealed key.
    pub sealed: String,
    /// The plain key (never rendered; for tests and `grade`).
    pub key: Key,
}
