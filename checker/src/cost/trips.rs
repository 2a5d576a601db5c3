//! A `while` loop's trip count read from its text where its
//! `backend_config` states none (XLA:TPU never writes `known_trip_count`),
//! by the pattern XLA's own `ComputeWhileLoopTripCount` recognizes: an
//! induction variable, element `i` of the loop's tuple, that starts at a
//! constant (or a `copy` of one), grows by a constant step in the body
//! (`add(get-tuple-element(param, index=i), constant)`, the element maybe
//! through a `copy`) and is compared with
//! a constant bound in the condition (`compare(get-tuple-element(param,
//! index=i), constant), direction=LT` or `LE`). Anything else is unknown:
//! never a guess.

use crate::program::{CallRole, CompId, InstrId, Instruction, Module};

/// The trip count a loop's text implies, when it has that pattern.
pub fn derived(m: &Module<'_>, w: &Instruction<'_>) -> Option<u64> {
    let role = |r: CallRole| m.calls(w).iter().find(|c| c.role == r).and_then(|c| c.id);
    let (cond, body) = (role(CallRole::Condition)?, role(CallRole::Body)?);
    let (index, bound, inclusive) = condition(m, cond)?;
    let step = step(m, body, index)?;
    let start = start(m, w, index)?;
    let end = if inclusive {
        bound.checked_add(1)?
    } else {
        bound
    };
    if step <= 0 {
        return None;
    }
    if end <= start {
        return Some(0);
    }
    let span = u64::try_from(end.checked_sub(start)?).ok()?;
    Some(span.div_ceil(u64::try_from(step).ok()?))
}

/// An instruction by id, in the module.
fn get<'m, 'a>(m: &'m Module<'a>, id: Option<InstrId>) -> Option<&'m Instruction<'a>> {
    m.instruction(id?)
}

/// Operand `k` of an instruction.
fn operand<'m, 'a>(
    m: &'m Module<'a>,
    ins: &Instruction<'_>,
    k: usize,
) -> Option<&'m Instruction<'a>> {
    get(m, m.operands(ins).get(k)?.id)
}

/// A scalar integer constant's value.
fn constant(ins: &Instruction<'_>) -> Option<i64> {
    (ins.opcode == "constant").then_some(())?;
    ins.operands_text().trim().parse().ok()
}

/// `get-tuple-element(parameter(0), index=i)`, or a `copy` of it (XLA:TPU
/// copies the counter in some bodies): `i`.
fn element_of_param(m: &Module<'_>, ins: &Instruction<'_>) -> Option<u64> {
    let ins = if ins.opcode == "copy" {
        operand(m, ins, 0)?
    } else {
        ins
    };
    (ins.opcode == "get-tuple-element").then_some(())?;
    let p = operand(m, ins, 0)?;
    (p.opcode == "parameter" && p.parameter_number() == Some(0)).then_some(())?;
    m.attr(ins, "index")?.trim().parse().ok()
}

/// The condition's root `compare(gte(param, i), constant)`: (i, the bound,
/// whether it is `LE`).
fn condition(m: &Module<'_>, cond: CompId) -> Option<(u64, i64, bool)> {
    let root = get(m, m.computation(cond)?.root)?;
    (root.opcode == "compare").then_some(())?;
    let inclusive = match m.attr(root, "direction")?.trim() {
        "LT" => false,
        "LE" => true,
        _ => return None,
    };
    let index = element_of_param(m, operand(m, root, 0)?)?;
    let bound = constant(operand(m, root, 1)?)?;
    Some((index, bound, inclusive))
}

/// The body's step of element `i`: its root tuple's element `i` is
/// `add(gte(param, i), constant)`.
fn step(m: &Module<'_>, body: CompId, index: u64) -> Option<i64> {
    let root = get(m, m.computation(body)?.root)?;
    (root.opcode == "tuple").then_some(())?;
    let next = operand(m, root, usize::try_from(index).ok()?)?;
    (next.opcode == "add").then_some(())?;
    let (a, b) = (operand(m, next, 0)?, operand(m, next, 1)?);
    match (element_of_param(m, a), element_of_param(m, b)) {
        (Some(i), _) if i == index => constant(b),
        (_, Some(i)) if i == index => constant(a),
        _ => None,
    }
}

/// The induction variable's start: element `i` of the loop's init tuple, a
/// constant or a `copy` of one.
fn start(m: &Module<'_>, w: &Instruction<'_>, index: u64) -> Option<i64> {
    let init = operand(m, w, 0)?;
    (init.opcode == "tuple").then_some(())?;
    let mut v = operand(m, init, usize::try_from(index).ok()?)?;
    if v.opcode == "copy" {
        v = operand(m, v, 0)?;
    }
    constant(v)
}
