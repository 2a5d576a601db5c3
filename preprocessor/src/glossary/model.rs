//! The glossary's model: its terms, each with the forms marked in prose,
//! how they compare with it, the rendered definition and the chapter that
//! teaches it. Loaded by [`super::config`], matched by [`super::matcher`],
//! rendered by [`super::render`]; it imports none of them.

/// How a term's forms are compared with the prose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Case {
    /// Letter case must match (acronyms: `HLO` is not `hlo`).
    Exact,
    /// Any letter case matches (words: `Fusion` and `fusion`).
    Insensitive,
}

/// One validated glossary entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Term {
    /// Stable identifier: `data-term` value and anchor in the glossary chapter.
    pub(crate) id: String,
    /// The headword, as the glossary chapter lists it.
    pub(crate) term: String,
    /// Every spelling that is marked in prose: the headword, then the aliases.
    pub(crate) forms: Vec<String>,
    /// How forms are compared with the prose.
    pub(crate) case: Case,
    /// The definition rendered to sanitized inline HTML.
    pub(crate) definition_html: String,
    /// The definition as plain text (for the no-JavaScript fallback).
    pub(crate) definition_text: String,
    /// The chapter that teaches the term, relative to `src/` (`xla.md`).
    pub(crate) chapter: String,
    /// An optional `#anchor` inside that chapter, without the `#`.
    pub(crate) anchor: Option<String>,
}

/// The validated glossary, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Glossary {
    /// The entries.
    pub(crate) terms: Vec<Term>,
}
