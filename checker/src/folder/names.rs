//! One file name of a dump folder: which module it belongs to, what kind
//! of file it is and, for a numbered pass file, its step and passes.
//!
//! XLA names every file of a module `module_NNNN.<name>.<what>`
//! (`module_0000.jit_fn.cpu_after_optimizations.txt`); XLA:TPU adds a
//! `cl_NNN` part after the name (`module_0000.jit__lambda.cl_933746096.
//! after_codegen.txt`); the module's subfolder (`module_0000.jit_fn/`)
//! holds `module.mlir`, `compile_options.textproto` and
//! `topology.textproto`. A path is `/`-separated and relative to the
//! folder.
//!
//! The kinds are one table, [`KINDS`], one row per [`Kind`]: how the
//! `<what>` part is recognised, what XLA writes there, and whether DumpLab
//! parses it or only lists it. The first row that matches wins. A name no
//! row matches is [`Kind::Unknown`], never dropped.
//!
//! The module's name may in principle hold dots: the name is the shortest
//! run of dot-separated parts after which the rest is a known kind (a
//! numbered pass file, or a row of [`KINDS`]). Linear in the name: at most
//! [`MAX_SPLITS`] split points are tried.

/// Split points tried between a module's name and the rest.
pub const MAX_SPLITS: usize = 32;

/// What a file of the folder is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `before_optimizations.txt`.
    BeforeOptimizations,
    /// `NNNN.<pipeline>.after_<pass>.before_<next>.txt` and the in-pass ones.
    Pass,
    /// `<backend>_after_optimizations.txt` (or TPU's bare one).
    AfterOptimizations,
    /// TPU's `after_optimizations_before_buffer_assignment.txt`.
    BeforeBufferAssignment,
    /// TPU's `after_optimizations_after_buffer_assignment.txt`.
    AfterBufferAssignment,
    /// TPU's `after_codegen.txt`.
    AfterCodegen,
    /// GPU's `after_spmd_partitioner.txt`.
    AfterSpmdPartitioner,
    /// `-buffer-assignment.txt`.
    BufferAssignment,
    /// `-buffer-assignment-values.txt`.
    BufferAssignmentValues,
    /// `-memory-usage-report.txt`.
    MemoryUsageReport,
    /// `-live-range.txt`.
    LiveRange,
    /// `debug_options`.
    DebugOptions,
    /// The subfolder's `module.mlir`.
    ModuleMlir,
    /// The subfolder's `compile_options.textproto`.
    CompileOptions,
    /// The subfolder's `topology.textproto`.
    Topology,
    /// GPU's `thunk_sequence.txt`.
    ThunkSequence,
    /// GPU's `thunk_metadata.txt`.
    ThunkMetadata,
    /// GPU's `priority_fusion_dump.txt`.
    PriorityFusion,
    /// GPU's `autotune_results.pbtxt`.
    AutotuneResults,
    /// GPU's `gpu_target_config.pbtxt`.
    GpuTargetConfig,
    /// GPU's `config.pbtxt`.
    ModuleConfigProto,
    /// TPU's `hlo_module_config.txt`.
    HloModuleConfig,
    /// TPU's `basic_compiler_metadata.txt`.
    CompilerMetadata,
    /// TPU's `execution_options.txt`.
    ExecutionOptions,
    /// TPU's `flagfile`.
    Flagfile,
    /// TPU's `target_arguments.txt`.
    TargetArguments,
    /// TPU's `tpu_comp_env.txt`.
    TpuCompEnv,
    /// TPU's `transfer_stats.txt`.
    TransferStats,
    /// `*.ir-no-opt.ll`.
    LlvmIrNoOpt,
    /// `*.ir-with-opt.ll`.
    LlvmIrWithOpt,
    /// Any other `*.ll`.
    LlvmIr,
    /// `*.ptx`.
    Ptx,
    /// `*.o`.
    Object,
    /// `*.pb`.
    Proto,
    /// `*.pbtxt`, `*.textproto`.
    ProtoText,
    /// `*.dot`.
    Dot,
    /// `*.html`.
    Html,
    /// `*.mlir` outside the subfolder's `module.mlir`.
    Mlir,
    /// A name no row matches.
    Unknown,
}

