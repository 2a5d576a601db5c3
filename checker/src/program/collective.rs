//! Collectives as printed: which instruction is one ([`COLLECTIVE_OPS`],
//! one row per opcode), its half of a start/done pair ([`Phase`]), and its
//! attributes read into values ([`Collective`]): `replica_groups` in the
//! three forms XLA prints (a list `{{0,1},{2,3}}`, an iota list
//! `[2,2]<=[4]` or `[2,2]<=[2,2]T(1,0)`, a mesh and the axes the groups
//! span `mesh['axis_0'=2,'axis_1'=2] {'axis_1'}`), `source_target_pairs`,
//! `channel_id`, `use_global_device_ids`, `dimensions`.
//!
//! Every value keeps its raw text. A `-done` prints none of these: its
//! attributes are its start's ([`Module::collective_start`]).

use super::iota::{self, Iota};
use super::model::{InstrId, Instruction, Module};
use super::text;

/// Who a collective exchanges data with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peers {
    /// Devices in groups: `replica_groups=`.
    Groups,
    /// Sources and targets: `source_target_pairs=`.
    Pairs,
    /// A channel (`send`, `recv`: a peer or the host).
    Channel,
}

/// One collective opcode and what its line carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectiveOp {
    /// The opcode without `-start`/`-done`.
    pub opcode: &'static str,
    /// Who it exchanges data with.
    pub peers: Peers,
    /// Whether it prints `dimensions=` (the dimension it gathers, scatters
    /// or splits).
    pub dimensions: bool,
    /// Whether it combines values with a reducer (`to_apply=`).
    pub reduces: bool,
    /// Whether the bare opcode is already the first half of a pair
    /// (`send` ... `send-done`).
    pub split: bool,
}

/// Every collective opcode, one row each.
pub const COLLECTIVE_OPS: &[CollectiveOp] = &[
    CollectiveOp {
        opcode: "all-reduce",
        peers: Peers::Groups,
        dimensions: false,
        reduces: true,
        split: false,
    },
    CollectiveOp {
        opcode: "all-gather",
        peers: Peers::Groups,
        dimensions: true,
        reduces: false,
        split: false,
    },
    CollectiveOp {
        opcode: "reduce-scatter",
        peers: Peers::Groups,
        dimensions: true,
        reduces: true,
        split: false,
    },
    CollectiveOp {
        opcode: "all-to-all",
        peers: Peers::Groups,
        dimensions: true,
        reduces: false,
        split: false,
    },
    CollectiveOp {
        opcode: "ragged-all-to-all",
        peers: Peers::Groups,
        dimensions: false,
        reduces: false,
        split: false,
    },
    CollectiveOp {
        opcode: "collective-broadcast",
        peers: Peers::Groups,
        dimensions: false,
        reduces: false,
        split: false,
    },
    CollectiveOp {
        opcode: "collective-permute",
        peers: Peers::Pairs,
        dimensions: false,
        reduces: false,
        split: false,
    },
    CollectiveOp {
        opcode: "send",
        peers: Peers::Channel,
        dimensions: false,
        reduces: false,
        split: true,
    },
    CollectiveOp {
        opcode: "recv",
        peers: Peers::Channel,
        dimensions: false,
        reduces: false,
        split: true,
    },
];

/// Which half of a start/done pair an instruction is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// One synchronous instruction (`all-reduce`).
    Sync,
    /// The start of a pair (`all-reduce-start`, `send`).
    Start,
    /// The end of a pair (`all-reduce-done`, `send-done`).
    Done,
}

/// The collective an opcode is, and its phase; `None` for any other
/// opcode.
pub fn collective_op(opcode: &str) -> Option<(&'static CollectiveOp, Phase)> {
    let (base, phase) = match (opcode.strip_suffix("-start"), opcode.strip_suffix("-done")) {
        (Some(b), _) => (b, Phase::Start),
        (_, Some(b)) => (b, Phase::Done),
        _ => (opcode, Phase::Sync),
    };
    let op = COLLECTIVE_OPS.iter().find(|c| c.opcode == base)?;
    match (op.split, phase) {
        // `send-start` is not an opcode; the bare `send` starts the pair.
        (true, Phase::Start) => None,
        (true, Phase::Sync) => Some((op, Phase::Start)),
        _ => Some((op, phase)),
    }
}

