//! Tooltip markup and the generated glossary chapter.
//!
//! Everything an instructor writes is escaped here, once, before it reaches
//! a page. Besides HTML's own specials we also encode the characters that
//! Markdown or mdBook would act on (`{`, `|`, `` ` ``, `[`, `*`, ...): the
//! markup is spliced into Markdown that mdBook parses again, and a definition
//! holding `{{#include ...}}` or a table pipe must stay text.

use super::matcher::Mark;
use super::model::{Glossary, Term};
use crate::templates::Templates;
use crate::templates::data::TooltipData;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

pub(crate) use crate::html::{escape_attr, escape_text};

/// The `.html` path of chapter `md_path` (relative to `src/`).
pub(crate) fn html_path(md_path: &str) -> String {
    match md_path.strip_suffix(".md") {
        Some(stem) => format!("{stem}.html"),
        None => md_path.to_owned(),
    }
}

/// A link from the page of chapter `from` to chapter `to` (both relative to
/// `src/`, `/`-separated), with an optional anchor.
pub(crate) fn relative_href(from: &str, to: &str, anchor: Option<&str>) -> String {
    let depth = from.matches('/').count();
    let mut href = "../".repeat(depth);
    href.push_str(&html_path(to));
    if let Some(a) = anchor {
        href.push('#');
        href.push_str(a);
    }
    href
}

/// The markup that goes before and after one occurrence of `term`, from
/// the tooltip template ([`crate::templates`]). The occurrence itself stays
/// as it was in the source (it is plain text there, possibly across a soft
/// line break). `taught_in` is the title of the chapter that teaches the
/// term.
pub(crate) fn term_markup(
    term: &Term,
    taught_in: &str,
    templates: &Templates,
) -> Result<(String, String), String> {
    templates.tooltip(&TooltipData {
        id: &term.id,
        term: &term.term,
        definition: &term.definition_text,
        definition_html: &term.definition_html,
        taught_in,
        occurrence: "",
    })
}

/// What `theme/glossary.js` needs about one term, per page.
#[derive(Serialize)]
struct TermData<'a> {
    term: &'a str,
    definition: &'a str,
    chapter: &'a str,
    /// Path from the book root; the script prefixes mdBook's `path_to_root`.
    href: String,
}

/// Wraps every mark of `content` in tooltip markup (in reverse order, so
/// earlier offsets stay valid) and appends the page's definition data; the
/// tooltip template's error if it does not render.
pub(crate) fn mark_chapter(
    content: &str,
    marks: &[Mark],
    glossary: &Glossary,
    titles: &BTreeMap<String, String>,
    templates: &Templates,
) -> Result<String, String> {
    if marks.is_empty() {
        return Ok(content.to_owned());
    }
    let mut out = content.to_owned();
    let mut used = BTreeMap::new();
    for mark in marks.iter().rev() {
        let term = &glossary.terms[mark.term];
        let taught = titles
            .get(&term.chapter)
            .map_or(term.chapter.as_str(), String::as_str);
        let (open, close) = term_markup(term, taught, templates)?;
        out.insert_str(mark.range.end, &close);
        out.insert_str(mark.range.start, &open);
        used.insert(
            term.id.as_str(),
            TermData {
                term: &term.term,
                definition: &term.definition_html,
                chapter: taught,
                href: relative_href("", &term.chapter, term.anchor.as_deref()),
            },
        );
    }
    let json = crate::html::json_for_script(&serde_json::to_string(&used).unwrap_or_default());
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let _ = write!(
        out,
        "\n<script type=\"application/json\" class=\"dumplab-glossary\">{json}</script>\n"
    );
    Ok(out)
}

