//! The marker vocabulary: short names for the clues [`analyze`](super::analyze)
//! reports as [`Evidence`](super::Evidence), shared with instructors' fixture
//! annotations.
//!
//! A fixture says "line 12 shows `fusion-kind`"; the fixture validator checks
//! that with [`marker_matches`], which looks at that single line only. So each
//! marker is defined by what one line of text shows, and the analysis never
//! reports a marker on a line where [`marker_matches`] would say no.
//!
//! What each marker means is data ([`marker_description`]), listed with a
//! real line from the fixtures in `fixtures/MARKERS.md`
//! (`mdbook-dumplab markers` prints it).

/// Marker ids, in the order of [`marker_names`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum M {
    JaxprLambda,
    JaxprLet,
    JaxprEquation,
    JaxprIn,
    JaxprSubjaxpr,
    MlirModule,
    FuncMain,
    FuncFunc,
    StablehloOp,
    MlirTensorType,
    MlirLoc,
    HloModuleHeader,
    IsScheduled,
    NotScheduled,
    EntryComputation,
    HloInstruction,
    Layout,
    FusionKind,
    FusedComputation,
    FusedParameter,
    TpuTiledLayout,
    MemorySpace,
    BackendConfig,
    GpuBackendConfig,
    CpuBackendConfig,
    CustomCall,
    GpuCustomCall,
    CpuCustomCall,
    TpuCustomCall,
    ShardingCustomCall,
    AsyncOp,
    LayoutOp,
    While,
    Conditional,
    Metadata,
    ComputationHeader,
    UnsignedComputation,
    BareNames,
    TpuBackendConfig,
    SchedulingName,
    StackFrames,
    MosaicTpuKernel,
    TritonKernel,
    MosaicGpuKernel,
    EntryLayoutTiles,
    CopyInstruction,
    MhloOp,
    GpuFusionName,
    CompilerCustomCall,
}

/// How many markers there are.
pub(crate) const COUNT: usize = 49;

const NAMES: [&str; COUNT] = [
    "jaxpr-lambda",
    "jaxpr-let",
    "jaxpr-equation",
    "jaxpr-in",
    "jaxpr-subjaxpr",
    "mlir-module",
    "func-main",
    "func-func",
    "stablehlo-op",
    "mlir-tensor-type",
    "mlir-loc",
    "hlo-module-header",
    "is-scheduled",
    "not-scheduled",
    "entry-computation",
    "hlo-instruction",
    "layout",
    "fusion-kind",
    "fused-computation",
    "fused-parameter",
    "tpu-tiled-layout",
    "memory-space",
    "backend-config",
    "gpu-backend-config",
    "cpu-backend-config",
    "custom-call",
    "gpu-custom-call",
    "cpu-custom-call",
    "tpu-custom-call",
    "sharding-custom-call",
    "async-op",
    "layout-op",
    "while",
    "conditional",
    "metadata",
    "computation-header",
    "unsigned-computation",
    "bare-names",
    "tpu-backend-config",
    "scheduling-name",
    "stack-frames",
    "mosaic-tpu-kernel",
    "triton-kernel",
    "mosaic-gpu-kernel",
    "entry-layout-tiles",
    "copy-instruction",
    "mhlo-op",
    "gpu-fusion-name",
    "compiler-custom-call",
];

