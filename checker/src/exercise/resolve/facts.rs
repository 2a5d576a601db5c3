//! The facts a `count` question can ask about: one row per fact in
//! [`FACTS`], with the dumps it applies to, what it counts and how, from the
//! analysis of the whole dump.

use super::kernels::{Counted, kernel_miscounts, kernel_note};
use crate::analysis::{Analysis, Kernel, Kind};
use std::collections::BTreeSet;

/// The dumps a fact applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    /// HLO text, compiled or not.
    Hlo,
    /// HLO text with a `while` loop.
    HloWithWhile,
    /// A jaxpr.
    Jaxpr,
}

impl Applies {
    /// How messages and `exercises/FORMAT.md` name these dumps.
    pub fn as_str(self) -> &'static str {
        match self {
            Applies::Hlo => "HLO",
            Applies::HloWithWhile => "HLO with a `while`",
            Applies::Jaxpr => "jaxpr",
        }
    }

    /// Whether a dump of `kind` with analysis `a` is one of these.
    fn fits(self, kind: Kind, a: &Analysis) -> bool {
        match self {
            Applies::Hlo => kind.is_hlo(),
            Applies::HloWithWhile => kind.is_hlo() && !a.while_loops.is_empty(),
            Applies::Jaxpr => kind == Kind::Jaxpr,
        }
    }
}

/// The lines a question shows, first and last (both included).
type Range = (usize, usize);

/// One fact a `count` question can ask about.
pub struct Fact {
    /// Its name in exercise files (`fact = "entry_kernels"`).
    pub name: &'static str,
    /// The dumps it applies to.
    pub applies: Applies,
    /// What it counts, as the hint says it.
    pub what: &'static str,
    /// The count in a dump's analysis, with the counted lines inside the
    /// shown range.
    count: fn(&Analysis, Range) -> Counted,
}

impl Fact {
    /// The count of this fact in `a`, lines inside `range` lit.
    pub(super) fn count(&self, a: &Analysis, range: Range) -> Counted {
        (self.count)(a, range)
    }

    /// Why this fact does not apply to a dump of `kind` (analysis `a`), if
    /// it does not.
    pub(super) fn mismatch(&self, kind: Kind, a: &Analysis) -> Option<String> {
        (!self.applies.fits(kind, a)).then(|| {
            format!(
                "fact `{}` applies to {} dumps, and this one is {kind}",
                self.name,
                self.applies.as_str()
            )
        })
    }
}

/// The facts a `count` question can ask about, each with the dumps it
/// applies to and what it counts (`exercises/FORMAT.md` has the table).
pub const FACTS: [Fact; 9] = [
    Fact {
        name: "entry_fusions",
        applies: Applies::Hlo,
        what: "`fusion` instructions in the entry computation",
        count: entry_fusions,
    },
    Fact {
        name: "entry_kernels",
        applies: Applies::Hlo,
        what: "kernels the entry computation launches itself: fusions, custom calls, copies and other ops that work on their own",
        count: entry_kernels,
    },
    Fact {
        name: "iteration_kernels",
        applies: Applies::HloWithWhile,
        what: "kernels one trip round the loop runs: the condition's once and the body's once",
        count: iteration_kernels,
    },
    Fact {
        name: "fusions",
        applies: Applies::Hlo,
        what: "`fusion` instructions anywhere, loop bodies and branches included",
        count: fusions,
    },
    Fact {
        name: "custom_calls",
        applies: Applies::Hlo,
        what: "`custom-call` instructions",
        count: custom_calls,
    },
    Fact {
        name: "while_loops",
        applies: Applies::Hlo,
        what: "`while` instructions",
        count: while_loops,
    },
    Fact {
        name: "conditionals",
        applies: Applies::Hlo,
        what: "`conditional` instructions",
        count: conditionals,
    },
    Fact {
        name: "computations",
        applies: Applies::Hlo,
        what: "computations, the entry and fused ones included",
        count: computations,
    },
    Fact {
        name: "equations",
        applies: Applies::Jaxpr,
        what: "equations of the top-level jaxpr, not those inside sub-jaxprs",
        count: equations,
    },
];

/// The fact named `name`.
pub(super) fn fact_named(name: &str) -> Option<&'static Fact> {
    FACTS.iter().find(|f| f.name == name)
}

/// Whether `line` is inside `range`.
fn inside(range: Range, line: usize) -> bool {
    line >= range.0 && line <= range.1
}

/// A count of listed items: each one inside the snippet lit, with its note.
fn listed(items: Vec<(usize, String)>, range: Range) -> Counted {
    Counted {
        value: items.len(),
        lines: items
            .into_iter()
            .filter(|(l, _)| inside(range, *l))
            .collect(),
        miscounts: Vec::new(),
    }
}

