//! A tolerant, line-based parser of HLO text as XLA prints it.
//!
//! HLO text puts one module header, one computation header or one
//! instruction on each line, so the parser reads line by line and keeps only
//! a little state (the current computation, the current `FileNames`/
//! `StackFrames` section). It accepts both naming styles (`%x.1 = ...` from
//! compiled modules and XLA's dumps, bare `x.1 = ...` from
//! `as_text(dialect="hlo")`), computation headers with and without
//! signatures, tuple shapes, layouts with tiles and memory spaces, and nested
//! attribute braces. A line it does not understand is skipped, never an error.

use super::markers::{M, has_layout, has_param_name};
use super::scan::{Item, Sip, find, for_each_attr, skip_balanced, skip_ws, strip_pct, take_while};
use super::unwrap::LineMap;
use super::{
    Analysis, Computation, Conditional, CustomCall, Fusion, Kernel, Param, Sink, WhileLoop,
};
use std::collections::HashMap;

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
    /// The `T(`/`S(` clues (see [`Clues`]) found while skipping the shape.
    pub(crate) clues: Clues,
}

/// The first tiled-layout `T(` and memory-space `S(` clue (byte offset of
/// the letter in the line) in part of an instruction line, as
/// [`HloState::more_shape_clues`] looks for them: a `(` followed by a digit,
/// after `T` or `S` after `:` or `)`. `upto` is where the part checked ends:
/// [`skip_layout`] finds the clues of a layout while walking it, so only the
/// rest of the line up to the attributes needs a search.
#[derive(Clone, Copy, Default)]
pub(crate) struct Clues {
    pub(crate) tile: Option<usize>,
    pub(crate) space: Option<usize>,
    pub(crate) upto: usize,
    /// Whether the shape has a layout ([`has_layout`] of it), when the
    /// shape walk could tell: an array shape with plain dimensions and a
    /// layout [`skip_layout`] read (or none). `None`: search the shape.
    pub(crate) layout: Option<bool>,
}

impl Clues {
    /// Records the clue, if any, of the `(` at `at` of the line `b`, in its
    /// part from `from` to `to`.
    fn check(&mut self, b: &[u8], from: usize, to: usize, at: usize) {
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
    let mut clues = Clues {
        upto: shape_at,
        ..Clues::default()
    };
    let shape_end = skip_shape(b, i, &mut clues)?;
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
    // Operands are nearly always plain names up to the `)`: then there is
    // no bracket to count, and no `T(`/`S(` clue from the shape's end on
    // (the `(` after the opcode follows an opcode byte, not `T` or `S`).
    let ops_end = match super::scan::next_special::<false>(b, op_end + 1) {
        Some(k) if b.get(k) == Some(&b')') => {
            if clues.upto == shape_end {
                clues.upto = k + 1;
            }
            k + 1
        }
        _ => skip_balanced(b, op_end).unwrap_or(b.len()),
    };
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
        clues,
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
/// tuple `(f32[8]{0}, s32[])`), returning the index after it. For an array
/// shape with plain dimensions, whose only `(`s are in its layout, also
/// records that layout's clues and moves `clues.upto` past it.
fn skip_shape(b: &[u8], i: usize, clues: &mut Clues) -> Option<usize> {
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
            let plain = b.get(d) == Some(&b']');
            let mut j = if plain { d + 1 } else { skip_balanced(b, t)? };
            let mut found = Clues {
                upto: i,
                ..Clues::default()
            };
            if b.get(j) == Some(&b'{') {
                // The only `]` of such a shape is the one before this `{`.
                found.layout = Some(
                    b.get(j + 1)
                        .is_some_and(|&c| c.is_ascii_digit() || c == b'}'),
                );
                j = match skip_layout(b, j, i, &mut found) {
                    Some(e) => e,
                    None => {
                        found.upto = i;
                        skip_balanced(b, j)?
                    }
                };
            } else {
                found.layout = Some(false);
                found.upto = j;
            }
            if plain && found.upto == j {
                *clues = found;
            }
            Some(j)
        }
        _ => None,
    }
}

