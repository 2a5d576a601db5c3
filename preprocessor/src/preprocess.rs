//! The mdBook side: speaks the preprocessor protocol and runs the pipeline.
//!
//! mdBook hands us the whole book as JSON on stdin; we answer with the
//! changed book on stdout. Per chapter: exercises first (they produce raw
//! HTML, which the glossary pass then leaves alone), then glossary marking on
//! every chapter, and only then the generated glossary chapter, because it
//! lists where each term is used. Problems from every step are collected and
//! printed together; if any is an error nothing is written to stdout and the
//! build fails. We never write files: `mdbook serve` would loop.

use crate::glossary::{self, Density, Glossary, find_marks};
use dumplab::Diagnostic;
use mdbook_preprocessor::book::{Book, BookItem, Chapter};
use mdbook_preprocessor::{MDBOOK_VERSION, Preprocessor, PreprocessorContext};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

/// Our name in `book.toml` (`[preprocessor.dumplab]`).
const NAME: &str = "dumplab";
/// Where the glossary lives unless `book.toml` says otherwise.
const DEFAULT_GLOSSARY: &str = "glossary/terms.toml";

/// `[preprocessor.dumplab]` keys this module reads. Other keys (`command`,
/// `fixtures`, `exercises`, mdBook's own) belong to others and are ignored.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Settings {
    /// Path of the glossary, relative to the book root.
    glossary: Option<String>,
    /// `every`, `first-per-chapter` or `first-per-section`.
    tooltips: Option<String>,
}

/// The DumpLab preprocessor.
pub(crate) struct Dumplab;

impl Preprocessor for Dumplab {
    fn name(&self) -> &str {
        NAME
    }

    fn run(
        &self,
        ctx: &PreprocessorContext,
        book: Book,
    ) -> mdbook_preprocessor::errors::Result<Book> {
        let (book, diags) = process(ctx, book);
        print_diagnostics(&diags);
        match book {
            Some(book) => Ok(book),
            None => Err(anyhow::anyhow!(
                "{} error(s) in the course (listed above); nothing was built",
                diags.iter().filter(|d| d.is_error()).count()
            )),
        }
    }

    fn supports_renderer(&self, renderer: &str) -> mdbook_preprocessor::errors::Result<bool> {
        Ok(supports_renderer(renderer))
    }
}

/// Whether we can preprocess for `renderer`: tooltips are HTML.
pub(crate) fn supports_renderer(renderer: &str) -> bool {
    renderer == "html"
}

