//! HLO text's syntax, one line at a time: an instruction
//! ([`parse_instruction`]: name, shape, opcode,
//! operands, attributes), a computation header ([`parse_computation_header`]),
//! and the vocabularies that name a backend on a line (custom-call targets,
//! backend-config keys, GPU fusion names). It accepts both naming styles
//! (`%x.1 = ...` from compiled modules and XLA's dumps, bare `x.1 = ...` from
//! `as_text(dialect="hlo")`), computation headers with and without
//! signatures, tuple shapes, layouts with tiles and memory spaces, and nested
//! attribute braces. A line it does not understand gives `None`, never an
//! error. What the lines say together is [`super::hlo_evidence`].

use super::model::Backend;
use super::scan::{skip_balanced, skip_ws, strip_pct, take_while};

/// One instruction line, split into its parts (byte offsets into the line).
pub(crate) struct Instr<'a> {
    pub(crate) name: &'a str,
    pub(crate) name_at: usize,
    pub(crate) percent: bool,
    pub(crate) shape: &'a str,
    pub(crate) shape_at: usize,
    pub(crate) opcode: &'a str,
    pub(crate) opcode_at: usize,
    pub(crate) operands: &'a str,
    pub(crate) attrs: &'a str,
    pub(crate) attrs_at: usize,
}

/// The first tiled-layout `T(` and memory-space `S(` clue (byte offset of
/// the letter in the line) in part of an instruction line, as the
/// evidence's `more_shape_clues` looks for them: a `(` followed by a
/// digit, after `T` or `S` after `:` or `)`.
#[derive(Clone, Copy, Default)]
pub(crate) struct Clues {
    pub(crate) tile: Option<usize>,
    pub(crate) space: Option<usize>,
}

impl Clues {
    /// Records the clue, if any, of the `(` at `at` of the line `b`, in its
    /// part from `from` to `to`.
    pub(crate) fn check(&mut self, b: &[u8], from: usize, to: usize, at: usize) {
        if at < from.saturating_add(2) || at.saturating_add(1) >= to {
            return;
        }
        let digit = b.get(at + 1).is_some_and(|c| c.is_ascii_digit());
        let prev = b.get(at - 2).copied().unwrap_or(0);
        if digit && (prev == b':' || prev == b')') {
            match b.get(at - 1) {
                Some(b'T') if self.tile.is_none() => self.tile = Some(at - 1),
                Some(b'S') if self.space.is_none() => self.space = Some(at - 1),
                _ => {}
            }
        }
    }
}

/// Parses `[ROOT ] [%]name = shape opcode(operands)[, attrs]`.
pub(crate) fn parse_instruction(l: &str) -> Option<Instr<'_>> {
    let b = l.as_bytes();
    let mut i = skip_ws(b, 0);
    if l.get(i..).is_some_and(|r| r.starts_with("ROOT ")) {
        i = skip_ws(b, i + 5);
    }
    let percent = b.get(i) == Some(&b'%');
    if percent {
        i += 1;
    }
    let name_at = i;
    let name_end = take_while(b, i, super::scan::is_name_byte);
    if name_end == name_at {
        return None;
    }
    let name = l.get(name_at..name_end)?;
    i = skip_ws(b, name_end);
    if b.get(i) != Some(&b'=') {
        return None;
    }
    i = skip_ws(b, i + 1);
    let shape_at = i;
    let shape_end = skip_shape(b, i)?;
    let shape = l.get(shape_at..shape_end)?;
    i = skip_ws(b, shape_end);
    let opcode_at = i;
    let op_end = take_while(b, i, |c| OPCODE[c as usize]);
    if op_end == opcode_at
        || b.get(op_end) != Some(&b'(')
        || !b.get(opcode_at).is_some_and(|c| c.is_ascii_lowercase())
    {
        return None;
    }
    let opcode = l.get(opcode_at..op_end)?;
    let ops_end = super::scan::close_paren(b, op_end).0.unwrap_or(b.len());
    let operands = l
        .get(op_end + 1..ops_end.saturating_sub(1).max(op_end + 1))
        .unwrap_or("");
    let attrs = l.get(ops_end..).unwrap_or("");
    Some(Instr {
        name,
        name_at,
        percent,
        shape,
        shape_at,
        opcode,
        opcode_at,
        operands,
        attrs,
        attrs_at: ops_end,
    })
}

/// Bytes of an opcode (`add`, `custom-call`, `all-reduce-start`), as a
/// table: one load per byte on the path every instruction takes.
const OPCODE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'_';
        i += 1;
    }
    t
};