/// The end of a layout `{1,0}` / `{1,0:T(8,128)(2,1)S(1)}` starting at the
/// `{` at `i`, when it holds no bracket but balanced parentheses (what XLA
/// prints); `None` sends anything else to [`skip_balanced`], which then
/// gives the same answer this would have. On success, the clues of the
/// layout (of the shape starting at `from`) are in `clues`, checked up to
/// its end.
fn skip_layout(b: &[u8], i: usize, from: usize, clues: &mut Clues) -> Option<usize> {
    let mut parens = 0usize;
    let mut j = i + 1;
    loop {
        // Digits, commas, `:` and letters are most of a layout: one table
        // load and one well-predicted branch each.
        let c = *b.get(j)?;
        if LAYOUT_SPECIAL[c as usize] {
            match c {
                b'(' => {
                    parens += 1;
                    // A clue's digit is inside the layout (its `}` is still
                    // to come), so before any end of the part checked.
                    clues.check(b, from, usize::MAX, j);
                }
                b')' => parens = parens.checked_sub(1)?,
                b'}' if parens == 0 => {
                    clues.upto = j + 1;
                    return Some(j + 1);
                }
                _ => return None,
            }
        }
        j += 1;
    }
}

/// The bytes [`skip_layout`] acts on: parentheses, and the brackets, braces
/// and quotes that end its walk.
const LAYOUT_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'(' as usize] = true;
    t[b')' as usize] = true;
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t[b'[' as usize] = true;
    t[b']' as usize] = true;
    t[b'"' as usize] = true;
    t
};

/// A computation header line.
pub(crate) struct Header<'a> {
    pub(crate) entry: bool,
    pub(crate) name: &'a str,
    pub(crate) name_at: usize,
    /// Printed with `(params) -> shape`.
    pub(crate) signed: bool,
    /// The parameter list, without parentheses.
    pub(crate) params: &'a str,
}

/// Parses `[ENTRY ] [%]name (params) -> shape {` or `[ENTRY ] name.N {`.
pub(crate) fn parse_computation_header(l: &str) -> Option<Header<'_>> {
    let t = l.trim_end();
    if !t.ends_with('{') {
        return None;
    }
    let b = t.as_bytes();
    let mut i = skip_ws(b, 0);
    let mut entry = false;
    if t.get(i..).is_some_and(|r| r.starts_with("ENTRY ")) {
        entry = true;
        i = skip_ws(b, i + 6);
    }
    let percent = b.get(i) == Some(&b'%');
    if percent {
        i += 1;
    }
    let name_at = i;
    let name_end = take_while(b, i, super::scan::is_name_byte);
    let name = t.get(name_at..name_end)?;
    if name.is_empty()
        || !b
            .get(name_at)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    {
        return None;
    }
    let j = skip_ws(b, name_end);
    match b.get(j)? {
        b'{' if j + 1 == b.len() => {
            // Bare style: require the `.N` suffix XLA gives computation names
            // (or ENTRY), so MLIR regions like `cond {` do not count.
            let suffixed = name
                .rsplit_once('.')
                .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()));
            (entry || suffixed).then_some(Header {
                entry,
                name,
                name_at,
                signed: false,
                params: "",
            })
        }
        b'(' => {
            let close = skip_balanced(b, j)?;
            let k = skip_ws(b, close);
            if t.get(k..).is_some_and(|r| r.starts_with("->")) {
                let params = t.get(j + 1..close - 1).unwrap_or("");
                Some(Header {
                    entry,
                    name,
                    name_at,
                    signed: true,
                    params,
                })
            } else {
                None
            }
        }
        _ => None,
    }
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
fn gpu_fusion_prefix(name: &str, calls: Option<&str>) -> Option<&'static str> {
    GPU_FUSION_NAMES
        .iter()
        .copied()
        .find(|p| name.starts_with(p) || calls.is_some_and(|c| c.starts_with(p)))
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
    "cu_",
    "hipsolver",
    "hipblas",
    "hip_",
    "mosaic_gpu",
];
const CPU_TARGETS: &[&str] = &[
    "__onednn",
    "lapack_",
    "__xla_cpu",
    "xla_cpu",
    "ducc_",
    "xla.cpu",
];
const TPU_TARGETS: &[&str] = &["tpu_custom_call", "__tpu", "tpu_"];
const SHARDING_TARGETS: &[&str] = &["Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape"];

/// A custom call into a GPU library.
pub(crate) fn gpu_custom_call_target(l: &str) -> Option<&'static str> {
    target_with(l, GPU_TARGETS)
}
/// A custom call into a CPU library.
pub(crate) fn cpu_custom_call_target(l: &str) -> Option<&'static str> {
    target_with(l, CPU_TARGETS)
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
fn vendor_strings(json: &str) -> [Option<(&str, usize)>; 3] {
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

/// Distinct opcodes kept per computation for [`Fusion::ops`]: real fused
/// computations have a handful; the cap keeps adversarial text linear.
const MAX_FUSED_OPS: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    FileNames,
    FunctionNames,
    FileLocations,
    StackFrames,
}

