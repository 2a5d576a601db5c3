//! The diff of two programs before the compiler's decisions: two lowered
//! modules (StableHLO, MHLO, or HLO before optimization) or two jaxprs,
//! compared as the operations each source line lowered to. Equal counts on
//! every line say that the program is the one written before: whatever two
//! compiled dumps of it differ in, the compiler decided.

use super::item::base_name;
use crate::analysis::scan;
use crate::program::lowered::{self, Lowered, LoweredFormat, Op};
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
    /// Whether the lines that differ hold, together, the same operations on
    /// both sides: the code moved to other lines (a docstring grew, or it is
    /// another file's), and the whole programs' operations are equal.
    pub moved: bool,
    /// The entry function's donated or aliased arguments (A's, B's), when
    /// they differ: how `jit` was called (`donate_argnums`), not an
    /// operation of the program.
    pub donation: Option<(Vec<String>, Vec<String>)>,
}

impl LoweredDiff {
    /// Whether the two are the same program, as far as their operations per
    /// source line and their signatures tell.
    pub fn same_program(&self) -> bool {
        (self.changed.is_empty() || self.moved) && self.signature.is_none()
    }
}

/// Lines an op's text may span (a jaxpr equation's parameters go on over
/// several lines).
const OP_LINES: usize = 8;

/// An op as the diff counts it: its text with the names of values and the
/// locations left out, so that two programs agree where they compute the
/// same (a custom call with what it calls, a reduction with its axes, a
/// constant with its value, each with its result type).
fn op_key(op: &Op<'_>, next: Option<usize>, lines: &[&str], format: LoweredFormat) -> String {
    let first = op.line.saturating_sub(1);
    // A jaxpr equation's parameters may go on over the next lines; an MLIR
    // or HLO op is one line (what follows is its region, ops of their own).
    let last = match format {
        LoweredFormat::Jaxpr => next
            .map_or(first + 1, |n| n.saturating_sub(1))
            .clamp(first + 1, first + OP_LINES),
        _ => first + 1,
    };
    let text: Vec<&str> = lines
        .get(first..last.min(lines.len()))
        .unwrap_or(&[])
        .iter()
        .map(|l| l.trim())
        .collect();
    let text = text.join(" ");
    let key = match format {
        LoweredFormat::Jaxpr => jaxpr_key(&text, op.op),
        _ => mlir_key(&text),
    };
    if key.is_empty() {
        return op.op.to_string();
    }
    if key.chars().count() > KEY_CHARS {
        // A kernel serialized into an attribute: compared whole, shown cut.
        let h = super::item::fnv(key.bytes());
        let cut: String = key.chars().take(KEY_CHARS).collect();
        return format!("{cut} … ({} characters, hash {h:016x})", key.len());
    }
    key
}

/// An op's text longer than this is shown cut (and compared by a hash).
const KEY_CHARS: usize = 160;

