//! The vocabulary of why two kernels are separate: one row per reason
//! ([`REASONS`]), and one row per message XLA's fusion passes log
//! ([`XLA_MESSAGES`]), each naming the reason it is.

/// A reason two kernels are separate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The producer is no op the fusion pass fuses into a consumer.
    ProducerNotFusible,
    /// The consumer is a custom fusion or call: nothing is fused into it.
    ConsumerCustom,
    /// The consumer is no fusion and no op a fusion could start from.
    ConsumerNotFusible,
    /// An expensive producer whose elements the consumer reads many times.
    Recompute,
    /// The producer reads more than it writes and cannot go into every
    /// user: XLA keeps it whole (`do_not_duplicate`).
    NotDuplicable,
    /// An expensive producer with other users; fusing would compute it again.
    Duplication,
    /// A copy or transpose between them: a layout change.
    LayoutChange,
    /// A copy into another memory space (a prefetch into on-chip memory).
    MemorySpace,
    /// A loop, conditional or other op that runs as its own kernel.
    OwnKernel,
    /// A reduction's result read by a loop fusion (XLA:GPU).
    ReduceOutput,
    /// The fusion would grow past a size or operand limit (XLA:GPU).
    SizeLimit,
    /// A copy the fusion pass never saw: a later pass added it.
    AfterFusion,
    /// A reason XLA logged that no other row names.
    XlaOther,
}

/// One row of [`REASONS`].
pub struct ReasonRow {
    /// The reason.
    pub reason: Reason,
    /// Its id in the JSON.
    pub id: &'static str,
    /// A title.
    pub title: &'static str,
    /// What it means, in a sentence.
    pub sentence: &'static str,
    /// Whether DumpLab's rules can find it from the dump alone (otherwise
    /// only XLA's log says it).
    pub rule: bool,
}

/// The reasons, one row each.
pub const REASONS: &[ReasonRow] = &[
    ReasonRow {
        reason: Reason::ProducerNotFusible,
        id: "producer-not-fusible",
        title: "the producer cannot be fused",
        sentence: "The producer is not an op XLA's loop fusion takes into a consumer (a library kernel, a custom call, a dot or another op that is not elementwise), so its result goes to memory.",
        rule: true,
    },
    ReasonRow {
        reason: Reason::ConsumerCustom,
        id: "consumer-custom",
        title: "the consumer is a custom fusion",
        sentence: "The consumer is a custom fusion (a library kernel such as the CPU's __ynn fusions): XLA's fusion pass fuses nothing into it.",
        rule: true,
    },
    ReasonRow {
        reason: Reason::ConsumerNotFusible,
        id: "consumer-not-fusible",
        title: "the consumer cannot take a fusion",
        sentence: "The consumer is neither a loop fusion nor an op a loop fusion can be built around (a custom call, a dot, a reduce-window ...), so nothing is fused into it.",
        rule: true,
    },
    ReasonRow {
        reason: Reason::Recompute,
        id: "recompute",
        title: "an expensive result read many times",
        sentence: "The producer is expensive (a divide, an exponential, ...) and the consumer reads each of its elements many times (through a broadcast): fused, it would be recomputed for every read.",
        rule: true,
    },
    ReasonRow {
        reason: Reason::NotDuplicable,
        id: "not-duplicable",
        title: "kept whole: it reads more than it writes",
        sentence: "The producer reads more than one array of its rank and more than it writes: XLA fuses such a producer only where it can go into every user on every path, and it cannot go into this one, so XLA keeps it whole.",
        rule: true,
    },
    ReasonRow {
        reason: Reason::Duplication,
        id: "duplication",
        title: "an expensive result with other users",
        sentence: "The producer is expensive (an exponential, a tanh, ...) and its result is read by other users too: fusing it here would compute it again for this consumer.",
        rule: true,
    },
    ReasonRow {
        reason: Reason::LayoutChange,
        id: "layout-change",
        title: "a layout change",
        sentence: "A copy or transpose sits between them: the array is rewritten in another layout, as its own kernel.",
        rule: true,
    },
    ReasonRow {
        reason: Reason::MemorySpace,
        id: "memory-space",
        title: "a move to another memory",
        sentence: "A copy moves the array into another memory space (S(1) is the TPU's on-chip vector memory): a transfer scheduled by XLA's memory-space assignment, not a fusion decision.",
        rule: true,
    },
    ReasonRow {
        reason: Reason::OwnKernel,
        id: "own-kernel",
        title: "an op that runs on its own",
        sentence: "One side is an op the backend runs on its own, never inside a fusion (a while loop, a conditional, a sort, a collective ...).",
        rule: true,
    },
    ReasonRow {
        reason: Reason::ReduceOutput,
        id: "reduce-output",
        title: "a reduction's output",
        sentence: "The producer is a reduction and the consumer a loop: XLA:GPU does not fuse into a reduction's output where that would make a loop fusion of it.",
        rule: false,
    },
    ReasonRow {
        reason: Reason::SizeLimit,
        id: "size-limit",
        title: "a size limit",
        sentence: "The fusion would grow past one of XLA's limits (operands, instructions, shared memory).",
        rule: false,
    },
    ReasonRow {
        reason: Reason::AfterFusion,
        id: "after-fusion",
        title: "a copy added after fusion",
        sentence: "The copy never appears in XLA's fusion log of this compile: a pass after fusion added it (on the CPU, copy insertion adds copies such as these for a loop's state and for outputs that would otherwise share a buffer), so fusion never decided on it.",
        rule: false,
    },
    ReasonRow {
        reason: Reason::XlaOther,
        id: "xla-other",
        title: "XLA's own words",
        sentence: "XLA logged a reason DumpLab has no row for; its words are given as they are.",
        rule: false,
    },
];