struct Comp<'a> {
    name: &'a str,
    is_entry: bool,
    line: usize,
    header: &'a str,
    header_name_at: usize,
    /// The header's column offset in the paste (see `Sink::col`).
    col: usize,
    /// Distinct opcodes, as [`Sink::op`] ids (comparing ids, not names).
    ops: Vec<usize>,
    instructions: usize,
    /// Where the instructions that would be kernels if this computation
    /// launches work are: read again by [`HloState::finish`] for the
    /// computations that do.
    kernels: Option<KernelSpan<'a>>,
}

/// The first and last lines of a computation holding a non-free
/// instruction. Nothing is kept per instruction: most of a module's
/// instructions sit in fused computations, which launch nothing, and a row
/// for each made the largest buffer of the analysis after the text. Every
/// instruction between the two lines belongs to the computation, since
/// instructions only go to the computation read last.
#[derive(Clone, Copy)]
struct KernelSpan<'a> {
    first_line: usize,
    first: &'a str,
    last: &'a str,
}

/// Per-text HLO state while reading lines.
pub(crate) struct HloState<'a> {
    comps: Vec<Comp<'a>>,
    /// Computations that `call` instructions run (`to_apply=`).
    called: Vec<&'a str>,
    current: Option<usize>,
    section: Section,
    file_names: HashMap<u32, &'a str, Sip>,
    file_locations: HashMap<u32, (u32, u32), Sip>,
    stack_frames: HashMap<u32, u32, Sip>,
    /// The `ENTRY` computation's header was read.
    entry_seen: bool,
}

impl<'a> HloState<'a> {
    pub(crate) fn new() -> Self {
        HloState {
            comps: Vec::new(),
            called: Vec::new(),
            current: None,
            section: Section::None,
            file_names: HashMap::default(),
            file_locations: HashMap::default(),
            stack_frames: HashMap::default(),
            entry_seen: false,
        }
    }

    /// Reads one line; `true` when it was HLO.
    ///
    /// Instructions are tried first ([`instruction_line`]); the kernels of a
    /// computation are read again from its lines by [`kernels_in`].
    pub(crate) fn line(
        &mut self,
        n: usize,
        l: &'a str,
        a: &mut Analysis,
        sink: &mut Sink<'a>,
    ) -> bool {
        let t = super::scan::trim_start(l);
        // Instructions: the common case.
        if let Some(ins) = instruction_line(t, l) {
            self.instruction(n, l, &ins, a, sink);
            return true;
        }
        if self.section != Section::None {
            if self.section_line(t) {
                return true;
            }
            self.section = Section::None;
        }
        if t.starts_with("HloModule") {
            self.module_header(n, l, a, sink);
            return true;
        }
        if t == "}" {
            if self.current.take().is_some() {
                return true;
            }
            return false;
        }
        let sec = match t.trim_end() {
            "FileNames" => Section::FileNames,
            "FunctionNames" => Section::FunctionNames,
            "FileLocations" => Section::FileLocations,
            "StackFrames" => Section::StackFrames,
            _ => Section::None,
        };
        if sec != Section::None {
            self.section = sec;
            let at = l.len() - t.len();
            sink.add(M::StackFrames, n, l, at, t.trim_end().len(), || {
                "A source-location table that HLO instructions point into with `stack_frame_id`."
                    .to_owned()
            });
            return true;
        }
        if let Some(h) = parse_computation_header(l) {
            self.computation(n, l, &h, a, sink);
            return true;
        }
        false
    }

    fn section_line(&mut self, t: &'a str) -> bool {
        let b = t.as_bytes();
        let id_end = take_while(b, 0, |c| c.is_ascii_digit());
        if id_end == 0 {
            return false;
        }
        let Some(id) = t.get(..id_end).and_then(|s| s.parse::<u32>().ok()) else {
            return false;
        };
        let rest = t.get(id_end..).unwrap_or("").trim();
        let num = |k: &str| super::scan::field(rest, k).and_then(|v| v.parse::<u32>().ok());
        match self.section {
            Section::FileNames => {
                let v = rest.trim_matches('"');
                self.file_names.insert(id, v);
            }
            Section::FileLocations => {
                if let (Some(f), Some(line)) = (num("file_name_id"), num("line")) {
                    self.file_locations.insert(id, (f, line));
                }
            }
            Section::StackFrames => {
                if let Some(loc) = num("file_location_id") {
                    self.stack_frames.insert(id, loc);
                }
            }
            Section::FunctionNames | Section::None => {}
        }
        true
    }

