//! A definition's inline Markdown rendered to sanitized HTML and plain
//! text, once, when the glossary is loaded.

use crate::html::{escape_attr, escape_text};
use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use std::fmt::Write as _;

/// A definition ready for a page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RenderedDefinition {
    /// Sanitized inline HTML.
    pub(crate) html: String,
    /// Plain text, whitespace collapsed.
    pub(crate) text: String,
}

/// Renders one definition's inline Markdown to sanitized HTML and plain text.
///
/// Raw HTML is escaped and shown as text; links keep their target only when
/// it is an absolute `http(s)` URL or a relative one
/// ([`crate::html::safe_href`]); `javascript:` and other schemes keep
/// their text and lose the link. Block Markdown is refused with a short
/// reason (the caller adds the position).
pub(crate) fn render_definition(markdown: &str) -> Result<RenderedDefinition, String> {
    let mut html = String::new();
    let mut text = String::new();
    let mut paragraphs = 0;
    let mut open_links: Vec<bool> = Vec::new();
    for event in Parser::new_ext(markdown, pulldown_cmark::Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Start(Tag::Paragraph) => {
                paragraphs += 1;
                if paragraphs > 1 {
                    return Err("has more than one paragraph".to_owned());
                }
            }
            // Raw HTML is shown as text, wherever it stands.
            Event::End(TagEnd::Paragraph | TagEnd::HtmlBlock) | Event::Start(Tag::HtmlBlock) => {}
            Event::Start(Tag::Emphasis) => html.push_str("<em>"),
            Event::End(TagEnd::Emphasis) => html.push_str("</em>"),
            Event::Start(Tag::Strong) => html.push_str("<strong>"),
            Event::End(TagEnd::Strong) => html.push_str("</strong>"),
            Event::Start(Tag::Strikethrough) => html.push_str("<del>"),
            Event::End(TagEnd::Strikethrough) => html.push_str("</del>"),
            Event::Start(Tag::Link { dest_url, .. }) => {
                let safe = crate::html::safe_href(&dest_url);
                if safe {
                    let _ = write!(html, "<a href=\"{}\">", escape_attr(&dest_url));
                }
                open_links.push(safe);
            }
            Event::End(TagEnd::Link) => {
                if open_links.pop() == Some(true) {
                    html.push_str("</a>");
                }
            }
            Event::Text(t)
            | Event::InlineHtml(t)
            | Event::Html(t)
            | Event::InlineMath(t)
            | Event::FootnoteReference(t) => {
                html.push_str(&escape_text(&t));
                text.push_str(&t);
            }
            Event::Code(t) => {
                let _ = write!(html, "<code>{}</code>", escape_text(&t));
                text.push_str(&t);
            }
            Event::SoftBreak | Event::HardBreak => {
                html.push(' ');
                text.push(' ');
            }
            Event::Start(Tag::Image { .. }) => return Err("contains an image".to_owned()),
            Event::Start(tag) => {
                return Err(format!("contains block Markdown ({})", block_name(&tag)));
            }
            Event::End(_) | Event::TaskListMarker(_) | Event::Rule | Event::DisplayMath(_) => {
                return Err("contains block Markdown".to_owned());
            }
        }
    }
    Ok(RenderedDefinition {
        html: collapse(&html),
        text: collapse(&text),
    })
}

/// How a refused block element is named in the message.
fn block_name(tag: &Tag<'_>) -> &'static str {
    match tag {
        Tag::Heading { .. } => "a heading",
        Tag::List(_) | Tag::Item => "a list",
        Tag::CodeBlock(_) => "a code block",
        Tag::BlockQuote(_) => "a block quote",
        Tag::HtmlBlock => "an HTML block",
        Tag::Table(_) | Tag::TableHead | Tag::TableRow | Tag::TableCell => "a table",
        _ => "a block element",
    }
}

/// `s` with every run of whitespace made one space, trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
