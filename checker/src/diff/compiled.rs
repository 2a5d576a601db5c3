//! The diff of two compiled modules: their rows matched
//! ([`super::matching`]), what changed in each pair ([`super::changes`]),
//! the copies and transposes B brings in, and what the change costs: XLA's
//! module figures from the ledger, and with a chip each module's lower
//! bound on it.

use super::changes::{self, Changes, ModuleChanges};
use super::item::{self, Item};
use super::matching::{self, Matching};
use crate::cost::chips::Chip;
use crate::cost::figures::Figures;
use crate::cost::ledger::{self, Loops};
use crate::cost::roofline;
use crate::kernels::{KernelKind, KernelTree};
use crate::program::Module;

/// How a copy or transpose came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// A row of B with no partner.
    Added,
    /// A row of B that is a part of a split or merge, where the whole is
    /// of another kind.
    Regrouped,
    /// A matched row that became one.
    Became,
    /// A matched fusion that runs the opcode inside and did not.
    FusedIn,
}

impl How {
    /// The name in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            How::Added => "added",
            How::Regrouped => "regrouped",
            How::Became => "became",
            How::FusedIn => "fused-in",
        }
    }
}

/// A copy or transpose that B runs and A did not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Introduced {
    /// Index into B's items.
    pub b: usize,
    /// `copy` or `transpose`.
    pub what: &'static str,
    /// How.
    pub how: How,
}

/// One side of the diff.
#[derive(Clone, Debug, PartialEq)]
pub struct Side<'a> {
    /// Its rows, depth first in run order.
    pub items: Vec<Item<'a>>,
    /// XLA's module figures.
    pub xla: Figures,
    /// The sum of its kernels' lower bounds on the chip asked for.
    pub lower_bound_s: Option<f64>,
    /// Bytes XLA counts outside any row (tuples' index tables, the `-done`
    /// halves of asynchronous copies): in `xla`, in no row's figure.
    pub not_kernel_bytes: f64,
}

/// The diff of two compiled modules.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledDiff<'a> {
    /// A.
    pub a: Side<'a>,
    /// B.
    pub b: Side<'a>,
    /// Which rows are which.
    pub matching: Matching,
    /// The pairs that differ: index into `matching.pairs`, and what.
    pub changed: Vec<(usize, Changes)>,
    /// Copies and transposes B brings in.
    pub introduced: Vec<Introduced>,
    /// What differs outside the rows.
    pub module: ModuleChanges,
}

impl CompiledDiff<'_> {
    /// Whether the two modules run the same rows in the same order.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty()
            && self.matching.added.is_empty()
            && self.matching.removed.is_empty()
            && self.matching.split.is_empty()
            && self.matching.merged.is_empty()
            && self.module.is_empty()
    }
}

/// One side, read.
/// One side, read: XLA's figures alone, and with a chip the whole ledger
/// for the lower bound (its estimate is what the roofline reads).
fn side<'a>(m: &Module<'a>, loops: Loops, chip: Option<&Chip>) -> Side<'a> {
    let tree = KernelTree::build(m);
    let Some(chip) = chip else {
        let f = ledger::xla_on(m, &tree);
        return Side {
            items: item::items(m, &tree, &f.kernels),
            xla: f.xla,
            lower_bound_s: None,
            not_kernel_bytes: f.not_kernel_bytes,
        };
    };
    let ledger = ledger::build_on(m, &tree, loops);
    let figures = ledger.kernels.iter().map(|e| (e.id, e.xla)).collect();
    Side {
        items: item::items(m, &tree, &figures),
        xla: ledger.xla,
        lower_bound_s: Some(roofline::on_chip(m, &ledger, chip).lower_bound_s),
        not_kernel_bytes: ledger.not_kernel_bytes,
    }
}

/// The diff of `a` and `b`, each with how its backend runs loops; `chip`
/// for the lower bounds.
pub fn diff<'c, 'x: 'c, 'y: 'c>(
    a: &Module<'x>,
    b: &Module<'y>,
    loops: (Loops, Loops),
    chip: Option<&Chip>,
) -> CompiledDiff<'c> {
    let sa: Side<'c> = side(a, loops.0, chip);
    let sb: Side<'c> = side(b, loops.1, chip);
    let matching = matching::match_items(&sa.items, &sb.items);
    let changed: Vec<(usize, Changes)> = matching
        .pairs
        .iter()
        .enumerate()
        .filter_map(|(n, p)| {
            let (x, y) = (&sa.items[p.a], &sb.items[p.b]);
            let c = changes::changes(x, y, || {
                let list = |m: &Module<'_>, i: &Item<'_>| {
                    m.instruction(i.id)
                        .map(|ins| item::details(m, ins, i.kind))
                        .unwrap_or_default()
                };
                (list(a, x), list(b, y))
            });
            (!c.is_empty()).then_some((n, c))
        })
        .collect();
    let introduced = introduced(&sa.items, &sb.items, &matching, &changed);
    let module = changes::module_changes(a, b, &matching.pairs);
    CompiledDiff {
        a: sa,
        b: sb,
        matching,
        changed,
        introduced,
        module,
    }
}

/// `copy` or `transpose`, for a row that is one: of that kind, or a
/// fusion whose root is one (XLA:GPU's transpose fusions).
fn moving(i: &Item<'_>) -> Option<&'static str> {
    match (i.kind, i.root) {
        (KernelKind::Copy, _) | (KernelKind::Fusion, "copy") => Some("copy"),
        (KernelKind::Transpose, _) | (KernelKind::Fusion, "transpose") => Some("transpose"),
        _ => None,
    }
}

/// The copies and transposes of B that A did not run, in B's run order.
fn introduced(
    a: &[Item<'_>],
    b: &[Item<'_>],
    m: &Matching,
    changed: &[(usize, Changes)],
) -> Vec<Introduced> {
    let mut out = Vec::new();
    for &j in &m.added {
        if let Some(what) = moving(&b[j]) {
            out.push(Introduced {
                b: j,
                what,
                how: How::Added,
            });
        }
    }
    for g in &m.split {
        for &j in &g.parts {
            if let Some(what) = moving(&b[j]).filter(|_| moving(&a[g.whole]).is_none()) {
                out.push(Introduced {
                    b: j,
                    what,
                    how: How::Regrouped,
                });
            }
        }
    }
    for g in &m.merged {
        let whole = &b[g.whole];
        if let Some(what) = moving(whole)
            && g.parts.iter().all(|&i| moving(&a[i]).is_none())
        {
            out.push(Introduced {
                b: g.whole,
                what,
                how: How::Regrouped,
            });
        }
    }
    for (n, c) in changed {
        let p = m.pairs[*n];
        match (c.kind, moving(&b[p.b])) {
            (Some(_), Some(what)) if moving(&a[p.a]).is_none() => {
                out.push(Introduced {
                    b: p.b,
                    what,
                    how: How::Became,
                });
            }
            _ => {
                for what in ["copy", "transpose"] {
                    if b[p.b].kind == KernelKind::Fusion && c.ops_in.iter().any(|o| o == what) {
                        out.push(Introduced {
                            b: p.b,
                            what,
                            how: How::FusedIn,
                        });
                    }
                }
            }
        }
    }
    out.sort_by_key(|i| (i.b, i.what));
    out.dedup();
    out
}
