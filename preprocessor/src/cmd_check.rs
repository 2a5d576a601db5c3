//! `mdbook-dumplab check [DIR]`: validates every fixture family (and every
//! exercise, through the same loader the book build uses) and prints each
//! problem as `file:line:column: error|warning: message` with a hint.
//!
//! It also reads every chapter under the book's `src/` and resolves each
//! directive as the build does, with the same messages, so a typo in
//! `{{#exercise ...}}` shows here and not first in `mdbook build`.
//!
//! Instructors run it before building the book; CI runs it too. Errors make
//! the exit status non-zero; warnings (a draft fixture) do not.

use crate::course::{CourseConfig, load_course};
use crate::exercises::Exercises;
use dumplab::{Diagnostic, Severity};
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(dir: Option<&Path>) -> anyhow::Result<ExitCode> {
    let root = dir.unwrap_or(Path::new("."));
    if !root.is_dir() {
        anyhow::bail!(
            "{} is not a folder; pass the course root (the folder holding book.toml)",
            root.display()
        );
    }
    let (settings, mut diagnostics) = crate::settings::read(root);
    let config = CourseConfig::from(&settings);
    let (course, problems) = load_course(root, &config);
    diagnostics.extend(problems);
    let counts = (course.fixtures.len(), course.dumps, course.exercises.len());
    let exercises = Exercises::from_course(root, course, &config, &mut diagnostics);
    let chapters = check_chapters(root, &settings.src, &exercises, &mut diagnostics);
    if settings.print_omit_named {
        crate::print::check_omitted(root, &settings.print_omit, &chapters, &mut diagnostics);
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(report(&diagnostics, counts.0, counts.1, counts.2).as_bytes())?;
    let failed = diagnostics.iter().any(Diagnostic::is_error);
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Resolves the directives of every `.md` file under `root/src` (the book's
/// `[book] src`), as the build does; returns their paths under `src/`.
fn check_chapters(
    root: &Path,
    src: &Path,
    exercises: &Exercises,
    diagnostics: &mut Vec<Diagnostic>,
) -> std::collections::BTreeSet<String> {
    let mut files = Vec::new();
    let src = root.join(src);
    collect_markdown(&src, &mut files);
    files.sort();
    let chapters = files
        .iter()
        .filter_map(|p| p.strip_prefix(&src).ok())
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .collect();
    for path in &files {
        let Ok(content) = std::fs::read_to_string(path) else {
            continue;
        };
        let rel = path.strip_prefix(root).unwrap_or(path);
        let file = rel.to_string_lossy().replace('\\', "/");
        let found = crate::directives::find(&content);
        crate::directives::report(&file, &content, &found, diagnostics);
        exercises.expand_chapter(&file, &content, &found, diagnostics);
    }
    chapters
}

fn collect_markdown(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_markdown(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// The full report: every diagnostic sorted by place, then a summary line.
pub(crate) fn report(
    diagnostics: &[Diagnostic],
    families: usize,
    dumps: usize,
    exercises: usize,
) -> String {
    let mut sorted: Vec<&Diagnostic> = diagnostics.iter().collect();
    sorted.sort_by(|a, b| a.report_order(b));
    let mut out = String::new();
    for d in &sorted {
        out.push_str(&d.to_string());
        out.push('\n');
    }
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    let verdict = if errors > 0 { "FAILED" } else { "ok" };
    out.push_str(&format!(
        "check {verdict}: {families} fixture {} ({dumps} dumps), {exercises} exercise {}: {errors} {}, {warnings} {}\n",
        plural(families, "family", "families"),
        plural(exercises, "file", "files"),
        plural(errors, "error", "errors"),
        plural(warnings, "warning", "warnings"),
    ));
    out
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
