//! Which sharding made a collective, from positive evidence only: the
//! `op_name` JAX writes into each instruction's metadata, and where the
//! collective's result goes.
//!
//! JAX emits a collective only for a collective primitive
//! ([`WRITTEN`], one row per primitive: `shard_map`'s `psum`,
//! `all_gather`, ...). A collective whose `op_name` names any other
//! primitive was inserted by XLA's SPMD partitioner, for the operation that
//! primitive became; one with no metadata at all was inserted too, and no
//! Python line can be named for it. The origins are one table,
//! [`ORIGINS`].

use super::wire::WireRule;
use crate::kernels::has_row;
use crate::program::{Instruction, Module};

/// Which sharding made a collective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The program names it: a collective primitive inside `shard_map`.
    Written,
    /// The partitioner's all-reduce or reduce-scatter after a reduction
    /// (a dot's contraction, a `reduce_sum`) over a sharded axis.
    Reduction,
    /// The partitioner moves data between two shardings an operation
    /// needs (its operand's and its own).
    Reshard,
    /// The partitioner reshards a result to the output sharding the user
    /// asked: no metadata, and its result only reaches the module's
    /// output.
    OutputSharding,
    /// A transfer to or from the host (a callback).
    Host,
    /// No evidence either way.
    Unknown,
}

/// One origin: its id, and what it says.
pub struct OriginRow {
    /// The origin.
    pub origin: Origin,
    /// Its id in the output and in exercise files.
    pub id: &'static str,
    /// Its label for a choice.
    pub label: &'static str,
}

/// Every origin, one row each.
pub const ORIGINS: &[OriginRow] = &[
    OriginRow {
        origin: Origin::Written,
        id: "written",
        label: "written in the program (a collective inside shard_map)",
    },
    OriginRow {
        origin: Origin::Reduction,
        id: "reduction",
        label: "inserted by the partitioner: a reduction over a sharded axis",
    },
    OriginRow {
        origin: Origin::Reshard,
        id: "reshard",
        label: "inserted by the partitioner: a reshard between two shardings of an operation",
    },
    OriginRow {
        origin: Origin::OutputSharding,
        id: "output-sharding",
        label: "inserted by the partitioner: the output sharding the user asked for",
    },
    OriginRow {
        origin: Origin::Host,
        id: "host",
        label: "a transfer to or from the host, or the data for one (a callback)",
    },
    OriginRow {
        origin: Origin::Unknown,
        id: "unknown",
        label: "unknown: the dump gives no evidence",
    },
];

impl Origin {
    /// Its row.
    pub fn row(self) -> Option<&'static OriginRow> {
        ORIGINS.iter().find(|r| r.origin == self)
    }

    /// Its id.
    pub fn id(self) -> &'static str {
        self.row().map_or("unknown", |r| r.id)
    }
}

/// The collective primitives of JAX a program writes, one row each: the
/// last part of the `op_name` JAX gives their instructions, and the
/// function a user calls.
pub const WRITTEN: &[(&str, &str)] = &[
    ("psum", "jax.lax.psum"),
    ("psum_invariant", "jax.lax.psum"),
    ("pmax", "jax.lax.pmax"),
    ("pmin", "jax.lax.pmin"),
    ("all_gather", "jax.lax.all_gather"),
    ("all_gather_invariant", "jax.lax.all_gather"),
    ("reduce_scatter", "jax.lax.psum_scatter"),
    ("ppermute", "jax.lax.ppermute"),
    ("all_to_all", "jax.lax.all_to_all"),
    ("ragged_all_to_all", "jax.lax.ragged_all_to_all"),
    ("pbroadcast", "jax.lax.pbroadcast"),
];

/// Primitives that reduce over a dimension: an all-reduce or
/// reduce-scatter the partitioner makes for one finishes that reduction
/// across the devices holding parts of the reduced axis.
pub const REDUCING: &[&str] = &[
    "dot_general",
    "conv_general_dilated",
    "reduce_sum",
    "reduce_max",
    "reduce_min",
    "reduce_prod",
    "reduce_and",
    "reduce_or",
    "argmax",
    "argmin",
];

/// A collective's origin and the evidence for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Made {
    /// The origin.
    pub origin: Origin,
    /// The primitive its `op_name` names, when it has one.
    pub primitive: Option<String>,
    /// What the evidence is, as the output says it.
    pub basis: String,
}