impl Reason {
    /// Its row.
    pub fn row(self) -> &'static ReasonRow {
        REASONS
            .iter()
            .find(|r| r.reason == self)
            .unwrap_or(&REASONS[REASONS.len() - 1])
    }

    /// Its id.
    pub fn id(self) -> &'static str {
        self.row().id
    }
}

/// One message XLA logs for a pair it did not fuse.
pub struct MessageRow {
    /// The message's start, as logged.
    pub starts: &'static str,
    /// The reason it is.
    pub reason: Reason,
    /// Whether it decides a boundary: a message about a constant or a
    /// parameter (`is not fusible`) concerns no pair of kernels.
    pub boundary: bool,
}

/// XLA's messages, one row each (CPU `instruction_fusion.cc` and
/// `cpu_instruction_fusion.cc`, XLA:GPU `priority_fusion.cc`), as the
/// pinned jaxlib logs them.
pub const XLA_MESSAGES: &[MessageRow] = &[
    msg("Producer is not loop-fusible.", Reason::ProducerNotFusible),
    msg(
        "Don't fuse instructions from custom fusions/calls",
        Reason::ConsumerCustom,
    ),
    msg(
        "Not fusing: not found a fusible case",
        Reason::ConsumerNotFusible,
    ),
    msg("Fusion is not profitable.", Reason::Recompute),
    msg("operand can not be duplicated", Reason::NotDuplicable),
    msg(
        "expensive producer would be duplicated",
        Reason::Duplication,
    ),
    msg("is too expensive to duplicate", Reason::Duplication),
    msg("is not fusible", Reason::OwnKernel),
    msg(
        "fusion into output of a reduce fusion would create a loop fusion",
        Reason::ReduceOutput,
    ),
    msg("the producer is not fusible", Reason::ProducerNotFusible),
    msg("the consumer is not fusible", Reason::ConsumerNotFusible),
    msg("Concatenate fusion is inefficient.", Reason::XlaOther),
    MessageRow {
        starts: "Not fusing: insufficient non-constant nodes.",
        reason: Reason::XlaOther,
        boundary: false,
    },
    MessageRow {
        starts: "Don't fuse non-scalar constants.",
        reason: Reason::XlaOther,
        boundary: false,
    },
];

const fn msg(starts: &'static str, reason: Reason) -> MessageRow {
    MessageRow {
        starts,
        reason,
        boundary: true,
    }
}

/// The row of a logged message (`None`: DumpLab knows no row for it).
pub fn message_row(message: &str) -> Option<&'static MessageRow> {
    XLA_MESSAGES.iter().find(|r| message.starts_with(r.starts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_one_row() {
        let all = [
            Reason::ProducerNotFusible,
            Reason::ConsumerCustom,
            Reason::ConsumerNotFusible,
            Reason::Recompute,
            Reason::NotDuplicable,
            Reason::Duplication,
            Reason::LayoutChange,
            Reason::MemorySpace,
            Reason::OwnKernel,
            Reason::ReduceOutput,
            Reason::SizeLimit,
            Reason::AfterFusion,
            Reason::XlaOther,
        ];
        assert_eq!(all.len(), REASONS.len());
        for r in all {
            assert_eq!(
                REASONS.iter().filter(|row| row.reason == r).count(),
                1,
                "{r:?}"
            );
            assert!(r.row().sentence.ends_with('.'));
        }
        let mut ids: Vec<_> = REASONS.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), REASONS.len());
    }
}
