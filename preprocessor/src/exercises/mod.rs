//! Exercises in chapters: the `{{#exercise ...}}` directive.
//!
//! `{{#exercise exercises/two-dumps.toml}}` places every question of the
//! file; `{{#exercise exercises/two-dumps.toml#gelu-which-call}}` places one.
//! Paths are relative to the course root (the folder holding `book.toml`),
//! whatever folder the chapter is in. The course (fixtures and exercise
//! files) is loaded and validated once per build ([`Exercises::load`]);
//! each chapter is then expanded from memory, at the directives that
//! [`crate::directives`] found (never inside code or HTML comments). A
//! question is placed at most once per page, and one whose dump exceeds
//! `max-snippet-lines` is reported and never rendered. The HTML of a
//! question can spell no mdBook directive ([`crate::html::inert`]).

mod longline;
pub(crate) mod render;
mod skip;

use crate::course::{Course, CourseConfig, load_course};
use crate::directives::{Directive, Found, Name};
use crate::templates::Templates;
use dumplab::Diagnostic;
use dumplab::exercise::resolve::{Library, Resolved, resolve_file};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;

/// `content` with each range replaced; ranges must not overlap.
fn splice(content: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| r.start);
    let mut out =
        String::with_capacity(content.len() + edits.iter().map(|e| e.1.len()).sum::<usize>());
    let mut at = 0;
    for (range, text) in edits {
        out.push_str(&content[at..range.start]);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(&content[at..]);
    out
}

/// Every exercise file of the course, resolved.
#[derive(Debug, Default)]
pub(crate) struct Exercises {
    /// Resolved questions by exercise file path (as written in directives).
    files: BTreeMap<String, Vec<Resolved>>,
    /// Questions whose dump is longer than `max-snippet-lines`: reported,
    /// never rendered (a 20 MB snippet would take minutes and gigabytes).
    oversized: BTreeSet<String>,
    /// The exercises folder was refused (reported once, at book.toml): a
    /// directive naming a missing file is then no error of its own.
    refused: bool,
    /// Questions that did not resolve: skipped because their family has
    /// errors, or with errors of their own. Both are reported where they
    /// are; placing one in a chapter is no error of its own.
    skipped: BTreeSet<String>,
    /// The fixture families, for directives that render a dump (the live
    /// source maps of `{{#dumplab-map}}`).
    fixtures: BTreeMap<String, dumplab::fixture::Family>,
    /// The markup templates, built-in or the course's own.
    templates: Templates,
}

/// The fixtures as the exercise resolver sees them; the dump folders' texts
/// move from the course into it (nothing else reads them).
pub(crate) fn library(course: &mut Course) -> Library {
    dumplab::exercise::resolve::library_taking_folders(&mut course.fixtures)
}

/// Every exercise file resolved, the ids of questions that did not resolve
/// (they use a family with errors, or have errors of their own, reported
/// already), and the problems found.
fn resolve_all(
    course: &mut Course,
) -> (
    BTreeMap<String, Vec<Resolved>>,
    BTreeSet<String>,
    Vec<Diagnostic>,
) {
    let lib = library(course);
    let mut skipped_ids = BTreeSet::new();
    let mut files = BTreeMap::new();
    let mut diags = Vec::new();
    let mut ids: BTreeMap<String, String> = BTreeMap::new();
    for source in &course.exercises {
        let (mut questions, problems) = resolve_file(&source.path, &source.text, &lib);
        // Questions on a family with errors: one warning each, none of the
        // errors that would follow from the family's.
        let skipped = skip::skipped(&source.text, &course.broken_families);
        let inside = |d: &Diagnostic| {
            d.file == source.path && skipped.iter().any(|s| s.lines.contains(&d.line))
        };
        diags.extend(problems.into_iter().filter(|d| !inside(d)));
        for s in &skipped {
            diags.push(skip::warning(&source.path, &source.text, s));
        }
        questions.retain(|q| !skipped.iter().any(|s| s.id == q.id));
        // Declared but not resolved (skipped, or with errors reported above).
        skipped_ids.extend(
            skip::declared_ids(&source.text)
                .into_iter()
                .filter(|id| !questions.iter().any(|q| q.id == *id)),
        );
        for q in &questions {
            // Twice in one file is the resolver's to report.
            if let Some(other) = ids
                .insert(q.id.clone(), source.path.clone())
                .filter(|other| *other != source.path)
            {
                let offset = source.text.find(&format!("\"{}\"", q.id)).unwrap_or(0);
                diags.push(
                    Diagnostic::error_at(
                        &source.path,
                        &source.text,
                        offset,
                        format!("question id `{}` is also used in {other}", q.id),
                    )
                    .with_hint(
                        "question ids must be unique in the whole book: progress is kept per id",
                    ),
                );
            }
        }
        files.insert(source.path.clone(), questions);
    }
    (files, skipped_ids, diags)
}

