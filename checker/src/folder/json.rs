//! The JSON of `mdbook-dumplab folder --json` and of the page's
//! `folder-index` / `folder-module` requests, written by hand (the wasm
//! build has no serde).
//!
//! ```text
//! {"modules": [MODULE], "unknown": [path], "problems": [{"path", "message"}]}
//! MODULE = {"id": "module_0000", "name": "jit_fn", "cl": "cl_933746096"|null,
//!   "files": [{"path", "kind", "size", "parsed": bool}],
//!   "passes": [{"step", "pipeline", "pass"|null, "next"|null, "path",
//!               "changed": bool|null, "delta": DELTA|null}],
//!   "memory": {...}|null}
//! DELTA = {"instructions": {"before", "after", "added": NAMES, "removed": NAMES},
//!   "kernels": {"before", "after", "added": NAMES, "removed": NAMES},
//!   "copies" | "transposes" | "collectives": {"before", "after", "new": NAMES},
//!   "fusions_formed": {"count", "fusions": [{"name", "kind"|null}]}}
//! NAMES = {"count": N, "names": [first 50]}
//! ```
//!
//! `unknown` lists the files outside any module (a module's files of no
//! known kind are in its `files`, kind `unknown`). `changed` is null when
//! the file before it is missing or unreadable; `delta` is null unless
//! `changed` is true. Fields the files cannot give are null, never 0. In
//! the index alone (`folder-index`), every `changed`, `delta` and `memory`
//! is null and `parsed` says whether the kind is parsed and the file is
//! within the limits.

use super::index::{Entry, Index};
use super::passes::{Delta, Names, Step};
use super::{Folder, memory_json};
use crate::sourcemap::json::push_str;
use std::fmt::Write;

fn opt_str(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => push_str(out, s),
        None => out.push_str("null"),
    }
}

fn list<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    mut f: impl FnMut(&mut String, T),
) {
    out.push('[');
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        f(out, x);
    }
    out.push(']');
}

fn names(out: &mut String, n: &Names<'_>) {
    let _ = write!(out, "{{\"count\":{},\"names\":", n.count);
    list(out, &n.names, |o, s| push_str(o, s));
    out.push('}');
}

/// A delta's object (see the module docs).
pub fn push_delta(out: &mut String, d: &Delta<'_>) {
    let _ = write!(
        out,
        "{{\"instructions\":{{\"before\":{},\"after\":{},\"added\":",
        d.instructions.0, d.instructions.1
    );
    names(out, &d.added);
    out.push_str(",\"removed\":");
    names(out, &d.removed);
    let _ = write!(
        out,
        "}},\"kernels\":{{\"before\":{},\"after\":{},\"added\":",
        d.kernels.0, d.kernels.1
    );
    names(out, &d.kernels_added);
    out.push_str(",\"removed\":");
    names(out, &d.kernels_removed);
    out.push('}');
    for g in &d.groups {
        let _ = write!(
            out,
            ",\"{}\":{{\"before\":{},\"after\":{},\"new\":",
            g.group.name, g.before, g.after
        );
        names(out, &g.new);
        out.push('}');
    }
    let _ = write!(
        out,
        ",\"fusions_formed\":{{\"count\":{},\"fusions\":",
        d.fusions_formed_count
    );
    list(out, &d.fusions_formed, |o, (name, kind)| {
        o.push_str("{\"name\":");
        push_str(o, name);
        o.push_str(",\"kind\":");
        opt_str(o, *kind);
        o.push('}');
    });
    out.push_str("}}");
}

fn file(out: &mut String, e: &Entry<'_>, parsed: bool) {
    out.push_str("{\"path\":");
    push_str(out, e.path);
    out.push_str(",\"kind\":");
    push_str(out, e.name.kind.as_str());
    let _ = write!(out, ",\"size\":{},\"parsed\":{parsed}}}", e.size);
}

/// One module's object: from the index alone (`folder` `None`: no
/// `changed`, `delta` nor `memory`), or from a folder read with its texts.
pub fn push_module(out: &mut String, index: &Index<'_>, folder: Option<&Folder<'_>>, m: usize) {
    let Some(mf) = index.modules.get(m) else {
        out.push_str("null");
        return;
    };
    out.push_str("{\"id\":");
    push_str(out, mf.module.id);
    out.push_str(",\"name\":");
    push_str(out, mf.module.name);
    out.push_str(",\"cl\":");
    opt_str(out, mf.module.cl);
    out.push_str(",\"files\":");
    list(out, &mf.files, |o, &i| {
        if let Some(e) = index.entries.get(i) {
            let parsed = match folder {
                Some(f) => f.parsed(i),
                None => e.name.kind.parsed() && e.skipped.is_none(),
            };
            file(o, e, parsed);
        }
    });
    out.push_str(",\"passes\":");
    let steps: &[Step<'_>] = folder
        .and_then(|f| f.stories.get(m))
        .map_or(&[], |s| &s.steps);
    list(out, mf.passes.iter().enumerate(), |o, (k, &i)| {
        let Some(e) = index.entries.get(i) else {
            o.push_str("null");
            return;
        };
        let p = e.name.pass;
        let _ = write!(o, "{{\"step\":{},\"pipeline\":", p.map_or(0, |p| p.step));
        opt_str(o, p.map(|p| p.pipeline));
        o.push_str(",\"pass\":");
        opt_str(o, p.and_then(|p| p.pass));
        o.push_str(",\"next\":");
        opt_str(o, p.and_then(|p| p.next));
        o.push_str(",\"path\":");
        push_str(o, e.path);
        let step = steps.get(k);
        o.push_str(",\"changed\":");
        match step.and_then(|s| s.changed) {
            Some(c) => o.push_str(if c { "true" } else { "false" }),
            None => o.push_str("null"),
        }
        o.push_str(",\"delta\":");
        match step.and_then(|s| s.delta.as_ref()) {
            Some(d) => push_delta(o, d),
            None => o.push_str("null"),
        }
        o.push('}');
    });
    out.push_str(",\"memory\":");
    match folder.and_then(|f| memory_json(f, m)) {
        Some(j) => out.push_str(&j),
        None => out.push_str("null"),
    }
    out.push('}');
}

/// The whole folder's object: from the index alone, or a folder read.
pub fn to_json(index: &Index<'_>, folder: Option<&Folder<'_>>) -> String {
    let mut out = String::with_capacity(256 + index.entries.len() * 128);
    out.push_str("{\"modules\":");
    list(&mut out, 0..index.modules.len(), |o, m| {
        push_module(o, index, folder, m)
    });
    out.push_str(",\"unknown\":");
    list(&mut out, &index.unknown, |o, &i| {
        push_str(o, index.entries.get(i).map_or("", |e| e.path))
    });
    out.push_str(",\"problems\":");
    list(&mut out, &index.problems, |o, p| {
        o.push_str("{\"path\":");
        push_str(o, &p.path);
        o.push_str(",\"message\":");
        push_str(o, &p.message);
        o.push('}');
    });
    out.push('}');
    out
}

/// `folder --json` for a folder read.
pub fn folder_json(folder: &Folder<'_>) -> String {
    to_json(&folder.index, Some(folder))
}
