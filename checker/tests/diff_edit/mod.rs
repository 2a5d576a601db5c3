//! Edits of real compiled dumps that the diff's properties are stated on,
//! shared by `tests/diff.rs`, `tests/diff_fuzz.rs` and the `diff` bench:
//! a consistent rename of every instruction and computation, built on the
//! names `dumplab::program::parse` read (definitions, operands, called
//! computations, `%name` anywhere, `scheduling_name`), checked by parsing
//! the result again; and one dead `copy` inserted into the entry
//! computation.

#![allow(dead_code, unreachable_pub)]

use dumplab::program::{self, Module, offset_in};
use std::collections::{HashMap, HashSet};

/// Whether `b` can be part of an HLO name.
fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

/// Every name the module defines: its instructions' and computations'.
fn defined<'a>(m: &Module<'a>) -> HashSet<&'a str> {
    m.instructions
        .iter()
        .map(|i| i.name)
        .chain(m.computations.iter().map(|c| c.name))
        .filter(|n| !n.is_empty())
        .collect()
}

/// The byte ranges of `text` that hold a name the module defines, and the
/// name: where the parser read it (definitions, operands, calls,
/// `scheduling_name`), the parameter names of computation signatures
/// (`(param_0: f32[8])`), and every `%name` token.
fn name_spans<'a>(text: &'a str, m: &Module<'a>) -> Vec<(usize, &'a str)> {
    let names = defined(m);
    let mut spans: Vec<(usize, &'a str)> = Vec::new();
    let mut at = |part: &'a str| {
        if names.contains(part)
            && let Some(o) = offset_in(text, part)
        {
            spans.push((o, part));
        }
    };
    for c in &m.computations {
        at(c.name);
    }
    for ins in &m.instructions {
        at(ins.name);
        for op in m.operands(ins) {
            at(op.name);
        }
        for call in m.calls(ins) {
            at(call.name);
        }
        if let Some(s) = ins.metadata().scheduling_name {
            at(s);
        }
    }
    for sig in m.computations.iter().filter_map(|c| c.signature) {
        let Some(base) = offset_in(text, sig) else {
            continue;
        };
        let sb = sig.as_bytes();
        let mut i = 0;
        while i < sb.len() {
            let start = i;
            while i < sb.len() && name_byte(sb[i]) {
                i += 1;
            }
            let tok = &sig[start..i];
            if i > start && sb.get(i) == Some(&b':') && names.contains(tok) {
                spans.push((base + start, &text[base + start..base + i]));
            }
            i += 1;
        }
    }
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let start = i + 1;
            let mut end = start;
            while end < b.len() && name_byte(b[end]) {
                end += 1;
            }
            if let Some(tok) = text.get(start..end)
                && names.contains(tok)
            {
                spans.push((start, tok));
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    spans.sort_unstable();
    spans.dedup();
    spans
}

/// A fresh name for the `k`-th distinct old name: its stem (the part
/// before a numeric `.N` suffix) and a number no dump uses, so the
/// renamed module reads like another compile of the same program.
fn fresh(old: &str, k: usize) -> String {
    let stem = match old.rsplit_once('.') {
        Some((s, n)) if !s.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => s,
        _ => old,
    };
    format!("{stem}.{}", 970_000 + k)
}

/// `text` with every instruction and computation renamed consistently
/// (numbered in reverse order of first definition, so that run order and
/// name order disagree). Panics (a test failure) when the renamed text does
/// not parse into the same module under the new names.
pub fn rename(text: &str) -> String {
    rename_with(text, fresh)
}

/// [`rename`] to names that keep nothing of the old ones (`n.K`): no
/// `fusion`, `wrapped_`, `fused_computation` or `region_` stems left.
pub fn rename_opaque(text: &str) -> String {
    rename_with(text, |_, k| format!("n.{k}"))
}

/// [`rename`] with the new name of the `k`-th distinct old name.
fn rename_with(text: &str, fresh: impl Fn(&str, usize) -> String) -> String {
    let m = program::parse(text);
    let mut order: Vec<&str> = Vec::new();
    let mut seen = HashSet::new();
    for n in m
        .computations
        .iter()
        .map(|c| c.name)
        .chain(m.instructions.iter().map(|i| i.name))
    {
        if !n.is_empty() && seen.insert(n) {
            order.push(n);
        }
    }
    let total = order.len();
    let map: HashMap<&str, String> = order
        .iter()
        .enumerate()
        .map(|(k, &n)| (n, fresh(n, total - k)))
        .collect();
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut last = 0;
    for (start, name) in name_spans(text, &m) {
        if start < last {
            continue;
        }
        out.push_str(&text[last..start]);
        out.push_str(&map[name]);
        last = start + name.len();
    }
    out.push_str(&text[last..]);
    check_renamed(&m, &program::parse(&out), &map);
    out
}

/// The renamed module is the original under the new names: the same
/// computations and instructions, every operand and call resolved alike.
fn check_renamed(a: &Module<'_>, b: &Module<'_>, map: &HashMap<&str, String>) {
    assert_eq!(a.computations.len(), b.computations.len(), "computations");
    assert_eq!(a.instructions.len(), b.instructions.len(), "instructions");
    assert_eq!(a.entry, b.entry, "entry");
    for (x, y) in a.computations.iter().zip(&b.computations) {
        assert_eq!(map[x.name], y.name, "computation renamed");
    }
    for (x, y) in a.instructions.iter().zip(&b.instructions) {
        if !x.name.is_empty() {
            assert_eq!(map[x.name], y.name, "instruction renamed");
        }
        let ids = |m: &Module<'_>, i| m.operands(i).iter().map(|o| o.id).collect::<Vec<_>>();
        assert_eq!(ids(a, x), ids(b, y), "operands of {}", x.name);
        let calls = |m: &Module<'_>, i| m.calls(i).iter().map(|c| c.id).collect::<Vec<_>>();
        assert_eq!(calls(a, x), calls(b, y), "calls of {}", x.name);
    }
    assert_eq!(a.unread.len(), b.unread.len(), "unread lines");
}

/// The name of the dead copy [`dead_copy`] inserts.
pub const DEAD: &str = "dead_copy.424242";

/// `text` with one dead `copy` of an entry parameter (of an array shape; of
/// another array value of the entry when no parameter is one) inserted just
/// before the entry's ROOT line, printed in the module's own style (`%`
/// before names or not, operand shapes or not). `None` when the entry has
/// no ROOT line or no array value to copy.
pub fn dead_copy(text: &str) -> Option<String> {
    let m = program::parse(text);
    let entry = m.entry_computation()?;
    let ins = m.instructions_of(m.entry?);
    let root = ins.iter().find(|i| i.is_root)?;
    let array = |i: &&program::Instruction<'_>| {
        !i.is_root && !i.shape_text.starts_with('(') && i.shape_text.contains('[')
    };
    let src = entry
        .params
        .iter()
        .filter_map(|&p| m.instruction(p))
        .find(array)
        .or_else(|| ins.iter().find(array))?;
    let shaped = ins
        .iter()
        .flat_map(|i| m.operands(i))
        .any(|o| o.shape.is_some());
    let pct = if root.percent { "%" } else { "" };
    let operand = if shaped {
        format!("{} {pct}{}", src.shape_text, src.name)
    } else {
        format!("{pct}{}", src.name)
    };
    let line_start = text[..offset_in(text, root.name)?]
        .rfind('\n')
        .map_or(0, |n| n + 1);
    let indent: String = text[line_start..]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    let new = format!("{indent}{pct}{DEAD} = {} copy({operand})\n", src.shape_text);
    Some(format!(
        "{}{new}{}",
        &text[..line_start],
        &text[line_start..]
    ))
}
