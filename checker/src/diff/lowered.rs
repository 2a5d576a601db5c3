//! The diff of two programs before the compiler's decisions: two lowered
//! modules (StableHLO, MHLO, or HLO before optimization) or two jaxprs,
//! compared as the operations each source line lowered to. Equal counts on
//! every line say that the program is the one written before: whatever two
//! compiled dumps of it differ in, the compiler decided.

use super::item::base_name;
use crate::program::lowered::{self, Lowered};
use std::collections::BTreeMap;

/// Where an op came from: the file's last path component and the line, or
/// `None` without a location.
pub type LineKey = Option<(String, u32)>;

/// The operations of one source line on both sides, as (op, count), sorted
/// by op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineDiff {
    /// The source line.
    pub at: LineKey,
    /// A's operations.
    pub a: Vec<(String, usize)>,
    /// B's operations.
    pub b: Vec<(String, usize)>,
}

/// The diff of two lowered programs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoweredDiff {
    /// The format both are in (`stablehlo`, `hlo`, `jaxpr`).
    pub format: &'static str,
    /// Operations in A and in B.
    pub ops: (usize, usize),
    /// Source lines whose operations are the same on both sides.
    pub lines_same: usize,
    /// Source lines whose operations differ, in line order (no location last).
    pub changed: Vec<LineDiff>,
    /// The entry function's parameter shapes, when they differ.
    pub signature: Option<(Vec<String>, Vec<String>)>,
    /// Whether either side's ops carry no source line at all (then the
    /// comparison is of the whole program's operations, not per line).
    pub unlocated: bool,
}

impl LoweredDiff {
    /// Whether the two are the same program, as far as their operations per
    /// source line and their signatures tell.
    pub fn same_program(&self) -> bool {
        self.changed.is_empty() && self.signature.is_none()
    }
}

/// Operations per source line.
fn per_line(l: &Lowered<'_>) -> BTreeMap<(bool, LineKey), BTreeMap<String, usize>> {
    let mut out: BTreeMap<(bool, LineKey), BTreeMap<String, usize>> = BTreeMap::new();
    for op in &l.ops {
        let at = op
            .at
            .lines
            .first()
            .map(|&(file, line)| (base_name(file).to_string(), line));
        *out.entry((at.is_none(), at))
            .or_default()
            .entry(op.op.to_string())
            .or_default() += 1;
    }
    out
}

/// The diff of two lowered texts, or an error (one sentence) when they are
/// not in one format.
pub fn diff(a: &str, b: &str) -> Result<LoweredDiff, String> {
    let la = lowered::read(a);
    let lb = lowered::read(b);
    let format = match (la.format, lb.format) {
        (Some(x), Some(y)) if x == y => x.as_str(),
        (x, y) => {
            let name = |f: Option<lowered::LoweredFormat>| f.map_or("unreadable", |f| f.as_str());
            return Err(format!(
                "A is {}, B is {}: diff two programs in one format",
                name(x),
                name(y)
            ));
        }
    };
    let pa = per_line(&la);
    let pb = per_line(&lb);
    let mut keys: Vec<&(bool, LineKey)> = pa.keys().chain(pb.keys()).collect();
    keys.sort();
    keys.dedup();
    let empty = BTreeMap::new();
    let mut changed = Vec::new();
    let mut lines_same = 0;
    for k in keys {
        let x = pa.get(k).unwrap_or(&empty);
        let y = pb.get(k).unwrap_or(&empty);
        if x == y {
            lines_same += 1;
            continue;
        }
        let list = |m: &BTreeMap<String, usize>| m.iter().map(|(o, n)| (o.clone(), *n)).collect();
        changed.push(LineDiff {
            at: k.1.clone(),
            a: list(x),
            b: list(y),
        });
    }
    let signature = match (&la.signature, &lb.signature) {
        (Some(x), Some(y)) if x != y => Some((x.clone(), y.clone())),
        _ => None,
    };
    let unlocated = [&la, &lb]
        .iter()
        .any(|l| !l.ops.is_empty() && l.ops.iter().all(|o| o.at.lines.is_empty()));
    Ok(LoweredDiff {
        format,
        ops: (la.ops.len(), lb.ops.len()),
        lines_same,
        changed,
        signature,
        unlocated,
    })
}
