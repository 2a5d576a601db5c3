//! The evidence of HLO text, read from the [program model](crate::program):
//! the module's header, computations and instructions, each read by the
//! detectors of the marker table's concerns (schedule and header, structure
//! and printer habits, layouts and tiles, fusion kinds, custom-call targets
//! and Pallas kernels, backend configs, source information), which record
//! their clues in the sink, and what the module holds (computations,
//! fusions, custom calls, loops, kernels, source ops) in the analysis.
//!
//! [`analyze`](super::analyze) still walks the lines once, for the MLIR and
//! jaxpr readers: [`HloReader::line`] says which lines are the module's
//! (and reads what starts on them), so every other line goes to those
//! readers, as before. Evidence keeps the pasted line numbers and columns
//! (see [`Sink::col`]): a module's lines are the repaired text's.

use super::hlo::{
    Clues, Instr, callback_target, compiler_custom_call_target, cpu_custom_call_target,
    custom_call_target, gpu_custom_call_target, gpu_fusion_prefix, sharding_custom_call_target,
    tpu_custom_call_target, vendor_strings,
};
use super::markers::M;
use super::model::{
    Analysis, Backend, Computation, Conditional, CustomCall, Fusion, Kernel, Param, WhileLoop,
};
use super::pasted::LineMap;
use super::scan::{Sip, find, has_layout, has_param_name, skip_balanced};
use super::sink::Sink;
use crate::program::{CallRole, CompId, Instruction, Module};
use std::collections::{HashMap, HashSet};

/// Distinct opcodes kept per computation for [`Fusion::ops`]: real fused
/// computations have a handful; the cap keeps adversarial text linear.
const MAX_FUSED_OPS: usize = 64;

/// The byte offset of `part` (a slice of the same text as `l`) from the
/// start of `l`; past `l`'s end for a part on a later line.
fn offset_in(l: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(l.as_ptr() as usize)
}

/// What the reader noted of a computation's header when it read it.
#[derive(Clone, Copy, Default)]
struct Seen<'a> {
    /// Its line, as pasted.
    line: usize,
    /// The header line's text.
    header: &'a str,
    /// Where its name starts on it.
    name_at: usize,
    /// Its repaired line in the paste's line map (see `Sink::at`).
    at: Option<(&'a LineMap, usize)>,
}

/// Reads a [`Module`]'s parts as the lines reach them.
pub(crate) struct HloReader<'m, 'a> {
    m: &'m Module<'a>,
    /// The text the module was read from, and its lines as pasted.
    text: &'a str,
    map: &'a LineMap,
    /// The next instruction and computation, in text order.
    next_ins: usize,
    next_comp: usize,
    /// The last line of the instruction read last (an instruction may go on
    /// over several lines).
    ins_end: usize,
    /// A computation's header was read and its `}` not yet.
    open: bool,
    /// The lines are a source-location table's rows.
    section: bool,
    /// Per computation: its header as read, its distinct opcodes (as
    /// [`Sink::op`] ids, comparing ids, not names).
    seen: Vec<Seen<'a>>,
    ops: Vec<Vec<usize>>,
    /// Computations that `call` instructions run (`to_apply=`).
    called: Vec<&'a str>,
    /// The `ENTRY` computation's header was read.
    entry_seen: bool,
}

impl<'m, 'a> HloReader<'m, 'a> {
    pub(crate) fn new(m: &'m Module<'a>, text: &'a str, map: &'a LineMap) -> Self {
        let comps = m.computations.len();
        HloReader {
            m,
            text,
            map,
            next_ins: 0,
            next_comp: 0,
            ins_end: 0,
            open: false,
            section: false,
            seen: vec![Seen::default(); comps],
            ops: vec![Vec::new(); comps],
            called: Vec::new(),
            entry_seen: false,
        }
    }

    /// A reader of the lines from computation `comp`'s header on (the later
    /// part of a text cut there: [`super::halves`]).
    pub(crate) fn from_computation(
        m: &'m Module<'a>,
        text: &'a str,
        map: &'a LineMap,
        comp: usize,
    ) -> Self {
        let mut r = HloReader::new(m, text, map);
        r.next_comp = comp;
        r.next_ins = m.computations.get(comp).map_or(0, |c| c.first as usize);
        r
    }

