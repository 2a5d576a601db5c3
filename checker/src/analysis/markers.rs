//! The marker vocabulary: short names for the clues [`analyze`](super::analyze)
//! reports as [`Evidence`](super::Evidence), shared with instructors' fixture
//! annotations, as one table with one row per marker (`markers!` below).
//!
//! A row says everything DumpLab knows about a marker besides how to find it:
//! its name, what a line showing it shows (the description instructors read
//! in `fixtures/MARKERS.md`, which `mdbook-dumplab markers` generates), the
//! chapter that teaches it (the playground links it), its rank when a fixture
//! draft picks evidence, the [`Detector`] (concern) that finds it, how often
//! it occurs (how many of its clues the evidence list keeps), and, for the
//! markers that name a backend, the words the learner's hint uses for it.
//! Every field is written out in every row: nothing falls back to a default,
//! so a new marker is one row here and one detector.
//!
//! What one line with each marker shows is decided in [`super::line_match`]
//! (the fixture validator's check); the table depends on nothing, so every
//! layer of the analysis can name markers.

/// The chapter (page of the book) that teaches a marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chapter {
    /// `jaxpr.md`.
    Jaxpr,
    /// `stablehlo.md`.
    Stablehlo,
    /// `hlo.md`.
    Hlo,
    /// `fusion.md`.
    Fusion,
    /// `layouts.md`.
    Layouts,
    /// `buffer-assignment.md`.
    BufferAssignment,
    /// `pallas.md`.
    Pallas,
}

impl Chapter {
    /// Every chapter a marker can name.
    pub const ALL: [Chapter; 7] = [
        Chapter::Jaxpr,
        Chapter::Stablehlo,
        Chapter::Hlo,
        Chapter::Fusion,
        Chapter::Layouts,
        Chapter::BufferAssignment,
        Chapter::Pallas,
    ];

    /// The chapter's page in the built book (`fusion.html`); its source is
    /// the same name ending in `.md` under `src/`.
    pub fn page(self) -> &'static str {
        match self {
            Chapter::Jaxpr => "jaxpr.html",
            Chapter::Stablehlo => "stablehlo.html",
            Chapter::Hlo => "hlo.html",
            Chapter::Fusion => "fusion.html",
            Chapter::Layouts => "layouts.html",
            Chapter::BufferAssignment => "buffer-assignment.html",
            Chapter::Pallas => "pallas.html",
        }
    }
}

/// Where a marker's lines come when `mdbook-dumplab fixture draft` picks
/// evidence: markers that teach the most come first (what proves the kind,
/// then what the compiler decided), ties by line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Draft {
    /// This rank (0 first); no two markers share one.
    Rank(u8),
    /// After every ranked marker.
    Last,
}

/// The concern of the analysis that finds a marker: one detector each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Detector {
    /// jaxpr syntax (`jaxpr.rs`).
    Jaxpr,
    /// MLIR: StableHLO, MHLO, CHLO and their functions and locations (`mlir.rs`).
    Mlir,
    /// The module header and the schedule: `is_scheduled`, async pairs,
    /// scheduling names.
    Schedule,
    /// The shape of an HLO module: instructions, computations, `ENTRY`,
    /// control flow.
    Structure,
    /// Layouts and tiles, memory spaces, the instructions layout
    /// assignment inserts.
    Layout,
    /// Fusion kinds, fused computations and their parameters, fusion names.
    Fusion,
    /// Custom-call targets.
    CustomCall,
    /// Backend configs.
    BackendConfig,
    /// Pallas kernels (`pallas.rs`).
    Pallas,
    /// Printer habits: what the printer of `as_text(dialect="hlo")` leaves out.
    Printer,
    /// Source information: metadata and the source tables.
    Source,
}

impl Detector {
    /// The detector's name, as the marker reference could print it.
    pub fn name(self) -> &'static str {
        match self {
            Detector::Jaxpr => "jaxpr",
            Detector::Mlir => "mlir",
            Detector::Schedule => "schedule",
            Detector::Structure => "structure",
            Detector::Layout => "layout",
            Detector::Fusion => "fusion",
            Detector::CustomCall => "custom-call",
            Detector::BackendConfig => "backend-config",
            Detector::Pallas => "pallas",
            Detector::Printer => "printer",
            Detector::Source => "source",
        }
    }
}

