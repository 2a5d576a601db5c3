//! Reading the course's fixtures and exercises from disk into the checker's
//! models, so `check` and every book build validate the same things the same
//! way.
//!
//! This is the only place that walks `fixtures/` and `exercises/`; the
//! `dumplab` crate does the validation from strings. Reading problems
//! (a missing `fixture.toml`, a file that is not UTF-8) become diagnostics
//! like any other, so one run reports everything.

use crate::confine::{self, Expect, HINT, Root};
use crate::settings::Settings;
use dumplab::Diagnostic;
use dumplab::fixture::{Family, is_folder_name, load_family_with_folders};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Where the course keeps its sources, relative to the course root (the
/// folder holding `book.toml`). Read from `[preprocessor.dumplab]`
/// ([`crate::settings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CourseConfig {
    /// The fixtures folder (`fixtures`).
    pub(crate) fixtures: PathBuf,
    /// The exercises folder (`exercises`).
    pub(crate) exercises: PathBuf,
    /// Whether book.toml names the fixtures folder: then it must exist.
    /// The default folder may be absent (a book without fixtures).
    pub(crate) fixtures_named: bool,
    /// The longest snippet a question may show, in lines.
    pub(crate) max_snippet_lines: usize,
}

impl Default for CourseConfig {
    fn default() -> Self {
        Self::from(&Settings::default())
    }
}

impl From<&Settings> for CourseConfig {
    fn from(s: &Settings) -> Self {
        Self {
            fixtures: s.fixtures.clone(),
            exercises: s.exercises.clone(),
            fixtures_named: s.fixtures_named,
            max_snippet_lines: s.max_snippet_lines,
        }
    }
}

impl CourseConfig {
    /// Reads `[preprocessor.dumplab]` from `root/book.toml`; defaults when
    /// the file or table is absent. Problems in the settings are reported by
    /// whoever reads them for the user (`check`, the build), not here.
    pub(crate) fn from_book_toml(root: &Path) -> Self {
        Self::from(&crate::settings::read(root).0)
    }
}

/// One exercise file as read from disk, waiting for the exercises validator.
#[derive(Clone, Debug)]
pub(crate) struct ExerciseSource {
    /// Its path as diagnostics name it.
    pub(crate) path: String,
    /// Its text.
    pub(crate) text: String,
}

/// Everything the course's directives and checks need, read from disk.
#[derive(Clone, Debug, Default)]
pub(crate) struct Course {
    /// Fixture families by folder name.
    pub(crate) fixtures: BTreeMap<String, Family>,
    /// Dump files across all families (for the summary line).
    pub(crate) dumps: usize,
    /// Exercise files (`exercises/*.toml`), sorted by path.
    pub(crate) exercises: Vec<ExerciseSource>,
    /// Whether the exercises folder was refused (already reported): then
    /// directives naming its files are not errors of their own.
    pub(crate) exercises_refused: bool,
    /// Families with errors (already reported): questions using them are
    /// skipped rather than reported again.
    pub(crate) broken_families: BTreeSet<String>,
}

/// The path of `rel` under `root` as diagnostics show it: relative to the
/// current directory when `root` is it (as when mdBook runs the
/// preprocessor from the book's root), with `/` separators.
fn display(root: &Path, rel: &Path) -> String {
    let is_cwd = root == Path::new(".")
        || root.as_os_str().is_empty()
        || std::env::current_dir()
            .ok()
            .and_then(|cwd| cwd.canonicalize().ok())
            == root.canonicalize().ok();
    let joined = if is_cwd {
        rel.to_path_buf()
    } else {
        root.join(rel)
    };
    joined.to_string_lossy().replace('\\', "/")
}

/// Loads and validates every fixture family, and reads every exercise file,
/// under `root`. Never fails: problems reading or validating come back as
/// diagnostics, in file order. Exercises are checked against the fixtures by
/// whoever resolves them ([`crate::exercises`]), so that happens once.
pub(crate) fn load_course(root: &Path, config: &CourseConfig) -> (Course, Vec<Diagnostic>) {
    let mut course = Course::default();
    let mut diagnostics = Vec::new();
    let confined = Root::new(root);
    load_fixtures(root, &confined, config, &mut course, &mut diagnostics);
    load_exercises(root, &confined, config, &mut course, &mut diagnostics);
    (course, diagnostics)
}

/// An error for a folder of `[preprocessor.dumplab]` that [`Root::check`]
/// refused, at its value in `book.toml`.
fn folder_outside(root: &Path, key: &str, value: &Path, why: &str) -> Diagnostic {
    crate::settings::error_at_value(
        root,
        key,
        format!("refused: `{key} = \"{}\"` {why}", value.display()),
    )
    .with_hint("keep the course's folders inside the folder holding book.toml")
}

/// An error for a path that [`Root::check`] refused.
fn outside(shown: String, why: &str) -> Diagnostic {
    Diagnostic::error(shown, 1, 1, format!("refused: this path {why}")).with_hint(HINT)
}

