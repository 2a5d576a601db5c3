//! Deciding the kind, dialect and backend from the clues the parsers
//! counted, by rules written down as data.
//!
//! Three families of clues (jaxpr, MLIR/StableHLO, HLO) are told apart by
//! syntax that the other two never print (the `jaxpr`, `stablehlo` and `hlo`
//! rows of the claim table). Within HLO, compiled and uncompiled modules look
//! alike line by line, so the [`RULES`] say which clues can tell them apart
//! and how much each weighs. The table, with each rule's verdict, weight,
//! when it counts, its markers and why, is printed in `fixtures/MARKERS.md` ("Rules: compiled or not, and the
//! backend"; generated from [`RULES`] by `mdbook-dumplab markers`, kept
//! current by a test).
//!
//! A header without `is_scheduled=true` counts, as a hint, only in a text
//! that runs from it to the `ENTRY` computation: JAX up to 0.4.26 printed
//! compiled modules without the flag, so next to a few lines the header
//! suggests nothing; XLA prints every computation before the entry, fused
//! ones included, so a text read from the header to the entry without
//! compiler work on the way suggests a module before compilation. It is
//! still no proof: a compiled module with no fusion and no other compiler
//! work reads the same (one was reported from the TensorFlow 2.10 era: an
//! XLA:GPU module holding only copy insertion's copies and a renamed
//! constant).
//!
//! Only proof decides, and proof on one side only: a module with fusions
//! and `param_N` names is compiled even when its header lacks
//! `is_scheduled=true`, as older printers, XLA's reducing tools and
//! hand-built test modules print it. A hint never decides alone: with no
//! proof on either side the kind is `unknown`, its reason names the hints
//! found (a line of each) and the proof that is missing, and the side the
//! hints point to is kept apart as [`Analysis::kind_guess`], which no
//! answer reads (as [`Analysis::backend_guess`] is for the backend). A
//! clue that only corroborates never even suggests (TensorFlow's bridge
//! emits `copy`s for return values before any pass runs). When both sides
//! hold proof, the answer is `unknown` and the reason names a line of
//! each: never a guess.
//!
//! The backend is reported only when a clue names one, whatever the kind
//! ([`BackendBasis::Evidence`]). A compiled module with no clue at all has
//! no backend: XLA:CPU often leaves none, but a ROCm compile, a module
//! whose only custom call is a third party's, or a bare PyTorch/XLA header
//! shows none either. It gets a reason and a guess kept apart
//! ([`Analysis::backend_guess`]: CPU), which no answer reads.

use super::claims::Claim;
use super::markers::M;
use super::model::{Analysis, Backend, BackendBasis, Dialect, Evidence, Kind};
use super::sink::Sink;

/// What a rule's clues say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// XLA compiled the module.
    Compiled,
    /// Nobody has compiled the module yet.
    NotCompiled,
    /// The module was built for this backend (says nothing of the kind).
    Backend(Backend),
}

/// How much a rule's clues weigh against the other side's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weight {
    /// Agrees with a verdict but never decides one alone.
    Corroborates,
    /// Suggests a guess ([`Analysis::kind_guess`]) but never decides: the
    /// other side's printers can print it too.
    Hint,
    /// Only one side can print it.
    Proof,
}

impl Weight {
    /// The name the rule table prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Weight::Corroborates => "corroborates",
            Weight::Hint => "hint",
            Weight::Proof => "proof",
        }
    }
}

/// When a rule's clues count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Wherever they are.
    Always,
    /// Only in a text that holds the module header and reaches the `ENTRY`
    /// computation: what the rule reads is an absence of compiler work, and
    /// XLA prints every computation before the entry (fused computations
    /// included), so only a text read from the header to the entry can
    /// show that absence.
    EntryReached,
    /// Only in a text that holds the module header: jaxlib 0.4.13's XLA
    /// dump folders printed compiled modules in the same short style as
    /// `as_text(dialect="hlo")`, so a few lines from the middle of one
    /// cannot tell; from the header on, a compiled module's fused
    /// computations come first.
    HeaderSeen,
}

