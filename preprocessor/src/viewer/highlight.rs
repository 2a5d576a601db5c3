//! Build-time syntax highlighting of dumps with syntect and the course's own
//! grammars (`preprocessor/syntaxes/*.sublime-syntax`).
//!
//! The grammars are compiled once by `build.rs` into a binary syntax set that
//! is embedded here, so a book build never parses YAML.
//!
//! Output is one element per line, so lines can be numbered, selected and lit
//! up. Each coloured token gets one short class naming its role (`dl-hk`
//! keyword, `dl-hf` function or op, `dl-ht` type, `dl-hs` string, `dl-hn`
//! number, `dl-hl` layout, `dl-ha` attribute name, `dl-hc` comment), styled
//! by `theme/exercises.css` for all five themes; tokens without a role are
//! plain text. Syntect's own classed output repeats every scope atom of every
//! enclosing scope on every span, which made a page of dumps several times
//! larger for the same colours.

use dumplab::exercise::resolve::Language;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;
use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};

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

/// The colour role of one scope (`keyword.other.hlo` → `dl-hk`), if any.
fn role(scope: Scope) -> Option<&'static str> {
    let name = scope.build_string();
    let mut atoms = name.split('.');
    let first = atoms.next()?;
    let has = |atom: &str| name.split('.').any(|a| a == atom);
    match first {
        "comment" => Some("dl-hc"),
        "keyword" => Some("dl-hk"),
        "support" => Some("dl-hf"),
        "storage" => Some("dl-ht"),
        "string" => Some("dl-hs"),
        "constant" if has("layout") => Some("dl-hl"),
        "constant" => Some("dl-hn"),
        _ if has("attribute-name") => Some("dl-ha"),
        "entity" if atoms.next() == Some("name") => Some("dl-hf"),
        _ => None,
    }
}

/// The role of the innermost scope on `stack` that has one: the colour a
/// reader sees for text there. Each scope's role is worked out once per
/// build ([`ROLES`]): naming a scope builds a string.
fn role_of(stack: &ScopeStack) -> Option<&'static str> {
    ROLES.with(|roles| {
        let mut roles = roles.borrow_mut();
        stack
            .as_slice()
            .iter()
            .rev()
            .find_map(|s| *roles.entry(*s).or_insert_with(|| role(*s)))
    })
}

/// Appends `text` to `html`, escaped, wrapped in a span of `class` if any.
fn push_token(html: &mut String, text: &str, class: Option<&str>) {
    if text.is_empty() {
        return;
    }
    match class {
        Some(class) => {
            let _ = write!(html, "<span class=\"{class}\">{}</span>", escape(text));
        }
        None => html.push_str(&escape(text)),
    }
}

/// Highlights `text` line by line; returns one balanced HTML fragment per
/// line (no line terminators).
///
/// The grammars are line-oriented (a string still open at a line's end is
/// closed there), so every line starts in the grammar's main context and
/// its HTML depends on the line alone: each distinct line is highlighted
/// once per build ([`LINES`]), however many snippets and pages show it.
pub(crate) fn highlight_lines(text: &str, language: Language) -> Vec<String> {
    let set = syntaxes();
    let Some(syntax) = Scope::new(scope_name(language))
        .ok()
        .and_then(|s| set.find_syntax_by_scope(s))
    else {
        return text.lines().map(escape).collect();
    };
    LINES.with(|cache| {
        let mut cache = cache.borrow_mut();
        let cache = cache.entry(scope_name(language)).or_default();
        text.lines()
            .map(|line| {
                if let Some(html) = cache.get(line) {
                    return html.clone();
                }
                let html = match language {
                    // Read by hand, equal to the grammar (tests below).
                    Language::Hlo => super::hlo_line::roles(line)
                        .map(|runs| html_of_runs(line, &runs))
                        .unwrap_or_else(|| highlight_line(line, syntax, set)),
                    _ => highlight_line(line, syntax, set),
                };
                cache.insert(line.to_owned(), html.clone());
                html
            })
            .collect()
    })
}

/// Per grammar (its scope name), each line's HTML.
type LineCache = HashMap<&'static str, HashMap<String, String>>;

thread_local! {
    /// Each distinct line's HTML, per grammar, for the rest of the build.
    static LINES: std::cell::RefCell<LineCache> = std::cell::RefCell::default();
    /// Each scope's colour role ([`role`]), for the rest of the build.
    static ROLES: std::cell::RefCell<HashMap<Scope, Option<&'static str>>> =
        std::cell::RefCell::default();
}

