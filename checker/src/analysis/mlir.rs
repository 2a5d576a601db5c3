//! A tolerant, line-based reader of MLIR as JAX prints lowered modules
//! (`jax.jit(f).lower(...).as_text()`): a `module @jit_f` holding
//! `func.func`s of `stablehlo.*` ops, with or without debug locations
//! (`loc(#locN)` on ops and `#locN = loc(...)` alias lines at the end).
//!
//! Location aliases are resolved after the whole text is read, following
//! each chain a bounded number of steps, to give each op its JAX op name and
//! source line.

use super::markers::M;
use super::model::{Analysis, Function};
use super::scan::{skip_ws, take_while};
use super::sink::Sink;
use std::collections::HashMap;

/// Per-text MLIR state.
pub(crate) struct MlirState<'a> {
    locs: HashMap<&'a str, &'a str>,
    pending: Vec<(usize, &'a str, &'a str)>,
    current: Option<usize>,
}

/// The op name of an op line: `%0 = stablehlo.add ...`, `%1:2 = "dialect.op"(...)`,
/// `stablehlo.return ...`, `return ...`; with the byte offset of the name and
/// the result (`%0`) if any.
pub(crate) fn op_of(l: &str) -> Option<(&str, usize, &str)> {
    let b = l.as_bytes();
    let i = skip_ws(b, 0);
    let mut result = "";
    let mut j = i;
    if b.get(i) == Some(&b'%') {
        let e = take_while(b, i + 1, |c| {
            c.is_ascii_alphanumeric() || c == b'_' || c == b':' || c == b'#'
        });
        result = l.get(i..e).unwrap_or("");
        let k = skip_ws(b, e);
        // Several results: `%a, %b = ...`.
        let mut k = k;
        while b.get(k) == Some(&b',') {
            k = skip_ws(b, k + 1);
            k = take_while(b, k, |c| c != b' ' && c != b'=');
            k = skip_ws(b, k);
        }
        if b.get(k) != Some(&b'=') {
            return None;
        }
        j = skip_ws(b, k + 1);
    }
    let quoted = b.get(j) == Some(&b'"');
    let s = if quoted { j + 1 } else { j };
    let e = take_while(b, s, |c| {
        c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
    });
    let name = l.get(s..e)?;
    let dotted = name.contains('.')
        && name
            .as_bytes()
            .first()
            .is_some_and(|c| c.is_ascii_lowercase());
    if dotted || (result.is_empty() && name == "return") {
        Some((name, s, result))
    } else {
        None
    }
}

/// The target a lowered custom call names, `stablehlo.custom_call
/// @lapack_sgetrf_ffi(` (or `@"..."(`; `mhlo.custom_call @...` as JAX up to
/// 0.4.30 printed MHLO), with its byte offset.
fn lowered_target(l: &str) -> Option<(&str, usize)> {
    const OP: &str = "custom_call @";
    let p = l.find(OP)?;
    let op = l.get(..p)?;
    if !(op.ends_with("stablehlo.") || op.ends_with("mhlo.")) {
        return None;
    }
    let mut from = p + OP.len();
    if l.as_bytes().get(from) == Some(&b'"') {
        from += 1;
    }
    let end = take_while(l.as_bytes(), from, |c| {
        c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'$'
    });
    Some((l.get(from..end)?, from))
}

/// The custom calls JAX lowers to only for a CPU, one row per target
/// family: the target's prefix and why it names the CPU (the sentence
/// after the target's name).
/// - `lapack_*_ffi` and, before the FFI (jaxlib 0.4.30), `lapack_sgetrf`
///   and `blas_strsm`: JAX's CPU lowering of linear algebra;
/// - `ducc_fft` and `dynamic_ducc_fft`: `_fft_lowering_cpu` in
///   `jax/_src/lax/fft.py`, registered with `platform='cpu'` (the default
///   lowering is `stablehlo.fft`, which JAX 0.10.2 emits on every platform);
/// - the host callbacks, [`super::hlo::CALLBACK_TARGETS`]' CPU rows.
const CPU_LOWERING_TARGETS: &[(&str, &str)] = &[
    (
        "lapack_",
        "is a LAPACK routine: JAX lowers linear algebra to LAPACK only for a CPU",
    ),
    (
        "blas_",
        "is a BLAS routine: JAX lowers linear algebra to LAPACK only for a CPU",
    ),
    (
        "ducc_fft",
        "is jaxlib's DUCC FFT kernel: JAX's lowering of an FFT called it only for a CPU",
    ),
    (
        "dynamic_ducc_fft",
        "is jaxlib's DUCC FFT kernel: JAX's lowering of an FFT called it only for a CPU",
    ),
    ("xla_ffi_python_cpu_callback", CPU_CALLBACK),
    ("xla_ffi_partitioned_python_cpu_callback", CPU_CALLBACK),
    ("xla_buffer_python_cpu_callback", CPU_CALLBACK),
    ("xla_python_cpu_callback", CPU_CALLBACK),
];