impl When {
    /// The phrase the rule table prints.
    pub fn as_str(self) -> &'static str {
        match self {
            When::Always => "always",
            When::EntryReached => "from the module header to the `ENTRY` computation",
            When::HeaderSeen => "with the module header",
        }
    }

    fn holds(self, sink: &Sink) -> bool {
        match self {
            When::Always => true,
            When::EntryReached => sink.entry_seen,
            When::HeaderSeen => sink.count(M::HloModuleHeader) > 0,
        }
    }
}

/// One rule: a name, what its clues say, how much they weigh, when they
/// count, the markers that are its clues, and why, in a sentence.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// The rule's name (reported as [`Analysis::kind_rule`]).
    pub name: &'static str,
    /// What the clues say.
    pub verdict: Verdict,
    /// How much they weigh.
    pub weight: Weight,
    /// When they count.
    pub when: When,
    markers: &'static [M],
    /// Why the clues say so.
    pub why: &'static str,
}

impl Rule {
    /// The names of the markers that are this rule's clues.
    pub fn marker_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.markers.iter().map(|m| m.name())
    }
}

/// Every rule of the compiled/not-compiled decision and of the backend, in
/// the order of the table in the module docs.
pub const RULES: [Rule; 13] = [
    Rule {
        name: "scheduled",
        verdict: Verdict::Compiled,
        weight: Weight::Proof,
        when: When::Always,
        markers: &[M::IsScheduled],
        why: "only compilation schedules a module, and the header says so with `is_scheduled=true`",
    },
    Rule {
        name: "compiler-structure",
        verdict: Verdict::Compiled,
        weight: Weight::Proof,
        when: When::Always,
        markers: &[
            M::FusionKind,
            M::FusedComputation,
            M::FusedParameter,
            M::AsyncOp,
            M::SchedulingName,
            M::RewrittenOp,
            M::LhsFingerprint,
        ],
        why: "fusions, fused computations with `param_N` parameters, async start/done pairs, scheduling names, XLA:GPU's `fingerprint_before_lhs` header tag and instructions the algebraic simplifier rewrote (an `add` named after `sub`) are what XLA's passes build; no front end prints them, so they outweigh a header without `is_scheduled=true`",
    },
    Rule {
        name: "compiler-layout",
        verdict: Verdict::Compiled,
        weight: Weight::Proof,
        when: When::Always,
        markers: &[M::TpuTiledLayout, M::MemorySpace, M::LayoutOp],
        why: "tiled layouts and memory spaces on instructions, and bitcasts, come from layout and memory-space assignment",
    },
    Rule {
        name: "compiler-library-call",
        verdict: Verdict::Compiled,
        weight: Weight::Proof,
        when: When::Always,
        markers: &[M::CompilerCustomCall],
        why: "oneDNN calls on CPU, cuBLAS GEMMs and cuDNN convolutions on GPU are put in by XLA's rewriters; JAX lowers matmuls, convolutions and softmax as plain ops",
    },
    Rule {
        name: "backend-config",
        verdict: Verdict::Compiled,
        weight: Weight::Proof,
        when: When::Always,
        markers: &[
            M::GpuBackendConfig,
            M::CpuBackendConfig,
            M::TpuBackendConfig,
        ],
        why: "backend configs of one backend are written by its compiler passes",
    },
    Rule {
        name: "sharding-annotation",
        verdict: Verdict::NotCompiled,
        weight: Weight::Proof,
        when: When::Always,
        markers: &[M::ShardingCustomCall],
        why: "`Sharding` custom calls are how JAX's lowering marks shardings, and compilation removes them",
    },
    Rule {
        name: "unscheduled-header",
        verdict: Verdict::NotCompiled,
        weight: Weight::Hint,
        when: When::EntryReached,
        markers: &[M::NotScheduled],
        why: "a header without `is_scheduled=true` is printed before compilation, but also for compiled modules by JAX up to 0.4.26, reduced and hand-built modules: it suggests \"not compiled\" (a guess, never the kind) only in a text read from the header to the entry computation with no compiler work on the way",
    },
    Rule {
        name: "lowering-printer",
        verdict: Verdict::NotCompiled,
        weight: Weight::Hint,
        when: When::HeaderSeen,
        markers: &[M::UnsignedComputation, M::BareNames],
        why: "`as_text(dialect=\"hlo\")` prints names without `%` and computations without signatures, and only prints modules before compilation; but jaxlib 0.4.13's XLA dump folders printed compiled modules so too, and hand-built test modules look the same: the habit suggests \"not compiled\" (a guess, never the kind) only next to the module header, where compiler work shows before the entry",
    },
    Rule {
        name: "front-end-copy",
        verdict: Verdict::Compiled,
        weight: Weight::Corroborates,
        when: When::Always,
        markers: &[M::CopyInstruction],
        why: "XLA inserts copies while compiling, but TensorFlow's bridge emits them too, so a copy is a layout-assignment copy only when something else says the module was compiled",
    },
    Rule {
        name: "entry-layout-tiles",
        verdict: Verdict::Backend(Backend::Tpu),
        weight: Weight::Proof,
        when: When::Always,
        markers: &[M::EntryLayoutTiles],
        why: "the TPU client tiles the entry computation layout before any pass runs: a TPU module, compiled or not",
    },
    Rule {
        name: "cpu",
        verdict: Verdict::Backend(Backend::Cpu),
        weight: Weight::Proof,
        when: When::Always,
        markers: &[M::CpuBackendConfig, M::CpuCustomCall, M::LapackCustomCall],
        why: "XLA:CPU backend configs and CPU library calls (oneDNN, LAPACK, DUCC FFT, XLA:CPU runtime), and the LAPACK, DUCC FFT and host-callback calls JAX's lowering emits only for a CPU",
    },
    Rule {
        name: "gpu",
        verdict: Verdict::Backend(Backend::Gpu),
        weight: Weight::Proof,
        when: When::Always,
        markers: &[
            M::GpuBackendConfig,
            M::GpuCustomCall,
            M::GpuLibraryCustomCall,
            M::SchedulingName,
            M::GpuFusionName,
            M::TritonKernel,
            M::MosaicGpuKernel,
            M::LhsFingerprint,
        ],
        why: "XLA:GPU backend configs, GPU library calls (cuBLAS, cuDNN, Triton), the cuSOLVER/hipSOLVER and host-callback calls JAX's lowering emits only for a GPU, scheduling names and the `fingerprint_before_lhs` header tag of XLA:GPU's scheduler, GEMM and Triton fusion names, Pallas kernels for a GPU (Triton, Mosaic GPU custom calls)",
    },
    Rule {
        name: "tpu",
        verdict: Verdict::Backend(Backend::Tpu),
        weight: Weight::Proof,
        when: When::Always,
        markers: &[
            M::TpuBackendConfig,
            M::TpuCustomCall,
            M::TpuLoweringCustomCall,
            M::TpuTiledLayout,
            M::MosaicTpuKernel,
        ],
        why: "XLA:TPU backend configs, TPU-only custom calls (Pallas/Mosaic kernels, XLA:TPU's linear algebra), the `LuDecomposition`/`Eigh` calls JAX's lowering emits only for a TPU, tiled layouts on instructions",
    },
];

