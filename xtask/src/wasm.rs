//! `cargo xtask wasm`: rebuilds the browser checker.
//!
//! The `dumplab` crate is compiled as a `cdylib` for `wasm32-unknown-unknown`
//! without its `serde` feature, with the size-tuned `wasm` profile (the
//! grading module, `theme/dumplab.wasm`) and the speed-tuned
//! `wasm-playground` one (`theme/dumplab-playground.wasm`), and then
//! stamped: the `wasm_fresh` test rewrites
//! `theme/dumplab.wasm.source-hash` and the inline loader
//! `theme/dumplab-wasm.js` (run without the stamp variable, that same test
//! fails whenever the committed module is older than the checker source).
//!
//! Toolchains, in order: rustup's `wasm32-unknown-unknown` target (the normal
//! way: `rustup target add wasm32-unknown-unknown`), else Debian's
//! `rustc-web` with `rust-web-src` and `lld`, building `std` from source.

use crate::tools;
use anyhow::{Result, bail};
use std::path::Path;
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

/// Builds, copies and stamps the wasm checker: the grading module every
/// page loads (`theme/dumplab.wasm`) and the playground's, with the
/// analysis and source map (`theme/dumplab-playground.wasm`).
pub(crate) fn build() -> Result<()> {
    let root = tools::root();
    let target_dir = tools::target_dir().join("wasm");
    // The grading module is size-tuned (every page carries it); the
    // playground's is speed-tuned (one page loads it, and reads megabytes).
    for (features, name, profile) in [
        (None, "dumplab.wasm", "wasm"),
        (
            Some("playground"),
            "dumplab-playground.wasm",
            "wasm-playground",
        ),
    ] {
        let mut cmd = toolchain()?;
        cmd.args([
            "rustc",
            "--locked",
            "--package",
            "dumplab",
            "--lib",
            "--crate-type",
            "cdylib",
        ])
        .args([
            "--no-default-features",
            "--profile",
            profile,
            "--target",
            TARGET,
        ])
        .env("CARGO_TARGET_DIR", &target_dir)
        .current_dir(&root);
        if let Some(f) = features {
            cmd.args(["--features", f]);
        }
        tools::step(&format!("build {name} for wasm32"), || tools::run(&mut cmd))?;
        let built = target_dir.join(TARGET).join(profile).join("dumplab.wasm");
        let dest = root.join("theme").join(name);
        std::fs::copy(&built, &dest)?;
        let size = std::fs::metadata(&dest)?.len();
        eprintln!(
            "xtask: {} ({size} bytes)",
            dest.strip_prefix(&root).unwrap_or(&dest).display()
        );
    }
    tools::step("stamp the module and its loader", || {
        tools::run(
            tools::command(tools::cargo())
                .args([
                    "test",
                    "--locked",
                    "--quiet",
                    "--package",
                    "mdbook-dumplab",
                    "--test",
                    "wasm_fresh",
                ])
                .env("DUMPLAB_WASM_STAMP", "1")
                .current_dir(&root),
        )
    })
}

/// A `cargo` command able to build for wasm32 on this machine.
fn toolchain() -> Result<Command> {
    let rustup_has_target =
        tools::output(tools::command("rustup").args(["target", "list", "--installed"]))
            .map(|targets| targets.lines().any(|t| t.trim() == TARGET))
            .unwrap_or(false);
    if rustup_has_target {
        return Ok(tools::command(tools::cargo()));
    }
    // rustup could not give us the target: try to add it, then fall back to Debian's.
    if tools::run(tools::command("rustup").args(["target", "add", TARGET])).is_ok() {
        return Ok(tools::command(tools::cargo()));
    }
    let debian_rustc = Path::new("/usr/bin/rustc");
    let debian_src = Path::new("/usr/lib/rustlib/src/rust/library");
    if debian_rustc.exists() && debian_src.exists() && which("wasm-ld") {
        eprintln!(
            "xtask: rustup has no {TARGET}; using Debian's rustc-web and building std from source"
        );
        let mut cmd = tools::command("/usr/bin/cargo");
        cmd.env("RUSTC", debian_rustc)
            .env("RUSTC_BOOTSTRAP", "1")
            .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER", "wasm-ld")
            .env_remove("RUSTUP_TOOLCHAIN")
            .env_remove("CARGO")
            .args([
                "-Zbuild-std=std,panic_abort",
                "-Zbuild-std-features=panic_immediate_abort",
            ]);
        return Ok(cmd);
    }
    bail!(
        "no wasm32 toolchain: run `rustup target add {TARGET}` (or, on Debian without rustup's target: apt-get install rustc-web cargo-web rust-web-src lld)"
    )
}

fn which(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}