const CPU_CALLBACK: &str = "is the host callback's handler (`jax.pure_callback`, `io_callback`, `jax.debug.callback`) that JAX lowers to only for a CPU";

/// The CPU-only routine a lowered custom call names,
/// `stablehlo.custom_call @lapack_sgetrf_ffi(` (or `@"lapack_..."(`; before
/// the FFI, `mhlo.custom_call @lapack_sgetrf(` and `@blas_strsm(` of
/// jaxlib 0.4.30; `@ducc_fft(`, `@xla_ffi_python_cpu_callback(`), with its
/// byte offset and why it names the CPU ([`CPU_LOWERING_TARGETS`]).
pub(crate) fn cpu_lowering_target(l: &str) -> Option<(&str, usize, &'static str)> {
    let (t, at) = lowered_target(l)?;
    CPU_LOWERING_TARGETS
        .iter()
        .find(|(p, _)| t.starts_with(p))
        .map(|(_, why)| (t, at, *why))
}

/// The GPU-only routines JAX's CUDA and ROCm lowerings call, one row per
/// prefix with why it names a GPU: the libraries of `_GPU_FFI_KERNELS` in
/// `jax/_src/export/_export.py` (`cusolver_getrf_ffi`,
/// `cu_lu_pivots_to_permutation`, `hipsolver_syevd_ffi`,
/// `cusparse_gtsv2_ffi`, ...), and the host callbacks,
/// [`super::hlo::CALLBACK_TARGETS`]' GPU rows.
const GPU_LOWERING_TARGETS: &[(&str, &str)] = &[
    ("cusolver_", GPU_LIBRARY),
    ("cublas", GPU_LIBRARY),
    ("cusparse_", GPU_LIBRARY),
    ("cu_", GPU_LIBRARY),
    ("hipsolver_", GPU_LIBRARY),
    ("hipblas", GPU_LIBRARY),
    ("hipsparse_", GPU_LIBRARY),
    ("hip_", GPU_LIBRARY),
    ("xla_ffi_python_gpu_callback", GPU_CALLBACK),
    ("xla_ffi_partitioned_python_gpu_callback", GPU_CALLBACK),
    ("xla_buffer_python_gpu_callback", GPU_CALLBACK),
    ("xla_python_gpu_callback", GPU_CALLBACK),
];

const GPU_LIBRARY: &str = "is a jaxlib GPU routine (cuSOLVER, cuBLAS, hipSOLVER, or a GPU kernel of its own such as threefry): JAX lowers to these only for a GPU";
const GPU_CALLBACK: &str = "is the host callback's handler (`jax.pure_callback`, `io_callback`, `jax.debug.callback`) that JAX lowers to only for a GPU (CUDA or ROCm)";

/// The GPU-only routine a lowered custom call names,
/// `stablehlo.custom_call @cusolver_getrf_ffi(`, with its byte offset and
/// why it names a GPU ([`GPU_LOWERING_TARGETS`]).
pub(crate) fn gpu_library_target(l: &str) -> Option<(&str, usize, &'static str)> {
    let (t, at) = lowered_target(l)?;
    GPU_LOWERING_TARGETS
        .iter()
        .find(|(p, _)| t.starts_with(p))
        .map(|(_, why)| (t, at, *why))
}

/// The custom calls JAX's TPU lowering emits (registered with
/// `platform='tpu'`: `LuDecomposition` for `lax.linalg.lu`, `Eigh` in
/// `jax/_src/tpu/linalg/eigh.py`). `Qr` and
/// `ProductOfElementaryHouseholderReflectors` are not among them: they are
/// JAX's default lowering, which XLA expands on every backend.
pub(crate) const TPU_LOWERING_TARGETS: &[&str] = &["LuDecomposition", "Eigh"];

