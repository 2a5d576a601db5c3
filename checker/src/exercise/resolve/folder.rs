//! `type = "folder"`: a fact of a dump folder (`crate::folder`), one row per
//! thing a question may ask in [`FOLDER_ASKS`]: the first numbered file
//! where an instruction, opcode or fusion kind appears (a choice among the
//! module's changed files), how many numbered files differ from the file
//! before them, the temp and peak bytes (numbers), which parameter shares
//! its buffer with the output (a choice). The shown file names the folder
//! and the module; the key is the folder reader's, computed from every text
//! file of the folder on every build.

use super::cx::{Cx, find_ask};
use super::library::{Library, folder_files};
use super::lookup::{Ref, lookup, snippet_of};
use super::parts::Parts;
use super::provenance::{Shown, context_of};
use crate::exercise::key::Mode;
use crate::exercise::model::FolderQuestion;
use crate::folder::memory::Memory;
use crate::folder::{self, Folder, Limits};

/// What a `folder` question may ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FolderAsk {
    /// The first numbered file where `of` appears.
    FirstFile,
    /// How many numbered files differ from the file before them.
    ChangedFiles,
    /// The temp bytes of the buffer assignment.
    TempBytes,
    /// XLA's peak bytes.
    PeakBytes,
    /// Which parameter shares its allocation with an output.
    Aliased,
}

/// One row of [`FOLDER_ASKS`].
pub struct FolderAskRow {
    /// What it asks.
    pub ask: FolderAsk,
    /// Its name in exercise files (`ask = "temp-bytes"`).
    pub name: &'static str,
    /// Whether it needs `of = "..."`.
    pub of_query: bool,
    /// What it is, as `exercises/FORMAT.md` says it.
    pub what: &'static str,
}

/// The asks, one row each.
pub const FOLDER_ASKS: &[FolderAskRow] = &[
    FolderAskRow {
        ask: FolderAsk::FirstFile,
        name: "first-file",
        of_query: true,
        what: "the first numbered file of the module where `of` (an instruction name, an opcode or a fusion kind) appears: a choice among the files that differ from the one before them",
    },
    FolderAskRow {
        ask: FolderAsk::ChangedFiles,
        name: "changed-files",
        of_query: false,
        what: "how many of the module's numbered files differ from the file written before them",
    },
    FolderAskRow {
        ask: FolderAsk::TempBytes,
        name: "temp-bytes",
        of_query: false,
        what: "the module's temp bytes, as the buffer assignment gives them (`memory_analysis().temp_size_in_bytes`)",
    },
    FolderAskRow {
        ask: FolderAsk::PeakBytes,
        name: "peak-bytes",
        of_query: false,
        what: "XLA's peak bytes for the module (`memory_analysis().peak_memory_in_bytes`), where the files give it",
    },
    FolderAskRow {
        ask: FolderAsk::Aliased,
        name: "aliased",
        of_query: false,
        what: "which entry parameter shares its buffer with an output (`input_output_alias`), or none",
    },
];

/// How many changed files before and after the key a `first-file`
/// question offers besides it.
const AROUND: (usize, usize) = (3, 2);

/// Resolves a `folder` question: the shown file names the folder and the
/// module; the key is the folder reader's.
pub(super) fn resolve(q: &FolderQuestion, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let shown = lookup(&q.snippet, library, "snippet", cx)?;
    let row = ask_row(q, cx)?;
    let Some((dir, inner)) = shown
        .file
        .split_once('/')
        .filter(|(d, _)| d.starts_with("folder."))
    else {
        cx.error(
            "snippet",
            format!("`{}` is not a file of a dump folder", q.snippet),
            "name a file inside one, like `softmax/folder.cpu/module_0000.jit_fn.cpu_after_optimizations.txt`",
        );
        return None;
    };
    let files = folder_files(library, shown.family, dir);
    let f = folder::read(&files, &Limits::default());
    let Some(m) = module_of(&f, inner) else {
        cx.error(
            "snippet",
            format!("`{inner}` belongs to no module of `{}/{dir}`", shown.family),
            "show a file whose name starts with `module_NNNN.`",
        );
        return None;
    };
    let mut p = match row.ask {
        FolderAsk::FirstFile => first_file(q, &f, m, &shown, cx)?,
        FolderAsk::ChangedFiles => changed_files(&f, m, cx)?,
        FolderAsk::TempBytes | FolderAsk::PeakBytes | FolderAsk::Aliased => {
            let Some(mem) = folder::memory_of(&f, m) else {
                cx.error(
                    "snippet",
                    format!(
                        "`{}/{dir}` has no buffer assignment for this module",
                        shown.family
                    ),
                    "ask about a folder whose compile wrote `*-buffer-assignment.txt`",
                );
                return None;
            };
            match row.ask {
                FolderAsk::Aliased => aliased(&mem, cx)?,
                _ => bytes(row.ask, &mem, cx)?,
            }
        }
    };
    let context = context_of(&shown, library, Shown::All).unwrap_or_default();
    p.context = Some(format!(
        "The file `{inner}` of the dump folder `{}/{dir}`. {context}",
        shown.family
    ));
    p.snippet = Some(snippet_of(&shown, None));
    Some(p)
}

