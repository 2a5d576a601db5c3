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
