//! From Python lines to kernels: which source lines a lowered dump's ops
//! and a compiled dump's kernels came from, and which kernels each line
//! landed in.
//!
//! [`map`] takes the text of a lowered dump (StableHLO printed with debug
//! info, a jaxpr, or HLO before optimization) and of a compiled HLO dump of
//! the same function; either may be empty. It answers with a [`SourceMap`]:
//!
//! - **kernels**: every instruction of the compiled entry computation that
//!   runs work, in run order (the order of the scheduled text): fusions,
//!   custom calls, copies, collectives, loops, conditionals, calls and
//!   unfused ops. Not kernels: `parameter`, `constant` (data baked into the
//!   executable), `tuple`, `get-tuple-element` and `bitcast` (they only
//!   rename or regroup buffers, no code runs), `after-all`,
//!   `add-dependency`, `opt-barrier` and `domain` (ordering only), and the
//!   `*-done`/`*-update` halves of asynchronous pairs (they wait for the
//!   `*-start`, which is counted). A kernel's source lines are those of its
//!   own `metadata` and of every instruction in the computations it calls,
//!   transitively (fused computations, `to_apply` reducers, `while` bodies
//!   and conditions, branches, async callees).
//! - **lowered ops**: the lowered dump's ops (StableHLO ops doing work, not
//!   `return`s, `call`s included; jaxpr equations; HLO instructions other than parameters),
//!   each with its source lines (`loc(...)` through `#loc` aliases,
//!   `callsite`, `fused` and named locations; HLO `metadata`).
//! - **source lines**: each `(file, line)` either side names, with its
//!   lowered ops and kernels.
//!
//! A lowered op belongs to a kernel when both name the same JAX op (the
//! last part of the op path, `mul` of `jit(f)/mul`) on the same source
//! line, or when the lowered op's path is a `/`-prefix of the kernel's (a
//! `call` of `jit(f)/jit(_normal)` whose callee XLA inlined into kernels
//! named `jit(f)/jit(_normal)/.../add`): the lowering and the compiler copy
//! the op path and the traceback from one place. Ops that the compiler
//! folded away keep their source line and match no kernel.
//!
//! When both dumps name source lines but share none, they are of two
//! different functions, and [`SourceMap::mismatch`] says so (adding the two
//! entry signatures when they differ beyond dropped parameters). A side
//! without any source line (a jaxpr printed without source info, HLO
//! lowered without metadata) proves nothing either way: a signature alone
//! differs for one function too (PRNG keys, JAX dropping unused
//! arguments), so no mismatch is claimed.
//!
//! Linear in the texts: each kernel walks what it calls, which in a dump as
//! XLA prints it adds up to the dump's size; a hostile text whose kernels
//! share huge computations stops at a budget linear in its size, and
//! [`SourceMap::truncated`] says so. Never recurses on input nesting beyond
//! a fixed depth; never panics.

mod compiled;
pub mod json;
mod lowered;

use compiled::{Compiled, EntryIns, normalize_hlo_shape, shape_bytes, split_top};
pub use lowered::LoweredFormat;
use std::collections::HashMap;

/// A line of the user's source.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceLine {
    /// The file, as the dump prints it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
}

/// One op of the lowered dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoweredOp {
    /// 1-based line in the lowered dump.
    pub line: usize,
    /// Its result (`%3`), output variable (`c`) or instruction name.
    pub name: String,
    /// The op (`stablehlo.add`, the primitive `add`, the opcode `add`).
    pub op: String,
    /// The JAX op path its location names (`jit(f)/add`), if any.
    pub op_name: Option<String>,
    /// Indices into [`SourceMap::source_lines`].
    pub source_lines: Vec<usize>,
    /// Indices into [`SourceMap::kernels`].
    pub kernels: Vec<usize>,
}

