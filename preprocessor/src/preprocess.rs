//! The mdBook side: speaks the preprocessor protocol and runs the pipeline.
//!
//! mdBook hands us the whole book as JSON on stdin; we answer with the
//! changed book on stdout. Per chapter: exercises first (they produce raw
//! HTML, which the glossary pass then leaves alone), then glossary marking on
//! every chapter, and only then the generated glossary chapter, because it
//! lists where each term is used. Problems from every step are collected and
//! printed together; if any is an error nothing is written to stdout and the
//! build fails. We never write files: `mdbook serve` would loop.

use crate::confine::{Expect, Root};
use crate::directives::{self, Found, Name};
use crate::glossary::{self, Glossary, find_marks};
use crate::settings;
use dumplab::Diagnostic;
use mdbook_preprocessor::book::{Book, BookItem, Chapter};
use mdbook_preprocessor::{MDBOOK_VERSION, Preprocessor, PreprocessorContext};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

/// Where the glossary lives unless `book.toml` says otherwise.
const DEFAULT_GLOSSARY: &str = "glossary/terms.toml";

/// The DumpLab preprocessor.
pub(crate) struct Dumplab;

impl Preprocessor for Dumplab {
    fn name(&self) -> &str {
        settings::NAME
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
    let (settings, mut diags) = settings::read(&ctx.root);

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

    // 1. Directives, exercises, then glossary marking, on every chapter.
    let mut usage: Vec<BTreeSet<String>> = vec![BTreeSet::new(); glossary.terms.len()];
    book.for_each_chapter_mut(|ch| {
        let file = chapter_file(ch);
        let found = directives::find(&ch.content);
        report_problems(&file, &ch.content, &found, &mut diags);
        ch.content = exercises.expand_chapter(&file, &ch.content, &found, &mut diags);
        if found.directives.iter().any(|d| d.name == Name::Playground) {
            // Found again: the exercises above changed the offsets.
            let again = directives::find(&ch.content);
            ch.content = crate::playground::expand(&file, &ch.content, &again, &mut diags);
        }
        if found.directives.iter().any(|d| d.name == Name::Map) {
            let again = directives::find(&ch.content);
            ch.content = crate::livemap::expand(&file, &ch.content, &again, &exercises, &mut diags);
        }
        let Some(path) = chapter_path(ch) else { return };
        if found.directives.iter().any(|d| d.name == Name::Glossary) {
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
        // Found again: exercises expanded above are raw HTML, never prose.
        let found = directives::find(&ch.content);
        let Some(d) = found.directives.iter().find(|d| d.name == Name::Glossary) else {
            return;
        };
        let at = chapter_path(ch).unwrap_or_default();
        let list = glossary::render::glossary_chapter(&at, &glossary, &usage, &titles);
        ch.content.replace_range(d.range.clone(), &list);
    });

    diags.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    let ok = !diags.iter().any(Diagnostic::is_error);
    (ok.then_some(book), diags)
}

/// A chapter's source file as diagnostics name it (`src/two-dumps.md`).
fn chapter_file(chapter: &Chapter) -> String {
    chapter
        .source_path
        .as_ref()
        .map_or_else(|| chapter.name.clone(), |p| format!("src/{}", p.display()))
}

/// Directive problems of one chapter, and the glossary directive's own
/// rules: no argument, once per chapter.
fn report_problems(file: &str, content: &str, found: &Found, diags: &mut Vec<Diagnostic>) {
    for p in &found.problems {
        diags.push(Diagnostic::error_at(file, content, p.offset, &p.message).with_hint(&p.hint));
    }
    let glossaries: Vec<_> = found
        .directives
        .iter()
        .filter(|d| d.name == Name::Glossary)
        .collect();
    for d in &glossaries {
        if !d.arg.is_empty() {
            diags.push(
                Diagnostic::error_at(
                    file,
                    content,
                    d.range.start,
                    "`{{#dumplab-glossary}}` takes no argument",
                )
                .with_hint("write `{{#dumplab-glossary}}` alone"),
            );
        }
    }
    for d in glossaries.iter().skip(1) {
        diags.push(
            Diagnostic::error_at(
                file,
                content,
                d.range.start,
                "a second `{{#dumplab-glossary}}` in this chapter",
            )
            .with_hint("the glossary is listed once; remove this one"),
        );
    }
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

fn load_glossary(
    root: &Path,
    configured: Option<&str>,
    chapters: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Glossary {
    let file = configured.unwrap_or(DEFAULT_GLOSSARY);
    let path = root.join(file);
    if let Err(why) = Root::new(root).check(&path, Expect::File) {
        diags.push(
            Diagnostic::error(file, 1, 1, format!("refused: the glossary {why}"))
                .with_hint(crate::confine::HINT),
        );
        return Glossary::default();
    }
    let source = match std::fs::read_to_string(&path) {
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
