//! Deciding the kind and backend from the clues the parsers counted.
//!
//! Three families of clues (jaxpr, MLIR/StableHLO, HLO) are told apart by
//! syntax that the other two never print. Within HLO, compiled and
//! uncompiled modules look alike line by line, so only clues that one of them
//! alone can show count (a fusion, `is_scheduled=true`, a tiled layout, ...
//! against a header without `is_scheduled`, XLA's signature-less printing of
//! `as_text(dialect="hlo")`, ...). When the families or the two HLO kinds
//! both have clues, the answer is `unknown`, never a guess.

use super::claims::Claim;
use super::markers::M;
use super::{Analysis, Backend, Kind, Sink};

// The clues of each family, kind and backend are rows of the claim table
// (`claims.rs`): the one place that says which markers prove what.
fn jaxpr() -> &'static [M] {
    Claim::Jaxpr.markers()
}
fn mlir() -> &'static [M] {
    Claim::Stablehlo.markers()
}
fn hlo() -> &'static [M] {
    Claim::Hlo.markers()
}
/// Clues that only compilation leaves.
fn optimized() -> &'static [M] {
    Claim::Compiled.markers()
}
/// Clues of a module before compilation: the header without
/// `is_scheduled`, and the habits of the printer that only prints such
/// modules (`as_text(dialect="hlo")`).
fn unoptimized_total(sink: &Sink) -> usize {
    total(sink, Claim::NotCompiled.markers()) + total(sink, Claim::LoweredHlo.markers())
}
fn unoptimized_first(sink: &Sink) -> (usize, &'static str) {
    Claim::NotCompiled
        .markers()
        .iter()
        .chain(Claim::LoweredHlo.markers())
        .filter(|m| sink.count(**m) > 0)
        .map(|m| (sink.first(*m), m.name()))
        .min()
        .unwrap_or((0, ""))
}

fn total(sink: &Sink, ms: &[M]) -> usize {
    ms.iter().map(|m| sink.count(*m)).sum()
}

/// The first line and marker name of the earliest clue among `ms`.
fn first(sink: &Sink, ms: &[M]) -> (usize, &'static str) {
    ms.iter()
        .filter(|m| sink.count(**m) > 0)
        .map(|m| (sink.first(*m), m.name()))
        .min()
        .unwrap_or((0, ""))
}

pub(crate) fn decide(a: &mut Analysis, sink: &Sink) {
    let families = [
        (
            "a jaxpr",
            Kind::Jaxpr,
            total(sink, jaxpr()),
            first(sink, jaxpr()),
        ),
        (
            "StableHLO (MLIR)",
            Kind::Stablehlo,
            total(sink, mlir()),
            first(sink, mlir()),
        ),
        (
            "HLO",
            Kind::HloOptimized,
            total(sink, hlo()),
            first(sink, hlo()),
        ),
    ];
    let present: Vec<_> = families.iter().filter(|f| f.2 > 0).collect();
    let fam = match present.as_slice() {
        [] => {
            a.kind = Kind::Unknown;
            a.reason = Some(
                "No line looks like a jaxpr (`{ lambda ... let`), StableHLO (`stablehlo.` ops, `tensor<...>`) or HLO (`name = shape opcode(...)`)."
                    .to_owned(),
            );
            return;
        }
        [one] => one,
        [x, y, ..] => {
            a.kind = Kind::Unknown;
            a.reason = Some(format!(
                "The clues contradict each other: line {} looks like {} (`{}`) but line {} looks like {} (`{}`).",
                x.3.0, x.0, x.3.1, y.3.0, y.0, y.3.1
            ));
            return;
        }
    };
    if fam.1 != Kind::HloOptimized {
        a.kind = fam.1;
        return;
    }
    let opt = total(sink, optimized());
    let unopt = unoptimized_total(sink);
    a.kind = match (opt > 0, unopt > 0) {
        (true, false) => Kind::HloOptimized,
        (false, true) => Kind::HloUnoptimized,
        (true, true) => {
            let (ol, om) = first(sink, optimized());
            let (ul, um) = unoptimized_first(sink);
            a.reason = Some(format!(
                "This is HLO, but its clues contradict each other: line {ol} shows compilation (`{om}`) while line {ul} shows a module before compilation (`{um}`)."
            ));
            Kind::Unknown
        }
        (false, false) => {
            a.reason = Some(
                "This is HLO, but nothing here shows whether XLA compiled it: no fusion, no `is_scheduled=true`, no module header. Layouts alone do not tell, XLA prints them before compilation too."
                    .to_owned(),
            );
            Kind::Unknown
        }
    };
    if a.kind == Kind::HloOptimized {
        let votes = Backend::ALL.map(|b| (b, total(sink, Claim::of_backend(b).markers())));
        let mut with = votes.iter().filter(|v| v.1 > 0);
        if let (Some(b), None) = (with.next(), with.next()) {
            a.backend = Some(b.0);
        }
    }
}

/// Whether evidence of marker `m` decides `kind` (and, for compiled HLO,
/// the backend): what a report should show first.
pub(crate) fn decides(kind: Kind, m: M) -> bool {
    match kind {
        Kind::HloOptimized => [Claim::Compiled, Claim::Cpu, Claim::Gpu, Claim::Tpu]
            .iter()
            .any(|c| c.proven_by_marker(m)),
        other => Claim::deciding_kind(other)
            .iter()
            .any(|c| c.proven_by_marker(m)),
    }
}
