//! `mdbook-dumplab diff A B [--chip NAME] [--json]`: what changed between
//! two dumps of one kind.
//!
//! The work is `dumplab::diff::report`: two compiled modules are compared
//! kernel by kernel, matched by what each kernel computes (provenance,
//! opcodes, shapes), never by name; two lowered programs or two jaxprs by
//! the operations each source line lowered to. The text output reads like a
//! review comment, the biggest changes first; `--json` prints the object
//! documented in `dumplab::analysis` ("JSON of `diff`").
//!
//! Exit status 0 with a diff (whether or not anything changed); 1 with one
//! `mdbook-dumplab: error: ...` line when a file cannot be read, the two
//! are not of one kind, or `--chip` names no preset. Text from the dumps is
//! printed with its control characters escaped.

use crate::cmd_analyze::read_input;
use crate::cmd_cost::{bytes, count, seconds};
use anyhow::anyhow;
use dumplab::diagnostic::printable;
use dumplab::diff::changes::Changes;
use dumplab::diff::compiled::CompiledDiff;
use dumplab::diff::item::{self, Item};
use dumplab::diff::json::to_json;
use dumplab::diff::lowered::LoweredDiff;
use dumplab::diff::matching::Basis;
use dumplab::diff::report::{Body, DiffReport, Side, with_diff};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Changes the text lists before it says how many more there are.
const SHOWN: usize = 30;

pub(crate) fn run(json: bool, chip: Option<&str>, a: &Path, b: &Path) -> anyhow::Result<ExitCode> {
    if a == Path::new("-") && b == Path::new("-") {
        anyhow::bail!(
            "A and B are both `-`: standard input can be one of the two dumps, give the other as a file"
        );
    }
    let (name_a, text_a) = read_input(a)?;
    let (name_b, text_b) = read_input(b)?;
    let names = (
        printable(&name_a).into_owned(),
        printable(&name_b).into_owned(),
    );
    let out = with_diff(&text_a, &text_b, chip, |r| {
        if json {
            format!("{}\n", to_json(r))
        } else {
            text(&names, r)
        }
    })
    .map_err(|e| {
        // A lowered and a compiled dump: the pair `map` reads.
        let pair = match e.compiled_side {
            Some(Side::A) => Some((&names.1, &names.0)),
            Some(Side::B) => Some((&names.0, &names.1)),
            None => None,
        };
        let map = pair.map_or_else(String::new, |(lowered, compiled)| {
            format!(
                "; to see how the lowered one became the compiled one, run `mdbook-dumplab map {} {}`",
                shell_word(lowered),
                shell_word(compiled)
            )
        });
        anyhow!("{} vs {}: {e}{map}", names.0, names.1)
    })?;
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(out.as_bytes())?;
    lock.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The path `s` as one word of a POSIX shell command: as it is when every
/// byte is one a shell leaves alone, else in single quotes (a `'` as
/// `'\''`); one starting with `-` (not standard input's `-`) after `./`,
/// so that it is no option.
fn shell_word(s: &str) -> String {
    if s.len() > 1 && s.starts_with('-') {
        return shell_word(&format!("./{s}"));
    }
    let plain = !s.is_empty()
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"_-./+,:=@%".contains(&c));
    if plain {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `+1.50 KiB`, `-512 B`, `+0 B`.
fn signed_bytes(v: f64) -> String {
    format!("{}{}", if v < 0.0 { "-" } else { "+" }, bytes(v.abs()))
}

fn signed_count(v: f64) -> String {
    format!("{}{}", if v < 0.0 { "-" } else { "+" }, count(v.abs()))
}

fn p(s: &str) -> String {
    printable(s).into_owned()
}

/// A value as printed, or `none`.
fn or_none(v: &Option<String>) -> String {
    v.as_deref().map_or("none".to_string(), p)
}

/// A list joined with commas, or `none`.
fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".to_string()
    } else {
        p(&v.join(", "))
    }
}

fn text(names: &(String, String), r: &DiffReport<'_>) -> String {
    let mut out = String::new();
    let backend = |b: Option<dumplab::Backend>| b.map_or("no backend named", |b| b.as_str());
    let _ = writeln!(
        out,
        "A: {} ({}, {})\nB: {} ({}, {})",
        names.0,
        r.kind,
        backend(r.backends.0),
        names.1,
        r.kind,
        backend(r.backends.1)
    );
    if r.kind_unproved {
        out.push_str("Neither text proves its kind (only hints of HLO before optimization): compared as lowered programs.\n");
    }
    match &r.body {
        Body::Compiled(d) => compiled(&mut out, r, d),
        Body::Lowered(d) => lowered(&mut out, d),
    }
    out
}

