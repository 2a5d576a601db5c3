//! The names of the templates a course can override, and the placeholder
//! the tooltip template puts the occurrence in: used by the templates
//! ([`super`]) and their sample data ([`super::data`]) alike.

/// The question template's file name.
pub(crate) const QUESTION: &str = "dumplab-question.hbs";
/// The feedback area's template file name.
pub(crate) const FEEDBACK: &str = "dumplab-feedback.hbs";
/// The glossary tooltip's template file name.
pub(crate) const TOOLTIP: &str = "dumplab-tooltip.hbs";

/// Where the tooltip template puts the occurrence: characters no escaper
/// changes and no Markdown holds.
pub(crate) const OCCURRENCE: &str = "\u{e000}dumplab-occurrence\u{e000}";