/// The reason a compiled module with no backend clue is read as CPU.
pub const CPU_INFERRED: &str = "no GPU or TPU clue in a compiled module; XLA:CPU prints modules like this, but so do other backends when a module uses nothing of their own";

// The families: rows of the claim table (`claims.rs`).
fn jaxpr() -> &'static [M] {
    Claim::Jaxpr.markers()
}
fn mlir() -> &'static [M] {
    Claim::Stablehlo.markers()
}
fn hlo() -> &'static [M] {
    Claim::Hlo.markers()
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

/// The rule of weight `weight` saying `verdict` whose clues (where they
/// count) come first: the rule, its first line and marker.
fn strongest(
    sink: &Sink,
    verdict: Verdict,
    weight: Weight,
) -> Option<(&'static Rule, usize, &'static str)> {
    RULES
        .iter()
        .filter(|r| r.verdict == verdict && r.weight == weight)
        .filter(|r| r.when.holds(sink) && total(sink, r.markers) > 0)
        .map(|r| {
            let (line, marker) = first(sink, r.markers);
            (r, line, marker)
        })
        .min_by_key(|(_, line, _)| *line)
}

pub(crate) fn decide(a: &mut Analysis, sink: &Sink) {
    decide_kind(a, sink);
    decide_backend(a, sink);
}

