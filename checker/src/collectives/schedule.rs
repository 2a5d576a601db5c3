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
    /// The kernels scheduled between start and done, in order: the first
    /// [`MAX_LISTED`] of them.
    pub between: Vec<InstrId>,
    /// How many kernels are scheduled between start and done.
    pub between_count: usize,
}

/// At most this many kernels between a start and its done are listed (all
/// are counted).
pub const MAX_LISTED: usize = 32;

/// The kernel rows of a module by instruction id, built once: how many
/// come before each id, and the next one at or after it. With them the
/// kernels between a start and its done are counted in constant time and
/// listed in time of the list, not of the distance.
pub struct Rows {
    before: Vec<u32>,
    next: Vec<u32>,
}

impl Rows {
    /// Builds the index of a module.
    pub fn of(m: &Module<'_>) -> Rows {
        let n = m.instructions.len();
        let mut before = Vec::with_capacity(n + 1);
        let mut count = 0u32;
        before.push(0);
        for i in &m.instructions {
            count += u32::from(has_row(i.opcode));
            before.push(count);
        }
        let mut next = vec![u32::MAX; n + 1];
        for (k, i) in m.instructions.iter().enumerate().rev() {
            next[k] = if has_row(i.opcode) {
                k as u32
            } else {
                next[k + 1]
            };
        }
        Rows { before, next }
    }

    fn count(&self, from: InstrId, to: InstrId) -> usize {
        let at = |i: InstrId| self.before.get(i as usize).copied().unwrap_or(0);
        at(to).saturating_sub(at(from)) as usize
    }

    fn listed(&self, from: InstrId, to: InstrId) -> Vec<InstrId> {
        let mut out = Vec::new();
        let mut at = from;
        while out.len() < MAX_LISTED {
            match self.next.get(at as usize) {
                Some(&k) if k < to => {
                    out.push(k);
                    at = k + 1;
                }
                _ => break,
            }
        }
        out
    }
}

/// The done that ends a pair's start, when the module has it.
pub fn done_of(m: &Module<'_>, start: &Instruction<'_>) -> Option<InstrId> {
    m.users(start)
        .iter()
        .copied()
        .find(|&u| m.instruction(u).and_then(|d| m.collective_start(d)) == Some(start.id))
}

/// Where the collective `ins` (a synchronous one or a start) sits; `rows`
/// is the module's [`Rows`].
pub fn place(m: &Module<'_>, ins: &Instruction<'_>, rows: &Rows) -> Placed {
    let sync = Placed {
        schedule: Schedule::Sync,
        done: None,
        between: Vec::new(),
        between_count: 0,
    };
    match collective_op(ins.opcode) {
        Some((_, Phase::Sync)) | None => return sync,
        _ => {}
    }
    let done = done_of(m, ins);
    let scheduled = m.header.as_ref().is_some_and(|h| h.is_scheduled);
    let (Some(done), true) = (done, scheduled) else {
        return Placed {
            schedule: Schedule::PairUnordered,
            done,
            between: Vec::new(),
            between_count: 0,
        };
    };
    // Ids follow the printed order within a computation, and a done is in
    // its start's computation (its operand).
    let between_count = rows.count(ins.id + 1, done);
    let between = rows.listed(ins.id + 1, done);
    Placed {
        schedule: if between_count == 0 {
            Schedule::PairEmpty
        } else {
            Schedule::PairOverlap
        },
        done: Some(done),
        between,
        between_count,
    }
}

/// XLA:GPU's own word on a pair: `"is_sync"` in the start's
/// `collective_backend_config` (true where its scheduler planned no
/// overlap).
pub fn gpu_is_sync(ins: &Instruction<'_>) -> Option<bool> {
    let c = ins.backend_config()?;
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

/// XLA:GPU's `"kernel_strategy"` in the start's
/// `collective_backend_config`, when it names one other than
/// `KERNEL_STRATEGY_DEFAULT` (`KERNEL_STRATEGY_TRITON_ONE_SHOT`: XLA:GPU's
/// own one-shot kernel instead of NCCL's algorithms).
pub fn gpu_kernel_strategy<'a>(ins: &Instruction<'a>) -> Option<&'a str> {
    let c = ins.backend_config()?;
    let at = c.find("\"collective_backend_config\"")?;
    let rest = c.get(at..)?;
    let k = rest.find("\"kernel_strategy\"")?;
    let v = rest
        .get(k + "\"kernel_strategy\"".len()..)?
        .trim_start()
        .strip_prefix(':')?
        .trim_start()
        .strip_prefix('"')?;
    let v = v.get(..v.find('"')?)?;
    (v != "KERNEL_STRATEGY_DEFAULT" && !v.is_empty()).then_some(v)
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