/// The TPU lowering's custom call a lowered line names,
/// `stablehlo.custom_call @LuDecomposition(`, with its byte offset.
pub(crate) fn tpu_lowering_target(l: &str) -> Option<(&str, usize)> {
    lowered_target(l).filter(|(t, _)| TPU_LOWERING_TARGETS.contains(t))
}

impl<'a> MlirState<'a> {
    pub(crate) fn new() -> Self {
        MlirState {
            locs: HashMap::new(),
            pending: Vec::new(),
            current: None,
        }
    }

    /// Reads one line; `true` when it was MLIR.
    pub(crate) fn line(
        &mut self,
        n: usize,
        l: &'a str,
        a: &mut Analysis,
        sink: &mut Sink<'a>,
    ) -> bool {
        let t = l.trim_start();
        let at = l.len() - t.len();
        let mut hit = false;
        if t.starts_with("#loc") {
            if let Some((name, rest)) = t.split_once(" = loc(") {
                self.locs.insert(name.trim(), rest);
                hit = true;
                sink.add(M::MlirLoc, n, l, at, name.trim().len(), || {
                    "`#loc` lines name source locations that ops point to with `loc(#locN)`."
                        .to_owned()
                });
            }
        } else if t.starts_with("module")
            && (t.starts_with("module @")
                || t.starts_with("module {")
                || t.starts_with("module attributes"))
        {
            hit = true;
            let name = t
                .strip_prefix("module @")
                .and_then(|r| r.split([' ', '{']).next())
                .unwrap_or("");
            if !name.is_empty() && a.module_name.is_none() {
                a.module_name = Some(name.to_owned());
            }
            sink.add(M::MlirModule, n, l, at, 6, || {
                "An MLIR `module`: the container JAX lowers a jitted function into.".to_owned()
            });
        } else if let Some(p) = t.starts_with("func.func").then_some(0) {
            // Only at the start: `func.func` inside a string (a serialized
            // kernel in a custom call's backend_config) defines nothing.
            hit = true;
            let rest = t.get(p + 9..).unwrap_or("");
            let vis = rest
                .split_whitespace()
                .next()
                .filter(|w| *w == "public" || *w == "private")
                .unwrap_or("");
            let name = rest.find('@').and_then(|q| rest.get(q + 1..)).map(|r| {
                let e = r
                    .bytes()
                    .position(|c| {
                        !(c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'$')
                    })
                    .unwrap_or(r.len());
                r.get(..e).unwrap_or("")
            });
            let name = name.unwrap_or("");
            self.current = Some(a.functions.len());
            a.functions.push(Function {
                name: name.to_owned(),
                visibility: vis.to_owned(),
                line: n,
                ops: 0,
            });
            if name == "main" {
                sink.add(
                    M::FuncMain,
                    n,
                    l,
                    at + p,
                    t.len().min(p + 9 + rest.find('(').unwrap_or(rest.len())) - p,
                    || {
                        "`func.func public @main`: the entry point of a module that JAX lowered."
                            .to_owned()
                    },
                );
            } else {
                sink.add(M::FuncFunc, n, l, at + p, 9, || {
                    format!("`func.func` defines the MLIR function `@{name}`.")
                });
            }
        } else if let Some((op, op_at, result)) = op_of(l) {
            hit = true;
            sink.op(op);
            if let Some(f) = self.current.and_then(|i| a.functions.get_mut(i)) {
                f.ops += 1;
            }
            if op.starts_with("stablehlo.") || op.starts_with("chlo.") {
                sink.add(M::StablehloOp, n, l, op_at, op.len(), || {
                    if op.starts_with("chlo.") {
                        format!("`{op}` is a CHLO op, StableHLO's companion dialect of composite ops that lowering expands into StableHLO: only lowered modules print it.")
                    } else {
                        format!("`{op}` is an operation of the StableHLO dialect.")
                    }
                });
            }
            if op == "stablehlo.custom_call" {
                super::pallas::add_evidence(n, l, sink);
            }
            if op == "stablehlo.custom_call" || op == "mhlo.custom_call" {
                if let Some((target, t_at, why)) = cpu_lowering_target(l) {
                    sink.add(M::LapackCustomCall, n, l, t_at, target.len(), || {
                        format!("`{target}` {why}, so this module was lowered for one (nothing has compiled it yet).")
                    });
                }
                if let Some((target, t_at)) = tpu_lowering_target(l) {
                    sink.add(M::TpuLoweringCustomCall, n, l, t_at, target.len(), || {
                        format!("`{target}` is a custom call JAX's lowering emits only for a TPU (XLA:TPU implements it), so this module was lowered for one (nothing has compiled it yet).")
                    });
                }
                if let Some((target, t_at, why)) = gpu_library_target(l) {
                    sink.add(M::GpuLibraryCustomCall, n, l, t_at, target.len(), || {
                        format!("`{target}` {why}, so this module was lowered for one (nothing has compiled it yet).")
                    });
                }
            }
            if op.starts_with("mhlo.") {
                sink.add(M::MhloOp, n, l, op_at, op.len(), || {
                    format!("`{op}` is an operation of the MHLO dialect, which older JAX releases printed for the lowered module.")
                });
            }
            if !result.is_empty() {
                if let Some(p) = l.rfind("loc(") {
                    if let Some(r) = l.get(p + 4..) {
                        self.pending.push((n, result, r));
                    }
                }
            }
        }
        if let Some(p) = l.find("tensor<") {
            hit = true;
            sink.add(M::MlirTensorType, n, l, p, 6, || {
                "`tensor<...>` is an MLIR tensor type; jaxprs and HLO print shapes differently."
                    .to_owned()
            });
        }
        if !t.starts_with("#loc") {
            if let Some(p) = l.find("loc(") {
                hit = true;
                sink.add(M::MlirLoc, n, l, p, 3, || {
                    "`loc(...)`: the source location MLIR keeps for this op.".to_owned()
                });
            }
        }
        hit
    }

