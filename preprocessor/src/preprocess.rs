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
use crate::directives::{self, Name};
use crate::glossary::{self, Glossary, find_marks};
use crate::print::answer_key::{self, ChapterQuestions};
use crate::settings;
use dumplab::Diagnostic;
use dumplab::exercise::resolve::Resolved;
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
        let served = is_served(ctx);
        let (processed, diags) = process(ctx, book.clone());
        print_diagnostics(&diags);
        let errors = diags.iter().filter(|d| d.is_error()).count();
        match processed {
            Some(book) => Ok(book),
            // Under `mdbook serve` a failed build would leave the browser on
            // the stale page: show the errors in its place instead, until
            // the next good build.
            None if served => {
                eprintln!(
                    "mdbook-dumplab: {errors} error(s) in the course (listed above); the served pages show them until they are fixed"
                );
                Ok(error_book(book, &diags))
            }
            None => Err(anyhow::anyhow!(
                "{errors} error(s) in the course (listed above); nothing was built"
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

/// Whether mdBook runs us for `mdbook serve` (which sets a live-reload
/// endpoint for the HTML renderer; `mdbook build` never does).
fn is_served(ctx: &PreprocessorContext) -> bool {
    ctx.config
        .get::<String>("output.html.live-reload-endpoint")
        .ok()
        .flatten()
        .is_some()
}

/// `book` with every chapter's text replaced by the build's errors, so that
/// whichever page the browser shows, it shows them.
fn error_book(mut book: Book, diags: &[Diagnostic]) -> Book {
    let errors: Vec<&Diagnostic> = diags.iter().filter(|d| d.is_error()).collect();
    let mut html = format!(
        "<div class=\"dumplab-build-errors\" role=\"alert\">\n<h1>The course does not build: {} error{}</h1>\n<p>Fix what is listed and save; this page reloads by itself.</p>\n<ol>\n",
        errors.len(),
        if errors.len() == 1 { "" } else { "s" }
    );
    for d in errors {
        html.push_str("<li><pre>");
        html.push_str(&crate::html::escape(&d.to_string()));
        html.push_str("</pre></li>\n");
    }
    html.push_str("</ol>\n</div>\n");
    let html = crate::html::inert(html);
    book.for_each_chapter_mut(|ch| ch.content.clone_from(&html));
    book
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

    if settings.print_omit_named {
        crate::print::check_omitted(&ctx.root, &settings.print_omit, &chapters, &mut diags);
    }

    // 1. Directives, exercises, then glossary marking, on every chapter.
    let mut usage: Vec<BTreeSet<String>> = vec![BTreeSet::new(); glossary.terms.len()];
    let mut shown: BTreeMap<String, Vec<&Resolved>> = BTreeMap::new();
    book.for_each_chapter_mut(|ch| {
        let file = chapter_file(ch);
        let found = directives::find(&ch.content);
        directives::report(&file, &ch.content, &found, &mut diags);
        let mut placed = Vec::new();
        ch.content =
            exercises.expand_chapter_placing(&file, &ch.content, &found, &mut diags, &mut placed);
        if let Some(path) = chapter_path(ch) {
            shown.insert(path, placed);
        }
        if found.directives.iter().any(|d| d.name == Name::Playground) {
            // Found again: the exercises above changed the offsets.
            let again = directives::find(&ch.content);
            let path = chapter_path(ch).unwrap_or_default();
            let examples = crate::playground::examples(
                exercises
                    .family_names()
                    .filter_map(|n| exercises.family(n).map(|f| (n, &f.files))),
            );
            ch.content = crate::playground::expand(&ch.content, &again, &path, examples.as_deref());
        }
        if found.directives.iter().any(|d| d.name == Name::Map) {
            let again = directives::find(&ch.content);
            ch.content = crate::livemap::expand(&file, &ch.content, &again, &exercises, &mut diags);
        }
        // Dumps in the prose: after the directives (whose offsets they
        // would move), before the glossary (which leaves raw HTML alone).
        ch.content = crate::viewer::prose::highlight_chapter(&ch.content);
        let Some(path) = chapter_path(ch) else { return };
        if found.directives.iter().any(|d| d.name == Name::Glossary) {
            return; // the glossary chapter explains the terms itself
        }
        let marks = find_marks(&ch.content, &glossary, settings.density);
        for mark in &marks {
            usage[mark.term].insert(path.clone());
        }
        match glossary::render::mark_chapter(
            &ch.content,
            &marks,
            &glossary,
            &titles,
            exercises.templates(),
        ) {
            Ok(marked) => ch.content = marked,
            Err(e) => diags.push(
                Diagnostic::error(
                    format!("theme/{}", crate::templates::TOOLTIP),
                    1,
                    1,
                    format!("the tooltip template does not render in {file}: {e}"),
                )
                .with_hint("see \"Templates\" in the instructors' chapter"),
            ),
        }
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

    // 3. Progress and print, now that every chapter's questions are known.
    let placed: Vec<ChapterQuestions<'_>> = chapter_order
        .iter()
        .map(|path| ChapterQuestions {
            page: crate::progress::page_of(path),
            title: titles.get(path).cloned().unwrap_or_default(),
            questions: shown.get(path).cloned().unwrap_or_default(),
        })
        .collect();
    let course = crate::progress::course_script(
        placed
            .iter()
            .map(|c| (c.page.as_str(), c.questions.as_slice())),
    );
    book.for_each_chapter_mut(|ch| {
        let Some(path) = chapter_path(ch) else { return };
        let found = directives::find(&ch.content);
        if let Some(d) = found.directives.iter().find(|d| d.name == Name::AnswerKey) {
            let key = answer_key::render(&chapter_file(ch), &placed, &mut diags);
            ch.content.replace_range(d.range.clone(), &key);
        }
        if settings.print_omit.contains(&path) {
            ch.content = crate::print::omit(&ch.content);
        }
        ch.content.push_str(&course);
    });

    diags.sort_by(Diagnostic::report_order);
    let ok = !diags.iter().any(Diagnostic::is_error);
    // The loaded course (every fixture's texts and analyses, the resolved
    // questions) is not freed: the process ends once the book is written,
    // and handing back its many allocations one by one cost milliseconds.
    drop(placed);
    drop(shown);
    std::mem::forget(exercises);
    (ok.then_some(book), diags)
}

/// A chapter's source file as diagnostics name it (`src/two-dumps.md`).
fn chapter_file(chapter: &Chapter) -> String {
    chapter
        .source_path
        .as_ref()
        .map_or_else(|| chapter.name.clone(), |p| format!("src/{}", p.display()))
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