/// One axis a mesh form's groups span: `'axis_1'`, or a part of one,
/// `'axis_1':(1)2` (pre-size 1, size 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AxisRef<'a> {
    /// The axis' name, without quotes.
    pub name: &'a str,
    /// A sub-axis: (pre-size, size).
    pub sub: Option<(u64, u64)>,
}

/// `mesh['axis_0'=2,'axis_1'=2] {'axis_1'}`: the groups are the devices
/// that differ only along `over`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshGroups<'a> {
    /// The mesh's axes and sizes, major first.
    pub axes: Vec<(&'a str, u64)>,
    /// `device_ids=(...)`, when the mesh's devices are not `0..n` in order.
    pub device_ids: Option<Vec<u64>>,
    /// The axes each group spans, in order.
    pub over: Vec<AxisRef<'a>>,
}

/// How `replica_groups=` was printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupsForm<'a> {
    /// Every group listed: `{{0,1},{2,3}}` (`{}`: one group of all
    /// devices).
    Listed(Vec<Vec<u64>>),
    /// An iota list `[groups,size]<=[...]`: each row a group.
    Iota(Iota),
    /// A mesh and the axes the groups span.
    Mesh(MeshGroups<'a>),
    /// A form this reader does not know.
    Unread,
}

/// A collective's `replica_groups=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaGroups<'a> {
    /// The value as printed.
    pub raw: &'a str,
    /// What it says.
    pub form: GroupsForm<'a>,
}

impl<'a> ReplicaGroups<'a> {
    /// Reads a `replica_groups=` value.
    pub fn parse(raw: &'a str) -> Self {
        let t = raw.trim();
        let form = if t.starts_with('{') {
            listed(t).map_or(GroupsForm::Unread, GroupsForm::Listed)
        } else if t.starts_with('[') {
            match Iota::parse_prefix(t) {
                Some((i, rest)) if rest.trim().is_empty() && i.dims.len() == 2 => {
                    GroupsForm::Iota(i)
                }
                _ => GroupsForm::Unread,
            }
        } else if let Some(m) = t.strip_prefix("mesh") {
            mesh(m).map_or(GroupsForm::Unread, GroupsForm::Mesh)
        } else {
            GroupsForm::Unread
        };
        ReplicaGroups { raw, form }
    }

    /// `(groups, devices per group)` as the form states them, without
    /// expanding it; `None` for `{}` (the count is the module's) and an
    /// unread form.
    pub fn shape(&self) -> Option<(u64, u64)> {
        match &self.form {
            GroupsForm::Listed(g) if g.is_empty() => None,
            GroupsForm::Listed(g) => Some((
                u64::try_from(g.len()).ok()?,
                u64::try_from(g.first()?.len()).ok()?,
            )),
            GroupsForm::Iota(i) => Some((*i.dims.first()?, *i.dims.get(1)?)),
            GroupsForm::Mesh(m) => {
                let total = iota::product(&m.axes.iter().map(|a| a.1).collect::<Vec<_>>())?;
                let size = m.over.iter().try_fold(1u64, |acc, a| {
                    let n = match a.sub {
                        Some((_, size)) => size,
                        None => m.axes.iter().find(|x| x.0 == a.name)?.1,
                    };
                    acc.checked_mul(n)
                })?;
                (size > 0 && total % size == 0).then_some((total / size, size))
            }
            GroupsForm::Unread => None,
        }
    }