fn ask_row(q: &FolderQuestion, cx: &mut Cx<'_>) -> Option<&'static FolderAskRow> {
    let row = find_ask(FOLDER_ASKS, |a| a.name, &q.ask, "a folder question", cx)?;
    match (row.of_query, &q.of) {
        (true, None) => {
            cx.error(
                "ask",
                format!("`ask = \"{}\"` needs what to look for", row.name),
                "add `of = \"NAME\"`: an instruction name (`copy.7`), an opcode (`copy`) or a fusion kind (`kLoop`)",
            );
            None
        }
        (false, Some(_)) => {
            cx.error(
                "of",
                format!("`ask = \"{}\"` looks for nothing", row.name),
                "remove `of`",
            );
            None
        }
        _ => Some(row),
    }
}

/// The module of the folder that holds the file at `path`.
fn module_of(f: &Folder<'_>, path: &str) -> Option<usize> {
    let entry = f.index.entries.iter().position(|e| e.path == path)?;
    f.index
        .modules
        .iter()
        .position(|mf| mf.files.contains(&entry))
}

/// The id and label of the `i`th file of [`Folder::story_texts`]: file 0
/// is `before_optimizations`, the others `step 0033, pipeline ...`.
fn step_label(f: &Folder<'_>, i: usize, entry: Option<usize>) -> (String, String) {
    let pass = entry.and_then(|e| f.index.entries.get(e)?.name.pass);
    let Some(pass) = pass.filter(|_| i > 0) else {
        return (
            "before".to_owned(),
            "`before_optimizations`: the module as JAX handed it to XLA".to_owned(),
        );
    };
    let what = match (pass.pass, pass.next) {
        (Some(p), Some(n)) => format!("after `{p}` (before `{n}`)"),
        (Some(p), None) => format!("after `{p}`"),
        (None, Some(n)) => format!("before `{n}`"),
        (None, None) => "a file of that pipeline".to_owned(),
    };
    (
        format!("{:04}", pass.step),
        format!(
            "step {:04}, pipeline `{}`: {what}",
            pass.step, pass.pipeline
        ),
    )
}

fn first_file(
    q: &FolderQuestion,
    f: &Folder<'_>,
    m: usize,
    shown: &Ref<'_>,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    let of = q.of.as_deref().unwrap_or("");
    let texts = f.story_texts(m);
    let Some(found) = f.first(m, of) else {
        let (what, hint) = match f.in_final(m, of) {
            Some(p) => (
                format!("`{of}` is in no numbered file, only in the optimized module `{p}`"),
                "ask about something a pass file shows",
            ),
            None => (
                format!("`{of}` appears in no file of this module"),
                "look for an instruction name, an opcode or a fusion kind the module has",
            ),
        };
        cx.error("of", what, hint);
        return None;
    };
    if !found.unread_before.is_empty() {
        cx.error(
            "of",
            format!("`{of}` may first be in a file of this module that could not be read"),
            "ask about a folder whose pass files are all text",
        );
        return None;
    }
    // The choices: the key, and the changed files around it (before
    // optimizations counts as the first file).
    let story = f.stories.get(m)?;
    let changed = |i: usize| {
        i == 0
            || story
                .steps
                .get(i - 1)
                .is_some_and(|s| s.changed == Some(true))
    };
    let candidates: Vec<usize> = (0..texts.len())
        .filter(|&i| changed(i) || i == found.file)
        .collect();
    let at = candidates.iter().position(|&i| i == found.file)?;
    let from = at.saturating_sub(AROUND.0);
    let to = (at + AROUND.1 + 1).min(candidates.len());
    let mut p = Parts::single(String::new(), String::new(), Vec::new());
    for &i in &candidates[from..to] {
        let (id, label) = step_label(f, i, texts[i].0);
        let note = if i == found.file {
            format!("`{of}` is first here: the file before it does not hold it")
        } else if i < found.file {
            format!("`{of}` is not in this file yet")
        } else {
            "an earlier file holds it already".to_owned()
        };
        if i == found.file {
            p.answer = vec![id.clone()];
            p.answer_text = label.clone();
        }
        p.options.push((id.clone(), label));
        p.option_notes.push((id, note));
    }
    let inside = |l: usize| l >= shown.lines.0 && l <= shown.lines.1;
    if let Some(hit) = folder::passes::find(&shown.dump.text, of) {
        p.lines = hit
            .instructions
            .iter()
            .filter(|(_, l)| inside(*l))
            .map(|(n, l)| (*l, format!("`{n}` first appears in {}", p.answer_text)))
            .collect();
    }
    p.instruction = Some("Pick the first file that holds it.".to_owned());
    Some(p)
}

fn changed_files(f: &Folder<'_>, m: usize, cx: &mut Cx<'_>) -> Option<Parts> {
    let steps = &f.stories.get(m)?.steps;
    if steps.is_empty() || steps.iter().any(|s| s.changed.is_none()) {
        cx.error(
            "ask",
            "the folder has numbered files that cannot be compared with the file before them (or none at all)",
            "ask about a folder every numbered file of which is text",
        );
        return None;
    }
    let n = steps.iter().filter(|s| s.changed == Some(true)).count();
    let mut p = Parts::single(n.to_string(), format!("{n} files"), Vec::new());
    p.mode = Mode::Number;
    if steps.len() != n {
        p.miscounts = vec![(
            steps.len().to_string(),
            "That is every numbered file; most of them are the same text as the file before."
                .to_owned(),
        )];
    }
    Some(p)
}

fn bytes(ask: FolderAsk, mem: &Memory, cx: &mut Cx<'_>) -> Option<Parts> {
    let (v, basis, what) = match ask {
        FolderAsk::TempBytes => (mem.temp_bytes, mem.temp_basis, "temp"),
        _ => (mem.peak_bytes, mem.peak_basis, "peak"),
    };
    let Some(v) = v else {
        cx.error(
            "ask",
            format!("the folder does not give this module's {what} bytes: {basis}"),
            "ask about a CPU or H100 folder",
        );
        return None;
    };
    let mut p = Parts::single(v.to_string(), format!("{v} bytes"), Vec::new());
    p.mode = Mode::Number;
    let mut wrong = |n: Option<u64>, why: &str| {
        if let Some(n) =
            n.filter(|&n| n != v && !p.miscounts.iter().any(|(k, _)| *k == n.to_string()))
        {
            p.miscounts.push((n.to_string(), why.to_owned()));
        }
    };
    wrong(
        mem.live_range_peak_bytes,
        "That is the live-range file's own peak: the values live at one step added up, values that share an allocation counted twice.",
    );
    if ask == FolderAsk::TempBytes {
        wrong(
            mem.peak_bytes,
            "That is the peak: parameters and outputs count in it too.",
        );
        let local = mem
            .by_type
            .iter()
            .find(|t| t.name == "thread-local")
            .and_then(|t| t.bytes)
            .filter(|&b| b > 0);
        wrong(
            local.and_then(|b| b.checked_add(v)),
            "That counts the `thread-local` allocations too: XLA's temp figure leaves them out.",
        );
    } else {
        let sum = [mem.argument_bytes, mem.output_bytes, mem.temp_bytes]
            .iter()
            .try_fold(0u64, |a, b| b.and_then(|b| a.checked_add(b)));
        wrong(
            sum,
            "That is arguments, outputs and temp added up: XLA's peak is not their sum.",
        );
    }
    Some(p)
}

fn aliased(mem: &Memory, cx: &mut Cx<'_>) -> Option<Parts> {
    let shared: Vec<_> = mem.aliases.iter().filter(|a| a.shares_allocation).collect();
    if shared.len() > 1 {
        cx.error(
            "ask",
            "several parameters share their buffer with an output here; the question has one answer",
            "ask about a module with one alias at most",
        );
        return None;
    }
    let mut params: Vec<(u64, String)> = mem
        .aliases
        .iter()
        .map(|a| {
            let shape = a.shape.as_ref();
            (
                a.parameter,
                shape.map_or_else(String::new, |(s, b)| format!(" {s} ({b} bytes)")),
            )
        })
        .chain(
            mem.unaliased
                .iter()
                .map(|u| (u.parameter, format!(" {} ({} bytes)", u.shape, u.bytes))),
        )
        .collect();
    params.sort();
    params.dedup_by_key(|p| p.0);
    let key = shared
        .first()
        .map_or("none".to_owned(), |a| format!("p{}", a.parameter));
    let mut p = Parts::single(key.clone(), String::new(), Vec::new());
    for (n, shape) in &params {
        let id = format!("p{n}");
        let note = match shared.first() {
            Some(a) if a.parameter == *n => format!(
                "Parameter {n} and output {} are one buffer: allocation {} (`input_output_alias`).",
                a.output_index,
                a.allocation.map_or("?".to_owned(), |x| x.to_string())
            ),
            _ => {
                format!("Parameter {n} has an allocation of its own: no output is written into it.")
            }
        };
        p.options
            .push((id.clone(), format!("parameter {n}{shape}")));
        p.option_notes.push((id, note));
    }
    let none_note = match shared.first() {
        Some(a) => format!("Parameter {} shares its allocation with an output.", a.parameter),
        None => "No `input_output_alias` entry: each parameter has an allocation of its own, separate from the output's.".to_owned(),
    };
    p.options.push((
        "none".to_owned(),
        "none: every output has its own buffer".to_owned(),
    ));
    p.option_notes.push(("none".to_owned(), none_note));
    p.answer_text = p
        .options
        .iter()
        .find(|(id, _)| *id == key)
        .map(|(_, l)| l.clone())
        .unwrap_or_default();
    Some(p)
}
