//! `cargo xtask bench`: what DumpLab costs a reader and an author
//! (`--playground`: only the playground's analysis figures; `--cli`: only
//! `mdbook-dumplab analyze` end to end, see [`crate::bench_cli`]; `--book`:
//! only the `mdbook build` cost).
//!
//! - page weight: gzipped bytes of everything DumpLab adds to every page
//!   (its CSS, JS and the wasm checker) against a 40 KiB budget, and what
//!   the playground's page adds to that;
//! - time from navigation to the first question being answerable, in
//!   headless Chromium (median of several loads);
//! - what the (release-built) preprocessor adds to a full `mdbook build` of
//!   the course:
//!   builds with and without it, interleaved in one session, medians.
//!
//! - the playground's analysis of 10 MB and 50 MB compiled dumps (scaled
//!   real ones): natively (`cargo bench -p dumplab --bench inspect`) and as
//!   wasm in Chromium on the same bytes, MB/s each and their ratio; and the
//!   page end to end, the file picked and the same text pasted: wall time,
//!   longest main-thread task, and the time the page's status reported.
//!
//! - `mdbook-dumplab analyze` and `analyze --json` through the release
//!   binary on scaled real dumps, beside `wc -l` ([`crate::bench_cli`]).
//!
//! Figures are printed, never asserted: timings belong to benchmarks.

use crate::{bench_cli, tools};
use anyhow::{Context, Result, bail};
use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// The page-weight budget (gzipped) for everything DumpLab adds to a page.
const BUDGET: usize = 40 * 1024;

/// Runs every benchmark; `--runs N` sets the repetitions (default 5).
pub(crate) fn run(args: &[String]) -> Result<()> {
    let usage =
        "usage: cargo xtask bench [--runs N | --playground | --cli [--runs N] | --book [--runs N]]";
    let runs_of = |n: &String| n.parse::<usize>().context("--runs takes a number");
    let (runs, only_playground) = match args {
        [] => (5, false),
        [flag, n] if flag == "--runs" => (runs_of(n)?, false),
        [flag] if flag == "--playground" => (3, true),
        [flag] if flag == "--cli" => return bench_cli::run(5),
        // Internal: the `--cli` benchmark generates its inputs in a child.
        [flag, dir] if flag == "--cli-inputs" => {
            return bench_cli::write_inputs_here(Path::new(dir));
        }
        [flag, runs, n] if flag == "--cli" && runs == "--runs" => {
            return bench_cli::run(runs_of(n)?);
        }
        [flag] if flag == "--book" => return book_only(7),
        [flag, runs, n] if flag == "--book" && runs == "--runs" => {
            return book_only(runs_of(n)?);
        }
        _ => bail!(usage),
    };
    let root = tools::root();
    // The browser figures run Node scripts that import playwright-core:
    // installed as `cargo xtask test` installs it, not a stack trace.
    tools::npm_ci()?;
    if only_playground {
        // The playground figures alone, on a freshly built book.
        let mut cmd = tools::command(tools::mdbook()?);
        cmd.arg("build")
            .current_dir(&root)
            .stderr(std::process::Stdio::null());
        tools::point_mdbook_at(&mut cmd, &tools::build_preprocessor()?);
        tools::run(&mut cmd)?;
        return wasm_vs_native(&root, runs);
    }
    page_weight(&root)?;
    let mdbook = tools::mdbook()?;
    // Measured as shipped to instructors who build the site: optimised.
    let preprocessor = tools::build_preprocessor_as("release")?;
    build_cost(&root, &mdbook, &preprocessor, runs)?;
    time_to_answerable(&root, runs)?;
    wasm_vs_native(&root, runs)?;
    folder_index(&root, runs, &preprocessor)?;
    bench_cli::run(runs)
}

/// `--book`: only what the release preprocessor adds to `mdbook build`.
fn book_only(runs: usize) -> Result<()> {
    let preprocessor = tools::build_preprocessor_as("release")?;
    build_cost(&tools::root(), &tools::mdbook()?, &preprocessor, runs)
}