/// One line of the review: how big it is (|bytes|, for the order) and what.
struct Line {
    weight: f64,
    text: String,
}

/// B less A of the rows' XLA figures (bytes, flops), when XLA costs every
/// one of them.
fn delta(a: &[&Item<'_>], b: &[&Item<'_>]) -> Option<(f64, f64)> {
    let (x, y) = (item::sum(a)?, item::sum(b)?);
    Some((y.bytes.known - x.bytes.known, y.flops.known - x.flops.known))
}

/// `bytes +1.00 MiB`, with the flops where they changed.
fn cost_note(d: Option<(f64, f64)>) -> String {
    match d {
        Some((by, 0.0)) => format!("bytes {}", signed_bytes(by)),
        Some((by, fl)) => format!("bytes {}, flops {}", signed_bytes(by), signed_count(fl)),
        None => "bytes not costed by XLA".into(),
    }
}

/// How a changed pair was matched, in the words the review line gives it
/// (`similar` and `shape` are best guesses: check them in the dumps).
fn basis_words(b: Basis) -> &'static str {
    match b {
        Basis::Identical => "identical",
        Basis::Provenance => "same provenance",
        Basis::OpNames | Basis::SourceLines => "grouped",
        Basis::Similar => "similar provenance: a guess, check it",
        Basis::Shape => "same shapes, no provenance: a guess, check it",
        Basis::Opcodes => "same opcodes, no provenance, other shapes: a guess, check it",
    }
}

/// The rows that are control flow, when there are any: the counts above
/// count them with the kernels.
fn control_note(d: &CompiledDiff<'_>) -> String {
    let n =
        d.a.items
            .iter()
            .chain(&d.b.items)
            .filter(|i| i.xla.is_none())
            .count();
    if n == 0 {
        String::new()
    } else {
        format!(" (rows, counting with the kernels {n} loop, branch or call row(s) of A and B)")
    }
}

/// What a row's bytes say: control flow's are what it runs.
fn row_note(i: &Item<'_>, d: Option<(f64, f64)>) -> String {
    if i.is_control() {
        "control flow: its cost is what it runs".into()
    } else {
        cost_note(d)
    }
}

/// A row, with its side and line: `` `fusion.2` (A:31) ``.
fn at(side: char, i: &Item<'_>) -> String {
    format!("`{}` ({side}:{})", p(i.name), i.line)
}

fn change_words(c: &Changes) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some((x, y)) = c.kind {
        parts.push(format!("kind {} -> {}", x.as_str(), y.as_str()));
    }
    if let Some((x, y)) = &c.detail {
        parts.push(format!("{} -> {}", or_none(x), or_none(y)));
    }
    if !c.op_names_in.is_empty() {
        parts.push(format!("work moved in: {}", p(&c.op_names_in.join(", "))));
    }
    if !c.op_names_out.is_empty() {
        parts.push(format!("work moved out: {}", p(&c.op_names_out.join(", "))));
    }
    if !c.details_in.is_empty() || !c.details_out.is_empty() {
        parts.push(format!(
            "attributes {} -> {}",
            list_or_none(&c.details_out),
            list_or_none(&c.details_in)
        ));
    }
    if !c.ops_in.is_empty() {
        parts.push(format!("now runs {}", p(&c.ops_in.join(", "))));
    }
    if !c.ops_out.is_empty() {
        parts.push(format!("no longer runs {}", p(&c.ops_out.join(", "))));
    }
    if let Some((x, y)) = &c.shape {
        parts.push(format!("shape {} -> {}", p(x), p(y)));
    }
    if let Some((x, y)) = &c.layout {
        parts.push(format!("layout {} -> {}", p(x), p(y)));
    }
    if c.operand_shapes.is_some() {
        parts.push("operand shapes changed".into());
    }
    if let Some((x, y)) = c.depth {
        parts.push(format!("nesting {x} -> {y}"));
    }
    parts.join("; ")
}