    /// Every group's device (or replica) ids; `None` for an unread form,
    /// a mesh whose axes this reader cannot expand (two parts of one
    /// axis), more than [`iota::MAX_DEVICES`] devices or
    /// [`iota::MAX_RANK`] axes. `{}` gives no
    /// group: one group of all devices.
    pub fn groups(&self) -> Option<Vec<Vec<u64>>> {
        let (flat, size) = match &self.form {
            GroupsForm::Listed(g) => return Some(g.clone()),
            GroupsForm::Iota(i) => (i.devices()?, *i.dims.get(1)?),
            GroupsForm::Mesh(m) => (mesh_devices(m)?, self.shape()?.1),
            GroupsForm::Unread => return None,
        };
        let size = usize::try_from(size).ok().filter(|&s| s > 0)?;
        Some(flat.chunks(size).map(<[u64]>::to_vec).collect())
    }
}

/// The devices of a mesh form, grouped axes last (XLA's
/// `MeshAxesReplicaGroupList`): each mesh axis that a sub-axis `(pre)size`
/// refers to is viewed as `[pre, size, rest]`, then the axes not spanned
/// come first and the spanned ones follow in the order printed.
fn mesh_devices(m: &MeshGroups<'_>) -> Option<Vec<u64>> {
    if m.axes.len() > iota::MAX_RANK || m.over.len() > iota::MAX_RANK {
        return None;
    }
    let mut sizes = Vec::new();
    let mut spanned = vec![usize::MAX; m.over.len()];
    for &(name, size) in &m.axes {
        let refs: Vec<usize> = (0..m.over.len())
            .filter(|&k| m.over.get(k).is_some_and(|a| a.name == name))
            .collect();
        match refs.as_slice() {
            [] => sizes.push(size),
            [k] => match m.over.get(*k)?.sub {
                None => {
                    *spanned.get_mut(*k)? = sizes.len();
                    sizes.push(size);
                }
                Some((pre, part)) => {
                    let rest = size.checked_div(pre.checked_mul(part)?)?;
                    sizes.push(pre);
                    *spanned.get_mut(*k)? = sizes.len();
                    sizes.extend([part, rest]);
                }
            },
            _ => return None,
        }
    }
    if spanned.contains(&usize::MAX) {
        return None;
    }
    let mut perm: Vec<usize> = (0..sizes.len()).filter(|i| !spanned.contains(i)).collect();
    perm.extend(&spanned);
    let n = iota::product(&sizes)?;
    match &m.device_ids {
        Some(ids) => iota::transpose_flat(&mut ids.iter().copied(), &sizes, &perm),
        None => iota::transpose_flat(&mut (0..n), &sizes, &perm),
    }
}

/// `{{0,1},{2,3}}`: the lists inside the outer braces.
fn listed(t: &str) -> Option<Vec<Vec<u64>>> {
    let inner = t.strip_prefix('{')?.strip_suffix('}')?;
    let mut out = Vec::new();
    let mut ok = true;
    text::for_each_top(inner, |part| {
        match part
            .strip_prefix('{')
            .and_then(|p| p.strip_suffix('}'))
            .and_then(iota::numbers)
        {
            Some(g) => out.push(g),
            None => ok = false,
        }
    });
    ok.then_some(out)
}

/// `['axis_0'=2,'axis_1'=2] {'axis_1'}` (after `mesh`), with an optional
/// `, device_ids=(...)` after the bracket.
fn mesh(s: &str) -> Option<MeshGroups<'_>> {
    let inner = s.strip_prefix('[')?;
    let close = inner.find(']')?;
    let mut axes = Vec::new();
    for part in inner.get(..close)?.split(',') {
        let (name, size) = part.split_once('=')?;
        axes.push((unquote(name), size.trim().parse().ok()?));
    }
    let mut rest = inner.get(close + 1..)?.trim_start();
    let mut device_ids = None;
    if let Some(d) = rest.strip_prefix(',') {
        let d = d.trim_start().strip_prefix("device_ids=(")?;
        let end = d.find(')')?;
        let ids: Vec<u64> = d
            .get(..end)?
            .split(|c: char| !c.is_ascii_digit())
            .filter(|p| !p.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        device_ids = Some(ids);
        rest = d.get(end + 1..)?.trim_start();
    }
    let over_text = rest.strip_prefix('{')?.strip_suffix('}')?;
    let mut over = Vec::new();
    for part in over_text
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        over.push(axis_ref(part)?);
    }
    Some(MeshGroups {
        axes,
        device_ids,
        over,
    })
}