/// "The dump folder": the page's index of the course's largest fixture
/// folder, and of 100,000 names, beside `mdbook-dumplab folder --json` on
/// the same files (`tests/browser/bench-folder.mjs`, on the book that
/// [`time_to_answerable`] built).
fn folder_index(root: &Path, runs: usize, preprocessor: &Path) -> Result<()> {
    let out = tools::output(
        tools::command("node")
            .arg("tests/browser/bench-folder.mjs")
            .arg(runs.to_string())
            .env("CHROMIUM_PATH", tools::chromium()?)
            .env("DUMPLAB_BOOK", root.join("book"))
            .env("DUMPLAB_CLI", preprocessor)
            .current_dir(root),
    )?;
    print!("{out}");
    Ok(())
}

/// The playground's analysis, native and wasm, on the same large dumps.
/// Runs after [`time_to_answerable`], which built the book: the dumps are
/// written into it so the browser can fetch them.
fn wasm_vs_native(root: &Path, runs: usize) -> Result<()> {
    let dir = root.join("book").join("bench-dumps");
    let native = tools::output(
        tools::command(tools::cargo())
            .args([
                "bench",
                "--locked",
                "--quiet",
                "--package",
                "dumplab",
                "--bench",
                "inspect",
            ])
            .env("DUMPLAB_BENCH_OUT", &dir)
            .env("DUMPLAB_BENCH_RUNS", runs.to_string())
            .current_dir(root),
    )?;
    let native_out = native;
    let native = parse_rows(&native_out, "native");
    let files: Vec<String> = native
        .iter()
        .map(|r| format!("bench-dumps/{}", r.0))
        .collect();
    let chromium = tools::chromium()?;
    let wasm = tools::output(
        tools::command("node")
            .arg("tests/browser/bench-inspect.mjs")
            .arg(runs.to_string())
            .args(&files)
            .env("CHROMIUM_PATH", chromium)
            .env("DUMPLAB_BOOK", root.join("book"))
            .current_dir(root),
    )?;
    let native_cost = parse_rows(&native_out, "native-cost");
    let wasm_cost = parse_rows(&wasm, "wasm-cost");
    let wasm = parse_rows(&wasm, "wasm");
    println!("playground analysis (analysis + kernel table + JSON), median of {runs}:");
    println!(
        "  {:<24} {:>8} {:>12} {:>12} {:>7}",
        "dump", "MB", "native MB/s", "wasm MB/s", "ratio"
    );
    print_ratios(&native, &wasm);
    println!(
        "the cost ledger (the playground's `cost` request), median of {runs} (goal: wasm within 2.5x):"
    );
    print_ratios(&native_cost, &wasm_cost);
    println!(
        "the page end to end (wall s, longest main-thread task, what its status said), picked and pasted:"
    );
    println!(
        "  {:<24} {:>8} {:>9} {:>9} {:>8} {:>9} {:>9}",
        "dump", "pick s", "longest", "status s", "paste s", "longest", "status s"
    );
    for (file, _, _, rest) in &wasm {
        let at = |i: usize| rest.get(i).copied().unwrap_or(f64::NAN);
        println!(
            "  {:<24} {:>8.2} {:>6.0} ms {:>9.2} {:>8.2} {:>6.0} ms {:>9.2}",
            file,
            at(0),
            at(1),
            at(2),
            at(3),
            at(4),
            at(5)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// One row per dump timed both natively and in wasm: MB/s each, and the ratio.
fn print_ratios(
    native: &[(String, usize, f64, Vec<f64>)],
    wasm: &[(String, usize, f64, Vec<f64>)],
) {
    for (file, bytes, secs, _) in native {
        let Some((_, _, wsecs, _)) = wasm.iter().find(|w| &w.0 == file) else {
            continue;
        };
        let mb = *bytes as f64 / 1e6;
        println!(
            "  {:<24} {:>8.1} {:>12.1} {:>12.1} {:>6.2}x",
            file,
            mb,
            mb / secs,
            mb / wsecs,
            wsecs / secs,
        );
    }
}

/// Rows `TAG FILE BYTES SECONDS [MORE...]` of a benchmark's output.
fn parse_rows(out: &str, tag: &str) -> Vec<(String, usize, f64, Vec<f64>)> {
    out.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            if w.next()? != tag {
                return None;
            }
            let file = w.next()?.to_owned();
            let bytes = w.next()?.parse().ok()?;
            let secs = w.next()?.parse().ok()?;
            Some((
                file,
                bytes,
                secs,
                w.filter_map(|x| x.parse().ok()).collect(),
            ))
        })
        .collect()
}

/// What only the playground's page loads, beside the chapters (linked by the
/// `{{#dumplab-playground}}` block; its module once the page starts it).
const PLAYGROUND_ASSETS: [&str; 10] = [
    "src/dumplab-playground.css",
    "src/dumplab-playground.js",
    "src/dumplab-playground-invisible.js",
    "src/dumplab-playground-ledger.js",
    "src/dumplab-playground-diff.js",
    "src/dumplab-playground-folder.js",
    "src/dumplab-playground-explain.js",
    "src/dumplab-playground-collectives.js",
    "src/dumplab-playground-why.js",
    "src/dumplab-playground-wasm.js",
];

/// Gzipped size of each asset DumpLab ships to the page: the files book.toml
/// adds to every page (`additional-css`, `additional-js`; the wasm checker
/// travels inside one of them), then what the playground's page adds.
fn page_weight(root: &Path) -> Result<()> {
    println!("page weight (gzip -9), everything DumpLab adds to a page:");
    let book: toml::Table = std::fs::read_to_string(root.join("book.toml"))?
        .parse()
        .context("parsing book.toml")?;
    let html = book.get("output").and_then(|o| o.get("html"));
    let mut assets = Vec::new();
    for key in ["additional-css", "additional-js"] {
        for item in html
            .and_then(|h| h.get(key))
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            if let Some(path) = item.as_str() {
                assets.push(root.join(path));
            }
        }
    }
    let mut total_raw = 0;
    let mut total_gz = 0;
    for path in assets {
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let gz = gzip_len(&bytes)?;
        total_raw += bytes.len();
        total_gz += gz;
        println!(
            "  {:<28} {:>8} B raw {:>8} B gz",
            path.strip_prefix(root).unwrap_or(&path).display(),
            bytes.len(),
            gz
        );
    }
    let verdict = if total_gz <= BUDGET { "within" } else { "OVER" };
    println!(
        "  {:<28} {:>8} B raw {:>8} B gz = {:.1} KiB, {verdict} the {} KiB budget ({:.0}%)",
        "total",
        total_raw,
        total_gz,
        total_gz as f64 / 1024.0,
        BUDGET / 1024,
        100.0 * total_gz as f64 / BUDGET as f64
    );
    println!("  the playground's page adds:");
    for rel in PLAYGROUND_ASSETS {
        let path = root.join(rel);
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        println!(
            "  {:<28} {:>8} B raw {:>8} B gz",
            rel,
            bytes.len(),
            gzip_len(&bytes)?
        );
    }
    Ok(())
}

