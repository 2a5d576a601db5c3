//! What an analysis finds: the [`Analysis`] of a text and the types it is
//! made of (its kind, dialect and backend, evidence, fusions, computations,
//! kernels, provenance, the markers per line). Plain data, filled by the
//! parsers and the classifier; the JSON schema is in [the module
//! docs](super).

use super::markers::{self, COUNT, M};
use super::pasted::Undone;
pub use crate::program::KernelKind;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// What kind of dump a text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Kind {
    /// `jax.make_jaxpr(f)(...)`: `{ lambda ... let ... in ... }`.
    Jaxpr,
    /// `jax.jit(f).lower(...).as_text()`: an MLIR module in the StableHLO dialect.
    Stablehlo,
    /// HLO before XLA's optimizations: `lower(...).as_text(dialect="hlo")` or
    /// XLA's `before_optimizations` dump.
    HloUnoptimized,
    /// HLO after XLA's optimizations: `lower(...).compile().as_text()` or XLA's
    /// `after_optimizations` dump.
    HloOptimized,
    /// The text does not say, or its clues contradict each other.
    Unknown,
}

impl Kind {
    /// Every kind, in a stable order.
    pub const ALL: [Kind; 5] = [
        Kind::Jaxpr,
        Kind::Stablehlo,
        Kind::HloUnoptimized,
        Kind::HloOptimized,
        Kind::Unknown,
    ];

    /// The name used in JSON, fixture annotations and the CLI.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Jaxpr => "jaxpr",
            Kind::Stablehlo => "stablehlo",
            Kind::HloUnoptimized => "hlo-unoptimized",
            Kind::HloOptimized => "hlo-optimized",
            Kind::Unknown => "unknown",
        }
    }

    /// Whether this is one of the two HLO kinds.
    pub fn is_hlo(self) -> bool {
        matches!(self, Kind::HloUnoptimized | Kind::HloOptimized)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`Kind`] or [`Backend`] name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// The name that was not recognised.
    pub name: String,
    /// The names that would have been.
    pub expected: &'static [&'static str],
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not one of: {}",
            self.name,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

impl FromStr for Kind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Kind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| UnknownName {
                name: s.to_owned(),
                expected: &[
                    "jaxpr",
                    "stablehlo",
                    "hlo-unoptimized",
                    "hlo-optimized",
                    "unknown",
                ],
            })
    }
}

/// The compiler backend a compiled HLO module was built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Backend {
    /// XLA:CPU.
    Cpu,
    /// XLA:GPU (CUDA or ROCm).
    Gpu,
    /// XLA:TPU.
    Tpu,
}

impl Backend {
    /// Every backend, in a stable order.
    pub const ALL: [Backend; 3] = [Backend::Cpu, Backend::Gpu, Backend::Tpu];

    /// The name used in JSON, fixture annotations and the CLI.
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Gpu => "gpu",
            Backend::Tpu => "tpu",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Backend {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Backend::ALL
            .into_iter()
            .find(|b| b.as_str() == s)
            .ok_or_else(|| UnknownName {
                name: s.to_owned(),
                expected: &["cpu", "gpu", "tpu"],
            })
    }
}

/// The dialect (or printer) of a dump: what a learner pasted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Dialect {
    /// MLIR in the StableHLO dialect (what JAX lowers to today).
    Stablehlo,
    /// MLIR in the MHLO dialect (what older JAX releases printed).
    Mhlo,
    /// HLO text, compiled or not.
    Hlo,
    /// A jaxpr.
    Jaxpr,
}

impl Dialect {
    /// The name used in JSON and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Stablehlo => "stablehlo",
            Dialect::Mhlo => "mhlo",
            Dialect::Hlo => "hlo",
            Dialect::Jaxpr => "jaxpr",
        }
    }
}

/// Where [`Analysis::backend`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum BackendBasis {
    /// A line names the backend (see the backend rules). The only basis:
    /// without one there is no backend, at most a guess
    /// ([`Analysis::backend_guess`]).
    Evidence,
}

impl BackendBasis {
    /// The name used in JSON and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            BackendBasis::Evidence => "evidence",
        }
    }
}

/// One clue in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Evidence {
    /// 1-based line.
    pub line: usize,
    /// 1-based character columns on that line, end exclusive.
    pub columns: Range<usize>,
    /// What the clue is: one of [`markers::marker_names`].
    pub marker: &'static str,
    /// What it shows, in a sentence a learner understands.
    pub note: String,
}

