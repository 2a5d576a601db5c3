//! `cargo bench -p dumplab --bench diff`: the diff of two compiled modules
//! (`dumplab::diff::report::with_diff`, and with the JSON `diff --json`
//! prints) on real dumps grown past 50 MB (`scale/`: the largest TPU
//! fixture, and the metadata-heavy CPU one under per-copy named scopes),
//! each against itself renamed (every instruction and computation, as a
//! recompile renumbers them) and against a copy with every 16th entry
//! kernel removed, beside `dumplab::analyze` of both sides in the same run.
//! Goal: the diff within 3x of analyzing its two modules. Then a generated
//! pair of 300k computations each (one fusion per computation, each under
//! its own `op_name`), which must finish: matching is never quadratic.
//!
//! Figures only, never asserted. Under `cargo test --benches` (no
//! `--bench` argument) it is a quick smoke run on 1 MB and 5k computations.

#![allow(clippy::unwrap_used, missing_docs)]

#[path = "../tests/diff_edit/mod.rs"]
mod diff_edit;
mod scale;

use dumplab::diff::json::to_json;
use dumplab::diff::report::{Body, with_diff};
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn best_of(n: usize, mut f: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..n {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
    }
    best
}

/// `text` without every `nth` entry instruction that launches a kernel (a
/// fusion, copy or custom call; never the ROOT): a module with kernels
/// removed (their users keep the dangling names, which the reader takes).
fn without_every(text: &str, nth: usize) -> String {
    let m = dumplab::program::parse(text);
    let mut gone = std::collections::HashSet::new();
    if let Some(e) = m.entry {
        let kernels = m
            .instructions_of(e)
            .iter()
            .filter(|i| !i.is_root && matches!(i.opcode, "fusion" | "copy" | "custom-call"));
        for ins in kernels.step_by(nth) {
            gone.extend(ins.line..=ins.end_line());
        }
    }
    let mut out = String::with_capacity(text.len());
    for (i, l) in text.lines().enumerate() {
        if !gone.contains(&(i + 1)) {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// One line of what a diff found.
fn summary(a: &str, b: &str) -> String {
    with_diff(a, b, None, |r| match &r.body {
        Body::Compiled(d) => {
            let m = &d.matching;
            format!(
                "{} rows in A, {} in B: {} matched ({} changed), {} split, {} merged, {} added, {} removed, empty {}, truncated {}, matcher work {}",
                d.a.items.len(),
                d.b.items.len(),
                m.pairs.len(),
                d.changed.len(),
                m.split.len(),
                m.merged.len(),
                m.added.len(),
                m.removed.len(),
                d.is_empty(),
                m.truncated,
                m.work
            )
        }
        Body::Lowered(_) => "a lowered diff".into(),
    })
    .unwrap()
}

/// Where one diff's time goes, side A's steps then the matcher: the
/// analysis (`analyze_with`, as the diff runs it), the kernel tree, the
/// ledger on that tree, the rows, then matching both sides' rows.
fn phases(a: &str, b: &str, runs: usize) -> String {
    use dumplab::cost::ledger;
    use dumplab::kernels::KernelTree;
    let t_analysis = best_of(runs, || {
        dumplab::analysis::analyze_with(a, |x, _, _| black_box(x.kind));
    });
    let (ma, mb) = (dumplab::program::parse(a), dumplab::program::parse(b));
    let t_tree = best_of(runs, || {
        black_box(KernelTree::build(&ma));
    });
    let ta = KernelTree::build(&ma);
    let t_ledger = best_of(runs, || {
        black_box(ledger::xla_on(&ma, &ta));
    });
    let la = ledger::xla_on(&ma, &ta);
    let tb = KernelTree::build(&mb);
    let lb = ledger::xla_on(&mb, &tb);
    let t_items = best_of(runs, || {
        black_box(dumplab::diff::item::items(&ma, &ta, &la.kernels));
    });
    let ia = dumplab::diff::item::items(&ma, &ta, &la.kernels);
    let ib = dumplab::diff::item::items(&mb, &tb, &lb.kernels);
    let t_match = best_of(runs, || {
        black_box(dumplab::diff::matching::match_items(&ia, &ib));
    });
    format!(
        "A's analysis {:.3} s, kernel tree {:.3} s, XLA's figures on it {:.3} s, rows {:.3} s; matching {:.3} s",
        t_analysis.as_secs_f64(),
        t_tree.as_secs_f64(),
        t_ledger.as_secs_f64(),
        t_items.as_secs_f64(),
        t_match.as_secs_f64()
    )
}

/// The diff of `a` and `b` beside `analyze` of each, in one run.
fn measure(name: &str, a: &str, b: &str, runs: usize) {
    println!(
        "{name}: A {:.1} MB, B {:.1} MB; {}",
        a.len() as f64 / 1e6,
        b.len() as f64 / 1e6,
        summary(a, b)
    );
    let t_a = best_of(runs, || {
        black_box(dumplab::analyze(black_box(a)));
    });
    let t_b = best_of(runs, || {
        black_box(dumplab::analyze(black_box(b)));
    });
    let t_diff = best_of(runs, || {
        black_box(with_diff(black_box(a), black_box(b), None, |r| {
            matches!(r.body, Body::Compiled(_))
        }))
        .unwrap();
    });
    let t_json = best_of(runs, || {
        black_box(
            with_diff(black_box(a), black_box(b), None, to_json)
                .unwrap()
                .len(),
        );
    });
    let both = (t_a + t_b).as_secs_f64();
    println!(
        "  analyze A {:.3} s, analyze B {:.3} s; diff {:.3} s = {:.2}x (analyze A + analyze B), {:.2}x analyze A; with --json's JSON {:.3} s = {:.2}x (goal: within 3x)",
        t_a.as_secs_f64(),
        t_b.as_secs_f64(),
        t_diff.as_secs_f64(),
        t_diff.as_secs_f64() / both,
        t_diff.as_secs_f64() / t_a.as_secs_f64(),
        t_json.as_secs_f64(),
        t_json.as_secs_f64() / both
    );
    println!("  {}", phases(a, b, runs));
}

/// A compiled-looking module of `n` layers, each a fusion of the entry
/// calling its own computation under its own `op_name` (`layer_K/neg`) and
/// source line, as A (`b` false) or B of a pair. B's names are numbered from
/// a million (one program renamed), every 97th layer is left out of it,
/// every 100th runs one more op (`layer_K/scale`: matched as the most
/// similar), and every 101st layer, one fusion of `neg` and `abs` in A, is
/// two fusions in B (a split).
fn many(n: usize, b: bool) -> String {
    let first = if b { 1_000_000 } else { 0 };
    let mut out = String::from("HloModule many, is_scheduled=true\n\n");
    let mut entry =
        String::from("ENTRY %main (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0)\n");
    let mut k = first;
    let mut fusion = |out: &mut String, entry: &mut String, ops: &[(&str, String)], line: usize| {
        let _ = write!(
            out,
            "%fused_computation.{k} (param_0.{k}: f32[8]) -> f32[8] {{\n  %param_0.{k} = f32[8]{{0}} parameter(0)\n"
        );
        let mut prev = format!("%param_0.{k}");
        for (n, (op, name)) in ops.iter().enumerate() {
            let root = if n + 1 == ops.len() { "ROOT " } else { "" };
            let _ = writeln!(
                out,
                "  {root}%{op}.{k}.{n} = f32[8]{{0}} {op}({prev}), metadata={{op_name=\"jit(f)/{name}\" source_file=\"model.py\" source_line={line}}}"
            );
            prev = format!("%{op}.{k}.{n}");
        }
        out.push_str("}\n\n");
        let _ = writeln!(
            entry,
            "  %fusion.{k} = f32[8]{{0}} fusion(%p), kind=kLoop, calls=%fused_computation.{k}, metadata={{op_name=\"jit(f)/{}\" source_file=\"model.py\" source_line={line}}}",
            ops[0].1
        );
        k += 1;
    };
    for i in 0..n {
        let line = 10 + i % 5000;
        let neg = ("negate", format!("layer_{i}/neg"));
        if b && i % 97 == 96 {
            continue;
        }
        if i % 101 == 100 {
            let abs = ("abs", format!("layer_{i}/abs"));
            if b {
                fusion(&mut out, &mut entry, &[neg], line);
                fusion(&mut out, &mut entry, &[abs], line);
            } else {
                fusion(&mut out, &mut entry, &[neg, abs], line);
            }
        } else if b && i % 100 == 99 {
            let scale = ("multiply", format!("layer_{i}/scale"));
            fusion(&mut out, &mut entry, &[neg, scale], line);
        } else {
            fusion(&mut out, &mut entry, &[neg], line);
        }
    }
    out.push_str(&entry);
    out.push_str("  ROOT %r = f32[8]{0} copy(%p)\n}\n");
    out
}

/// A fixture's path from the repository root.
fn shown(p: &std::path::Path) -> String {
    let root = scale::workspace();
    p.strip_prefix(&root).unwrap_or(p).display().to_string()
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let bytes = if full {
        50 * 1024 * 1024 + 1
    } else {
        1024 * 1024
    };
    let runs = if full { 3 } else { 1 };
    let mut inputs = Vec::new();
    if let Some(p) = scale::largest_compiled_dump() {
        let text = std::fs::read_to_string(&p).unwrap();
        inputs.push((format!("{} (tpu)", shown(&p)), scale::scale(&text, bytes)));
    }
    if let Some(p) = scale::metadata_heavy_cpu_dump() {
        let text = std::fs::read_to_string(&p).unwrap();
        inputs.push((
            format!("{} (cpu, scoped)", shown(&p)),
            scale::scale_scoped(&text, bytes),
        ));
    }
    for (name, a) in &inputs {
        let renamed = diff_edit::rename(a);
        measure(&format!("{name} against itself renamed"), a, &renamed, runs);
        let fewer = without_every(&renamed, 16);
        measure(
            &format!("{name} against itself renamed, every 16th entry kernel removed"),
            a,
            &fewer,
            runs,
        );
    }
    let n = if full { 300_000 } else { 5_000 };
    let a = many(n, false);
    let b = many(n, true);
    let t = Instant::now();
    let line = summary(&a, &b);
    println!(
        "{n} layers ({:.1} MB, {:.1} MB; B renamed, every 97th layer removed, every 100th with one more op, every 101st split in two): diff {:.3} s; {line}",
        a.len() as f64 / 1e6,
        b.len() as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    if !full {
        println!(
            "smoke run (no `--bench` argument): `cargo bench -p dumplab --bench diff` measures"
        );
    }
}