/// What a line with each marker shows, in the order of [`NAMES`].
const DESCRIPTIONS: [&str; COUNT] = [
    "A jaxpr opens with `{ lambda`, its input variables and a `;` before the `let`.",
    "The `let` keyword opens the equations of a jaxpr.",
    "A jaxpr equation binds typed variables to a primitive: `c:f32[8] = add a b`.",
    "The `in (...)` clause names what a jaxpr returns.",
    "A parameter holds a nested jaxpr (`jaxpr={ lambda ...`), as `pjit`, `scan`, `while` and `cond` do.",
    "An MLIR `module @name` opens the lowered program.",
    "`func.func public @main` is the entry point of a lowered module.",
    "A `func.func` defines an MLIR function.",
    "An operation of the StableHLO dialect (`stablehlo.add`, `stablehlo.dot_general`, ...) or of CHLO, its companion dialect of composite ops (`chlo.erf`, `chlo.square`), which lowering to HLO expands.",
    "An MLIR tensor type such as `tensor<8x128xf32>`, which HLO and jaxprs never print.",
    "An MLIR source location, `loc(...)` or a `#loc` alias line.",
    "`HloModule name, ...` starts an HLO module and lists its attributes.",
    "`is_scheduled=true`: XLA has fixed the order instructions run in, which only a compiled module has.",
    "An `HloModule` header without `is_scheduled=true`: nobody has scheduled this module, so it was not compiled.",
    "`ENTRY` marks the computation that runs when the module is called.",
    "An HLO instruction: `name = shape opcode(operands), attributes`.",
    "A minor-to-major layout after a shape, such as `f32[8,128]{1,0}`; it does not prove compilation.",
    "A `fusion` instruction with its kind (`kind=kLoop`, `kInput`, `kOutput`, `kCustom`): XLA's fusion pass ran.",
    "The header of a computation that a `fusion` instruction calls (`%fused_computation`, `%triton_softmax_computation`, ...), or the fusion's `calls=` naming it.",
    "A parameter (or an operand) named `param_N`, as the fusion pass names the inputs of fused computations; JAX names entry parameters after the Python arguments, so only an argument literally called `param_0` would look the same.",
    "A tiled layout such as `{1,0:T(8,128)}`, which XLA:TPU assigns.",
    "A memory-space annotation `S(n)` in a layout: the buffer lives outside default memory (for example on-chip memory).",
    "`backend_config=`: backend-specific settings the compiler attached to an instruction.",
    "A GPU backend config (`operation_queue_id`, `fusion_backend_config`, `cudnn`/`triton`/`cublas` settings).",
    "A CPU backend config (`outer_dimension_partitions`, oneDNN or XLA:CPU thunk settings).",
    "A `custom-call` with its `custom_call_target`: a call out of XLA into another library.",
    "A custom call into a GPU library: `__cublas$gemm`, `__cudnn$...`, Triton.",
    "A custom call into a CPU library: `__onednn$...`, LAPACK (`lapack_...`), Eigen/XLA:CPU runtime targets.",
    "A custom call only XLA:TPU understands (`tpu_custom_call` for Pallas/Mosaic kernels, TPU-only targets).",
    "`custom_call_target=\"Sharding\"` (or the SPMD shape shims) as JAX lowers them; partitioning removes them.",
    "An async `-start`/`-done` pair (`copy-start`, `all-reduce-start`, ...) that XLA's scheduler creates.",
    "A `bitcast` or `copy` that XLA inserts while compiling (layout assignment, copy insertion, memory-space assignment); JAX's lowering does not emit them.",
    "A `while` loop with its `condition=` and `body=` computations.",
    "A `conditional` choosing between branch computations.",
    "`metadata={op_name=... source_file=... source_line=...}`: which JAX op and source line an instruction came from.",
    "An HLO computation header with its signature, `name (params) -> shape {`.",
    "An HLO computation header without a signature (`region_0.1 {`), as `as_text(dialect=\"hlo\")` prints before compilation.",
    "HLO instructions named without `%` (`x.1 = f32[8]{0} parameter(0)`), as `as_text(dialect=\"hlo\")` prints them; compiled modules print `%x.1`.",
    "A TPU backend config (`flag_configs`, `window_config`, `scoped_memory_configs`, `estimated_cycles`) or `cross_program_prefetch_index`.",
    "`scheduling_name=` in an instruction's metadata, which XLA:GPU's scheduling passes add during compilation.",
    "A `FileNames`, `FunctionNames`, `FileLocations` or `StackFrames` section that indexes source locations.",
    "A Mosaic kernel for the TPU: a `tpu_custom_call` (compiled or lowered) whose `backend_config` carries the kernel as serialized MLIR (`body`). It is a Pallas kernel when its `metadata` `op_name` ends in `pallas_call` (a lowered line always is, and names it in `kernel_name`); XLA:TPU also writes Mosaic kernels of its own.",
    "A Triton kernel as a custom call, `__gpu$xla.gpu.triton` (compiled or lowered), as Pallas emits it for a GPU: its `backend_config` holds the grid, `num_warps`, `num_stages`, the Triton IR (`ir`) and the kernel's `name`. XLA's own Triton kernels are `fusion`s, not custom calls.",
    "A Mosaic GPU kernel as a custom call, `mosaic_gpu_v2` (compiled or lowered), as Pallas emits it for a GPU: its `backend_config` carries a `kernel_hash` and the kernel as a serialized MLIR `module`.",
    "Tiles such as `{1,0:T(8,128)}` in the module header's `entry_computation_layout`: the TPU client sets them before any pass runs, so they name a TPU but do not prove compilation.",
    "A `copy` instruction: layout assignment and copy insertion add them while compiling, but front ends emit them too (TensorFlow's bridge, for return values), so a copy alone proves nothing.",
    "An operation of the MHLO dialect (`mhlo.add`, `mhlo.dot_general`), which older JAX releases printed for the lowered module.",
    "A fusion named by XLA:GPU's GEMM or Triton rewriters (`%gemm_fusion_dot.1`, `%triton_softmax.2`, `calls=%gemm_fusion_dot.1_computation`).",
    "A custom call that XLA's own rewriters make while compiling: oneDNN on CPU (`__onednn$softmax`, `__onednn$matmul`), cuBLAS GEMMs and cuDNN convolutions on GPU (`__cublas$gemm`, `__cudnn$convForward`); front ends do not emit them.",
];

