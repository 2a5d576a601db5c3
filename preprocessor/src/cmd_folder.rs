//! `mdbook-dumplab folder DIR [--json] [--module NAME] [--first X]`: a
//! whole `--xla_dump_to` folder.
//!
//! The work is `dumplab::folder`: the files are grouped by module and
//! kind, and each module's numbered pass files make its pass story
//! (`changed`, what changed). The text output is for a terminal: per
//! module its files by kind, the pass timeline with unchanged files
//! folded, each changed file's delta in one line; `--json` prints the
//! object documented in `dumplab::folder::json`. `--first X` answers
//! "which file first shows X" (an instruction name, an opcode or a fusion
//! kind) for the module `--module` names (needed when the folder holds
//! several).
//!
//! The folder is read here, recursively (links are not followed; parts
//! deeper than [`MAX_DEPTH`] are left out), with the limits of
//! `dumplab::folder::Limits`: a file over them is listed, not read. A file
//! that is not UTF-8 text or holds NUL bytes, or is a link, is listed,
//! never parsed. Each file not read is reported once, the same way
//! whatever the reason: `not_read` in its module's `files`, and, for a
//! kind DumpLab parses, one entry of `problems` (`N bytes, <why>: listed,
//! not read`).
//!
//! Exit status 0 with a report; 1 with one `mdbook-dumplab: error: ...`
//! line when DIR is no readable folder or `--module` names no module of it.
//! Text from the folder (names) is printed with control characters escaped.

