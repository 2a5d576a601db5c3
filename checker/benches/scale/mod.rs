//! The scaled compiled dumps the benches read: a real compiled dump under
//! `fixtures/`, grown by repeating its non-entry computations under new
//! names (`%name_rK`) and its entry computation's instructions, so that the
//! result is still a module XLA's parser accepts.
//!
//! Two sources: the largest compiled dump (a TPU module: layouts, tiles,
//! many fusions), and the CPU compiled dump with the most
//! `metadata={op_name=... stack_frame_id=N}` clauses, the shape of a large
//! model's CPU module, where nearly every instruction carries metadata. For
//! the latter, [`scale_scoped`] also puts each copy under its own
//! `jax.named_scope` (`op_name="jit(fn)/layer_K/..."`), so the distinct
//! source ops grow with the module as they do in a real model.

#![allow(dead_code, clippy::unwrap_used)]

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;

pub(crate) fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub(crate) fn largest_compiled_dump() -> Option<PathBuf> {
    let mut best: Option<(u64, PathBuf)> = None;
    for fam in std::fs::read_dir(workspace().join("fixtures"))
        .ok()?
        .flatten()
    {
        for f in std::fs::read_dir(fam.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = f.file_name().to_string_lossy().into_owned();
            if name.starts_with("compiled.") && name.ends_with(".hlo.txt") {
                let len = f.metadata().map(|m| m.len()).unwrap_or(0);
                if best.as_ref().is_none_or(|(l, _)| len > *l) {
                    best = Some((len, f.path()));
                }
            }
        }
    }
    best.map(|b| b.1)
}

/// The CPU compiled dump under `fixtures/` with the most
/// `stack_frame_id=` clauses (metadata on nearly every instruction).
pub(crate) fn metadata_heavy_cpu_dump() -> Option<PathBuf> {
    let mut best: Option<(usize, PathBuf)> = None;
    for fam in std::fs::read_dir(workspace().join("fixtures"))
        .ok()?
        .flatten()
    {
        let path = fam.path().join("compiled.cpu.hlo.txt");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let frames = text.matches("stack_frame_id=").count();
        if best.as_ref().is_none_or(|(n, _)| frames > *n) {
            best = Some((frames, path));
        }
    }
    best.filter(|b| b.0 > 0).map(|b| b.1)
}

/// Puts the op path of every `op_name="jit(f)/..."` on `line` under the
/// named scope `scope`, as `jax.named_scope(scope)` inside `f` prints it:
/// `op_name="jit(f)/SCOPE/..."`.
fn add_scope(line: &str, scope: &str) -> String {
    const KEY: &str = "op_name=\"";
    let mut out = String::with_capacity(line.len() + 16);
    let mut rest = line;
    while let Some(at) = rest.find(KEY) {
        let (head, tail) = rest.split_at(at + KEY.len());
        out.push_str(head);
        // The first path segment (`jit(f)`) ends at the first `/` or `"`;
        // a name without a path (a parameter's `op_name="x"`) is kept.
        let seg = tail.find(['/', '"']).unwrap_or(tail.len());
        out.push_str(&tail[..seg]);
        if tail[seg..].starts_with('/') {
            out.push('/');
            out.push_str(scope);
        }
        rest = &tail[seg..];
    }
    out.push_str(rest);
    out
}

