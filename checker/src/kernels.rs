//! The kernel model: what a compiled module runs, as a tree read from the
//! [`program`](crate::program) module.
//!
//! [`KernelTree::build`] lists the entry computation's instructions that get
//! a row (kernels, and control flow for what it runs) in run order (the
//! order of the scheduled text); under each `while` its condition and body
//! kernels (with the trip count when `backend_config` states it), under
//! each `conditional` its branches, under each `call` (and async start) its
//! callee. For each kernel: what runs (name, opcode, line, its
//! [`KernelKind`] and detail), what it calls, operand and result shapes,
//! bytes read and written, the distinct opcodes it runs, and its
//! provenance: the `metadata` of its own instruction and of every
//! instruction in the computations it calls, transitively.
//!
//! The vocabulary of kinds is one table, [`KINDS`] (kept in
//! [`program::kinds`](crate::program::kinds), below the analysis, which
//! reads it too), one row per [`KernelKind`]: the name, the name the source
//! map prints (`map --json`'s `kernels[].kind`, unchanged since before the
//! table), what `analyze` counts it as, and a description.
//!
//! Linear: the walk through called computations stops at a budget linear
//! in the module's size ([`KernelTree::truncated`]); nesting of regions is
//! followed at most [`MAX_NESTING`] levels, never around a cycle.

pub use crate::program::kinds::{
    COLLECTIVES, KINDS, KernelKind, KindRow, OPCODE_KINDS, PALLAS_TARGETS, has_row, kind, kind_of,
};
use crate::program::{CallRole, CompId, InstrId, Instruction, Metadata, Module, Shape};
use std::collections::HashMap;

/// Regions nest at most this deep in the tree; deeper ones are left out.
pub const MAX_NESTING: usize = 16;

/// Distinct opcodes kept per computation and per kernel.
const MAX_OPS: usize = 64;

/// Work allowed per instruction of the module for walking what kernels
/// call (see [`KernelTree::truncated`]).
const WORK_PER_LINE: usize = 64;

/// A distinct provenance: the op path and the metadata's location fields.
pub type ProvKey<'a> = (&'a str, Option<&'a str>, Option<u32>, Option<u32>);

/// How a region is entered from its kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionRole {
    /// A `while`'s condition.
    Condition,
    /// A `while`'s body.
    Body,
    /// A `conditional`'s branch (its index in print order).
    Branch(usize),
    /// What a `call` or async start runs.
    Callee,
}

/// A computation run by a control-flow kernel, with its kernels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// How it is entered.
    pub role: RegionRole,
    /// The computation.
    pub computation: CompId,
    /// Its kernels, in run order.
    pub kernels: Vec<Kernel>,
}

/// One kernel row (a kernel, or control flow for what it runs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// The instruction.
    pub instruction: InstrId,
    /// What it is.
    pub kind: KernelKind,
    /// The fusion kind (`kLoop`, `kCustom __triton`), custom-call target or
    /// collective opcode, when there is one.
    pub detail: Option<String>,
    /// Whether it launches work itself (`false` for control flow).
    pub launches: bool,
    /// Distinct opcodes run inside (of the computations it calls, or its
    /// own opcode), `parameter` left out.
    pub ops: Vec<String>,
    /// Result shape, without layout.
    pub shape: String,
    /// Operand shapes, without layout (`?` when an operand is not found).
    pub operand_shapes: Vec<String>,
    /// Bytes of all operands (`None` for control flow or an unknown shape).
    pub bytes_read: Option<u64>,
    /// Bytes of the result (a `copy-start`'s copy only).
    pub bytes_written: Option<u64>,
    /// Distinct provenances, indices into [`KernelTree::provenance`].
    pub provenance: Vec<usize>,
    /// A `while`'s trip count, when its `backend_config` states it.
    pub trip_count: Option<u64>,
    /// What it runs, for control flow (and async starts).
    pub regions: Vec<Region>,
}

/// The kernel tree of a module; see the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelTree<'a> {
    /// The entry computation's kernel rows, in run order.
    pub kernels: Vec<Kernel>,
    /// Distinct provenances, as printed.
    pub provenance: Vec<ProvKey<'a>>,
    /// Whether the walk through called computations stopped at its budget
    /// while reading the entry's kernels (only a hostile text).
    pub truncated: bool,
}

/// The `"known_trip_count":{"n":"10"}` of a backend config.
pub fn trip_count(config: &str) -> Option<u64> {
    let at = config.find("\"known_trip_count\"")?;
    let rest = config.get(at..)?;
    let n = rest.find("\"n\"")?;
    let v = rest
        .get(n + 3..)?
        .trim_start()
        .strip_prefix(':')?
        .trim_start();
    let v = v.strip_prefix('"').unwrap_or(v);
    let d = v.bytes().take_while(u8::is_ascii_digit).count();
    v.get(..d)?.parse().ok()
}