/// The questions that would show more than `limit` dump lines, each
/// reported at its `snippet` (or `candidates`) value.
fn oversized(
    course: &Course,
    files: &BTreeMap<String, Vec<Resolved>>,
    limit: usize,
    diags: &mut Vec<Diagnostic>,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for source in &course.exercises {
        for q in files.get(&source.path).into_iter().flatten() {
            let shown = q
                .snippet
                .iter()
                .chain(&q.candidates)
                .map(|s| s.text.lines().count())
                .max()
                .unwrap_or(0);
            if shown <= limit {
                continue;
            }
            out.insert(q.id.clone());
            let offset = snippet_offset(&source.text, &q.id);
            diags.push(
                Diagnostic::error_at(
                    &source.path,
                    &source.text,
                    offset,
                    format!("question `{}` would show {shown} dump lines; the limit is {limit}", q.id),
                )
                .with_hint("name an excerpt (`family/file#excerpt` or `family/file#12-40`) instead of the whole dump, or raise `max-snippet-lines` in [preprocessor.dumplab]"),
            );
        }
    }
    out
}

/// Where question `id`'s `snippet` (or `candidates`) value starts in its
/// file; the id itself when neither is found.
fn snippet_offset(text: &str, id: &str) -> usize {
    let Some(at) = text.find(&format!("\"{id}\"")) else {
        return 0;
    };
    let end = text[at..]
        .find("[[question]]")
        .map_or(text.len(), |i| at + i);
    let mut pos = at;
    for line in text[at..end].split_inclusive('\n') {
        let key = line.trim_start();
        if (key.starts_with("snippet") || key.starts_with("candidates"))
            && let Some(eq) = line.find('=')
        {
            let value = &line[eq + 1..];
            return pos + eq + 1 + (value.len() - value.trim_start().len());
        }
        pos += line.len();
    }
    at
}

impl Exercises {
    /// Loads and validates the course under `root` once per build.
    pub(crate) fn load(root: &Path, diags: &mut Vec<Diagnostic>) -> Exercises {
        let config = CourseConfig::from_book_toml(root);
        let (course, problems) = load_course(root, &config);
        diags.extend(problems);
        Self::from_course(root, course, &config, diags)
    }

    /// Resolves and validates every exercise file of a loaded course.
    pub(crate) fn from_course(
        root: &Path,
        mut course: Course,
        config: &CourseConfig,
        diags: &mut Vec<Diagnostic>,
    ) -> Exercises {
        let (files, skipped, problems) = resolve_all(&mut course);
        diags.extend(problems);
        let templates = Templates::load(root, diags);
        let oversized = oversized(&course, &files, config.max_snippet_lines, diags);
        // Directives name files relative to the root: `exercises/x.toml`.
        let prefix = root.to_string_lossy().replace('\\', "/");
        let files = files
            .into_iter()
            .map(|(path, qs)| {
                let rel = path
                    .strip_prefix(&format!("{prefix}/"))
                    .map_or(path.clone(), str::to_owned);
                (rel, qs)
            })
            .collect();
        Exercises {
            files,
            oversized,
            refused: course.exercises_refused,
            skipped,
            fixtures: course.fixtures,
            templates,
        }
    }

    /// The markup templates of this build.
    pub(crate) fn templates(&self) -> &Templates {
        &self.templates
    }

    /// A fixture family by folder name.
    pub(crate) fn family(&self, name: &str) -> Option<&dumplab::fixture::Family> {
        self.fixtures.get(name)
    }

