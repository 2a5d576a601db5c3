//! `mdbook-dumplab analyze`: TODO(checker helper).

use std::path::PathBuf;
use std::process::ExitCode;

pub(crate) fn run(_json: bool, _files: &[PathBuf]) -> anyhow::Result<ExitCode> {
    anyhow::bail!("analyze is not implemented yet")
}