    fn module_header(&mut self, n: usize, l: &'a str, a: &mut Analysis, sink: &mut Sink<'a>) {
        let t = l.trim_start();
        let at = l.len() - t.len();
        let rest = t.get("HloModule".len()..).unwrap_or("");
        let name = rest.trim_start().split([',', ' ']).next().unwrap_or("");
        if !name.is_empty() && a.module_name.is_none() {
            a.module_name = Some(name.to_owned());
        }
        sink.add(M::HloModuleHeader, n, l, at, "HloModule".len(), || {
            format!("`HloModule {name}` starts an HLO module.")
        });
        if let Some(p) = l.find("is_scheduled=true") {
            sink.add(M::IsScheduled, n, l, p, "is_scheduled=true".len(), || {
                "`is_scheduled=true`: XLA has fixed the order the instructions run in, which happens only when it compiles the module.".to_owned()
            });
        } else {
            sink.add(M::NotScheduled, n, l, at, "HloModule".len(), || {
                "The module header has no `is_scheduled=true`: XLA has not scheduled this module, so it has not compiled it yet.".to_owned()
            });
        }
        // Tiles in the header's `entry_computation_layout` name a TPU, but
        // the TPU client sets them before any pass runs: not compile proof.
        let c = Clues::default();
        self.more_shape_clues(n, l, 0, l.len(), c, M::EntryLayoutTiles, sink);
    }

    fn computation(
        &mut self,
        n: usize,
        l: &'a str,
        h: &Header<'a>,
        a: &mut Analysis,
        sink: &mut Sink<'a>,
    ) {
        if h.entry {
            self.entry_seen = true;
            a.entry_computation = Some(h.name.to_owned());
            let at = l.find("ENTRY").unwrap_or(0);
            sink.add(M::EntryComputation, n, l, at, 5, || {
                format!(
                    "`ENTRY` marks `{}` as the computation that runs when the module is called.",
                    h.name
                )
            });
        }
        if h.signed {
            sink.add(M::ComputationHeader, n, l, h.name_at, h.name.len(), || {
                format!(
                    "The header of HLO computation `{}`, with its parameters and result shape.",
                    h.name
                )
            });
            if has_param_name(h.params) {
                let p = l.find("param_").unwrap_or(0);
                sink.add(M::FusedParameter, n, l, p, 6, || {
                    "Parameters named `param_N`: the names XLA's fusion pass gives the inputs of a fused computation.".to_owned()
                });
            }
        } else {
            sink.add(M::UnsignedComputation, n, l, h.name_at, h.name.len(), || {
                format!(
                    "`{}` is printed without its signature, as `lower(...).as_text(dialect=\"hlo\")` prints HLO before compilation.",
                    h.name
                )
            });
        }
        self.current = Some(self.comps.len());
        self.comps.push(Comp {
            name: h.name,
            is_entry: h.entry,
            line: n,
            header: l,
            header_name_at: h.name_at,
            col: sink.col,
            ops: Vec::new(),
            instructions: 0,
            kernels: None,
        });
    }

    /// The tiled-layout and memory-space clues of `l[from..to]`, the clues
    /// up to `c.upto` already in `c`; a tile is reported as `tile`
    /// (`tpu-tiled-layout` on instructions, `entry-layout-tiles` in the
    /// module header).
    #[allow(clippy::too_many_arguments)]
    fn more_shape_clues(
        &mut self,
        n: usize,
        l: &str,
        from: usize,
        to: usize,
        mut c: Clues,
        tile: M,
        sink: &mut Sink<'a>,
    ) {
        if l.get(from..to).is_none() {
            return;
        }
        // One pass for both `T(` and `S(` after `:` or `)`, as in
        // `{1,0:T(8,128)S(1)}`; only the first of each counts.
        let b = l.as_bytes();
        let part = b.get(..to).unwrap_or(b);
        let mut i = c.upto.max(from);
        while c.space.is_none() || c.tile.is_none() {
            let Some(at) = super::scan::find_byte(part, i, b'(') else {
                break;
            };
            c.check(b, from, to, at);
            i = at + 1;
        }
        if let Some(p) = c.tile {
            if sink.hit(tile, n) {
                let note = if tile == M::EntryLayoutTiles {
                    "Tiles `T(...)` in the entry computation layout: the TPU client sets these before any pass runs, so they name a TPU but do not show that XLA compiled the module."
                } else {
                    "A tiled layout `T(...)`: XLA:TPU stores this array in tiles (for example 8x128) that match its vector units."
                };
                sink.push(tile, n, l, p, tile_len(l, p), note.to_owned());
            }
        }
        if let Some(p) = c.space {
            if sink.hit(M::MemorySpace, n) {
                sink.push(M::MemorySpace, n, l, p, tile_len(l, p),
                    "A memory-space annotation `S(n)`: the compiler placed this buffer outside the default device memory.".to_owned()
                );
            }
        }
    }

