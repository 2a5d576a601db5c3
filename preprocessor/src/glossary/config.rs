//! Loading and validating `glossary/terms.toml`.
//!
//! The file is parsed once with span information so that every problem can
//! name `file:line:column`. Validation never stops at the first problem: an
//! instructor who renamed three chapters sees three errors in one build.
//! Each `[[term]]` entry is deserialized on its own (typed, with
//! `toml::Spanned` fields) so that one broken entry does not hide the
//! problems of the others.

use super::definition::{RenderedDefinition, render_definition};
use super::model::{Case, Glossary, Term};
use dumplab::Diagnostic;
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};

/// The fields a `[[term]]` entry may have.
const FIELDS: &[&str] = &["id", "term", "aliases", "case", "definition", "chapter"];

/// One `[[term]]` entry as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerm {
    id: Spanned<String>,
    term: Spanned<String>,
    #[serde(default)]
    aliases: Vec<Spanned<String>>,
    case: Option<Spanned<String>>,
    definition: Spanned<String>,
    chapter: Spanned<String>,
}

/// Parses and validates the glossary `source` (named `file` in messages).
///
/// `chapters` holds every chapter path of the book, relative to `src/`, with
/// `/` separators. Returns the glossary when there is no error, and every
/// problem found either way.
pub(crate) fn load(
    file: &str,
    source: &str,
    chapters: &BTreeSet<String>,
) -> (Option<Glossary>, Vec<Diagnostic>) {
    let mut loader = Loader {
        file,
        source,
        diags: Vec::new(),
        ids: HashMap::new(),
        claimed: Vec::new(),
    };
    let (root, syntax_errors) = DeTable::parse_recoverable(source);
    if !syntax_errors.is_empty() {
        for e in syntax_errors {
            loader.err(
                e.span().map_or(0, |s| s.start),
                format!("invalid TOML: {}", one_line(e.message())),
                "fix the syntax; the format is described in the comments at the top of the file",
            );
        }
        return (None, loader.diags);
    }
    let raw_terms = loader.entries(root.get_ref());
    let terms: Vec<Term> = raw_terms
        .into_iter()
        .map(|raw| loader.term(raw, chapters))
        .collect();
    let mut diags = loader.diags;
    diags.sort_by_key(|d| (d.line, d.column));
    let has_error = diags.iter().any(Diagnostic::is_error);
    (
        if has_error {
            None
        } else {
            Some(Glossary { terms })
        },
        diags,
    )
}

/// The file being loaded and what loading it has found so far.
struct Loader<'a> {
    /// The file's name, for messages.
    file: &'a str,
    /// Its text.
    source: &'a str,
    /// Every problem found.
    diags: Vec<Diagnostic>,
    /// Every id seen, with the offset of its first use.
    ids: HashMap<String, usize>,
    /// Every form seen so far: (form, case, owner id).
    claimed: Vec<(String, Case, String)>,
}

