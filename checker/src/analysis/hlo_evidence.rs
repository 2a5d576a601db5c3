//! The evidence of HLO text: a line-based state machine over the lines of
//! a module (or an excerpt of one) that records the clues each line shows
//! and what the module holds (computations, fusions, custom calls, loops,
//! kernels, source ops).
//!
//! HLO text puts one module header, one computation header or one
//! instruction on each line, so the reader goes line by line, reads each
//! with the syntax of [`super::hlo`], and keeps only a little state (the
//! current computation, the current `FileNames`/`StackFrames` section). A
//! line it does not understand is skipped, never an error.

use super::hlo::{
    Clues, Header, Instr, compiler_custom_call_target, cpu_custom_call_target, custom_call_target,
    gpu_custom_call_target, gpu_fusion_prefix, parse_computation_header, parse_instruction,
    sharding_custom_call_target, tpu_custom_call_target, vendor_strings,
};
use super::markers::M;
use super::model::{
    Analysis, Computation, Conditional, CustomCall, Fusion, Kernel, Param, WhileLoop,
};
use super::pasted::LineMap;
use super::scan::{Item, Sip, find, for_each_attr, skip_balanced, strip_pct, take_while};
use super::scan::{has_layout, has_param_name};
use super::sink::Sink;
use std::collections::HashMap;

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

    /// Reads instruction `ins` (line `n`, text `l`): the computation's
    /// bookkeeping, then each concern's clues in turn.
    fn instruction(
        &mut self,
        n: usize,
        l: &'a str,
        ins: &Instr<'a>,
        a: &mut Analysis,
        sink: &mut Sink<'a>,
    ) {
        let in_entry = self.count_in_computation(n, l, ins, sink);
        let at = Here {
            n,
            l,
            ins,
            in_entry,
        };
        at.structure(sink);
        self.more_shape_clues(
            n,
            l,
            ins.shape_at,
            ins.attrs_at,
            ins.clues,
            M::TpuTiledLayout,
            sink,
        );
        at.opcode_clues(a, sink);
        let attrs = Attrs::read(ins);
        if let Some(callee) = attrs.to_apply {
            self.called.push(callee);
        }
        if ins.opcode == "fusion" {
            at.fusion(&attrs, a, sink);
        }
        if ins.opcode == "custom-call" {
            at.custom_call(a, sink);
        }
        at.control_flow(&attrs, a, sink);
        if let Some(p) = attrs.backend {
            at.backend_config(p, sink);
        }
        if let Some(p) = attrs.metadata {
            at.metadata(p, &attrs, a, sink);
        }
    }

    /// Counts `ins` in the current computation (its opcodes, its span of
    /// kernels); whether that is the entry computation.
    fn count_in_computation(
        &mut self,
        n: usize,
        l: &'a str,
        ins: &Instr<'a>,
        sink: &mut Sink<'a>,
    ) -> bool {
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
            if !super::model::is_free_opcode(ins.opcode) {
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
        in_entry
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
                        kind: super::model::kernel_kind(op),
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

/// The attributes of an instruction that its clues and records read, from
/// one pass over them.
#[derive(Default)]
struct Attrs<'a> {
    /// `kind=` and its offset on the line.
    fusion_kind: Option<(&'a str, usize)>,
    calls: Option<&'a str>,
    condition: Option<&'a str>,
    body: Option<&'a str>,
    branches: Vec<String>,
    /// The offset of the last `metadata={...}`'s value on the line.
    metadata: Option<usize>,
    /// The fields of that `metadata`: op name, source file, source line,
    /// stack frame, offset of `scheduling_name` inside it.
    op: Option<&'a str>,
    file: Option<&'a str>,
    line: Option<u32>,
    frame: Option<u32>,
    sched: Option<usize>,
    /// The offset of `backend_config`'s value on the line.
    backend: Option<usize>,
    /// The computation a `call` applies.
    to_apply: Option<&'a str>,
}

impl<'a> Attrs<'a> {
    fn read(ins: &Instr<'a>) -> Self {
        let mut t = Attrs::default();
        let base = ins.attrs_at;
        for_each_attr(ins.attrs, "metadata", |item, k, v, at| match (item, k) {
            // The usual metadata first: `op_name`, `stack_frame_id`.
            (Item::Field, "op_name") => t.op = Some(v),
            (Item::Field, "stack_frame_id") => t.frame = v.parse::<u32>().ok(),
            (Item::Field, "source_file") => t.file = Some(v),
            (Item::Field, "source_line") => t.line = v.parse::<u32>().ok(),
            (Item::Field, "scheduling_name") => t.sched = Some(at),
            (Item::Field, _) => {}
            (_, "metadata") => {
                t.metadata = Some(base + at);
                (t.op, t.file, t.line, t.frame, t.sched) = (None, None, None, None, None);
            }
            (_, "kind") => t.fusion_kind = Some((v, base + at)),
            (_, "calls") => t.calls = Some(strip_pct(v)),
            (_, "condition") => t.condition = Some(strip_pct(v)),
            (_, "body") => t.body = Some(strip_pct(v)),
            (_, "true_computation" | "false_computation") => {
                t.branches.push(strip_pct(v).to_owned());
            }
            (_, "branch_computations") => {
                let inner = v.trim_start_matches('{').trim_end_matches('}');
                t.branches.extend(
                    inner
                        .split(',')
                        .map(|s| strip_pct(s.trim()).to_owned())
                        .filter(|s| !s.is_empty()),
                );
            }
            (_, "backend_config") => t.backend = Some(base + at),
            (_, "to_apply") if ins.opcode == "call" => t.to_apply = Some(strip_pct(v)),
            _ => {}
        });
        t
    }
}

/// One instruction being read: its line number and text, the instruction,
/// and whether it sits in the entry computation. Each method is one concern
/// of the marker table's detectors.
struct Here<'i, 'a> {
    n: usize,
    l: &'a str,
    ins: &'i Instr<'a>,
    in_entry: bool,
}

impl<'a> Here<'_, 'a> {
    /// An instruction, its naming style, its layout and `param_N` operands.
    fn structure(&self, sink: &mut Sink<'a>) {
        let (n, l, ins) = (self.n, self.l, self.ins);
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
        if ins.opcode != "parameter" && has_param_name(ins.operands) {
            let base = ins.opcode_at + ins.opcode.len() + 1;
            let p = super::scan::find_all(ins.operands, "param_")
                .find(|&i| has_param_name(ins.operands.get(i.saturating_sub(1)..).unwrap_or("")))
                .unwrap_or(0);
            sink.add(M::FusedParameter, n, l, base + p, 6, || {
                "An operand named `param_N`: a name the fusion pass gives the inputs of a fused computation.".to_owned()
            });
        }
    }

    /// What the opcode alone tells: a parameter (of a fused computation, or
    /// of the entry), an inserted `bitcast` or `copy`, an async half.
    fn opcode_clues(&self, a: &mut Analysis, sink: &mut Sink<'a>) {
        let (n, l, ins) = (self.n, self.l, self.ins);
        let name = ins.name;
        match ins.opcode {
            "parameter" => {
                if name.starts_with("param_") && has_param_name(name) {
                    sink.add(M::FusedParameter, n, l, ins.name_at, name.len(), || {
                        format!("`{name}`: the fusion pass names the inputs of a fused computation `param_N`.")
                    });
                }
                if self.in_entry {
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
    }

    /// A `fusion`: its record, its kind, its GPU rewriter's name, the
    /// computation it calls.
    fn fusion(&self, t: &Attrs<'a>, a: &mut Analysis, sink: &mut Sink<'a>) {
        let (n, l, ins) = (self.n, self.l, self.ins);
        let name = ins.name;
        let calls = t.calls;
        let (kind, kat) = t.fusion_kind.unwrap_or(("", ins.opcode_at));
        a.fusions.push(Fusion {
            name: name.to_owned(),
            kind: kind.to_owned(),
            ops: Vec::new(),
            in_entry: self.in_entry,
            line: n,
            computation: calls.unwrap_or("").to_owned(),
        });
        if self.in_entry {
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
                    format!(
                        "`calls=` names `{c}`, the computation holding the ops fused into `{name}`."
                    )
                });
            }
        }
    }

    /// A `custom-call`: its record and what its target names (a library of
    /// one backend, a Pallas kernel, a compiler rewrite, a sharding shim).
    fn custom_call(&self, a: &mut Analysis, sink: &mut Sink<'a>) {
        let (n, l) = (self.n, self.l);
        let name = self.ins.name;
        let Some(t) = custom_call_target(l) else {
            return;
        };
        let at = l.find("custom_call_target").unwrap_or(0);
        let len = "custom_call_target=".len() + t.len() + 2;
        a.custom_calls.push(CustomCall {
            name: name.to_owned(),
            target: t.to_owned(),
            line: n,
            in_entry: self.in_entry,
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
            sink.add(M::TpuCustomCall, n, l, at, len, || {
                format!(
                    "`{t}` is a kernel only XLA:TPU can run (for example a Pallas/Mosaic kernel)."
                )
            });
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

    /// A `while` with its condition and body, a `conditional` with its
    /// branches.
    fn control_flow(&self, t: &Attrs<'a>, a: &mut Analysis, sink: &mut Sink<'a>) {
        let (n, l, ins) = (self.n, self.l, self.ins);
        let name = ins.name;
        if ins.opcode == "while" {
            let (cond, body) = (t.condition, t.body);
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
                    t.branches.len()
                )
            });
            a.conditionals.push(Conditional {
                name: name.to_owned(),
                line: n,
                branches: t.branches.clone(),
            });
        }
    }

    /// A `backend_config` (value at `at`), and the entries only one
    /// backend's compiler writes.
    fn backend_config(&self, at: usize, sink: &mut Sink<'a>) {
        let (n, l) = (self.n, self.l);
        let p = at.saturating_sub("backend_config=".len());
        sink.add(M::BackendConfig, n, l, p, "backend_config".len(), || {
            "`backend_config`: settings the compiler backend attached to this instruction."
                .to_owned()
        });
        let Some(r) = l.get(at..) else {
            return;
        };
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

    /// `metadata` (value at `mat`): a scheduling name in it, and the source
    /// op the instruction came from.
    fn metadata(&self, mat: usize, t: &Attrs<'a>, a: &mut Analysis, sink: &mut Sink<'a>) {
        let (n, l) = (self.n, self.l);
        sink.add(
            M::Metadata,
            n,
            l,
            mat.saturating_sub("metadata=".len()),
            "metadata".len(),
            || "`metadata`: the JAX op (and source line) this instruction came from.".to_owned(),
        );
        if let Some(p) = t.sched {
            sink.add(M::SchedulingName, n, l, mat + p, "scheduling_name".len(), || {
                "`scheduling_name` in the metadata: XLA:GPU's scheduling passes name instructions while compiling.".to_owned()
            });
        }
        if let Some(op) = t.op {
            let source_op = sink.source_op((op, t.file, t.line, t.frame));
            a.provenance.push(n, self.ins.name, source_op);
        }
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
            (!super::model::is_free_opcode(ins.opcode)).then_some((line, ins.name, ins.opcode))
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
