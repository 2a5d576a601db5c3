//! The text a person reads in a terminal: per module its files by kind
//! (counts), the pass timeline with unchanged files folded ("6 files
//! unchanged"), each changed file's delta under it, one part a line, and the memory
//! block; then the files outside any module and the problems. And the
//! answer to "where does this first appear?".
//!
//! Text from the files (names, paths) is printed as given: the command
//! line escapes control characters before printing.

use super::index::{Index, NOT_TEXT};
use super::names::{Kind, PassName};
use super::passes::{Delta, Found, Names, NotCompared};
use super::{Folder, memory_text};
use std::fmt::Write;

/// Names of a delta shown on its line at most.
const SHOWN: usize = 3;

/// A pass file as `0006 simplification: after algsimp`.
pub fn pass_label(p: &PassName<'_>) -> String {
    let mut s = format!("{:04} {}:", p.step, p.pipeline);
    if let Some(pass) = p.pass {
        let _ = write!(s, " after {pass}");
    }
    match (p.pass, p.next) {
        (Some(_), Some(next)) => {
            let _ = write!(s, " (before {next})");
        }
        (None, Some(next)) => {
            let _ = write!(s, " before {next}");
        }
        _ => {}
    }
    s
}

fn few(n: &Names<'_>) -> String {
    let mut s = n
        .names
        .iter()
        .take(SHOWN)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if n.count > SHOWN {
        let _ = write!(s, ", +{} more", n.count - SHOWN);
    }
    s
}

/// A delta in one line; `no instruction added or removed` when only
/// something else (an attribute, a layout, the order) changed.
pub fn delta_line(d: &Delta<'_>) -> String {
    let mut parts = Vec::new();
    let (a, b) = d.instructions;
    if d.added.count + d.removed.count > 0 {
        let mut s = format!("instructions {a} -> {b}");
        if d.added.count > 0 {
            let _ = write!(s, ", +{} ({})", d.added.count, few(&d.added));
        }
        if d.removed.count > 0 {
            let _ = write!(s, ", -{} ({})", d.removed.count, few(&d.removed));
        }
        parts.push(s);
    }
    if d.kernels_added.count + d.kernels_removed.count > 0 {
        parts.push(format!(
            "kernels {} -> {} (+{} -{})",
            d.kernels.0, d.kernels.1, d.kernels_added.count, d.kernels_removed.count
        ));
    }
    if d.fusions_formed_count > 0 {
        let shown: Vec<String> = d
            .fusions_formed
            .iter()
            .take(SHOWN)
            .map(|(n, k)| k.map_or_else(|| (*n).to_owned(), |k| format!("{n} {k}")))
            .collect();
        let more = d.fusions_formed_count.saturating_sub(SHOWN);
        parts.push(format!(
            "fusions formed {} ({}{})",
            d.fusions_formed_count,
            shown.join(", "),
            if more > 0 {
                format!(", +{more} more")
            } else {
                String::new()
            }
        ));
    }
    for g in &d.groups {
        if g.before != g.after || g.new.count > 0 {
            let mut s = format!("{} {} -> {}", g.group.name, g.before, g.after);
            if g.new.count > 0 {
                let _ = write!(s, ", new: {}", few(&g.new));
            }
            parts.push(s);
        }
    }
    if parts.is_empty() {
        "no instruction added or removed (attributes, shapes or order changed)".to_owned()
    } else {
        parts.join("; ")
    }
}

/// What the timeline says of a numbered file (entry `entry`) that was not
/// compared with the file before it, and why: the file itself not read
/// (`not read: ...`), the file before it not read or not in the folder,
/// the module's first file, a second file of one step.
pub fn not_compared(f: &Folder<'_>, entry: usize, why: NotCompared) -> String {
    match why {
        NotCompared::NotRead => {
            let size = f.index.entries.get(entry).map_or(0, |e| e.size);
            let reason = f.not_read(entry).unwrap_or(NOT_TEXT);
            format!("not read: {size} bytes, {reason}")
        }
        NotCompared::BeforeNotRead(Some(s)) => {
            format!("not compared: the file before it ({s:04}) was not read")
        }
        NotCompared::BeforeNotRead(None) => {
            "not compared: the file before it (before_optimizations) was not read".to_owned()
        }
        NotCompared::FirstFile => "the module's first file: nothing to compare with (the folder has no before_optimizations file for it)".to_owned(),
        NotCompared::BeforeMissing(s) => {
            format!("not compared: the file before it ({s:04}) is not in the folder")
        }
        NotCompared::SameStep => {
            "not compared: another file of the same step comes before it".to_owned()
        }
    }
}