    /// Whether this reader, having read the lines before computation
    /// `comp`'s header, is where a reader [`HloReader::from_computation`]
    /// starts: its next computation `comp`, its next instruction `comp`'s
    /// first. (Not so where a line before it was read as something else,
    /// like a computation named `HloModule.1` read as the module's header.)
    pub(crate) fn is_at(&self, comp: usize) -> bool {
        self.next_comp == comp
            && self
                .m
                .computations
                .get(comp)
                .is_some_and(|c| self.next_ins == c.first as usize && self.ins_end < c.line)
    }

    /// Takes in `later`, the reader of the lines after this one's
    /// ([`HloReader::from_computation`]), as if this one had read them;
    /// `ops`: how `later`'s sink's op ids became this one's
    /// ([`Sink::absorb`]).
    pub(crate) fn absorb(&mut self, later: HloReader<'m, 'a>, ops: &[usize]) {
        for ((s, o), (ls, lo)) in self
            .seen
            .iter_mut()
            .zip(self.ops.iter_mut())
            .zip(later.seen.into_iter().zip(later.ops))
        {
            if !ls.header.is_empty() {
                *s = ls;
            }
            if !lo.is_empty() {
                *o = lo
                    .iter()
                    .map(|&i| ops.get(i).copied().unwrap_or(i))
                    .collect();
            }
        }
        self.called.extend(later.called);
        self.entry_seen |= later.entry_seen;
        (self.next_ins, self.next_comp, self.ins_end) =
            (later.next_ins, later.next_comp, later.ins_end);
        (self.open, self.section) = (later.open, later.section);
    }

    /// Where line `i` of the module's text ends at the earliest, when the
    /// next instruction is read whole on it: the end of its text, from
    /// which [`scan::Lines`](super::scan::Lines) searches its `\n`.
    pub(crate) fn known_end(&self, i: usize) -> Option<usize> {
        let ins = self.m.instructions.get(self.next_ins)?;
        if ins.line != i || ins.end_line() != i {
            return None;
        }
        let rest = ins.rest;
        crate::program::offset_in(self.text, rest).map(|at| at + rest.len())
    }

