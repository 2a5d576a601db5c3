//! Validating an exercise file against the fixtures and resolving each
//! question into what the page shows plus its sealed key.
//!
//! Keys are never typed by hand: a `classify` key is the dump's annotated
//! kind, a `backend` key its annotated backend, a `count` key what
//! [`crate::analyze`] counts in the whole dump, a `pair` key the candidate
//! from the snippet's family. An `evidence` key is every line of the excerpt
//! that the analysis holds as proof of the question's claim (the claim
//! table, [`crate::analysis::claims`]); annotated lines can only add notes,
//! and an annotated line the analysis does not hold as proof is an error.
//!
//! Every resolved question then grades itself ([`self_test`]): its key must
//! grade right, every wrong option, candidate and choice wrong, a wrong count
//! wrong, a line that proves nothing not right. Every problem is collected
//! as a [`Diagnostic`](crate::Diagnostic) pointing at the offending key of
//! the exercise file.
//! Each dump is analysed once per build ([`DumpInfo::analysis`]).
//!
//! One file per question type (`classify.rs`, `backend.rs`, `evidence.rs`,
//! `count.rs`, `pair.rs`, `choice.rs`), as mdbook-quiz keeps them; each
//! turns its question into `Parts` (`parts.rs`), and `question.rs` keys,
//! hashes, seals and self-tests it. The steps they share are modules of
//! their own, used one way: only `question.rs` uses the type modules, no
//! type module uses another, and none uses this file (which only declares
//! and re-exports):
//!
//! - `library.rs`: the fixtures as the resolver sees them (kind and backend
//!   typed), `page.rs`: what a resolved question gives the page;
//! - `cx.rs`: where problems are reported, `lookup.rs`: `family/file#part`
//!   references and the snippets cut from them;
//! - `text.rs` and `evidence_text.rs`: sentences, `proof.rs`: the lines that
//!   prove a claim, `provenance.rs`: what a dump is said to be from;
//! - `options.rs`: options from a vocabulary table, `facts.rs` and
//!   `kernels.rs`: what `count` counts;
//! - `file.rs`: a whole exercise file, [`self_test()`]: the grading every
//!   question passes.
//!
//! # Adding a question type
//!
//! 1. `exercise/model.rs`: a [`Question`](super::model::Question) variant
//!    with its table (`deny_unknown_fields`, the common `id`, `prompt`,
//!    `explanation`), its arms in `type_name` and `common`, and its entry in
//!    `Question::TYPE_NAMES` (a test fails until the three agree).
//! 2. `resolve/<type>.rs`: `pub(super) fn resolve(q, library, cx) ->
//!    Option<Parts>`, built from the shared steps (`lookup`, `proof`,
//!    `provenance`, `options`); declared below, one arm in
//!    `question::resolve_question`. Its answer is one of the
//!    [`Mode`](super::key::Mode)s the grader knows, so the self-test grades
//!    it on every build with nothing more.
//! 3. `preprocessor/src/exercises/render.rs`: its row in `TYPE_LABELS` (a
//!    test fails without it).
//! 4. `exercises/FORMAT.md`: the type and its keys; a table test in
//!    `resolve/tests.rs` with a question of it.

mod backend;
mod choice;
mod classify;
mod collective;
mod cost;
mod count;
mod cx;
mod diff;
mod evidence;
mod evidence_text;
mod explain;
mod facts;
mod file;
mod finding;
mod folder;
mod kernels;
mod library;
mod lookup;
mod options;
mod page;
mod pair;
mod parts;
mod proof;
mod provenance;
mod question;
mod self_test;
mod text;

pub use backend::BACKENDS;
pub use classify::KINDS;
pub use collective::{COLLECTIVE_ASKS, CollectiveAsk, CollectiveAskRow};
pub use cost::{ASKS, Ask, AskRow};
pub use diff::{DIFF_ASKS, DiffAsk, DiffAskRow};
pub use explain::{EXPLAIN_ASKS, ExplainAsk, ExplainAskRow};
pub use facts::{Applies, FACTS, Fact};
pub use file::resolve_file;
pub use finding::{FINDING_ASKS, FindingAsk, FindingAskRow};
pub use folder::{FOLDER_ASKS, FolderAsk, FolderAskRow};
pub use library::{
    AnnotatedLine, DumpInfo, DumpSource, Library, library_of, library_taking_folders,
};
pub use page::{Language, Resolved, Snippet};
pub use provenance::{option_call, short_call};
pub use self_test::self_test;

#[cfg(test)]
mod tests;
