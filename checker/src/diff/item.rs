//! One side of a compiled diff: every row of the kernel tree (kernels and
//! control flow, depth first in run order) as an [`Item`] the matcher
//! compares, with what it computes (its provenance, normalized so that two
//! compiles of one program agree), its shapes and layout, and XLA's figures
//! from the ledger.
//!
//! Nothing here reads an instruction's or a computation's name, so a module
//! renamed consistently gives equal items.

use crate::cost::figures::Figures;
use crate::kernels::{Kernel, KernelKind, KernelTree};
use crate::program::Module;
use std::collections::HashMap;

/// One row of a side.
#[derive(Clone, Debug, PartialEq)]
pub struct Item<'a> {
    /// The instruction's name (shown, never compared).
    pub name: &'a str,
    /// Its 1-based line in the dump.
    pub line: usize,
    /// How deep in loops, branches and calls it is.
    pub depth: usize,
    /// What it is.
    pub kind: KernelKind,
    /// Its fusion kind, custom-call target or collective opcode.
    pub detail: Option<String>,
    /// The distinct opcodes it runs, sorted.
    pub ops: Vec<String>,
    /// Its result shape, without layout.
    pub shape: String,
    /// Its result shape as printed: layout, tiles and memory spaces.
    pub layout: &'a str,
    /// Its operand shapes, without layout.
    pub operand_shapes: Vec<String>,
    /// A fingerprint of what its instructions say beyond their opcodes and
    /// shapes, without names ([`details`] lists it): equal for two rows
    /// whose lists are equal.
    pub details: u64,
    /// The instruction (for [`details`] of a changed pair).
    pub id: crate::program::InstrId,
    /// The opcode of a fusion's root (`transpose` for a transpose fusion);
    /// its own opcode for any other row.
    pub root: &'a str,
    /// What it computes: the normalized `op_name`s of its provenance, sorted,
    /// each once.
    pub op_names: Vec<String>,
    /// Its source lines, as `file-name:line` (the file's last path
    /// component, so two checkouts agree), sorted, each once.
    pub lines: Vec<String>,
    /// XLA's figures of one run (`None` for control flow, which the ledger
    /// costs through what it runs).
    pub xla: Option<Figures>,
}

impl Item<'_> {
    /// Whether it is control flow (a loop, a conditional, a call), costed
    /// through the rows of what it runs, which are rows of their own.
    pub fn is_control(&self) -> bool {
        matches!(
            self.kind,
            KernelKind::Loop | KernelKind::Branch | KernelKind::Call
        )
    }

    /// Whether it carries any provenance.
    pub fn has_provenance(&self) -> bool {
        !self.op_names.is_empty() || !self.lines.is_empty()
    }
}

/// XLA's figures of several rows together, `None` unless XLA costs every
/// one of them (control flow counts nothing: it costs what it runs, rows
/// of their own).
pub fn sum(items: &[&Item<'_>]) -> Option<Figures> {
    let mut total = Figures::default();
    for i in items {
        if i.is_control() {
            continue;
        }
        let f = i.xla?;
        if f.bytes.unknown > 0 || f.flops.unknown > 0 {
            return None;
        }
        total += f;
    }
    Some(total)
}

/// The items of a module, depth first in run order.
pub fn items<'a>(
    m: &Module<'a>,
    tree: &KernelTree<'a>,
    figures: &HashMap<crate::program::InstrId, Figures>,
) -> Vec<Item<'a>> {
    // Each provenance's normalized op_names, made once for every row that
    // carries it.
    let mut names: Vec<Option<Vec<String>>> = vec![None; tree.provenance.len()];
    tree.walk()
        .into_iter()
        .filter_map(|(depth, k)| {
            item(
                m,
                tree,
                k,
                depth,
                figures.get(&k.instruction).copied(),
                &mut names,
            )
        })
        .collect()
}

