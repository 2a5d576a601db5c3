//! Shared by the integration tests that build books with the real mdBook.
// Each test crate uses only some of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The pinned mdBook: `DUMPLAB_MDBOOK`, else `.tools/mdbook-0.5.4/bin/mdbook`
/// at the workspace root (which `cargo xtask test` installs).
pub(crate) fn mdbook() -> PathBuf {
    let path = std::env::var_os("DUMPLAB_MDBOOK").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.tools/mdbook-0.5.4/bin/mdbook"),
        PathBuf::from,
    );
    assert!(
        path.is_file(),
        "mdBook not found at {}: run `cargo xtask test` once (it installs the pinned mdBook) or set DUMPLAB_MDBOOK",
        path.display()
    );
    path
}

/// `mdbook build BOOK --dest-dir DEST` with the preprocessor under test,
/// never letting mdBook create missing chapter files.
pub(crate) fn mdbook_build(book: &Path, dest: &Path) -> Output {
    mdbook_build_with(book, dest, &[])
}

/// [`mdbook_build`] with extra environment variables for mdBook and the
/// preprocessor.
pub(crate) fn mdbook_build_with(book: &Path, dest: &Path, env: &[(&str, &str)]) -> Output {
    Command::new(mdbook())
        .envs(env.iter().copied())
        .arg("build")
        .arg(book)
        .arg("--dest-dir")
        .arg(dest)
        .env(
            "MDBOOK_PREPROCESSOR__DUMPLAB__COMMAND",
            env!("CARGO_BIN_EXE_mdbook-dumplab"),
        )
        .env("MDBOOK_BUILD__CREATE_MISSING", "false")
        .output()
        .expect("run mdbook")
}

/// A CPU module of `n` fusions in a chain; with `multiline`, the first
/// fusion's `backend_config` printed over several lines (XLA's parser reads
/// both forms, and the old line readers ended the entry computation at its
/// closing brace).
pub(crate) fn cpu_module(n: usize, multiline: bool) -> String {
    let config = if multiline {
        "{\n \"fusion_config\":{\n \"kind\":\"__ynn_fusion\"\n }\n }"
    } else {
        "{\"fusion_config\":{\"kind\":\"__ynn_fusion\"}}"
    };
    let mut s = String::from(
        "HloModule jit_f, is_scheduled=true\n\n%fused (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0)\n  ROOT %e = f32[8]{0} exponential(%p)\n}\n\nENTRY %main (x: f32[8]) -> f32[8] {\n  %x = f32[8]{0} parameter(0)\n",
    );
    let mut prev = "x".to_owned();
    for i in 0..n {
        let root = if i + 1 == n { "ROOT " } else { "" };
        s.push_str(&format!(
            "  {root}%fusion.{i} = f32[8]{{0}} fusion(%{prev}), kind=kLoop, calls=%fused"
        ));
        if i == 0 {
            s.push_str(&format!(", backend_config={config}"));
        }
        s.push('\n');
        prev = format!("fusion.{i}");
    }
    s.push_str("}\n");
    s
}