    /// Line `i` of the module's text (`l`; `n` as pasted): `true` when it
    /// is the module's, after reading what starts on it.
    pub(crate) fn line(
        &mut self,
        i: usize,
        n: usize,
        l: &'a str,
        a: &mut Analysis,
        sink: &mut Sink<'a>,
    ) -> bool {
        if i <= self.ins_end {
            return true;
        }
        let m = self.m;
        if let Some(ins) = m.instructions.get(self.next_ins).filter(|x| x.line == i) {
            self.next_ins += 1;
            // Clean text is read as each line shows it: an instruction
            // whose shape or opcode is not on its first line (a cut paste
            // the module joined over lines) is no instruction of that
            // line. A repaired paste's lines are the repair's.
            if !self.map.is_empty()
                || (ins.shape_read && opcode_on_first_line(ins, l) && plain_start(ins, l))
            {
                self.ins_end = ins.end_line();
                self.instruction(n, l, ins, a, sink);
                return true;
            }
        }
        let t = super::scan::trim_start(l);
        if self.section {
            if t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                return true;
            }
            self.section = false;
        }
        if t.starts_with("HloModule") {
            self.module_header(n, l, a, sink);
            return true;
        }
        if t.trim_end() == "}" {
            return std::mem::take(&mut self.open);
        }
        if matches!(
            t.trim_end(),
            "FileNames" | "FunctionNames" | "FileLocations" | "StackFrames"
        ) {
            self.section = true;
            let at = l.len() - t.len();
            sink.add(M::StackFrames, n, l, at, t.trim_end().len(), || {
                "A source-location table that HLO instructions point into with `stack_frame_id`."
                    .to_owned()
            });
            return true;
        }
        if let Some(c) = m.computations.get(self.next_comp).filter(|c| c.line == i) {
            let id = self.next_comp;
            self.next_comp += 1;
            self.computation(id, n, l, c, a, sink);
            return true;
        }
        false
    }

    /// The schedule and header detector: the module's name, whether it is
    /// scheduled, tiles in its entry layout.
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
                "The module header has no `is_scheduled=true`: a hint that XLA has not compiled the module (the pinned JAX prints it on every compiled module), never proof: JAX up to 0.4.26 printed compiled modules without it.".to_owned()
            });
        }
        if let Some(p) = super::hlo::lhs_fingerprint(l) {
            sink.add(M::LhsFingerprint, n, l, p, "fingerprint_before_lhs".len(), || {
                "`fingerprint_before_lhs`: XLA:GPU's scheduler tags a module with its fingerprint while compiling it, before the latency-hiding scheduler runs.".to_owned()
            });
        }
        // Tiles in the header's `entry_computation_layout` name a TPU, but
        // the TPU client sets them before any pass runs: not compile proof.
        more_shape_clues(n, l, 0, l.len(), l.len(), M::EntryLayoutTiles, sink);
    }

    /// The structure and printer detectors on a computation's header.
    fn computation(
        &mut self,
        id: usize,
        n: usize,
        l: &'a str,
        c: &crate::program::Computation<'a>,
        a: &mut Analysis,
        sink: &mut Sink<'a>,
    ) {
        let name_at = offset_in(l, c.name);
        if c.is_entry {
            self.entry_seen = true;
            a.entry_computation = Some(c.name.to_owned());
            let at = l.find("ENTRY").unwrap_or(0);
            sink.add(M::EntryComputation, n, l, at, 5, || {
                format!(
                    "`ENTRY` marks `{}` as the computation that runs when the module is called.",
                    c.name
                )
            });
        }
        if let Some(params) = c.signature {
            sink.add(M::ComputationHeader, n, l, name_at, c.name.len(), || {
                format!(
                    "The header of HLO computation `{}`, with its parameters and result shape.",
                    c.name
                )
            });
            if has_param_name(params) {
                let p = l.find("param_").unwrap_or(0);
                sink.add(M::FusedParameter, n, l, p, 6, || {
                    "Parameters named `param_N`: the names XLA's fusion pass gives the inputs of a fused computation.".to_owned()
                });
            }
        } else {
            sink.add(M::UnsignedComputation, n, l, name_at, c.name.len(), || {
                format!(
                    "`{}` is printed without its signature, as `lower(...).as_text(dialect=\"hlo\")` prints HLO before compilation.",
                    c.name
                )
            });
        }
        self.open = true;
        if let Some(s) = self.seen.get_mut(id) {
            *s = Seen {
                line: n,
                header: l,
                name_at,
                at: sink.at,
            };
        }
    }

    /// Reads instruction `ins` (first line `l`, `n` as pasted): its
    /// computation's opcodes, then each concern's clues in turn.
    fn instruction(
        &mut self,
        n: usize,
        l: &'a str,
        ins: &Instruction<'a>,
        a: &mut Analysis,
        sink: &mut Sink<'a>,
    ) {
        let comp = ins.computation.and_then(|c| self.m.computation(c));
        let in_entry = comp.is_some_and(|c| c.is_entry);
        let op_id = sink.op(ins.opcode);
        if let Some(ops) = ins.computation.and_then(|c| self.ops.get_mut(c as usize)) {
            if ins.opcode != "parameter" && ops.len() < MAX_FUSED_OPS && !ops.contains(&op_id) {
                ops.push(op_id);
            }
        }
        // In clean text, only what starts on the first line (see `line`).
        let clip = self.map.is_empty();
        let view = view_of(ins, l, clip);
        let over = (!clip && ins.end_line() > ins.line).then(|| {
            let start = offset_in(self.text, l);
            let end = lines_end(self.text, start, ins.end_line() - ins.line);
            (ins.line, self.text.get(start..end).unwrap_or(l), self.map)
        });
        let at = Here {
            n,
            l,
            ins: &view,
            in_entry,
            over,
            config: ins.backend_config(),
        };
        at.structure(sink);
        // Plain operands hold no `(`, and the opcode's never follows a `T`
        // or `S`: a clue can only be in the shape.
        let stop = if ins.ops_plain {
            view.shape_at + ins.shape_text.len()
        } else {
            view.attrs_at
        };
        more_shape_clues(
            n,
            l,
            view.shape_at,
            view.attrs_at,
            stop,
            M::TpuTiledLayout,
            sink,
        );
        at.opcode_clues(a, sink);
        let attrs = Attrs::read(self.m, ins, l, clip);
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

    /// What needs the whole module: fusion ops and fused computation
    /// headers, stack frames, the kernels, the computation list. `map`
    /// numbers the module's lines as pasted.
    pub(crate) fn finish(self, a: &mut Analysis, sink: &mut Sink<'a>) {
        let (m, map) = (self.m, self.map);
        let pasted = |line: usize| {
            if map.is_empty() {
                line
            } else {
                map.get(line).0
            }
        };
        sink.entry_seen = self.entry_seen;
        // Computations by name (the first of a name), once: a lookup per
        // fusion stays linear with many computations.
        let mut by_name: HashMap<&str, CompId, Sip> = HashMap::default();
        for (c, id) in m.computations.iter().zip(0..) {
            by_name.entry(c.name).or_insert(id);
        }
        for f in &mut a.fusions {
            let Some(&id) = by_name.get(f.computation.as_str()) else {
                continue;
            };
            let (Some(c), Some(seen)) = (m.computation(id), self.seen.get(id as usize)) else {
                continue;
            };
            if seen.header.is_empty() {
                continue;
            }
            f.ops = self
                .ops
                .get(id as usize)
                .into_iter()
                .flatten()
                .map(|&op| sink.op_name(op).to_owned())
                .collect();
            let name = f.name.as_str();
            sink.at = seen.at;
            sink.add(M::FusedComputation, seen.line, seen.header, seen.name_at, c.name.len(), || {
                format!("`{}` is a fused computation: the ops that fusion `{name}` runs as one kernel.", c.name)
            });
        }
        sink.at = None;
        // Resolve `stack_frame_id`s through the source tables, once per
        // distinct source op.
        for key in &mut sink.ops {
            if let (None, Some(fid)) = (key.1, key.3) {
                if let Some((file, line)) = m.sources.location(fid) {
                    key.1 = Some(file);
                    key.2 = Some(line);
                }
            }
        }
        a.kernels = kernels(m, a, &self.called, &pasted);
        a.computations = m
            .computations
            .iter()
            .zip(&self.seen)
            .filter(|(_, s)| !s.header.is_empty())
            .map(|(c, s)| Computation {
                name: c.name.to_owned(),
                line: s.line,
                is_entry: c.is_entry,
                instructions: (c.end - c.first) as usize,
            })
            .collect();
    }
}

