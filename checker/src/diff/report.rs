//! The diff of two pasted dumps, as the command line and the page show it:
//! each paste repaired and analysed once (`analysis::analyze_with`), both
//! of one kind (two compiled modules, two lowered programs, two jaxprs),
//! then the diff that kind has; lines are the pastes' own.

use super::compiled::{self, CompiledDiff};
use super::lowered::{self, LoweredDiff};
use crate::Backend;
use crate::analysis::{self, Analysis, Kind, unwrap::Unwrapped};
use crate::cost::chips::Chip;
use crate::cost::ledger::Loops;
use crate::cost::roofline;
use crate::program::Module;

/// What the two dumps are and their diff.
pub enum Body<'a> {
    /// Two compiled modules.
    Compiled(Box<CompiledDiff<'a>>),
    /// Two lowered programs or two jaxprs.
    Lowered(LoweredDiff),
}

/// Everything the diff shows.
pub struct DiffReport<'a> {
    /// The kind both dumps are ([`Kind::Unknown`] for two HLO texts that
    /// prove neither kind, compared as lowered programs: see
    /// [`DiffReport::kind_unproved`]).
    pub kind: Kind,
    /// Both texts are HLO whose hints suggest a module before compilation
    /// but prove nothing either way: they are compared as lowered
    /// programs, and the report says their kind is not proved.
    pub kind_unproved: bool,
    /// The backend each names (the analysis's).
    pub backends: (Option<Backend>, Option<Backend>),
    /// The chip the lower bounds are on, when one was asked for.
    pub chip: Option<&'static Chip>,
    /// Why that chip, for each side (`asked for; the dump is compiled for a
    /// TPU: these are XLA:TPU's kernels on a GPU's peaks ...`).
    pub chip_why: (&'static str, &'static str),
    /// Whether each paste was repaired before it was read.
    pub repaired: (bool, bool),
    /// The diff.
    pub body: Body<'a>,
}

/// Why two dumps give no diff: one sentence, and whether the two are the
/// pair the source map reads instead (one compiled, the other lowered).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffError {
    /// The sentence (no final full stop), as the command line prints it.
    pub message: String,
    /// One dump is compiled HLO and the other a lowered program (StableHLO,
    /// a jaxpr, HLO before optimization, or HLO whose text proves neither
    /// kind): which side is the compiled one. `None` for every other error.
    pub compiled_side: Option<Side>,
}

/// One of the two dumps of a diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first (before).
    A,
    /// The second (after).
    B,
}

impl std::fmt::Display for DiffError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for DiffError {
    fn from(message: String) -> Self {
        DiffError {
            message,
            compiled_side: None,
        }
    }
}

/// Which of two analyses is the compiled one when the other is lowered (the
/// source map's pair; `unproved` says which HLO counts as lowered though its
/// text proves neither kind).
fn compiled_side(a: &Analysis, b: &Analysis, unproved: impl Fn(&Analysis) -> bool) -> Option<Side> {
    let lowered = |x: &Analysis| {
        matches!(x.kind, Kind::Stablehlo | Kind::Jaxpr | Kind::HloUnoptimized) || unproved(x)
    };
    match (a.kind, b.kind) {
        (Kind::HloOptimized, _) if lowered(b) => Some(Side::A),
        (_, Kind::HloOptimized) if lowered(a) => Some(Side::B),
        _ => None,
    }
}

/// A sentence naming what a dump is.
fn what(a: &Analysis) -> String {
    match (&a.kind, &a.reason) {
        (Kind::Unknown, _) if a.kind_guess == Some(Kind::HloUnoptimized) => {
            "HLO whose text proves neither kind (its hints suggest HLO before optimization, a guess)"
                .into()
        }
        (Kind::Unknown, Some(r)) => format!("text of unknown kind ({r})"),
        (Kind::HloOptimized, _) => "compiled HLO".into(),
        (Kind::HloUnoptimized, _) if a.kind_likely.is_some() => {
            "HLO before optimization (likely, not proved: only hints say so)".into()
        }
        (Kind::HloUnoptimized, _) => "HLO before optimization".into(),
        (Kind::Stablehlo, _) => "a lowered (StableHLO) module".into(),
        (Kind::Jaxpr, _) => "a jaxpr".into(),
        (k, _) => format!("a {k} dump"),
    }
}

