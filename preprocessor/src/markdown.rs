//! The Markdown dialect the course's chapters are read in.

use pulldown_cmark::Options;

/// The Markdown extensions mdBook 0.5 enables, minus smart punctuation (which
/// would make text differ from its source): the glossary matcher and the
/// directive finder must see the blocks mdBook sees.
pub(crate) fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM
}