/// One kernel of the compiled entry computation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// The instruction's name, without `%`.
    pub name: String,
    /// 1-based line in the compiled dump.
    pub line: usize,
    /// Its opcode (`fusion`, `custom-call`, `copy-start`, `reduce`, ...).
    pub opcode: String,
    /// What it is: `fusion`, `custom-call`, `copy`, `collective`, `loop`,
    /// `conditional`, `call`, `async` or `op` (an unfused op).
    pub kind: &'static str,
    /// The fusion kind (`kLoop`, `kCustom __triton`), custom call target or
    /// collective opcode, when there is one.
    pub detail: Option<String>,
    /// Distinct opcodes run inside (of the computations it calls, or its
    /// own opcode), `parameter` left out.
    pub ops: Vec<String>,
    /// Result shape, without layout.
    pub shape: String,
    /// Operand shapes, without layout (`?` when an operand is not found).
    pub operand_shapes: Vec<String>,
    /// Whether it launches work itself. `false` for control flow (a
    /// `while`, `conditional` or `call`): not a kernel, as the fusion chapter
    /// defines it; the kernels of what it calls run on each trip, and the
    /// row is kept for the source lines they carry.
    pub kernel: bool,
    /// Bytes of all operands, from their shapes (`None` for control flow).
    pub bytes_read: Option<u64>,
    /// Bytes of the result, from its shape: for `copy-start`, the copy
    /// only, not the aliased source in its tuple (`None` for control flow).
    pub bytes_written: Option<u64>,
    /// Indices into [`SourceMap::source_lines`].
    pub source_lines: Vec<usize>,
    /// Indices into [`SourceMap::lowered_ops`].
    pub lowered_ops: Vec<usize>,
}

/// One source line and what came from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineEntry {
    /// The line.
    pub source: SourceLine,
    /// Indices into [`SourceMap::lowered_ops`].
    pub lowered_ops: Vec<usize>,
    /// Indices into [`SourceMap::kernels`].
    pub kernels: Vec<usize>,
}

/// The map between a lowered and a compiled dump; see the module docs.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SourceMap {
    /// The lowered dump's format, `None` when empty or not recognised.
    pub lowered_format: Option<LoweredFormat>,
    /// The compiled dump's entry computation.
    pub entry: Option<String>,
    /// Parameter shapes of the lowered entry function, when printed.
    pub lowered_signature: Option<Vec<String>>,
    /// Parameter shapes of the compiled entry computation.
    pub compiled_signature: Option<Vec<String>>,
    /// Lowered ops, in text order.
    pub lowered_ops: Vec<LoweredOp>,
    /// Kernels, in run order.
    pub kernels: Vec<Kernel>,
    /// Source lines, by file then line.
    pub source_lines: Vec<LineEntry>,
    /// Why the two dumps cannot be of one function, when they cannot.
    pub mismatch: Option<String>,
    /// Whether the walk through called computations stopped at its budget
    /// (kernels sharing huge computations, which only a hostile text has):
    /// some kernels' source lines and ops may then be incomplete.
    pub truncated: bool,
}

impl SourceMap {
    /// How many rows of [`SourceMap::kernels`] are kernels (control flow
    /// left out), as the fusion chapter counts them.
    pub fn kernel_count(&self) -> usize {
        self.kernels.iter().filter(|k| k.kernel).count()
    }

    /// The kernels whose provenance is lost.
    pub fn kernels_without_source(&self) -> impl Iterator<Item = &Kernel> + '_ {
        self.kernels.iter().filter(|k| k.source_lines.is_empty())
    }

    /// Lowered ops without a source line.
    pub fn lowered_without_source(&self) -> impl Iterator<Item = &LoweredOp> + '_ {
        self.lowered_ops
            .iter()
            .filter(|o| o.source_lines.is_empty())
    }

    /// The source line of an index.
    pub fn line(&self, i: usize) -> Option<&SourceLine> {
        self.source_lines.get(i).map(|e| &e.source)
    }
}