/// How often a marker's lines occur, which sets how many of its clues the
/// evidence list keeps (every line is still marked in
/// [`LineMarkers`](super::LineMarkers)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frequency {
    /// Found on nearly every line of its dialect: a few clues say enough.
    Common,
    /// Worth listing: up to the evidence cap.
    Rare,
}

/// One row of the marker table (see the module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row {
    /// The marker.
    pub(crate) marker: M,
    /// Its name, as annotations and `analyze --json` spell it.
    pub(crate) name: &'static str,
    /// What a line with it shows, in a sentence or two.
    pub(crate) description: &'static str,
    /// The chapter that teaches it.
    pub(crate) chapter: Chapter,
    /// Its rank in a fixture draft.
    pub(crate) draft: Draft,
    /// The concern that finds it.
    pub(crate) detector: Detector,
    /// How often it occurs.
    pub(crate) frequency: Frequency,
    /// For a marker that proves a backend claim: the words a learner's hint
    /// ("Look for what only XLA:TPU writes: ...") names it with; markers
    /// with the same words are named once.
    pub(crate) backend_clue: Option<&'static str>,
}

/// Defines the marker ids ([`M`], in table order), [`COUNT`] and the table
/// ([`ROWS`]) from one list: each entry is a variant and its row's fields,
/// so no marker exists without a row and no row without its marker.
macro_rules! markers {
    ($($variant:ident { $($field:ident: $value:expr),* $(,)? }),* $(,)?) => {
        /// Marker ids, in table order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub(crate) enum M {
            $(
                /// See its row in [`ROWS`].
                $variant,
            )*
        }

        /// How many markers there are.
        pub(crate) const COUNT: usize = [$(M::$variant),*].len();

        /// The marker table, one row per marker, in the order of [`M`].
        pub(crate) const ROWS: [Row; COUNT] = [$(Row { marker: M::$variant, $($field: $value),* }),*];
    };
}