use anyhow::{Context, bail};
use dumplab::diagnostic::printable;
use dumplab::folder::{self, Input, Limits, index, json, report};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Folders below DIR read at most (XLA writes one level, the module's
/// subfolder).
pub(crate) const MAX_DEPTH: usize = 8;

/// A file found: its path relative to DIR (`/`-separated), where it is,
/// its size, and whether it is a regular file.
struct Found {
    rel: String,
    path: PathBuf,
    size: u64,
    regular: bool,
}

/// Every file under `dir`, sorted by relative path; a little over `limit`
/// entries at most (the index reports those past its limit).
fn walk(dir: &Path, limit: usize) -> anyhow::Result<Vec<Found>> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), String::new(), 0usize)];
    while let Some((d, prefix, depth)) = stack.pop() {
        if out.len() > limit {
            break;
        }
        let rd = std::fs::read_dir(&d).with_context(|| {
            format!(
                "{}: cannot read this folder; check that it exists and is readable",
                printable(&d.display().to_string())
            )
        })?;
        for e in rd {
            if out.len() > limit {
                break;
            }
            let e = e.with_context(|| format!("{}: cannot list this folder", d.display()))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let rel = format!("{prefix}{name}");
            let meta = std::fs::symlink_metadata(e.path())?;
            if meta.is_dir() {
                if depth + 1 < MAX_DEPTH {
                    stack.push((e.path(), format!("{rel}/"), depth + 1));
                }
                continue;
            }
            out.push(Found {
                rel,
                path: e.path(),
                size: meta.len(),
                regular: meta.is_file(),
            });
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(out)
}

/// Why a link (or another file that is not a regular one) is not read.
const NOT_REGULAR: &str = "a link or other special file (not followed)";

/// A file's text: `None` when it is not UTF-8 or holds a NUL byte.
fn text_of(bytes: Vec<u8>) -> Option<String> {
    String::from_utf8(bytes).ok().filter(|t| !t.contains('\0'))
}

/// Reads the folder `dir` (texts within the limits) and hands it, with the
/// name it is shown by, to `f`.
pub(crate) fn with_folder<R>(
    dir: &Path,
    f: impl FnOnce(&folder::Folder<'_>, &str) -> anyhow::Result<R>,
) -> anyhow::Result<R> {
    let shown = printable(&dir.display().to_string()).into_owned();
    if !dir.is_dir() {
        bail!("{shown}: not a folder; give the folder --xla_dump_to wrote");
    }
    let limits = Limits::default();
    let found = walk(dir, limits.max_entries.saturating_add(1000))?;
    // The index decides what is read (size limits), before anything is.
    let sizes: Vec<(&str, u64)> = found.iter().map(|f| (f.rel.as_str(), f.size)).collect();
    let ix = index::index(&sizes, &limits);
    let mut texts: Vec<Option<String>> = vec![None; found.len()];
    for e in &ix.entries {
        let (Some(f), Some(slot)) = (found.get(e.input), texts.get_mut(e.input)) else {
            continue;
        };
        if e.skipped.is_none() && f.regular {
            let bytes = std::fs::read(&f.path)
                .with_context(|| format!("{shown}/{}: cannot read this file", printable(&f.rel)))?;
            *slot = text_of(bytes);
        }
    }
    let inputs: Vec<Input<'_>> = found
        .iter()
        .zip(&texts)
        .map(|(f, t)| Input {
            path: &f.rel,
            size: f.size,
            text: t.as_deref(),
            unread: (!f.regular).then_some(NOT_REGULAR),
        })
        .collect();
    let folder = folder::read_inputs(&inputs, &limits);
    f(&folder, &shown)
}

/// The module `--module` names, else the folder's only one.
pub(crate) fn module_of(
    folder: &folder::Folder<'_>,
    module: Option<&str>,
    shown: &str,
    flag: &str,
) -> anyhow::Result<usize> {
    match module {
        Some(name) => pick(folder, name, shown),
        None => only_module(folder, shown, flag),
    }
}

pub(crate) fn run(
    json_out: bool,
    module: Option<&str>,
    first: Option<&str>,
    dir: &Path,
) -> anyhow::Result<ExitCode> {
    let out = with_folder(dir, |folder, shown| {
        output(folder, shown, json_out, module, first)
    })?;
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(out.as_bytes())?;
    lock.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn output(
    folder: &folder::Folder<'_>,
    shown: &str,
    json_out: bool,
    module: Option<&str>,
    first: Option<&str>,
) -> anyhow::Result<String> {
    let shown = shown.to_owned();
    let chosen = match module {
        Some(name) => Some(pick(folder, name, &shown)?),
        None => None,
    };
    let out = match first {
        Some(q) => {
            let m = match chosen {
                Some(m) => m,
                None => only_module(folder, &shown, "--first")?,
            };
            if json_out {
                format!("{}\n", json::first_json(folder, m, q))
            } else {
                escape_lines(&report::first_text(folder, m, q))
            }
        }
        None if json_out => {
            let all = 0..folder.index.modules.len();
            let mods: Vec<usize> = chosen.map_or_else(|| all.collect(), |m| vec![m]);
            format!("{}\n", json::to_json_of(&folder.index, Some(folder), mods))
        }
        None => match chosen {
            Some(m) => {
                let mut s = String::new();
                report::module_text(&mut s, folder, m);
                escape_lines(&s)
            }
            None => escape_lines(&report::folder_text(folder)),
        },
    };
    Ok(out)
}

/// Each line with its control characters escaped, the newlines kept.
fn escape_lines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for l in s.lines() {
        out.push_str(&printable(l));
        out.push('\n');
    }
    out
}

/// The module `--module` names (its id or its name).
fn pick(folder: &folder::Folder<'_>, name: &str, shown: &str) -> anyhow::Result<usize> {
    let mods = &folder.index.modules;
    if let Some(m) = mods.iter().position(|m| m.module.id == name) {
        return Ok(m);
    }
    let named: Vec<usize> = (0..mods.len())
        .filter(|&m| mods.get(m).is_some_and(|x| x.module.name == name))
        .collect();
    match named[..] {
        [m] => return Ok(m),
        [_, _, ..] => bail!(
            "--module {}: {} modules of {shown} have that name; give its id instead ({})",
            printable(name),
            named.len(),
            named
                .iter()
                .filter_map(|&m| mods.get(m).map(|x| x.module.id))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        [] => {}
    }
    let candidates = mods.iter().flat_map(|m| [m.module.id, m.module.name]);
    let hint = match dumplab::did_you_mean(name, candidates) {
        Some(near) => format!("did you mean {}?", printable(near)),
        None => format!("its modules are {}", list_modules(folder)),
    };
    bail!(
        "--module {}: no module of that id or name in {shown}; {hint}",
        printable(name)
    )
}

/// `module_0000 (jit_fn), ...`, or `none`.
fn list_modules(folder: &folder::Folder<'_>) -> String {
    let mods = &folder.index.modules;
    if mods.is_empty() {
        return "none".to_owned();
    }
    let mut names: Vec<String> = mods
        .iter()
        .take(10)
        .map(|m| format!("{} ({})", m.module.id, printable(m.module.name)))
        .collect();
    if mods.len() > 10 {
        names.push(format!("and {} more", mods.len() - 10));
    }
    names.join(", ")
}

/// The folder's one module, for `flag` (`--first`) without `--module`.
fn only_module(folder: &folder::Folder<'_>, shown: &str, flag: &str) -> anyhow::Result<usize> {
    match folder.index.modules.len() {
        1 => Ok(0),
        0 => bail!(
            "{shown}: no module files (module_NNNN.<name>...) in this folder; give the folder --xla_dump_to wrote"
        ),
        n => bail!(
            "{flag} needs --module: {shown} holds {n} modules ({})",
            list_modules(folder)
        ),
    }
}
