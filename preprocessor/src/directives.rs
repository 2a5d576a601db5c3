//! Finding the course's directives (`{{#exercise ...}}`,
//! `{{#dumplab-glossary}}`, `{{#dumplab-playground}}`, `{{#dumplab-map}}`)
//! in a chapter, from pulldown-cmark's events.
//!
//! A directive counts only where Markdown shows it as prose: never inside a
//! fenced or indented code block (blockquoted and nested ones included), a
//! code span of any number of backticks, or an HTML comment. A directive
//! written inside other raw HTML, left unclosed, or misspelt close to one of
//! ours is an error, never silently left as text. `\{{#...}}` is mdBook's
//! escape: the backslash is dropped and the rest stays text.
//!
//! mdBook's `links` preprocessor runs before us (`after = ["links"]`) and
//! already turns `\{{#` into `{{#`; so to show a directive in a chapter, put
//! it in code.

use crate::markdown::options;
use dumplab::Diagnostic;
use pulldown_cmark::{Event, Parser, Tag, TextMergeWithOffset};
use std::ops::Range;

/// The directives this preprocessor owns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Name {
    /// `{{#exercise FILE[#ID]}}`.
    Exercise,
    /// `{{#dumplab-glossary}}`.
    Glossary,
    /// `{{#dumplab-playground}}`: the "Read your own dump" page.
    Playground,
    /// `{{#dumplab-map FAMILY BACKEND}}`: a fixture family's live source map.
    Map,
    /// `{{#dumplab-answer-key}}`: every placed question's answer, for print.
    AnswerKey,
}

impl Name {
    const ALL: [(Name, &'static str); 5] = [
        (Name::Exercise, "exercise"),
        (Name::Glossary, "dumplab-glossary"),
        (Name::Playground, "dumplab-playground"),
        (Name::Map, "dumplab-map"),
        (Name::AnswerKey, "dumplab-answer-key"),
    ];

    /// How the directive is spelt after `{{#`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Name::Exercise => "exercise",
            Name::Glossary => "dumplab-glossary",
            Name::Playground => "dumplab-playground",
            Name::Map => "dumplab-map",
            Name::AnswerKey => "dumplab-answer-key",
        }
    }
}

/// One directive in a chapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Directive {
    /// Which one.
    pub(crate) name: Name,
    /// Bytes of the chapter from `{{` to `}}` (both included).
    pub(crate) range: Range<usize>,
    /// What stands between the name and `}}`, trimmed.
    pub(crate) arg: String,
}

/// Something that looks like one of our directives but cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    /// Byte offset of `{{` in the chapter.
    pub(crate) offset: usize,
    /// What is wrong.
    pub(crate) message: String,
    /// What to do.
    pub(crate) hint: String,
}

/// What [`find`] reports: directives to expand, escapes to unescape, problems.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Found {
    /// Directives in chapter order.
    pub(crate) directives: Vec<Directive>,
    /// Offsets of the `\` of escaped directives (`\{{#exercise ...}}`).
    pub(crate) escapes: Vec<usize>,
    /// Problems in chapter order.
    pub(crate) problems: Vec<Problem>,
}

/// Finds every directive of ours in `content`.
pub(crate) fn find(content: &str) -> Found {
    let mut found = Found::default();
    if !content.contains("{{") {
        return found;
    }
    let parser = Parser::new_ext(content, options()).into_offset_iter();
    let comments = comment_ranges(content);
    let mut code_depth = 0usize;
    for (event, range) in TextMergeWithOffset::new(parser) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => code_depth += 1,
            Event::End(pulldown_cmark::TagEnd::CodeBlock) => {
                code_depth = code_depth.saturating_sub(1);
            }
            Event::Text(_) if code_depth == 0 => scan_prose(content, range, &mut found),
            Event::Html(_) | Event::InlineHtml(_) => {
                scan_html(content, range, &comments, &mut found);
            }
            // Code spans, code block text, math and everything else: inert.
            _ => {}
        }
    }
    found
}

/// Reports the problems [`find`] met in chapter `file`, and the rules of the
/// directives that stand alone (glossary, playground): no argument, once per
/// chapter.
pub(crate) fn report(file: &str, content: &str, found: &Found, diags: &mut Vec<Diagnostic>) {
    for p in &found.problems {
        diags.push(Diagnostic::error_at(file, content, p.offset, &p.message).with_hint(&p.hint));
    }
    // Directives that stand alone: no argument, once per chapter.
    for (name, why) in [
        (
            Name::Glossary,
            "the glossary is listed once; remove this one",
        ),
        (
            Name::Playground,
            "the playground's inputs have fixed ids: keep one per chapter",
        ),
        (
            Name::AnswerKey,
            "the answer key lists every question once; remove this one",
        ),
    ] {
        let spelt = name.as_str();
        let all: Vec<&Directive> = found.directives.iter().filter(|d| d.name == name).collect();
        for d in all.iter().filter(|d| !d.arg.is_empty()) {
            let message = format!("`{{{{#{spelt}}}}}` takes no argument");
            let hint = format!("write `{{{{#{spelt}}}}}` alone");
            diags.push(Diagnostic::error_at(file, content, d.range.start, message).with_hint(hint));
        }
        for d in all.iter().skip(1) {
            let message = format!("a second `{{{{#{spelt}}}}}` in this chapter");
            diags.push(Diagnostic::error_at(file, content, d.range.start, message).with_hint(why));
        }
    }
}