fn gzip_len(bytes: &[u8]) -> Result<usize> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    enc.write_all(bytes)?;
    Ok(enc.finish()?.len())
}

/// Median wall time of `mdbook build` with and without the preprocessor;
/// with `DUMPLAB_BENCH_BASELINE=PATH`, also with an older build of the
/// preprocessor at PATH, interleaved: before/after figures from one run.
fn build_cost(root: &Path, mdbook: &Path, preprocessor: &Path, runs: usize) -> Result<()> {
    let scratch = tools::target_dir().join("bench-book");
    let _ = std::fs::remove_dir_all(&scratch);
    let with = scratch.join("with");
    let without = scratch.join("without");
    for dir in [&with, &without] {
        for item in ["src", "theme", "glossary", "fixtures", "exercises"] {
            copy_tree(&root.join(item), &dir.join(item))?;
        }
    }
    let book_toml = std::fs::read_to_string(root.join("book.toml"))?;
    std::fs::write(with.join("book.toml"), &book_toml)?;
    std::fs::write(
        without.join("book.toml"),
        strip_table(&book_toml, "[preprocessor.dumplab]"),
    )?;
    let baseline = std::env::var_os("DUMPLAB_BENCH_BASELINE").map(std::path::PathBuf::from);
    // (label, preprocessor or none, times)
    let mut rows: Vec<(&str, Option<&Path>, Vec<f64>)> = vec![
        ("with the preprocessor", Some(preprocessor), Vec::new()),
        ("without it", None, Vec::new()),
    ];
    if let Some(b) = &baseline {
        rows.push(("with the baseline", Some(b.as_path()), Vec::new()));
    }
    for _ in 0..runs {
        for (_, preprocess, times) in &mut rows {
            let mut cmd = tools::command(mdbook);
            cmd.arg("build")
                .current_dir(if preprocess.is_some() {
                    &with
                } else {
                    &without
                })
                .stderr(std::process::Stdio::null());
            // The variable alone would declare the preprocessor again.
            if let Some(p) = preprocess {
                tools::point_mdbook_at(&mut cmd, p);
            }
            let start = Instant::now();
            tools::run(&mut cmd)?;
            times.push(start.elapsed().as_secs_f64());
        }
    }
    let medians: Vec<f64> = rows.iter_mut().map(|r| median(&mut r.2)).collect();
    let plain = medians[1];
    println!("mdbook build of the course, median of {runs} interleaved runs:");
    if let Some(b) = &baseline {
        println!("  baseline: {}", b.display());
    }
    for ((label, preprocess, _), m) in rows.iter().zip(&medians) {
        if preprocess.is_some() {
            println!(
                "  {label:<24} {m:>8.3} s (adds {:.3} s: {:.2}x the plain build)",
                m - plain,
                m / plain
            );
        } else {
            println!("  {label:<24} {m:>8.3} s");
        }
    }
    Ok(())
}