/// How a row recognises the part of a name after the module
/// (`<what>` in `module_NNNN.<name>.<what>`), or a file of the module's
/// subfolder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A numbered pass file (see [`PassName::parse`]).
    Pass,
    /// Exactly this.
    Exact(&'static str),
    /// This, after an optional backend prefix and `_` (`cpu_`,
    /// `sm_9.0a_gpu_`; see [`is_backend_prefix`]).
    Backend(&'static str),
    /// Ends with this, after something.
    Suffix(&'static str),
    /// Exactly this name inside the module's subfolder.
    Inner(&'static str),
    /// Ends with this, inside the module's subfolder.
    InnerSuffix(&'static str),
    /// No rule: the unknown kind.
    Never,
}

/// One row of [`KINDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindRow {
    /// The kind.
    pub kind: Kind,
    /// Its name in the JSON (`pass`, `buffer-assignment`).
    pub name: &'static str,
    /// How it is recognised.
    pub rule: Rule,
    /// What XLA writes there, in a line.
    pub description: &'static str,
    /// Whether DumpLab parses it (else it is only listed).
    pub parsed: bool,
}

const fn row(
    kind: Kind,
    name: &'static str,
    rule: Rule,
    description: &'static str,
    parsed: bool,
) -> KindRow {
    KindRow {
        kind,
        name,
        rule,
        description,
        parsed,
    }
}

/// The file kinds, one row each, in the order they are tried.
#[rustfmt::skip]
pub const KINDS: &[KindRow] = &[
    row(Kind::BeforeOptimizations, "before-optimizations", Rule::Exact("before_optimizations.txt"),
        "the module as XLA received it, before any pass ran (HLO text)", true),
    row(Kind::Pass, "pass", Rule::Pass,
        "the module after one pass (or a step inside one), numbered in the order written: NNNN.<pipeline>.after_<pass>.before_<next pass> (HLO text)", true),
    row(Kind::AfterOptimizations, "after-optimizations", Rule::Backend("after_optimizations.txt"),
        "the optimized module XLA compiled, scheduled (HLO text)", true),
    row(Kind::BeforeBufferAssignment, "before-buffer-assignment", Rule::Exact("after_optimizations_before_buffer_assignment.txt"),
        "XLA:TPU: the optimized module before buffer assignment (HLO text)", false),
    row(Kind::AfterBufferAssignment, "after-buffer-assignment", Rule::Exact("after_optimizations_after_buffer_assignment.txt"),
        "XLA:TPU: the optimized module after buffer assignment (HLO text)", false),
    row(Kind::AfterCodegen, "after-codegen", Rule::Exact("after_codegen.txt"),
        "XLA:TPU: the module after code generation (HLO text)", false),
    row(Kind::AfterSpmdPartitioner, "after-spmd-partitioner", Rule::Exact("after_spmd_partitioner.txt"),
        "XLA:GPU: the module after the SPMD partitioner (HLO text)", false),
    row(Kind::BufferAssignment, "buffer-assignment", Rule::Backend("after_optimizations-buffer-assignment.txt"),
        "the buffer assignment: every allocation, its size and type, and the values placed in it", true),
    row(Kind::BufferAssignmentValues, "buffer-assignment-values", Rule::Backend("after_optimizations-buffer-assignment-values.txt"),
        "the values of the buffer assignment, each with its positions and uses", false),
    row(Kind::MemoryUsageReport, "memory-usage-report", Rule::Backend("after_optimizations-memory-usage-report.txt"),
        "per memory space, the total bytes and the allocations largest first (cumulative size, size, offset, values, shapes)", true),
    row(Kind::LiveRange, "live-range", Rule::Backend("after_optimizations-live-range.txt"),
        "the schedule's instruction sequence, each value's live range in it, and the peak of live bytes with its breakdown", true),
    row(Kind::DebugOptions, "debug-options", Rule::Exact("debug_options"),
        "XLA's debug options of this compile (proto text)", false),
    row(Kind::ModuleMlir, "module-mlir", Rule::Inner("module.mlir"),
        "the module handed to the compiler, as MLIR (StableHLO)", false),
    row(Kind::CompileOptions, "compile-options", Rule::Inner("compile_options.textproto"),
        "the compile options: the executable build options with their debug options (proto text)", false),
    row(Kind::Topology, "topology", Rule::Inner("topology.textproto"),
        "the device topology the module was compiled for (proto text)", false),
    row(Kind::ThunkSequence, "thunk-sequence", Rule::Exact("thunk_sequence.txt"),
        "XLA:GPU: the thunks the executable runs, in order, with launch dimensions", false),
    row(Kind::ThunkMetadata, "thunk-metadata", Rule::Exact("thunk_metadata.txt"),
        "XLA:GPU: each thunk's id, kind and profile annotation (proto text)", false),
    row(Kind::PriorityFusion, "priority-fusion-dump", Rule::Exact("priority_fusion_dump.txt"),
        "XLA:GPU: the priority fusion pass's steps with their estimated times fused and unfused (proto text)", false),
    row(Kind::AutotuneResults, "autotune-results", Rule::Exact("autotune_results.pbtxt"),
        "XLA:GPU: the autotuner's results (proto text)", false),
    row(Kind::GpuTargetConfig, "gpu-target-config", Rule::Exact("gpu_target_config.pbtxt"),
        "XLA:GPU: the target device's description (threads, shared memory, cores; proto text)", false),
    row(Kind::ModuleConfigProto, "module-config", Rule::Exact("config.pbtxt"),
        "XLA:GPU: the module's configuration, entry computation layout first (proto text)", false),
    row(Kind::HloModuleConfig, "hlo-module-config", Rule::Exact("hlo_module_config.txt"),
        "XLA:TPU: the module's configuration, entry computation layout first (proto text)", false),
    row(Kind::CompilerMetadata, "compiler-metadata", Rule::Exact("basic_compiler_metadata.txt"),
        "XLA:TPU: the compile's metadata (program id, optimized instruction count, module name; proto text)", false),
    row(Kind::ExecutionOptions, "execution-options", Rule::Exact("execution_options.txt"),
        "XLA:TPU: the execution options (replicas, device assignment; proto text)", false),
    row(Kind::Flagfile, "flagfile", Rule::Exact("flagfile"),
        "XLA:TPU: every compiler flag of the compile, one --flag=value a line", false),
    row(Kind::TargetArguments, "target-arguments", Rule::Exact("target_arguments.txt"),
        "XLA:TPU: the target's arguments (topology, replica count, reserved HBM; proto text)", false),
    row(Kind::TpuCompEnv, "tpu-comp-env", Rule::Exact("tpu_comp_env.txt"),
        "XLA:TPU: the TPU compilation environment's options (proto text)", false),
    row(Kind::TransferStats, "transfer-stats", Rule::Exact("transfer_stats.txt"),
        "XLA:TPU: host DMA and transfer sizes (proto text)", false),
    row(Kind::LlvmIrNoOpt, "llvm-ir-no-opt", Rule::Suffix(".ir-no-opt.ll"),
        "LLVM IR that XLA generated, before LLVM's optimizations", false),
    row(Kind::LlvmIrWithOpt, "llvm-ir-with-opt", Rule::Suffix(".ir-with-opt.ll"),
        "LLVM IR that XLA generated, after LLVM's optimizations", false),
    row(Kind::LlvmIr, "llvm-ir", Rule::Suffix(".ll"),
        "LLVM IR", false),
    row(Kind::Ptx, "ptx", Rule::Suffix(".ptx"),
        "XLA:GPU: PTX assembly generated for the module's kernels", false),
    row(Kind::Object, "object-file", Rule::Suffix(".o"),
        "XLA:CPU: an object file of compiled machine code (binary)", false),
    row(Kind::Proto, "proto", Rule::Suffix(".pb"),
        "a binary protocol buffer", false),
    row(Kind::ProtoText, "proto-text", Rule::Suffix(".pbtxt"),
        "a protocol buffer as text", false),
    row(Kind::ProtoText, "proto-text", Rule::InnerSuffix(".textproto"),
        "a protocol buffer as text", false),
    row(Kind::Dot, "dot", Rule::Suffix(".dot"),
        "a graph in Graphviz's dot language", false),
    row(Kind::Html, "html", Rule::Suffix(".html"),
        "a page of HTML", false),
    row(Kind::Mlir, "mlir", Rule::Suffix(".mlir"),
        "MLIR text", false),
    row(Kind::Mlir, "mlir", Rule::InnerSuffix(".mlir"),
        "MLIR text", false),
    row(Kind::Unknown, "unknown", Rule::Never,
        "a file DumpLab does not know", false),
];

impl Kind {
    /// Its first row of [`KINDS`].
    pub fn row(self) -> Option<&'static KindRow> {
        KINDS.iter().find(|r| r.kind == self)
    }

    /// Its name in the JSON.
    pub fn as_str(self) -> &'static str {
        self.row().map_or("unknown", |r| r.name)
    }

    /// Whether DumpLab parses files of this kind.
    pub fn parsed(self) -> bool {
        self.row().is_some_and(|r| r.parsed)
    }

    /// Whether its text is HLO that the pass story reads
    /// (`before_optimizations` and the numbered files).
    pub fn in_story(self) -> bool {
        matches!(self, Kind::BeforeOptimizations | Kind::Pass)
    }
}

/// A numbered pass file's name: `NNNN.<pipeline>.after_<pass>.before_<next>.txt`,
/// or an in-pass one (`NNNN.copy-insertion.after_adding_copies_to_resolve_interference.txt`,
/// `NNNN.tpu-tiling-rewriter.before_tiling_rewriter.txt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassName<'a> {
    /// The file's number: the order XLA wrote it in.
    pub step: u32,
    /// The pipeline.
    pub pipeline: &'a str,
    /// `after_<pass>`'s pass (or the step inside one); `None` for a file
    /// named only `before_<next>`.
    pub pass: Option<&'a str>,
    /// `before_<next>`'s pass; `None` for an in-pass file.
    pub next: Option<&'a str>,
}