/// The preprocessor protocol: book in on stdin, book out on stdout.
pub(crate) fn run_from_stdin() -> anyhow::Result<ExitCode> {
    let (ctx, book) = mdbook_preprocessor::parse_input(std::io::stdin().lock())?;
    if ctx.mdbook_version != MDBOOK_VERSION {
        eprintln!(
            "mdbook-dumplab: warning: this preprocessor was built for mdBook {MDBOOK_VERSION} but is run by mdBook {}; use the pinned version (`cargo xtask serve` installs it)",
            ctx.mdbook_version
        );
    }
    let book = match Dumplab.run(&ctx, book) {
        Ok(book) => book,
        Err(e) => {
            eprintln!("mdbook-dumplab: {e:#}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, &book)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn print_diagnostics(diags: &[Diagnostic]) {
    for d in diags {
        eprintln!("{d}");
    }
}

/// Runs the pipeline; returns the book unless an error was found, plus every
/// problem found.
pub(crate) fn process(
    ctx: &PreprocessorContext,
    mut book: Book,
) -> (Option<Book>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let settings = read_settings(ctx, &mut diags);

    let mut titles = BTreeMap::new();
    let mut chapter_order = Vec::new();
    for item in book.iter() {
        if let BookItem::Chapter(ch) = item
            && let Some(path) = chapter_path(ch)
        {
            titles.insert(path.clone(), ch.name.clone());
            chapter_order.push(path);
        }
    }
    let chapters: BTreeSet<String> = chapter_order.iter().cloned().collect();

    let glossary = load_glossary(
        &ctx.root,
        settings.glossary.as_deref(),
        &chapters,
        &mut diags,
    );

    let exercises = crate::exercises::Exercises::load(&ctx.root, &mut diags);

    // 1. Exercises, then glossary marking, on every chapter.
    let mut usage: Vec<BTreeSet<String>> = vec![BTreeSet::new(); glossary.terms.len()];
    book.for_each_chapter_mut(|ch| {
        ch.content = expand_exercises(&exercises, ch, &mut diags);
        let Some(path) = chapter_path(ch) else { return };
        if glossary::directive_range(&ch.content).is_some() {
            return; // the glossary chapter explains the terms itself
        }
        let marks = find_marks(&ch.content, &glossary, settings.density);
        for mark in &marks {
            usage[mark.term].insert(path.clone());
        }
        ch.content = glossary::render::mark_chapter(&ch.content, &marks, &glossary, &titles);
    });

    // 2. The glossary chapter, now that usage is known (in book order).
    let usage: Vec<Vec<String>> = usage
        .iter()
        .map(|set| {
            chapter_order
                .iter()
                .filter(|c| set.contains(*c))
                .cloned()
                .collect()
        })
        .collect();
    book.for_each_chapter_mut(|ch| {
        if let Some(range) = glossary::directive_range(&ch.content) {
            let at = chapter_path(ch).unwrap_or_default();
            let list = glossary::render::glossary_chapter(&at, &glossary, &usage, &titles);
            ch.content.replace_range(range, &list);
        }
    });

    diags.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    let ok = !diags.iter().any(Diagnostic::is_error);
    (ok.then_some(book), diags)
}

/// The one place where exercises are expanded (owned by the exercises code).
fn expand_exercises(
    exercises: &crate::exercises::Exercises,
    chapter: &Chapter,
    diags: &mut Vec<Diagnostic>,
) -> String {
    let file = chapter
        .source_path
        .as_ref()
        .map_or_else(|| chapter.name.clone(), |p| format!("src/{}", p.display()));
    exercises.expand_chapter(&file, &chapter.content, diags)
}

/// A chapter's path relative to `src/`, `/`-separated; `None` for drafts.
fn chapter_path(ch: &Chapter) -> Option<String> {
    ch.path.as_ref().map(|p| {
        p.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/")
    })
}

/// Resolved settings.
struct Resolved {
    glossary: Option<String>,
    density: Density,
}

fn read_settings(ctx: &PreprocessorContext, diags: &mut Vec<Diagnostic>) -> Resolved {
    let settings: Settings = match ctx.config.get::<Settings>(&format!("preprocessor.{NAME}")) {
        Ok(s) => s.unwrap_or_default(),
        Err(e) => {
            diags.push(book_toml_error(
                ctx,
                "",
                format!("invalid [preprocessor.{NAME}] table: {e:#}"),
                "check the keys' types",
            ));
            Settings::default()
        }
    };
    let density = match settings.tooltips.as_deref() {
        None => Density::default(),
        Some(v) => Density::parse(v).unwrap_or_else(|| {
            diags.push(book_toml_error(
                ctx,
                "tooltips",
                format!("unknown tooltips density `{v}`"),
                "use tooltips = \"every\", \"first-per-chapter\" or \"first-per-section\" (the default)",
            ));
            Density::default()
        }),
    };
    Resolved {
        glossary: settings.glossary,
        density,
    }
}

/// An error in `book.toml`, placed at the line that sets `key` when found.
fn book_toml_error(
    ctx: &PreprocessorContext,
    key: &str,
    message: String,
    hint: &str,
) -> Diagnostic {
    let source = std::fs::read_to_string(ctx.root.join("book.toml")).unwrap_or_default();
    let offset = if key.is_empty() {
        None
    } else {
        let mut pos = 0;
        source.lines().find_map(|line| {
            let here = pos;
            pos += line.len() + 1;
            line.trim_start()
                .strip_prefix(key)
                .filter(|r| r.trim_start().starts_with('='))
                .map(|_| here + line.len() - line.trim_start().len())
        })
    };
    match offset {
        Some(o) => Diagnostic::error_at("book.toml", &source, o, message),
        None => Diagnostic::error("book.toml", 1, 1, message),
    }
    .with_hint(hint)
}

fn load_glossary(
    root: &Path,
    configured: Option<&str>,
    chapters: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Glossary {
    let file = configured.unwrap_or(DEFAULT_GLOSSARY);
    let source = match std::fs::read_to_string(root.join(file)) {
        Ok(s) => s,
        Err(_) if configured.is_none() => return Glossary::default(),
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    "book.toml",
                    1,
                    1,
                    format!("cannot read the glossary `{file}`: {e}"),
                )
                .with_hint("create the file, or fix `glossary` in [preprocessor.dumplab]"),
            );
            return Glossary::default();
        }
    };
    let (glossary, problems) = glossary::load(file, &source, chapters);
    diags.extend(problems);
    glossary.unwrap_or_default()
}