/// `'axis_1'` or `'axis_1':(1)2`.
fn axis_ref(part: &str) -> Option<AxisRef<'_>> {
    let (name, sub) = match part.rfind(":(") {
        Some(at) => {
            let tail = part.get(at + 2..)?;
            let (pre, size) = tail.split_once(')')?;
            (
                part.get(..at)?,
                Some((pre.trim().parse().ok()?, size.trim().parse().ok()?)),
            )
        }
        None => (part, None),
    };
    Some(AxisRef {
        name: unquote(name),
        sub,
    })
}

/// A mesh axis name without its quotes.
fn unquote(s: &str) -> &str {
    s.trim().trim_matches(|c| c == '\'' || c == '"')
}

/// A collective's `source_target_pairs=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceTargetPairs<'a> {
    /// The value as printed.
    pub raw: &'a str,
    /// (source, target) pairs, in order; `None` when unread.
    pub pairs: Option<Vec<(u64, u64)>>,
}

impl<'a> SourceTargetPairs<'a> {
    /// Reads a `source_target_pairs=` value (`{{0,1},{1,2}}`).
    pub fn parse(raw: &'a str) -> Self {
        let pairs = listed(raw.trim()).and_then(|l| {
            l.into_iter()
                .map(|p| match p.as_slice() {
                    [s, t] => Some((*s, *t)),
                    _ => None,
                })
                .collect()
        });
        SourceTargetPairs { raw, pairs }
    }
}

/// A collective instruction's attributes, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collective<'a> {
    /// Its row.
    pub op: &'static CollectiveOp,
    /// Which half of a pair it is.
    pub phase: Phase,
    /// `replica_groups=`.
    pub replica_groups: Option<ReplicaGroups<'a>>,
    /// `source_target_pairs=`.
    pub source_target_pairs: Option<SourceTargetPairs<'a>>,
    /// `channel_id=`.
    pub channel_id: Option<u64>,
    /// `use_global_device_ids=true`: group members are global device ids.
    pub use_global_device_ids: bool,
    /// `dimensions={...}`.
    pub dimensions: Option<Vec<u64>>,
    /// `is_host_transfer=true` (a `send`/`recv` to the host).
    pub is_host_transfer: bool,
}

impl<'a> Module<'a> {
    /// An instruction's collective, read from its own attributes; `None`
    /// when its opcode is not one of [`COLLECTIVE_OPS`].
    pub fn collective(&self, ins: &Instruction<'a>) -> Option<Collective<'a>> {
        let (op, phase) = collective_op(ins.opcode)?;
        let dims = self
            .attr(ins, "dimensions")
            .and_then(|d| iota::numbers(d.trim().strip_prefix('{')?.strip_suffix('}')?));
        Some(Collective {
            op,
            phase,
            replica_groups: self.attr(ins, "replica_groups").map(ReplicaGroups::parse),
            source_target_pairs: self
                .attr(ins, "source_target_pairs")
                .map(SourceTargetPairs::parse),
            channel_id: self
                .attr(ins, "channel_id")
                .and_then(|c| c.trim().parse().ok()),
            use_global_device_ids: self.attr(ins, "use_global_device_ids") == Some("true"),
            dimensions: dims,
            is_host_transfer: self.attr(ins, "is_host_transfer") == Some("true"),
        })
    }

    /// The start a collective's `-done` ends: its operand, when that is
    /// the same collective's start.
    pub fn collective_start(&self, done: &Instruction<'a>) -> Option<InstrId> {
        let (op, Phase::Done) = collective_op(done.opcode)? else {
            return None;
        };
        let id = self.operands(done).first()?.id?;
        let start = self.instruction(id)?;
        matches!(collective_op(start.opcode), Some((o, Phase::Start)) if o.opcode == op.opcode)
            .then_some(id)
    }
}