/// The normalized op_names of provenance `p` (XLA joins the op_names of
/// the instructions it merged with `;`).
fn names_of<'n>(
    tree: &KernelTree<'_>,
    p: usize,
    cache: &'n mut [Option<Vec<String>>],
) -> &'n [String] {
    let Some(slot) = cache.get_mut(p) else {
        return &[];
    };
    slot.get_or_insert_with(|| {
        tree.provenance.get(p).map_or_else(Vec::new, |&(name, ..)| {
            name.split(';')
                .map(normalize_op_name)
                .filter(|n| !n.is_empty())
                .collect()
        })
    })
}

fn item<'a>(
    m: &Module<'a>,
    tree: &KernelTree<'a>,
    k: &Kernel,
    depth: usize,
    xla: Option<Figures>,
    names: &mut [Option<Vec<String>>],
) -> Option<Item<'a>> {
    let ins = m.instruction(k.instruction)?;
    let mut ops = k.ops.clone();
    // An op that calls a computation (`reduce`, `reduce-window`, `sort`)
    // lists what it calls; it runs itself too, as the fusion wrapping it
    // would.
    if matches!(k.kind, KernelKind::Op | KernelKind::Collective) {
        ops.push(ins.opcode.to_string());
    }
    ops.sort_unstable();
    ops.dedup();
    let mut op_names: Vec<String> = Vec::new();
    for &p in &k.provenance {
        op_names.extend_from_slice(names_of(tree, p, names));
    }
    op_names.sort_unstable();
    op_names.dedup();
    let lines: Vec<String> = tree
        .source_lines(m, k)
        .into_iter()
        .map(|(file, line)| format!("{}:{line}", base_name(file)))
        .collect();
    let mut lines = lines;
    lines.sort_unstable();
    lines.dedup();
    Some(Item {
        name: ins.name,
        line: ins.line,
        depth,
        kind: k.kind,
        detail: k.detail.clone(),
        ops,
        shape: k.shape.clone(),
        layout: ins.shape_text,
        operand_shapes: k.operand_shapes.clone(),
        details: fingerprint(m, ins, k.kind),
        id: ins.id,
        root: root_of(m, ins),
        op_names,
        lines,
        xla,
    })
}

/// Attributes that name instructions, or say nothing about what is
/// computed: left out of [`details`].
const NOT_DETAILS: &[&str] = &["control-predecessors", "frontend_attributes"];

/// How deep [`details`] follows called computations.
const DETAIL_DEPTH: usize = 4;

/// A literal this long is summarized by its length and a hash.
const LITERAL_CHARS: usize = 64;

/// FNV-1a over bytes.
pub(super) fn fnv(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// [`fnv`] over strings, each ended by a byte no UTF-8 text holds.
fn fnv_parts(parts: &[&str]) -> u64 {
    fnv(parts.iter().flat_map(|p| p.bytes().chain([0xff])))
}

/// A fingerprint of a row's [`details`], made without building them:
/// equal lists give equal fingerprints.
fn fingerprint(m: &Module<'_>, ins: &crate::program::Instruction<'_>, kind: KernelKind) -> u64 {
    let mut hashes = Vec::new();
    visit(m, ins, kind, &mut |opcode, key, value| {
        hashes.push(fnv_parts(&[opcode, key, value]));
    });
    hashes.sort_unstable();
    hashes.dedup();
    hashes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
        (h ^ x).wrapping_mul(0x100_0000_01b3)
    })
}

/// What a row's instructions say beyond their opcodes and shapes, without
/// names: each attribute as `opcode key=value` (`reduce dimensions={1}`,
/// `compare direction=LT`) and each constant's literal (`constant 2`), of
/// its own instruction and, for what is not control flow (whose regions
/// are rows of their own), of the computations it fuses or applies;
/// sorted, each once.
pub fn details(
    m: &Module<'_>,
    ins: &crate::program::Instruction<'_>,
    kind: KernelKind,
) -> Vec<String> {
    let mut out = Vec::new();
    visit(m, ins, kind, &mut |opcode, key, value| {
        out.push(if key.is_empty() {
            format!("{opcode} {value}")
        } else {
            format!("{opcode} {key}={value}")
        });
    });
    out.sort_unstable();
    out.dedup();
    out
}

