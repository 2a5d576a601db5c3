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

pub mod json;
use crate::program::lowered;

use crate::kernels::{KernelKind, KernelTree};
pub use crate::program::lowered::LoweredFormat;
use crate::program::{self, Module};
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
    /// What it is, from the one vocabulary of kernel kinds
    /// ([`crate::kernels::KINDS`]); the map prints its `map_name`
    /// (`fusion`, `custom-call`, `copy`, `collective`, `loop`,
    /// `conditional`, `call`, `async` or `op`).
    pub kind: KernelKind,
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
    /// For a collective, which sharding made it
    /// ([`crate::collectives::origin::ORIGINS`]'s id): where a partitioner's
    /// collective points to no Python line, this says why it is there.
    pub origin: Option<&'static str>,
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

    /// Where the lowered text carries no source location at all (it has
    /// ops, and none names a line), how to print it with them, for its
    /// format (calls checked on the pinned JAX); `None` otherwise.
    pub fn unlocated_hint(&self) -> Option<&'static str> {
        if self.lowered_ops.is_empty()
            || self.lowered_ops.iter().any(|o| !o.source_lines.is_empty())
        {
            return None;
        }
        Some(match self.lowered_format? {
            LoweredFormat::Stablehlo => {
                "the lowered text carries no source locations: print it with `jax.jit(f).lower(*args).as_text(debug_info=True)`"
            }
            LoweredFormat::Hlo => {
                "the lowered text carries no source locations: print it with `jax.jit(f).lower(*args).as_text(dialect=\"hlo\", debug_info=True)`"
            }
            LoweredFormat::Jaxpr => {
                "the jaxpr carries no source locations: print it with `jax.make_jaxpr(f)(*args).pretty_print(source_info=True)`"
            }
        })
    }

    /// The source line of an index.
    pub fn line(&self, i: usize) -> Option<&SourceLine> {
        self.source_lines.get(i).map(|e| &e.source)
    }
}

/// Source lines interned while building: (file, line) to an index.
#[derive(Default)]
struct Lines<'a> {
    lines: Vec<(&'a str, u32)>,
    index: HashMap<(&'a str, u32), usize>,
}

impl<'a> Lines<'a> {
    fn intern(&mut self, l: (&'a str, u32)) -> usize {
        let next = self.lines.len();
        let i = *self.index.entry(l).or_insert(next);
        if i == next {
            self.lines.push(l);
        }
        i
    }
}

/// Kernels by (op leaf, line) and by (op path or a `/` prefix of it, line).
#[derive(Default)]
struct KernelIndex<'a> {
    by_leaf: HashMap<(&'a str, usize), Vec<usize>>,
    by_prefix: HashMap<(&'a str, usize), Vec<usize>>,
}

impl<'a> KernelIndex<'a> {
    fn add(table: &mut HashMap<(&'a str, usize), Vec<usize>>, key: (&'a str, usize), k: usize) {
        let v = table.entry(key).or_default();
        if v.last() != Some(&k) {
            v.push(k);
        }
    }

    /// Records that kernel `k` came from op `path` on source line `line`.
    fn record(&mut self, path: &'a str, line: usize, k: usize) {
        Self::add(&mut self.by_leaf, (op_leaf(path), line), k);
        for (i, _) in path.match_indices('/') {
            if let Some(prefix) = path.get(..i) {
                Self::add(&mut self.by_prefix, (prefix, line), k);
            }
        }
        Self::add(&mut self.by_prefix, (path, line), k);
    }

    /// The kernels a lowered op named `name` on the lines `src` belongs to.
    fn kernels_of(&self, name: &str, src: &[usize]) -> Vec<usize> {
        let mut ks: Vec<usize> = Vec::new();
        for &line in src {
            for v in [
                self.by_leaf.get(&(op_leaf(name), line)),
                self.by_prefix.get(&(name, line)),
            ]
            .into_iter()
            .flatten()
            {
                ks.extend_from_slice(v);
            }
        }
        ks.sort_unstable();
        ks.dedup();
        ks
    }
}

/// Step 1: the compiled entry's kernel rows, with their source lines
/// interned and indexed by op path.
fn compiled_kernels<'a>(
    m: &Module<'a>,
    tree: &KernelTree<'a>,
    lines: &mut Lines<'a>,
    index: &mut KernelIndex<'a>,
) -> Vec<Kernel> {
    // Each distinct provenance, resolved once: op path and line.
    let resolved: Vec<(&str, Option<usize>)> = (0..tree.provenance.len())
        .filter_map(|k| {
            let path = tree.provenance.get(k)?.0;
            Some((path, tree.location(m, k).map(|l| lines.intern(l))))
        })
        .collect();
    let mut out = Vec::with_capacity(tree.kernels.len());
    for (k, row) in tree.kernels.iter().enumerate() {
        let Some(ins) = m.instruction(row.instruction) else {
            continue;
        };
        let mut src: Vec<usize> = Vec::new();
        for key in &row.provenance {
            if let Some(&(path, Some(line))) = resolved.get(*key) {
                src.push(line);
                index.record(path, line, k);
            }
        }
        src.sort_unstable();
        src.dedup();
        out.push(Kernel {
            name: ins.name.to_owned(),
            line: ins.line,
            opcode: ins.opcode.to_owned(),
            kind: row.kind,
            detail: row.detail.clone(),
            ops: row.ops.clone(),
            shape: row.shape.clone(),
            operand_shapes: row.operand_shapes.clone(),
            kernel: row.launches,
            bytes_read: row.bytes_read,
            bytes_written: row.bytes_written,
            source_lines: src,
            lowered_ops: Vec::new(),
            origin: collective_origin(m, ins),
        });
    }
    out
}

/// Which sharding made a collective (a synchronous one or a pair's start).
fn collective_origin(m: &Module<'_>, ins: &program::Instruction<'_>) -> Option<&'static str> {
    let (op, phase) = program::collective_op(ins.opcode)?;
    if phase == program::Phase::Done {
        return None;
    }
    let rule = crate::collectives::wire::rule_of(op.opcode)?;
    Some(crate::collectives::origin::origin(m, ins, rule).origin.id())
}

/// Step 2: the lowered ops, with their source lines interned and the
/// kernels they belong to (each kernel told its lowered ops back).
fn lowered_ops<'a>(
    lw: &program::lowered::Lowered<'a>,
    lines: &mut Lines<'a>,
    index: &KernelIndex<'a>,
    kernels: &mut [Kernel],
) -> Vec<LoweredOp> {
    let mut out = Vec::with_capacity(lw.ops.len());
    for (oi, op) in lw.ops.iter().enumerate() {
        let mut src: Vec<usize> = op.at.lines.iter().map(|&l| lines.intern(l)).collect();
        src.sort_unstable();
        src.dedup();
        let ks = match op.at.name {
            Some(name) => index.kernels_of(name, &src),
            None => Vec::new(),
        };
        for &k in &ks {
            if let Some(kernel) = kernels.get_mut(k) {
                kernel.lowered_ops.push(oi);
            }
        }
        out.push(LoweredOp {
            line: op.line,
            name: op.name.to_owned(),
            op: op.op.to_owned(),
            op_name: op.at.name.map(str::to_owned),
            source_lines: src,
            kernels: ks,
        });
    }
    out
}

