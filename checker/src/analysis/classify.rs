//! Deciding the kind and backend from the clues the parsers counted.
//!
//! Three families of clues (jaxpr, MLIR/StableHLO, HLO) are told apart by
//! syntax that the other two never print. Within HLO, compiled and
//! uncompiled modules look alike line by line, so only clues that one of them
//! alone can show count (a fusion, `is_scheduled=true`, a tiled layout, ...
//! against a header without `is_scheduled`, XLA's signature-less printing of
//! `as_text(dialect="hlo")`, ...). When the families or the two HLO kinds
//! both have clues, the answer is `unknown`, never a guess.

use super::markers::M;
use super::{Analysis, Backend, Kind, Sink};

const JAXPR: &[M] = &[
    M::JaxprLambda,
    M::JaxprEquation,
    M::JaxprIn,
    M::JaxprLet,
    M::JaxprSubjaxpr,
];
const MLIR: &[M] = &[
    M::StablehloOp,
    M::MlirTensorType,
    M::MlirLoc,
    M::FuncFunc,
    M::FuncMain,
    M::MlirModule,
];
const HLO: &[M] = &[
    M::HloModuleHeader,
    M::HloInstruction,
    M::ComputationHeader,
    M::UnsignedComputation,
    M::StackFrames,
    M::EntryComputation,
];
/// Clues only a compiled module has, then the custom calls that name a
/// backend (last, so that [`OPTIMIZED`] is a prefix): what decides a
/// compiled module's kind and backend.
const OPTIMIZED_AND_BACKEND: &[M] = &[
    M::IsScheduled,
    M::FusionKind,
    M::FusedParameter,
    M::TpuTiledLayout,
    M::MemorySpace,
    M::AsyncOp,
    M::LayoutOp,
    M::GpuBackendConfig,
    M::CpuBackendConfig,
    M::TpuBackendConfig,
    M::SchedulingName,
    M::GpuCustomCall,
    M::CpuCustomCall,
    M::TpuCustomCall,
];
/// How many backend custom-call markers end [`OPTIMIZED_AND_BACKEND`]: a
/// custom call names a backend but does not prove compilation.
const BACKEND_CUSTOM_CALLS: usize = 3;
/// Clues that only compilation leaves.
const OPTIMIZED: &[M] = OPTIMIZED_AND_BACKEND
    .split_at(OPTIMIZED_AND_BACKEND.len() - BACKEND_CUSTOM_CALLS)
    .0;
const UNOPTIMIZED: &[M] = &[
    M::NotScheduled,
    M::UnsignedComputation,
    M::BareNames,
    M::ShardingCustomCall,
];

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
            total(sink, JAXPR),
            first(sink, JAXPR),
        ),
        (
            "StableHLO (MLIR)",
            Kind::Stablehlo,
            total(sink, MLIR),
            first(sink, MLIR),
        ),
        (
            "HLO",
            Kind::HloOptimized,
            total(sink, HLO),
            first(sink, HLO),
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
    let opt = total(sink, OPTIMIZED);
    let unopt = total(sink, UNOPTIMIZED);
    a.kind = match (opt > 0, unopt > 0) {
        (true, false) => Kind::HloOptimized,
        (false, true) => Kind::HloUnoptimized,
        (true, true) => {
            let (ol, om) = first(sink, OPTIMIZED);
            let (ul, um) = first(sink, UNOPTIMIZED);
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
        let votes = [
            (
                Backend::Cpu,
                sink.count(M::CpuBackendConfig) + sink.count(M::CpuCustomCall),
            ),
            (
                Backend::Gpu,
                sink.count(M::GpuBackendConfig)
                    + sink.count(M::GpuCustomCall)
                    + sink.count(M::SchedulingName),
            ),
            (
                Backend::Tpu,
                sink.count(M::TpuBackendConfig)
                    + sink.count(M::TpuCustomCall)
                    + sink.count(M::TpuTiledLayout),
            ),
        ];
        let mut with = votes.iter().filter(|v| v.1 > 0);
        if let (Some(b), None) = (with.next(), with.next()) {
            a.backend = Some(b.0);
        }
    }
}

/// The markers whose evidence decides `kind` (and, for compiled HLO, the
/// backend): what a report should show first.
pub(crate) fn deciding(kind: Kind) -> &'static [M] {
    match kind {
        Kind::Jaxpr => JAXPR,
        Kind::Stablehlo => MLIR,
        Kind::HloUnoptimized => UNOPTIMIZED,
        Kind::HloOptimized => OPTIMIZED_AND_BACKEND,
        Kind::Unknown => &[],
    }
}