/// The kernels of the computations that launch work: the entry, loop
/// conditions and bodies, branches, called computations. Their non-free
/// instructions, in text order.
fn kernels(
    m: &Module<'_>,
    a: &Analysis,
    called: &[&str],
    pasted: &dyn Fn(usize) -> usize,
) -> Vec<Kernel> {
    let mut launching: Vec<&str> = Vec::new();
    for w in &a.while_loops {
        launching.extend(w.condition.as_deref());
        launching.extend(w.body.as_deref());
    }
    for c in &a.conditionals {
        launching.extend(c.branches.iter().map(String::as_str));
    }
    launching.extend(called.iter().copied());
    let launching: HashSet<&str, Sip> = launching.into_iter().collect();
    let mut out = Vec::new();
    for (c, id) in m.computations.iter().zip(0..) {
        if !(c.is_entry || launching.contains(c.name)) {
            continue;
        }
        let id: CompId = id;
        for ins in m.instructions_of(id) {
            if !crate::program::is_free_opcode(ins.opcode) {
                out.push(Kernel {
                    name: ins.name.to_owned(),
                    opcode: ins.opcode.to_owned(),
                    kind: crate::program::kinds::kind(ins),
                    line: pasted(ins.line),
                    computation: c.name.to_owned(),
                    in_entry: c.is_entry,
                });
            }
        }
    }
    out
}

/// The instruction as the detectors read it: its parts and where they
/// start on its first line `l`.
/// The end of the line `more` lines after the one starting at `start` in
/// `text` (before its `\n`): where an instruction over several lines ends.
fn lines_end(text: &str, start: usize, more: usize) -> usize {
    let b = text.as_bytes();
    let mut at = start;
    for _ in 0..=more {
        match super::scan::find_byte(b, at, b'\n') {
            Some(e) => at = e + 1,
            None => return b.len(),
        }
    }
    at - 1
}

/// Whether only spaces, tabs (and `ROOT `, `%`) come before `ins`'s name
/// on its first line `l`, as the line reader skips them (not a vertical
/// tab, which the module's trim drops).
fn plain_start(ins: &Instruction<'_>, l: &str) -> bool {
    let p = l.get(..offset_in(l, ins.name)).unwrap_or("");
    let p = p.strip_suffix('%').unwrap_or(p);
    let p = p.trim_end_matches([' ', '\t', '\r']);
    let p = p.strip_suffix("ROOT").unwrap_or(p);
    p.bytes().all(|c| matches!(c, b' ' | b'\t' | b'\r'))
}

/// Whether `ins`'s opcode and the parenthesis after it are on its first
/// line `l`.
fn opcode_on_first_line(ins: &Instruction<'_>, l: &str) -> bool {
    let at = offset_in(l, ins.opcode);
    at <= l.len() && at + ins.opcode.len() < l.len()
}

