//! The collectives of a pasted dump, as the command line and the page show
//! them: the paste repaired first, checked to be compiled HLO, its
//! collectives read, and, on a chip preset (asked for, or the default of
//! the dump's platform), each one's time bound on the chip's interconnect.

use super::{Collectives, Row, read};
use crate::analysis::{self, Backend};
use crate::cost::chips::Chip;
use crate::cost::roofline::{ChipChoice, choose};
use crate::kernels::KernelTree;
use crate::program::Module;

/// Everything the report shows.
pub struct Report<'r, 'a> {
    /// The module as read.
    pub module: &'r Module<'a>,
    /// Its collectives.
    pub collectives: Collectives<'a>,
    /// The backend, when the analysis named it.
    pub backend: Option<Backend>,
    /// The chip the time bounds are on, and why.
    pub chip: ChipChoice,
    pasted: &'r dyn Fn(usize) -> usize,
}

impl Report<'_, '_> {
    /// The line in the paste of a line of the text the reader read.
    pub fn pasted_line(&self, line: usize) -> usize {
        (self.pasted)(line)
    }

    /// A row's time bound on the chip's interconnect, seconds.
    pub fn seconds(&self, row: &Row<'_>) -> Option<f64> {
        let chip: &Chip = self.chip.chip?;
        Some(row.at_least_bytes? as f64 / chip.interconnect.bandwidth.value)
    }
}

/// What the report says about the devices of a backend: how its
/// collectives move data, one row each.
pub const BACKEND_NOTES: &[(Backend, &str)] = &[
    (
        Backend::Cpu,
        "XLA:CPU's devices here are host devices of one process (`--xla_force_host_platform_device_count`): a collective is a copy in host memory, there is no interconnect to bound it",
    ),
    (
        Backend::Gpu,
        "XLA:GPU runs a collective through NCCL, or through its own collective kernel where the start's `kernel_strategy` names one; the bound holds for any algorithm and route",
    ),
    (
        Backend::Tpu,
        "XLA:TPU runs collectives over the chips' ICI links; the bound holds for any route they take",
    ),
];

/// The note of a backend.
pub fn backend_note(b: Option<Backend>) -> Option<&'static str> {
    BACKEND_NOTES.iter().find(|r| Some(r.0) == b).map(|r| r.1)
}

/// Builds the report of `text` and hands it to `f`; an error (one
/// sentence) when the text is not compiled HLO, has no entry computation,
/// or `chip` names no preset.
pub fn with_report<R>(
    text: &str,
    chip: Option<&str>,
    f: impl FnOnce(&Report<'_, '_>) -> R,
) -> Result<R, String> {
    analysis::analyze_with(text, |a, repaired, module| {
        analysis::expect_compiled(
            &a,
            "the collectives a program runs, their groups and schedule, are what the partitioner and a backend decided",
        )?;
        if module.entry.is_none() {
            return Err(format!(
                "no ENTRY computation: the reader reads the collectives the entry runs{}",
                analysis::invisible::hint(&repaired.text, &repaired.map)
            ));
        }
        let chip = choose(chip, a.backend)?;
        let tree = KernelTree::build(module);
        let collectives = read(module, &tree);
        let moved = !repaired.undone.is_empty();
        let map = &repaired.map;
        let pasted = move |line: usize| if moved { map.get(line).0 } else { line };
        Ok(f(&Report {
            module,
            collectives,
            backend: a.backend,
            chip,
            pasted: &pasted,
        }))
    })
}