impl Loader<'_> {
    /// Reports an error at `offset`.
    fn err(&mut self, offset: usize, message: String, hint: &str) {
        self.diags
            .push(Diagnostic::error_at(self.file, self.source, offset, message).with_hint(hint));
    }

    /// The `[[term]]` entries of the file, each deserialized on its own:
    /// unknown top-level keys and fields are reported and left out, a broken
    /// entry is reported and skipped.
    fn entries(&mut self, root: &DeTable<'_>) -> Vec<RawTerm> {
        let mut raw_terms = Vec::new();
        for (key, value) in root {
            if key.get_ref() != "term" {
                self.err(
                    key.span().start,
                    format!("unknown top-level key `{}`", key.get_ref()),
                    "every entry is a `[[term]]` table; move this key into one or remove it",
                );
                continue;
            }
            let Some(entries) = value.get_ref().as_array() else {
                self.err(
                    value.span().start,
                    "`term` must be an array of tables".to_owned(),
                    "write each entry as a `[[term]]` table",
                );
                continue;
            };
            for entry in entries.iter() {
                raw_terms.extend(self.entry(entry));
            }
        }
        raw_terms
    }

    /// One `[[term]]` entry, typed.
    fn entry(&mut self, entry: &Spanned<DeValue<'_>>) -> Option<RawTerm> {
        let Some(table) = entry.get_ref().as_table() else {
            self.err(
                entry.span().start,
                "a `term` entry must be a table".to_owned(),
                "write each entry as a `[[term]]` table",
            );
            return None;
        };
        let mut known = DeTable::new();
        for (k, v) in table {
            if FIELDS.contains(&k.get_ref().as_ref()) {
                known.insert(k.clone(), v.clone());
            } else {
                self.err(
                    k.span().start,
                    format!("unknown field `{}` in a `[[term]]` entry", k.get_ref()),
                    "the fields are id, term, aliases, case, definition and chapter",
                );
            }
        }
        let value = Spanned::new(entry.span(), DeValue::Table(known));
        match RawTerm::deserialize(ValueDeserializer::from(value)) {
            Ok(raw) => Some(raw),
            Err(e) => {
                let offset = e.span().map_or(entry.span().start, |s| s.start);
                self.err(
                    offset,
                    format!("invalid `[[term]]` entry: {}", one_line(e.message())),
                    "each entry needs id, term, definition and chapter (strings); aliases is a list of strings",
                );
                None
            }
        }
    }

    /// One entry validated into a term: its id, headword, case rule, forms
    /// (none claimed by another term), definition and chapter.
    fn term(&mut self, raw: RawTerm, chapters: &BTreeSet<String>) -> Term {
        let id = raw.id.get_ref().clone();
        self.check_id(&id, raw.id.span().start);
        let headword = raw.term.get_ref().trim().to_owned();
        if headword.is_empty() {
            self.err(
                raw.term.span().start,
                format!("term `{id}` has an empty `term`"),
                "write the word as it appears in prose",
            );
        }
        let case = self.case(raw.case.as_ref(), &headword);
        let forms = self.forms(&raw, &id, &headword, case);
        let (definition_html, definition_text) = self.definition(&raw.definition, &id);
        let (chapter, anchor) = self.chapter(&raw.chapter, &id, chapters);
        Term {
            id,
            term: headword,
            forms,
            case,
            definition_html,
            definition_text,
            chapter,
            anchor,
        }
    }

    /// A valid id, used once.
    fn check_id(&mut self, id: &str, offset: usize) {
        if !is_valid_id(id) {
            self.err(
                offset,
                format!("id `{id}` is not a valid term id"),
                "use lowercase ASCII letters, digits and `-`, starting with a letter or digit (e.g. `buffer-assignment`)",
            );
        }
        if let Some(&first) = self.ids.get(id) {
            let (line, _) = dumplab::diagnostic::line_column(self.source, first);
            self.err(
                offset,
                format!("duplicate id `{id}` (first used on line {line})"),
                "give each entry its own id, or merge the two entries",
            );
        } else {
            self.ids.insert(id.to_owned(), offset);
        }
    }

    /// The case rule written, or the headword's default.
    fn case(&mut self, written: Option<&Spanned<String>>, headword: &str) -> Case {
        match written.map(|c| c.get_ref().as_str()) {
            None => default_case(headword),
            Some("exact") => Case::Exact,
            Some("insensitive") => Case::Insensitive,
            Some(other) => {
                self.err(
                    written.map_or(0, |c| c.span().start),
                    format!("unknown case rule `{other}`"),
                    "use case = \"exact\" (acronyms) or case = \"insensitive\" (words)",
                );
                default_case(headword)
            }
        }
    }

    /// The term's forms (headword, then aliases; empty ones reported,
    /// repeats dropped), each checked against those of earlier terms.
    fn forms(&mut self, raw: &RawTerm, id: &str, headword: &str, case: Case) -> Vec<String> {
        let mut forms: Vec<(String, usize)> = vec![(headword.to_owned(), raw.term.span().start)];
        for alias in &raw.aliases {
            let a = alias.get_ref().trim().to_owned();
            if a.is_empty() {
                self.err(
                    alias.span().start,
                    format!("term `{id}` has an empty alias"),
                    "remove it",
                );
            } else {
                forms.push((a, alias.span().start));
            }
        }
        let mut own: Vec<String> = Vec::new();
        for (form, offset) in &forms {
            if form.is_empty() || own.contains(form) {
                continue;
            }
            own.push(form.clone());
            let owner = self
                .claimed
                .iter()
                .find(|(f, c, owner)| owner != id && same_form(f, *c, form, case))
                .map(|(_, _, owner)| owner.clone());
            if let Some(owner) = owner {
                self.err(
                    *offset,
                    format!("`{form}` is claimed by two terms: `{owner}` and `{id}`"),
                    "a spelling may belong to one term only; remove it from one of the entries",
                );
            }
        }
        for form in &own {
            self.claimed.push((form.clone(), case, id.to_owned()));
        }
        own
    }

    /// The definition rendered: HTML and plain text, never empty.
    fn definition(&mut self, written: &Spanned<String>, id: &str) -> (String, String) {
        let RenderedDefinition { html, text } = match render_definition(written.get_ref()) {
            Ok(rendered) => rendered,
            Err(problem) => {
                self.err(
                    written.span().start,
                    format!("definition of `{id}` {problem}"),
                    "a definition is one sentence of inline Markdown (emphasis, `code`, links)",
                );
                RenderedDefinition::default()
            }
        };
        if text.trim().is_empty()
            && !self
                .diags
                .iter()
                .any(|d| d.message.starts_with(&format!("definition of `{id}`")))
        {
            self.err(
                written.span().start,
                format!("definition of `{id}` is empty"),
                "write one sentence that explains the term",
            );
        }
        (html, text)
    }

    /// The chapter (and `#anchor`) that teaches the term, which must be in
    /// the book.
    fn chapter(
        &mut self,
        written: &Spanned<String>,
        id: &str,
        chapters: &BTreeSet<String>,
    ) -> (String, Option<String>) {
        let value = written.get_ref().trim();
        let (chapter, anchor) = match value.split_once('#') {
            Some((c, a)) => (c.to_owned(), Some(a.to_owned())),
            None => (value.to_owned(), None),
        };
        if !chapters.contains(&chapter) {
            let known: Vec<&str> = chapters.iter().map(String::as_str).collect();
            self.err(
                written.span().start,
                format!("chapter `{chapter}` of term `{id}` is not in the book"),
                &format!(
                    "use a chapter path from src/SUMMARY.md, relative to src/ (one of: {})",
                    known.join(", ")
                ),
            );
        }
        (chapter, anchor)
    }
}