impl<'a> PassName<'a> {
    /// Reads `<what>` as a numbered pass file, or `None`.
    pub fn parse(what: &'a str) -> Option<PassName<'a>> {
        let body = what.strip_suffix(".txt")?;
        let (num, rest) = body.split_once('.')?;
        if num.len() < 4 || !num.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let step = num.parse().ok()?;
        let (pipeline, pass, next) = if let Some(at) = rest.find(".after_") {
            let pipeline = rest.get(..at)?;
            let after = rest.get(at + ".after_".len()..)?;
            match after.find(".before_") {
                Some(b) => (
                    pipeline,
                    Some(after.get(..b)?),
                    Some(after.get(b + ".before_".len()..)?),
                ),
                None => (pipeline, Some(after), None),
            }
        } else {
            let at = rest.find(".before_")?;
            (
                rest.get(..at)?,
                None,
                Some(rest.get(at + ".before_".len()..)?),
            )
        };
        let ok = |s: &str| !s.is_empty();
        (ok(pipeline) && pass.is_none_or(ok) && next.is_none_or(ok)).then_some(PassName {
            step,
            pipeline,
            pass,
            next,
        })
    }
}

/// Whether `p` is a backend prefix of `<backend>_after_optimizations`: a
/// word of letters, digits and `_` (`cpu`, `gpu`), or XLA:GPU's compute
/// capability form `sm_<major>.<minor><letters>_gpu` (`sm_9.0a_gpu`).
pub fn is_backend_prefix(p: &str) -> bool {
    let word = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if word(p) {
        return true;
    }
    let Some(rest) = p.strip_prefix("sm_").and_then(|r| r.strip_suffix("_gpu")) else {
        return false;
    };
    let Some((major, minor)) = rest.split_once('.') else {
        return false;
    };
    let digits = minor.bytes().take_while(u8::is_ascii_digit).count();
    !major.is_empty()
        && major.bytes().all(|b| b.is_ascii_digit())
        && digits > 0
        && minor
            .get(digits..)
            .is_some_and(|l| l.bytes().all(|b| b.is_ascii_alphabetic()))
}

impl Rule {
    /// Whether `what` matches, for a top-level file (`inner` false) or a
    /// file of the module's subfolder.
    pub fn matches(self, what: &str, inner: bool) -> bool {
        match self {
            Rule::Pass => !inner && PassName::parse(what).is_some(),
            Rule::Exact(s) => !inner && what == s,
            Rule::Backend(s) => {
                !inner
                    && (what == s
                        || what
                            .strip_suffix(s)
                            .and_then(|p| p.strip_suffix('_'))
                            .is_some_and(is_backend_prefix))
            }
            Rule::Suffix(s) => !inner && what.len() > s.len() && what.ends_with(s),
            Rule::Inner(s) => inner && what == s,
            Rule::InnerSuffix(s) => inner && what.len() > s.len() && what.ends_with(s),
            Rule::Never => false,
        }
    }
}

/// The kind of `what` (top-level or in the subfolder): the first row that
/// matches.
pub fn kind_of(what: &str, inner: bool) -> Kind {
    KINDS
        .iter()
        .find(|r| r.rule.matches(what, inner))
        .map_or(Kind::Unknown, |r| r.kind)
}

/// The module a file belongs to: `module_0000`, `jit_fn`, TPU's `cl_NNN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModuleName<'a> {
    /// `module_0000`.
    pub id: &'a str,
    /// The number in the id.
    pub number: u64,
    /// The module's name (`jit_fn`).
    pub name: &'a str,
    /// XLA:TPU's `cl_NNN` part, when there is one.
    pub cl: Option<&'a str>,
}