    fn instruction(
        &mut self,
        n: usize,
        l: &'a str,
        ins: &Instr<'a>,
        a: &mut Analysis,
        sink: &mut Sink<'a>,
    ) {
        let in_entry = self
            .current
            .and_then(|c| self.comps.get(c))
            .is_some_and(|c| c.is_entry);
        let op_id = sink.op(ins.opcode);
        if let Some(c) = self.current.and_then(|c| self.comps.get_mut(c)) {
            c.instructions += 1;
            if ins.opcode != "parameter" && c.ops.len() < MAX_FUSED_OPS && !c.ops.contains(&op_id) {
                c.ops.push(op_id);
            }
            if !super::is_free_opcode(ins.opcode) {
                match &mut c.kernels {
                    Some(span) => span.last = l,
                    None => {
                        c.kernels = Some(KernelSpan {
                            first_line: n,
                            first: l,
                            last: l,
                        });
                    }
                }
            }
        }
        sink.add(
            M::HloInstruction,
            n,
            l,
            ins.opcode_at,
            ins.opcode.len(),
            || {
                if ins.opcode == "parameter" {
                    format!(
                        "An HLO instruction: `{}` is a parameter of the computation it sits in.",
                        ins.name
                    )
                } else {
                    format!(
                        "An HLO instruction: `{}` is computed by the `{}` op.",
                        ins.name, ins.opcode
                    )
                }
            },
        );
        if !ins.percent {
            sink.add(M::BareNames, n, l, ins.name_at, ins.name.len(), || {
                format!(
                    "`{}` is named without `%`, as `lower(...).as_text(dialect=\"hlo\")` prints HLO before compilation.",
                    ins.name
                )
            });
        }
        let layout = ins.clues.layout.unwrap_or_else(|| has_layout(ins.shape));
        if layout && sink.hit(M::Layout, n) {
            let p = ins.shape_at + find(ins.shape, "]{").map_or(0, |x| x + 1);
            let len = ins.shape.len().saturating_sub(p - ins.shape_at);
            sink.push(M::Layout, n, l, p, len,
                "A layout after the shape lists dimensions minor to major; XLA prints one before compilation too, so it does not prove compilation.".to_owned()
            );
        }
        self.more_shape_clues(
            n,
            l,
            ins.shape_at,
            ins.attrs_at,
            ins.clues,
            M::TpuTiledLayout,
            sink,
        );
        let name = ins.name;
        if ins.opcode != "parameter" && has_param_name(ins.operands) {
            let base = ins.opcode_at + ins.opcode.len() + 1;
            let p = super::scan::find_all(ins.operands, "param_")
                .find(|&i| has_param_name(ins.operands.get(i.saturating_sub(1)..).unwrap_or("")))
                .unwrap_or(0);
            sink.add(M::FusedParameter, n, l, base + p, 6, || {
                "An operand named `param_N`: a name the fusion pass gives the inputs of a fused computation.".to_owned()
            });
        }
        match ins.opcode {
            "parameter" => {
                if name.starts_with("param_") && has_param_name(name) {
                    sink.add(M::FusedParameter, n, l, ins.name_at, name.len(), || {
                        format!("`{name}`: the fusion pass names the inputs of a fused computation `param_N`.")
                    });
                }
                if in_entry {
                    let (shape, layout) = split_layout(ins.shape);
                    a.entry_params.push(Param {
                        name: name.to_owned(),
                        number: ins.operands.trim().parse().unwrap_or(0),
                        shape: shape.to_owned(),
                        layout: layout.map(str::to_owned),
                        line: n,
                    });
                }
            }
            "bitcast" => {
                sink.add(M::LayoutOp, n, l, ins.opcode_at, ins.opcode.len(), || {
                    "A `bitcast` reinterprets a buffer without moving data; XLA inserts these while compiling, and JAX's lowering does not emit them.".to_owned()
                });
            }
            "copy" => {
                sink.add(M::CopyInstruction, n, l, ins.opcode_at, ins.opcode.len(), || {
                    "A `copy`: XLA inserts these while compiling (to change a layout or a memory space, or so that a loop or an in-place update can overwrite a buffer), but front ends such as TensorFlow's bridge emit them too, so a copy alone does not show compilation.".to_owned()
                });
            }
            op if op.ends_with("-start") || op.ends_with("-done") => {
                sink.add(M::AsyncOp, n, l, ins.opcode_at, ins.opcode.len(), || {
                    format!("`{op}` is half of an asynchronous start/done pair that XLA's scheduler creates while compiling.")
                });
            }
            _ => {}
        }
        let mut fusion_kind: Option<(&str, usize)> = None;
        let mut calls: Option<&str> = None;
        let target = if ins.opcode == "custom-call" {
            custom_call_target(l)
        } else {
            None
        };
        let mut cond: Option<&str> = None;
        let mut body: Option<&str> = None;
        let mut branches: Vec<String> = Vec::new();
        let mut metadata: Option<usize> = None;
        // The fields of the last `metadata={...}`: op name, source file,
        // source line, stack frame, offset of `scheduling_name`.
        let (mut op, mut file, mut line, mut frame, mut sched) = (None, None, None, None, None);
        let mut backend: Option<usize> = None;
        let base = ins.attrs_at;
        for_each_attr(ins.attrs, "metadata", |item, k, v, at| match (item, k) {
            // The usual metadata first: `op_name`, `stack_frame_id`.
            (Item::Field, "op_name") => op = Some(v),
            (Item::Field, "stack_frame_id") => frame = v.parse::<u32>().ok(),
            (Item::Field, "source_file") => file = Some(v),
            (Item::Field, "source_line") => line = v.parse::<u32>().ok(),
            (Item::Field, "scheduling_name") => sched = Some(at),
            (Item::Field, _) => {}
            (_, "metadata") => {
                metadata = Some(base + at);
                (op, file, line, frame, sched) = (None, None, None, None, None);
            }
            (_, "kind") => fusion_kind = Some((v, base + at)),
            (_, "calls") => calls = Some(strip_pct(v)),
            (_, "condition") => cond = Some(strip_pct(v)),
            (_, "body") => body = Some(strip_pct(v)),
            (_, "true_computation" | "false_computation") => branches.push(strip_pct(v).to_owned()),
            (_, "branch_computations") => {
                let inner = v.trim_start_matches('{').trim_end_matches('}');
                branches.extend(
                    inner
                        .split(',')
                        .map(|s| strip_pct(s.trim()).to_owned())
                        .filter(|s| !s.is_empty()),
                );
            }
            (_, "backend_config") => backend = Some(base + at),
            (_, "to_apply") if ins.opcode == "call" => self.called.push(strip_pct(v)),
            _ => {}
        });
        if ins.opcode == "fusion" {
            let (kind, kat) = fusion_kind.unwrap_or(("", ins.opcode_at));
            a.fusions.push(Fusion {
                name: name.to_owned(),
                kind: kind.to_owned(),
                ops: Vec::new(),
                in_entry,
                line: n,
                computation: calls.unwrap_or("").to_owned(),
            });
            if in_entry {
                a.entry_fusions += 1;
            }
            if let Some(g) = gpu_fusion_prefix(name, calls) {
                let at = find(l, g).unwrap_or(ins.name_at);
                sink.add(M::GpuFusionName, n, l, at, g.len(), || {
                    format!("`{g}...` is how XLA:GPU's GEMM, Triton and cuDNN rewriters name the fusions they make.")
                });
            }
            if kind.starts_with('k') {
                sink.add(M::FusionKind, n, l, kat.saturating_sub(5), kind.len() + 5, || {
                    format!("`{name}` is a `fusion` of kind `{kind}`: XLA's fusion pass merged several ops into one kernel, which happens only when compiling.")
                });
            }
            if let Some(c) = calls {
                if let Some(p) = find(l, "calls=") {
                    sink.add(M::FusedComputation, n, l, p, 6 + c.len() + 1, || {
                        format!("`calls=` names `{c}`, the computation holding the ops fused into `{name}`.")
                    });
                }
            }
        }
        if let Some(t) = target {
            let at = l.find("custom_call_target").unwrap_or(0);
            let len = "custom_call_target=".len() + t.len() + 2;
            a.custom_calls.push(CustomCall {
                name: name.to_owned(),
                target: t.to_owned(),
                line: n,
                in_entry,
            });
            sink.add(M::CustomCall, n, l, at, len, || {
                format!("`{name}` calls out of XLA into `{t}`.")
            });
            if gpu_custom_call_target(l).is_some() {
                sink.add(M::GpuCustomCall, n, l, at, len, || {
                    format!("`{t}` is a GPU library routine (cuBLAS, cuDNN, Triton, ...).")
                });
            }
            if cpu_custom_call_target(l).is_some() {
                sink.add(M::CpuCustomCall, n, l, at, len, || {
                    format!("`{t}` is a CPU library routine (oneDNN, LAPACK, ...).")
                });
            }
            if tpu_custom_call_target(l).is_some() {
                sink.add(M::TpuCustomCall, n, l, at, len, || format!("`{t}` is a kernel only XLA:TPU can run (for example a Pallas/Mosaic kernel)."));
            }
            super::pallas::add_evidence(n, l, sink);
            if compiler_custom_call_target(l).is_some() {
                sink.add(M::CompilerCustomCall, n, l, at, len, || {
                    format!("`{t}` is a library call XLA's rewriters put in while compiling; front ends do not emit it.")
                });
            }
            if sharding_custom_call_target(l).is_some() {
                sink.add(M::ShardingCustomCall, n, l, at, len, || {
                    format!("A `{t}` custom call is how JAX's lowering marks shardings; XLA removes it while compiling.")
                });
            }
        }
        if ins.opcode == "while" {
            a.while_loops.push(WhileLoop {
                name: name.to_owned(),
                line: n,
                condition: cond.map(str::to_owned),
                body: body.map(str::to_owned),
            });
            sink.add(M::While, n, l, ins.opcode_at, 5, || {
                format!(
                    "`{name}` is a `while` loop: it runs `{}` as long as `{}` is true.",
                    body.unwrap_or("?"),
                    cond.unwrap_or("?")
                )
            });
        }
        if ins.opcode == "conditional" {
            sink.add(M::Conditional, n, l, ins.opcode_at, 11, || {
                format!(
                    "`{name}` is a `conditional`: it runs one of {} branch computations.",
                    branches.len()
                )
            });
            a.conditionals.push(Conditional {
                name: name.to_owned(),
                line: n,
                branches,
            });
        }
        if let Some(at) = backend {
            let p = at.saturating_sub("backend_config=".len());
            sink.add(M::BackendConfig, n, l, p, "backend_config".len(), || {
                "`backend_config`: settings the compiler backend attached to this instruction."
                    .to_owned()
            });
            if let Some(r) = l.get(at..) {
                let found = vendor_strings(r);
                for ((m, what), hit) in [
                    (M::GpuBackendConfig, "XLA:GPU"),
                    (M::CpuBackendConfig, "XLA:CPU"),
                    (M::TpuBackendConfig, "XLA:TPU"),
                ]
                .into_iter()
                .zip(found)
                {
                    if let Some((k, kp)) = hit {
                        sink.add(m, n, l, at + kp, k.len() + 2, || {
                            format!("The backend config entry \"{k}\" is one only {what} writes.")
                        });
                    }
                }
            }
        }
        if let Some(mat) = metadata {
            sink.add(
                M::Metadata,
                n,
                l,
                mat.saturating_sub("metadata=".len()),
                "metadata".len(),
                || {
                    "`metadata`: the JAX op (and source line) this instruction came from."
                        .to_owned()
                },
            );
            if let Some(p) = sched {
                sink.add(M::SchedulingName, n, l, mat + p, "scheduling_name".len(), || {
                    "`scheduling_name` in the metadata: XLA:GPU's scheduling passes name instructions while compiling.".to_owned()
                });
            }
            if let Some(op) = op {
                let source_op = sink.source_op((op, file, line, frame));
                a.provenance.push(n, name, source_op);
            }
        }
    }