fn decide_kind(a: &mut Analysis, sink: &Sink) {
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
    a.dialect = Some(match fam.1 {
        Kind::Jaxpr => Dialect::Jaxpr,
        Kind::Stablehlo if sink.count(M::MhloOp) > 0 && sink.count(M::StablehloOp) == 0 => {
            Dialect::Mhlo
        }
        Kind::Stablehlo => Dialect::Stablehlo,
        _ => Dialect::Hlo,
    });
    if fam.1 != Kind::HloOptimized {
        a.kind = fam.1;
        return;
    }
    let compiled = strongest(sink, Verdict::Compiled, Weight::Proof);
    let not = strongest(sink, Verdict::NotCompiled, Weight::Proof);
    let (kind, rule) = match (compiled, not) {
        (Some((_, ol, om)), Some((_, ul, um))) => {
            a.reason = Some(format!(
                "This is HLO, but its clues contradict each other: line {ol} shows compilation (`{om}`) while line {ul} shows a module before compilation (`{um}`)."
            ));
            (Kind::Unknown, None)
        }
        (Some(c), None) => (Kind::HloOptimized, Some(c.0)),
        (None, Some(u)) => (Kind::HloUnoptimized, Some(u.0)),
        (None, None) => {
            a.kind = Kind::Unknown;
            // Sets the kind itself where its hints make it likely.
            no_proof(a, sink);
            return;
        }
    };
    a.kind = kind;
    a.kind_rule = rule.map(|r| r.name);
}

/// HLO with no proof on either side: the kind is unknown. Its reason names
/// the hints found (a line of each) and the proof that is missing; where
/// the hints all point one way, [`Analysis::kind_guess`] holds that side,
/// kept apart from the answer.
fn no_proof(a: &mut Analysis, sink: &Sink) {
    let hints: Vec<_> = RULES
        .iter()
        .filter(|r| r.weight == Weight::Hint && r.when.holds(sink))
        .filter(|r| total(sink, r.markers) > 0)
        .map(|r| (r, first(sink, r.markers)))
        .collect();
    if hints.is_empty() {
        a.reason = Some(no_clue_reason(sink));
        return;
    }
    let found: Vec<String> = hints
        .iter()
        .map(|(r, (line, marker))| format!("line {line} shows `{marker}` (rule `{}`)", r.name))
        .collect();
    let side = |v: Verdict| hints.iter().filter(move |(r, _)| r.verdict == v);
    let guess = match (
        side(Verdict::NotCompiled).next(),
        side(Verdict::Compiled).next(),
    ) {
        (Some((r, _)), None) => Some((Kind::HloUnoptimized, r.name)),
        (None, Some((r, _))) => Some((Kind::HloOptimized, r.name)),
        _ => None,
    };
    let suggests = match guess {
        Some((k, _)) => format!(", which suggest {k}"),
        None => ", which point both ways".to_owned(),
    };
    a.reason = Some(format!(
        "This is HLO, but nothing here proves whether XLA compiled it: only hints, {}{suggests}; a hint is never proof (compiled modules have been printed without `is_scheduled=true`, by JAX up to 0.4.26, and without `%` and signatures, by jaxlib 0.4.13's XLA dump folders; reduced and hand-built modules may show either). Missing: a clue of a rule that proves compilation ({}) or one that proves it was not compiled ({}).",
        found.join(" and "),
        proof_rules(Verdict::Compiled),
        proof_rules(Verdict::NotCompiled),
    ));
    if let Some((kind, rule)) = guess.filter(|g| likely(g.1)) {
        a.kind = kind;
        a.kind_rule = Some(rule);
        a.kind_likely = Some(format!(
            "likely, not proved: HLO before optimization, because {} with no compiler work from the header to the `ENTRY` computation, and no module of the project's corpora (fixtures, drift, public) that reads so was compiled",
            found.join(" and ")
        ));
        a.reason = None;
        return;
    }
    a.kind_guess = guess.map(|g| g.0);
    a.kind_guess_rule = guess.map(|g| g.1);
}