/// One `fusion` instruction of an HLO module.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Fusion {
    /// The instruction's name, without `%` (`fusion.3`).
    pub name: String,
    /// Its `kind=` attribute (`kLoop`, `kInput`, `kOutput`, `kCustom`, ...).
    pub kind: String,
    /// Distinct opcodes of the fused computation, in order, `parameter` left out.
    pub ops: Vec<String>,
    /// Whether the instruction is in the entry computation.
    pub in_entry: bool,
    /// 1-based line of the instruction.
    pub line: usize,
    /// The fused computation it calls (`calls=`), without `%`.
    pub computation: String,
}

/// One HLO computation.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Computation {
    /// Its name, without `%`.
    pub name: String,
    /// 1-based line of its header.
    pub line: usize,
    /// Whether it is the entry computation (`ENTRY`).
    pub is_entry: bool,
    /// Instructions in its body.
    pub instructions: usize,
}

/// One HLO `custom-call` instruction.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CustomCall {
    /// The instruction's name, without `%`.
    pub name: String,
    /// Its `custom_call_target`.
    pub target: String,
    /// 1-based line.
    pub line: usize,
    /// Whether it is in the entry computation.
    pub in_entry: bool,
}

/// One HLO `while` instruction.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WhileLoop {
    /// The instruction's name, without `%`.
    pub name: String,
    /// 1-based line.
    pub line: usize,
    /// The `condition=` computation.
    pub condition: Option<String>,
    /// The `body=` computation.
    pub body: Option<String>,
}

/// One HLO `conditional` instruction.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Conditional {
    /// The instruction's name, without `%`.
    pub name: String,
    /// 1-based line.
    pub line: usize,
    /// Its branch computations (`branch_computations=` or `true_computation=`/`false_computation=`).
    pub branches: Vec<String>,
}

/// One parameter of the HLO entry computation.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Param {
    /// The instruction's name, without `%`.
    pub name: String,
    /// Its number in `parameter(N)`.
    pub number: usize,
    /// Its shape without the layout (`f32[8,128]`, or a tuple shape).
    pub shape: String,
    /// Its layout (`{1,0}`, `{1,0:T(8,128)}`), when printed.
    pub layout: Option<String>,
    /// 1-based line.
    pub line: usize,
}

/// One MLIR `func.func` of a StableHLO module.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Function {
    /// Its symbol name, without `@` (`main`).
    pub name: String,
    /// `public` or `private` (empty when not printed).
    pub visibility: String,
    /// 1-based line of its header.
    pub line: usize,
    /// Operations in its body.
    pub ops: usize,
}

/// One jaxpr equation.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Equation {
    /// 1-based line.
    pub line: usize,
    /// The primitive (`add`, `pjit`, `scan`, ...).
    pub primitive: String,
    /// Output variables, with their types (`c:f32[8]`).
    pub outputs: Vec<String>,
    /// 0 in the top jaxpr, 1 inside a sub-jaxpr of a top-level equation, ...
    pub depth: usize,
}

/// A JAX op in the user's program that instructions came from; shared by
/// every instruction that names it (see [`Analysis::source_ops`]).
#[derive(Clone, Debug, PartialEq, Eq, Default, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceOp {
    /// The JAX op path (`jit(f)/jit(main)/sin`).
    pub op_name: String,
    /// Source file, when printed (directly or through `stack_frame_id`).
    pub source_file: Option<String>,
    /// Source line, when printed.
    pub source_line: Option<u32>,
}

/// Which source op an instruction came from: one entry of a
/// [`ProvenanceList`], borrowing the instruction name from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Provenance<'a> {
    /// 1-based line of the instruction.
    pub line: usize,
    /// The instruction (HLO name without `%`, or MLIR result like `%3`).
    pub instruction: &'a str,
    /// Index into [`Analysis::source_ops`].
    pub source_op: usize,
}

/// The [`Provenance`] of every instruction that names a source op, in text
/// order; read it with [`ProvenanceList::iter`]. Serializes as a list of
/// [`Provenance`] objects.
///
/// Nearly every instruction of a compiled dump has one, so the entries are
/// kept in one buffer, each as its line, source op and name length (LEB128
/// varints: a few bytes each, where fixed eight-byte numbers made this list
/// a third of the command line's peak memory on a metadata-heavy dump) and
/// the name's bytes: no allocation per instruction (which cost a large
/// share of [`analyze`]'s time), and one growing buffer rather than two,
/// which matters to allocators that hand large freed buffers back to the
/// system (and fault every page in again on the next analysis).
#[derive(Clone, PartialEq, Eq, Default)]
pub struct ProvenanceList {
    data: Vec<u8>,
    len: usize,
}