const ALL: [M; COUNT] = [
    M::JaxprLambda,
    M::JaxprLet,
    M::JaxprEquation,
    M::JaxprIn,
    M::JaxprSubjaxpr,
    M::MlirModule,
    M::FuncMain,
    M::FuncFunc,
    M::StablehloOp,
    M::MlirTensorType,
    M::MlirLoc,
    M::HloModuleHeader,
    M::IsScheduled,
    M::NotScheduled,
    M::EntryComputation,
    M::HloInstruction,
    M::Layout,
    M::FusionKind,
    M::FusedComputation,
    M::FusedParameter,
    M::TpuTiledLayout,
    M::MemorySpace,
    M::BackendConfig,
    M::GpuBackendConfig,
    M::CpuBackendConfig,
    M::CustomCall,
    M::GpuCustomCall,
    M::CpuCustomCall,
    M::TpuCustomCall,
    M::ShardingCustomCall,
    M::AsyncOp,
    M::LayoutOp,
    M::While,
    M::Conditional,
    M::Metadata,
    M::ComputationHeader,
    M::UnsignedComputation,
    M::BareNames,
    M::TpuBackendConfig,
    M::SchedulingName,
    M::StackFrames,
    M::MosaicTpuKernel,
    M::TritonKernel,
    M::MosaicGpuKernel,
    M::EntryLayoutTiles,
    M::CopyInstruction,
    M::MhloOp,
    M::GpuFusionName,
    M::CompilerCustomCall,
];

impl M {
    /// The marker's name.
    pub(crate) fn name(self) -> &'static str {
        NAMES.get(self as usize).copied().unwrap_or("")
    }

    fn matches(self, l: &str) -> bool {
        match self {
            M::JaxprLambda => has_lambda(l),
            M::JaxprLet => l.split_whitespace().any(|w| w == "let"),
            M::JaxprEquation => super::jaxpr::parse_equation(l).is_some() || l.contains(". let "),
            M::JaxprIn => l.trim_start().starts_with("in ") || l.contains(" in ("),
            M::JaxprSubjaxpr => l.contains("{ lambda"),
            M::MlirModule => l.trim_start().starts_with("module"),
            M::FuncMain => l.trim_start().starts_with("func.func") && l.contains("@main"),
            M::FuncFunc => l.trim_start().starts_with("func.func"),
            M::StablehloOp => l.contains("stablehlo.") || l.contains("chlo."),
            M::MlirTensorType => l.contains("tensor<"),
            M::MlirLoc => l.contains("loc(") || l.trim_start().starts_with("#loc"),
            M::HloModuleHeader => l.trim_start().starts_with("HloModule"),
            M::IsScheduled => l.contains("is_scheduled=true"),
            M::NotScheduled => {
                l.trim_start().starts_with("HloModule") && !l.contains("is_scheduled=true")
            }
            M::EntryComputation => l.trim_start().starts_with("ENTRY"),
            M::HloInstruction => super::hlo::parse_instruction(l).is_some(),
            M::Layout => has_layout(l),
            M::FusionKind => {
                super::hlo::parse_instruction(l).is_some_and(|i| i.opcode == "fusion")
                    && l.contains("kind")
            }
            M::FusedComputation => {
                l.contains("calls=") || super::hlo::parse_computation_header(l).is_some()
            }
            M::FusedParameter => has_param_name(l),
            M::TpuTiledLayout => has_tiling(l),
            M::MemorySpace => has_memory_space(l),
            M::BackendConfig => l.contains("backend_config"),
            M::GpuBackendConfig => super::hlo::gpu_config_key(l).is_some(),
            M::CpuBackendConfig => super::hlo::cpu_config_key(l).is_some(),
            M::CustomCall => l.contains("custom_call_target"),
            M::GpuCustomCall => super::hlo::gpu_custom_call_target(l).is_some(),
            M::CpuCustomCall => super::hlo::cpu_custom_call_target(l).is_some(),
            M::TpuCustomCall => super::hlo::tpu_custom_call_target(l).is_some(),
            M::ShardingCustomCall => super::hlo::sharding_custom_call_target(l).is_some(),
            M::AsyncOp => super::hlo::parse_instruction(l)
                .is_some_and(|i| i.opcode.ends_with("-start") || i.opcode.ends_with("-done")),
            M::LayoutOp => super::hlo::parse_instruction(l)
                .is_some_and(|i| i.opcode == "bitcast" || i.opcode == "copy"),
            M::While => super::hlo::parse_instruction(l).is_some_and(|i| i.opcode == "while"),
            M::Conditional => {
                super::hlo::parse_instruction(l).is_some_and(|i| i.opcode == "conditional")
            }
            M::Metadata => l.contains("metadata"),
            M::ComputationHeader => {
                super::hlo::parse_computation_header(l).is_some_and(|h| h.signed)
            }
            M::UnsignedComputation => {
                super::hlo::parse_computation_header(l).is_some_and(|h| !h.signed)
            }
            M::BareNames => super::hlo::parse_instruction(l).is_some_and(|i| !i.percent),
            M::TpuBackendConfig => super::hlo::tpu_config_key(l).is_some(),
            M::SchedulingName => l.contains("scheduling_name="),
            M::MosaicTpuKernel | M::TritonKernel | M::MosaicGpuKernel => {
                super::pallas::kernel_call(l).is_some_and(|k| k.flavour.marker() == self)
            }
            M::StackFrames => matches!(
                l.trim(),
                "FileNames" | "FunctionNames" | "FileLocations" | "StackFrames"
            ),
            // The header's only layouts are its `entry_computation_layout`.
            M::EntryLayoutTiles => l.trim_start().starts_with("HloModule") && has_tiling(l),
            M::CopyInstruction => {
                super::hlo::parse_instruction(l).is_some_and(|i| i.opcode == "copy")
            }
            M::MhloOp => l.contains("mhlo."),
            M::GpuFusionName => super::hlo::parse_instruction(l)
                .is_some_and(|i| i.opcode == "fusion" && super::hlo::gpu_fusion_name(l).is_some()),
            M::CompilerCustomCall => super::hlo::compiler_custom_call_target(l).is_some(),
        }
    }
}

