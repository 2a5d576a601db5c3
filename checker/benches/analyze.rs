//! `cargo bench -p dumplab`: how fast `analyze` reads a large compiled HLO
//! dump, next to two references measured in the same run on the same bytes:
//! a plain line scan (the floor: touching every byte once) and XLA's own HLO
//! text parser (`xla_client.hlo.hlo_module_from_text` in jaxlib), run through
//! the course's Python venv when it exists.
//!
//! The dump is built at bench time, never committed: the largest real
//! compiled dump under `fixtures/` is scaled past 50 MB by repeating its
//! non-entry computations under new names (`%name_rK`) and growing its entry
//! computation with renamed copies of its instructions, so the result is
//! still a module XLA's parser accepts. Goal: at least 10x faster than XLA's
//! parser and within 10x of the line scan. Building the syntax layer's
//! module (`dumplab::program::parse`, and the kernel tree on it) is
//! measured beside them: goal at least 10x faster than XLA's parser too.

#![allow(clippy::unwrap_used, missing_docs)]

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const TARGET_BYTES: usize = 50 * 1024 * 1024 + 1;
/// Under `cargo test --benches` (no `--bench` argument): a quick smoke run.
const SMOKE_BYTES: usize = 1024 * 1024;

mod scale;
use scale::{largest_compiled_dump, metadata_heavy_cpu_dump, scale, scale_scoped, workspace};

/// A compiled-looking module with `n` computations named as XLA names them
/// (`%fused_computation.N`, each called by `%fusion.N` in the entry): the
/// shape that once sent name maps into hash collisions.
fn many_computations(n: usize) -> String {
    let mut out = String::from("HloModule many, is_scheduled=true\n\n");
    for i in 0..n {
        let _ = write!(
            out,
            "%fused_computation.{i} (param_0.{i}: f32[8]) -> f32[8] {{\n  %param_0.{i} = f32[8]{{0}} parameter(0)\n  ROOT %neg.{i} = f32[8]{{0}} negate(%param_0.{i})\n}}\n\n"
        );
    }
    out.push_str("ENTRY %main (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0)\n");
    let mut prev = String::from("%p");
    for i in 0..n {
        let _ = writeln!(
            out,
            "  %fusion.{i} = f32[8]{{0}} fusion({prev}), kind=kLoop, calls=%fused_computation.{i}"
        );
        prev = format!("%fusion.{i}");
    }
    let _ = write!(out, "  ROOT %r = f32[8]{{0}} copy({prev})\n}}\n");
    out
}

/// A module of `bytes` bytes with one fused computation and a long entry
/// computation: the baseline for [`many_computations`].
fn few_computations(bytes: usize) -> String {
    let mut out = String::from(
        "HloModule few, is_scheduled=true\n\n%fused_computation (param_0: f32[8]) -> f32[8] {\n  %param_0 = f32[8]{0} parameter(0)\n  ROOT %neg = f32[8]{0} negate(%param_0)\n}\n\nENTRY %main (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0)\n  %fusion = f32[8]{0} fusion(%p), kind=kLoop, calls=%fused_computation\n",
    );
    let mut prev = String::from("%fusion");
    let mut i = 0;
    while out.len() < bytes {
        let _ = writeln!(
            out,
            "  %negate.{i} = f32[8]{{0}} negate({prev}), metadata={{op_name=\"jit(f)/neg\"}}"
        );
        prev = format!("%negate.{i}");
        i += 1;
    }
    let _ = write!(out, "  ROOT %r = f32[8]{{0}} copy({prev})\n}}\n");
    out
}

/// Name maps: `analyze` on many XLA-named computations against the same
/// bytes with few computations. Goal: within 2x.
fn name_maps(n: usize) {
    let many = many_computations(n);
    let few = few_computations(many.len());
    let t_many = best_of(3, || {
        black_box(dumplab::analyze(black_box(&many)));
    });
    let t_few = best_of(3, || {
        black_box(dumplab::analyze(black_box(&few)));
    });
    println!(
        "{n} computations ({:.1} MB): {:.3} s; same bytes, few computations: {:.3} s; ratio {:.2} (goal: within 2x)",
        many.len() as f64 / 1e6,
        t_many.as_secs_f64(),
        t_few.as_secs_f64(),
        t_many.as_secs_f64() / t_few.as_secs_f64()
    );
}

fn best_of(n: usize, mut f: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..n {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
    }
    best
}

fn mbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64().max(1e-9)
}

const XLA_SCRIPT: &str = r#"
import sys, time
from jax._src.lib import xla_client as xc
text = open(sys.argv[1]).read()
best = float("inf")
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter()
    m = xc.hlo.hlo_module_from_text(text)
    best = min(best, time.perf_counter() - t0)
    del m
print("SECONDS", best)
"#;

fn xla_parser(file: &Path, dir: &Path) -> Result<Duration, String> {
    let py = workspace().join(".tools/venv/bin/python");
    if !py.exists() {
        return Err(format!("no venv at {}", py.display()));
    }
    let script = dir.join("xla_parse.py");
    std::fs::write(&script, XLA_SCRIPT).map_err(|e| e.to_string())?;
    let out = Command::new(&py)
        .arg(&script)
        .arg(file)
        .arg("2")
        .env("JAX_PLATFORMS", "cpu")
        .output()
        .map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let secs = stdout
        .lines()
        .find_map(|l| l.strip_prefix("SECONDS "))
        .and_then(|s| s.trim().parse::<f64>().ok());
    match secs {
        Some(s) => Ok(Duration::from_secs_f64(s)),
        None => {
            let err = String::from_utf8_lossy(&out.stderr);
            let last: Vec<&str> = err.lines().rev().take(3).collect();
            Err(format!(
                "XLA's parser did not report a time: {}",
                last.join(" | ")
            ))
        }
    }
}

