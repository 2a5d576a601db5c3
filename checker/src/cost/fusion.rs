//! XLA's cost of a `fusion` (`HloCostAnalysis::HandleFusion`): the flops
//! and transcendentals of its fused computation; as bytes, only what the
//! kernel moves to and from memory:
//! - each parameter's reads (`FusionParameterReadBytes`): a parameter read
//!   through a `slice` or as the array of a `dynamic-slice` reads only the
//!   slice; a `broadcast` or `reshape` user reads it whole each time; the
//!   operand a `dynamic-update-slice` updates in place is not read; any
//!   other users share one read;
//! - the output: each array, except that a `dynamic-update-slice` root (or
//!   tuple element) writes only its update;
//! - every fused constant of more than one element.
//!
//! A `kCustom` fusion holding a `gather` or `scatter` is costed as that op.

use super::costs::Costs;
use super::figures::{Figure, Figures};
use super::size;
use crate::program::{CompId, InstrId, Instruction, Shape};

/// Fused constants of at most this many elements are immediates
/// (`immediate_constant_max_elements`), read with the code.
const IMMEDIATE_CONSTANT_MAX_ELEMENTS: u64 = 1;

/// Tuple-shaped fused parameters are followed this deep through their
/// `get-tuple-element` users.
const MAX_TUPLE_INDEX: usize = 8;

/// The figures of a fusion instruction.
pub(super) fn fusion<'m, 'a: 'm>(
    x: &mut dyn Costs<'m, 'a>,
    ins: &Instruction<'a>,
) -> Option<Figures> {
    let m = x.module();
    let fused = m.calls(ins).first()?.id?;
    if ins.fusion_kind() == Some("kCustom") {
        for i in m.instructions_of(fused) {
            if matches!(i.opcode, "gather" | "scatter") {
                return Some(x.instruction(i.id));
            }
        }
    }
    let (sub, unread) = x.computation(fused);
    if unread > 0 {
        return None;
    }
    let mut total = output_bytes(x, ins, fused)?;
    for i in m.instructions_of(fused) {
        if i.opcode == "constant" {
            let s = x.size(i.id)?;
            if s.elements
                .is_some_and(|n| n > IMMEDIATE_CONSTANT_MAX_ELEMENTS)
            {
                total += s.bytes?;
            }
        }
    }
    let params = m.computation(fused)?.params.clone();
    for p in params {
        total += parameter_bytes(x, p)?;
    }
    Some(Figures {
        bytes: Figure::of(total as f64),
        ..Figures {
            bytes: Figure::default(),
            ..sub
        }
    })
}

/// The output's bytes: each array of the fusion's shape; a
/// `dynamic-update-slice` root (or root tuple element) only its update.
pub(super) fn output_bytes<'m, 'a: 'm>(
    x: &mut dyn Costs<'m, 'a>,
    ins: &Instruction<'a>,
    fused: CompId,
) -> Option<u64> {
    let m = x.module();
    let root = m.instruction(m.computation(fused)?.root?)?;
    let shape = ins.shape();
    match &shape {
        Shape::Array(_) if root.opcode == "dynamic-update-slice" => update_bytes(x, root),
        Shape::Array(_) => x.size(ins.id)?.bytes,
        Shape::Tuple(parts, _) => {
            let mut total = 0u64;
            for (k, part) in parts.iter().enumerate() {
                let element = (root.opcode == "tuple")
                    .then(|| m.operands(root).get(k).and_then(|o| o.id))
                    .flatten()
                    .and_then(|id| m.instruction(id));
                total += match element {
                    Some(e) if e.opcode == "dynamic-update-slice" && part.arrays().len() == 1 => {
                        update_bytes(x, e)?
                    }
                    _ => size::leaf_bytes(part)?,
                };
            }
            Some(total)
        }
        Shape::Unread(_) => None,
    }
}

/// Bytes of a `dynamic-update-slice`'s update (operand 1).
fn update_bytes<'m, 'a: 'm>(x: &mut dyn Costs<'m, 'a>, dus: &Instruction<'a>) -> Option<u64> {
    let m = x.module();
    let id = m.operands(dus).get(1)?.id?;
    x.size(id)?.bytes
}

/// What a fused parameter reads (`FusionParameterReadBytes`); a tuple
/// parameter per array, through the `get-tuple-element` that takes it.
pub(super) fn parameter_bytes<'m, 'a: 'm>(x: &mut dyn Costs<'m, 'a>, p: InstrId) -> Option<u64> {
    let m = x.module();
    let ins = m.instruction(p)?;
    let shape = ins.shape();
    if !matches!(shape, Shape::Tuple(..)) {
        return read_bytes(x, p);
    }
    let mut total = 0u64;
    for path in leaf_paths(&shape) {
        let mut at = p;
        for &index in &path {
            let here = m.instruction(at)?;
            let next = m.users(here).iter().copied().find(|&u| {
                m.instruction(u).is_some_and(|g| {
                    g.opcode == "get-tuple-element"
                        && m.attr(g, "index").and_then(|v| v.trim().parse().ok()) == Some(index)
                })
            });
            match next {
                Some(g) => at = g,
                None => break,
            }
        }
        total += read_bytes(x, at)?;
    }
    Some(total)
}

/// The index paths of a tuple shape's arrays.
fn leaf_paths(s: &Shape<'_>) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut stack: Vec<(&Shape<'_>, Vec<usize>)> = vec![(s, Vec::new())];
    while let Some((s, path)) = stack.pop() {
        match s {
            Shape::Tuple(parts, _) if path.len() < MAX_TUPLE_INDEX => {
                for (k, part) in parts.iter().enumerate().rev() {
                    let mut p = path.clone();
                    p.push(k);
                    stack.push((part, p));
                }
            }
            _ => out.push(path),
        }
    }
    out
}

/// What one fused parameter (or `get-tuple-element` of one) reads, by its
/// users.
fn read_bytes<'m, 'a: 'm>(x: &mut dyn Costs<'m, 'a>, p: InstrId) -> Option<u64> {
    let m = x.module();
    let ins = m.instruction(p)?;
    let own = x.size(p)?.bytes?;
    let mut total = 0u64;
    let mut shared = false;
    let mut once = |total: &mut u64| {
        if !shared {
            shared = true;
            *total += own;
        }
    };
    for &u in m.users(ins) {
        let user = m.instruction(u)?;
        let first = m.operands(user).first().and_then(|o| o.id) == Some(p);
        match user.opcode {
            "fusion" => {
                let inner = m.calls(user).first()?.id?;
                let params = m.computation(inner)?.params.clone();
                for (k, op) in m.operands(user).iter().enumerate() {
                    if op.id == Some(p) {
                        total += read_bytes(x, *params.get(k)?)?;
                    }
                }
            }
            "slice" => total += x.size(u)?.bytes?,
            "dynamic-slice" if first => total += x.size(u)?.bytes?,
            "dynamic-update-slice" if first => {}
            "broadcast" | "reshape" => total += own,
            _ => once(&mut total),
        }
    }
    Some(total)
}