/// Builds the diff of `a` and `b` (the lower bounds on the chip `asked`,
/// when given) and hands it to `f`. An error (one sentence) when the two
/// are not of one kind, either is of unknown kind, a compiled one has no
/// entry computation, or `asked` names no preset.
pub fn with_diff<R>(
    a: &str,
    b: &str,
    asked: Option<&str>,
    f: impl FnOnce(&DiffReport<'_>) -> R,
) -> Result<R, DiffError> {
    let chip = match asked {
        Some(name) => roofline::choose(Some(name), None)?.chip,
        None => None,
    };
    analysis::analyze_with(a, |aa, ra, ma| {
        analysis::analyze_with(b, |ab, rb, mb| {
            report_of(Read(&aa, ra, ma), Read(&ab, rb, mb), chip, f)
        })
    })
}

/// One dump as read: its analysis, its repaired text, its module.
struct Read<'r, 't, 'm>(&'r Analysis, &'r Unwrapped<'t>, &'r Module<'m>);

fn report_of<R>(
    a: Read<'_, '_, '_>,
    b: Read<'_, '_, '_>,
    chip: Option<&'static Chip>,
    f: impl FnOnce(&DiffReport<'_>) -> R,
) -> Result<R, DiffError> {
    // HLO with hints of a module before compilation and no proof: two of
    // them compare as lowered programs (the report says so); one beside
    // another kind is unknown.
    let unproved = |x: &Analysis| {
        x.dialect == Some(analysis::Dialect::Hlo)
            && ((x.kind == Kind::Unknown && x.kind_guess == Some(Kind::HloUnoptimized))
                || x.kind_likely.is_some())
    };
    let kind_unproved = unproved(a.0) && unproved(b.0);
    for (side, x) in [("A", a.0), ("B", b.0)] {
        if x.kind == Kind::Unknown && !unproved(x) {
            return Err(format!("{side} is {}: nothing to compare", what(x)).into());
        }
    }
    if a.0.kind != b.0.kind {
        return Err(DiffError {
            message: format!(
                "A is {}, B is {}: a diff compares two dumps of one kind (two compiled HLO modules, two StableHLO modules, two HLO modules before optimization or two jaxprs)",
                what(a.0),
                what(b.0)
            ),
            compiled_side: compiled_side(a.0, b.0, unproved),
        });
    }
    let body = if a.0.kind == Kind::HloOptimized {
        for (side, none, r) in [
            ("A", a.2.entry.is_none(), a.1),
            ("B", b.2.entry.is_none(), b.1),
        ] {
            if none {
                return Err(format!(
                    "{side} has no ENTRY computation: the diff compares what each entry computation runs{}",
                    analysis::invisible::hint(&r.text, &r.map)
                )
                .into());
            }
        }
        let mut d = compiled::diff(
            a.2,
            b.2,
            (Loops::of(a.0.backend), Loops::of(b.0.backend)),
            chip,
        );
        pasted_lines(&mut d.a.items, a.1);
        pasted_lines(&mut d.b.items, b.1);
        Body::Compiled(Box::new(d))
    } else {
        Body::Lowered(lowered::diff(&a.1.text, &b.1.text)?)
    };
    let why = |backend| {
        chip.and_then(|c| roofline::choose(Some(c.name), backend).ok())
            .map_or("", |c| c.why)
    };
    let report = DiffReport {
        chip_why: (why(a.0.backend), why(b.0.backend)),
        kind: a.0.kind,
        kind_unproved,
        backends: (a.0.backend, b.0.backend),
        chip,
        repaired: (!a.1.undone.is_empty(), !b.1.undone.is_empty()),
        body,
    };
    Ok(f(&report))
}

/// Lines of the repaired text as lines of the paste.
fn pasted_lines(items: &mut [super::item::Item<'_>], r: &Unwrapped<'_>) {
    if r.undone.is_empty() {
        return;
    }
    for i in items {
        i.line = r.map.get(i.line).0;
    }
}
