//! Claims: what a line of a dump can prove, as data in one place.
//!
//! A claim is a statement about a dump that evidence lines can support:
//! "XLA compiled this module", "this is a jaxpr", "this module was compiled
//! for a TPU", "this line launches a fused kernel". Each claim is proven by a
//! set of [markers](super::markers): a line proves the claim when
//! [`analyze`](super::analyze) reports one of those markers on it (the
//! analysis looks at context, so a computation header counts as
//! `fused-computation` only when a `fusion` calls it).
//!
//! The same table decides a dump's kind and backend (`classify.rs` reads the
//! kind and backend rows) and answers evidence questions (every line of an
//! excerpt that proves the question's claim is a right answer). So a line
//! the analysis reports as proof of compilation is never graded as "proves
//! nothing", and a clue added here is at once a reason for the verdict and
//! an accepted answer.
//!
//! Which markers prove which claim is listed per marker in
//! `fixtures/MARKERS.md` (generated from this table by `mdbook-dumplab
//! markers`, kept current by a test), beside what each marker shows.
//!
//! `lowered-hlo` is a printer's habit, not a compiler's: the printer of
//! `as_text(dialect="hlo")` leaves out `%` and computation signatures, but
//! jaxlib 0.4.13's XLA dump folders printed compiled modules so too, so it
//! tells the printer, never the kind. Only a `Sharding` custom call, which
//! partitioning removes, proves `not-compiled`: a header without
//! `is_scheduled=true` is a hint (JAX up to 0.4.26 printed compiled modules
//! without it) and proves no claim. A classify question on HLO before
//! optimization reads both rows, among its choices, where the printer's
//! short style tells the pinned JAX's two HLO printers apart.
//!
//! A custom call names a backend but does not prove compilation (JAX's
//! lowering emits LAPACK and Pallas calls itself); layouts prove nothing
//! (XLA prints default layouts before compiling too), and neither do tiles
//! in the header's `entry_computation_layout` (`entry-layout-tiles`: the
//! TPU client sets them before any pass) or a `copy` (`copy-instruction`:
//! TensorFlow's bridge emits copies itself). How these rows weigh against
//! each other when a dump's kind is decided is the rule table of
//! `classify.rs` ([`super::rules`]).
//!
//! The claim table and the kind rules must agree: `compiled` is proven by
//! the markers of the rules that can decide a compiled module, and the
//! backend claims by the markers of the backend rules (a test checks it).

use super::markers::M;
use super::model::{Analysis, Backend, Kind};
use std::borrow::Cow;

/// A statement about a dump that lines can prove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Claim {
    /// The text is a jaxpr.
    Jaxpr,
    /// The text is lowered StableHLO (MLIR).
    Stablehlo,
    /// The text is HLO, compiled or not.
    Hlo,
    /// XLA compiled the module.
    Compiled,
    /// The HLO module has not been compiled.
    NotCompiled,
    /// `lower(...).as_text(dialect="hlo")` printed the module.
    LoweredHlo,
    /// Compiled for a CPU.
    Cpu,
    /// Compiled for a GPU.
    Gpu,
    /// Compiled for a TPU.
    Tpu,
    /// The line launches a fused kernel.
    Fusion,
}

/// How a claim's lines are asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// Each proving line proves the claim on its own: a question asks for
    /// some of them.
    Some,
    /// Each proving line is one item of an inventory (one fusion, ...): a
    /// question asks for every one.
    Every,
}

