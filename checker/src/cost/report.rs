//! The cost report of a pasted dump, as the command line and the page show
//! it: the paste repaired first (a damaged paste is costed on the repaired
//! text, and the report says what was undone), checked to be compiled HLO,
//! its ledger, the chip chosen and the roofline on it.

use super::ledger::{self, Ledger};
use super::roofline::{self, ChipChoice, ModuleRoof};
use crate::analysis::{self, Analysis, Undone, unwrap::Unwrapped};
use crate::program::Module;

/// Everything the report shows.
pub struct Report<'r, 'a> {
    /// The module as read.
    pub module: &'r Module<'a>,
    /// The ledger.
    pub ledger: Ledger<'a>,
    /// The chip, and why.
    pub chip: ChipChoice,
    /// The roofline on it, when there is a chip.
    pub roof: Option<ModuleRoof>,
    /// What the repair undid (empty for a clean paste).
    pub repaired: &'r [Undone],
    /// A repaired line's line in the paste.
    pasted: &'r dyn Fn(usize) -> usize,
}

impl Report<'_, '_> {
    /// The line in the paste of a line of the text the ledger read.
    pub fn pasted_line(&self, line: usize) -> usize {
        (self.pasted)(line)
    }
}

/// Builds the report of `text` on the chip `asked` (a preset name, or the
/// platform's default) and hands it to `f`. An error (one sentence) when
/// the text is not compiled HLO, has no entry computation, or `asked`
/// names no preset.
pub fn with_report<R>(
    text: &str,
    asked: Option<&str>,
    f: impl FnOnce(&Report<'_, '_>) -> R,
) -> Result<R, String> {
    analysis::analyze_with(text, |a, repaired, module| {
        report_of(&a, repaired, module, asked, f)
    })
}

/// The report of an analysed, repaired and parsed text.
fn report_of<R>(
    a: &Analysis,
    repaired: &Unwrapped<'_>,
    module: &Module<'_>,
    asked: Option<&str>,
    f: impl FnOnce(&Report<'_, '_>) -> R,
) -> Result<R, String> {
    let chip = roofline::choose(asked, a.backend)?;
    crate::analysis::expect_compiled(a, "the ledger costs what a backend decided to run")?;
    if module.entry.is_none() {
        return Err(format!(
            "no ENTRY computation: the ledger costs the entry computation and what it calls{}",
            crate::analysis::invisible::hint(&repaired.text, &repaired.map)
        ));
    }
    let ledger = ledger::build(module, ledger::Loops::of(a.backend));
    if ledger.kernels.is_empty() {
        let cut = if module.unread.is_empty() {
            String::new()
        } else {
            let n = module.unread.len();
            format!(
                " ({n} line{} could not be read: is the paste cut?)",
                if n == 1 { "" } else { "s" }
            )
        };
        return Err(format!(
            "no kernel found: nothing in the ENTRY computation runs{cut}"
        ));
    }
    let roof = chip.chip.map(|c| roofline::on_chip(module, &ledger, c));
    let moved = !repaired.undone.is_empty();
    let map = &repaired.map;
    let pasted = move |line: usize| if moved { map.get(line).0 } else { line };
    let report = Report {
        module,
        ledger,
        chip,
        roof,
        repaired: &repaired.undone,
        pasted: &pasted,
    };
    Ok(f(&report))
}