/// Appends `v` as a LEB128 varint: seven bits a byte, low bits first, the
/// high bit set on every byte but the last.
fn write_varint(out: &mut Vec<u8>, mut v: usize) {
    while v >= 0x80 {
        out.push((v & 0x7f) as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a varint [`write_varint`] wrote at `*at`, moving `*at` past it.
fn read_varint(b: &[u8], at: &mut usize) -> Option<usize> {
    let mut v = 0usize;
    let mut shift = 0u32;
    loop {
        let byte = *b.get(*at)?;
        *at += 1;
        v |= usize::from(byte & 0x7f).checked_shl(shift)?;
        if byte & 0x80 == 0 {
            return Some(v);
        }
        shift += 7;
    }
}

impl ProvenanceList {
    /// Adds the provenance of `instruction` on line `line`.
    pub(crate) fn push(&mut self, line: usize, instruction: &str, source_op: usize) {
        for v in [line, source_op, instruction.len()] {
            write_varint(&mut self.data, v);
        }
        self.data.extend_from_slice(instruction.as_bytes());
        self.len += 1;
    }

    /// Appends the entries of `other`, its source op ids `i` written as
    /// `source_ops[i]` ([`Sink::absorb`](super::sink::Sink::absorb)).
    pub(crate) fn absorb(&mut self, other: &ProvenanceList, source_ops: &[usize]) {
        self.data.reserve(other.data.len());
        for p in other.iter() {
            let op = source_ops.get(p.source_op).copied().unwrap_or(p.source_op);
            self.push(p.line, p.instruction, op);
        }
    }

    /// How many instructions have a provenance.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no instruction has one.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every entry, in text order.
    pub fn iter(&self) -> impl Iterator<Item = Provenance<'_>> + '_ {
        let b = self.data.as_slice();
        let mut at = 0usize;
        std::iter::from_fn(move || {
            let line = read_varint(b, &mut at)?;
            let source_op = read_varint(b, &mut at)?;
            let len = read_varint(b, &mut at)?;
            let start = at;
            let end = start.checked_add(len)?;
            // The bytes of a `&str` pushed whole: always UTF-8.
            let instruction = std::str::from_utf8(b.get(start..end)?).ok()?;
            at = end;
            Some(Provenance {
                line,
                instruction,
                source_op,
            })
        })
    }
}

impl fmt::Debug for ProvenanceList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ProvenanceList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Which markers the analysis saw on each line: one bit per marker per
/// line, kept for every clue (the evidence list stops at a cap per marker).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct LineMarkers {
    bits: Vec<u64>,
}

// One bit per marker must fit a `u64`.
const _: () = assert!(COUNT <= 64);

impl LineMarkers {
    /// Marks marker `m` on line `line` (1-based).
    pub(crate) fn set(&mut self, line: usize, m: M) {
        let Some(i) = line.checked_sub(1) else {
            return;
        };
        if self.bits.len() <= i {
            self.bits.resize(i + 1, 0);
        }
        if let Some(b) = self.bits.get_mut(i) {
            *b |= 1u64 << (m as u32);
        }
    }

    /// Adds the markers of `other`, line by line.
    pub(crate) fn absorb(&mut self, other: LineMarkers) {
        if self.bits.len() < other.bits.len() {
            self.bits.resize(other.bits.len(), 0);
        }
        for (b, o) in self.bits.iter_mut().zip(other.bits) {
            *b |= o;
        }
    }

    /// Sets marker `to` on every line that has marker `from`.
    pub(crate) fn also(&mut self, from: M, to: M) {
        let (f, t) = (1u64 << (from as u32), 1u64 << (to as u32));
        for b in &mut self.bits {
            if *b & f != 0 {
                *b |= t;
            }
        }
    }

    fn has(&self, line: usize, m: M) -> bool {
        line.checked_sub(1)
            .and_then(|i| self.bits.get(i))
            .is_some_and(|b| b & (1u64 << (m as u32)) != 0)
    }

    /// The names of the markers seen on `line` (1-based), in table order.
    pub fn on(&self, line: usize) -> impl Iterator<Item = &'static str> + '_ {
        markers::all()
            .iter()
            .filter(move |m| self.has(line, **m))
            .map(|m| m.name())
    }

    /// Whether marker `marker` (a name) was seen on `line`.
    pub fn contains(&self, line: usize, marker: &str) -> bool {
        markers::by_name(marker).is_some_and(|m| self.has(line, m))
    }
}

impl fmt::Debug for LineMarkers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(
                (1..=self.bits.len())
                    .filter(|l| self.on(*l).next().is_some())
                    .map(|l| (l, self.on(l).collect::<Vec<_>>())),
            )
            .finish()
    }
}