/// Work allowed per instruction line of the compiled dump for walking what
/// kernels call (see [`SourceMap::truncated`]).
const WORK_PER_LINE: usize = 64;

/// Entry instructions that get a row: kernels, and control flow for the
/// source lines of what it calls. One definition with the analysis'
/// (`is_free_opcode`), so the map and the course count alike.
fn is_kernel(opcode: &str) -> bool {
    !crate::analysis::is_free_opcode(opcode) || crate::analysis::is_control_opcode(opcode)
}

const COLLECTIVES: &[&str] = &[
    "all-reduce",
    "all-gather",
    "reduce-scatter",
    "all-to-all",
    "collective-permute",
    "collective-broadcast",
    "ragged-all-to-all",
    "send",
    "recv",
];

/// What a kernel is, and its detail.
fn kind_of(ins: &EntryIns<'_>) -> (&'static str, Option<String>) {
    let base = ins.opcode.strip_suffix("-start").unwrap_or(ins.opcode);
    match base {
        "fusion" => {
            let k = ins.fusion_kind.unwrap_or("");
            let d = match ins.config_kind {
                Some(c) => format!("{k} {c}").trim().to_owned(),
                None => k.to_owned(),
            };
            ("fusion", (!d.is_empty()).then_some(d))
        }
        "custom-call" => ("custom-call", ins.target.map(str::to_owned)),
        "copy" => ("copy", None),
        "while" => ("loop", None),
        "conditional" => ("conditional", None),
        "call" => ("call", None),
        "async" => ("async", None),
        b if COLLECTIVES.contains(&b) => ("collective", Some(b.to_owned())),
        _ => ("op", None),
    }
}

/// The last part of a JAX op path: `jit(f)/mul` → `mul`.
fn op_leaf(op_name: &str) -> &str {
    op_name.rsplit('/').next().unwrap_or(op_name)
}