/// Acronyms and names with inner capitals (`HLO`, `StableHLO`) match
/// exactly; everything else (`fusion`, `Pallas`) ignores case.
fn default_case(term: &str) -> Case {
    if term.chars().skip(1).any(char::is_uppercase) {
        Case::Exact
    } else {
        Case::Insensitive
    }
}

/// Whether two forms would match the same prose.
fn same_form(a: &str, a_case: Case, b: &str, b_case: Case) -> bool {
    if a_case == Case::Exact && b_case == Case::Exact {
        a == b
    } else {
        a.to_lowercase() == b.to_lowercase()
    }
}

/// Lowercase ASCII letters, digits and `-`, starting with a letter or digit.
fn is_valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// TOML parser messages can span several lines; a diagnostic is one line.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn chapters() -> BTreeSet<String> {
        ["xla.md", "fusion.md", "deep/nested.md"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
    }

    /// Every diagnostic, rendered as the build prints it.
    fn problems(source: &str) -> Vec<String> {
        let (glossary, diags) = load("glossary/terms.toml", source, &chapters());
        assert_eq!(glossary.is_none(), diags.iter().any(Diagnostic::is_error));
        diags.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_valid_glossary_loads_with_defaults() {
        let src = "[[term]]\nid = \"hlo\"\nterm = \"HLO\"\ndefinition = \"XLA's *own* IR.\"\nchapter = \"xla.md#hlo\"\n\n\
                   [[term]]\nid = \"fusion\"\nterm = \"fusion\"\naliases = [\"fused\", \" fusions \"]\ndefinition = \"d\"\nchapter = \"fusion.md\"\n";
        let (g, diags) = load("t.toml", src, &chapters());
        assert!(diags.is_empty(), "{diags:?}");
        let g = g.unwrap();
        assert_eq!(g.terms[0].case, Case::Exact);
        assert_eq!(g.terms[0].chapter, "xla.md");
        assert_eq!(g.terms[0].anchor.as_deref(), Some("hlo"));
        assert_eq!(g.terms[0].definition_html, "XLA&#39;s <em>own</em> IR.");
        assert_eq!(g.terms[1].case, Case::Insensitive);
        assert_eq!(g.terms[1].forms, ["fusion", "fused", "fusions"]);
    }

    #[test]
    fn reports_every_problem_at_once() {
        let src = r##"[[term]]
id = "xla"
term = "XLA"
definition = "A compiler."
chapter = "xla.md"

[[term]]
id = "xla"
term = "XLA compiler"
definition = "Again."
chapter = "missing.md"
colour = "red"

[[term]]
id = "Bad Id"
term = "fusion"
aliases = ["fused", "XLA"]
case = "sometimes"
definition = "# Heading"
chapter = "fusion.md"
"##;
        assert_eq!(
            problems(src),
            [
                "glossary/terms.toml:8:6: error: duplicate id `xla` (first used on line 2)\n  help: give each entry its own id, or merge the two entries",
                "glossary/terms.toml:11:11: error: chapter `missing.md` of term `xla` is not in the book\n  help: use a chapter path from src/SUMMARY.md, relative to src/ (one of: deep/nested.md, fusion.md, xla.md)",
                "glossary/terms.toml:12:1: error: unknown field `colour` in a `[[term]]` entry\n  help: the fields are id, term, aliases, case, definition and chapter",
                "glossary/terms.toml:15:6: error: id `Bad Id` is not a valid term id\n  help: use lowercase ASCII letters, digits and `-`, starting with a letter or digit (e.g. `buffer-assignment`)",
                "glossary/terms.toml:17:21: error: `XLA` is claimed by two terms: `xla` and `Bad Id`\n  help: a spelling may belong to one term only; remove it from one of the entries",
                "glossary/terms.toml:18:8: error: unknown case rule `sometimes`\n  help: use case = \"exact\" (acronyms) or case = \"insensitive\" (words)",
                "glossary/terms.toml:19:14: error: definition of `Bad Id` contains block Markdown (a heading)\n  help: a definition is one sentence of inline Markdown (emphasis, `code`, links)",
            ]
        );
    }

    #[test]
    fn syntax_and_shape_errors() {
        let cases: &[(&str, &[&str])] = &[
            (
                "[[term]]\nid = \"xla\nterm = \"XLA\"\n",
                &[
                    "glossary/terms.toml:2:10: error: invalid TOML: invalid basic string, expected `\"`\n  help: fix the syntax; the format is described in the comments at the top of the file",
                ],
            ),
            (
                "title = \"x\"\n[[term]]\nid = \"a\"\nterm = \"A\"\ndefinition = \"d\"\nchapter = \"xla.md\"\n",
                &[
                    "glossary/terms.toml:1:1: error: unknown top-level key `title`\n  help: every entry is a `[[term]]` table; move this key into one or remove it",
                ],
            ),
            (
                "[[term]]\nid = \"a\"\nterm = \"A\"\ndefinition = \"d\"\n",
                &[
                    "glossary/terms.toml:1:1: error: invalid `[[term]]` entry: missing field `chapter`\n  help: each entry needs id, term, definition and chapter (strings); aliases is a list of strings",
                ],
            ),
            (
                "[[term]]\nid = \"a\"\nterm = \"A\"\naliases = \"B\"\ndefinition = \"d\"\nchapter = \"xla.md\"\n",
                &[
                    "glossary/terms.toml:4:11: error: invalid `[[term]]` entry: invalid type: string \"B\", expected a sequence\n  help: each entry needs id, term, definition and chapter (strings); aliases is a list of strings",
                ],
            ),
            (
                "[[term]]\nid = \"a\"\nterm = \"fuse\"\ndefinition = \"d\"\nchapter = \"xla.md\"\n[[term]]\nid = \"b\"\nterm = \"FUSE\"\ndefinition = \"d\"\nchapter = \"xla.md\"\n",
                &[
                    "glossary/terms.toml:8:8: error: `FUSE` is claimed by two terms: `a` and `b`\n  help: a spelling may belong to one term only; remove it from one of the entries",
                ],
            ),
            (
                "[[term]]\nid = \"a\"\nterm = \"A\"\ndefinition = \"One.\\n\\nTwo.\"\nchapter = \"xla.md\"\n",
                &[
                    "glossary/terms.toml:4:14: error: definition of `a` has more than one paragraph\n  help: a definition is one sentence of inline Markdown (emphasis, `code`, links)",
                ],
            ),
            (
                "[[term]]\nid = \"a\"\nterm = \"A\"\ndefinition = \"  \"\nchapter = \"xla.md\"\n",
                &[
                    "glossary/terms.toml:4:14: error: definition of `a` is empty\n  help: write one sentence that explains the term",
                ],
            ),
        ];
        for (src, expect) in cases {
            assert_eq!(problems(src), *expect, "source:\n{src}");
        }
    }

    #[test]
    fn exact_and_insensitive_forms_may_coexist() {
        // `jit`/`JIT` in one exact term, and an exact `HLO` beside an exact `hlo`
        // in another term, match different prose: no clash.
        let src = "[[term]]\nid = \"jit\"\nterm = \"jit\"\naliases = [\"JIT\"]\ncase = \"exact\"\ndefinition = \"d\"\nchapter = \"xla.md\"\n\
                   [[term]]\nid = \"hlo\"\nterm = \"HLO\"\ndefinition = \"d\"\nchapter = \"xla.md\"\n\
                   [[term]]\nid = \"hlo-file\"\nterm = \"hlo\"\ncase = \"exact\"\ndefinition = \"d\"\nchapter = \"xla.md\"\n";
        assert_eq!(problems(src), Vec::<String>::new());
    }
}