fn load_fixtures(
    root: &Path,
    confined: &Root,
    config: &CourseConfig,
    course: &mut Course,
    out: &mut Vec<Diagnostic>,
) {
    let dir = root.join(&config.fixtures);
    if !config.fixtures_named && !dir.exists() {
        return;
    }
    if let Err(why) = confined.check(&dir, Expect::Dir) {
        out.push(folder_outside(root, "fixtures", &config.fixtures, &why));
        return;
    }
    let entries = match sorted_entries(&dir) {
        Ok(e) => e,
        Err(err) => {
            let d = Diagnostic::error(
                display(root, &config.fixtures),
                1,
                1,
                format!("cannot read the fixtures folder: {err}"),
            );
            out.push(d.with_hint(
                "create it, or set `fixtures = \"...\"` under [preprocessor.dumplab] in book.toml",
            ));
            return;
        }
    };
    for (name, path, kind) in entries {
        if !confine::is_dir(&path, kind) || name.starts_with('.') || name.starts_with('_') {
            continue;
        }
        let errors = out.iter().filter(|d| d.is_error()).count();
        load_family_dir(root, confined, config, &name, &path, course, out);
        if out.iter().filter(|d| d.is_error()).count() > errors {
            course.broken_families.insert(name);
        }
    }
}

/// Loads one family folder into `course`, reporting its problems.
fn load_family_dir(
    root: &Path,
    confined: &Root,
    config: &CourseConfig,
    name: &str,
    path: &Path,
    course: &mut Course,
    out: &mut Vec<Diagnostic>,
) {
    let rel = config.fixtures.join(name);
    let shown = display(root, &rel);
    if let Err(why) = confined.check(path, Expect::Dir) {
        out.push(outside(shown, &why));
        return;
    }
    let files = match read_family_files(path, confined, &shown, out) {
        Some(f) => f,
        None => return,
    };
    let looks_like_family = files
        .keys()
        .any(|f| f == "function.py" || dumplab::fixture::is_dump_name(f));
    let annotation = path.join("fixture.toml");
    if let Err(why) = confined.check(&annotation, Expect::File) {
        out.push(outside(format!("{shown}/fixture.toml"), &why));
        return;
    }
    if !annotation.is_file() {
        if looks_like_family {
            let d = Diagnostic::error(
                format!("{shown}/fixture.toml"),
                1,
                1,
                format!("fixture family `{name}` has no fixture.toml"),
            );
            out.push(d.with_hint(format!(
                    "generate the family with `python fixtures/generate.py {name}` (it writes the provenance), then `mdbook-dumplab fixture draft {name}`"
                )));
        }
        // A folder with neither dumps nor annotations (like `targets/`) is not a family.
        return;
    }
    let text = match fs::read_to_string(&annotation) {
        Ok(t) => t,
        Err(err) => {
            out.push(Diagnostic::error(
                format!("{shown}/fixture.toml"),
                1,
                1,
                format!("cannot read: {err}"),
            ));
            return;
        }
    };
    let dumps = files
        .keys()
        .filter(|f| dumplab::fixture::is_dump_name(f))
        .count();
    let (folders, folder_texts) = read_dump_folders(path, confined, &shown, out);
    let (mut family, diagnostics) = load_family_with_folders(name, &shown, &text, files, folders);
    if let Some(f) = family.as_mut() {
        f.folder_texts = folder_texts;
    }
    out.extend(diagnostics);
    if let Some(family) = family {
        course.dumps += dumps;
        course.fixtures.insert(name.to_owned(), family);
    }
}

/// Whether a family folder's file is one the course reads: a dump, the
/// Python source it came from, or XLA's fusion log of a compiled dump.
/// Nothing else in the folder is opened.
fn is_course_file(name: &str) -> bool {
    dumplab::fixture::is_dump_name(name)
        || name.ends_with(".py")
        || dumplab::fixture::is_log_name(name)
}

/// The dumps and Python sources of a family folder, by name.
fn read_family_files(
    dir: &Path,
    confined: &Root,
    shown: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<BTreeMap<String, String>> {
    let entries = match sorted_entries(dir) {
        Ok(e) => e,
        Err(err) => {
            out.push(Diagnostic::error(
                shown,
                1,
                1,
                format!("cannot read the folder: {err}"),
            ));
            return None;
        }
    };
    let mut files = BTreeMap::new();
    for (name, path, kind) in entries {
        if !is_course_file(&name) || name.starts_with('.') {
            continue;
        }
        // `dir` passed `Root::check` in `load_family_dir`.
        if let Err(why) = confined.check_entry(&path, kind, Expect::File) {
            out.push(outside(format!("{shown}/{name}"), &why));
            continue;
        }
        if !confine::is_file(&path, kind) {
            continue;
        }
        match fs::read(&path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => {
                    files.insert(name, text);
                }
                Err(err) => {
                    let offset = err.utf8_error().valid_up_to();
                    let text = String::from_utf8_lossy(&err.into_bytes()[..offset]).into_owned();
                    let d = Diagnostic::error_at(
                        format!("{shown}/{name}"),
                        &text,
                        offset,
                        "the file is not UTF-8 text",
                    );
                    out.push(d.with_hint(
                        "dumps must be kept as the generator wrote them; regenerate the family",
                    ));
                }
            },
            Err(err) => out.push(Diagnostic::error(
                format!("{shown}/{name}"),
                1,
                1,
                format!("cannot read: {err}"),
            )),
        }
    }
    Some(files)
}