/// The last part of an `op_name` (`jit(fn)/shard_map/psum_invariant`:
/// `psum_invariant`).
fn primitive(op_name: &str) -> &str {
    op_name.rsplit('/').next().unwrap_or(op_name)
}

/// Which sharding made the collective `ins` (a synchronous one or a start).
pub fn origin(m: &Module<'_>, ins: &Instruction<'_>, rule: &WireRule) -> Made {
    if m.attr(ins, "is_host_transfer") == Some("true") {
        return Made {
            origin: Origin::Host,
            primitive: ins.metadata().op_name.map(|o| primitive(o).to_owned()),
            basis: "`is_host_transfer=true`: a transfer between the device and the host".into(),
        };
    }
    let Some(op_name) = ins.metadata().op_name else {
        return no_metadata(m, ins);
    };
    let p = primitive(op_name);
    if let Some((_, f)) = WRITTEN.iter().find(|(w, _)| *w == p) {
        return Made {
            origin: Origin::Written,
            primitive: Some(p.to_owned()),
            basis: format!("its op_name `{op_name}` names `{p}`, the primitive `{f}` emits"),
        };
    }
    let reduces = matches!(rule.opcode, "all-reduce" | "reduce-scatter");
    if reduces && REDUCING.contains(&p) {
        return Made {
            origin: Origin::Reduction,
            primitive: Some(p.to_owned()),
            basis: format!(
                "{} {} with op_name `{op_name}`: no collective primitive, so the partitioner made it, to finish `{p}`'s reduction across the devices that each hold part of the reduced axis",
                if rule.opcode.starts_with('a') {
                    "an"
                } else {
                    "a"
                },
                rule.opcode
            ),
        };
    }
    Made {
        origin: Origin::Reshard,
        primitive: Some(p.to_owned()),
        basis: format!(
            "op_name `{op_name}` names no collective primitive, so the partitioner made it, moving data between two shardings for `{p}`: its operand's and the one `{p}` needs, which may be an output sharding carried back onto it (the dump does not say which)"
        ),
    }
}

/// The origin of a collective with no metadata: the output sharding when
/// its result only reaches the module's output (through instructions with
/// no metadata either), else unknown.
fn no_metadata(m: &Module<'_>, ins: &Instruction<'_>) -> Made {
    let users = m.users(ins);
    let host = !users.is_empty()
        && users.iter().all(|&u| {
            m.instruction(u)
                .is_some_and(|i| m.attr(i, "is_host_transfer") == Some("true"))
        });
    if host {
        return Made {
            origin: Origin::Host,
            primitive: None,
            basis: "no metadata, and its result only goes to a transfer to the host (`is_host_transfer=true`): the partitioner made it to bring the data to the device that sends it".into(),
        };
    }
    if only_to_output(m, ins) {
        return Made {
            origin: Origin::OutputSharding,
            primitive: None,
            basis: "no metadata, and its result only reaches the module's output: the partitioner made it to give the output the sharding asked for; no Python line can be named".into(),
        };
    }
    Made {
        origin: Origin::Unknown,
        primitive: None,
        basis: "no metadata: the partitioner made it, for a reason the dump does not name".into(),
    }
}

/// Whether every path from `ins` (through its done, copies and layout
/// changes that carry no metadata) ends at the entry's ROOT.
fn only_to_output(m: &Module<'_>, ins: &Instruction<'_>) -> bool {
    let mut stack = vec![ins.id];
    let mut seen = 0usize;
    let mut reached = false;
    while let Some(id) = stack.pop() {
        seen += 1;
        if seen > 64 {
            return false;
        }
        let Some(i) = m.instruction(id) else {
            return false;
        };
        if i.is_root && i.computation == m.entry {
            reached = true;
            continue;
        }
        let users = m.users(i);
        if users.is_empty() {
            return false;
        }
        for &u in users {
            let Some(ui) = m.instruction(u) else {
                return false;
            };
            let passes = ui.metadata().op_name.is_none()
                && (ui.opcode.ends_with("-done")
                    || !has_row(ui.opcode)
                    || matches!(ui.opcode, "copy" | "fusion" | "transpose"));
            if !(passes || ui.is_root && ui.computation == m.entry) {
                return false;
            }
            stack.push(u);
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_origin_has_a_row() {
        use super::Origin::*;
        for o in [Written, Reduction, Reshard, OutputSharding, Host, Unknown] {
            assert!(o.row().is_some(), "{o:?}");
        }
    }
}