/// Step 3: the source lines sorted (file, then line), every index into
/// them renumbered, and each line told what came from it.
fn sorted_lines(
    lines: &Lines<'_>,
    ops: &mut [LoweredOp],
    kernels: &mut [Kernel],
) -> Vec<LineEntry> {
    let lines = &lines.lines;
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&i| lines.get(i).copied());
    let mut renum = vec![0usize; lines.len()];
    for (new, &old) in order.iter().enumerate() {
        if let Some(r) = renum.get_mut(old) {
            *r = new;
        }
    }
    let mut out: Vec<LineEntry> = order
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
    for (oi, op) in ops.iter_mut().enumerate() {
        renumber(&mut op.source_lines);
        for &l in &op.source_lines {
            if let Some(e) = out.get_mut(l) {
                e.lowered_ops.push(oi);
            }
        }
    }
    for (ki, k) in kernels.iter_mut().enumerate() {
        renumber(&mut k.source_lines);
        for &l in &k.source_lines {
            if let Some(e) = out.get_mut(l) {
                e.kernels.push(ki);
            }
        }
    }
    out
}

/// The last part of a JAX op path: `jit(f)/mul` → `mul`.
fn op_leaf(op_name: &str) -> &str {
    op_name.rsplit('/').next().unwrap_or(op_name)
}

/// Builds the source map of a lowered and a compiled dump (either may be
/// empty). Never panics.
pub fn map<'a>(lowered_text: &'a str, compiled_text: &'a str) -> SourceMap {
    let lw = lowered::read(lowered_text);
    let module = program::parse(compiled_text);
    let tree = KernelTree::build(&module);
    let mut lines = Lines::default();
    let mut index = KernelIndex::default();
    let mut kernels = compiled_kernels(&module, &tree, &mut lines, &mut index);
    let mut lowered_ops = lowered_ops(&lw, &mut lines, &index, &mut kernels);
    let source_lines = sorted_lines(&lines, &mut lowered_ops, &mut kernels);
    let lowered_signature = lw.signature;
    let compiled_signature = module.entry_signature();
    let mismatch = mismatch(
        &lowered_ops,
        &kernels,
        lowered_signature.as_deref(),
        compiled_signature.as_deref(),
    );
    SourceMap {
        lowered_format: lw.format,
        entry: module.entry_computation().map(|c| c.name.to_owned()),
        lowered_signature,
        compiled_signature,
        lowered_ops,
        kernels,
        source_lines,
        mismatch,
        truncated: tree.truncated,
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