/// Builds the source map of a lowered and a compiled dump (either may be
/// empty). Never panics.
pub fn map<'a>(lowered_text: &'a str, compiled_text: &'a str) -> SourceMap {
    let lw = lowered::read(lowered_text);
    let cp = Compiled::read(compiled_text, false);

    let mut lines: Vec<(&str, u32)> = Vec::new();
    let mut line_index: HashMap<(&str, u32), usize> = HashMap::new();
    let mut intern = |l: (&'a str, u32)| -> usize {
        let next = lines.len();
        let i = *line_index.entry(l).or_insert(next);
        if i == next {
            lines.push(l);
        }
        i
    };

    // Each distinct compiled provenance, resolved once: op leaf and line.
    let key_res: Vec<(&str, Option<usize>)> = cp
        .keys
        .iter()
        .map(|k| (k.0, cp.location(k).map(&mut intern)))
        .collect();

    // Shapes of entry instructions, by name, for operands.
    let shapes: HashMap<&str, &str> = cp.entry_ins.iter().map(|i| (i.name, i.shape)).collect();

    let mut kernels = Vec::new();
    // Kernels by (op leaf, line) and by (op path or a `/` prefix of it, line).
    let mut by_leaf: HashMap<(&str, usize), Vec<usize>> = HashMap::new();
    let mut by_prefix: HashMap<(&str, usize), Vec<usize>> = HashMap::new();
    let mut stamp = vec![0usize; cp.comps.len()];
    let mut epoch = 0usize;
    // Walking what kernels call costs about the dump's size when each
    // kernel calls its own computations, as XLA prints them; kernels
    // sharing huge computations (only a hostile text) stop at this budget.
    let budget = WORK_PER_LINE
        .saturating_mul(cp.instructions)
        .saturating_add(1 << 16);
    let mut work = 0usize;
    let mut truncated = false;
    for ins in cp.entry_ins.iter().filter(|i| is_kernel(i.opcode)) {
        epoch += 1;
        let mut keys: Vec<usize> = ins.key.into_iter().collect();
        let mut ops: Vec<&str> = Vec::new();
        let mut stack: Vec<usize> = ins
            .callees
            .iter()
            .filter_map(|c| cp.comp_index.get(c).copied())
            .collect();
        while let Some(ci) = stack.pop() {
            let Some(s) = stamp.get_mut(ci) else { continue };
            if *s == epoch {
                continue;
            }
            *s = epoch;
            let Some(comp) = cp.comps.get(ci) else {
                continue;
            };
            work = work.saturating_add(1 + comp.keys.len() + comp.callees.len());
            if work > budget {
                truncated = true;
                break;
            }
            keys.extend_from_slice(&comp.keys);
            for op in &comp.ops {
                if ops.len() < 64 && !ops.contains(op) {
                    ops.push(op);
                }
            }
            stack.extend(
                comp.callees
                    .iter()
                    .filter_map(|c| cp.comp_index.get(c).copied()),
            );
        }
        if ins.callees.is_empty() {
            ops.push(ins.opcode);
        }
        keys.sort_unstable();
        keys.dedup();
        let k = kernels.len();
        let mut src: Vec<usize> = Vec::new();
        for key in &keys {
            if let Some(&(path, Some(line))) = key_res.get(*key) {
                src.push(line);
                let add =
                    |key: (&'a str, usize), table: &mut HashMap<(&'a str, usize), Vec<usize>>| {
                        let v = table.entry(key).or_default();
                        if v.last() != Some(&k) {
                            v.push(k);
                        }
                    };
                add((op_leaf(path), line), &mut by_leaf);
                for (i, _) in path.match_indices('/') {
                    if let Some(prefix) = path.get(..i) {
                        add((prefix, line), &mut by_prefix);
                    }
                }
                add((path, line), &mut by_prefix);
            }
        }
        src.sort_unstable();
        src.dedup();
        let operands = split_top(ins.operands);
        let operand_shapes: Vec<String> = operands
            .iter()
            .map(|o| match o.rsplit_once(' ') {
                Some((shape, _)) => normalize_hlo_shape(shape),
                None => shapes
                    .get(crate::analysis::scan::strip_pct(o))
                    .map_or_else(|| "?".to_owned(), |s| normalize_hlo_shape(s)),
            })
            .collect();
        let kernel = !crate::analysis::is_free_opcode(ins.opcode);
        let bytes_read = operand_shapes
            .iter()
            .try_fold(0u64, |acc, s| acc.checked_add(shape_bytes(s)?))
            .filter(|_| kernel);
        let written_shape = match ins.opcode {
            // (destination, aliased source, context): only the copy is written.
            "copy-start" => split_top(ins.shape.trim_start_matches('(').trim_end_matches(')'))
                .first()
                .map_or(ins.shape, |s| *s),
            _ => ins.shape,
        };
        let bytes_written = shape_bytes(&normalize_hlo_shape(written_shape)).filter(|_| kernel);
        let (kind, detail) = kind_of(ins);
        kernels.push(Kernel {
            name: ins.name.to_owned(),
            line: ins.line,
            opcode: ins.opcode.to_owned(),
            kind,
            detail,
            ops: ops.iter().map(|s| (*s).to_owned()).collect(),
            shape: normalize_hlo_shape(ins.shape),
            operand_shapes,
            kernel,
            bytes_read,
            bytes_written,
            source_lines: src,
            lowered_ops: Vec::new(),
        });
    }

    let mut lowered_ops = Vec::with_capacity(lw.ops.len());
    for (oi, op) in lw.ops.iter().enumerate() {
        let mut src: Vec<usize> = op.at.lines.iter().map(|&l| intern(l)).collect();
        src.sort_unstable();
        src.dedup();
        let mut ks: Vec<usize> = Vec::new();
        if let Some(name) = op.at.name {
            for &line in &src {
                for v in [
                    by_leaf.get(&(op_leaf(name), line)),
                    by_prefix.get(&(name, line)),
                ]
                .into_iter()
                .flatten()
                {
                    ks.extend_from_slice(v);
                }
            }
        }
        ks.sort_unstable();
        ks.dedup();
        for &k in &ks {
            if let Some(kernel) = kernels.get_mut(k) {
                kernel.lowered_ops.push(oi);
            }
        }
        lowered_ops.push(LoweredOp {
            line: op.line,
            name: op.name.to_owned(),
            op: op.op.to_owned(),
            op_name: op.at.name.map(str::to_owned),
            source_lines: src,
            kernels: ks,
        });
    }

    // Sort the lines (file, then line) and renumber.
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&i| lines.get(i).copied());
    let mut renum = vec![0usize; lines.len()];
    for (new, &old) in order.iter().enumerate() {
        if let Some(r) = renum.get_mut(old) {
            *r = new;
        }
    }
    let mut source_lines: Vec<LineEntry> = order
        .iter()
        .filter_map(|&i| lines.get(i))
        .map(|&(file, line)| LineEntry {
            source: SourceLine {
                file: file.to_owned(),
                line,
            },
            lowered_ops: Vec::new(),
            kernels: Vec::new(),
        })
        .collect();
    let renumber = |v: &mut Vec<usize>| {
        for x in v.iter_mut() {
            *x = renum.get(*x).copied().unwrap_or(0);
        }
        v.sort_unstable();
    };
    for (oi, op) in lowered_ops.iter_mut().enumerate() {
        renumber(&mut op.source_lines);
        for &l in &op.source_lines {
            if let Some(e) = source_lines.get_mut(l) {
                e.lowered_ops.push(oi);
            }
        }
    }
    for (ki, k) in kernels.iter_mut().enumerate() {
        renumber(&mut k.source_lines);
        for &l in &k.source_lines {
            if let Some(e) = source_lines.get_mut(l) {
                e.kernels.push(ki);
            }
        }
    }

    let lowered_signature = lw.signature;
    let compiled_signature = cp.signature();
    let mismatch = mismatch(
        &lowered_ops,
        &kernels,
        lowered_signature.as_deref(),
        compiled_signature.as_deref(),
    );
    SourceMap {
        lowered_format: lw.format,
        entry: cp.entry_name.map(str::to_owned),
        lowered_signature,
        compiled_signature,
        lowered_ops,
        kernels,
        source_lines,
        mismatch,
        truncated,
    }
}