/// A StableHLO or HLO line without its result name, value names (`%3`,
/// `%arg0`, `%x.1`), a called private function's name (`call @relu`),
/// `loc(...)` and `metadata={...}`.
fn mlir_key(line: &str) -> String {
    let body = match line.find(" = ") {
        Some(at) if line.starts_with('%') || line.starts_with("ROOT") => &line[at + 3..],
        _ => line,
    };
    let callee = ["call @", "func.call @"]
        .iter()
        .find_map(|p| body.strip_prefix(p).map(|rest| (p.len(), rest)));
    let owned;
    let body = match callee {
        Some((n, rest)) => {
            let end = rest
                .find(|c: char| c == '(' || c.is_whitespace())
                .unwrap_or(rest.len());
            owned = format!("{}{}", &body[..n], &rest[end..]);
            owned.as_str()
        }
        None => body,
    };
    let mut out = String::with_capacity(body.len());
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if body[i..].starts_with("loc(") || body[i..].starts_with("metadata={") {
            i = skip_group(b, i);
            continue;
        }
        if b[i] == b'%' || (b[i] == b'#' && body[i..].starts_with("#loc")) {
            out.push('%');
            i += 1;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b'-' | b'#'))
            {
                i += 1;
            }
            continue;
        }
        let c = body[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A word without the memory address a printed Python object carries
/// (`0x7f1bc7e7db20>`), which differs from run to run.
fn without_address(word: &str) -> String {
    match word.find("0x") {
        Some(at) if word[at + 2..].starts_with(|c: char| c.is_ascii_hexdigit()) => {
            let end = word[at + 2..]
                .find(|c: char| !c.is_ascii_hexdigit())
                .map_or(word.len(), |e| at + 2 + e);
            format!("{}0x…{}", &word[..at], &word[end..])
        }
        _ => word.to_string(),
    }
}

/// The index after the bracketed group that starts at `i` (`loc(...)`,
/// `metadata={...}`), nesting followed.
fn skip_group(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && !matches!(b[i], b'(' | b'{' | b'[') {
        i += 1;
    }
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// A jaxpr equation without its variables' names: the output types, the
/// primitive with its parameters, and the literal inputs
/// (`:f32[256] = reduce_sum[axes=(1,)]`, `:f32[8] = mul 2.0:f32[]`).
fn jaxpr_key(eq: &str, prim: &str) -> String {
    let Some((lhs, rhs)) = eq.split_once(" = ") else {
        return String::new();
    };
    let outs: Vec<&str> = lhs
        .split_whitespace()
        .map(|v| v.split_once(':').map_or(v, |(_, t)| t))
        .collect();
    let rhs = rhs.trim_start();
    let Some(rest) = rhs.strip_prefix(prim) else {
        return String::new();
    };
    let (params, args) = if rest.starts_with('[') {
        let end = skip_group(rest.as_bytes(), 0);
        (&rest[..end], &rest[end..])
    } else {
        ("", rest)
    };
    let literals: Vec<&str> = args
        .split_whitespace()
        .filter(|t| t.starts_with(|c: char| c.is_ascii_digit() || c == '-'))
        .collect();
    let params: String = params
        .split_whitespace()
        .map(without_address)
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        ":{} = {prim}{params} {}",
        outs.join(" :"),
        literals.join(" ")
    )
    .trim_end()
    .to_string()
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
/// The ops of HLO text as the diff counts them, by line: result shape,
/// opcode, operand count, attributes without the computations they name,
/// a constant's literal (`f32[256]{0} reduce/2 dimensions={1}`).
fn hlo_keys(text: &str) -> std::collections::HashMap<usize, String> {
    let m = crate::program::parse(text);
    let mut out = std::collections::HashMap::new();
    for ins in &m.instructions {
        let mut key = format!(
            "{} {}/{}",
            ins.shape_text,
            ins.opcode,
            m.operands(ins).len()
        );
        for a in m.attrs(ins) {
            if a.key != "frontend_attributes" && a.key != "control-predecessors" {
                key.push_str(&format!(" {}={}", a.key, a.value));
            }
        }
        if ins.opcode == "constant" {
            key.push_str(&format!(" {}", ins.operands_text().trim()));
        }
        if let Some(t) = ins.custom_call_target() {
            key.push_str(&format!(" @{t}"));
        }
        out.insert(ins.line, key);
    }
    out
}

fn per_line(l: &Lowered<'_>, text: &str) -> BTreeMap<(bool, LineKey), BTreeMap<String, usize>> {
    let lines: Vec<&str> = scan::lines(text).collect();
    let format = l.format.unwrap_or(LoweredFormat::Stablehlo);
    let hlo = (format == LoweredFormat::Hlo).then(|| hlo_keys(text));
    let mut out: BTreeMap<(bool, LineKey), BTreeMap<String, usize>> = BTreeMap::new();
    for (n, op) in l.ops.iter().enumerate() {
        let next = l.ops.get(n + 1).map(|o| o.line).filter(|&x| x > op.line);
        let at = op
            .at
            .lines
            .first()
            .map(|&(file, line)| (base_name(file).to_string(), line));
        *out.entry((at.is_none(), at))
            .or_default()
            .entry(match hlo.as_ref().and_then(|h| h.get(&op.line)) {
                Some(k) => k.clone(),
                None => op_key(op, next, &lines, format),
            })
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
    fn whole(m: &BTreeMap<(bool, LineKey), BTreeMap<String, usize>>) -> BTreeMap<&str, usize> {
        let mut all: BTreeMap<&str, usize> = BTreeMap::new();
        for ops in m.values() {
            for (op, n) in ops {
                *all.entry(op.as_str()).or_default() += n;
            }
        }
        all
    }
    let moved = !changed.is_empty() && whole(&pa) == whole(&pb);
    Ok(LoweredDiff {
        moved,
        donation: (da != db).then_some((da, db)),
        format,
        ops: (la.ops.len(), lb.ops.len()),
        lines_same,
        changed,
        signature,
        unlocated,
    })
}
