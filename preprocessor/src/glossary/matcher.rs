//! Finding glossary terms in a chapter's Markdown.
//!
//! We walk pulldown-cmark's events with their source offsets and look for
//! terms only in plain prose text: never in code (inline, fenced or
//! indented), links, headings, image alt text, raw HTML (inline or block,
//! including anything between an HTML start tag and its end tag, which covers
//! tooltips already in the source) or metadata. The result is a list of byte
//! ranges in the source; the caller splices markup in reverse order.
//!
//! Matching is on whole words with Unicode-aware boundaries (`XLA’s` and
//! `fusion—` match, `XLAish` and `über­HLO` do not), longest form first so
//! `StableHLO` wins over `HLO`, exact or case-insensitive per term.

use super::model::{Case, Glossary};
use crate::markdown::options;
use pulldown_cmark::{Event, Parser, Tag, TagEnd, TextMergeWithOffset};
use std::collections::HashSet;
use std::ops::Range;

/// How often a term is marked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Density {
    /// Every occurrence.
    Every,
    /// The first occurrence in each chapter.
    FirstPerChapter,
    /// The first occurrence after each heading (and before the first one).
    #[default]
    FirstPerSection,
}

impl Density {
    /// Parses the `tooltips` value of `[preprocessor.dumplab]`.
    pub(crate) fn parse(value: &str) -> Option<Self> {
        match value {
            "every" => Some(Self::Every),
            "first-per-chapter" => Some(Self::FirstPerChapter),
            "first-per-section" => Some(Self::FirstPerSection),
            _ => None,
        }
    }
}

/// One occurrence to mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mark {
    /// Byte range of the occurrence in the chapter source.
    pub(crate) range: Range<usize>,
    /// Index of the term in [`Glossary::terms`].
    pub(crate) term: usize,
}

/// One spelling to look for.
struct Form {
    chars: Vec<char>,
    case: Case,
    term: usize,
}

/// Elements without an end tag: they open nothing.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// Finds the occurrences of `glossary`'s terms in `source` to mark.
pub(crate) fn find_marks(source: &str, glossary: &Glossary, density: Density) -> Vec<Mark> {
    let mut forms: Vec<Form> = glossary
        .terms
        .iter()
        .enumerate()
        .flat_map(|(i, t)| {
            t.forms.iter().map(move |f| Form {
                chars: f.chars().collect(),
                case: t.case,
                term: i,
            })
        })
        .collect();
    forms.sort_by_key(|f| std::cmp::Reverse(f.chars.len()));

    let mut marks = Vec::new();
    let mut seen: HashSet<usize> = HashSet::new();
    let mut skip = 0usize; // depth of headings, links, images, code blocks, ...
    let mut html_stack: Vec<String> = Vec::new();
    let mut run: Vec<Range<usize>> = Vec::new();
    for (event, range) in
        TextMergeWithOffset::new(Parser::new_ext(source, options()).into_offset_iter())
    {
        // Plain text is collected into runs (text joined by soft line
        // breaks) so that `buffer\nassignment` matches too. Only text that
        // is its own source (no escapes, entities or smart punctuation) can
        // be wrapped safely.
        match event {
            Event::Text(ref text)
                if skip == 0
                    && html_stack.is_empty()
                    && source.get(range.clone()) == Some(&**text) =>
            {
                run.push(range);
                continue;
            }
            Event::SoftBreak if !run.is_empty() => continue,
            _ => scan(
                source,
                &std::mem::take(&mut run),
                &forms,
                density,
                &mut seen,
                &mut marks,
            ),
        }
        match event {
            Event::Start(tag) => {
                if matches!(tag, Tag::Heading { .. }) && density == Density::FirstPerSection {
                    seen.clear();
                }
                if matches!(
                    tag,
                    Tag::Heading { .. }
                        | Tag::Link { .. }
                        | Tag::Image { .. }
                        | Tag::CodeBlock(_)
                        | Tag::HtmlBlock
                        | Tag::MetadataBlock(_)
                ) {
                    skip += 1;
                }
            }
            Event::End(end) => {
                if matches!(
                    end,
                    TagEnd::Heading(_)
                        | TagEnd::Link
                        | TagEnd::Image
                        | TagEnd::CodeBlock
                        | TagEnd::HtmlBlock
                        | TagEnd::MetadataBlock(_)
                ) {
                    skip = skip.saturating_sub(1);
                }
            }
            Event::Html(html) | Event::InlineHtml(html) => track_html(&html, &mut html_stack),
            _ => {}
        }
    }
    scan(source, &run, &forms, density, &mut seen, &mut marks);
    marks
}