/// Whether a lowered and a compiled entry signature can be of one
/// function: equal, or the compiled one the lowered one with some
/// parameters left out (JAX drops unused arguments when lowering, a jaxpr
/// keeps them).
fn compatible(lowered: &[String], compiled: &[String]) -> bool {
    let mut it = lowered.iter();
    compiled.iter().all(|s| it.any(|l| l == s))
}

/// Whether the two sides are two different functions, and why.
fn mismatch(
    ops: &[LoweredOp],
    kernels: &[Kernel],
    lsig: Option<&[String]>,
    csig: Option<&[String]>,
) -> Option<String> {
    let llines: std::collections::HashSet<usize> = ops
        .iter()
        .flat_map(|o| o.source_lines.iter().copied())
        .collect();
    let mut klines = kernels
        .iter()
        .flat_map(|k| k.source_lines.iter())
        .peekable();
    // Without source lines on both sides there is nothing to compare: a
    // signature alone differs for one function too (PRNG keys, constants).
    if llines.is_empty() || klines.peek().is_none() {
        return None;
    }
    if klines.any(|l| llines.contains(l)) {
        return None;
    }
    let sig = |s: &[String]| format!("({})", s.join(", "));
    Some(match (lsig, csig) {
        (Some(a), Some(b)) if !compatible(a, b) => format!(
            "the two dumps are of different functions: no source line in common, and their entry signatures differ (lowered {}, compiled {})",
            sig(a),
            sig(b)
        ),
        _ => "the two dumps are of different functions: no source line in common".to_owned(),
    })
}

#[cfg(test)]
mod tests;
