//! `cargo xtask bench`. (Filled in with the exercises.)

use anyhow::Result;

/// Runs the page benchmarks.
pub(crate) fn run(_args: &[String]) -> Result<()> {
    anyhow::bail!("not yet")
}
