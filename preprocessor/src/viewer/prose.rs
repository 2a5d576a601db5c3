//! Dumps in the prose: every fenced `hlo`, `mlir`/`stablehlo` and `jaxpr`
//! block of a chapter becomes the same viewer the questions use,
//! highlighted at build time (mdBook's highlight.js knows none of these
//! languages and warns about each on the console).
//!
//! A block inside a list item or a block quote keeps its container: every
//! line of the replacement starts with the prefix the block's own lines had,
//! and a blank line after it ends the raw-HTML block before the next line
//! of prose.

use super::{Dump, render};
use dumplab::exercise::resolve::Language;
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use std::ops::Range;

/// The grammar and caption of a fence's info string, if it is a dump.
fn language(info: &str) -> Option<(Language, &'static str)> {
    match info.split([' ', ',', '{']).next().unwrap_or("") {
        "hlo" => Some((Language::Hlo, "HLO")),
        "mlir" => Some((Language::Mlir, "MLIR")),
        "stablehlo" => Some((Language::Mlir, "StableHLO")),
        "jaxpr" => Some((Language::Jaxpr, "jaxpr")),
        _ => None,
    }
}

struct Block {
    range: Range<usize>,
    language: Language,
    caption: &'static str,
    text: String,
}

fn blocks(content: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (event, range) in Parser::new_ext(content, crate::markdown::options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                open = language(&info).map(|(language, caption)| Block {
                    range,
                    language,
                    caption,
                    text: String::new(),
                });
            }
            Event::Text(t) => {
                if let Some(b) = &mut open {
                    b.text.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => out.extend(open.take()),
            _ => {}
        }
    }
    out
}

/// The container prefix of the lines after the one holding `at`: what the
/// next line has in the first columns before `at`, if that is only
/// indentation and `>` markers, else as many spaces.
fn continuation_prefix(content: &str, at: usize) -> String {
    let line_start = content[..at].rfind('\n').map_or(0, |i| i + 1);
    let width = at - line_start;
    let next = content[at..]
        .find('\n')
        .map_or("", |i| &content[at + i + 1..]);
    match next.get(..width) {
        Some(p) if p.chars().all(|c| c == ' ' || c == '\t' || c == '>') => p.to_owned(),
        _ => " ".repeat(width),
    }
}

/// `content` with every dump block replaced by the viewer.
pub(crate) fn highlight_chapter(content: &str) -> String {
    let found = blocks(content);
    if found.is_empty() {
        return content.to_owned();
    }
    let total = found.len();
    let mut out = String::with_capacity(content.len() * 3);
    let mut at = 0;
    for (k, b) in found.iter().enumerate() {
        let prefix = continuation_prefix(content, b.range.start);
        let name = format!("{} example {} of {total} on this page", b.caption, k + 1);
        let html = render(&Dump {
            text: b.text.strip_suffix('\n').unwrap_or(&b.text),
            language: b.language,
            first_line: 1,
            caption: b.caption,
            name: Some(&name),
            selectable: false,
        });
        let html = crate::html::inert(html);
        out.push_str(&content[at..b.range.start]);
        let joined = html.trim_end().replace('\n', &format!("\n{prefix}"));
        out.push_str(&joined);
        out.push('\n');
        // A blank line (in the container) ends the HTML block.
        out.push_str(prefix.trim_end());
        out.push('\n');
        // The block's own range ends at or after its closing fence's line end.
        at = b.range.end;
        if content[..at].ends_with('\n') || at == content.len() {
        } else if let Some(i) = content[at..].find('\n') {
            at += i + 1;
        }
    }
    out.push_str(&content[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(markdown: &str, expect: &[&str]) {
        let html = highlight_chapter(markdown);
        for e in expect {
            assert!(html.contains(e), "missing {e:?} in\n{html}");
        }
        assert!(!html.contains("```hlo"), "{html}");
    }

    #[test]
    fn blocks_become_viewers() {
        check(
            "Text\n\n```hlo\nHloModule m\n```\nAfter.\n",
            &[
                "Text\n\n<figure class=\"dumplab-dump dl-viewer\" data-lang=\"hlo\"><figcaption>HLO</figcaption>",
                "</pre></figure>\n\nAfter.\n",
                "aria-label=\"HLO example 1 of 1 on this page\"",
            ],
        );
        check(
            "- item:\n\n  ```hlo\n  a\n  b\n  ```\n- next\n",
            &[
                "- item:\n\n  <figure",
                "<span class=\"dl-src\">a</span>\n  </span>",
                "</figure>\n\n- next\n",
            ],
        );
        check(
            "> ```jaxpr\n> { lambda ; }\n> ```\n",
            &["> <figure", "data-lang=\"jaxpr\"", "</figure>\n>\n"],
        );
        check(
            "```stablehlo\n%0 = x\n```",
            &["<figcaption>StableHLO</figcaption>", "data-lang=\"mlir\""],
        );
    }

    #[test]
    fn other_blocks_and_code_spans_stay() {
        let md = "```python\nx = 1\n```\n\n`hlo` and\n\n    indented hlo\n";
        assert_eq!(highlight_chapter(md), md);
    }

    #[test]
    fn dump_text_is_escaped_and_inert() {
        check(
            "```hlo\n<script>{{#include x}}</script>\n```\n",
            &["&lt;script&gt;{&#123;#include x}}&lt;/script&gt;"],
        );
    }
}