/// The module build (and with the kernel tree) beside XLA's parser on one
/// more scaled input, written to `dir/name`.
fn module_vs_xla(name: &str, text: &str, dir: &Path) {
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let t_module = best_of(5, || {
        black_box(dumplab::program::parse(black_box(text)));
    });
    let t_tree = best_of(3, || {
        let m = dumplab::program::parse(black_box(text));
        black_box(dumplab::kernels::KernelTree::build(&m));
    });
    let line = match xla_parser(&file, dir) {
        Ok(t_xla) => format!(
            "XLA {:.3} s: the module build {:.1}x faster, with the kernel tree {:.1}x (goal: at least 10x)",
            t_xla.as_secs_f64(),
            t_xla.as_secs_f64() / t_module.as_secs_f64(),
            t_xla.as_secs_f64() / t_tree.as_secs_f64()
        ),
        Err(e) => format!("XLA's parser skipped ({e})"),
    };
    println!(
        "{name} ({:.1} MB): program::parse {:.3} s, + KernelTree {:.3} s; {line}",
        text.len() as f64 / 1e6,
        t_module.as_secs_f64(),
        t_tree.as_secs_f64()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` runs this
    // binary without it, and then a 1 MB smoke run without XLA is enough.
    let full = std::env::args().any(|a| a == "--bench");
    let Some(src) = largest_compiled_dump() else {
        println!("no compiled dump under fixtures/: nothing to measure");
        return;
    };
    let text = std::fs::read_to_string(&src).unwrap();
    let big = scale(&text, if full { TARGET_BYTES } else { SMOKE_BYTES });
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace().join("target"), PathBuf::from);
    let dir = target.join("bench-data");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(if full {
        "scaled.compiled.hlo.txt"
    } else {
        "smoke.compiled.hlo.txt"
    });
    std::fs::write(&file, &big).unwrap();
    let bytes = big.len();
    println!(
        "input: {} scaled to {:.1} MB ({} lines) at {}",
        src.display(),
        bytes as f64 / 1e6,
        big.lines().count(),
        file.display()
    );

    let check = dumplab::analyze(&big);
    println!(
        "analysis: kind {}, backend {:?}, {} computations, {} fusions",
        check.kind,
        check.backend,
        check.computations.len(),
        check.fusions.len()
    );

    let t_scan = best_of(5, || {
        let mut n = 0usize;
        let mut first = 0u64;
        for l in big.lines() {
            n += 1;
            first += u64::from(l.as_bytes().first().copied().unwrap_or(0));
        }
        black_box((n, first));
    });
    let t_analyze = best_of(3, || {
        black_box(dumplab::analyze(black_box(&big)));
    });
    println!(
        "line scan (floor):      {:>9.1} MB/s  ({:.3} s)",
        mbps(bytes, t_scan),
        t_scan.as_secs_f64()
    );
    println!(
        "dumplab::analyze:       {:>9.1} MB/s  ({:.3} s)",
        mbps(bytes, t_analyze),
        t_analyze.as_secs_f64()
    );
    println!(
        "analyze is {:.1}x slower than the line scan (goal: within 10x)",
        t_analyze.as_secs_f64() / t_scan.as_secs_f64()
    );
    let t_module = best_of(5, || {
        black_box(dumplab::program::parse(black_box(&big)));
    });
    let t_tree = best_of(3, || {
        let m = dumplab::program::parse(black_box(&big));
        black_box(dumplab::kernels::KernelTree::build(&m));
    });
    let m = dumplab::program::parse(&big);
    println!(
        "program::parse:         {:>9.1} MB/s  ({:.3} s; {} instructions, {} computations, {} lines unread)",
        mbps(bytes, t_module),
        t_module.as_secs_f64(),
        m.instructions.len(),
        m.computations.len(),
        m.unread.len()
    );
    drop(m);
    println!(
        "parse + KernelTree:     {:>9.1} MB/s  ({:.3} s)",
        mbps(bytes, t_tree),
        t_tree.as_secs_f64()
    );
    name_maps(if full { 300_000 } else { 5_000 });
    if !full {
        println!(
            "smoke run (no `--bench` argument): XLA's parser skipped; `cargo bench -p dumplab` measures"
        );
        return;
    }
    match xla_parser(&file, &dir) {
        Ok(t_xla) => {
            println!(
                "XLA hlo_module_from_text: {:>7.1} MB/s  ({:.3} s)",
                mbps(bytes, t_xla),
                t_xla.as_secs_f64()
            );
            println!(
                "analyze is {:.1}x faster than XLA's parser (goal: at least 10x)",
                t_xla.as_secs_f64() / t_analyze.as_secs_f64()
            );
            println!(
                "program::parse (the module build) is {:.1}x faster than XLA's parser (goal: at least 10x); with the kernel tree {:.1}x",
                t_xla.as_secs_f64() / t_module.as_secs_f64(),
                t_xla.as_secs_f64() / t_tree.as_secs_f64()
            );
        }
        Err(e) => println!("XLA's parser: skipped ({e})"),
    }
    let tpu_10 = scale(&text, 10 * 1024 * 1024 + 1);
    module_vs_xla("tpu-10mib.hlo.txt", &tpu_10, &dir);
    if let Some(cpu) = metadata_heavy_cpu_dump().and_then(|p| std::fs::read_to_string(p).ok()) {
        for (name, mib) in [
            ("cpu-metadata-10mib.hlo.txt", 10),
            ("cpu-metadata-50mib.hlo.txt", 50),
        ] {
            module_vs_xla(name, &scale_scoped(&cpu, mib * 1024 * 1024 + 1), &dir);
        }
    }
}