/// One line's HTML from the roles of its byte runs ([`super::hlo_line`]),
/// a span per run with a role. Syntect's scopes give the same: between two
/// tokens the line's own scope (no role) comes back, so two adjacent tokens
/// of one role are two spans ([`continue_line`] merges only while the role
/// stays unchanged).
fn html_of_runs(line: &str, runs: &[(usize, usize, Option<&'static str>)]) -> String {
    let mut html = String::new();
    for &(start, end, class) in runs {
        push_token(&mut html, line.get(start..end).unwrap_or(""), class);
    }
    html
}

/// One line's HTML, from the grammar's main context.
fn highlight_line(line: &str, syntax: &SyntaxReference, set: &SyntaxSet) -> String {
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    continue_line(line, &mut state, &mut stack, set)
}

/// One line's HTML, from the parse state and scopes the lines before it
/// left (a fresh pair: the main context); the line shown plain where the
/// grammar fails on it.
fn continue_line(
    line: &str,
    state: &mut ParseState,
    stack: &mut ScopeStack,
    set: &SyntaxSet,
) -> String {
    let with_newline = format!("{line}\n");
    let Ok(ops) = state.parse_line(&with_newline, set) else {
        return escape(line);
    };
    let mut html = String::new();
    // Adjacent tokens of the same role share one span.
    let mut run_start = 0;
    let mut run_class = role_of(stack);
    for (at, op) in ops {
        let at = at.min(line.len());
        if stack.apply(&op).is_err() {
            return escape(line);
        }
        let class = role_of(stack);
        if class != run_class {
            push_token(&mut html, line.get(run_start..at).unwrap_or(""), run_class);
            run_start = at;
            run_class = class;
        }
    }
    push_token(&mut html, line.get(run_start..).unwrap_or(""), run_class);
    html
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// The grammars' state carried from line to line, as one parse of the
    /// whole text: what the per-line cache must equal.
    fn carried(text: &str, language: Language) -> Vec<String> {
        let set = syntaxes();
        let syntax = set
            .find_syntax_by_scope(Scope::new(scope_name(language)).unwrap())
            .unwrap();
        let (mut state, mut stack) = (ParseState::new(syntax), ScopeStack::new());
        text.lines()
            .map(|line| continue_line(line, &mut state, &mut stack, set))
            .collect()
    }

    /// Every fixture dump's first lines (and an open string) highlight line by line as
    /// one parse of the whole file does: the grammars are line-oriented, so
    /// a line's HTML can be kept and reused.
    #[test]
    fn lines_highlight_alone_as_in_their_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let mut files = 0;
        for fam in std::fs::read_dir(&root).unwrap().flatten() {
            for f in std::fs::read_dir(fam.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let name = f.file_name().to_string_lossy().into_owned();
                let language = if name.ends_with(".mlir") {
                    Language::Mlir
                } else if name.ends_with(".hlo.txt") {
                    Language::Hlo
                } else if name == "jaxpr.txt" {
                    Language::Jaxpr
                } else {
                    continue;
                };
                // The first 16 lines of each (a debug build highlights
                // slowly): the header, tables and long compiled lines.
                let whole = std::fs::read_to_string(f.path()).unwrap();
                let text: String = whole.lines().take(16).map(|l| format!("{l}\n")).collect();
                assert_eq!(
                    highlight_lines(&text, language),
                    carried(&text, language),
                    "{name}"
                );
                files += 1;
            }
        }
        assert!(files > 200, "{files} fixture dumps");
        let open = "x = \"unterminated\ny = \"1\"";
        assert_eq!(
            highlight_lines(open, Language::Hlo),
            carried(open, Language::Hlo)
        );
    }

    /// Every text file under `dir`, recursively.
    fn texts_under(dir: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                texts_under(&path, out);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                out.push(text);
            }
        }
    }

    /// The hand-written HLO reader gives the grammar's HTML, byte for byte,
    /// on every distinct line of every file of the fixtures (dumps, dump
    /// folders, logs), the drift corpus and the chapters, read as HLO, and
    /// on lines made to catch each pattern's edges.
    #[test]
    fn hlo_by_hand_is_the_grammar() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut texts = Vec::new();
        for dir in ["fixtures", "checker/tests/drift", "src"] {
            texts_under(&root.join(dir), &mut texts);
        }
        let edges = [
            "%a = f32[8,128]{1,0:T(8,128)(2,1)S(1)} fusion(%b), kind=kLoop, calls=%c",
            "{1,0:T(8,128){x}} {:} {} {1,} {0:{a}{b}} {0:{a{b}}} {0:x",
            "x = \"a\\\"b\\\" //\" \"end\\",
            "-1 -1.5 1.5e+3 1.5e3x 2e-7 1.e5 3.x a1 _1 x-1 1-2 12ab 0x1f -x",
            "kLoop kLoop1 kL k kCustom_x ROOTS ENTRY_ FileNamesX HloModule",
            "true false truex _true pred[] token[] bf16[2] f8e4m3fn[3] f8e[ s4[ u128[ c64[ c128[ s16[ f32x[",
            "add( add-1( a_b( A( x=1 _x=2 X=3 a b= //",
            "metadata={op_name=\"jit(f)/mul\" source_file=\"/a.py\" source_line=3}",
            "\\ \\\\ \"\\",
        ];
        let set = syntaxes();
        let syntax = set
            .find_syntax_by_scope(Scope::new("source.hlo").unwrap())
            .unwrap();
        let mut seen = std::collections::HashSet::new();
        let lines = texts.iter().flat_map(|t| t.lines()).chain(edges);
        for line in lines {
            if !seen.insert(line) {
                continue;
            }
            let Some(runs) = super::super::hlo_line::roles(line) else {
                continue;
            };
            assert_eq!(
                html_of_runs(line, &runs),
                highlight_line(line, syntax, set),
                "{line}"
            );
        }
        // 50,540 today: a floor that fails only when the walk finds next to nothing.
        assert!(seen.len() > 20_000, "{} distinct lines", seen.len());
    }

    #[test]
    fn highlights_with_classes_and_escapes() {
        let lines = highlight_lines(
            "HloModule m, is_scheduled=true\n  %a = f32[2]{0} add(%b, %c) // <x>",
            Language::Hlo,
        );
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].contains("<span class=\"dl-hk\">HloModule</span>"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].contains("<span class=\"dl-hf\">add</span>"),
            "{}",
            lines[1]
        );
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
                "dl-hf",
            ),
            (
                Language::Jaxpr,
                "{ lambda ; a:f32[8]. let b:f32[8] = sin a in (b,) }",
                "dl-hk",
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
