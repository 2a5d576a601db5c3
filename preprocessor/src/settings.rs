//! `[preprocessor.dumplab]` in `book.toml`: every key typed, every problem
//! at its position.
//!
//! mdBook hands the preprocessor its parsed configuration, but without
//! positions; we read `book.toml` ourselves so that a typo (`tooltip =`) or a
//! wrong type (`fixtures = 3`) is one error at the value to change, with
//! "did you mean". `check` and every build read the settings here, the same
//! way. Paths are checked later, where they are used ([`crate::course`]).

use crate::glossary::Density;
use dumplab::Diagnostic;
use std::path::{Path, PathBuf};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// Our name in `book.toml`.
pub(crate) const NAME: &str = "dumplab";

/// The file diagnostics name.
const FILE: &str = "book.toml";

/// Keys of `[preprocessor.dumplab]` that mdBook itself reads.
const MDBOOK_KEYS: &[&str] = &["command", "renderers", "before", "after", "optional"];

/// Our keys, with what each holds (for the hint of a wrong type).
const OUR_KEYS: &[(&str, &str)] = &[
    ("glossary", "a path relative to the book root (a string)"),
    (
        "tooltips",
        "\"every\", \"first-per-chapter\" or \"first-per-section\"",
    ),
    ("fixtures", "a folder relative to the book root (a string)"),
    ("exercises", "a folder relative to the book root (a string)"),
    (
        "max-snippet-lines",
        "a whole number of lines, at least 1 (default 400)",
    ),
    (
        "print-omit",
        "chapters left out of print.html, as paths under `src/` (a list of strings)",
    ),
];

/// mdBook's preprocessors that must run before ours, so that nothing they
/// expand can come from course data.
pub(crate) const RUN_AFTER: &[&str] = &["links", "index"];

/// How many dump lines one snippet may show unless `book.toml` says otherwise.
pub(crate) const DEFAULT_MAX_SNIPPET_LINES: usize = 400;

/// The chapters left out of `print.html` unless `book.toml` says otherwise:
/// the instructors' chapter, by the course's convention. A default entry
/// that names no chapter of a book is no error; a configured one is.
pub(crate) const DEFAULT_PRINT_OMIT: &[&str] = &["instructors.md"];

/// The settings, with defaults for what is not set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// The glossary file, if configured.
    pub(crate) glossary: Option<String>,
    /// Tooltip density.
    pub(crate) density: Density,
    /// The fixtures folder.
    pub(crate) fixtures: PathBuf,
    /// Whether `fixtures` was set (then the folder must exist).
    pub(crate) fixtures_named: bool,
    /// The exercises folder.
    pub(crate) exercises: PathBuf,
    /// The longest snippet a question may show, in lines.
    pub(crate) max_snippet_lines: usize,
    /// The chapters' folder (`[book] src`, `src` by default).
    pub(crate) src: PathBuf,
    /// Chapters (paths under `src/`) that `print.html` leaves out.
    pub(crate) print_omit: Vec<String>,
    /// Whether `print-omit` was set (then each entry must name a chapter).
    pub(crate) print_omit_named: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            glossary: None,
            density: Density::default(),
            fixtures: PathBuf::from("fixtures"),
            fixtures_named: false,
            exercises: PathBuf::from("exercises"),
            max_snippet_lines: DEFAULT_MAX_SNIPPET_LINES,
            src: PathBuf::from("src"),
            print_omit: DEFAULT_PRINT_OMIT.iter().map(|s| (*s).to_owned()).collect(),
            print_omit_named: false,
        }
    }
}

/// Reads the settings from `root/book.toml`. A missing file gives defaults
/// (a course without a book, as in some tests); every problem is reported.
pub(crate) fn read(root: &Path) -> (Settings, Vec<Diagnostic>) {
    match std::fs::read_to_string(root.join(FILE)) {
        Ok(source) => parse(&source),
        Err(_) => (Settings::default(), Vec::new()),
    }
}

/// Parses `book.toml`'s text.
pub(crate) fn parse(source: &str) -> (Settings, Vec<Diagnostic>) {
    let mut settings = Settings::default();
    let mut diags = Vec::new();
    let Ok(doc) = DeTable::parse(source) else {
        // mdBook reports TOML syntax errors itself, before running us.
        return (settings, diags);
    };
    let doc = doc.into_inner();
    if let Some(src) = doc
        .get("book")
        .and_then(|b| b.get_ref().as_table())
        .and_then(|b| b.get("src"))
        .and_then(|v| v.get_ref().as_str())
    {
        settings.src = PathBuf::from(src);
    }
    let defaults_on = doc
        .get("build")
        .and_then(|b| b.get_ref().as_table())
        .and_then(|b| b.get("use-default-preprocessors"))
        .and_then(|v| v.get_ref().as_bool())
        .unwrap_or(true);
    let table = doc
        .get("preprocessor")
        .and_then(|p| p.get_ref().as_table())
        .and_then(|p| p.get_key_value(NAME));
    let Some((header, table)) = table else {
        return (settings, diags);
    };
    let Some(table) = table.get_ref().as_table() else {
        diags.push(
            err(
                source,
                header.span().start,
                "`preprocessor.dumplab` must be a table",
            )
            .with_hint("write it as a `[preprocessor.dumplab]` table"),
        );
        return (settings, diags);
    };
    for (key, value) in table {
        read_key(source, key, value, &mut settings, &mut diags);
    }
    if defaults_on {
        check_order(source, header.span().start, table, &mut diags);
    }
    (settings, diags)
}