/// Per computation: its distinct provenances, opcodes and callees (the
/// entry's own callees left out: its kernels keep theirs).
#[derive(Default)]
struct CompFacts<'a> {
    keys: Vec<usize>,
    ops: Vec<&'a str>,
    callees: Vec<Option<CompId>>,
}

/// The state of one build.
struct Builder<'m, 'a> {
    m: &'m Module<'a>,
    keys: Vec<ProvKey<'a>>,
    key_index: HashMap<ProvKey<'a>, usize>,
    facts: Vec<CompFacts<'a>>,
    stamp: Vec<usize>,
    epoch: usize,
    work: usize,
    budget: usize,
    truncated: bool,
    /// Rows the tree may still get (regions shared by many callers would
    /// otherwise multiply).
    rows_left: usize,
}

impl<'a> KernelTree<'a> {
    /// Builds the tree of a module (empty without an entry computation).
    pub fn build(m: &Module<'a>) -> KernelTree<'a> {
        let size = m.instructions.len() + m.computations.len();
        let mut b = Builder {
            m,
            keys: Vec::new(),
            key_index: HashMap::new(),
            facts: Vec::with_capacity(m.computations.len()),
            stamp: vec![0; m.computations.len()],
            epoch: 0,
            work: 0,
            budget: WORK_PER_LINE.saturating_mul(size).saturating_add(1 << 16),
            truncated: false,
            rows_left: size.saturating_mul(4).saturating_add(1024),
        };
        b.facts();
        let Some(entry) = m.entry else {
            return KernelTree {
                provenance: b.keys,
                ..KernelTree::default()
            };
        };
        let mut kernels = b.rows(entry);
        let truncated = b.truncated;
        let mut path = vec![entry];
        for k in &mut kernels {
            b.regions(k, &mut path);
        }
        KernelTree {
            kernels,
            provenance: b.keys,
            truncated,
        }
    }

    /// The source line (file, line) of a provenance.
    pub fn location(&self, m: &Module<'a>, key: usize) -> Option<(&'a str, u32)> {
        let &(_, file, line, frame) = self.provenance.get(key)?;
        m.location(&Metadata {
            source_file: file,
            source_line: line,
            stack_frame_id: frame,
            ..Metadata::default()
        })
    }

    /// A row's source lines (file, line), sorted, each once: its
    /// provenance resolved through the module's tables.
    pub fn source_lines(&self, m: &Module<'a>, k: &Kernel) -> Vec<(&'a str, u32)> {
        let mut out: Vec<(&'a str, u32)> = k
            .provenance
            .iter()
            .filter_map(|&p| self.location(m, p))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Every row of the tree, depth first in run order, with its depth.
    pub fn walk(&self) -> Vec<(usize, &Kernel)> {
        let mut out = Vec::new();
        let mut stack: Vec<(usize, &Kernel)> = self.kernels.iter().rev().map(|k| (0, k)).collect();
        while let Some((d, k)) = stack.pop() {
            out.push((d, k));
            for r in k.regions.iter().rev() {
                stack.extend(r.kernels.iter().rev().map(|k| (d + 1, k)));
            }
        }
        out
    }
}

impl<'a> Builder<'_, 'a> {
    fn key(&mut self, md: &Metadata<'a>) -> Option<usize> {
        let raw = (
            md.op_name?,
            md.source_file,
            md.source_line,
            md.stack_frame_id,
        );
        let next = self.keys.len();
        let k = *self.key_index.entry(raw).or_insert(next);
        if k == next {
            self.keys.push(raw);
        }
        Some(k)
    }

    /// Each computation's provenances, opcodes and callees, once.
    fn facts(&mut self) {
        let m = self.m;
        for ci in 0..m.computations.len() {
            let id = CompId::try_from(ci).unwrap_or(CompId::MAX);
            let mut f = CompFacts::default();
            for ins in m.instructions_of(id) {
                if let Some(k) = self.key(&ins.metadata()) {
                    f.keys.push(k);
                }
                if ins.opcode != "parameter"
                    && f.ops.len() < MAX_OPS
                    && !f.ops.contains(&ins.opcode)
                {
                    f.ops.push(ins.opcode);
                }
                if m.entry != Some(id) {
                    for call in m.calls(ins).iter().take(MAX_OPS) {
                        if f.callees.len() < 4 * MAX_OPS {
                            f.callees.push(call.id);
                        }
                    }
                }
            }
            f.keys.sort_unstable();
            f.keys.dedup();
            self.facts.push(f);
        }
        // Instructions outside any computation still have provenances.
        for ins in m.instructions.iter().filter(|i| i.computation.is_none()) {
            self.key(&ins.metadata());
        }
    }

    /// The rows of one computation, in run order.
    fn rows(&mut self, comp: CompId) -> Vec<Kernel> {
        let m = self.m;
        let Some(c) = m.computation(comp) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for id in c.instruction_ids() {
            let Some(ins) = m.instruction(id) else {
                continue;
            };
            if has_row(ins.opcode) && self.rows_left > 0 {
                self.rows_left -= 1;
                out.push(self.kernel(id, ins));
            }
        }
        out
    }

    /// What a kernel's called computations hold, transitively: its
    /// provenances and opcodes.
    fn walk(&mut self, ins: &Instruction<'a>) -> (Vec<usize>, Vec<&'a str>) {
        self.epoch += 1;
        let mut keys: Vec<usize> = self.key(&ins.metadata()).into_iter().collect();
        let mut ops: Vec<&'a str> = Vec::new();
        let calls = self.m.calls(ins);
        let mut stack: Vec<CompId> = calls.iter().take(MAX_OPS).filter_map(|c| c.id).collect();
        while let Some(ci) = stack.pop() {
            let Some(s) = self.stamp.get_mut(ci as usize) else {
                continue;
            };
            if *s == self.epoch {
                continue;
            }
            *s = self.epoch;
            let Some(f) = self.facts.get(ci as usize) else {
                continue;
            };
            self.work = self.work.saturating_add(1 + f.keys.len() + f.callees.len());
            if self.work > self.budget {
                self.truncated = true;
                break;
            }
            keys.extend_from_slice(&f.keys);
            for op in &f.ops {
                if ops.len() < MAX_OPS && !ops.contains(op) {
                    ops.push(op);
                }
            }
            stack.extend(f.callees.iter().flatten());
        }
        if calls.is_empty() {
            ops.push(ins.opcode);
        }
        keys.sort_unstable();
        keys.dedup();
        (keys, ops)
    }

    /// One kernel row, without its regions.
    fn kernel(&mut self, id: InstrId, ins: &Instruction<'a>) -> Kernel {
        let m = self.m;
        let (provenance, ops) = self.walk(ins);
        let operands = m.operands(ins);
        let mut operand_shapes = Vec::with_capacity(operands.len());
        let mut bytes_read = Some(0u64);
        for op in operands {
            let shape = match (op.shape, op.id.and_then(|i| m.instruction(i))) {
                (Some(s), _) => Some(Shape::parse(s)),
                (None, Some(i)) => Some(i.shape()),
                (None, None) => None,
            };
            operand_shapes.push(
                shape
                    .as_ref()
                    .map_or_else(|| "?".to_owned(), Shape::without_layout),
            );
            bytes_read = bytes_read.and_then(|b| b.checked_add(shape.as_ref()?.bytes()?));
        }
        let launches = !crate::program::is_free_opcode(ins.opcode);
        let shape = ins.shape();
        let written = match ins.opcode {
            // (destination, aliased source, context): only the copy is written.
            "copy-start" => shape.first_part(),
            _ => &shape,
        };
        let (kind, detail) = kind_of(ins);
        Kernel {
            instruction: id,
            kind,
            detail,
            launches,
            ops: ops.iter().map(|s| (*s).to_owned()).collect(),
            shape: shape.without_layout(),
            operand_shapes,
            bytes_read: bytes_read.filter(|_| launches),
            bytes_written: written.bytes().filter(|_| launches),
            provenance,
            trip_count: (ins.opcode == "while")
                .then(|| ins.backend_config().and_then(trip_count))
                .flatten(),
            regions: Vec::new(),
        }
    }

    /// The regions a control-flow row runs, recursively (at most
    /// [`MAX_NESTING`] deep, never around a cycle).
    fn regions(&mut self, k: &mut Kernel, path: &mut Vec<CompId>) {
        if path.len() >= MAX_NESTING {
            return;
        }
        let m = self.m;
        let Some(ins) = m.instruction(k.instruction) else {
            return;
        };
        let runs_callee = matches!(k.kind, KernelKind::Call | KernelKind::Async);
        let mut branch = 0usize;
        for call in m.calls(ins) {
            let role = match call.role {
                CallRole::Condition => RegionRole::Condition,
                CallRole::Body => RegionRole::Body,
                CallRole::Branch | CallRole::TrueBranch | CallRole::FalseBranch => {
                    branch += 1;
                    RegionRole::Branch(branch - 1)
                }
                CallRole::Calls | CallRole::ToApply | CallRole::Called if runs_callee => {
                    RegionRole::Callee
                }
                _ => continue,
            };
            let Some(c) = call.id.filter(|c| !path.contains(c)) else {
                continue;
            };
            path.push(c);
            let mut kernels = self.rows(c);
            for sub in &mut kernels {
                self.regions(sub, path);
            }
            path.pop();
            k.regions.push(Region {
                role,
                computation: c,
                kernels,
            });
        }
    }
}
