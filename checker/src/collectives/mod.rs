//! Collectives read: for every collective a compiled module runs (each
//! synchronous one, each pair's start), who it exchanges data with, the
//! bytes it moves per device, where it sits in the schedule and which
//! sharding made it. A reader on the program model and the kernel tree:
//!
//! - [`wire`]: its group and the bytes: the payload each device holds and
//!   the bytes each device must at least move, whatever the algorithm;
//! - [`schedule`]: synchronous, or a start/done pair and the kernels
//!   scheduled between them;
//! - [`origin`]: written in the program, or inserted by the partitioner and
//!   why, from the metadata;
//! - [`json`] and [`report`]: what the command line and the page show.
//!
//! The ledger (`crate::cost`) reads [`wire`] for a collective's time on a
//! chip's interconnect.

pub mod json;
pub mod origin;
pub mod report;
pub mod schedule;
pub mod wire;

use crate::kernels::KernelTree;
use crate::program::{Collective, Peers, Phase};
use crate::program::{InstrId, Instruction, Module};
use origin::Made;
use schedule::Placed;
use wire::{Peering, WireRule};

/// One collective of the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row<'a> {
    /// The instruction (a synchronous collective, or a pair's start).
    pub id: InstrId,
    /// Its name.
    pub name: &'a str,
    /// Its 1-based line.
    pub line: usize,
    /// The opcode without `-start`.
    pub opcode: &'static str,
    /// Its attributes, read.
    pub collective: Collective<'a>,
    /// Who it exchanges data with.
    pub peering: Peering,
    /// The bytes of its operands on each device (its per-device shapes).
    pub payload_bytes: Option<u64>,
    /// The bytes of its result on each device.
    pub result_bytes: Option<u64>,
    /// The bytes each device must at least send or receive.
    pub at_least_bytes: Option<u64>,
    /// The rule those bytes follow.
    pub wire: &'static WireRule,
    /// Where it sits in the schedule.
    pub placed: Placed,
    /// XLA:GPU's `is_sync` on the start, when printed.
    pub gpu_is_sync: Option<bool>,
    /// XLA:GPU's `kernel_strategy` on the start, when not the default.
    pub gpu_kernel_strategy: Option<&'a str>,
    /// Which sharding made it.
    pub made: Made,
    /// Its Python source line (file, line), from its metadata.
    pub source: Option<(&'a str, u32)>,
}

/// Every collective a module runs, in run order (those inside loops and
/// branches after their control flow's place).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collectives<'a> {
    /// `num_partitions=` of the header.
    pub partitions: Option<u64>,
    /// `replica_count=` of the header.
    pub replicas: Option<u64>,
    /// The rows.
    pub rows: Vec<Row<'a>>,
}

/// Reads the collectives of a module, on its kernel tree.
pub fn read<'a>(m: &Module<'a>, tree: &KernelTree<'a>) -> Collectives<'a> {
    let partitions = m.header.as_ref().and_then(|h| h.num_partitions());
    let replicas = m.header.as_ref().and_then(|h| h.replica_count());
    let index = schedule::Rows::of(m);
    let rows = tree
        .walk()
        .into_iter()
        .filter_map(|(_, k)| m.instruction(k.instruction))
        .filter_map(|ins| row(m, ins, partitions, &index))
        .collect();
    Collectives {
        partitions,
        replicas,
        rows,
    }
}

/// The row of one instruction, when it is a collective that starts work.
fn row<'a>(
    m: &Module<'a>,
    ins: &Instruction<'a>,
    partitions: Option<u64>,
    index: &schedule::Rows,
) -> Option<Row<'a>> {
    let c = m.collective(ins)?;
    if c.phase == Phase::Done {
        return None;
    }
    let wire = wire::rule_of(c.op.opcode)?;
    let peering = wire::peering(&c, partitions);
    let placed = schedule::place(m, ins, index);
    let (payload_bytes, result_bytes, at_least_bytes) =
        bytes(m, ins, &c, wire, &peering, placed.done);
    Some(Row {
        id: ins.id,
        name: ins.name,
        line: ins.line,
        opcode: c.op.opcode,
        made: origin::origin(m, ins, wire),
        peering,
        payload_bytes,
        result_bytes,
        at_least_bytes,
        wire,
        gpu_is_sync: schedule::gpu_is_sync(ins),
        gpu_kernel_strategy: schedule::gpu_kernel_strategy(ins),
        source: m.location(&ins.metadata()),
        placed,
        collective: c,
    })
}

/// The bytes each device must at least move for the collective `ins` (a
/// synchronous one or a pair's start), as its row says; `None` for any
/// other instruction or when a figure is unknown.
pub fn at_least_of<'a>(m: &Module<'a>, ins: &Instruction<'a>) -> Option<u64> {
    let partitions = m.header.as_ref().and_then(|h| h.num_partitions());
    let c = m.collective(ins)?;
    if c.phase == Phase::Done {
        return None;
    }
    let wire = wire::rule_of(c.op.opcode)?;
    let peering = wire::peering(&c, partitions);
    let done = (c.phase == Phase::Start)
        .then(|| schedule::done_of(m, ins))
        .flatten();
    bytes(m, ins, &c, wire, &peering, done).2
}

/// (payload, result, at least) bytes per device of a collective whose
/// pair ends in `done`.
fn bytes(
    m: &Module<'_>,
    ins: &Instruction<'_>,
    c: &Collective<'_>,
    wire: &WireRule,
    peering: &Peering,
    done: Option<InstrId>,
) -> (Option<u64>, Option<u64>, Option<u64>) {
    let payload = operand_bytes(m, ins, c);
    let result = match done.and_then(|d| m.instruction(d)) {
        Some(d) => d.shape().bytes(),
        None if c.phase == Phase::Sync => ins.shape().bytes(),
        None => None,
    };
    (
        payload,
        result,
        wire::at_least(wire, peering, payload, result),
    )
}

/// The bytes of a collective's operands (a `send`'s data only, not its
/// token).
fn operand_bytes(m: &Module<'_>, ins: &Instruction<'_>, c: &Collective<'_>) -> Option<u64> {
    let ops = m.operands(ins);
    let ops = match (c.op.peers, c.op.opcode) {
        // A `recv`'s only operand is its token: what it receives is its
        // done's data.
        (Peers::Channel, "recv") => return None,
        (Peers::Channel, _) => ops.get(..1)?,
        _ => ops,
    };
    let mut total = 0u64;
    for o in ops {
        let i = m.instruction(o.id?)?;
        total = total.checked_add(i.shape().bytes()?)?;
    }
    Some(total)
}

/// The row of the collective named `name` (a pair's start, or its done).
impl<'a> Collectives<'a> {
    /// The row of an instruction name: a collective, or a pair's done.
    pub fn named(&self, m: &Module<'a>, name: &str) -> Option<&Row<'a>> {
        self.rows.iter().find(|r| {
            r.name == name
                || r.placed
                    .done
                    .and_then(|d| m.instruction(d))
                    .is_some_and(|d| d.name == name)
        })
    }
}
