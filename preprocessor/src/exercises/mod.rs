//! Exercises in chapters: the `{{#exercise ...}}` directive.
//!
//! `{{#exercise exercises/two-dumps.toml}}` places every question of the
//! file; `{{#exercise exercises/two-dumps.toml#gelu-which-call}}` places one.
//! Paths are relative to the course root (the folder holding `book.toml`),
//! whatever folder the chapter is in. The course (fixtures and exercise
//! files) is loaded and validated once per build ([`Exercises::load`]);
//! each chapter is then expanded from memory. Directives inside fenced code
//! blocks or `code` spans, and ones escaped as `\{{#exercise ...}}`, are left
//! as text so the instructors' chapter can show them.

pub(crate) mod highlight;
pub(crate) mod render;

use crate::course::{Course, CourseConfig, load_course};
use dumplab::Diagnostic;
use dumplab::exercise::resolve::{Library, Resolved, resolve_file};
use std::collections::BTreeMap;
use std::path::Path;

const DIRECTIVE: &str = "{{#exercise";

/// Every exercise file of the course, resolved.
#[derive(Debug, Default)]
pub(crate) struct Exercises {
    /// Resolved questions by exercise file path (as written in directives).
    files: BTreeMap<String, Vec<Resolved>>,
}

/// The fixtures as the exercise resolver sees them.
pub(crate) fn library(course: &Course) -> Library {
    dumplab::exercise::resolve::library_of(&course.fixtures)
}

/// Validates every exercise file against the fixtures (for `check`).
pub(crate) fn validate(course: &Course) -> Vec<Diagnostic> {
    resolve_all(course).1
}

fn resolve_all(course: &Course) -> (BTreeMap<String, Vec<Resolved>>, Vec<Diagnostic>) {
    let lib = library(course);
    let mut files = BTreeMap::new();
    let mut diags = Vec::new();
    let mut ids: BTreeMap<String, String> = BTreeMap::new();
    for source in &course.exercises {
        let (questions, problems) = resolve_file(&source.path, &source.text, &lib);
        diags.extend(problems);
        for q in &questions {
            if let Some(other) = ids.insert(q.id.clone(), source.path.clone()) {
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
    (files, diags)
}

impl Exercises {
    /// Loads and validates the course under `root` once per build.
    pub(crate) fn load(root: &Path, diags: &mut Vec<Diagnostic>) -> Exercises {
        let config = CourseConfig::from_book_toml(root);
        let (course, problems) = load_course(root, &config);
        diags.extend(problems);
        let (files, problems) = resolve_all(&course);
        diags.extend(problems);
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
        Exercises { files }
    }

    /// All questions, by file (for `grade`).
    pub(crate) fn files(&self) -> &BTreeMap<String, Vec<Resolved>> {
        &self.files
    }

    /// Expands every directive in one chapter's Markdown; `chapter` names the
    /// chapter's source file in diagnostics.
    pub(crate) fn expand_chapter(
        &self,
        chapter: &str,
        content: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> String {
        if !content.contains(DIRECTIVE) {
            return content.to_owned();
        }
        let mut out = String::with_capacity(content.len() * 2);
        let mut fence: Option<String> = None;
        let mut offset = 0;
        for line in content.split_inclusive('\n') {
            let here = offset;
            offset += line.len();
            let trimmed = line.trim_start();
            if let Some(f) = &fence {
                if trimmed.starts_with(f.as_str()) {
                    fence = None;
                }
                out.push_str(line);
                continue;
            }
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                let marker: String = trimmed
                    .chars()
                    .take_while(|c| *c == '`' || *c == '~')
                    .collect();
                fence = Some(marker);
                out.push_str(line);
                continue;
            }
            self.expand_line(chapter, content, here, line, &mut out, diags);
        }
        out
    }

    fn expand_line(
        &self,
        chapter: &str,
        content: &str,
        line_start: usize,
        line: &str,
        out: &mut String,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut rest = line;
        let mut consumed = 0;
        while let Some(at) = rest.find(DIRECTIVE) {
            if rest[..at].ends_with('\\') {
                out.push_str(&rest[..at - 1]);
                out.push_str(DIRECTIVE);
                consumed += at + DIRECTIVE.len();
                rest = &rest[at + DIRECTIVE.len()..];
                continue;
            }
            let in_code_span = line[..consumed + at].matches('`').count() % 2 == 1;
            let Some(end) = rest[at..].find("}}").filter(|_| !in_code_span) else {
                // Not a directive (unclosed, or shown in `code`): keep it as text.
                out.push_str(&rest[..at + DIRECTIVE.len()]);
                consumed += at + DIRECTIVE.len();
                rest = &rest[at + DIRECTIVE.len()..];
                continue;
            };
            out.push_str(&rest[..at]);
            let arg = rest[at + DIRECTIVE.len()..at + end].trim();
            let offset = line_start + consumed + at;
            out.push_str(&self.render_directive(chapter, content, offset, arg, diags));
            consumed += at + end + 2;
            rest = &rest[at + end + 2..];
        }
        out.push_str(rest);
    }

    fn render_directive(
        &self,
        chapter: &str,
        content: &str,
        offset: usize,
        arg: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> String {
        let (path, id) = match arg.split_once('#') {
            Some((p, id)) => (p.trim(), Some(id.trim())),
            None => (arg, None),
        };
        let Some(questions) = self.files.get(path) else {
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
                if found.is_empty() {
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
            html.push_str(&render::question(q));
            html.push_str("\n\n");
        }
        html
    }
}

#[cfg(test)]
mod tests;
