//! The bytes a collective moves between devices: its payload (the operand
//! each device holds, from the per-device shapes of the dump) and the bytes
//! each device must at least send or receive over the interconnect,
//! whatever algorithm the runtime picks ([`WIRE_RULES`], one row per
//! opcode).
//!
//! The bounds are the classic bandwidth lower bounds of collectives on `g`
//! devices (Chan et al., "Collective communication: theory, practice, and
//! experience", 2007; the same factors nccl-tests uses for its bus
//! bandwidth): an all-gather's device receives the `g-1` shards it lacks,
//! `(g-1)/g` of the result; a reduce-scatter's or an all-to-all's device
//! sends the `g-1` blocks meant for others, `(g-1)/g` of its operand; an
//! all-reduce's device receives the sum of the others' operands, its whole
//! operand's size (a ring all-reduce sends `2(g-1)/g` of it; a reduction
//! inside the network switch, as NVLink SHARP does, moves less than the
//! ring, never less than the bound); a collective-permute's device sends
//! its whole operand when its target is another device.

use crate::program::{Collective, Peers};

/// How a collective's at-least bytes follow from its payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    /// `(g-1)/g` of the operand (reduce-scatter, all-to-all).
    OperandShare,
    /// `(g-1)/g` of the result (all-gather).
    ResultShare,
    /// The whole operand, when a device's target is another device
    /// (collective-permute), or in a group of more than one (an
    /// all-reduce's sum of the others; a collective-broadcast's receivers
    /// take it whole).
    Whole,
    /// Not known from the dump: sizes chosen at run time (ragged
    /// all-to-all), or a transfer to the host, not between devices.
    Unknown,
}

/// One opcode's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireRule {
    /// The opcode without `-start`/`-done`.
    pub opcode: &'static str,
    /// How its bytes follow.
    pub wire: Wire,
    /// The rule, as the output states it.
    pub rule: &'static str,
}

/// Every collective opcode's rule, one row each (a test checks every row
/// of `program::collective::COLLECTIVE_OPS` has one).
pub const WIRE_RULES: &[WireRule] = &[
    WireRule {
        opcode: "all-reduce",
        wire: Wire::Whole,
        rule: "each device receives the sum of the others' operands: its whole operand's size (a ring all-reduce sends 2(g-1)/g of it)",
    },
    WireRule {
        opcode: "all-gather",
        wire: Wire::ResultShare,
        rule: "each device receives the g-1 shards it lacks: (g-1)/g of the result",
    },
    WireRule {
        opcode: "reduce-scatter",
        wire: Wire::OperandShare,
        rule: "each device sends the g-1 blocks the others reduce: (g-1)/g of its operand",
    },
    WireRule {
        opcode: "all-to-all",
        wire: Wire::OperandShare,
        rule: "each device sends the g-1 blocks meant for others: (g-1)/g of its operand",
    },
    WireRule {
        opcode: "ragged-all-to-all",
        wire: Wire::Unknown,
        rule: "the sizes each device sends are chosen at run time: not known from the dump",
    },
    WireRule {
        opcode: "collective-broadcast",
        wire: Wire::Whole,
        rule: "every device but the source receives the whole operand",
    },
    WireRule {
        opcode: "collective-permute",
        wire: Wire::Whole,
        rule: "a device whose target is another device sends its whole operand",
    },
    WireRule {
        opcode: "send",
        wire: Wire::Unknown,
        rule: "a send on a channel: to the host where `is_host_transfer=true`, not between devices; else to a peer the dump does not name",
    },
    WireRule {
        opcode: "recv",
        wire: Wire::Unknown,
        rule: "a receive on a channel: from the host where `is_host_transfer=true`, not between devices; else from a peer the dump does not name",
    },
];

/// The rule of an opcode (without `-start`/`-done`).
pub fn rule_of(opcode: &str) -> Option<&'static WireRule> {
    WIRE_RULES.iter().find(|r| r.opcode == opcode)
}

/// Who a collective exchanges data with, as its attributes say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Peering {
    /// Devices per group (`replica_groups=`), or devices named by the
    /// pairs (`source_target_pairs=`); `None` when not read.
    pub group_size: Option<u64>,
    /// How many groups (or pairs).
    pub groups: Option<u64>,
    /// For pairs: how many send to another device.
    pub moving_pairs: Option<u64>,
}

