//! `mdbook-dumplab grade`: TODO(exercises helper).

use std::process::ExitCode;

/// Arguments of `grade`.
#[derive(clap::Args, Debug)]
pub struct GradeArgs {
    /// The question id.
    pub question: String,
}

pub(crate) fn run(_args: &GradeArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("grade is not implemented yet")
}