/// Skips an HLO shape (`f32[8,128]{1,0:T(8,128)}`, `f32[]`, `token[]`, a
/// tuple `(f32[8]{0}, s32[])`), returning the index after it.
fn skip_shape(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'(' => skip_balanced(b, i),
        c if c.is_ascii_lowercase() => {
            let t = take_while(b, i, |c| c.is_ascii_lowercase() || c.is_ascii_digit());
            if b.get(t) != Some(&b'[') {
                return None;
            }
            // Dimensions are nearly always digits and commas: skip those
            // directly, and leave anything else to `skip_balanced`.
            let d = take_while(b, t + 1, |c| c.is_ascii_digit() || c == b',');
            let j = if b.get(d) == Some(&b']') {
                d + 1
            } else {
                skip_balanced(b, t)?
            };
            if b.get(j) == Some(&b'{') {
                skip_balanced(b, j)
            } else {
                Some(j)
            }
        }
        _ => None,
    }
}

/// A computation header line, as one line shows it (the fixture
/// validator's check; the analysis reads the program model's computations).
pub(crate) struct Header {
    /// Printed with `(params) -> shape`.
    pub(crate) signed: bool,
}

/// Parses `[ENTRY ] [%]name (params) -> shape {` or `[ENTRY ] name.N {`:
/// the program model's header reader on one line, without the context
/// that lets a bare `fused_computation {` count after an `HloModule` line.
pub(crate) fn parse_computation_header(l: &str) -> Option<Header> {
    crate::program::computation_header(l.trim())
        .filter(|h| !h.bare)
        .map(|h| Header {
            signed: h.signature.is_some(),
        })
}

/// Name prefixes of the fusions XLA:GPU's GEMM, Triton and cuDNN rewriters
/// make (instruction or called computation).
const GPU_FUSION_NAMES: &[&str] = &["gemm_fusion", "triton_", "cudnn"];

/// The GPU fusion-name prefix a fusion line's name or `calls=` starts with.
pub(crate) fn gpu_fusion_name(l: &str) -> Option<&'static str> {
    let ins = parse_instruction(l)?;
    let calls = super::scan::field(ins.attrs, "calls").map(strip_pct);
    gpu_fusion_prefix(ins.name, calls)
}

/// [`gpu_fusion_name`] of a parsed fusion: its name and `calls=`.
pub(crate) fn gpu_fusion_prefix(name: &str, calls: Option<&str>) -> Option<&'static str> {
    GPU_FUSION_NAMES
        .iter()
        .copied()
        .find(|p| name.starts_with(p) || calls.is_some_and(|c| c.starts_with(p)))
}

/// Where a module header's `frontend_attributes` hold
/// `fingerprint_before_lhs=`: the fingerprint XLA:GPU's `ScheduleGpuModule`
/// (`xla/service/gpu/gpu_hlo_schedule.cc`) adds to a module it schedules
/// (`kFingerprintBeforeLHS`, declared in `xla::gpu`).
pub(crate) fn lhs_fingerprint(l: &str) -> Option<usize> {
    if !l.trim_start().starts_with("HloModule") {
        return None;
    }
    let attrs = l.find("frontend_attributes={")?;
    l.get(attrs..)?
        .find("fingerprint_before_lhs=")
        .map(|p| attrs + p)
}

/// The `custom_call_target="..."` of a line.
pub(crate) fn custom_call_target(l: &str) -> Option<&str> {
    super::scan::field(l, "custom_call_target")
}