/// The HTML that replaces the glossary directive in chapter `at` (relative to
/// `src/`): every term, its definition, where it is taught and every chapter
/// that uses it (`usage[i]` for term `i`, in book order).
pub(crate) fn glossary_chapter(
    at: &str,
    glossary: &Glossary,
    usage: &[Vec<String>],
    titles: &BTreeMap<String, String>,
) -> String {
    let mut order: Vec<usize> = (0..glossary.terms.len()).collect();
    order.sort_by_key(|&i| {
        (
            glossary.terms[i].term.to_lowercase(),
            glossary.terms[i].id.clone(),
        )
    });
    let title = |path: &str| escape_text(titles.get(path).map_or(path, String::as_str));
    // One HTML block without blank lines: mdBook passes it through untouched.
    let mut out = String::from("<dl class=\"dumplab-glossary\">\n");
    for i in order {
        let term = &glossary.terms[i];
        let _ = write!(
            out,
            "<dt id=\"term-{}\">{}</dt>\n<dd><p>{}</p><p class=\"dumplab-glossary-meta\">Taught in <a href=\"{}\">{}</a>.",
            escape_attr(&term.id),
            escape_text(&term.term),
            term.definition_html,
            escape_attr(&relative_href(at, &term.chapter, term.anchor.as_deref())),
            title(&term.chapter),
        );
        let users = usage.get(i).map(Vec::as_slice).unwrap_or_default();
        if users.is_empty() {
            out.push_str(" Not used in any chapter yet.");
        } else {
            out.push_str(" Used in ");
            for (n, chapter) in users.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                let _ = write!(
                    out,
                    "<a href=\"{}\">{}</a>",
                    escape_attr(&relative_href(at, chapter, None)),
                    title(chapter)
                );
            }
            out.push('.');
        }
        out.push_str("</p></dd>\n");
    }
    out.push_str("</dl>\n");
    crate::html::inert(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::glossary::definition::render_definition;
    use crate::glossary::model::{Case, Term};

    fn term(definition: &str) -> Term {
        let r = render_definition(definition).unwrap();
        Term {
            id: "xla".to_owned(),
            term: "XLA".to_owned(),
            forms: vec!["XLA".to_owned()],
            case: Case::Exact,
            definition_html: r.html,
            definition_text: r.text,
            chapter: "deep/xla.md".to_owned(),
            anchor: None,
        }
    }

    #[test]
    fn definitions_render_inline_markdown_and_escape_the_rest() {
        let cases: &[(&str, &str, &str)] = &[
            (
                "A *compiler* with `code`.",
                "A <em>compiler</em> with <code>code</code>.",
                "A compiler with code.",
            ),
            (
                "<script>alert(1)</script> x",
                "&lt;script&gt;alert(1)&lt;/script&gt; x",
                "<script>alert(1)</script> x",
            ),
            (
                "Say \"hi\" & 'bye'",
                "Say &quot;hi&quot; &amp; &#39;bye&#39;",
                "Say \"hi\" & 'bye'",
            ),
            (
                "{{#include ../secret.txt}}",
                "&#123;&#123;#include ../secret.txt&#125;&#125;",
                "{{#include ../secret.txt}}",
            ),
            (
                "{{#exercise two-dumps}}",
                "&#123;&#123;#exercise two-dumps&#125;&#125;",
                "{{#exercise two-dumps}}",
            ),
            (
                "[docs](https://x.invalid/?a=1&b=\"2\")",
                "<a href=\"https://x.invalid/?a=1&amp;b=&quot;2&quot;\">docs</a>",
                "docs",
            ),
            (
                "[bad](javascript:alert(1)) and [rel](xla.md)",
                "bad and <a href=\"xla.md\">rel</a>",
                "bad and rel",
            ),
            (
                "<img src=x onerror=alert(1)>",
                "&lt;img src=x onerror=alert(1)&gt;",
                "<img src=x onerror=alert(1)>",
            ),
            ("two\nlines", "two lines", "two lines"),
        ];
        for (md, html, text) in cases {
            let r = render_definition(md).unwrap();
            assert_eq!(
                (r.html.as_str(), r.text.as_str()),
                (*html, *text),
                "definition: {md:?}"
            );
        }
        assert_eq!(
            render_definition("- a list").unwrap_err(),
            "contains block Markdown (a list)"
        );
        assert_eq!(
            render_definition("```\ncode\n```").unwrap_err(),
            "contains block Markdown (a code block)"
        );
        assert_eq!(
            render_definition("![alt](x.png)").unwrap_err(),
            "contains an image"
        );
    }

    #[test]
    fn hostile_definitions_stay_text_in_the_tooltip_markup() {
        let t = term("<script>alert(1)</script> \"q\" 'a' {{#include x}} | `c` [l] *e*");
        let (open, close) = term_markup(&t, "The \"XLA\" <page>", &Templates::builtin()).unwrap();
        let span = format!("{open}XLA{close}");
        assert_eq!(
            span,
            "<span class=\"dumplab-term\" data-term=\"xla\" \
             data-def=\"&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; &#39;a&#39; &#123;&#123;#include x&#125;&#125; &#124; &#96;c&#96; &#91;l&#93; &#42;e&#42;\" \
             data-taught=\"The &quot;XLA&quot; &lt;page&gt;\" tabindex=\"0\">XLA</span>"
        );
        let g = Glossary { terms: vec![t] };
        let marked = mark_chapter(
            "XLA runs.",
            &[Mark {
                range: 0..3,
                term: 0,
            }],
            &g,
            &BTreeMap::new(),
            &Templates::builtin(),
        )
        .unwrap();
        let script = marked
            .split("<script type=\"application/json\" class=\"dumplab-glossary\">")
            .nth(1)
            .unwrap();
        let json = script.strip_suffix("</script>\n").unwrap();
        assert!(
            !json.contains('<') && !json.contains('>') && !json.contains('&'),
            "{json}"
        );
        let value: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(value["xla"]["href"], "deep/xla.html");
        assert!(
            value["xla"]["definition"]
                .as_str()
                .unwrap()
                .starts_with("&lt;script&gt;")
        );
    }

    #[test]
    fn links_are_relative_to_the_page() {
        let cases = [
            ("glossary.md", "xla.md", None, "xla.html"),
            (
                "a/b/glossary.md",
                "xla.md",
                Some("hlo"),
                "../../xla.html#hlo",
            ),
            ("glossary.md", "deep/fusion.md", None, "deep/fusion.html"),
            ("", "README", None, "README"),
        ];
        for (from, to, anchor, expect) in cases {
            assert_eq!(relative_href(from, to, anchor), expect);
        }
    }

    #[test]
    fn the_glossary_chapter_lists_terms_sorted_with_usage() {
        let mut b = term("B.");
        b.id = "b".to_owned();
        b.term = "beta".to_owned();
        b.chapter = "xla.md".to_owned();
        let a = term("A <b>.");
        let g = Glossary { terms: vec![b, a] };
        let titles: BTreeMap<String, String> = [("deep/xla.md", "Deep <XLA>"), ("xla.md", "XLA")]
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let usage = vec![vec![], vec!["xla.md".to_owned(), "deep/xla.md".to_owned()]];
        assert_eq!(
            glossary_chapter("sub/glossary.md", &g, &usage, &titles),
            "<dl class=\"dumplab-glossary\">\n\
             <dt id=\"term-b\">beta</dt>\n<dd><p>B.</p><p class=\"dumplab-glossary-meta\">Taught in <a href=\"../xla.html\">XLA</a>. Not used in any chapter yet.</p></dd>\n\
             <dt id=\"term-xla\">XLA</dt>\n<dd><p>A &lt;b&gt;.</p><p class=\"dumplab-glossary-meta\">Taught in <a href=\"../deep/xla.html\">Deep &lt;XLA&gt;</a>. \
             Used in <a href=\"../xla.html\">XLA</a>, <a href=\"../deep/xla.html\">Deep &lt;XLA&gt;</a>.</p></dd>\n</dl>\n"
        );
    }
}