/// Hands each detail of a row to `emit` as (opcode, key, value): a
/// constant's literal with an empty key.
fn visit(
    m: &Module<'_>,
    ins: &crate::program::Instruction<'_>,
    kind: KernelKind,
    emit: &mut dyn FnMut(&str, &str, &str),
) {
    instruction_details(m, ins, emit);
    let control = matches!(
        kind,
        KernelKind::Loop | KernelKind::Branch | KernelKind::Call | KernelKind::Async
    );
    if control {
        return;
    }
    let mut seen = Vec::new();
    let mut stack: Vec<(u32, usize)> = m
        .calls(ins)
        .iter()
        .filter_map(|c| c.id)
        .map(|c| (c, 1))
        .collect();
    while let Some((c, depth)) = stack.pop() {
        if depth > DETAIL_DEPTH || seen.contains(&c) {
            continue;
        }
        seen.push(c);
        for inner in m.instructions_of(c) {
            instruction_details(m, inner, emit);
            stack.extend(
                m.calls(inner)
                    .iter()
                    .filter_map(|x| x.id)
                    .map(|x| (x, depth + 1)),
            );
        }
    }
}

/// One instruction's attributes and literal, as [`details`] lists them.
fn instruction_details(
    m: &Module<'_>,
    ins: &crate::program::Instruction<'_>,
    emit: &mut dyn FnMut(&str, &str, &str),
) {
    for a in m.attrs(ins) {
        if !NOT_DETAILS.contains(&a.key) {
            emit(ins.opcode, a.key, a.value);
        }
    }
    if ins.opcode == "constant" {
        let lit = ins.operands_text().trim();
        if lit.chars().count() <= LITERAL_CHARS {
            emit("constant", "", lit);
        } else {
            let h = fnv_parts(&[lit]);
            emit(
                "constant",
                "",
                &format!("of {} characters, hash {h:016x}", lit.len()),
            );
        }
    }
}

/// The opcode of a fusion's root, else the instruction's own.
fn root_of<'a>(m: &Module<'a>, ins: &crate::program::Instruction<'a>) -> &'a str {
    if ins.opcode != "fusion" {
        return ins.opcode;
    }
    m.calls(ins)
        .iter()
        .filter_map(|c| c.id)
        .filter_map(|c| m.computation(c)?.root)
        .filter_map(|r| m.instruction(r))
        .map(|r| r.opcode)
        .next()
        .unwrap_or(ins.opcode)
}

/// A file's last path component.
pub fn base_name(file: &str) -> &str {
    file.rsplit(['/', '\\']).next().unwrap_or(file)
}

/// An `op_name` as two compiles of one program agree on it: the wrappers
/// `jit(NAME)` and `pjit(NAME)` left out (the function's name, and the
/// `jit(main)` older releases print), and each step's parameters
/// (`dot_general[dimension_numbers=...]`, printed by older releases) cut.
///
/// ```
/// use dumplab::diff::item::normalize_op_name;
/// assert_eq!(normalize_op_name("jit(softmax)/jit(main)/div"), "div");
/// assert_eq!(normalize_op_name("jit(f)/jvp(g)/dot_general[dimension_numbers=(([1], [0]), ([], []))]"), "jvp(g)/dot_general");
/// assert_eq!(normalize_op_name("x"), "x");
/// ```
pub fn normalize_op_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for step in split_steps(name) {
        let step = cut_params(step);
        if step.is_empty() || is_jit_wrapper(step) {
            continue;
        }
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(step);
    }
    out
}

/// The `/`-separated steps of an op path, not splitting inside brackets or
/// parentheses (`transpose(jvp(f))`, `[axes=(0, 1)]`).
fn split_steps(name: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in name.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '/' if depth == 0 => {
                out.push(&name[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&name[start..]);
    out
}

/// A step without its `[...]` parameters.
fn cut_params(step: &str) -> &str {
    match step.find('[') {
        Some(i) => &step[..i],
        None => step,
    }
}

fn is_jit_wrapper(step: &str) -> bool {
    (step.starts_with("jit(") || step.starts_with("pjit(")) && step.ends_with(')')
}