/// Every change of a compiled diff as a review line.
fn review_lines(d: &CompiledDiff<'_>) -> Vec<Line> {
    let (a, b) = (&d.a.items, &d.b.items);
    let mut lines = Vec::new();
    let mut push = |d: Option<(f64, f64)>, text: String| {
        lines.push(Line {
            weight: d.map_or(0.0, |(by, _)| by.abs()),
            text,
        });
    };
    for &j in &d.matching.added {
        let i = &b[j];
        push(
            delta(&[], &[i]),
            format!(
                "+ added {} {}: {}, {}",
                i.kind.as_str(),
                at('B', i),
                p(&i.shape),
                row_note(i, delta(&[], &[i]))
            ),
        );
    }
    for &j in &d.matching.removed {
        let i = &a[j];
        push(
            delta(&[i], &[]),
            format!(
                "- removed {} {}: {}, {}",
                i.kind.as_str(),
                at('A', i),
                p(&i.shape),
                row_note(i, delta(&[i], &[]))
            ),
        );
    }
    for g in &d.matching.split {
        let parts: Vec<&Item<'_>> = g.parts.iter().map(|&j| &b[j]).collect();
        let dl = delta(&[&a[g.whole]], &parts);
        let to: Vec<String> = parts.iter().map(|i| at('B', i)).collect();
        push(
            dl,
            format!(
                "< split {} {} into {} kernels: {} (by {}), {}",
                a[g.whole].kind.as_str(),
                at('A', &a[g.whole]),
                parts.len(),
                to.join(", "),
                g.basis.as_str(),
                cost_note(dl)
            ),
        );
    }
    for g in &d.matching.merged {
        let parts: Vec<&Item<'_>> = g.parts.iter().map(|&i| &a[i]).collect();
        let dl = delta(&parts, &[&b[g.whole]]);
        let from: Vec<String> = parts.iter().map(|i| at('A', i)).collect();
        push(
            dl,
            format!(
                "> merged {} kernels {} into {} {} (by {}), {}",
                parts.len(),
                from.join(", "),
                b[g.whole].kind.as_str(),
                at('B', &b[g.whole]),
                g.basis.as_str(),
                cost_note(dl)
            ),
        );
    }
    for (n, c) in &d.changed {
        let pr = d.matching.pairs[*n];
        let dl = delta(&[&a[pr.a]], &[&b[pr.b]]);
        push(
            dl,
            format!(
                "~ {} -> {} [{}]: {}; {}",
                at('A', &a[pr.a]),
                at('B', &b[pr.b]),
                basis_words(pr.basis),
                change_words(c),
                if a[pr.a].is_control() {
                    row_note(&a[pr.a], dl)
                } else {
                    row_note(&b[pr.b], dl)
                }
            ),
        );
    }
    lines.sort_by(|x, y| y.weight.total_cmp(&x.weight));
    lines
}

fn compiled(out: &mut String, r: &DiffReport<'_>, d: &CompiledDiff<'_>) {
    let m = &d.matching;
    let _ = writeln!(
        out,
        "\n{} matched ({} changed), {} split, {} merged, {} added, {} removed{}",
        m.pairs.len(),
        d.changed.len(),
        m.split.len(),
        m.merged.len(),
        m.added.len(),
        m.removed.len(),
        control_note(d)
    );
    let (xa, xb) = (&d.a.xla, &d.b.xla);
    let _ = writeln!(
        out,
        "XLA's bytes accessed {} -> {} ({}); flops {} -> {} ({})",
        bytes(xa.bytes.known),
        bytes(xb.bytes.known),
        signed_bytes(xb.bytes.known - xa.bytes.known),
        count(xa.flops.known),
        count(xb.flops.known),
        signed_count(xb.flops.known - xa.flops.known)
    );
    let (ua, ub) = (xa.bytes.unknown, xb.bytes.unknown);
    if ua + ub > 0 {
        let _ = writeln!(
            out,
            "  (XLA's generic cost model, the one `hlo_module_cost_analysis` runs, costs no custom call: {ua} instruction(s) of A and {ub} of B are left out of these figures; `mdbook-dumplab cost` estimates some: cuBLAS GEMMs and cuDNN convolutions from their dimensions, Pallas kernels from their cost_estimate)"
        );
    }
    if d.a
        .items
        .iter()
        .chain(&d.b.items)
        .any(|i| i.kind == dumplab::kernels::KernelKind::Branch)
    {
        out.push_str("  (a conditional's branches are rows of their own, each listed below; XLA's module figure counts only its larger branch)\n");
    }
    let (na, nb) = (d.a.not_kernel_bytes, d.b.not_kernel_bytes);
    if na + nb > 0.0 {
        let _ = writeln!(
            out,
            "  (of these bytes, XLA counts {} of A and {} of B outside any kernel: tuples' index tables, the -done halves of asynchronous copies; the rows below leave them out)",
            bytes(na),
            bytes(nb)
        );
    }
    if let (Some(chip), Some(la), Some(lb)) = (r.chip, d.a.lower_bound_s, d.b.lower_bound_s) {
        let sign = if lb < la { "-" } else { "+" };
        let _ = writeln!(
            out,
            "Lower bound on {}: {} -> {} ({sign}{})",
            chip.name,
            seconds(la),
            seconds(lb),
            seconds((lb - la).abs())
        );
    }
    for (side, why) in [("A", r.chip_why.0), ("B", r.chip_why.1)] {
        if r.chip.is_some() && why != "asked for" && !why.is_empty() {
            let _ = writeln!(out, "  ({side}: {why})");
        }
    }
    if d.is_empty() {
        out.push_str(
            "\nNo change: every kernel has a partner that computes the same, in the same order.\n",
        );
        return;
    }
    let lines = review_lines(d);
    if !lines.is_empty() {
        out.push_str("\nBiggest changes first:\n");
        for l in lines.iter().take(SHOWN) {
            let _ = writeln!(out, "  {}", l.text);
        }
        if lines.len() > SHOWN {
            let _ = writeln!(
                out,
                "  ... and {} more (--json lists all)",
                lines.len() - SHOWN
            );
        }
    }
    for x in &d.introduced {
        let _ = writeln!(
            out,
            "Introduced: a {} in {} ({})",
            x.what,
            at('B', &d.b.items[x.b]),
            x.how.as_str()
        );
    }
    module(out, d);
    if m.truncated {
        out.push_str(
            "(matching stopped at its work budget: the rest is listed as added and removed)\n",
        );
    }
}

