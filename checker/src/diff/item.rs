//! One side of a compiled diff: every row of the kernel tree (kernels and
//! control flow, depth first in run order) as an [`Item`] the matcher
//! compares, with what it computes (its provenance, normalized so that two
//! compiles of one program agree), its shapes and layout, and XLA's figures
//! from the ledger.
//!
//! Nothing here reads an instruction's or a computation's name, so a module
//! renamed consistently gives equal items.

use crate::cost::figures::Figures;
use crate::cost::ledger::Ledger;
use crate::kernels::{Kernel, KernelKind, KernelTree};
use crate::program::{CallRole, Module};
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
    /// Whether it carries any provenance.
    pub fn has_provenance(&self) -> bool {
        !self.op_names.is_empty() || !self.lines.is_empty()
    }
}

/// The items of a module, depth first in run order.
pub fn items<'a>(m: &Module<'a>, tree: &KernelTree<'a>, ledger: &Ledger<'a>) -> Vec<Item<'a>> {
    let figures: HashMap<_, _> = ledger.kernels.iter().map(|e| (e.id, e.xla)).collect();
    tree.walk()
        .into_iter()
        .filter_map(|(depth, k)| item(m, tree, k, depth, figures.get(&k.instruction).copied()))
        .collect()
}

fn item<'a>(
    m: &Module<'a>,
    tree: &KernelTree<'a>,
    k: &Kernel,
    depth: usize,
    xla: Option<Figures>,
) -> Option<Item<'a>> {
    let ins = m.instruction(k.instruction)?;
    let mut ops = k.ops.clone();
    // The tree lists the opcodes of what a row calls, and a row's own only
    // when it calls nothing: a bare `reduce` (or `sort`, `map`, ...) calls
    // its reducer, and runs itself too.
    if !ops.iter().any(|o| o == ins.opcode)
        && m.calls(ins).iter().all(|c| c.role == CallRole::ToApply)
    {
        ops.push(ins.opcode.to_string());
    }
    ops.sort_unstable();
    ops.dedup();
    let mut op_names: Vec<String> = k
        .provenance
        .iter()
        .filter_map(|&p| tree.provenance.get(p))
        .map(|&(name, ..)| normalize_op_name(name))
        .filter(|n| !n.is_empty())
        .collect();
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
        op_names,
        lines,
        xla,
    })
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
