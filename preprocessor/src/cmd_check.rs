//! `mdbook-dumplab check`: TODO(fixtures helper).

use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(_dir: Option<&Path>) -> anyhow::Result<ExitCode> {
    anyhow::bail!("check is not implemented yet")
}