/// Finds directives in a run of prose text (its raw source bytes).
fn scan_prose(content: &str, range: Range<usize>, found: &mut Found) {
    let text = &content[range.clone()];
    let mut from = 0;
    while let Some(at) = text[from..].find("{{").map(|i| i + from) {
        from = at + 2;
        let Some((name, spelt)) = directive_name(&text[at..]) else {
            continue;
        };
        let offset = range.start + at;
        // The parser leaves an escaping backslash out of the text's range.
        if offset > 0 && content.as_bytes()[offset - 1] == b'\\' {
            if name.is_some() {
                found.escapes.push(offset - 1);
            }
            continue;
        }
        let Some(name) = name else {
            found.problems.push(misspelt(offset, spelt));
            continue;
        };
        let after = at + 3 + spelt.len();
        let Some(close) = text[after..].find("}}").map(|i| i + after) else {
            found.problems.push(Problem {
                offset,
                message: format!("the `{{{{#{spelt}` directive is not closed"),
                hint: format!(
                    "write the whole directive on one line, with no Markdown inside: `{{{{#{} ...}}}}`",
                    name.as_str()
                ),
            });
            continue;
        };
        let arg = &text[after..close];
        if arg.contains('{') || !(arg.is_empty() || arg.starts_with(char::is_whitespace)) {
            found.problems.push(Problem {
                offset,
                message: format!("`{}` is not a directive", &text[at..close + 2]),
                hint: format!(
                    "write `{{{{#{} ...}}}}` with a space after the name",
                    name.as_str()
                ),
            });
            from = close + 2;
            continue;
        }
        found.directives.push(Directive {
            name,
            range: offset..range.start + close + 2,
            arg: arg.trim().to_owned(),
        });
        from = close + 2;
    }
}

/// Raw HTML: directives inside comments are commented out; anywhere else in
/// raw HTML, Markdown would not expand them, so they are errors.
fn scan_html(content: &str, range: Range<usize>, comments: &[Range<usize>], found: &mut Found) {
    let html = &content[range.clone()];
    let mut from = 0;
    while let Some(at) = html[from..].find("{{").map(|i| i + from) {
        from = at + 2;
        let Some((name, spelt)) = directive_name(&html[at..]) else {
            continue;
        };
        if in_comment(comments, range.start + at) {
            continue;
        }
        let offset = range.start + at;
        found.problems.push(match name {
            Some(name) => Problem {
                offset,
                message: format!(
                    "the `{{{{#{}` directive stands inside raw HTML, where it is not expanded",
                    name.as_str()
                ),
                hint: "put it on a line of its own with a blank line before and after, outside the HTML element".to_owned(),
            },
            None => misspelt(offset, spelt),
        });
    }
}

/// Every `<!-- ... -->` of `content`, in order (an unclosed one runs to the
/// end, as in HTML). One pass, so a chapter full of directives stays linear.
fn comment_ranges(content: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = content[from..].find("<!--").map(|i| i + from) {
        let end = content[open + 4..]
            .find("-->")
            .map_or(content.len(), |i| open + 4 + i + 3);
        out.push(open..end);
        from = end;
    }
    out
}

/// Whether byte `at` lies inside one of the sorted `comments`.
fn in_comment(comments: &[Range<usize>], at: usize) -> bool {
    let i = comments.partition_point(|r| r.end <= at);
    comments.get(i).is_some_and(|r| r.start <= at)
}

/// The directive name after `{{#` at the start of `s`: `Some(name)` for one of
/// ours, `None` for a near miss of one of ours (a typo), and no result at all
/// for anything else (mdBook's or another preprocessor's directives, text).
fn directive_name(s: &str) -> Option<(Option<Name>, &str)> {
    let rest = s.strip_prefix("{{#")?;
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(rest.len());
    let spelt = &rest[..len];
    if let Some((name, _)) = Name::ALL.iter().find(|(_, n)| *n == spelt) {
        return Some((Some(*name), spelt));
    }
    let near = Name::ALL
        .iter()
        .any(|(_, n)| dumplab::did_you_mean(spelt, [*n]).is_some());
    near.then_some((None, spelt))
}

