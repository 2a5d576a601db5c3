//! Glossary tooltips: the one place where the course explains its own words.
//!
//! Instructors edit a single TOML file (`glossary/terms.toml`); this module
//! loads and validates it ([`config`]), finds occurrences of its terms in the
//! plain prose of every chapter ([`matcher`]), wraps them in tooltip markup
//! and fills the generated glossary chapter ([`render`]).
//!
//! The split matters for one invariant: a definition never becomes part of
//! the prose. Marked terms carry the definition only in attributes and in a
//! `<script type="application/json">` block, both of which mdBook's search
//! indexer, text selection and reader modes ignore; `theme/glossary.js` turns
//! them into a tooltip at run time.

pub(crate) mod config;
pub(crate) mod matcher;
pub(crate) mod render;

pub(crate) use config::{Glossary, load};
pub(crate) use matcher::{Density, find_marks};

/// The directive that `src/glossary.md` carries; replaced by the term list.
pub(crate) const DIRECTIVE: &str = "{{#dumplab-glossary}}";

/// Where the glossary directive stands in `content`, if it does: as plain
/// text, never inside code (so a chapter can show the directive in
/// backticks or a code block without being replaced).
pub(crate) fn directive_range(content: &str) -> Option<std::ops::Range<usize>> {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd, TextMergeWithOffset};
    if !content.contains(DIRECTIVE) {
        return None;
    }
    let mut in_code = false;
    for (event, range) in TextMergeWithOffset::new(Parser::new(content).into_offset_iter()) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code = true,
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Text(text) if !in_code && text.contains(DIRECTIVE) => {
                let start = range.start + content[range.clone()].find(DIRECTIVE)?;
                return Some(start..start + DIRECTIVE.len());
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directive_counts_only_in_plain_text() {
        let cases: &[(&str, Option<std::ops::Range<usize>>)] = &[
            ("# Glossary\n\n{{#dumplab-glossary}}\n", Some(12..33)),
            ("Write `{{#dumplab-glossary}}` in a chapter.\n", None),
            ("```\n{{#dumplab-glossary}}\n```\n", None),
            ("    {{#dumplab-glossary}}\n", None),
            ("No directive here.\n", None),
        ];
        for (content, expect) in cases {
            assert_eq!(directive_range(content), *expect, "{content:?}");
        }
    }
}