/// Records which HTML elements are open after `html`.
fn track_html(html: &str, stack: &mut Vec<String>) {
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt + 1..];
        if let Some(after) = rest.strip_prefix("!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let closing = rest.starts_with('/');
        let name_start = usize::from(closing);
        let name: String = rest[name_start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if name.is_empty() {
            continue;
        }
        let name = name.to_ascii_lowercase();
        let tag_end = rest.find('>').unwrap_or(rest.len());
        let self_closing = rest[..tag_end].ends_with('/');
        if closing {
            if let Some(pos) = stack.iter().rposition(|n| *n == name) {
                stack.truncate(pos);
            }
        } else if !self_closing && !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
        rest = &rest[tag_end.min(rest.len())..];
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Looks for forms in `run`, source ranges of plain text that soft line
/// breaks separate (matched as if joined by `\n`).
fn scan(
    source: &str,
    run: &[Range<usize>],
    forms: &[Form],
    density: Density,
    seen: &mut HashSet<usize>,
    marks: &mut Vec<Mark>,
) {
    let (Some(first), Some(last)) = (run.first(), run.last()) else {
        return;
    };
    let mut text = String::new();
    let mut starts = Vec::with_capacity(run.len());
    for (k, seg) in run.iter().enumerate() {
        if k > 0 {
            text.push('\n');
        }
        starts.push(text.len());
        text.push_str(&source[seg.clone()]);
    }
    // A position in `text` back to one in `source`.
    let to_source = |v: usize| {
        let k = starts.partition_point(|&s| s <= v).saturating_sub(1);
        run[k].start + (v - starts[k]).min(run[k].len())
    };
    let mut prev: Option<char> = source[..first.start].chars().next_back();
    let mut iter = text.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        let at_boundary = prev.is_none_or(|p| !is_word_char(p));
        prev = Some(c);
        if !at_boundary || (!is_word_char(c) && !forms.iter().any(|f| f.chars.first() == Some(&c)))
        {
            continue;
        }
        let hit = forms.iter().find_map(|form| {
            let len = match_len(&text[i..], form)?;
            let next = text[i + len..]
                .chars()
                .next()
                .or_else(|| source[last.end..].chars().next());
            next.is_none_or(|n| !is_word_char(n))
                .then_some((form.term, len))
        });
        let Some((term, len)) = hit else { continue };
        if density == Density::Every || !seen.contains(&term) {
            seen.insert(term);
            marks.push(Mark {
                range: to_source(i)..to_source(i + len),
                term,
            });
        }
        // Skip the matched text: a shorter form inside it never matches.
        let end = i + len;
        while let Some(&(j, c)) = iter.peek() {
            if j >= end {
                break;
            }
            prev = Some(c);
            iter.next();
        }
    }
}

/// The byte length of `form` at the start of `text`, if it is there. A space
/// in a form matches any run of whitespace.
fn match_len(text: &str, form: &Form) -> Option<usize> {
    let mut chars = text.char_indices().peekable();
    for &want in &form.chars {
        let (_, got) = chars.next()?;
        if want == ' ' {
            if !got.is_whitespace() {
                return None;
            }
            while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
                chars.next();
            }
        } else if got != want
            && (form.case == Case::Exact || !got.to_lowercase().eq(want.to_lowercase()))
        {
            return None;
        }
    }
    Some(chars.peek().map_or(text.len(), |&(j, _)| j))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::glossary::config::load;

    const TERMS: &str = r#"
[[term]]
id = "xla"
term = "XLA"
definition = "d"
chapter = "a.md"

[[term]]
id = "stablehlo"
term = "StableHLO"
definition = "d"
chapter = "a.md"

[[term]]
id = "hlo"
term = "HLO"
definition = "d"
chapter = "a.md"

[[term]]
id = "fusion"
term = "fusion"
aliases = ["fusions", "fused", "fuse"]
definition = "d"
chapter = "a.md"

[[term]]
id = "buffer-assignment"
term = "buffer assignment"
definition = "d"
chapter = "a.md"

[[term]]
id = "jit"
term = "jit"
aliases = ["JIT"]
case = "exact"
definition = "d"
chapter = "a.md"

[[term]]
id = "uber"
term = "Überblick"
definition = "d"
chapter = "a.md"
"#;

    fn glossary() -> Glossary {
        let chapters = ["a.md".to_owned()].into_iter().collect();
        let (g, diags) = load("terms.toml", TERMS, &chapters);
        assert!(diags.is_empty(), "{diags:?}");
        g.unwrap()
    }

    /// Shows each mark as `[id:text]` in the source.
    fn show(source: &str, density: Density) -> String {
        let g = glossary();
        let mut out = source.to_owned();
        for m in find_marks(source, &g, density).iter().rev() {
            let text = &source[m.range.clone()];
            out.replace_range(m.range.clone(), &format!("[{}:{text}]", g.terms[m.term].id));
        }
        out
    }

    fn check(input: &str, expect: &str) {
        assert_eq!(show(input, Density::Every), expect, "input: {input:?}");
    }

    #[test]
    fn marks_only_plain_prose() {
        let cases: &[(&str, &str)] = &[
            ("XLA compiles it.", "[xla:XLA] compiles it."),
            // code spans, fenced and indented code
            ("Run `XLA` and XLA.", "Run `XLA` and [xla:XLA]."),
            (
                "```\nXLA fusion\n```\n\nXLA",
                "```\nXLA fusion\n```\n\n[xla:XLA]",
            ),
            ("~~~python\nfuse()\n~~~\n", "~~~python\nfuse()\n~~~\n"),
            (
                "Text.\n\n    XLA in indented code\n\nXLA",
                "Text.\n\n    XLA in indented code\n\n[xla:XLA]",
            ),
            // links, autolinks, reference links
            (
                "[XLA docs](https://x.invalid) and XLA",
                "[XLA docs](https://x.invalid) and [xla:XLA]",
            ),
            (
                "See [the XLA page][x].\n\n[x]: https://x.invalid",
                "See [the XLA page][x].\n\n[x]: https://x.invalid",
            ),
            ("<https://xla.invalid/XLA>", "<https://xla.invalid/XLA>"),
            // headings, ATX and setext
            ("# XLA\n\nXLA", "# XLA\n\n[xla:XLA]"),
            ("XLA heading\n===\n", "XLA heading\n===\n"),
            // inline HTML, block HTML, an existing tooltip
            (
                "An <abbr>XLA</abbr> and XLA.",
                "An <abbr>XLA</abbr> and [xla:XLA].",
            ),
            (
                "<div>\nXLA\n</div>\n\nXLA",
                "<div>\nXLA\n</div>\n\n[xla:XLA]",
            ),
            (
                "<div class=\"note\">\n\nfusion in markdown inside html\n\n</div>\n\nfusion",
                "<div class=\"note\">\n\nfusion in markdown inside html\n\n</div>\n\n[fusion:fusion]",
            ),
            (
                "<span class=\"dumplab-term\" data-term=\"xla\">XLA</span> XLA",
                "<span class=\"dumplab-term\" data-term=\"xla\">XLA</span> [xla:XLA]",
            ),
            ("a<br>XLA<!-- XLA -->", "a<br>[xla:XLA]<!-- XLA -->"),
            // image alt text
            (
                "![XLA diagram](x.png) XLA",
                "![XLA diagram](x.png) [xla:XLA]",
            ),
            // escapes and entities make text differ from source: left alone
            ("XLA\\* and &amp; XLA", "XLA\\* and &amp; XLA"),
            // emphasis and lists and tables are prose
            ("*fused* and **XLA**", "*[fusion:fused]* and **[xla:XLA]**"),
            ("- XLA\n- HLO\n", "- [xla:XLA]\n- [hlo:HLO]\n"),
            (
                "| a | b |\n|---|---|\n| XLA | `HLO` |\n",
                "| a | b |\n|---|---|\n| [xla:XLA] | `HLO` |\n",
            ),
            ("> quoted XLA", "> quoted [xla:XLA]"),
        ];
        for (input, expect) in cases {
            check(input, expect);
        }
    }

    #[test]
    fn words_boundaries_and_overlaps() {
        let cases: &[(&str, &str)] = &[
            // longest match first
            (
                "StableHLO, not HLO.",
                "[stablehlo:StableHLO], not [hlo:HLO].",
            ),
            ("stableHLO", "stableHLO"),
            // whole words only
            (
                "XLAish HLOs infusion refused fuses",
                "XLAish HLOs infusion refused fuses",
            ),
            ("HLO_text and HLO2", "HLO_text and HLO2"),
            // punctuation and Unicode neighbours
            ("XLA’s plan", "[xla:XLA]’s plan"),
            ("XLA's plan", "[xla:XLA]'s plan"),
            ("fusion—then", "[fusion:fusion]—then"),
            (
                "(HLO), \"XLA\"; fusion.",
                "([hlo:HLO]), \"[xla:XLA]\"; [fusion:fusion].",
            ),
            (
                "éXLA and XLAé and ÜberblickX",
                "éXLA and XLAé and ÜberblickX",
            ),
            ("«XLA» Überblick", "«[xla:XLA]» [uber:Überblick]"),
            ("ÜBERBLICK überblick", "[uber:ÜBERBLICK] [uber:überblick]"),
            ("XLA-specific", "[xla:XLA]-specific"),
            // inflections and multi-word terms
            (
                "Fused fusions fuse.",
                "[fusion:Fused] [fusion:fusions] [fusion:fuse].",
            ),
            (
                "buffer  assignment",
                "[buffer-assignment:buffer  assignment]",
            ),
            ("Buffer assignment", "[buffer-assignment:Buffer assignment]"),
            (
                "buffer\nassignment",
                "[buffer-assignment:buffer\nassignment]",
            ),
            (
                "> buffer\n> assignment",
                "> [buffer-assignment:buffer\n> assignment]",
            ),
            ("XLA\nfusion", "[xla:XLA]\n[fusion:fusion]"),
            // case rules
            ("xla Xla hlo", "xla Xla hlo"),
            ("jit JIT Jit", "[jit:jit] [jit:JIT] Jit"),
            ("FUSION", "[fusion:FUSION]"),
        ];
        for (input, expect) in cases {
            check(input, expect);
        }
    }

    #[test]
    fn density_modes() {
        let src = "XLA and XLA.\n\n## Part\n\nXLA again, XLA.\n";
        let cases = [
            (
                Density::Every,
                "[xla:XLA] and [xla:XLA].\n\n## Part\n\n[xla:XLA] again, [xla:XLA].\n",
            ),
            (
                Density::FirstPerChapter,
                "[xla:XLA] and XLA.\n\n## Part\n\nXLA again, XLA.\n",
            ),
            (
                Density::FirstPerSection,
                "[xla:XLA] and XLA.\n\n## Part\n\n[xla:XLA] again, XLA.\n",
            ),
        ];
        for (density, expect) in cases {
            assert_eq!(show(src, density), expect, "{density:?}");
        }
        // A term skipped by density still hides shorter forms inside it.
        assert_eq!(
            show("StableHLO StableHLO", Density::FirstPerChapter),
            "[stablehlo:StableHLO] StableHLO"
        );
        assert_eq!(Density::default(), Density::FirstPerSection);
        assert_eq!(Density::parse("every"), Some(Density::Every));
        assert_eq!(
            Density::parse("first-per-chapter"),
            Some(Density::FirstPerChapter)
        );
        assert_eq!(
            Density::parse("first-per-section"),
            Some(Density::FirstPerSection)
        );
        assert_eq!(Density::parse("sometimes"), None);
    }
}
