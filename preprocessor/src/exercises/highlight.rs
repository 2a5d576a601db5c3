//! Build-time syntax highlighting of dumps with syntect and the course's own
//! grammars (`preprocessor/syntaxes/*.sublime-syntax`).
//!
//! The grammars are compiled once by `build.rs` into a binary syntax set that
//! is embedded here, so a book build never parses YAML. Output is classed
//! HTML (`dl-` prefixed scope atoms, styled by `theme/exercises.css` for all
//! five themes), one element per line so lines can be numbered, selected and
//! lit up; spans are closed at each line end and reopened on the next, so
//! every line is balanced HTML on its own.

use dumplab::exercise::resolve::Language;
use std::fmt::Write as _;
use std::sync::OnceLock;
use syntect::html::{ClassStyle, line_tokens_to_classed_spans};
use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxSet};

const STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "dl-" };

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(|| {
        let bytes = include_bytes!(concat!(env!("OUT_DIR"), "/syntaxes.packdump"));
        // The dump is written by our own build script from checked-in grammars;
        // if it could not be read, plain (escaped) text is still right.
        syntect::dumps::from_uncompressed_data(bytes).unwrap_or_else(|_| SyntaxSet::new())
    })
}

fn scope_name(language: Language) -> &'static str {
    match language {
        Language::Hlo => "source.hlo",
        Language::Mlir => "source.mlir",
        Language::Jaxpr => "source.jaxpr",
    }
}

pub(crate) use crate::html::escape;

fn classes(scope: Scope) -> String {
    scope
        .build_string()
        .split('.')
        .map(|atom| format!("dl-{atom}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Highlights `text` line by line; returns one balanced HTML fragment per
/// line (no line terminators).
pub(crate) fn highlight_lines(text: &str, language: Language) -> Vec<String> {
    let set = syntaxes();
    let Some(syntax) = Scope::new(scope_name(language))
        .ok()
        .and_then(|s| set.find_syntax_by_scope(s))
    else {
        return text.lines().map(escape).collect();
    };
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let mut html = String::new();
        for scope in stack.as_slice() {
            let _ = write!(html, "<span class=\"{}\">", classes(*scope));
        }
        let open_before = stack.len() as isize;
        let with_newline = format!("{line}\n");
        let spans = state.parse_line(&with_newline, set).ok().and_then(|ops| {
            line_tokens_to_classed_spans(&with_newline, &ops, STYLE, &mut stack).ok()
        });
        match spans {
            Some((body, delta)) => {
                html.push_str(body.strip_suffix('\n').unwrap_or(&body));
                for _ in 0..(open_before + delta).max(0) {
                    html.push_str("</span>");
                }
            }
            None => {
                // A grammar error on this line: show it plain and start afresh.
                html = escape(line);
                state = ParseState::new(syntax);
                stack = ScopeStack::new();
            }
        }
        out.push(html);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlights_with_classes_and_escapes() {
        let lines = highlight_lines(
            "HloModule m, is_scheduled=true\n  %a = f32[2]{0} add(%b, %c) // <x>",
            Language::Hlo,
        );
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].contains("<span class=\"dl-keyword dl-other dl-hlo\">HloModule</span>"),
            "{}",
            lines[0]
        );
        assert!(lines[1].contains("dl-support dl-function"), "{}", lines[1]);
        assert!(lines[1].contains("&lt;x&gt;"), "{}", lines[1]);
        for l in &lines {
            assert_eq!(
                l.matches("<span").count(),
                l.matches("</span>").count(),
                "balanced: {l}"
            );
        }
    }

    #[test]
    fn every_grammar_loads() {
        for (lang, sample, class) in [
            (
                Language::Mlir,
                "%0 = stablehlo.add %a, %b : tensor<2xf32>",
                "dl-support",
            ),
            (
                Language::Jaxpr,
                "{ lambda ; a:f32[8]. let b:f32[8] = sin a in (b,) }",
                "dl-keyword",
            ),
        ] {
            let lines = highlight_lines(sample, lang);
            assert!(lines[0].contains(class), "{lang:?}: {}", lines[0]);
        }
    }

    #[test]
    fn open_strings_are_closed_at_line_end() {
        let lines = highlight_lines("x = \"unterminated\ny = 1", Language::Hlo);
        for l in &lines {
            assert_eq!(
                l.matches("<span").count(),
                l.matches("</span>").count(),
                "balanced: {l}"
            );
        }
    }
}