/// What a claim says, in words the exercise sentences are built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Says {
    /// A fact about the whole text that one line can show: completes "this
    /// line shows that ..." ("XLA compiled this module").
    Text(&'static str),
    /// What a proving line itself does: completes "every line that ..."
    /// ("launches a fused kernel").
    Line(&'static str),
}

/// What a learner should look for to prove a claim, completing "Look for
/// ...": the kinds of clue, never a line.
#[derive(Clone, Copy, Debug)]
enum LookFor {
    /// These words.
    Words(&'static str),
    /// What only this compiler writes (`XLA:TPU`): the proving markers'
    /// [backend clues](super::markers), in the row's order, each once.
    BackendClues(&'static str),
}

/// One row of the table: the claim, its name, what it says, what a learner
/// should look for, how lines are selected, the proving markers.
struct Row {
    claim: Claim,
    name: &'static str,
    says: Says,
    look_for: LookFor,
    select: Select,
    markers: &'static [M],
}

const TABLE: [Row; 10] = [
    Row {
        claim: Claim::Jaxpr,
        name: "jaxpr",
        says: Says::Text("the text is a jaxpr"),
        look_for: LookFor::Words(
            "the jaxpr's own syntax: `{ lambda` and its inputs, `let`, `in (...)`, or an equation binding typed names such as `c:f32[8] = add a b`",
        ),
        select: Select::Some,
        markers: &[
            M::JaxprLambda,
            M::JaxprEquation,
            M::JaxprIn,
            M::JaxprLet,
            M::JaxprSubjaxpr,
        ],
    },
    Row {
        claim: Claim::Stablehlo,
        name: "stablehlo",
        says: Says::Text("the text is lowered StableHLO"),
        look_for: LookFor::Words(
            "MLIR's syntax: a `module` or `func.func` line, an op of the `stablehlo.` (or `mhlo.`) dialect, a `tensor<...>` type or a `loc(...)`",
        ),
        select: Select::Some,
        markers: &[
            M::StablehloOp,
            M::MlirTensorType,
            M::MlirLoc,
            M::FuncFunc,
            M::FuncMain,
            M::MlirModule,
            M::MhloOp,
        ],
    },
    Row {
        claim: Claim::Hlo,
        name: "hlo",
        says: Says::Text("the text is HLO"),
        look_for: LookFor::Words(
            "HLO's syntax: the `HloModule` header, `ENTRY`, a computation header, or an instruction written `name = shape opcode(operands)`",
        ),
        select: Select::Some,
        markers: &[
            M::HloModuleHeader,
            M::HloInstruction,
            M::ComputationHeader,
            M::UnsignedComputation,
            M::StackFrames,
            M::EntryComputation,
        ],
    },
    Row {
        claim: Claim::Compiled,
        name: "compiled",
        says: Says::Text("XLA compiled this module"),
        look_for: LookFor::Words(
            "what only XLA's passes write: `is_scheduled=true`, a `fusion` with its `kind=` and the computation it calls, `param_N` names, a `copy` or `bitcast` the compiler inserted, tiles or a memory space `S(n)` in a layout, an async `-start`/`-done` pair, a `backend_config`, a `scheduling_name`, a library call XLA's rewriters made, an instruction the algebraic simplifier rewrote (an `add` named after `sub`), XLA:GPU's `fingerprint_before_lhs` in the header",
        ),
        select: Select::Some,
        markers: &[
            M::IsScheduled,
            M::FusionKind,
            M::FusedComputation,
            M::FusedParameter,
            M::TpuTiledLayout,
            M::MemorySpace,
            M::AsyncOp,
            M::LayoutOp,
            M::GpuBackendConfig,
            M::CpuBackendConfig,
            M::TpuBackendConfig,
            M::SchedulingName,
            M::CompilerCustomCall,
            M::RewrittenOp,
            M::LhsFingerprint,
        ],
    },
    Row {
        claim: Claim::NotCompiled,
        name: "not-compiled",
        says: Says::Text("nobody has compiled this module yet"),
        look_for: LookFor::Words(
            "a `Sharding` custom call, which partitioning would have removed (a header without `is_scheduled=true` is only a hint: older printers leave it out of compiled modules)",
        ),
        select: Select::Some,
        markers: &[M::ShardingCustomCall],
    },
    Row {
        claim: Claim::LoweredHlo,
        name: "lowered-hlo",
        says: Says::Text("the text is in the short style of `lower(...).as_text(dialect=\"hlo\")`"),
        look_for: LookFor::Words(
            "how the printer writes names and computations: names without `%`, computation headers without a signature",
        ),
        select: Select::Some,
        markers: &[M::UnsignedComputation, M::BareNames],
    },
    Row {
        claim: Claim::Cpu,
        name: "cpu",
        says: Says::Text("the module was compiled for a CPU"),
        look_for: LookFor::BackendClues("XLA:CPU"),
        select: Select::Some,
        markers: &[M::CpuBackendConfig, M::CpuCustomCall, M::LapackCustomCall],
    },
    Row {
        claim: Claim::Gpu,
        name: "gpu",
        says: Says::Text("the module was compiled for a GPU"),
        look_for: LookFor::BackendClues("XLA:GPU"),
        select: Select::Some,
        markers: &[
            M::GpuBackendConfig,
            M::SchedulingName,
            M::GpuCustomCall,
            M::GpuLibraryCustomCall,
            M::TritonKernel,
            M::MosaicGpuKernel,
            M::GpuFusionName,
            M::LhsFingerprint,
        ],
    },
    Row {
        claim: Claim::Tpu,
        name: "tpu",
        says: Says::Text("the module was compiled for a TPU"),
        look_for: LookFor::BackendClues("XLA:TPU"),
        select: Select::Some,
        markers: &[
            M::TpuBackendConfig,
            M::TpuCustomCall,
            M::TpuLoweringCustomCall,
            M::TpuTiledLayout,
            M::MosaicTpuKernel,
            M::EntryLayoutTiles,
        ],
    },
    Row {
        claim: Claim::Fusion,
        name: "fusion",
        says: Says::Line("launches a fused kernel"),
        look_for: LookFor::Words(
            "the opcode `fusion` with a `kind=`: the computation it `calls=` only holds the fused ops, and instructions that reshape or pass values along launch nothing",
        ),
        select: Select::Every,
        markers: &[M::FusionKind],
    },
];

impl Claim {
    /// Every claim, in the order of the table.
    pub const ALL: [Claim; 10] = [
        Claim::Jaxpr,
        Claim::Stablehlo,
        Claim::Hlo,
        Claim::Compiled,
        Claim::NotCompiled,
        Claim::LoweredHlo,
        Claim::Cpu,
        Claim::Gpu,
        Claim::Tpu,
        Claim::Fusion,
    ];

    fn row(self) -> &'static Row {
        // The table is in `ALL` order; the fallback is never taken.
        TABLE.iter().find(|r| r.claim == self).unwrap_or(&TABLE[0])
    }

    /// The claim's name, as exercise files spell it.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// What the claim says, as the words sentences are built from.
    pub fn says(self) -> Says {
        self.row().says
    }

    /// What the claim says as a clause: "XLA compiled this module", "a line
    /// launches a fused kernel".
    pub fn phrase(self) -> String {
        match self.says() {
            Says::Text(s) => s.to_owned(),
            Says::Line(s) => format!("a line {s}"),
        }
    }

    /// What a proving line does, completing "a line that ...": "shows that
    /// XLA compiled this module", "launches a fused kernel".
    pub fn line_does(self) -> String {
        match self.says() {
            Says::Text(s) => format!("shows that {s}"),
            Says::Line(s) => s.to_owned(),
        }
    }

    /// The kinds of clue that prove the claim, completing "Look for ...":
    /// a hint that names no line. A backend's are its proving markers'
    /// backend clues from the marker table.
    pub fn look_for(self) -> Cow<'static, str> {
        match self.row().look_for {
            LookFor::Words(w) => Cow::Borrowed(w),
            LookFor::BackendClues(compiler) => {
                let mut clues: Vec<&str> = Vec::new();
                for c in self.markers().iter().filter_map(|m| m.backend_clue()) {
                    if !clues.contains(&c) {
                        clues.push(c);
                    }
                }
                Cow::Owned(format!("what only {compiler} writes: {}", list(&clues)))
            }
        }
    }

    /// Whether a question asks for some proving lines or every one.
    pub fn select(self) -> Select {
        self.row().select
    }

    /// The claim called `name`.
    pub fn from_name(name: &str) -> Option<Claim> {
        Claim::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Every claim name, in table order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        TABLE.iter().map(|r| r.name)
    }

    /// The names of the markers that prove the claim.
    pub fn marker_names(self) -> impl Iterator<Item = &'static str> {
        self.row().markers.iter().map(|m| m.name())
    }

    /// Whether marker `marker` (a name) proves the claim.
    pub fn proven_by(self, marker: &str) -> bool {
        self.row().markers.iter().any(|m| m.name() == marker)
    }

    /// The claim that a dump of kind `kind` is what it is (`compiled` for
    /// compiled HLO, `not-compiled` for the look-alike, ...).
    pub fn of_kind(kind: Kind) -> Option<Claim> {
        match kind {
            Kind::Jaxpr => Some(Claim::Jaxpr),
            Kind::Stablehlo => Some(Claim::Stablehlo),
            Kind::HloUnoptimized => Some(Claim::NotCompiled),
            Kind::HloOptimized => Some(Claim::Compiled),
            Kind::Unknown => None,
        }
    }

    /// Every claim whose proof tells a dump of kind `kind` apart: its
    /// [`Claim::of_kind`], and for the look-alike the printer's habits too.
    pub fn deciding_kind(kind: Kind) -> Vec<Claim> {
        let mut out: Vec<Claim> = Claim::of_kind(kind).into_iter().collect();
        if kind == Kind::HloUnoptimized {
            out.push(Claim::LoweredHlo);
        }
        out
    }

    /// The claim that a module was compiled for `backend`.
    pub fn of_backend(backend: Backend) -> Claim {
        match backend {
            Backend::Cpu => Claim::Cpu,
            Backend::Gpu => Claim::Gpu,
            Backend::Tpu => Claim::Tpu,
        }
    }

    pub(crate) fn markers(self) -> &'static [M] {
        self.row().markers
    }

    pub(crate) fn proven_by_marker(self, m: M) -> bool {
        self.row().markers.contains(&m)
    }
}

/// What the claim table tells about an analysis.
impl Analysis {
    /// The lines in `first..=last` that prove `claim`, each with the
    /// markers that prove it there, in line order.
    pub fn proof_lines(
        &self,
        claim: Claim,
        first: usize,
        last: usize,
    ) -> Vec<(usize, Vec<&'static str>)> {
        (first..=last)
            .filter_map(|l| {
                let ms: Vec<&'static str> = self
                    .line_markers
                    .on(l)
                    .filter(|m| claim.proven_by(m))
                    .collect();
                (!ms.is_empty()).then_some((l, ms))
            })
            .collect()
    }
}

/// `a`, `a or b`, `a, b, or c`.
fn list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [a, b] => format!("{a} or {b}"),
        [rest @ .., last] => format!("{}, or {last}", rest.join(", ")),
    }
}

/// The closest claim name to `name` (for "did you mean"): the one with the
/// fewest single-character edits, when that is at most two.
pub fn closest_claim(name: &str) -> Option<&'static str> {
    crate::diagnostic::did_you_mean(name, Claim::names())
}