/// Reads who a collective exchanges data with. `{}` (every device in one
/// group) gives the group size only with the module's partition count.
pub fn peering(c: &Collective<'_>, partitions: Option<u64>) -> Peering {
    match c.op.peers {
        Peers::Groups => {
            let shape = c.replica_groups.as_ref().and_then(|g| {
                g.shape().or_else(|| match &g.form {
                    crate::program::GroupsForm::Listed(l) if l.is_empty() => {
                        partitions.map(|p| (1, p))
                    }
                    _ => None,
                })
            });
            Peering {
                group_size: shape.map(|s| s.1),
                groups: shape.map(|s| s.0),
                moving_pairs: None,
            }
        }
        Peers::Pairs => {
            let pairs = c.source_target_pairs.as_ref().and_then(|p| p.pairs.clone());
            Peering {
                group_size: pairs.as_ref().map(|p| {
                    let mut d: Vec<u64> = p.iter().flat_map(|&(s, t)| [s, t]).collect();
                    d.sort_unstable();
                    d.dedup();
                    d.len() as u64
                }),
                groups: pairs.as_ref().map(|p| p.len() as u64),
                moving_pairs: pairs.map(|p| p.iter().filter(|(s, t)| s != t).count() as u64),
            }
        }
        Peers::Channel => Peering {
            group_size: None,
            groups: None,
            moving_pairs: None,
        },
    }
}

/// The bytes each device must at least move, from the rule, the payload
/// (operand bytes), the result bytes and who it exchanges with; `None`
/// when a figure it needs is unknown.
pub fn at_least(
    rule: &WireRule,
    peering: &Peering,
    operand: Option<u64>,
    result: Option<u64>,
) -> Option<u64> {
    let share = |bytes: u64, g: u64| -> Option<u64> {
        if g == 0 {
            return None;
        }
        // (g-1)/g of the bytes; exact when the shards divide evenly, as
        // XLA's do.
        Some(bytes / g * (g - 1) + (bytes % g) * (g - 1) / g)
    };
    match rule.wire {
        Wire::OperandShare => share(operand?, peering.group_size?),
        Wire::ResultShare => share(result?, peering.group_size?),
        Wire::Whole => match peering.moving_pairs {
            Some(0) => Some(0),
            Some(_) => operand,
            None if peering.group_size? > 1 => operand,
            None => Some(0),
        },
        Wire::Unknown => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::COLLECTIVE_OPS;

    #[test]
    fn every_collective_opcode_has_a_rule() {
        for op in COLLECTIVE_OPS {
            assert!(
                rule_of(op.opcode).is_some(),
                "no wire rule for {}",
                op.opcode
            );
        }
        for r in WIRE_RULES {
            assert!(
                COLLECTIVE_OPS.iter().any(|o| o.opcode == r.opcode),
                "{} is not a collective opcode",
                r.opcode
            );
        }
    }

    #[test]
    fn shares() {
        let p = |g| Peering {
            group_size: Some(g),
            groups: Some(1),
            moving_pairs: None,
        };
        let ar = rule_of("all-reduce").expect("a row");
        assert_eq!(at_least(ar, &p(4), Some(131072), None), Some(131072));
        let rs = rule_of("reduce-scatter").expect("a row");
        assert_eq!(at_least(rs, &p(4), Some(131072), None), Some(98304));
        assert_eq!(at_least(ar, &p(1), Some(131072), None), Some(0));
        let ag = rule_of("all-gather").expect("a row");
        assert_eq!(
            at_least(ag, &p(2), Some(131072), Some(262144)),
            Some(131072)
        );
        let cp = rule_of("collective-permute").expect("a row");
        let pairs = Peering {
            group_size: Some(4),
            groups: Some(4),
            moving_pairs: Some(0),
        };
        assert_eq!(at_least(cp, &pairs, Some(100), None), Some(0));
        assert_eq!(
            at_least(rule_of("send").expect("a row"), &p(4), Some(1), None),
            None
        );
    }
}
