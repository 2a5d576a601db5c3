//! `mdbook-dumplab fixture`: TODO(fixtures helper).

use std::process::ExitCode;

/// Fixture subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum FixtureCommand {
    /// Generates a new fixture family from a Python function.
    New {
        /// The family's name (a folder under `fixtures/`).
        name: String,
    },
}

pub(crate) fn run(_command: FixtureCommand) -> anyhow::Result<ExitCode> {
    anyhow::bail!("fixture is not implemented yet")
}