/// One kernel: an instruction of a computation that launches work (the
/// entry, a loop's body or condition, a branch, a called computation) that
/// is a fusion, a custom call, a copy or another op doing work on its own.
/// Parameters, constants, tuples, `get-tuple-element`, `bitcast`, the
/// `-done` half of an async pair and the control-flow ops themselves
/// (`while`, `conditional`, `call`) are not kernels: a control-flow op runs
/// the kernels of the computations it calls.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Kernel {
    /// The instruction's name, without `%`.
    pub name: String,
    /// Its opcode.
    pub opcode: String,
    /// What sort of kernel it is (`analyze` prints
    /// [`KernelKind::analyze_name`]).
    #[cfg_attr(feature = "serde", serde(serialize_with = "analyze_name"))]
    pub kind: KernelKind,
    /// 1-based line.
    pub line: usize,
    /// The computation it is in, without `%`.
    pub computation: String,
    /// Whether that is the entry computation.
    pub in_entry: bool,
}

/// Serializes a kernel's kind as `analyze` counts it.
#[cfg(feature = "serde")]
fn analyze_name<S: serde::Serializer>(k: &KernelKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(k.analyze_name())
}

/// Everything [`analyze`] learned from a text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Analysis {
    /// What kind of dump it is.
    pub kind: Kind,
    /// The dialect of the text, when its family is clear.
    pub dialect: Option<Dialect>,
    /// The compiler backend, only when a clue names one (whatever the kind).
    pub backend: Option<Backend>,
    /// `evidence` when [`Analysis::backend`] is set.
    pub backend_basis: Option<BackendBasis>,
    /// Why no backend is named though the module is compiled (with
    /// [`Analysis::backend_guess`]).
    pub backend_reason: Option<String>,
    /// A guess, never the answer: CPU for a compiled module with no GPU or
    /// TPU clue (the playground words it as a guess).
    pub backend_guess: Option<Backend>,
    /// Why the kind is [`Kind::Unknown`].
    pub reason: Option<String>,
    /// The rule (see [`rules`]) that decided compiled or not, for HLO.
    pub kind_rule: Option<&'static str>,
    /// A guess, never the answer: for HLO whose kind is [`Kind::Unknown`]
    /// because no proof shows on either side, the kind its hints suggest
    /// (`hlo-unoptimized` for a header without `is_scheduled=true`); the
    /// playground and the command line word it as a guess.
    pub kind_guess: Option<Kind>,
    /// The hint rule (see [`rules`]) that suggests [`Analysis::kind_guess`].
    pub kind_guess_rule: Option<&'static str>,
    /// Where the kind rests on hints alone (a rule with no counterexample
    /// in any corpus, named in [`Analysis::kind_rule`]): the sentence that
    /// says so ("likely, not proved: ..., because ..."); `None` where proof
    /// decided.
    pub kind_likely: Option<String>,
    /// Lines in the text (as pasted).
    pub lines: usize,
    /// The damage undone before reading (see [`mod@unwrap`]); empty for clean
    /// text.
    pub unwrapped: Vec<Undone>,
    /// `fusion` instructions in the entry computation (0 when not HLO).
    pub entry_fusions: usize,
    /// Every `fusion` instruction.
    pub fusions: Vec<Fusion>,
    /// Every clue used, in line order.
    pub evidence: Vec<Evidence>,
    /// The `HloModule` or MLIR `module @name`.
    pub module_name: Option<String>,
    /// The 1-based lines (as pasted) where a module starts (`HloModule`,
    /// an MLIR `module`), when there are two or more:
    /// several dumps pasted one after another, which the analysis reads as
    /// one text. Empty for one module.
    pub pasted_modules: Vec<usize>,
    /// HLO computations, in text order.
    pub computations: Vec<Computation>,
    /// The HLO entry computation.
    pub entry_computation: Option<String>,
    /// HLO custom calls.
    pub custom_calls: Vec<CustomCall>,
    /// HLO `while` loops.
    pub while_loops: Vec<WhileLoop>,
    /// HLO conditionals.
    pub conditionals: Vec<Conditional>,
    /// Parameters of the HLO entry computation, in text order.
    pub entry_params: Vec<Param>,
    /// Opcode (HLO), op name (StableHLO) or primitive (jaxpr) → count.
    pub op_histogram: BTreeMap<String, usize>,
    /// StableHLO/MLIR functions.
    pub functions: Vec<Function>,
    /// Jaxpr equations, nested ones included.
    pub equations: Vec<Equation>,
    /// Source op of each instruction that names one.
    pub provenance: ProvenanceList,
    /// The distinct source ops that [`Analysis::provenance`] points into.
    pub source_ops: Vec<SourceOp>,
    /// The kernels of the computations that launch work (the entry, loop
    /// bodies and conditions, branches), in text order; see [`Kernel`].
    pub kernels: Vec<Kernel>,
    /// Every marker the analysis saw on each line, including those past the
    /// evidence cap: what [`Analysis::proof_lines`] reads. Not serialized.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub line_markers: LineMarkers,
}

