//! The ledger of a module: one entry per kernel of the kernel tree (the
//! entry computation's kernels in run order, a loop's body and condition
//! kernels under it, a conditional's branches, a call's callee), each with
//! XLA's figures and DumpLab's estimate, and the module's totals.
//!
//! Totals: XLA's are its module figures (every instruction of the entry
//! computation, as `hlo_module_cost_analysis` sums them: a loop body once,
//! the larger branch of a conditional). The estimate's are the kernels'
//! estimates, a loop's body kernels times its stated trip count (its
//! condition's never on XLA:CPU and XLA:GPU, whose `WhileThunk` runs a
//! counted loop's body without evaluating the condition), the largest
//! branch of a conditional per figure; tuples' index tables, which XLA
//! counts as bytes, are no kernel's and are left out.

use super::estimate::{self, Estimate, Reason};
use super::figures::{Figure, Figures};
use super::xla::Xla;
use crate::kernels::{Kernel, KernelKind, KernelTree, RegionRole};
use crate::program::{CompId, InstrId, Module};

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
    /// of the loops around it (0 for the condition of a counted loop on a
    /// backend that never evaluates it); `None` when a loop around it
    /// states none, or for a counted loop's condition on a backend whose
    /// loops the dump does not explain (then counted once, as XLA does).
    pub runs: Option<u64>,
    /// XLA's figures of one run.
    pub xla: Figures,
    /// DumpLab's estimate of one run.
    pub estimate: Estimate,
    /// Its source lines (file, line), sorted.
    pub source_lines: Vec<(&'a str, u32)>,
    /// XLA:TPU's own estimate of its cycles (`"estimated_cycles"` in its
    /// `backend_config`), when the dump carries one: the compiler's
    /// estimate, not a measurement.
    pub estimated_cycles: Option<u64>,
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
    /// Bytes XLA counts for instructions that launch nothing (tuples' index
    /// tables, the `-done` half of an asynchronous copy, ...), in the
    /// computations the kernels run in, each once: in XLA's total, in no
    /// kernel's.
    pub not_kernel_bytes: f64,
}

/// How a backend runs a `while` whose trip count its `backend_config`
/// states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loops {
    /// The body that many times, the condition never (XLA:CPU's and
    /// XLA:GPU's `WhileThunk` with a known trip count).
    BodyOnly,
    /// Not known from the dump (a TPU, or no backend named): the condition
    /// counted once, as XLA counts it.
    Unknown,
}

impl Loops {
    /// What the analysis' backend says.
    pub fn of(backend: Option<crate::Backend>) -> Loops {
        match backend {
            Some(crate::Backend::Cpu | crate::Backend::Gpu) => Loops::BodyOnly,
            _ => Loops::Unknown,
        }
    }
}

/// Builds the ledger of a module compiled for a backend whose loops run as
/// `loops` says.
pub fn build<'a>(m: &Module<'a>, loops: Loops) -> Ledger<'a> {
    build_on(m, &KernelTree::build(m), loops)
}

/// [`build`] on the module's kernel tree, built already: the diff reads the
/// tree too (on the 50 MB modules of `cargo bench --bench diff`, building
/// it is 35-45% of the ledger's time).
pub fn build_on<'a>(m: &Module<'a>, tree: &KernelTree<'a>, loops: Loops) -> Ledger<'a> {
    let mut x = Xla::new(m);
    let xla = x.totals();
    let mut kernels = Vec::new();
    let mut w = Walk {
        x: &mut x,
        m,
        tree,
        loops,
        out: &mut kernels,
    };
    let mut estimate = w.rows(&tree.kernels, 0, Some(1), false);
    let not_kernel_bytes = not_kernel_bytes(&mut x, m, tree);
    if not_kernel_bytes > 0.0 {
        estimate.reasons.push(Reason::NotAKernel);
        estimate.reasons.sort_unstable();
    }
    Ledger {
        xla,
        estimate,
        kernels,
        unread: x.unread,
        not_kernel_bytes,
    }
}

/// XLA's figures alone, without DumpLab's estimate: the module's, each
/// kernel's of one run (control flow has none), and the bytes XLA counts
/// outside any kernel, as [`build_on`] has them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct XlaFigures {
    /// XLA's module figures.
    pub xla: Figures,
    /// Each kernel's figures, by instruction.
    pub kernels: std::collections::HashMap<InstrId, Figures>,
    /// As [`Ledger::not_kernel_bytes`].
    pub not_kernel_bytes: f64,
}