/// What [`read_dump_folders`] gives: per folder, its file count and its
/// text files (path inside the folder, text).
type DumpFolders = (
    BTreeMap<String, usize>,
    BTreeMap<String, Vec<(String, String)>>,
);

/// The dump folders of a family folder (`folder.*`), each with the number of
/// files in it, subfolders included, and the texts of its text files (a
/// file that is not UTF-8 or holds a NUL byte is counted, not kept): the
/// `folder` questions read them.
fn read_dump_folders(
    dir: &Path,
    confined: &Root,
    shown: &str,
    out: &mut Vec<Diagnostic>,
) -> DumpFolders {
    let mut folders = BTreeMap::new();
    let mut texts = BTreeMap::new();
    let Ok(entries) = sorted_entries(dir) else {
        return (folders, texts); // read_family_files reported it
    };
    for (name, path, _) in entries {
        if !is_folder_name(&name) {
            continue;
        }
        let mut count = 0;
        let mut kept: Vec<(String, String)> = Vec::new();
        let top = format!("{shown}/{name}/");
        let mut stack = vec![(format!("{shown}/{name}"), path)];
        while let Some((shown_here, here)) = stack.pop() {
            if let Err(why) = confined.check(&here, Expect::Dir) {
                out.push(outside(shown_here, &why));
                continue;
            }
            match sorted_entries(&here) {
                Ok(children) => {
                    // `here` passed `Root::check` above.
                    for (child, child_path, kind) in children {
                        let child_shown = format!("{shown_here}/{child}");
                        if confine::is_dir(&child_path, kind) {
                            stack.push((child_shown, child_path));
                        } else if let Err(why) =
                            confined.check_entry(&child_path, kind, Expect::File)
                        {
                            out.push(outside(child_shown, &why));
                        } else {
                            count += 1;
                            let text = fs::read(&child_path)
                                .ok()
                                .filter(|b| !b.contains(&0))
                                .and_then(|b| String::from_utf8(b).ok());
                            if let (Some(t), Some(rel)) = (text, child_shown.strip_prefix(&top)) {
                                kept.push((rel.to_owned(), t));
                            }
                        }
                    }
                }
                Err(err) => out.push(Diagnostic::error(
                    shown_here,
                    1,
                    1,
                    format!("cannot read the folder: {err}"),
                )),
            }
        }
        kept.sort();
        texts.insert(name.clone(), kept);
        folders.insert(name, count);
    }
    (folders, texts)
}

fn load_exercises(
    root: &Path,
    confined: &Root,
    config: &CourseConfig,
    course: &mut Course,
    out: &mut Vec<Diagnostic>,
) {
    let dir = root.join(&config.exercises);
    if !dir.exists() {
        return;
    }
    if let Err(why) = confined.check(&dir, Expect::Dir) {
        out.push(folder_outside(root, "exercises", &config.exercises, &why));
        course.exercises_refused = true;
        return;
    }
    let entries = match sorted_entries(&dir) {
        Ok(e) => e,
        Err(err) => {
            out.push(Diagnostic::error(
                display(root, &config.exercises),
                1,
                1,
                format!("cannot read the exercises folder: {err}"),
            ));
            return;
        }
    };
    for (name, path, _) in entries {
        if !name.ends_with(".toml") {
            continue;
        }
        let shown = display(root, &config.exercises.join(&name));
        if let Err(why) = confined.check(&path, Expect::File) {
            out.push(outside(shown, &why));
            continue;
        }
        if !path.is_file() {
            continue;
        }
        match fs::read_to_string(&path) {
            Ok(text) => course.exercises.push(ExerciseSource { path: shown, text }),
            Err(err) => out.push(Diagnostic::error(
                shown,
                1,
                1,
                format!("cannot read: {err}"),
            )),
        }
    }
}

/// The entries of a folder as (name, path, type: links not followed),
/// sorted by name so that output is the same on every machine.
fn sorted_entries(dir: &Path) -> std::io::Result<Vec<(String, PathBuf, fs::FileType)>> {
    let mut entries = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        entries.push((
            entry.file_name().to_string_lossy().into_owned(),
            entry.path(),
            entry.file_type()?,
        ));
    }
    entries.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    Ok(entries)
}