impl Analysis {
    /// An analysis that found nothing yet, of a text of `lines` lines.
    pub(crate) fn empty(lines: usize) -> Self {
        Analysis {
            kind: Kind::Unknown,
            dialect: None,
            backend: None,
            backend_basis: None,
            backend_reason: None,
            backend_guess: None,
            reason: None,
            kind_rule: None,
            kind_guess: None,
            kind_guess_rule: None,
            kind_likely: None,
            lines,
            unwrapped: Vec::new(),
            entry_fusions: 0,
            fusions: Vec::new(),
            evidence: Vec::new(),
            module_name: None,
            pasted_modules: Vec::new(),
            computations: Vec::new(),
            entry_computation: None,
            custom_calls: Vec::new(),
            while_loops: Vec::new(),
            conditionals: Vec::new(),
            entry_params: Vec::new(),
            op_histogram: BTreeMap::new(),
            functions: Vec::new(),
            equations: Vec::new(),
            provenance: ProvenanceList::default(),
            source_ops: Vec::new(),
            kernels: Vec::new(),
            line_markers: LineMarkers::default(),
        }
    }

    /// The kernels of computation `name`.
    pub fn kernels_of<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Kernel> + 'a {
        self.kernels.iter().filter(move |k| k.computation == name)
    }

    /// The kernels the entry computation launches itself.
    pub fn entry_kernels(&self) -> impl Iterator<Item = &Kernel> + '_ {
        self.kernels.iter().filter(|k| k.in_entry)
    }

    /// The kernels one trip round every `while` loop runs: each loop's
    /// condition once and its body once.
    pub fn iteration_kernels(&self) -> Vec<&Kernel> {
        let mut out: Vec<&Kernel> = Vec::new();
        for w in &self.while_loops {
            for c in [&w.condition, &w.body].into_iter().flatten() {
                out.extend(self.kernels_of(c));
            }
        }
        out.sort_by_key(|k| k.line);
        out.dedup_by_key(|k| k.line);
        out
    }

    /// The source op an instruction came from.
    pub fn source_op(&self, p: &Provenance<'_>) -> Option<&SourceOp> {
        self.source_ops.get(p.source_op)
    }

    /// The evidence with this marker name.
    pub fn evidence_for<'a>(&'a self, marker: &'a str) -> impl Iterator<Item = &'a Evidence> + 'a {
        self.evidence.iter().filter(move |e| e.marker == marker)
    }
}

#[cfg(test)]
mod tests {
    //! [`ProvenanceList`] keeps names in one string: its entries must read
    //! back exactly as pushed, and serialize as the list of objects the JSON
    //! schema documents.

    use super::*;

    #[test]
    fn provenance_list_reads_back_what_was_pushed() {
        let rows = [(3, "add.1", 0), (4, "", 1), (9, "%7", 0), (10, "é.2", 2)];
        let mut l = ProvenanceList::default();
        assert!(l.is_empty());
        for (line, name, op) in rows {
            l.push(line, name, op);
        }
        let want: Vec<Provenance<'_>> = rows
            .iter()
            .map(|&(line, instruction, source_op)| Provenance {
                line,
                instruction,
                source_op,
            })
            .collect();
        assert_eq!(l.len(), 4);
        assert_eq!(l.iter().collect::<Vec<_>>(), want);
        assert_eq!(format!("{l:?}"), format!("{want:?}"));
        let mut big = ProvenanceList::default();
        big.push(usize::MAX, "x y", usize::MAX);
        big.push(0, "", 1234567890);
        assert_eq!(
            big.iter()
                .map(|p| (p.line, p.instruction, p.source_op))
                .collect::<Vec<_>>(),
            [(usize::MAX, "x y", usize::MAX), (0, "", 1234567890)]
        );
        #[cfg(feature = "serde")]
        assert_eq!(
            serde_json::to_string(&l).ok().as_deref(),
            Some(
                r#"[{"line":3,"instruction":"add.1","source_op":0},{"line":4,"instruction":"","source_op":1},{"line":9,"instruction":"%7","source_op":0},{"line":10,"instruction":"é.2","source_op":2}]"#
            )
        );
    }
}
