//! Every kernel's inputs, traced to where they come from.
//!
//! A kernel's operand is another kernel's result, a parameter, a constant,
//! or one of those passed through ops that launch nothing (`bitcast`,
//! `get-tuple-element`, `tuple`, ...): those are followed, and listed in
//! [`Input::via`]. Two kernels joined by an operand are a *boundary*: the
//! place where one kernel's result goes to memory and the next reads it.

use crate::kernels::{self, Kernel, KernelTree};
use crate::program::{InstrId, Instruction, Module};

/// How far free ops are followed (a chain of bitcasts is short).
const MAX_VIA: usize = 32;

/// Where an input comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum From {
    /// Another kernel row (or control flow) of the same computation.
    Kernel(InstrId),
    /// A parameter of the computation (the program's, or a loop's state).
    Parameter(InstrId),
    /// A constant.
    Constant(InstrId),
    /// A `tuple` of several values (a loop's state, say).
    Tuple(InstrId),
    /// Its name is not an instruction of the computation (a cut paste).
    Unknown,
}

/// One input of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The operand's index.
    pub operand: usize,
    /// Where it comes from.
    pub from: From,
    /// The free ops it passed through, nearest first.
    pub via: Vec<InstrId>,
}

/// A kernel and its inputs.
#[derive(Clone, Debug)]
pub struct KernelInputs<'t> {
    /// The kernel row.
    pub kernel: &'t Kernel,
    /// Its depth in the tree (0: the entry computation).
    pub depth: usize,
    /// Its inputs, in operand order.
    pub inputs: Vec<Input>,
}

/// Every row of the tree with its inputs, in run order.
pub fn of<'t>(m: &Module<'_>, tree: &'t KernelTree<'_>) -> Vec<KernelInputs<'t>> {
    tree.walk()
        .into_iter()
        .map(|(depth, k)| KernelInputs {
            kernel: k,
            depth,
            inputs: inputs_of(m, k.instruction),
        })
        .collect()
}

/// The inputs of one instruction.
pub fn inputs_of(m: &Module<'_>, id: InstrId) -> Vec<Input> {
    let Some(ins) = m.instruction(id) else {
        return Vec::new();
    };
    m.operands(ins)
        .iter()
        .enumerate()
        .map(|(i, op)| match op.id {
            Some(oid) => trace(m, i, oid),
            None => Input {
                operand: i,
                from: From::Unknown,
                via: Vec::new(),
            },
        })
        .collect()
}

/// Follows free ops from `id` to a kernel, a parameter or a constant.
fn trace(m: &Module<'_>, operand: usize, mut id: InstrId) -> Input {
    let mut via = Vec::new();
    for _ in 0..MAX_VIA {
        let Some(ins) = m.instruction(id) else { break };
        let from = match ins.opcode {
            "parameter" => From::Parameter(id),
            "constant" => From::Constant(id),
            "tuple" => From::Tuple(id),
            op if kernels::has_row(op) => From::Kernel(id),
            _ => match first_operand(m, ins) {
                Some(next) => {
                    via.push(id);
                    id = next;
                    continue;
                }
                None => From::Unknown,
            },
        };
        return Input { operand, from, via };
    }
    Input {
        operand,
        from: From::Unknown,
        via,
    }
}

/// The operand a free op passes on (`get-tuple-element`, `bitcast`: its
/// only one).
fn first_operand(m: &Module<'_>, ins: &Instruction<'_>) -> Option<InstrId> {
    m.operands(ins).first().and_then(|o| o.id)
}