/// One likely miscount, unless it is the count itself.
fn miscount_unless_equal(value: usize, miscount: usize, why: &str) -> Vec<(usize, String)> {
    if value == miscount {
        Vec::new()
    } else {
        vec![(miscount, why.to_owned())]
    }
}

/// `fusion` instructions of the entry computation; counting every kernel is the likely miscount.
fn entry_fusions(a: &Analysis, range: Range) -> Counted {
    Counted {
        value: a.entry_fusions,
        lines: a
            .fusions
            .iter()
            .filter(|f| f.in_entry && inside(range, f.line))
            .map(|f| {
                (
                    f.line,
                    format!("`{}`: one fusion of kind `{}`.", f.name, f.kind),
                )
            })
            .collect(),
        miscounts: miscount_unless_equal(
            a.entry_fusions,
            a.entry_kernels().count(),
            "That counts every kernel of the entry computation; the question asks for `fusion` instructions only.",
        ),
    }
}

/// `fusion` instructions anywhere; the entry computation's alone is the likely miscount.
fn fusions(a: &Analysis, range: Range) -> Counted {
    Counted {
        value: a.fusions.len(),
        lines: a
            .fusions
            .iter()
            .filter(|f| inside(range, f.line))
            .map(|f| {
                (
                    f.line,
                    format!("`{}`: one fusion of kind `{}`.", f.name, f.kind),
                )
            })
            .collect(),
        miscounts: miscount_unless_equal(
            a.fusions.len(),
            a.entry_fusions,
            "That is the entry computation's fusions; count those in loop bodies and branches too.",
        ),
    }
}

/// A count of kernels, each lit with its note.
fn kernels(ks: &[&Kernel], range: Range, miscounts: Vec<(usize, String)>) -> Counted {
    Counted {
        value: ks.len(),
        lines: ks
            .iter()
            .filter(|k| inside(range, k.line))
            .map(|k| (k.line, kernel_note(k)))
            .collect(),
        miscounts,
    }
}

/// The kernels the entry computation launches itself.
fn entry_kernels(a: &Analysis, range: Range) -> Counted {
    let ks: Vec<&Kernel> = a.entry_kernels().collect();
    kernels(&ks, range, kernel_miscounts(&ks))
}

/// The kernels one trip round a loop runs; the body alone is the first likely miscount.
fn iteration_kernels(a: &Analysis, range: Range) -> Counted {
    let ks = a.iteration_kernels();
    let mut miscounts = kernel_miscounts(&ks);
    let bodies: BTreeSet<&str> = a
        .while_loops
        .iter()
        .filter_map(|w| w.body.as_deref())
        .collect();
    let in_body = ks
        .iter()
        .filter(|k| bodies.contains(k.computation.as_str()))
        .count();
    if in_body != ks.len() {
        miscounts.insert(
            0,
            (
                in_body,
                "That is the body alone: the condition runs each time round too, once more than the body.".to_owned(),
            ),
        );
    }
    kernels(&ks, range, miscounts)
}

/// `custom-call` instructions.
fn custom_calls(a: &Analysis, range: Range) -> Counted {
    let items = a.custom_calls.iter().map(|x| {
        (
            x.line,
            format!("`{}`: a custom call to `{}`.", x.name, x.target),
        )
    });
    listed(items.collect(), range)
}

/// `while` instructions.
fn while_loops(a: &Analysis, range: Range) -> Counted {
    let items = a
        .while_loops
        .iter()
        .map(|x| (x.line, format!("`{}`: a `while` loop.", x.name)));
    listed(items.collect(), range)
}

/// `conditional` instructions.
fn conditionals(a: &Analysis, range: Range) -> Counted {
    let items = a
        .conditionals
        .iter()
        .map(|x| (x.line, format!("`{}`: a `conditional`.", x.name)));
    listed(items.collect(), range)
}

/// Computations, the entry and fused ones included.
fn computations(a: &Analysis, range: Range) -> Counted {
    let items = a
        .computations
        .iter()
        .map(|x| (x.line, format!("`{}`: one computation.", x.name)));
    listed(items.collect(), range)
}

/// Equations of the top-level jaxpr; counting those of sub-jaxprs too is the likely miscount.
fn equations(a: &Analysis, range: Range) -> Counted {
    let top = a.equations.iter().filter(|e| e.depth == 0).count();
    Counted {
        value: top,
        lines: a
            .equations
            .iter()
            .filter(|e| e.depth == 0 && inside(range, e.line))
            .map(|e| (e.line, format!("One `{}` equation.", e.primitive)))
            .collect(),
        miscounts: miscount_unless_equal(
            top,
            a.equations.len(),
            "That counts the equations inside sub-jaxprs too; only the top-level ones count.",
        ),
    }
}