/// Files by kind, `25 pass, 1 before-optimizations, ...`, in kind order.
fn kinds(index: &Index<'_>, files: &[usize]) -> String {
    let mut counts: Vec<(Kind, usize)> = Vec::new();
    for &i in files {
        let Some(e) = index.entries.get(i) else {
            continue;
        };
        match counts.iter_mut().find(|(k, _)| *k == e.name.kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((e.name.kind, 1)),
        }
    }
    counts.sort();
    counts
        .iter()
        .map(|(k, n)| format!("{n} {}", k.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a file with the same text as the one before it does and does not
/// say (`xla/hlo/pass/hlo_pass_pipeline.cc`): not that its pass did
/// nothing.
pub const SAME_TEXT: &str = "with the same text as the one before does not show that its pass did nothing: the pass may have reported a change that does not show in the printed module, or the file is a pipeline-start or in-pass file, written whatever happened";

/// One module's block.
pub fn module_text(out: &mut String, f: &Folder<'_>, m: usize) {
    let (ix, Some(mf)) = (&f.index, f.index.modules.get(m)) else {
        return;
    };
    let cl = mf.module.cl.map_or(String::new(), |c| format!(" ({c})"));
    let _ = writeln!(
        out,
        "{} {}{cl}: {} files",
        mf.module.id,
        mf.module.name,
        mf.files.len()
    );
    let _ = writeln!(out, "  files: {}", kinds(ix, &mf.files));
    let steps = f.stories.get(m).map_or(&[][..], |s| &s.steps[..]);
    let changed = steps.iter().filter(|s| s.changed == Some(true)).count();
    if mf.passes.is_empty() {
        out.push_str(
            "  passes: no numbered pass files (XLA writes them with --xla_dump_hlo_pass_re)\n",
        );
    } else {
        let _ = writeln!(
            out,
            "  passes: {} numbered files, {changed} differ from the file before them\n  (each file is the module after the pass its name names; passes that wrote no file are not seen;\n  a file {SAME_TEXT})",
            mf.passes.len()
        );
    }
    let mut folded: Option<(u32, u32, usize)> = None;
    let flush = |out: &mut String, folded: &mut Option<(u32, u32, usize)>| {
        if let Some((a, b, n)) = folded.take() {
            if n == 1 {
                let _ = writeln!(out, "    {a:04}       1 file, same text as the file before");
            } else {
                let _ = writeln!(
                    out,
                    "    {a:04}-{b:04}  {n} files, same text as the file before"
                );
            }
        }
    };
    for (k, &i) in mf.passes.iter().enumerate() {
        let Some(p) = ix.entries.get(i).and_then(|e| e.name.pass) else {
            continue;
        };
        let step = steps.get(k);
        match step.and_then(|s| s.changed) {
            Some(false) => {
                folded = Some(match folded {
                    Some((a, _, n)) => (a, p.step, n + 1),
                    None => (p.step, p.step, 1),
                });
            }
            Some(true) => {
                flush(out, &mut folded);
                let d = step
                    .and_then(|s| s.delta.as_ref())
                    .map_or_else(String::new, delta_line);
                let _ = writeln!(out, "    {}  changed", pass_label(&p));
                // One part of the delta per line, under the step.
                for part in d.split("; ").filter(|x| !x.is_empty()) {
                    let _ = writeln!(out, "               {part}");
                }
            }
            None => {
                flush(out, &mut folded);
                let why = step
                    .and_then(|s| s.why)
                    .map_or_else(|| "not compared".to_owned(), |w| not_compared(f, i, w));
                let _ = writeln!(out, "    {}  {why}", pass_label(&p));
            }
        }
    }
    flush(out, &mut folded);
    if let Some(mem) = memory_text(f, m) {
        out.push_str(&mem);
    }
}

/// The whole folder's text.
pub fn folder_text(f: &Folder<'_>) -> String {
    let mut out = String::new();
    let ix = &f.index;
    if ix.modules.is_empty() {
        out.push_str("no module files (module_NNNN.<name>...) in this folder\n");
    }
    for m in 0..ix.modules.len() {
        if m > 0 {
            out.push('\n');
        }
        module_text(&mut out, f, m);
    }
    if !ix.unknown.is_empty() {
        let _ = writeln!(out, "\n{} files outside any module:", ix.unknown.len());
        for &i in &ix.unknown {
            if let Some(e) = ix.entries.get(i) {
                let _ = writeln!(out, "  {}", e.path);
            }
        }
    }
    if !ix.problems.is_empty() {
        let _ = writeln!(out, "\n{} problems:", ix.problems.len());
        for p in &ix.problems {
            let _ = writeln!(out, "  {}: {}", p.path, p.message);
        }
    }
    out
}

/// A story file as the `--first` text names it: `0013` for a numbered
/// file, the path for `before_optimizations`.
fn story_label(f: &Folder<'_>, entry: usize) -> String {
    match f.index.entries.get(entry) {
        Some(e) => e
            .name
            .pass
            .map_or_else(|| e.path.to_owned(), |p| format!("{:04}", p.step)),
        None => String::new(),
    }
}

/// `0012, 0013` of some entries.
fn labels(f: &Folder<'_>, entries: &[usize]) -> String {
    entries
        .iter()
        .map(|&e| story_label(f, e))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What `--xla_dump_hlo_pass_re` says of the files XLA wrote
/// (`xla/hlo/pass/hlo_pass_pipeline.cc`: after a pass, a file only when
/// the pass reported a change with the regex `.*`, after every matching
/// pass with any other), when the folder's `debug_options` gives it.
fn pass_re_text(f: &Folder<'_>, m: usize) -> Option<String> {
    let re = f.pass_re(m)?;
    let rule = if re == ".*" {
        "--xla_dump_hlo_pass_re=.*: XLA then writes a file when a pipeline starts, within some passes whatever happened (copy-insertion's after_adding_copies_to_resolve_interference and the like), and after a pass only when the pass reports a change (xla/hlo/pass/hlo_pass_pipeline.cc), so the passes that ran in between and wrote no file reported no change"
    } else {
        "a --xla_dump_hlo_pass_re other than .*: XLA then writes a file after every pass whose name it matches, changed or not (xla/hlo/pass/hlo_pass_pipeline.cc); the passes it does not match write none"
    };
    Some(format!(
        "This folder's debug_options set {rule}. A file {SAME_TEXT}.\n"
    ))
}

/// Where `query` first appears in module `m`, as sentences: the file, its
/// step and the pass its name names, and what that says (and does not
/// say) about which pass made it; the files not read where it may be.
pub fn first_text(f: &Folder<'_>, m: usize, query: &str) -> String {
    let files = f.story_texts(m);
    let Some(found) = f.first(m, query) else {
        let mut out = format!(
            "`{query}` appears in none of this module's numbered files nor its before_optimizations file (as an instruction name, an opcode or a fusion kind).\n"
        );
        let unread = f.unread_story(m);
        if !unread.is_empty() {
            let _ = writeln!(
                out,
                "Of those, {} could not be read ({}): it may be in one of them.",
                if unread.len() == 1 {
                    "one file".to_owned()
                } else {
                    format!("{} files", unread.len())
                },
                labels(f, &unread)
            );
        }
        if let Some(path) = f.in_final(m, query) {
            let last = files
                .last()
                .and_then(|(i, _)| *i)
                .and_then(|i| f.index.entries.get(i));
            let _ = write!(
                out,
                "It is in the optimized module, {path}: what made it ran after "
            );
            match last.filter(|e| e.name.pass.is_some()) {
                Some(e) => {
                    let _ = writeln!(out, "the last numbered file was written ({}).", e.path);
                }
                None => out.push_str("the module before optimizations.\n"),
            }
        }
        return out;
    };
    found_text(f, m, &files, &found, query)
}

fn found_text(
    f: &Folder<'_>,
    m: usize,
    files: &[(Option<usize>, Option<&str>)],
    found: &Found<'_>,
    query: &str,
) -> String {
    let entry_of = |k: usize| files.get(k).and_then(|(i, _)| *i);
    let entry = |k: usize| entry_of(k).and_then(|i| f.index.entries.get(i));
    let Some(e) = entry(found.file) else {
        return String::new();
    };
    let shown: Vec<String> = found
        .instructions
        .iter()
        .take(SHOWN)
        .map(|(n, l)| format!("{n} (line {l})"))
        .collect();
    let unread: Vec<usize> = found
        .unread_before
        .iter()
        .filter_map(|&k| entry_of(k))
        .collect();
    let or_earlier = if unread.is_empty() {
        String::new()
    } else {
        format!(
            " or in an earlier file that could not be read ({})",
            labels(f, &unread)
        )
    };
    let mut out = format!(
        "`{query}` ({}, {} instruction{}: {}) first appears in {}{or_earlier}\n",
        found.matched.as_str(),
        found.count,
        if found.count == 1 { "" } else { "s" },
        shown.join(", "),
        e.path
    );
    let Some(p) = e.name.pass else {
        out.push_str(
            "It is in the module before optimizations: no pass made it, the program itself has it.\n",
        );
        return out;
    };
    let pass = p.pass.map_or_else(
        || format!("before {}", p.next.unwrap_or("?")),
        |x| format!("after {x}"),
    );
    let _ = writeln!(out, "Step {}, pipeline {}, {pass}.", p.step, p.pipeline);
    out.push_str(
        "A file is the module after the pass its name names; passes that wrote no file are not seen. ",
    );
    // The last file read without it: the one before the unread run, or
    // the one before it.
    let before = found.file.checked_sub(1 + found.unread_before.len());
    match (before.and_then(entry), unread.is_empty()) {
        (Some(pe), true) => {
            let _ = writeln!(
                out,
                "What made it ran after the file before it was written ({}) and no later than this file's pass.",
                pe.path
            );
        }
        (Some(pe), false) => {
            let _ = writeln!(
                out,
                "What made it ran after the last file read without it was written ({}) and no later than this file's pass; {} in between could not be read, so it may appear there first.",
                pe.path,
                labels(f, &unread)
            );
        }
        (None, true) => out.push_str(
            "No file is written before it: what made it ran before this file was written.\n",
        ),
        (None, false) => {
            let _ = writeln!(
                out,
                "No file read before it lacks it: what made it ran before this file was written; {} before it could not be read, so it may appear there first.",
                labels(f, &unread)
            );
        }
    }
    if let Some(rule) = pass_re_text(f, m) {
        out.push_str(&rule);
    }
    out
}