fn target_with(l: &str, prefixes: &[&'static str]) -> Option<&'static str> {
    let t = custom_call_target(l)?;
    prefixes.iter().copied().find(|p| t.starts_with(p))
}

const GPU_TARGETS: &[&str] = &[
    "__cublas",
    "__cudnn",
    "__gpu$",
    "__triton",
    "__nvshmem",
    "cusolver",
    "cublas",
    "cusparse",
    "cu_",
    "hipsolver",
    "hipblas",
    "hipsparse",
    "hip_",
    "mosaic_gpu",
];
const CPU_TARGETS: &[&str] = &[
    "__onednn",
    "lapack_",
    "blas_",
    "__xla_cpu",
    "xla_cpu",
    "ducc_",
    "dynamic_ducc_",
    "xla.cpu",
];
/// `tpu_custom_call` (Mosaic), the TPU lowering's `LuDecomposition` and
/// `Eigh` (as `dialect="hlo"` prints them), and XLA:TPU's own expansions of
/// linear algebra in compiled modules (`EighTpu`, `LuDecompositionBlock`,
/// `QrDecompositionBlock`, `CompactWyHelper`, `InvertDiagBlocks...`).
const TPU_TARGETS: &[&str] = &[
    "tpu_custom_call",
    "__tpu",
    "tpu_",
    "LuDecomposition",
    "Eigh",
    "QrDecompositionBlock",
    "CompactWyHelper",
    "InvertDiagBlocks",
];
/// Sharding custom calls as JAX lowers them: GSPMD's (`Sharding` and the
/// shape shims of `shard_map`) and Shardy's round-trip calls, which
/// `lowered.hlo.txt` of a sharded family carries (`xla.sdy.FuncResultSharding`
/// on a result, `xla.sdy.GlobalToLocalShape` / `LocalToGlobalShape` around a
/// `shard_map` body); the partitioner removes them all.
const SHARDING_TARGETS: &[&str] = &[
    "Sharding",
    "SPMDFullToShardShape",
    "SPMDShardToFullShape",
    "xla.sdy.FuncResultSharding",
    "xla.sdy.GlobalToLocalShape",
    "xla.sdy.LocalToGlobalShape",
];

/// The custom calls JAX lowers a host callback to, one row per target
/// (a prefix) with the platform it names. `emit_python_callback` in
/// `jax/_src/callback.py` (JAX 0.10.2: `jax.pure_callback`, `io_callback`,
/// `jax.debug.callback`) names `xla_ffi{_partitioned}_python_{device}_callback`,
/// `device` being `gpu` for CUDA and ROCm and `cpu` for the CPU, while a TPU
/// callback is a send/recv pair to the host, no custom call;
/// `jax/_src/buffer_callback.py` names `xla_buffer_python_cpu_callback` and
/// `xla_buffer_python_gpu_callback` (with `_cmd_buffer` appended on a GPU);
/// JAX before the FFI called `xla_python_gpu_callback` for CUDA and ROCm and
/// `xla_python_cpu_callback` otherwise (`emit_python_callback` in
/// `jax/_src/interpreters/mlir.py`, with the TPU's send/recv path apart).
pub(crate) const CALLBACK_TARGETS: &[(&str, Backend)] = &[
    ("xla_ffi_python_cpu_callback", Backend::Cpu),
    ("xla_ffi_partitioned_python_cpu_callback", Backend::Cpu),
    ("xla_buffer_python_cpu_callback", Backend::Cpu),
    ("xla_python_cpu_callback", Backend::Cpu),
    ("xla_ffi_python_gpu_callback", Backend::Gpu),
    ("xla_ffi_partitioned_python_gpu_callback", Backend::Gpu),
    ("xla_buffer_python_gpu_callback", Backend::Gpu),
    ("xla_python_gpu_callback", Backend::Gpu),
];

/// The host-callback target of a line, if its `custom_call_target` is one
/// that JAX lowers to only for `backend` ([`CALLBACK_TARGETS`]).
pub(crate) fn callback_target(l: &str, backend: Backend) -> Option<&'static str> {
    let t = custom_call_target(l)?;
    CALLBACK_TARGETS
        .iter()
        .find(|(p, b)| *b == backend && t.starts_with(p))
        .map(|(p, _)| *p)
}

/// A custom call into a GPU library, or a GPU host callback.
pub(crate) fn gpu_custom_call_target(l: &str) -> Option<&'static str> {
    target_with(l, GPU_TARGETS).or_else(|| callback_target(l, Backend::Gpu))
}
/// A custom call into a CPU library, or a CPU host callback.
pub(crate) fn cpu_custom_call_target(l: &str) -> Option<&'static str> {
    target_with(l, CPU_TARGETS).or_else(|| callback_target(l, Backend::Cpu))
}
/// A custom call only XLA:TPU understands.
pub(crate) fn tpu_custom_call_target(l: &str) -> Option<&'static str> {
    target_with(l, TPU_TARGETS)
}
/// Custom call targets only XLA's own rewriters create while compiling:
/// oneDNN (XLA:CPU), cuBLAS GEMMs and cuDNN convolutions (XLA:GPU). JAX
/// emits other `__cudnn$` calls itself (fused attention), so only the
/// convolutions count.
const COMPILER_TARGETS: &[&str] = &["__onednn$", "__cublas$", "__cudnn$conv"];

/// A custom call that compilation made.
pub(crate) fn compiler_custom_call_target(l: &str) -> Option<&'static str> {
    target_with(l, COMPILER_TARGETS)
}

/// A sharding annotation custom call, as JAX lowers them.
pub(crate) fn sharding_custom_call_target(l: &str) -> Option<&'static str> {
    let t = custom_call_target(l)?;
    SHARDING_TARGETS.iter().copied().find(|p| t == *p)
}

