//! `cargo xtask`: the two set-up commands of DumpLab and the automation
//! behind them.
//!
//! Everything a fresh machine lacks is installed into `.tools/` (pinned
//! mdBook, the Python venv with JAX) or `node_modules/` (playwright-core), or
//! the command stops with a one-line instruction. Nothing is installed
//! globally except Debian's Chromium, and only when running as root on Debian.

mod bench;
mod bench_cli;
mod snippets;
mod tools;
mod wasm;

use anyhow::{Result, bail};
use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command> [args]

commands:
  serve [MDBOOK SERVE ARGS]  build what the course needs and serve it (e.g. --port 3001 --open)
  test                       every test: fmt, clippy, unit, integration, snippets, book build, browser
  wasm                       rebuild theme/dumplab.wasm from the checker source
  bench                      page weight, time to first answerable question, preprocessor cost
                             (--cli: only `mdbook-dumplab analyze` end to end beside `wc -l`)
  snippets                   run the course's Python snippets with the pinned JAX
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match args.split_first() {
        Some((c, rest)) => (c.as_str(), rest),
        None => {
            eprint!("{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    let result = match command {
        "serve" => serve(rest),
        "test" => test(rest),
        "wasm" => wasm::build(),
        "bench" => bench::run(rest),
        "snippets" => snippets::run(),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(anyhow::anyhow!("unknown command `{other}`\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo xtask serve`: pinned mdBook, a built preprocessor, `mdbook serve`.
fn serve(args: &[String]) -> Result<()> {
    let mdbook = tools::mdbook()?;
    let preprocessor = tools::build_preprocessor()?;
    let mut cmd = tools::command(&mdbook);
    cmd.arg("serve").args(args).current_dir(tools::root());
    tools::point_mdbook_at(&mut cmd, &preprocessor);
    tools::run(&mut cmd)
}

/// `cargo xtask test`: every gate CI runs, in order of cost.
fn test(args: &[String]) -> Result<()> {
    if !args.is_empty() {
        bail!("`cargo xtask test` takes no arguments (got {args:?})");
    }
    let root = tools::root();
    let cargo = tools::cargo();
    tools::step("cargo fmt --check", || {
        tools::run(
            tools::command(&cargo)
                .args(["fmt", "--all", "--check"])
                .current_dir(&root),
        )
    })?;
    tools::step("cargo clippy -D warnings", || {
        tools::run(
            tools::command(&cargo)
                .args([
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--locked",
                    "--",
                    "-D",
                    "warnings",
                ])
                .current_dir(&root),
        )
    })?;
    let mdbook = tools::step("pinned mdBook", tools::mdbook)?;
    tools::step("cargo test (unit, integration, fixture books, CLI)", || {
        tools::run(
            tools::command(&cargo)
                .args(["test", "--workspace", "--locked"])
                .env("DUMPLAB_MDBOOK", &mdbook)
                .current_dir(&root),
        )
    })?;
    tools::step("Python snippets with the pinned JAX", snippets::run)?;
    tools::step(
        "XLA's cost analysis, the ledger's oracle, unchanged",
        || {
            let python = tools::python()?;
            tools::run(
                tools::command(&python)
                    .arg(root.join("checker/tests/cost/oracle.py"))
                    .arg("--check")
                    .env("JAX_PLATFORMS", "cpu")
                    .current_dir(&root),
            )
        },
    )?;
    tools::step(
        "XLA's fusion decisions of the fixtures (CPU), unchanged",
        || {
            let python = tools::python()?;
            tools::run(
                tools::command(&python)
                    .arg(root.join("fixtures/fusion_logs.py"))
                    .args(["--check", "--target", "cpu"])
                    .env("JAX_PLATFORMS", "cpu")
                    .current_dir(&root),
            )
        },
    )?;
    let preprocessor = tools::step("preprocessor binary", tools::build_preprocessor)?;
    tools::step("mdbook build of the course", || {
        let mut cmd = tools::command(&mdbook);
        cmd.arg("build").current_dir(&root);
        tools::point_mdbook_at(&mut cmd, &preprocessor);
        tools::run(&mut cmd)
    })?;
    tools::step("browser tests (headless Chromium)", || {
        let chromium = tools::chromium()?;
        tools::npm_ci()?;
        tools::run(
            tools::command("node")
                .args(["--test", "--test-concurrency=1", "tests/browser/"])
                .env("CHROMIUM_PATH", chromium)
                .env("DUMPLAB_BOOK", root.join("book"))
                // The command line the playground test compares the page with.
                .env("DUMPLAB_CLI", &preprocessor)
                // Built by the `hostile` cargo test above (CARGO_TARGET_TMPDIR).
                .env(
                    "DUMPLAB_HOSTILE_BOOK",
                    tools::target_dir().join("tmp/hostile/book"),
                )
                .current_dir(&root),
        )
    })?;
    eprintln!("xtask: all tests passed");
    Ok(())
}