/// Renames every `%name` in `line` whose name is in `names` (and, on a
/// computation header, every signature parameter `name:`) by appending `sfx`.
fn rename(
    line: &str,
    names: &HashSet<String>,
    keep: &HashSet<String>,
    sfx: &str,
    out: &mut String,
) {
    let b = line.as_bytes();
    let mut i = 0;
    let is_name = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'-';
    let header = line.trim_end().ends_with('{') && line.contains("->");
    while i < b.len() {
        let c = b[i];
        let prefixed = c == b'%';
        let start = if prefixed { i + 1 } else { i };
        if prefixed || (header && is_name(c) && (i == 0 || matches!(b[i - 1], b'(' | b' '))) {
            let mut e = start;
            while e < b.len() && is_name(b[e]) {
                e += 1;
            }
            let tok = &line[start..e];
            let sig_param = !prefixed && b.get(e) == Some(&b':');
            if e > start && (prefixed || sig_param) && names.contains(tok) && !keep.contains(tok) {
                out.push_str(&line[i..e]);
                out.push_str(sfx);
            } else {
                out.push_str(&line[i..e.max(i + 1)]);
            }
            i = e.max(i + 1);
        } else {
            let ch_len = line[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&line[i..i + ch_len]);
            i += ch_len;
        }
    }
    out.push('\n');
}

/// Scales a compiled module past `target_bytes` (see the module docs).
pub(crate) fn scale(text: &str, target_bytes: usize) -> String {
    scale_with(text, target_bytes, false)
}

/// [`scale`], with copy K of the computations and entry instructions under
/// the named scope `layer_K` (see the module docs).
pub(crate) fn scale_scoped(text: &str, target_bytes: usize) -> String {
    scale_with(text, target_bytes, true)
}

fn scale_with(text: &str, target_bytes: usize, scoped: bool) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let entry_at = lines.iter().position(|l| l.starts_with("ENTRY ")).unwrap();
    let first_comp = lines
        .iter()
        .position(|l| l.starts_with('%') && l.trim_end().ends_with('{'))
        .unwrap_or(entry_at);
    let entry_end = lines[entry_at..]
        .iter()
        .position(|l| l.trim() == "}")
        .map_or(lines.len(), |p| entry_at + p);
    let prelude = &lines[..first_comp];
    let comps = &lines[first_comp..entry_at];
    let entry_body = &lines[entry_at + 1..entry_end];
    let mut names = HashSet::new();
    let mut params = HashSet::new();
    for l in &lines[first_comp..entry_end] {
        let t = l
            .trim_start()
            .trim_start_matches("ROOT ")
            .trim_start_matches("ENTRY ");
        if let Some(rest) = t.strip_prefix('%') {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "_.-".contains(*c))
                .collect();
            if l.contains(" parameter(") && entry_body.contains(l) {
                params.insert(name.clone());
            }
            names.insert(name);
        }
        if t.trim_end().ends_with('{')
            && t.contains("->")
            && let Some(sig) = t.split_once('(').map(|x| x.1)
        {
            for p in sig.split(", ") {
                if let Some((n, _)) = p.split_once(':') {
                    names.insert(n.trim_start_matches('(').to_owned());
                }
            }
        }
    }
    let per_copy: usize = comps
        .iter()
        .chain(entry_body)
        .map(|l| l.len() + 1)
        .sum::<usize>()
        .max(1);
    let copies = target_bytes / per_copy + 1;
    let mut out = String::with_capacity(target_bytes + text.len() * 2);
    for l in prelude {
        out.push_str(l);
        out.push('\n');
    }
    let none = HashSet::new();
    let scope = |l: &str, k: usize| {
        if scoped {
            add_scope(l, &format!("layer_{k}"))
        } else {
            l.to_owned()
        }
    };
    for k in 0..copies {
        let sfx = format!("_r{k}");
        for l in comps {
            rename(&scope(l, k), &names, &none, &sfx, &mut out);
        }
    }
    out.push_str(lines[entry_at]);
    out.push('\n');
    for k in 0..copies {
        let sfx = format!("_r{k}");
        let last = k + 1 == copies;
        for l in entry_body {
            let is_param = l.contains(" parameter(");
            if is_param && k > 0 {
                continue;
            }
            let l2 = if last {
                scope(l, k)
            } else {
                scope(l, k).replacen("ROOT ", "", 1)
            };
            rename(&l2, &names, &params, &sfx, &mut out);
        }
    }
    out.push_str("}\n");
    let _ = write!(out, "");
    out
}
