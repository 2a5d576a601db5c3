//! The diff of two programs before the compiler's decisions: two lowered
//! modules (StableHLO, MHLO, or HLO before optimization) or two jaxprs,
//! compared as the operations each source line lowered to. Equal counts on
//! every line say that the program is the one written before: whatever two
//! compiled dumps of it differ in, the compiler decided.

use super::item::base_name;
use crate::analysis::scan;
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
    /// The entry function's donated or aliased arguments (A's, B's), when
    /// they differ: how `jit` was called (`donate_argnums`), not an
    /// operation of the program.
    pub donation: Option<(Vec<String>, Vec<String>)>,
}

impl LoweredDiff {
    /// Whether the two are the same program, as far as their operations per
    /// source line and their signatures tell.
    pub fn same_program(&self) -> bool {
        self.changed.is_empty() && self.signature.is_none()
    }
}

/// What a custom call calls: `@tpu_custom_call` in StableHLO,
/// `custom_call_target="..."` in HLO; `None` for another op or a line
/// without one.
fn call_target(line: &str) -> Option<&str> {
    for (open, close) in [
        ("custom_call @", None),
        ("custom_call_target=\"", Some('"')),
        ("call_target_name = \"", Some('"')),
    ] {
        if let Some(at) = line.find(open) {
            let rest = &line[at + open.len()..];
            let end = match close {
                Some(c) => rest.find(c),
                None => rest.find(['(', ' ', '<', '{']),
            }
            .unwrap_or(rest.len());
            return Some(&rest[..end]).filter(|t| !t.is_empty());
        }
    }
    None
}

/// An op as the diff counts it: a custom call with what it calls (the
/// Triton and the Mosaic lowering of one `pallas_call` are other ops).
fn op_key(op: &crate::program::lowered::Op<'_>, lines: &[&str]) -> String {
    if op.op.ends_with("custom_call") || op.op == "custom-call" {
        let line = op.line.checked_sub(1).and_then(|i| lines.get(i)).copied();
        if let Some(t) = line.and_then(call_target) {
            return format!("{} @{t}", op.op);
        }
    }
    op.op.to_string()
}

/// The arguments of the entry function that are donated or aliased to an
/// output (`tf.aliasing_output = N`, `jax.buffer_donor = true`), as
/// `%arg0: tf.aliasing_output = 0`, in order.
fn donated(text: &str) -> Vec<String> {
    let Some(main) = scan::lines(text).find(|l| l.contains("func.func public @main(")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for part in main.split("%arg").skip(1) {
        let arg: String = part.chars().take_while(char::is_ascii_digit).collect();
        for attr in ["tf.aliasing_output = ", "jax.buffer_donor = "] {
            if let Some(at) = part.find(attr) {
                let v: String = part[at + attr.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect();
                out.push(format!("%arg{arg}: {attr}{v}"));
            }
        }
    }
    out
}

/// Operations per source line.
fn per_line(l: &Lowered<'_>, text: &str) -> BTreeMap<(bool, LineKey), BTreeMap<String, usize>> {
    let lines: Vec<&str> = scan::lines(text).collect();
    let mut out: BTreeMap<(bool, LineKey), BTreeMap<String, usize>> = BTreeMap::new();
    for op in &l.ops {
        let at = op
            .at
            .lines
            .first()
            .map(|&(file, line)| (base_name(file).to_string(), line));
        *out.entry((at.is_none(), at))
            .or_default()
            .entry(op_key(op, &lines))
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
    let pa = per_line(&la, a);
    let pb = per_line(&lb, b);
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
    let (da, db) = (donated(a), donated(b));
    Ok(LoweredDiff {
        donation: (da != db).then_some((da, db)),
        format,
        ops: (la.ops.len(), lb.ops.len()),
        lines_same,
        changed,
        signature,
        unlocated,
    })
}