/// Backend-config JSON strings (keys, or `kind` values) only one backend writes.
const GPU_KEYS: &[&str] = &[
    "operation_queue_id",
    "fusion_backend_config",
    "cudnn_conv_backend_config",
    "gemm_backend_config",
    "block_level_fusion_config",
    "force_earliest_schedule",
];
const GPU_PREFIXES: &[&str] = &["__triton", "__cudnn", "__cublas"];
const CPU_KEYS: &[&str] = &[
    "outer_dimension_partitions",
    "__ynn_fusion",
    "fusion_config",
    "onednn_matmul_config",
    "onednn_conv_config",
];
const TPU_KEYS: &[&str] = &[
    "flag_configs",
    "window_config",
    "scoped_memory_configs",
    "used_scoped_memory_configs",
    "estimated_cycles",
];

/// Which backend a backend-config JSON string belongs to.
fn vendor_of(s: &str) -> Option<usize> {
    if GPU_KEYS.contains(&s) || GPU_PREFIXES.iter().any(|p| s.starts_with(p)) {
        Some(0)
    } else if CPU_KEYS.contains(&s) {
        Some(1)
    } else if TPU_KEYS.contains(&s) {
        Some(2)
    } else {
        None
    }
}

/// One pass over the double-quoted strings of `json`: for GPU, CPU and TPU,
/// the first backend-specific string and its byte offset (of the opening quote).
pub(crate) fn vendor_strings(json: &str) -> [Option<(&str, usize)>; 3] {
    let mut found: [Option<(&str, usize)>; 3] = [None, None, None];
    let b = json.as_bytes();
    let mut i = 0usize;
    while let Some(start) = super::scan::find_byte(b, i, b'"') {
        let Some(len) = super::scan::find_byte(b, start + 1, b'"').map(|e| e - start - 1) else {
            break;
        };
        if let (Some(tok), true) = (json.get(start + 1..start + 1 + len), len < 48) {
            if let Some(v) = vendor_of(tok) {
                if let Some(slot) = found.get_mut(v) {
                    if slot.is_none() {
                        *slot = Some((tok, start));
                    }
                }
            }
        }
        i = start + len + 2;
    }
    found
}

fn key_in(l: &str, vendor: usize) -> Option<(&str, usize)> {
    let at = l.find("backend_config")?;
    let r = l.get(at..)?;
    vendor_strings(r)
        .get(vendor)
        .copied()
        .flatten()
        .map(|(k, p)| (k, at + p))
}

/// A backend-config string only XLA:GPU writes.
pub(crate) fn gpu_config_key(l: &str) -> Option<(&str, usize)> {
    key_in(l, 0)
}
/// A backend-config string only XLA:CPU writes.
pub(crate) fn cpu_config_key(l: &str) -> Option<(&str, usize)> {
    key_in(l, 1)
}
/// A backend-config string only XLA:TPU writes.
pub(crate) fn tpu_config_key(l: &str) -> Option<(&str, usize)> {
    key_in(l, 2)
}

/// The rewrites of XLA's algebraic simplifier that JAX's lowering never
/// makes: (the primitive an instruction is named after, the opcode it has
/// after the rewrite). JAX lowers `sub` to `subtract` and `div` to `divide`
/// on every dtype; XLA turns `x - c` into an `add` of `-c` and a division by
/// a constant (or by a value computed once) into a `multiply`. Only these
/// two: other primitives do lower to other opcodes before any pass (complex
/// `exp` to `multiply`s, `checker/tests/data/complex_exp.lowered.hlo.txt`).
const REWRITES: &[(&str, &str)] = &[("sub", "add"), ("div", "multiply")];

/// Whether an instruction with `opcode`, named `op_name` in its metadata
/// (`jit(fn)/sub`), is one of the [`REWRITES`]. Only JAX's names count
/// (`jit(`/`pmap(` scopes: TensorFlow names nodes `div` whatever they
/// lower to), and not a name the conversion to HLO merged from several
/// (`...add_any;.../neg`, which it prints on ops it made itself).
pub(crate) fn rewritten_op(opcode: &str, op_name: &str) -> bool {
    // Most instructions are no rewrite's (their opcode, or the primitive
    // at the name's end): decided before the scans of the whole name.
    if !REWRITES.iter().any(|&(_, o)| o == opcode) {
        return false;
    }
    let primitive = op_name.rsplit('/').next().unwrap_or(op_name);
    if !REWRITES.iter().any(|&(p, o)| p == primitive && o == opcode) {
        return false;
    }
    !op_name.contains(';') && (op_name.contains("jit(") || op_name.contains("pmap("))
}

/// [`rewritten_op`] on one HLO instruction line: its opcode and the
/// `op_name` of its `metadata`.
pub(crate) fn rewritten_op_line(l: &str) -> bool {
    let Some(ins) = parse_instruction(l) else {
        return false;
    };
    let Some(at) = l.find("op_name=\"") else {
        return false;
    };
    let rest = &l[at + "op_name=\"".len()..];
    let name = rest.split('"').next().unwrap_or("");
    rewritten_op(ins.opcode, name)
}
