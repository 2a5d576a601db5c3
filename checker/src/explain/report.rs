//! The explanation of a pasted dump, as the command line and the page show
//! it: the paste repaired first, checked to be compiled HLO, its kernel
//! tree and ledger, explained with the log when one is given.

use super::{Explanation, explain};
use crate::analysis::{self, Backend, Undone};
use crate::cost::ledger;
use crate::kernels::KernelTree;
use crate::program::Module;

/// How to ask a backend's compiler for its fusion decisions, one row each.
pub struct AskRow {
    /// The backend.
    pub backend: Backend,
    /// The environment that makes XLA log them, or `None` where it does
    /// not log them.
    pub flags: Option<&'static str>,
    /// What the log holds, or why there is none.
    pub note: &'static str,
}

/// The backends' rows.
pub const ASK: &[AskRow] = &[
    AskRow {
        backend: Backend::Cpu,
        flags: Some(
            "TF_CPP_MIN_LOG_LEVEL=0 TF_CPP_VMODULE=instruction_fusion=5,cpu_instruction_fusion=5",
        ),
        note: "the CPU's instruction fusion logs every pair it considers, and for a pair it does not fuse the first check that failed",
    },
    AskRow {
        backend: Backend::Gpu,
        flags: Some("TF_CPP_MIN_LOG_LEVEL=0 TF_CPP_VMODULE=priority_fusion=10"),
        note: "XLA:GPU's priority fusion logs each fusion it makes and each pair it cannot fuse (\"Cannot fuse X with Y, because: ...\")",
    },
    AskRow {
        backend: Backend::Tpu,
        flags: None,
        note: "libtpu's compiler does not print its fusion decisions through these flags",
    },
];

/// The row of a backend.
pub fn ask_of(b: Option<Backend>) -> Option<&'static AskRow> {
    ASK.iter().find(|r| Some(r.backend) == b)
}

/// Everything the report shows.
pub struct Report<'r, 'a, 'l> {
    /// The module as read.
    pub module: &'r Module<'a>,
    /// The kernel tree.
    pub tree: &'r KernelTree<'a>,
    /// The explanation.
    pub explanation: Explanation<'r, 'l>,
    /// The backend, when the analysis named it.
    pub backend: Option<Backend>,
    /// What the repair undid (empty for a clean paste).
    pub repaired: &'r [Undone],
    pasted: &'r dyn Fn(usize) -> usize,
}

impl Report<'_, '_, '_> {
    /// The line in the paste of a line of the text the explainer read.
    pub fn pasted_line(&self, line: usize) -> usize {
        (self.pasted)(line)
    }
}

/// Builds the report of `text` (with XLA's fusion log of the same compile
/// when given) and hands it to `f`; an error (one sentence) when the text
/// is not compiled HLO or has no entry computation.
pub fn with_report<R>(
    text: &str,
    log: Option<&str>,
    f: impl FnOnce(&Report<'_, '_, '_>) -> R,
) -> Result<R, String> {
    with_folder_report(text, log, None, f)
}

/// [`with_report`], and with module `m` of the compile's dump folder the
/// pass that added each copy; an error too when the folder is of another
/// compile.
pub fn with_folder_report<R>(
    text: &str,
    log: Option<&str>,
    folder: Option<(&crate::folder::Folder<'_>, usize)>,
    f: impl FnOnce(&Report<'_, '_, '_>) -> R,
) -> Result<R, String> {
    analysis::analyze_with(text, |a, repaired, module| {
        analysis::expect_compiled(
            &a,
            "kernels and their boundaries are what a backend decided",
        )?;
        if module.entry.is_none() {
            return Err(format!(
                "no ENTRY computation: the explainer reads the entry computation's kernels{}",
                analysis::invisible::hint(&repaired.text, &repaired.map)
            ));
        }
        let tree = KernelTree::build(module);
        let led = ledger::build_on(module, &tree, ledger::Loops::of(a.backend));
        let mut explanation = explain(module, &tree, &led, a.backend, log);
        let log_backend = explanation
            .log
            .as_ref()
            .and_then(|(p, _)| *p)
            .map(|p| match p {
                super::log::Pass::CpuFusion => Backend::Cpu,
                super::log::Pass::PriorityFusion => Backend::Gpu,
            });
        if let (Some(named), Some(logged)) = (a.backend, log_backend)
            && named != logged
        {
            return Err(format!(
                "the log is of an XLA:{} compile, the dump names {}: pass the log of the compile that printed this dump",
                logged.as_str().to_uppercase(),
                named.as_str()
            ));
        }
        if let Some(why) = explanation
            .log
            .as_ref()
            .and_then(|(_, c)| c.other_compile.clone())
        {
            return Err(format!(
                "{why}: pass the log of the compile that printed this dump"
            ));
        }
        if let Some((folder, m)) = folder {
            explanation.with_folder(module, folder, m)?;
        }
        let moved = !repaired.undone.is_empty();
        let map = &repaired.map;
        let pasted = move |line: usize| if moved { map.get(line).0 } else { line };
        Ok(f(&Report {
            module,
            tree: &tree,
            explanation,
            backend: a.backend,
            repaired: &repaired.undone,
            pasted: &pasted,
        }))
    })
}
