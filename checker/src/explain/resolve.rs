//! The log's names, tied to the compiled dump's kernels.
//!
//! A fusion-decision log names instructions as they were when the pass
//! decided: `divide` before it became `broadcast_divide_fusion`, `multiply`
//! before `created new fusion: %broadcast_multiply_fusion`. A name is
//! followed to the kernel it ended in:
//! 1. a consumer that became a new fusion goes on as that fusion;
//! 2. a name the compiled module still has outside fused computations is
//!    that instruction (a producer fused into several users stays itself);
//! 3. a producer fused into a consumer (and gone) goes on as the consumer;
//! 4. a name XLA:CPU's fusion wrapper renamed after the pass (`%log.0`
//!    alone, wrapped as `%wrapped_log`) is the one live `wrapped_<opcode>`
//!    fusion with the same opcode at its root, the same operands and the
//!    same dimensions;
//! 5. anything else is unresolved: the name was changed by another later
//!    pass, or the log is of another compile.
//!
//! Each step moves to a later event of the log, so the walk ends.

use super::log::{Log, Verdict};
use crate::program::{CallRole, InstrId, Module};
use std::collections::HashMap;

/// Names of a log followed to the module's instructions.
pub struct Resolver<'m, 'a, 'l> {
    /// Instructions outside fused computations, by name.
    live: HashMap<&'a str, InstrId>,
    /// Consumer -> (event index, the fusion it became).
    became: HashMap<&'l str, Vec<(usize, &'l str)>>,
    /// Producer -> (event index, the consumer it was fused into).
    fused_into: HashMap<&'l str, Vec<(usize, &'l str)>>,
    /// A log name -> the `wrapped_` fusion it became after the pass.
    wrapped: HashMap<&'l str, InstrId>,
    m: &'m Module<'a>,
}

/// Computations called as a fusion's body or a reducer: their instructions
/// are not kernels of their own.
fn inside_kernel(m: &Module<'_>) -> Vec<bool> {
    let mut inside = vec![false; m.computations.len()];
    for ins in &m.instructions {
        for call in m.calls(ins) {
            let fused = matches!(call.role, CallRole::ToApply)
                || (call.role == CallRole::Calls && ins.opcode == "fusion");
            if fused && let Some(id) = call.id {
                if let Some(slot) = inside.get_mut(id as usize) {
                    *slot = true;
                }
            }
        }
    }
    inside
}

impl<'m, 'a, 'l> Resolver<'m, 'a, 'l> {
    /// The resolver of a log (names borrowed from it) on a module.
    pub fn new(m: &'m Module<'a>, log: &Log<'l>) -> Resolver<'m, 'a, 'l> {
        let inside = inside_kernel(m);
        let mut live = HashMap::new();
        for ins in &m.instructions {
            let outside = ins
                .computation
                .is_some_and(|c| !inside.get(c as usize).copied().unwrap_or(true));
            if outside {
                live.entry(ins.name).or_insert(ins.id);
            }
        }
        let mut became: HashMap<&'l str, Vec<(usize, &'l str)>> = HashMap::new();
        let mut fused_into: HashMap<&'l str, Vec<(usize, &'l str)>> = HashMap::new();
        // Events are numbered by their log line, so "later" is a line after.
        for c in &log.created {
            became.entry(c.from).or_default().push((c.line, c.fusion));
        }
        for d in &log.decisions {
            if d.verdict == Verdict::Fused {
                fused_into
                    .entry(d.producer)
                    .or_default()
                    .push((d.line, d.consumer));
            }
        }
        let wrapped = wrapped_names(m, log, &live);
        Resolver {
            live,
            became,
            fused_into,
            wrapped,
            m,
        }
    }

    /// The module's instruction that `name`, as the log named it at line
    /// `line`, ended in; `None` when it cannot be followed.
    pub fn resolve(&self, name: &'l str, line: usize) -> Option<InstrId> {
        let mut name = name;
        let mut at = line;
        // Each step moves to a strictly later line: bounded by the log.
        for _ in 0..=self.became.len() + self.fused_into.len() + 1 {
            if let Some(&(l, f)) = later(self.became.get(name), at) {
                name = f;
                at = l;
                continue;
            }
            if let Some(&id) = self.live.get(name) {
                return Some(id);
            }
            let Some(&(l, c)) = later(self.fused_into.get(name), at) else {
                return self.wrapped.get(name).copied();
            };
            name = c;
            at = l;
        }
        None
    }

    /// The instruction of a name outside fused computations, if any.
    pub fn live(&self, name: &str) -> Option<&'m crate::program::Instruction<'a>> {
        self.live.get(name).and_then(|&id| self.m.instruction(id))
    }

    /// The module.
    pub fn module(&self) -> &'m Module<'a> {
        self.m
    }
}

/// A shape as printed, without its layouts (`f32[512]{0}` -> `f32[512]`,
/// tuples element by element).
fn dims(shape: &str) -> String {
    crate::program::Shape::parse(shape).without_layout()
}

/// Log names the module no longer has, each tied to the one live
/// `wrapped_<opcode>` fusion whose root has its opcode and dimensions and
/// whose operands have its operands' names (none where two could be it).
fn wrapped_names<'a, 'l>(
    m: &Module<'a>,
    log: &Log<'l>,
    live: &HashMap<&'a str, InstrId>,
) -> HashMap<&'l str, InstrId> {
    let mut out: HashMap<&'l str, InstrId> = HashMap::new();
    let mut ambiguous: Vec<&'l str> = Vec::new();
    let shapes: HashMap<&'l str, &'l str> = log.shapes.iter().map(|&(_, n, s)| (n, s)).collect();
    for &id in live.values() {
        let Some(w) = m.instruction(id) else { continue };
        let Some(rest) = w.name.strip_prefix("wrapped_") else {
            continue;
        };
        if w.opcode != "fusion" {
            continue;
        }
        let Some(root) = super::rules::decided(m, w).filter(|r| r.id != w.id) else {
            continue;
        };
        let base = rest.split('.').next().unwrap_or(rest);
        if base != root.opcode {
            continue;
        }
        let operands: Vec<&str> = m.operands(w).iter().map(|o| o.name).collect();
        for (&name, (opcode, ops)) in &log.ops {
            let same = *opcode == root.opcode
                && !live.contains_key(name)
                && *ops == operands
                && shapes
                    .get(name)
                    .is_some_and(|s| dims(s) == dims(w.shape_text));
            if !same {
                continue;
            }
            if out.insert(name, id).is_some() {
                ambiguous.push(name);
            }
        }
    }
    for name in ambiguous {
        out.remove(name);
    }
    out
}

/// The first event at or after `at`.
fn later<'e, 'l>(
    events: Option<&'e Vec<(usize, &'l str)>>,
    at: usize,
) -> Option<&'e (usize, &'l str)> {
    events?.iter().find(|(l, _)| *l >= at)
}
