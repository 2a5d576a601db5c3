//! The mdBook side: TODO(glossary helper).

use std::process::ExitCode;

pub(crate) fn supports_renderer(renderer: &str) -> bool {
    renderer == "html"
}

pub(crate) fn run_from_stdin() -> anyhow::Result<ExitCode> {
    anyhow::bail!("preprocessing is not implemented yet")
}