fn read_key(
    source: &str,
    key: &Spanned<std::borrow::Cow<'_, str>>,
    value: &Spanned<DeValue<'_>>,
    settings: &mut Settings,
    diags: &mut Vec<Diagnostic>,
) {
    let name = key.get_ref().as_ref();
    let at = value.span().start;
    let string = || match value.get_ref() {
        DeValue::String(s) => Some(s.to_string()),
        _ => None,
    };
    let wrong_type = |what: &str| {
        err(source, at, format!("`{name}` must be {what}"))
            .with_hint(format!("for example `{name} = {}`", example(name)))
    };
    match name {
        "glossary" => match string() {
            Some(s) => settings.glossary = Some(s),
            None => diags.push(wrong_type("a string")),
        },
        "fixtures" => match string() {
            Some(s) => {
                settings.fixtures = PathBuf::from(s);
                settings.fixtures_named = true;
            }
            None => diags.push(wrong_type("a string")),
        },
        "exercises" => match string() {
            Some(s) => settings.exercises = PathBuf::from(s),
            None => diags.push(wrong_type("a string")),
        },
        "tooltips" => match string() {
            Some(s) => match Density::parse(&s) {
                Some(d) => settings.density = d,
                None => {
                    let names = ["every", "first-per-chapter", "first-per-section"];
                    let mut hint = String::from(
                        "use \"every\", \"first-per-chapter\" or \"first-per-section\" (the default)",
                    );
                    if let Some(near) = dumplab::did_you_mean(&s, names) {
                        hint = format!("did you mean \"{near}\"? {hint}");
                    }
                    diags.push(
                        err(source, at, format!("unknown tooltips density `{s}`")).with_hint(hint),
                    );
                }
            },
            None => diags.push(wrong_type("a string")),
        },
        "max-snippet-lines" => match value.get_ref() {
            DeValue::Integer(i) => match i.as_str().parse::<usize>() {
                Ok(n) if n >= 1 => settings.max_snippet_lines = n,
                _ => diags.push(wrong_type("a whole number, at least 1")),
            },
            _ => diags.push(wrong_type("a whole number")),
        },
        "print-omit" => match strings(value.get_ref()) {
            Some(list) => {
                settings.print_omit = list;
                settings.print_omit_named = true;
            }
            None => diags.push(wrong_type("a list of strings")),
        },
        _ if MDBOOK_KEYS.contains(&name) => {}
        _ => {
            let known = OUR_KEYS
                .iter()
                .map(|(k, _)| *k)
                .chain(MDBOOK_KEYS.iter().copied());
            let hint = match dumplab::did_you_mean(name, known) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!(
                    "the keys are {} (and mdBook's {})",
                    OUR_KEYS
                        .iter()
                        .map(|(k, _)| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    MDBOOK_KEYS.join(", ")
                ),
            };
            diags.push(
                err(
                    source,
                    key.span().start,
                    format!("unknown key `{name}` in [preprocessor.dumplab]"),
                )
                .with_hint(hint),
            );
        }
    }
}

/// The strings of a TOML array of strings; `None` for anything else.
fn strings(value: &DeValue<'_>) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.get_ref().as_str().map(str::to_owned))
        .collect()
}

/// What a right value of `key` looks like.
fn example(key: &str) -> &'static str {
    match key {
        "glossary" => "\"glossary/terms.toml\"",
        "tooltips" => "\"first-per-section\"",
        "fixtures" => "\"fixtures\"",
        "exercises" => "\"exercises\"",
        "max-snippet-lines" => "400",
        "print-omit" => "[\"instructors.md\"]",
        _ => "\"...\"",
    }
}