    /// The names of the fixture families.
    pub(crate) fn family_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.fixtures.keys().map(String::as_str)
    }

    /// All questions, by file (for `grade`).
    pub(crate) fn files(&self) -> &BTreeMap<String, Vec<Resolved>> {
        &self.files
    }

    /// Expands the exercise directives [`crate::directives::find`] found in
    /// one chapter's Markdown, and drops the backslash of escaped ones;
    /// `chapter` names the chapter's source file in diagnostics. Other
    /// directives (the glossary's) are left for their owners.
    pub(crate) fn expand_chapter(
        &self,
        chapter: &str,
        content: &str,
        found: &Found,
        diags: &mut Vec<Diagnostic>,
    ) -> String {
        self.expand_chapter_placing(chapter, content, found, diags, &mut Vec::new())
    }

    /// [`Self::expand_chapter`], also pushing onto `shown` each question it
    /// renders, in page order (the course's progress totals and the answer
    /// key are built from these).
    pub(crate) fn expand_chapter_placing<'a>(
        &'a self,
        chapter: &str,
        content: &str,
        found: &Found,
        diags: &mut Vec<Diagnostic>,
        shown: &mut Vec<&'a Resolved>,
    ) -> String {
        let mut edits: Vec<(Range<usize>, String)> = found
            .escapes
            .iter()
            .map(|&e| (e..e + 1, String::new()))
            .collect();
        let mut placed = BTreeMap::new();
        for d in found.directives.iter().filter(|d| d.name == Name::Exercise) {
            let html = self.render_directive(chapter, content, d, &mut placed, diags, shown);
            edits.push((d.range.clone(), html));
        }
        splice(content, edits)
    }

    /// The HTML of one directive. `placed` holds the questions already on
    /// this page with the offset of their directive: a question placed twice
    /// would give two elements one id and share its progress.
    fn render_directive<'a>(
        &'a self,
        chapter: &str,
        content: &str,
        directive: &Directive,
        placed: &mut BTreeMap<String, usize>,
        diags: &mut Vec<Diagnostic>,
        shown: &mut Vec<&'a Resolved>,
    ) -> String {
        let offset = directive.range.start;
        let arg = directive.arg.as_str();
        if arg.is_empty() {
            diags.push(
                Diagnostic::error_at(chapter, content, offset, "the exercise directive names no file")
                    .with_hint("write `{{#exercise exercises/FILE.toml}}` or `{{#exercise exercises/FILE.toml#QUESTION}}`"),
            );
            return String::new();
        }
        let (path, id) = match arg.split_once('#') {
            Some((p, id)) => (p.trim(), Some(id.trim())),
            None => (arg, None),
        };
        let Some(questions) = self.files.get(path) else {
            if self.refused {
                return String::new();
            }
            let known: Vec<&str> = self.files.keys().map(String::as_str).collect();
            diags.push(
                Diagnostic::error_at(
                    chapter,
                    content,
                    offset,
                    format!("no exercise file `{path}`"),
                )
                .with_hint(format!(
                    "name a file relative to the book root; known: {}",
                    known.join(", ")
                )),
            );
            return String::new();
        };
        let chosen: Vec<&Resolved> = match id {
            None => questions.iter().collect(),
            Some(id) => {
                let found: Vec<&Resolved> = questions.iter().filter(|q| q.id == id).collect();
                if found.is_empty() && !self.skipped.contains(id) {
                    let ids: Vec<&str> = questions.iter().map(|q| q.id.as_str()).collect();
                    diags.push(
                        Diagnostic::error_at(
                            chapter,
                            content,
                            offset,
                            format!("`{path}` has no question `{id}`"),
                        )
                        .with_hint(format!("its questions: {}", ids.join(", "))),
                    );
                }
                found
            }
        };
        let mut html = String::from("\n\n");
        for q in chosen {
            if let Some(&first) = placed.get(&q.id) {
                let (line, _) = dumplab::diagnostic::line_column(content, first);
                diags.push(
                    Diagnostic::error_at(
                        chapter,
                        content,
                        offset,
                        format!("question `{}` is already placed on this page (line {line})", q.id),
                    )
                    .with_hint("place each question once per page: two copies would share one id and one progress entry"),
                );
                continue;
            }
            placed.insert(q.id.clone(), offset);
            if self.oversized.contains(&q.id) {
                continue; // reported when loading: never render it
            }
            shown.push(q);
            match render::question(q, &self.templates) {
                Ok(q) => html.push_str(&q),
                Err(e) => diags.push(
                    Diagnostic::error_at(
                        chapter,
                        content,
                        offset,
                        format!("question `{}` does not render: {e}", q.id),
                    )
                    .with_hint(format!(
                        "fix `theme/{}` or `theme/{}`",
                        crate::templates::QUESTION,
                        crate::templates::FEEDBACK
                    )),
                ),
            }
            html.push_str("\n\n");
        }
        crate::html::inert(html)
    }
}

#[cfg(test)]
pub(crate) mod tests;
