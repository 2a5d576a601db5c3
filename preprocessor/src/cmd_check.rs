//! `mdbook-dumplab check [DIR]`: validates every fixture family (and every
//! exercise, through the same loader the book build uses) and prints each
//! problem as `file:line:column: error|warning: message` with a hint.
//!
//! Instructors run it before building the book; CI runs it too. Errors make
//! the exit status non-zero; warnings (a draft fixture) do not.

use crate::course::{CourseConfig, load_course};
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
    diagnostics.extend(crate::exercises::validate(&course));
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(
        report(
            &diagnostics,
            course.fixtures.len(),
            course.dumps,
            course.exercises.len(),
        )
        .as_bytes(),
    )?;
    let failed = diagnostics.iter().any(Diagnostic::is_error);
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The full report: every diagnostic sorted by place, then a summary line.
pub(crate) fn report(
    diagnostics: &[Diagnostic],
    families: usize,
    dumps: usize,
    exercises: usize,
) -> String {
    let mut sorted: Vec<&Diagnostic> = diagnostics.iter().collect();
    sorted.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
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
