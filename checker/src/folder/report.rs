//! The text a person reads in a terminal: per module its files by kind
//! (counts), the pass timeline with unchanged files folded ("6 files
//! unchanged"), each changed file's delta in one line, and the memory
//! block; then the files outside any module and the problems. And the
//! answer to "where does this first appear?".
//!
//! Text from the files (names, paths) is printed as given: the command
//! line escapes control characters before printing.

use super::index::Index;
use super::names::{Kind, PassName};
use super::passes::{self, Delta, Found, Names};
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
            "  passes: {} numbered files, {changed} differ from the file before them (each file is the module after the pass its name names; passes that wrote no file are not seen)",
            mf.passes.len()
        );
    }
    let mut folded: Option<(u32, u32, usize)> = None;
    let flush = |out: &mut String, folded: &mut Option<(u32, u32, usize)>| {
        if let Some((a, b, n)) = folded.take() {
            if n == 1 {
                let _ = writeln!(out, "    {a:04}       1 file unchanged");
            } else {
                let _ = writeln!(out, "    {a:04}-{b:04}  {n} files unchanged");
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
                let _ = writeln!(out, "    {}  changed: {d}", pass_label(&p));
            }
            None => {
                flush(out, &mut folded);
                let _ = writeln!(
                    out,
                    "    {}  not compared: the file before it is missing or unreadable",
                    pass_label(&p)
                );
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

/// Where `query` first appears in module `m`, as sentences: the file, its
/// step and the pass its name names, and what that says (and does not
/// say) about which pass made it.
pub fn first_text(f: &Folder<'_>, m: usize, query: &str) -> String {
    let files = f.story_texts(m);
    let texts: Vec<Option<&str>> = files.iter().map(|(_, t)| *t).collect();
    let Some(found) = passes::first(&texts, query) else {
        let mut out = format!(
            "`{query}` appears in none of this module's numbered files nor its before_optimizations file (as an instruction name, an opcode or a fusion kind).\n"
        );
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
    let entry = |k: usize| {
        files
            .get(k)
            .and_then(|(i, _)| *i)
            .and_then(|i| f.index.entries.get(i))
    };
    let Some(e) = entry(found.file) else {
        return String::new();
    };
    let shown: Vec<String> = found
        .instructions
        .iter()
        .take(SHOWN)
        .map(|(n, l)| format!("{n} (line {l})"))
        .collect();
    let mut out = format!(
        "`{query}` ({}, {} instruction{}: {}) first appears in {}\n",
        found.matched.as_str(),
        found.count,
        if found.count == 1 { "" } else { "s" },
        shown.join(", "),
        e.path
    );
    match e.name.pass {
        None => out.push_str(
            "It is in the module before optimizations: no pass made it, the program itself has it.\n",
        ),
        Some(p) => {
            let pass = p.pass.map_or_else(
                || format!("before {}", p.next.unwrap_or("?")),
                |x| format!("after {x}"),
            );
            let _ = writeln!(out, "Step {}, pipeline {}, {pass}.", p.step, p.pipeline);
            let prev = found.file.checked_sub(1).and_then(entry);
            match prev {
                Some(pe) => {
                    let _ = writeln!(
                        out,
                        "A file is the module after the pass its name names; passes that wrote no file are not seen. What made it ran after the file before it was written ({}) and no later than this file's pass.",
                        pe.path
                    );
                }
                None => out.push_str(
                    "No file is written before it: what made it ran before this file was written.\n",
                ),
            }
            if f.pass_re(m) == Some(".*") {
                out.push_str("This folder's debug_options set --xla_dump_hlo_pass_re=.*: XLA then writes a file when a pipeline starts and after each pass that reports a change (xla/hlo/pass/hlo_pass_pipeline.cc), so the passes that ran in between and wrote no file reported no change.\n");
            }
        }
    }
    out
}