    /// Resolves what needs the whole text: fusion ops, fused computation
    /// headers, stack frames, the computation list.
    pub(crate) fn finish(
        self,
        text: &'a str,
        map: &LineMap,
        a: &mut Analysis,
        sink: &mut Sink<'a>,
    ) {
        sink.entry_seen = self.entry_seen;
        let by_name: HashMap<&str, usize, Sip> = self
            .comps
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name, i))
            .collect();
        for f in &mut a.fusions {
            if let Some(c) = by_name
                .get(f.computation.as_str())
                .and_then(|&i| self.comps.get(i))
            {
                f.ops = c
                    .ops
                    .iter()
                    .map(|&id| sink.op_name(id).to_owned())
                    .collect();
                let name = f.name.as_str();
                sink.col = c.col;
                sink.add(M::FusedComputation, c.line, c.header, c.header_name_at, c.name.len(), || {
                    format!("`{}` is a fused computation: the ops that fusion `{name}` runs as one kernel.", c.name)
                });
            }
        }
        sink.col = 0;
        // Resolve `stack_frame_id`s through the FileNames/FileLocations/
        // StackFrames tables, once per distinct source op.
        for key in &mut sink.ops {
            if let (None, Some(fid)) = (key.1, key.3) {
                let hit = self
                    .stack_frames
                    .get(&fid)
                    .and_then(|l| self.file_locations.get(l));
                if let Some(&(file, line)) = hit {
                    if let Some(name) = self.file_names.get(&file) {
                        key.1 = Some(name);
                        key.2 = Some(line);
                    }
                }
            }
        }
        // The computations that launch work: the entry, loop conditions and
        // bodies, branches, called computations. Their non-free
        // instructions are the module's kernels.
        let mut launching: Vec<&str> = Vec::new();
        for w in &a.while_loops {
            launching.extend(w.condition.as_deref());
            launching.extend(w.body.as_deref());
        }
        for c in &a.conditionals {
            launching.extend(c.branches.iter().map(String::as_str));
        }
        launching.extend(self.called.iter().copied());
        let launching: std::collections::HashSet<&str, Sip> = launching.into_iter().collect();
        for c in &self.comps {
            if c.is_entry || launching.contains(c.name) {
                let rows = c.kernels.map(|span| kernels_in(text, map, span));
                a.kernels
                    .extend(rows.into_iter().flatten().map(|(line, name, op)| Kernel {
                        name: name.to_owned(),
                        opcode: op.to_owned(),
                        kind: super::kernel_kind(op),
                        line,
                        computation: c.name.to_owned(),
                        in_entry: c.is_entry,
                    }));
            }
        }
        a.computations = self
            .comps
            .iter()
            .map(|c| Computation {
                name: c.name.to_owned(),
                line: c.line,
                is_entry: c.is_entry,
                instructions: c.instructions,
            })
            .collect();
    }
}