/// mdBook's `links` expands `{{#include}}` and `{{#title}}`: it must run
/// before us, so that nothing we put on a page is ever expanded.
fn check_order(source: &str, header: usize, table: &DeTable<'_>, diags: &mut Vec<Diagnostic>) {
    let after: Vec<String> = table
        .get("after")
        .and_then(|v| v.get_ref().as_array())
        .map(|a| {
            a.iter()
                .filter_map(|v| v.get_ref().as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let missing: Vec<&str> = RUN_AFTER
        .iter()
        .copied()
        .filter(|p| !after.iter().any(|a| a == p))
        .collect();
    if missing.is_empty() {
        return;
    }
    let at = table
        .get_key_value("after")
        .map_or(header, |(k, _)| k.span().start);
    diags.push(
        err(
            source,
            at,
            format!(
                "the dumplab preprocessor must run after mdBook's {}",
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        )
        .with_hint(
            "add `after = [\"links\", \"index\"]` to [preprocessor.dumplab]: otherwise `{{#include ...}}` in course data (a prompt, a dump line) would be expanded into the page",
        ),
    );
}

/// An error at the value of `key` in `[preprocessor.dumplab]` of
/// `root/book.toml` (at the table, or the file's start, when not found).
pub(crate) fn error_at_value(root: &Path, key: &str, message: impl Into<String>) -> Diagnostic {
    let source = std::fs::read_to_string(root.join(FILE)).unwrap_or_default();
    let offset = DeTable::parse(&source)
        .ok()
        .and_then(|doc| {
            let doc = doc.into_inner();
            let table = doc.get("preprocessor")?.get_ref().as_table()?.get(NAME)?;
            let table = table.get_ref().as_table()?;
            Some(table.get(key)?.span().start)
        })
        .unwrap_or(0);
    err(&source, offset, message)
}

fn err(source: &str, offset: usize, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error_at(FILE, source, offset, message)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A diagnostic as the table tests spell it: `line:col message | hint`.
    pub(crate) fn brief(d: &Diagnostic) -> String {
        let hint = d.hint.as_deref().unwrap_or("");
        format!("{}:{} {} | {hint}", d.line, d.column, d.message)
    }

    const HEAD: &str =
        "[book]\ntitle = \"t\"\n\n[preprocessor.dumplab]\nafter = [\"links\", \"index\"]\n";

    /// `check(table lines, expect)`: the diagnostics as `line:col message | hint`.
    fn check(extra: &str, expect: &[&str]) -> Settings {
        let source = format!("{HEAD}{extra}");
        let (settings, diags) = parse(&source);
        let got: Vec<String> = diags.iter().map(brief).collect();
        assert_eq!(got, expect, "{source}");
        settings
    }

    #[test]
    fn good_settings() {
        let s = check(
            "command = \"x\"\nglossary = \"g.toml\"\ntooltips = \"every\"\nfixtures = \"f\"\nexercises = \"e\"\nmax-snippet-lines = 20\n",
            &[],
        );
        assert_eq!(s.glossary.as_deref(), Some("g.toml"));
        assert_eq!(s.density, Density::Every);
        assert_eq!(s.fixtures, PathBuf::from("f"));
        assert!(s.fixtures_named);
        assert_eq!(s.exercises, PathBuf::from("e"));
        assert_eq!(s.max_snippet_lines, 20);
        assert_eq!(s.print_omit, ["instructors.md"], "the default");
        assert!(!s.print_omit_named);
        let s = check("print-omit = []\n", &[]);
        assert!(s.print_omit.is_empty() && s.print_omit_named);
        let s = check("print-omit = [\"a.md\", \"b/c.md\"]\n", &[]);
        assert_eq!(s.print_omit, ["a.md", "b/c.md"]);
    }

    #[test]
    fn typos_and_types_are_errors_at_the_value() {
        check(
            "tooltip = \"every\"\n",
            &["6:1 unknown key `tooltip` in [preprocessor.dumplab] | did you mean `tooltips`?"],
        );
        check(
            "fixtures = 3\n",
            &["6:12 `fixtures` must be a string | for example `fixtures = \"fixtures\"`"],
        );
        check(
            "tooltips = \"evry\"\n",
            &[
                "6:12 unknown tooltips density `evry` | did you mean \"every\"? use \"every\", \"first-per-chapter\" or \"first-per-section\" (the default)",
            ],
        );
        check(
            "max-snippet-lines = 0\n",
            &[
                "6:21 `max-snippet-lines` must be a whole number, at least 1 | for example `max-snippet-lines = 400`",
            ],
        );
        check(
            "zzz = 1\n",
            &[
                "6:1 unknown key `zzz` in [preprocessor.dumplab] | the keys are `glossary`, `tooltips`, `fixtures`, `exercises`, `max-snippet-lines`, `print-omit` (and mdBook's command, renderers, before, after, optional)",
            ],
        );
        check(
            "print-omitt = []\n",
            &[
                "6:1 unknown key `print-omitt` in [preprocessor.dumplab] | did you mean `print-omit`?",
            ],
        );
        for bad in ["\"instructors.md\"", "[1]", "[\"a.md\", 2]"] {
            check(
                &format!("print-omit = {bad}\n"),
                &[
                    "6:14 `print-omit` must be a list of strings | for example `print-omit = [\"instructors.md\"]`",
                ],
            );
        }
    }

    #[test]
    fn the_preprocessor_must_run_after_links() {
        let (_, diags) = parse("[preprocessor.dumplab]\nglossary = \"g.toml\"\n");
        assert_eq!(diags.len(), 1);
        assert_eq!((diags[0].line, diags[0].column), (1, 15));
        assert!(diags[0].message.contains("`links` and `index`"));
        let (_, diags) = parse("[preprocessor.dumplab]\nafter = [\"links\"]\n");
        assert_eq!((diags[0].line, diags[0].column), (2, 1));
        assert!(diags[0].message.ends_with("`index`"));
        // Without mdBook's default preprocessors there is nothing to wait for.
        let (_, diags) = parse(
            "[build]\nuse-default-preprocessors = false\n[preprocessor.dumplab]\nglossary = \"g\"\n",
        );
        assert!(diags.is_empty());
    }
}