fn module(out: &mut String, d: &CompiledDiff<'_>) {
    let mc = &d.module;
    if mc.reordered > 0 {
        let _ = writeln!(
            out,
            "Schedule: {} matched kernel(s) run in another order",
            mc.reordered
        );
    }
    if let Some((x, y)) = mc.scheduled {
        let _ = writeln!(out, "is_scheduled: {x} -> {y}");
    }
    if let Some((x, y)) = &mc.aliasing {
        let _ = writeln!(out, "input_output_alias: {} -> {}", or_none(x), or_none(y));
    }
    if let Some((x, y)) = &mc.entry_layout {
        let _ = writeln!(
            out,
            "entry_computation_layout: {} -> {}",
            or_none(x),
            or_none(y)
        );
    }
}

fn lowered(out: &mut String, d: &LoweredDiff) {
    let _ = writeln!(
        out,
        "\n{} ops in A, {} in B; {} source line(s) the same, {} changed",
        d.ops.0,
        d.ops.1,
        d.lines_same,
        d.changed.len()
    );
    if let Some((x, y)) = &d.donation {
        let _ = writeln!(
            out,
            "Donation: {} -> {} (how `jit` was called, not an operation)",
            list_or_none(x),
            list_or_none(y)
        );
    }
    if d.same_program() && !d.moved {
        if d.donation.is_some() {
            out.push_str("Same program: every source line lowered to the same operations; what differs in their compiled dumps comes from the compiler and from the donation above.\n");
        } else {
            out.push_str("Same program: every source line lowered to the same operations, so what differs in their compiled dumps the compiler decided.\n");
        }
        if d.unlocated {
            out.push_str(
                "(the ops carry no source lines: compared as one program, not line by line)\n",
            );
        }
        return;
    }
    if d.moved {
        out.push_str("The same operations on other source lines: the code moved in its file (or is another file's); compared as a whole, the programs' operations are equal.\n");
    } else if !d.changed.is_empty() {
        let _ = writeln!(
            out,
            "Different programs: {} source line(s) lowered to other operations (an edit, or another JAX's tracing or lowering)",
            d.changed.len()
        );
    }
    if let Some((x, y)) = &d.signature {
        let _ = writeln!(
            out,
            "Signature: ({}) -> ({})",
            p(&x.join(", ")),
            p(&y.join(", "))
        );
    }
    for l in d.changed.iter().take(SHOWN) {
        let at = l.at.as_ref().map_or("(no location)".to_string(), |(f, n)| {
            format!("{}:{n}", p(f))
        });
        let list = |v: &[(String, usize)]| {
            if v.is_empty() {
                "nothing".to_string()
            } else {
                v.iter()
                    .map(|(o, n)| format!("{} x{n}", p(o)))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let _ = writeln!(out, "  {at}: {} -> {}", list(&l.a), list(&l.b));
    }
    if d.changed.len() > SHOWN {
        let _ = writeln!(
            out,
            "  ... and {} more (--json lists all)",
            d.changed.len() - SHOWN
        );
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn suggested_paths_are_one_shell_word_each() {
        for (path, word) in [
            (
                "fixtures/softmax/compiled.cpu.hlo.txt",
                "fixtures/softmax/compiled.cpu.hlo.txt",
            ),
            ("-", "-"),
            ("sp dir/my compiled.txt", "'sp dir/my compiled.txt'"),
            ("it's lowered.mlir", "'it'\\''s lowered.mlir'"),
            ("$HOME/a`b`.txt", "'$HOME/a`b`.txt'"),
            ("-x.mlir", "./-x.mlir"),
            ("", "''"),
        ] {
            assert_eq!(shell_word(path), word, "{path}");
        }
    }
}