/// What a line showing `marker` shows, in one sentence; `None` for an
/// unknown marker.
pub fn marker_description(marker: &str) -> Option<&'static str> {
    NAMES
        .iter()
        .position(|n| *n == marker)
        .and_then(|i| DESCRIPTIONS.get(i).copied())
}

/// Every marker name, in table order.
pub fn marker_names() -> &'static [&'static str] {
    &NAMES
}

/// Whether `line` (a single line of a dump) shows what `marker` says.
///
/// `None` when `marker` is not a marker name (see [`marker_names`]).
pub fn marker_matches(marker: &str, line: &str) -> Option<bool> {
    ALL.iter()
        .find(|m| m.name() == marker)
        .map(|m| m.matches(line))
}

/// Every marker, in table order.
pub(crate) fn all() -> &'static [M] {
    &ALL
}

/// The marker called `name`.
pub(crate) fn by_name(name: &str) -> Option<M> {
    ALL.iter().copied().find(|m| m.name() == name)
}

/// The `&'static` form of a marker name, when it is one.
pub fn canonical(marker: &str) -> Option<&'static str> {
    NAMES.iter().copied().find(|n| *n == marker)
}

fn has_lambda(l: &str) -> bool {
    l.contains("{ lambda")
}

/// `]{` followed by a digit or `}`: a layout printed after a shape.
pub(crate) fn has_layout(l: &str) -> bool {
    // From each `]` (a byte search), look at the two bytes after it.
    let b = l.as_bytes();
    let mut i = 0usize;
    while let Some(at) = super::scan::find_byte(b, i, b']') {
        if b.get(at + 1) == Some(&b'{')
            && b.get(at + 2)
                .is_some_and(|&c| c.is_ascii_digit() || c == b'}')
        {
            return true;
        }
        i = at + 1;
    }
    false
}

/// `param_` followed by a digit, starting a name.
pub(crate) fn has_param_name(l: &str) -> bool {
    find_all(l, "param_").any(|i| {
        let before_ok = i == 0 || !is_ident_byte(l.as_bytes().get(i - 1).copied().unwrap_or(b' '));
        before_ok && l.as_bytes().get(i + 6).is_some_and(|c| c.is_ascii_digit())
    })
}

/// A tile `T(` digits inside a layout (`:T(8,128)` or `)T(` chained tiles).
pub(crate) fn has_tiling(l: &str) -> bool {
    find_all(l, "T(").any(|i| {
        let prev = if i == 0 {
            b' '
        } else {
            l.as_bytes().get(i - 1).copied().unwrap_or(b' ')
        };
        (prev == b':' || prev == b')')
            && l.as_bytes().get(i + 2).is_some_and(|c| c.is_ascii_digit())
    })
}

/// `S(` digits `)` inside a layout, after `:` or `)`.
pub(crate) fn has_memory_space(l: &str) -> bool {
    find_all(l, "S(").any(|i| {
        let prev = if i == 0 {
            b' '
        } else {
            l.as_bytes().get(i - 1).copied().unwrap_or(b' ')
        };
        (prev == b':' || prev == b')')
            && l.as_bytes().get(i + 2).is_some_and(|c| c.is_ascii_digit())
    })
}

pub(crate) fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'-'
}

use super::scan::find_all;