/// Time from navigation to the first answerable question, via Chromium.
fn time_to_answerable(root: &Path, runs: usize) -> Result<()> {
    let book = root.join("book");
    let mut cmd = tools::command(tools::mdbook()?);
    cmd.arg("build")
        .current_dir(root)
        .stderr(std::process::Stdio::null());
    tools::point_mdbook_at(&mut cmd, &tools::build_preprocessor()?);
    tools::run(&mut cmd)?;
    let chromium = tools::chromium()?;
    tools::npm_ci()?;
    let out = tools::output(
        tools::command("node")
            .arg("tests/browser/bench-ready.mjs")
            .arg(runs.to_string())
            .env("CHROMIUM_PATH", chromium)
            .env("DUMPLAB_BOOK", &book)
            .current_dir(root),
    )?;
    print!("{out}");
    Ok(())
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    match xs.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => xs[n / 2],
        n => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
    }
}

/// `toml` without the table headed `header` (up to the next table).
fn strip_table(toml: &str, header: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for line in toml.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            skipping = trimmed.starts_with(header);
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    if !from.exists() {
        return Ok(());
    }
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let path = entry.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(entry.file_name()))?;
        } else {
            std::fs::copy(&path, to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_one_table() {
        let toml = "[book]\ntitle = \"t\"\n\n[preprocessor.dumplab]\ncommand = \"x\"\n\n[output.html]\na = 1\n";
        assert_eq!(
            strip_table(toml, "[preprocessor.dumplab]"),
            "[book]\ntitle = \"t\"\n\n[output.html]\na = 1\n"
        );
    }

    #[test]
    fn rows_of_benchmark_output() {
        let rows = parse_rows(
            "noise\nnative a.txt 10 0.5\nwasm a.txt 10 0.7 1.2 40\nnative bad\n",
            "wasm",
        );
        assert_eq!(rows, [("a.txt".to_owned(), 10, 0.7, vec![1.2, 40.0])]);
    }

    #[test]
    fn medians() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
