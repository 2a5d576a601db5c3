//! `cargo bench -p dumplab --bench inspect`: the playground's analysis
//! (`dumplab::inspect::respond`: analysis, kernel table and JSON, the call the
//! page's wasm makes) natively on scaled real compiled dumps of 10 MB and
//! 50 MB. `cargo xtask bench` runs it with `DUMPLAB_BENCH_OUT` set, so the
//! dumps are written there and the same bytes are then analysed by the wasm
//! build in Chromium; it prints two lines per dump:
//! `native FILE BYTES SECONDS` (median) for the report, `native-cost FILE
//! BYTES SECONDS` for the cost ledger (the playground's `cost` request).
//!
//! Figures only, never asserted. Under `cargo test --benches` (no
//! `--bench` argument) it is a quick smoke run on 1 MB.

#![allow(clippy::unwrap_used, missing_docs)]

mod scale;

use std::hint::black_box;
use std::time::Instant;

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let sizes: Vec<(&str, usize)> = if bench {
        vec![("10mb", 10 * 1024 * 1024), ("50mb", 50 * 1024 * 1024)]
    } else {
        vec![("1mb", 1024 * 1024)]
    };
    let runs: usize = std::env::var("DUMPLAB_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let Some(src) = scale::largest_compiled_dump() else {
        println!("no compiled dump under fixtures/");
        return;
    };
    let text = std::fs::read_to_string(&src).unwrap();
    let out = std::env::var_os("DUMPLAB_BENCH_OUT").map(std::path::PathBuf::from);
    for (name, bytes) in sizes {
        let dump = scale::scale(&text, bytes);
        let file = format!("compiled-{name}.hlo.txt");
        if let Some(dir) = &out {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(&file), &dump).unwrap();
        }
        // The playground's two requests on a compiled dump: its report, and
        // its cost ledger (`cost` with the default chip).
        for (tag, head) in [
            ("native", &b"inspect\n"[..]),
            ("native-cost", &b"cost\n\n"[..]),
        ] {
            let mut req = head.to_vec();
            req.extend_from_slice(dump.as_bytes());
            let median = median_of(runs, || {
                black_box(dumplab::inspect::respond(black_box(&req)));
            });
            println!("{tag} {file} {} {median:.6}", dump.len());
        }
    }
}

/// The median wall time of `runs` calls of `f`, in seconds.
fn median_of(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(f64::NAN)
}
