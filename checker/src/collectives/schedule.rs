//! Where a collective sits in the schedule: one synchronous instruction, or
//! a start/done pair and the kernels XLA scheduled between the two halves
//! (the overlap the schedule plans; only a profile shows whether it
//! happens). The order is the schedule only in a module printed with
//! `is_scheduled=true`; elsewhere nothing is said.

use crate::kernels::has_row;
use crate::program::{InstrId, Instruction, Module};
use crate::program::{Phase, collective_op};

/// How a collective runs, as the dump schedules it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// One synchronous instruction.
    Sync,
    /// A start/done pair with no kernel scheduled between them.
    PairEmpty,
    /// A start/done pair with kernels scheduled between them.
    PairOverlap,
    /// A start/done pair in a module with no fixed order (no
    /// `is_scheduled=true`), or a start whose done is not found.
    PairUnordered,
}

/// One row per [`Schedule`]: its id and what it says.
pub const SCHEDULES: &[(Schedule, &str, &str)] = &[
    (
        Schedule::Sync,
        "sync",
        "one synchronous instruction: the device waits for the exchange",
    ),
    (
        Schedule::PairEmpty,
        "pair-empty",
        "a start/done pair with nothing scheduled between the two",
    ),
    (
        Schedule::PairOverlap,
        "pair-overlap",
        "a start/done pair with work scheduled between the two: the overlap the schedule plans",
    ),
    (
        Schedule::PairUnordered,
        "pair-unordered",
        "a start/done pair whose order the dump does not fix (no `is_scheduled=true`, or no done found)",
    ),
];

impl Schedule {
    /// Its id (`sync`, `pair-overlap`, ...).
    pub fn id(self) -> &'static str {
        SCHEDULES
            .iter()
            .find(|r| r.0 == self)
            .map_or("pair-unordered", |r| r.1)
    }

    /// What it says.
    pub fn sentence(self) -> &'static str {
        SCHEDULES.iter().find(|r| r.0 == self).map_or("", |r| r.2)
    }
}

/// A collective's place in the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// How it runs.
    pub schedule: Schedule,
    /// The pair's done, when it is one.
    pub done: Option<InstrId>,
    /// The kernels scheduled between start and done, in order.
    pub between: Vec<InstrId>,
}

/// Where the collective `ins` (a synchronous one or a start) sits.
pub fn place(m: &Module<'_>, ins: &Instruction<'_>) -> Placed {
    let Some((_, phase)) = collective_op(ins.opcode) else {
        return Placed {
            schedule: Schedule::Sync,
            done: None,
            between: Vec::new(),
        };
    };
    if phase == Phase::Sync {
        return Placed {
            schedule: Schedule::Sync,
            done: None,
            between: Vec::new(),
        };
    }
    let done = m
        .users(ins)
        .iter()
        .copied()
        .find(|&u| m.instruction(u).and_then(|d| m.collective_start(d)) == Some(ins.id));
    let scheduled = m.header.as_ref().is_some_and(|h| h.is_scheduled);
    let (Some(done), true) = (done, scheduled) else {
        return Placed {
            schedule: Schedule::PairUnordered,
            done,
            between: Vec::new(),
        };
    };
    // Ids follow the printed order within a computation.
    let between: Vec<InstrId> = (ins.id + 1..done)
        .filter_map(|i| m.instruction(i))
        .filter(|i| i.computation == ins.computation && has_row(i.opcode))
        .map(|i| i.id)
        .collect();
    Placed {
        schedule: if between.is_empty() {
            Schedule::PairEmpty
        } else {
            Schedule::PairOverlap
        },
        done: Some(done),
        between,
    }
}

/// XLA:GPU's own word on a pair: `"is_sync"` in the start's
/// `collective_backend_config` (true where its scheduler planned no
/// overlap).
pub fn gpu_is_sync(ins: &Instruction<'_>) -> Option<bool> {
    let c = ins.backend_config?;
    let at = c.find("\"collective_backend_config\"")?;
    let rest = c.get(at..)?;
    let k = rest.find("\"is_sync\"")?;
    let v = rest
        .get(k + "\"is_sync\"".len()..)?
        .trim_start()
        .strip_prefix(':')?;
    let v = v.trim_start();
    if v.starts_with("true") {
        Some(true)
    } else if v.starts_with("false") {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_schedule_has_a_row() {
        use super::Schedule::*;
        for s in [Sync, PairEmpty, PairOverlap, PairUnordered] {
            assert!(super::SCHEDULES.iter().any(|r| r.0 == s), "{s:?}");
        }
    }
}