/// [`XlaFigures`] of a module on its kernel tree: what a reader that needs
/// no estimate (the diff) reads, at a part of [`build_on`]'s work.
pub fn xla_on<'a>(m: &Module<'a>, tree: &KernelTree<'a>) -> XlaFigures {
    let mut x = Xla::new(m);
    let xla = x.totals();
    let kernels = tree
        .walk()
        .into_iter()
        .filter(|(_, k)| !is_control(k))
        .map(|(_, k)| (k.instruction, x.instruction(k.instruction)))
        .collect();
    let not_kernel_bytes = not_kernel_bytes(&mut x, m, tree);
    XlaFigures {
        xla,
        kernels,
        not_kernel_bytes,
    }
}

/// XLA's bytes of the instructions without a row in the computations the
/// tree runs (the entry, loop bodies and conditions, branches, callees).
fn not_kernel_bytes(x: &mut Xla<'_, '_>, m: &Module<'_>, tree: &KernelTree<'_>) -> f64 {
    let mut comps: Vec<CompId> = m.entry.into_iter().collect();
    let mut stack: Vec<&Kernel> = tree.kernels.iter().collect();
    while let Some(k) = stack.pop() {
        for r in &k.regions {
            comps.push(r.computation);
            stack.extend(r.kernels.iter());
        }
    }
    comps.sort_unstable();
    comps.dedup();
    let mut total = 0.0;
    for c in comps {
        for ins in m.instructions_of(c) {
            if !crate::kernels::has_row(ins.opcode) {
                total += x.instruction(ins.id).bytes.known;
            }
        }
    }
    total
}

/// The `"estimated_cycles":"10472"` of a TPU kernel's `backend_config`.
pub fn estimated_cycles(config: &str) -> Option<u64> {
    let at = config.find("\"estimated_cycles\":")? + "\"estimated_cycles\":".len();
    let v = config.get(at..)?.trim_start();
    let v = v.strip_prefix('"').unwrap_or(v);
    let d = v.bytes().take_while(u8::is_ascii_digit).count();
    v.get(..d)?.parse().ok()
}

/// Whether a row is control flow, costed through its regions.
fn is_control(k: &Kernel) -> bool {
    matches!(
        k.kind,
        KernelKind::Loop | KernelKind::Branch | KernelKind::Call
    )
}

/// One walk of the kernel tree.
struct Walk<'w, 'm, 'a> {
    x: &'w mut Xla<'m, 'a>,
    m: &'m Module<'a>,
    tree: &'w KernelTree<'a>,
    loops: Loops,
    out: &'w mut Vec<Entry<'a>>,
}

impl<'a> Walk<'_, '_, 'a> {
    /// Adds the entries of `rows` (and what they run) and gives their total
    /// estimate; `derived`: a loop around them runs the trip count its text
    /// implies.
    fn rows(
        &mut self,
        rows: &[Kernel],
        depth: usize,
        runs: Option<u64>,
        derived: bool,
    ) -> Estimate {
        let mut total = Estimate::default();
        for k in rows {
            if is_control(k) {
                total = add(&total, &self.control(k, depth, runs, derived));
                continue;
            }
            let Some(ins) = self.m.instruction(k.instruction) else {
                continue;
            };
            let xla = self.x.instruction(k.instruction);
            let mut estimate = estimate::estimate(self.x, ins, xla);
            if depth > 0 && k.kind != KernelKind::Async {
                estimate.reasons.push(match runs {
                    Some(0) => Reason::ConditionNotRun,
                    Some(_) if derived => Reason::TripCountDerived,
                    Some(_) => Reason::TripCount,
                    None => Reason::TripCountUnknown,
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
                source_lines: self.tree.source_lines(self.m, k),
                estimated_cycles: ins.backend_config().and_then(estimated_cycles),
            };
            total = add(&total, &entry.total());
            self.out.push(entry);
        }
        total
    }

    /// A loop (its body times its trip count; its condition never where the
    /// backend runs a counted loop without it, else once), a conditional
    /// (its largest branch) or a call (its callee).
    fn control(&mut self, k: &Kernel, depth: usize, runs: Option<u64>, derived: bool) -> Estimate {
        let mut sum = Estimate::default();
        let mut branch: Option<Estimate> = None;
        // The stated trip count, else the one the loop's text implies.
        let implied = match (k.kind, k.trip_count) {
            (KernelKind::Loop, None) => self
                .m
                .instruction(k.instruction)
                .and_then(|w| super::trips::derived(self.m, w)),
            _ => None,
        };
        let trips = k.trip_count.or(implied);
        for r in &k.regions {
            let inner = match (k.kind, r.role) {
                (KernelKind::Loop, RegionRole::Body) => {
                    runs.zip(trips).map(|(r, t)| r.saturating_mul(t))
                }
                (KernelKind::Loop, RegionRole::Condition) => match (k.trip_count, self.loops) {
                    (Some(_), Loops::BodyOnly) => runs.map(|_| 0),
                    _ => None,
                },
                _ => runs,
            };
            let body = implied.is_some() && r.role == RegionRole::Body;
            let e = self.rows(&r.kernels, depth + 1, inner, derived || body);
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