/// The hint rules whose guess is given as the kind, worded as likely:
/// each has no counterexample in any corpus the project judges
/// (`tests/drift_report.rs`, `every_corpus_counts`, fails on one).
/// `unscheduled-header` counts only in a text read from the header to the
/// `ENTRY` computation with no compiler work on the way.
const LIKELY: &[&str] = &["unscheduled-header"];

fn likely(rule: &str) -> bool {
    LIKELY.contains(&rule)
}

/// The names of the proof rules that say `verdict`, quoted, comma-separated.
fn proof_rules(verdict: Verdict) -> String {
    RULES
        .iter()
        .filter(|r| r.verdict == verdict && r.weight == Weight::Proof)
        .map(|r| format!("`{}`", r.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why HLO with neither proof nor a hint that counts has no kind.
fn no_clue_reason(sink: &Sink) -> String {
    let copies = if sink.count(M::CopyInstruction) > 0 {
        " A `copy` alone does not tell either: front ends emit them too."
    } else {
        ""
    };
    let bare = if sink.count(M::BareNames) + sink.count(M::UnsignedComputation) > 0 {
        " Names without `%` do not tell without the module header either: jaxlib 0.4.13's XLA dumps printed compiled modules so too."
    } else {
        ""
    };
    let header = if sink.count(M::NotScheduled) > 0 {
        "its header lacks `is_scheduled=true`, but JAX up to 0.4.26 printed compiled modules so too, and this text stops before the `ENTRY` computation, so it cannot show that no compiler work comes first"
    } else {
        "no module header"
    };
    format!(
        "This is HLO, but nothing here shows whether XLA compiled it: no fusion, no `is_scheduled=true`; {header}. Layouts alone do not tell, XLA prints them before compilation too.{bare}{copies}"
    )
}

fn decide_backend(a: &mut Analysis, sink: &Sink) {
    let mut named = Backend::ALL.into_iter().filter(|b| {
        RULES
            .iter()
            .filter(|r| r.verdict == Verdict::Backend(*b))
            .any(|r| total(sink, r.markers) > 0)
    });
    match (named.next(), named.next()) {
        (Some(b), None) => {
            a.backend = Some(b);
            a.backend_basis = Some(BackendBasis::Evidence);
        }
        // No clue: no backend, and a guess kept apart, named as one.
        (None, _) if a.kind == Kind::HloOptimized => {
            a.backend_guess = Some(Backend::Cpu);
            a.backend_reason = Some(CPU_INFERRED.to_owned());
        }
        // None named, or two: say nothing rather than guess.
        _ => {}
    }
}

/// Whether evidence of marker `m` decides `kind` (and the backend): what a
/// report should show first.
pub(crate) fn decides(kind: Kind, m: M) -> bool {
    let backend = RULES
        .iter()
        .any(|r| matches!(r.verdict, Verdict::Backend(_)) && r.markers.contains(&m));
    let side = match kind {
        Kind::HloOptimized => Some(Verdict::Compiled),
        Kind::HloUnoptimized => Some(Verdict::NotCompiled),
        _ => None,
    };
    let by_rule = side.is_some_and(|v| {
        RULES
            .iter()
            .any(|r| r.verdict == v && r.weight == Weight::Proof && r.markers.contains(&m))
    });
    let by_family = match kind {
        Kind::Jaxpr | Kind::Stablehlo => {
            Claim::of_kind(kind).is_some_and(|c| c.proven_by_marker(m))
        }
        _ => false,
    };
    by_rule || by_family || (kind != Kind::Unknown && backend)
}

/// What the classifier tells about an analysis.
impl Analysis {
    /// The evidence that decided [`Analysis::kind`] (and the backend), in
    /// line order: what a short report shows first. Empty when unknown.
    pub fn deciding_evidence(&self) -> impl Iterator<Item = &Evidence> + '_ {
        let kind = self.kind;
        self.evidence
            .iter()
            .filter(move |e| super::markers::by_name(e.marker).is_some_and(|m| decides(kind, m)))
    }
}
