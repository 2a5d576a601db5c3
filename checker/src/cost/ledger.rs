//! The ledger of a module: one entry per kernel of the kernel tree (the
//! entry computation's kernels in run order, a loop's body and condition
//! kernels under it, a conditional's branches, a call's callee), each with
//! XLA's figures and DumpLab's estimate, and the module's totals.
//!
//! Totals: XLA's are its module figures (every instruction of the entry
//! computation, as `hlo_module_cost_analysis` sums them: a loop body once,
//! the larger branch of a conditional). The estimate's are the kernels'
//! estimates, a loop's kernels times its stated trip count, the largest
//! branch of a conditional per figure; tuples' index tables, which XLA
//! counts as bytes, are no kernel's and are left out.

use super::estimate::{self, Estimate, Reason};
use super::figures::{Figure, Figures};
use super::xla::Xla;
use crate::kernels::{Kernel, KernelKind, KernelTree, RegionRole};
use crate::program::{InstrId, Module};

/// One kernel of the ledger.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<'a> {
    /// The instruction.
    pub id: InstrId,
    /// The instruction's name.
    pub name: &'a str,
    /// What it is.
    pub kind: KernelKind,
    /// Its fusion kind or custom-call target, when it has one.
    pub detail: Option<String>,
    /// Its 1-based line in the dump.
    pub line: usize,
    /// How deep in loops, branches and calls it is (0: the entry's).
    pub depth: usize,
    /// Runs per run of the module: the product of the stated trip counts
    /// of the loops around it; `None` when one of them states none.
    pub runs: Option<u64>,
    /// XLA's figures of one run.
    pub xla: Figures,
    /// DumpLab's estimate of one run.
    pub estimate: Estimate,
    /// Its source lines (file, line), sorted.
    pub source_lines: Vec<(&'a str, u32)>,
}

impl Entry<'_> {
    /// Its estimate over all its runs (once when the runs are unknown).
    pub fn total(&self) -> Estimate {
        scale(&self.estimate, self.runs.unwrap_or(1) as f64)
    }
}

/// The ledger of a module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ledger<'a> {
    /// XLA's module figures.
    pub xla: Figures,
    /// DumpLab's module estimate.
    pub estimate: Estimate,
    /// The kernels, depth first in run order.
    pub kernels: Vec<Entry<'a>>,
    /// Instructions whose figures could not be read (their figures are
    /// left out of every sum).
    pub unread: u64,
}

/// Builds the ledger of a module.
pub fn build<'a>(m: &Module<'a>) -> Ledger<'a> {
    let tree = KernelTree::build(m);
    let mut x = Xla::new(m);
    let xla = x.totals();
    let mut kernels = Vec::new();
    let estimate = rows(&mut x, m, &tree, &tree.kernels, 0, Some(1), &mut kernels);
    Ledger {
        xla,
        estimate,
        kernels,
        unread: x.unread,
    }
}

/// Whether a row is control flow, costed through its regions.
fn is_control(k: &Kernel) -> bool {
    matches!(
        k.kind,
        KernelKind::Loop | KernelKind::Branch | KernelKind::Call
    )
}

/// Adds the entries of `rows` (and what they run) and gives their total
/// estimate.
fn rows<'a>(
    x: &mut Xla<'_, 'a>,
    m: &Module<'a>,
    tree: &KernelTree<'a>,
    rows_: &[Kernel],
    depth: usize,
    runs: Option<u64>,
    out: &mut Vec<Entry<'a>>,
) -> Estimate {
    let mut total = Estimate::default();
    for k in rows_ {
        if is_control(k) {
            total = add(&total, &control(x, m, tree, k, depth, runs, out));
            continue;
        }
        let Some(ins) = m.instruction(k.instruction) else {
            continue;
        };
        let xla = x.instruction(k.instruction);
        let mut estimate = estimate::estimate(x, ins, xla);
        if depth > 0 && k.kind != KernelKind::Async {
            estimate.reasons.push(if runs.is_some() {
                Reason::TripCount
            } else {
                Reason::TripCountUnknown
            });
            estimate.reasons.sort_unstable();
            estimate.reasons.dedup();
        }
        let entry = Entry {
            id: k.instruction,
            name: ins.name,
            kind: k.kind,
            detail: k.detail.clone(),
            line: ins.line,
            depth,
            runs,
            xla,
            estimate,
            source_lines: tree.source_lines(m, k),
        };
        total = add(&total, &entry.total());
        out.push(entry);
    }
    total
}

/// A loop (its body times its trip count, its condition once more), a
/// conditional (its largest branch) or a call (its callee).
fn control<'a>(
    x: &mut Xla<'_, 'a>,
    m: &Module<'a>,
    tree: &KernelTree<'a>,
    k: &Kernel,
    depth: usize,
    runs: Option<u64>,
    out: &mut Vec<Entry<'a>>,
) -> Estimate {
    let mut sum = Estimate::default();
    let mut branch: Option<Estimate> = None;
    for r in &k.regions {
        // A loop runs its body once per trip and its condition once more.
        let inner = match (k.kind, r.role) {
            (KernelKind::Loop, RegionRole::Body) => {
                runs.zip(k.trip_count).map(|(r, t)| r.saturating_mul(t))
            }
            (KernelKind::Loop, RegionRole::Condition) => runs
                .zip(k.trip_count)
                .map(|(r, t)| r.saturating_mul(t.saturating_add(1))),
            _ => runs,
        };
        let e = rows(x, m, tree, &r.kernels, depth + 1, inner, out);
        if matches!(r.role, RegionRole::Branch(_)) {
            branch = Some(match branch {
                Some(b) => larger(&b, &e),
                None => e,
            });
        } else {
            sum = add(&sum, &e);
        }
    }
    match branch {
        Some(b) => add(&sum, &b),
        None => sum,
    }
}

/// The sum of two estimates.
fn add(a: &Estimate, b: &Estimate) -> Estimate {
    let mut reasons = a.reasons.clone();
    reasons.extend(&b.reasons);
    reasons.sort_unstable();
    reasons.dedup();
    Estimate {
        figures: a.figures + b.figures,
        bytes_padded: a.bytes_padded + b.bytes_padded,
        bytes_on_chip: a.bytes_on_chip + b.bytes_on_chip,
        reasons,
    }
}

/// The larger of two branches' estimates, per figure.
fn larger(a: &Estimate, b: &Estimate) -> Estimate {
    let mut e = add(a, b);
    e.figures = a.figures.max(b.figures);
    e.bytes_padded = a.bytes_padded.max(b.bytes_padded);
    e.bytes_on_chip = a.bytes_on_chip.max(b.bytes_on_chip);
    e
}

/// An estimate times a count.
fn scale(e: &Estimate, n: f64) -> Estimate {
    let f = |x: Figure| Figure {
        known: x.known * n,
        unknown: x.unknown,
    };
    Estimate {
        figures: Figures {
            flops: f(e.figures.flops),
            transcendentals: f(e.figures.transcendentals),
            bytes: f(e.figures.bytes),
        },
        bytes_padded: f(e.bytes_padded),
        bytes_on_chip: e.bytes_on_chip * n,
        reasons: e.reasons.clone(),
    }
}