/// The instruction on line `l` (`t`: the line without its indent), when
/// it is one; the check [`HloState::line`] makes first.
fn instruction_line<'a>(t: &str, l: &'a str) -> Option<Instr<'a>> {
    let first = t.as_bytes().first().copied().unwrap_or(b' ');
    if first == b'%' || first == b'R' || first.is_ascii_lowercase() || first == b'_' {
        parse_instruction(l)
    } else {
        None
    }
}

/// The instructions of `span` (lines of `text`) that are kernels: line,
/// name, opcode. Reads the lines as [`analyze`](super::analyze) read them:
/// blank lines skipped, then [`instruction_line`].
fn kernels_in<'a>(
    text: &'a str,
    map: &'a LineMap,
    span: KernelSpan<'a>,
) -> impl Iterator<Item = (usize, &'a str, &'a str)> + 'a {
    // Both lines are slices of `text`: their offsets in it bound the span.
    let base = text.as_ptr() as usize;
    let start = (span.first.as_ptr() as usize).checked_sub(base);
    let end = (span.last.as_ptr() as usize)
        .checked_sub(base)
        .and_then(|e| e.checked_add(span.last.len()));
    let body = match (start, end) {
        (Some(s), Some(e)) => text.get(s..e).unwrap_or(""),
        _ => "",
    };
    // A repaired paste numbers its lines as pasted: the span's lines are
    // mapped one by one (few computations launch work, so counting the
    // lines before the span is cheap); clean text counts on from the first.
    let repaired_first = (!map.is_empty()).then(|| {
        let before = start.and_then(|s| text.get(..s)).unwrap_or("");
        before.bytes().filter(|&b| b == b'\n').count() + 1
    });
    super::scan::lines(body)
        .enumerate()
        .filter(|(_, l)| !super::scan::is_blank(l))
        .filter_map(move |(i, l)| {
            let ins = instruction_line(super::scan::trim_start(l), l)?;
            let line = match repaired_first {
                Some(first) => map.get(first + i).0,
                None => span.first_line + i,
            };
            (!super::is_free_opcode(ins.opcode)).then_some((line, ins.name, ins.opcode))
        })
}

/// Length of `T(8,128)(2,1)` / `S(1)` starting at `p`.
fn tile_len(l: &str, p: usize) -> usize {
    let b = l.as_bytes();
    let mut j = p + 1;
    while b.get(j) == Some(&b'(') {
        match skip_balanced(b, j) {
            Some(e) => j = e,
            None => break,
        }
    }
    j.saturating_sub(p).max(1)
}

/// `f32[8]{0}` → (`f32[8]`, `{0}`).
fn split_layout(shape: &str) -> (&str, Option<&str>) {
    if shape.starts_with('(') {
        return (shape, None);
    }
    match shape.find("]{") {
        Some(p) => (shape.get(..p + 1).unwrap_or(shape), shape.get(p + 1..)),
        None => (shape, None),
    }
}