fn misspelt(offset: usize, spelt: &str) -> Problem {
    let names = Name::ALL.iter().map(|(_, n)| *n);
    let suggestion = dumplab::did_you_mean(spelt, names).unwrap_or("exercise");
    Problem {
        offset,
        message: format!("unknown directive `{{{{#{spelt}`"),
        hint: format!("did you mean `{{{{#{suggestion}`?"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `check(input, expect)`: each directive as `name arg @start..end`,
    /// escapes as `\@offset`, problems as `!@offset message`.
    fn check(input: &str, expect: &[&str]) {
        let found = find(input);
        let mut got: Vec<String> = found
            .directives
            .iter()
            .map(|d| {
                format!(
                    "{} {} @{}..{}",
                    d.name.as_str(),
                    d.arg,
                    d.range.start,
                    d.range.end
                )
            })
            .collect();
        got.extend(found.escapes.iter().map(|e| format!("\\@{e}")));
        got.extend(
            found
                .problems
                .iter()
                .map(|p| format!("!@{} {}", p.offset, p.message)),
        );
        assert_eq!(got, expect, "{input:?}");
    }

    #[test]
    fn directives_in_prose() {
        check("{{#exercise a.toml}}\n", &["exercise a.toml @0..20"]);
        check(
            "Text {{#exercise a.toml#q1}} and {{#exercise b.toml}}.\n",
            &["exercise a.toml#q1 @5..28", "exercise b.toml @33..53"],
        );
        check(
            "# G\n\n{{#dumplab-glossary}}\n",
            &["dumplab-glossary  @5..26"],
        );
        check(
            "# P\n\n{{#dumplab-playground}}\n",
            &["dumplab-playground  @5..28"],
        );
        check(
            "{{#dumplab-map softmax cpu}}\n",
            &["dumplab-map softmax cpu @0..28"],
        );
        check("> {{#exercise a.toml}}\n", &["exercise a.toml @2..22"]);
        check("- {{#exercise a.toml}}\n", &["exercise a.toml @2..22"]);
    }

    #[test]
    fn code_of_every_kind_is_inert() {
        for input in [
            "```\n{{#exercise a.toml}}\n```\n",
            "````markdown\n```\n{{#exercise a.toml}}\n````\n",
            "~~~\n{{#exercise a.toml}}\n~~~\n",
            "    {{#exercise a.toml}}\n",
            "> ```\n> {{#exercise a.toml}}\n> ```\n",
            "- item\n\n  ```\n  {{#exercise a.toml}}\n  ```\n",
            "Show `{{#exercise a.toml}}` here.\n",
            "Show ``{{#exercise a.toml}}`` here.\n",
            "Show ``a ` {{#exercise a.toml}}`` here.\n",
            "<!-- {{#exercise a.toml}} -->\n",
            "<!--\n{{#exercise a.toml}}\n-->\n",
            "Text <!-- {{#exercise a.toml}} --> more.\n",
            "{{#include x.md}} and {{#title T}}\n",
        ] {
            check(input, &[]);
        }
    }

    #[test]
    fn a_fence_line_inside_a_fence_does_not_lose_it() {
        // A line of three backticks inside a four-backtick fence is text;
        // the directive after the fence is live, the one inside is not.
        check(
            "````\n```\n{{#exercise in.toml}}\n````\n\n{{#exercise out.toml}}\n",
            &["exercise out.toml @37..59"],
        );
    }

    #[test]
    fn escapes_stay_text() {
        check("\\{{#exercise a.toml}}\n", &["\\@0"]);
    }

    #[test]
    fn problems_are_never_silent() {
        check(
            "{{#exercise a.toml\n",
            &["!@0 the `{{#exercise` directive is not closed"],
        );
        check(
            "{{#exercize a.toml}}\n",
            &["!@0 unknown directive `{{#exercize`"],
        );
        check(
            "{{#dumplab-glosary}}\n",
            &["!@0 unknown directive `{{#dumplab-glosary`"],
        );
        check(
            "<div>\n{{#exercise a.toml}}\n</div>\n",
            &["!@6 the `{{#exercise` directive stands inside raw HTML, where it is not expanded"],
        );
        check(
            "{{#exercises a.toml}}\n",
            &["!@0 unknown directive `{{#exercises`"],
        );
    }

    /// Random chapters from fragments that confuse line scanners: never a
    /// panic, every range on the text it names.
    #[test]
    fn random_chapters_never_panic() {
        const PARTS: [&str; 16] = [
            "{{#exercise a.toml}}",
            "{{#exercise",
            "{{#dumplab-glossary}}",
            "{{#exercize x}}",
            "}}",
            "```",
            "~~~",
            "    ",
            "<!--",
            "-->",
            "\\",
            "`",
            "\n",
            "<div>",
            "é{",
            "> ",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..12 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(PARTS[(seed % PARTS.len() as u64) as usize]);
            }
            let found = find(&text);
            for d in &found.directives {
                let shown = &text[d.range.clone()];
                assert!(
                    shown.starts_with("{{#") && shown.ends_with("}}"),
                    "{text:?}"
                );
            }
            for p in &found.problems {
                assert!(text[p.offset..].starts_with("{{#"), "{text:?}");
            }
        }
    }
}