/// What one path of the folder is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileName<'a> {
    /// Its module, when the name has one.
    pub module: Option<ModuleName<'a>>,
    /// Its kind.
    pub kind: Kind,
    /// A numbered pass file's parts.
    pub pass: Option<PassName<'a>>,
    /// Whether it lies in the module's subfolder.
    pub inner: bool,
}

/// `module_NNNN` and its number.
fn module_id(s: &str) -> Option<u64> {
    let d = s.strip_prefix("module_")?;
    (!d.is_empty() && d.len() <= 18 && d.bytes().all(|b| b.is_ascii_digit()))
        .then(|| d.parse().ok())
        .flatten()
}

fn is_cl(s: &str) -> bool {
    s.strip_prefix("cl_")
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// Splits `<name>[.cl_NNN]` (a subfolder's name after its id).
fn name_and_cl(s: &str) -> (&str, Option<&str>) {
    match s.rsplit_once('.') {
        Some((name, cl)) if is_cl(cl) && !name.is_empty() => (name, Some(cl)),
        _ => (s, None),
    }
}

/// Reads one path (see the module docs).
pub fn parse(path: &str) -> FileName<'_> {
    let unknown = FileName {
        module: None,
        kind: Kind::Unknown,
        pass: None,
        inner: false,
    };
    match path.split_once('/') {
        Some((dir, file)) => {
            let Some((id, rest)) = dir.split_once('.') else {
                return unknown;
            };
            let (Some(number), false) = (module_id(id), rest.is_empty() || file.contains('/'))
            else {
                return unknown;
            };
            let (name, cl) = name_and_cl(rest);
            FileName {
                module: Some(ModuleName {
                    id,
                    number,
                    name,
                    cl,
                }),
                kind: kind_of(file, true),
                pass: None,
                inner: true,
            }
        }
        None => top_level(path).unwrap_or(unknown),
    }
}

/// A top-level `module_NNNN.<name>[.cl_NNN].<what>`.
fn top_level(path: &str) -> Option<FileName<'_>> {
    let (id, rest) = path.split_once('.')?;
    let number = module_id(id)?;
    let mut split = None;
    for (n, (at, _)) in rest.match_indices('.').enumerate() {
        if n >= MAX_SPLITS {
            break;
        }
        let name = rest.get(..at)?;
        let after = rest.get(at + 1..)?;
        let (cl, what) = match after.split_once('.') {
            Some((cl, what)) if is_cl(cl) => (Some(cl), what),
            _ => (None, after),
        };
        if name.is_empty() {
            continue;
        }
        let kind = kind_of(what, false);
        if kind != Kind::Unknown {
            split = Some((name, cl, what, kind));
            break;
        }
        // Nothing matches: the first split names the module.
        split = split.or(Some((name, cl, what, Kind::Unknown)));
    }
    let (name, cl, what, kind) = split?;
    Some(FileName {
        module: Some(ModuleName {
            id,
            number,
            name,
            cl,
        }),
        kind,
        pass: (kind == Kind::Pass)
            .then(|| PassName::parse(what))
            .flatten(),
        inner: false,
    })
}