    /// Resolves op locations into provenance.
    /// Follows a location (`#locN` alias or inline `"name"(...)`) at most 16
    /// steps: the first op path (`jit(f)/sin`) and the file location found.
    fn resolve(&self, r: &'a str) -> Resolved<'a> {
        let mut op_name: Option<&str> = None;
        let mut file: Option<(&str, Option<u32>)> = None;
        let mut cur = r;
        for _ in 0..16 {
            let c = cur.trim_start();
            if let Some(alias) = c.strip_prefix('#') {
                let e = alias
                    .bytes()
                    .position(|ch| !(ch.is_ascii_alphanumeric() || ch == b'_'))
                    .unwrap_or(alias.len());
                let key = c.get(..e + 1).unwrap_or("");
                match self.locs.get(key) {
                    Some(next) => {
                        cur = next;
                        continue;
                    }
                    None => break,
                }
            }
            let Some(body) = c.strip_prefix('"') else {
                break;
            };
            let Some(q) = body.find('"') else { break };
            let s = body.get(..q).unwrap_or("");
            let after = body.get(q + 1..).unwrap_or("");
            if let Some(pos) = after.strip_prefix(':') {
                let line = pos
                    .split(|ch: char| !ch.is_ascii_digit())
                    .next()
                    .and_then(|d| d.parse().ok());
                file = Some((s, line));
                break;
            }
            if op_name.is_none() && s.contains('/') {
                op_name = Some(s);
            }
            match after.strip_prefix('(') {
                Some(inner) => cur = inner,
                None => break,
            }
        }
        (op_name, file)
    }

    /// Resolves op locations into provenance. Each `#loc` alias is resolved
    /// once (memoized), so many ops pointing at one long alias stay linear.
    pub(crate) fn finish(self, a: &mut Analysis, sink: &mut Sink<'a>) {
        let mut memo: HashMap<&str, Resolved<'a>> = HashMap::new();
        for &(n, result, r) in &self.pending {
            let c = r.trim_start();
            let (op_name, file) = if c.starts_with('#') {
                let e = c
                    .bytes()
                    .skip(1)
                    .position(|ch| !(ch.is_ascii_alphanumeric() || ch == b'_'))
                    .map_or(c.len(), |p| p + 1);
                let key = c.get(..e).unwrap_or("");
                *memo.entry(key).or_insert_with(|| self.resolve(c))
            } else {
                self.resolve(c)
            };
            if let Some(op) = op_name {
                let source_op =
                    sink.source_op((op, file.map(|f| f.0), file.and_then(|f| f.1), None));
                a.provenance.push(n, result, source_op);
            }
        }
    }
}

/// What a location resolves to: the op path and the file location.
type Resolved<'a> = (Option<&'a str>, Option<(&'a str, Option<u32>)>);