markers! {
    JaxprLambda {
        name: "jaxpr-lambda",
        description: "A jaxpr opens with `{ lambda`, its input variables and a `;` before the `let`.",
        chapter: Chapter::Jaxpr,
        draft: Draft::Rank(2),
        detector: Detector::Jaxpr,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    JaxprLet {
        name: "jaxpr-let",
        description: "The `let` keyword opens the equations of a jaxpr.",
        chapter: Chapter::Jaxpr,
        draft: Draft::Last,
        detector: Detector::Jaxpr,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    JaxprEquation {
        name: "jaxpr-equation",
        description: "A jaxpr equation binds typed variables to a primitive: `c:f32[8] = add a b`.",
        chapter: Chapter::Jaxpr,
        draft: Draft::Rank(20),
        detector: Detector::Jaxpr,
        frequency: Frequency::Common,
        backend_clue: None,
    },
    JaxprIn {
        name: "jaxpr-in",
        description: "The `in (...)` clause names what a jaxpr returns.",
        chapter: Chapter::Jaxpr,
        draft: Draft::Last,
        detector: Detector::Jaxpr,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    JaxprSubjaxpr {
        name: "jaxpr-subjaxpr",
        description: "A parameter holds a nested jaxpr (`jaxpr={ lambda ...`), as `pjit`, `scan`, `while` and `cond` do.",
        chapter: Chapter::Jaxpr,
        draft: Draft::Rank(18),
        detector: Detector::Jaxpr,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    MlirModule {
        name: "mlir-module",
        description: "An MLIR `module @name` opens the lowered program.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Last,
        detector: Detector::Mlir,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    FuncMain {
        name: "func-main",
        description: "`func.func public @main` is the entry point of a lowered module.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Rank(3),
        detector: Detector::Mlir,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    FuncFunc {
        name: "func-func",
        description: "A `func.func` defines an MLIR function.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Last,
        detector: Detector::Mlir,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    StablehloOp {
        name: "stablehlo-op",
        description: "An operation of the StableHLO dialect (`stablehlo.add`, `stablehlo.dot_general`, ...) or of CHLO, its companion dialect of composite ops (`chlo.erf`, `chlo.square`), which lowering to HLO expands.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Rank(19),
        detector: Detector::Mlir,
        frequency: Frequency::Common,
        backend_clue: None,
    },
    MlirTensorType {
        name: "mlir-tensor-type",
        description: "An MLIR tensor type such as `tensor<8x128xf32>`, which HLO and jaxprs never print.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Last,
        detector: Detector::Mlir,
        frequency: Frequency::Common,
        backend_clue: None,
    },
    MlirLoc {
        name: "mlir-loc",
        description: "An MLIR source location, `loc(...)` or a `#loc` alias line.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Last,
        detector: Detector::Mlir,
        frequency: Frequency::Common,
        backend_clue: None,
    },
    HloModuleHeader {
        name: "hlo-module-header",
        description: "`HloModule name, ...` starts an HLO module and lists its attributes.",
        chapter: Chapter::Hlo,
        draft: Draft::Last,
        detector: Detector::Schedule,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    IsScheduled {
        name: "is-scheduled",
        description: "`is_scheduled=true`: XLA has fixed the order instructions run in, which only a compiled module has.",
        chapter: Chapter::BufferAssignment,
        draft: Draft::Rank(0),
        detector: Detector::Schedule,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    NotScheduled {
        name: "not-scheduled",
        description: "An `HloModule` header without `is_scheduled=true`: a hint, never proof, that the module was not compiled (the pinned JAX prints the flag on every compiled module; JAX up to 0.4.26 left it out of compiled modules).",
        chapter: Chapter::BufferAssignment,
        draft: Draft::Rank(1),
        detector: Detector::Schedule,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    EntryComputation {
        name: "entry-computation",
        description: "`ENTRY` marks the computation that runs when the module is called.",
        chapter: Chapter::Hlo,
        draft: Draft::Rank(21),
        detector: Detector::Structure,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    HloInstruction {
        name: "hlo-instruction",
        description: "An HLO instruction: `name = shape opcode(operands), attributes`.",
        chapter: Chapter::Hlo,
        draft: Draft::Last,
        detector: Detector::Structure,
        frequency: Frequency::Common,
        backend_clue: None,
    },
    Layout {
        name: "layout",
        description: "A minor-to-major layout after a shape, such as `f32[8,128]{1,0}`; it does not prove compilation.",
        chapter: Chapter::Layouts,
        draft: Draft::Last,
        detector: Detector::Layout,
        frequency: Frequency::Common,
        backend_clue: None,
    },
    FusionKind {
        name: "fusion-kind",
        description: "A `fusion` instruction with its kind (`kind=kLoop`, `kInput`, `kOutput`, `kCustom`): XLA's fusion pass ran.",
        chapter: Chapter::Fusion,
        draft: Draft::Rank(4),
        detector: Detector::Fusion,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    FusedComputation {
        name: "fused-computation",
        description: "The header of a computation that a `fusion` instruction calls (`%fused_computation`, `%triton_softmax_computation`, ...), or the fusion's `calls=` naming it.",
        chapter: Chapter::Fusion,
        draft: Draft::Last,
        detector: Detector::Fusion,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    FusedParameter {
        name: "fused-parameter",
        description: "A parameter (or an operand) named `param_N`, as the fusion pass names the inputs of fused computations; JAX names entry parameters after the Python arguments, so only an argument literally called `param_0` would look the same.",
        chapter: Chapter::Fusion,
        draft: Draft::Last,
        detector: Detector::Fusion,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    TpuTiledLayout {
        name: "tpu-tiled-layout",
        description: "A tiled layout such as `{1,0:T(8,128)}`, which XLA:TPU assigns.",
        chapter: Chapter::Layouts,
        draft: Draft::Rank(11),
        detector: Detector::Layout,
        frequency: Frequency::Rare,
        backend_clue: Some("tiles such as `T(8,128)` in a layout"),
    },
    MemorySpace {
        name: "memory-space",
        description: "A memory-space annotation `S(n)` in a layout: the buffer lives outside default memory (for example on-chip memory).",
        chapter: Chapter::Layouts,
        draft: Draft::Rank(12),
        detector: Detector::Layout,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    BackendConfig {
        name: "backend-config",
        description: "`backend_config=`: backend-specific settings the compiler attached to an instruction.",
        chapter: Chapter::Hlo,
        draft: Draft::Rank(15),
        detector: Detector::BackendConfig,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    GpuBackendConfig {
        name: "gpu-backend-config",
        description: "A GPU backend config (`operation_queue_id`, `fusion_backend_config`, `cudnn`/`triton`/`cublas` settings).",
        chapter: Chapter::Hlo,
        draft: Draft::Rank(13),
        detector: Detector::BackendConfig,
        frequency: Frequency::Rare,
        backend_clue: Some("a GPU `backend_config`"),
    },
    CpuBackendConfig {
        name: "cpu-backend-config",
        description: "A CPU backend config (`outer_dimension_partitions`, oneDNN or XLA:CPU thunk settings).",
        chapter: Chapter::Hlo,
        draft: Draft::Rank(14),
        detector: Detector::BackendConfig,
        frequency: Frequency::Rare,
        backend_clue: Some("a CPU `backend_config` (`outer_dimension_partitions`, ...)"),
    },
    CustomCall {
        name: "custom-call",
        description: "A `custom-call` with its `custom_call_target`: a call out of XLA into another library.",
        chapter: Chapter::Fusion,
        draft: Draft::Rank(8),
        detector: Detector::CustomCall,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    GpuCustomCall {
        name: "gpu-custom-call",
        description: "A custom call into a GPU library: `__cublas$gemm`, `__cudnn$...`, Triton, cuSOLVER (`cusolver_getrf_ffi`, `cu_lu_pivots_to_permutation`), hipSOLVER/hipBLAS; or a host callback's GPU handler (`xla_ffi_python_gpu_callback`), which JAX lowers a callback to only for CUDA and ROCm.",
        chapter: Chapter::Fusion,
        draft: Draft::Rank(5),
        detector: Detector::CustomCall,
        frequency: Frequency::Rare,
        backend_clue: Some("a cuBLAS, cuDNN or Triton call"),
    },
    CpuCustomCall {
        name: "cpu-custom-call",
        description: "A custom call into a CPU library: `__onednn$...`, LAPACK (`lapack_...`), DUCC FFT (`ducc_fft`), Eigen/XLA:CPU runtime targets; or a host callback's CPU handler (`xla_ffi_python_cpu_callback`), which JAX lowers a callback to only for a CPU.",
        chapter: Chapter::Fusion,
        draft: Draft::Rank(6),
        detector: Detector::CustomCall,
        frequency: Frequency::Rare,
        backend_clue: Some("a call into a CPU library (`__onednn$...`, LAPACK)"),
    },
    TpuCustomCall {
        name: "tpu-custom-call",
        description: "A custom call only XLA:TPU understands (`tpu_custom_call` for Pallas/Mosaic kernels, TPU-only targets: the TPU lowering's `LuDecomposition` and `Eigh`, XLA:TPU's `EighTpu`, `LuDecompositionBlock`, `QrDecompositionBlock`).",
        chapter: Chapter::Fusion,
        draft: Draft::Rank(7),
        detector: Detector::CustomCall,
        frequency: Frequency::Rare,
        backend_clue: Some("a `tpu_custom_call`"),
    },
    ShardingCustomCall {
        name: "sharding-custom-call",
        description: "`custom_call_target=\"Sharding\"` (or the SPMD shape shims) as JAX lowers them; partitioning removes them.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Last,
        detector: Detector::CustomCall,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    AsyncOp {
        name: "async-op",
        description: "An async `-start`/`-done` pair (`copy-start`, `all-reduce-start`, ...) that XLA creates while compiling (every `copy-start` of the course's TPU dumps prefetches into on-chip memory, `S(1)`).",
        chapter: Chapter::BufferAssignment,
        draft: Draft::Rank(17),
        detector: Detector::Schedule,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    LayoutOp {
        name: "layout-op",
        description: "A `bitcast` or `copy` that XLA inserts while compiling (layout assignment, copy insertion, memory-space assignment); JAX's lowering does not emit them.",
        chapter: Chapter::Layouts,
        draft: Draft::Rank(16),
        detector: Detector::Layout,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    While {
        name: "while",
        description: "A `while` loop with its `condition=` and `body=` computations.",
        chapter: Chapter::Hlo,
        draft: Draft::Rank(9),
        detector: Detector::Structure,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    Conditional {
        name: "conditional",
        description: "A `conditional` choosing between branch computations.",
        chapter: Chapter::Hlo,
        draft: Draft::Rank(10),
        detector: Detector::Structure,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    Metadata {
        name: "metadata",
        description: "`metadata={op_name=... source_file=... source_line=...}`: which JAX op and source line an instruction came from.",
        chapter: Chapter::Hlo,
        draft: Draft::Last,
        detector: Detector::Source,
        frequency: Frequency::Common,
        backend_clue: None,
    },
    ComputationHeader {
        name: "computation-header",
        description: "An HLO computation header with its signature, `name (params) -> shape {`.",
        chapter: Chapter::Hlo,
        draft: Draft::Last,
        detector: Detector::Structure,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    UnsignedComputation {
        name: "unsigned-computation",
        description: "An HLO computation header without a signature (`region_0.1 {`), as `as_text(dialect=\"hlo\")` prints it (jaxlib 0.4.13's XLA dump folders printed compiled modules so too): a printer's habit, not proof of a kind.",
        chapter: Chapter::Hlo,
        draft: Draft::Last,
        detector: Detector::Printer,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    BareNames {
        name: "bare-names",
        description: "HLO instructions named without `%` (`x.1 = f32[8]{0} parameter(0)`), as `as_text(dialect=\"hlo\")` prints them (jaxlib 0.4.13's XLA dump folders printed compiled modules so too; the pinned JAX prints `%x.1` in compiled modules): a printer's habit, not proof of a kind.",
        chapter: Chapter::Hlo,
        draft: Draft::Last,
        detector: Detector::Printer,
        frequency: Frequency::Common,
        backend_clue: None,
    },
    TpuBackendConfig {
        name: "tpu-backend-config",
        description: "A TPU backend config (`flag_configs`, `window_config`, `scoped_memory_configs`, `estimated_cycles`) or `cross_program_prefetch_index`.",
        chapter: Chapter::Hlo,
        draft: Draft::Last,
        detector: Detector::BackendConfig,
        frequency: Frequency::Rare,
        backend_clue: Some("a TPU `backend_config`"),
    },
    SchedulingName {
        name: "scheduling-name",
        description: "`scheduling_name=` in an instruction's metadata, which XLA:GPU's scheduling passes add during compilation.",
        chapter: Chapter::BufferAssignment,
        draft: Draft::Last,
        detector: Detector::Schedule,
        frequency: Frequency::Rare,
        backend_clue: Some("a `scheduling_name`"),
    },
    StackFrames {
        name: "stack-frames",
        description: "A `FileNames`, `FunctionNames`, `FileLocations` or `StackFrames` section that indexes source locations.",
        chapter: Chapter::Hlo,
        draft: Draft::Last,
        detector: Detector::Source,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    MosaicTpuKernel {
        name: "mosaic-tpu-kernel",
        description: "A Mosaic kernel for the TPU: a `tpu_custom_call` (compiled or lowered) whose `backend_config` carries the kernel as serialized MLIR (`body`). It is a Pallas kernel when its `metadata` `op_name` ends in `pallas_call` (a lowered line always is, and names it in `kernel_name`); XLA:TPU also writes Mosaic kernels of its own.",
        chapter: Chapter::Pallas,
        draft: Draft::Last,
        detector: Detector::Pallas,
        frequency: Frequency::Rare,
        backend_clue: Some("a `tpu_custom_call`"),
    },
    TritonKernel {
        name: "triton-kernel",
        description: "A Triton kernel as a custom call, `__gpu$xla.gpu.triton` (compiled or lowered), as Pallas emits it for a GPU: its `backend_config` holds the grid, `num_warps`, `num_stages`, the Triton IR (`ir`) and the kernel's `name`. XLA's own Triton kernels are `fusion`s, not custom calls.",
        chapter: Chapter::Pallas,
        draft: Draft::Last,
        detector: Detector::Pallas,
        frequency: Frequency::Rare,
        backend_clue: Some("a cuBLAS, cuDNN or Triton call"),
    },
    MosaicGpuKernel {
        name: "mosaic-gpu-kernel",
        description: "A Mosaic GPU kernel as a custom call, `mosaic_gpu_v2` (compiled or lowered), as Pallas emits it for a GPU: its `backend_config` carries a `kernel_hash` and the kernel as a serialized MLIR `module`.",
        chapter: Chapter::Pallas,
        draft: Draft::Last,
        detector: Detector::Pallas,
        frequency: Frequency::Rare,
        backend_clue: Some("a Mosaic GPU kernel"),
    },
    EntryLayoutTiles {
        name: "entry-layout-tiles",
        description: "Tiles such as `{1,0:T(8,128)}` in the module header's `entry_computation_layout`: the TPU client sets them before any pass runs, so they name a TPU but do not prove compilation.",
        chapter: Chapter::Layouts,
        draft: Draft::Last,
        detector: Detector::Layout,
        frequency: Frequency::Rare,
        backend_clue: Some("tiles such as `T(8,128)` in a layout"),
    },
    CopyInstruction {
        name: "copy-instruction",
        description: "A `copy` instruction: layout assignment and copy insertion add them while compiling, but front ends emit them too (TensorFlow's bridge, for return values), so a copy alone proves nothing.",
        chapter: Chapter::Layouts,
        draft: Draft::Last,
        detector: Detector::Layout,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    MhloOp {
        name: "mhlo-op",
        description: "An operation of the MHLO dialect (`mhlo.add`, `mhlo.dot_general`), which older JAX releases printed for the lowered module.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Last,
        detector: Detector::Mlir,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    GpuFusionName {
        name: "gpu-fusion-name",
        description: "A fusion named by XLA:GPU's GEMM or Triton rewriters (`%gemm_fusion_dot.1`, `%triton_softmax.2`, `calls=%gemm_fusion_dot.1_computation`).",
        chapter: Chapter::Fusion,
        draft: Draft::Last,
        detector: Detector::Fusion,
        frequency: Frequency::Rare,
        backend_clue: Some("a fusion named by the GEMM or Triton rewriters"),
    },
    CompilerCustomCall {
        name: "compiler-custom-call",
        description: "A custom call that XLA's own rewriters make while compiling: oneDNN on CPU (`__onednn$softmax`, `__onednn$matmul`), cuBLAS GEMMs and cuDNN convolutions on GPU (`__cublas$gemm`, `__cudnn$convForward`); front ends do not emit them.",
        chapter: Chapter::Fusion,
        draft: Draft::Last,
        detector: Detector::CustomCall,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    LapackCustomCall {
        name: "lapack-custom-call",
        description: "A LAPACK routine in lowered StableHLO, `stablehlo.custom_call @lapack_sgetrf_ffi(...)` (before the FFI, jaxlib 0.4.30's `@lapack_sgetrf` and `@blas_strsm`, in MHLO too): JAX lowers linear algebra (`jnp.linalg.solve`, `eigh`, `qr`) per platform, and to LAPACK only for a CPU, so the module was lowered for a CPU though nothing has compiled it. Older jaxlibs' FFT (`@ducc_fft`, `@dynamic_ducc_fft`, lowered only for a CPU) and a host callback's CPU handler (`@xla_ffi_python_cpu_callback`) say the same.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Last,
        detector: Detector::Mlir,
        frequency: Frequency::Rare,
        backend_clue: Some("a call into a CPU library (`__onednn$...`, LAPACK)"),
    },
    GpuLibraryCustomCall {
        name: "gpu-library-custom-call",
        description: "A GPU library routine in lowered StableHLO, `stablehlo.custom_call @cusolver_getrf_ffi(...)` (cuSOLVER, cuBLAS, cuSPARSE; `hipsolver_...` for ROCm; `cu_lu_pivots_to_permutation`): JAX lowers linear algebra per platform, and to these only for a GPU, so the module was lowered for a GPU though nothing has compiled it. A host callback's GPU handler (`@xla_ffi_python_gpu_callback`) says the same.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Last,
        detector: Detector::Mlir,
        frequency: Frequency::Rare,
        backend_clue: Some("a cuBLAS, cuDNN or Triton call"),
    },
    TpuLoweringCustomCall {
        name: "tpu-lowering-custom-call",
        description: "A custom call JAX lowers to only for a TPU, in lowered StableHLO: `stablehlo.custom_call @LuDecomposition(...)` (`jnp.linalg.solve`, `lax.linalg.lu`) or `@Eigh` (`jnp.linalg.eigh`), which XLA:TPU implements, so the module was lowered for a TPU though nothing has compiled it; `@Qr`, JAX's default lowering that every backend expands, is no clue.",
        chapter: Chapter::Stablehlo,
        draft: Draft::Last,
        detector: Detector::Mlir,
        frequency: Frequency::Rare,
        backend_clue: Some("a `tpu_custom_call`"),
    },
    RewrittenOp {
        name: "rewritten-op",
        description: "An instruction named after a JAX primitive that JAX never lowers to its opcode: an `add` named `jit(fn)/sub` (`x - 1` rewritten as `x + (-1)`) or a `multiply` named `jit(fn)/div` (a division by a constant, or by a value computed once, as a multiply by its reciprocal). JAX lowers `sub` to `subtract` and `div` to `divide`, so XLA's algebraic simplifier made the change: the module went through XLA's optimizations.",
        chapter: Chapter::Hlo,
        draft: Draft::Last,
        detector: Detector::Source,
        frequency: Frequency::Rare,
        backend_clue: None,
    },
    LhsFingerprint {
        name: "lhs-fingerprint",
        description: "`fingerprint_before_lhs=\"...\"` in the module header's `frontend_attributes`: XLA:GPU tags the module with its 128-bit fingerprint when it schedules it (`ScheduleGpuModule` in `xla/service/gpu/gpu_hlo_schedule.cc`, before the latency-hiding scheduler), so only a module XLA:GPU compiled carries it.",
        chapter: Chapter::BufferAssignment,
        draft: Draft::Last,
        detector: Detector::Schedule,
        frequency: Frequency::Rare,
        backend_clue: Some("a `fingerprint_before_lhs` in the header"),
    },
}

// Rows are in the order of `M`, so `ROWS[m as usize]` is `m`'s row.
const _: () = {
    let mut i = 0;
    while i < COUNT {
        assert!(ROWS[i].marker as usize == i);
        i += 1;
    }
};

impl M {
    /// The marker's row.
    pub(crate) fn row(self) -> &'static Row {
        // In range for every `M`: the table holds a row per marker in `M`'s order.
        &ROWS[self as usize]
    }

    /// The marker's name.
    pub(crate) fn name(self) -> &'static str {
        self.row().name
    }

    /// The chapter that teaches the marker.
    pub(crate) fn chapter(self) -> Chapter {
        self.row().chapter
    }

    /// The marker's rank in a fixture draft.
    pub(crate) fn draft(self) -> Draft {
        self.row().draft
    }

    /// How often the marker occurs.
    pub(crate) fn frequency(self) -> Frequency {
        self.row().frequency
    }

    /// What a learner's backend hint calls the marker, if it names a backend.
    pub(crate) fn backend_clue(self) -> Option<&'static str> {
        self.row().backend_clue
    }
}

/// What a line showing `marker` shows, in one sentence; `None` for an
/// unknown marker.
pub fn marker_description(marker: &str) -> Option<&'static str> {
    by_name(marker).map(|m| m.row().description)
}

/// The chapter that teaches `marker`; `None` for an unknown marker.
pub fn marker_chapter(marker: &str) -> Option<Chapter> {
    by_name(marker).map(M::chapter)
}

/// The concern of the analysis that finds `marker`; `None` for an unknown
/// marker.
pub fn marker_detector(marker: &str) -> Option<Detector> {
    by_name(marker).map(|m| m.row().detector)
}

/// Where `marker`'s lines come when a fixture draft (or a hint listing a
/// few clues) picks evidence: its row's [`Draft`]; [`Draft::Last`] for a name
/// that is no marker.
pub fn draft_rank(marker: &str) -> Draft {
    by_name(marker).map_or(Draft::Last, M::draft)
}

/// Every marker name, in table order.
pub fn marker_names() -> &'static [&'static str] {
    &NAMES
}

const NAMES: [&str; COUNT] = {
    let mut names = [""; COUNT];
    let mut i = 0;
    while i < COUNT {
        names[i] = ROWS[i].name;
        i += 1;
    }
    names
};

const ALL: [M; COUNT] = {
    let mut all = [M::JaxprLambda; COUNT];
    let mut i = 0;
    while i < COUNT {
        all[i] = ROWS[i].marker;
        i += 1;
    }
    all
};

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

#[cfg(test)]
mod tests;