/// The part of `part` (a slice of the module's text starting on line `l`)
/// that lies on `l`, with `clip` (else all of it): what the line shows of
/// an instruction that goes on.
fn on_line<'a>(l: &'a str, part: &'a str, clip: bool) -> &'a str {
    if !clip {
        return part;
    }
    let at = offset_in(l, part);
    part.get(..l.len().saturating_sub(at).min(part.len()))
        .unwrap_or(part)
}

fn view_of<'a>(ins: &Instruction<'a>, l: &'a str, clip: bool) -> Instr<'a> {
    let name_at = offset_in(l, ins.name);
    let percent = name_at
        .checked_sub(1)
        .and_then(|p| l.as_bytes().get(p))
        .is_some_and(|&c| c == b'%');
    let operands_at = offset_in(l, ins.operands_text());
    Instr {
        name: ins.name,
        name_at,
        percent,
        shape: on_line(l, ins.shape_text, clip),
        shape_at: offset_in(l, ins.shape_text),
        opcode: ins.opcode,
        opcode_at: offset_in(l, ins.opcode),
        operands: on_line(l, ins.operands_text(), clip),
        attrs: "",
        attrs_at: (operands_at + ins.operands_text().len() + 1).min(l.len()),
    }
}

/// The tiled-layout and memory-space clues of `l[from..to]`, whose `(`s
/// are all before `stop`; a tile is reported as `tile`
/// (`tpu-tiled-layout` on instructions, `entry-layout-tiles` in the module
/// header).
fn more_shape_clues(
    n: usize,
    l: &str,
    from: usize,
    to: usize,
    stop: usize,
    tile: M,
    sink: &mut Sink<'_>,
) {
    if l.get(from..to).is_none() {
        return;
    }
    let mut c = Clues::default();
    // One pass for both `T(` and `S(` after `:` or `)`, as in
    // `{1,0:T(8,128)S(1)}`; only the first of each counts.
    let b = l.as_bytes();
    let part = b.get(..stop.min(to)).unwrap_or(b);
    let mut i = from;
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
    /// The attributes of the module's instruction `ins`, whose first line
    /// is `l` (offsets are from its start), in module `m`; `clip` keeps
    /// only the attributes that start on `l`.
    fn read(m: &Module<'a>, ins: &Instruction<'a>, l: &'a str, clip: bool) -> Self {
        // With `clip`, only what starts on the line: a cut paste's
        // attributes on the lines the module joined to it are not this
        // line's clues.
        let on = |v: &str| !clip || offset_in(l, v) < l.len();
        let mut t = Attrs::default();
        for call in m.calls(ins).iter().filter(|c| on(c.name)) {
            match call.role {
                CallRole::Calls if t.calls.is_none() => t.calls = Some(call.name),
                CallRole::Condition => t.condition = Some(call.name),
                CallRole::Body => t.body = Some(call.name),
                CallRole::Branch | CallRole::TrueBranch | CallRole::FalseBranch => {
                    t.branches.push(call.name.to_owned());
                }
                CallRole::ToApply if ins.opcode == "call" => t.to_apply = Some(call.name),
                _ => {}
            }
        }
        t.fusion_kind = ins
            .fusion_kind()
            .filter(|k| on(k))
            .map(|k| (k, offset_in(l, k)));
        t.backend = ins
            .backend_config()
            .filter(|v| on(v))
            .map(|v| offset_in(l, v));
        // The last `metadata={...}`, as the module's metadata is.
        let Some(v) = ins.metadata_text().filter(|v| on(v)) else {
            return t;
        };
        t.metadata = Some(offset_in(l, v));
        let md = m.metadata(ins);
        // The field's key, before its value (and the value's quote).
        t.sched = md.scheduling_name.map(|s| {
            let at = offset_in(v, s);
            let quoted = at > 0 && v.as_bytes().get(at - 1) == Some(&b'"');
            at.saturating_sub("scheduling_name=".len() + usize::from(quoted))
        });
        (t.op, t.file, t.line, t.frame) = (
            md.op_name,
            md.source_file,
            md.source_line,
            md.stack_frame_id,
        );
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
    /// An instruction over several lines: its repaired line number, its
    /// whole text from the start of `l`, and the line map; `None` on one
    /// line.
    over: Option<(usize, &'a str, &'a LineMap)>,
    /// Its `backend_config` value.
    config: Option<&'a str>,
}

impl<'a> Here<'_, 'a> {
    /// Records a clue at byte `at` from the start of the first line: on
    /// the line it falls on, for an instruction over several lines.
    fn add(&self, sink: &mut Sink<'a>, m: M, at: usize, len: usize, note: impl FnOnce() -> String) {
        let Some((i, text, map)) = self.over.filter(|_| at > self.l.len()) else {
            // Clean text read line by line: a clue past the line's end (in
            // a value cut there) is not on it.
            if at < self.l.len() {
                sink.add(m, self.n, self.l, at, len, note);
            }
            return;
        };
        let mut last = (0, self.l);
        for (k, line) in super::scan::lines(text).enumerate() {
            if offset_in(self.l, line) > at {
                break;
            }
            last = (k, line);
        }
        let (k, line) = last;
        let (n, place) = if map.is_empty() {
            (i + k, None)
        } else {
            (map.get(i + k).0, Some((map, i + k)))
        };
        let saved = std::mem::replace(&mut sink.at, place);
        sink.add(m, n, line, at - offset_in(self.l, line), len, note);
        sink.at = saved;
    }

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
        if has_layout(ins.shape) && sink.hit(M::Layout, n) {
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
                    if op.starts_with("copy-") {
                        format!("`{op}` is half of an asynchronous copy that XLA creates while compiling: on a TPU, for example, a prefetch of memory-space assignment into on-chip memory (`S(1)` in its layout).")
                    } else {
                        format!("`{op}` is half of an asynchronous start/done pair that XLA creates while compiling, where its passes make a collective or another op asynchronous.")
                    }
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
            self.add(sink, M::FusionKind, kat.saturating_sub(5), kind.len() + 5, || {
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
                if callback_target(l, Backend::Gpu).is_some() {
                    format!("`{t}` runs a JAX host callback (`jax.pure_callback`, `io_callback`, ...): JAX lowers a callback to it only for a GPU.")
                } else {
                    format!("`{t}` is a GPU library routine (cuBLAS, cuDNN, Triton, ...).")
                }
            });
        }
        if cpu_custom_call_target(l).is_some() {
            sink.add(M::CpuCustomCall, n, l, at, len, || {
                if callback_target(l, Backend::Cpu).is_some() {
                    format!("`{t}` runs a JAX host callback (`jax.pure_callback`, `io_callback`, ...): JAX lowers a callback to it only for a CPU.")
                } else {
                    format!("`{t}` is a CPU library routine (oneDNN, LAPACK, ...).")
                }
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
        let p = at.saturating_sub("backend_config=".len());
        self.add(sink, M::BackendConfig, p, "backend_config".len(), || {
            "`backend_config`: settings the compiler backend attached to this instruction."
                .to_owned()
        });
        // The rest of the line; the whole value when it goes on over lines.
        let r = match self.over {
            Some(_) => self.config,
            None => self.l.get(at..),
        };
        let Some(r) = r else {
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
                self.add(sink, m, at + kp, k.len() + 2, || {
                    format!("The backend config entry \"{k}\" is one only {what} writes.")
                });
            }
        }
    }

    /// `metadata` (value at `mat`): a scheduling name in it, and the source
    /// op the instruction came from.
    fn metadata(&self, mat: usize, t: &Attrs<'a>, a: &mut Analysis, sink: &mut Sink<'a>) {
        let n = self.n;
        self.add(
            sink,
            M::Metadata,
            mat.saturating_sub("metadata=".len()),
            "metadata".len(),
            || "`metadata`: the JAX op (and source line) this instruction came from.".to_owned(),
        );
        if let Some(p) = t.sched {
            self.add(sink, M::SchedulingName, mat + p, "scheduling_name".len(), || {
                "`scheduling_name` in the metadata: XLA:GPU's scheduling passes name instructions while compiling.".to_owned()
            });
        }
        if let Some(op) =
            t.op.filter(|op| super::hlo::rewritten_op(self.ins.opcode, op))
        {
            let (at, len) = (self.ins.opcode_at, self.ins.opcode.len());
            self.add(sink, M::RewrittenOp, at, len, || {
                format!(
                    "`{}` named `{op}`: JAX lowers that primitive to another operation, so XLA's algebraic simplifier rewrote it, which happens only when it optimizes the module.",
                    self.ins.opcode
                )
            });
        }
        if let Some(op) = t.op {
            let source_op = sink.source_op((op, t.file, t.line, t.frame));
            a.provenance.push(n, self.ins.name, source_op);
        }
    }
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
