//! The JSON of `mdbook-dumplab folder --json` and of the page's
//! `folder-index` / `folder-module` requests, written by hand (the wasm
//! build has no serde).
//!
//! ```text
//! {"modules": [MODULE], "unknown": [path], "problems": [{"path", "message"}]}
//! MODULE = {"id": "module_0000", "name": "jit_fn", "cl": "cl_933746096"|null,
//!   "files": [{"path", "kind", "size", "parsed": bool, "not_read": reason|null}],
//!   "passes": [{"step", "pipeline", "pass"|null, "next"|null, "path",
//!               "changed": bool|null, "delta": DELTA|null,
//!               "why": code|null, "note": sentence|null}],
//!   "memory": {...}|null}
//! DELTA = {"instructions": {"before", "after", "added": NAMES, "removed": NAMES},
//!   "kernels": {"before", "after", "added": NAMES, "removed": NAMES},
//!   "copies" | "transposes" | "collectives": {"before", "after", "new": NAMES},
//!   "fusions_formed": {"count", "fusions": [{"name", "kind"|null}]}}
//! NAMES = {"count": N, "names": [first 50]}
//! ```
//!
//! `folder --json --first X` prints `{"query", "module", "found": FOUND|null,
//! "final": path|null}` (`final`: the optimized module's file, when X is in
//! none of the numbered files but there),
//! FOUND = `{"path", "step"|null (null for before_optimizations), "pipeline",
//! "pass", "next", "matched": "instruction"|"opcode"|"fusion kind", "count",
//! "instructions": [{"name", "line"}], "previous": path|null,
//! "unread_before": [path]}`: `previous` is the file written before it (the
//! pass that made it ran after that one was written, no later than this
//! file's pass); `unread_before` the files not read between the last file
//! read without X and this one (X may first be in one of them: then the
//! pass that made it ran after the last file read without it). The object
//! ends with `"unread": [path]`, every story file
//! (`before_optimizations`, numbered) not read.
//!
//! `unknown` lists the files outside any module (a module's files of no
//! known kind are in its `files`, kind `unknown`). A file's `not_read` is
//! why it was not read (over a size limit, not text), null when it was.
//! `changed` is null when the file itself or the file before it is missing
//! or not read, and then `why` says which (`not-read`: this file,
//! `before-not-read`, `before-missing`, `first-file`: the module's first
//! file with no `before_optimizations`, `same-step`: a second file of one
//! step) and `note` says it in the terminal's words; both are null when
//! `changed` is known. `delta` is null unless `changed` is true. Fields
//! the files cannot give are null, never 0. In the index alone
//! (`folder-index`), every `changed`, `delta`, `why`, `note` and `memory`
//! is null, `parsed` says whether the kind is parsed and the file is
//! within the limits, and `not_read` names a limit.

use super::index::{Entry, Index};
use super::passes::{Delta, Names, Step};
use super::{Folder, memory_json, report};
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
    let _ = write!(out, ",\"size\":{},\"parsed\":{parsed}", e.size);
    out.push_str(",\"not_read\":");
    opt_str(out, e.skipped);
    out.push('}');
}

/// `["path", ...]` of some entries.
fn paths(out: &mut String, index: &Index<'_>, entries: &[usize]) {
    list(out, entries, |o, &i| {
        push_str(o, index.entries.get(i).map_or("", |e| e.path))
    });
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
        let why = step.and_then(|s| s.why);
        o.push_str(",\"why\":");
        opt_str(o, why.map(|w| w.code()));
        o.push_str(",\"note\":");
        match (why, folder) {
            (Some(w), Some(f)) => push_str(o, &report::not_compared(f, i, w)),
            _ => o.push_str("null"),
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
    to_json_of(index, folder, 0..index.modules.len())
}

/// The folder's object with only the modules `modules` (indices into
/// [`Index::modules`]) in `modules`.
pub fn to_json_of(
    index: &Index<'_>,
    folder: Option<&Folder<'_>>,
    modules: impl IntoIterator<Item = usize>,
) -> String {
    let mut out = String::with_capacity(256 + index.entries.len() * 128);
    out.push_str("{\"modules\":");
    list(&mut out, modules, |o, m| push_module(o, index, folder, m));
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

/// `folder --json --first X` for module `m` (see the module docs).
pub fn first_json(folder: &Folder<'_>, m: usize, query: &str) -> String {
    let mut out = String::from("{\"query\":");
    push_str(&mut out, query);
    out.push_str(",\"module\":");
    opt_str(&mut out, folder.index.modules.get(m).map(|mf| mf.module.id));
    out.push_str(",\"found\":");
    let files = folder.story_texts(m);
    let entry_of = |k: usize| files.get(k).and_then(|(i, _)| *i);
    let entry = |k: usize| entry_of(k).and_then(|i| folder.index.entries.get(i));
    match folder
        .first(m, query)
        .and_then(|f| Some((entry(f.file)?, f)))
    {
        None => {
            out.push_str("null,\"final\":");
            opt_str(&mut out, folder.in_final(m, query));
        }
        Some((e, f)) => {
            let p = e.name.pass;
            out.push_str("{\"path\":");
            push_str(&mut out, e.path);
            out.push_str(",\"step\":");
            match p {
                Some(p) => {
                    let _ = write!(out, "{}", p.step);
                }
                None => out.push_str("null"),
            }
            out.push_str(",\"pipeline\":");
            opt_str(&mut out, p.map(|p| p.pipeline));
            out.push_str(",\"pass\":");
            opt_str(&mut out, p.and_then(|p| p.pass));
            out.push_str(",\"next\":");
            opt_str(&mut out, p.and_then(|p| p.next));
            out.push_str(",\"matched\":");
            push_str(&mut out, f.matched.as_str());
            let _ = write!(out, ",\"count\":{},\"instructions\":", f.count);
            list(&mut out, &f.instructions, |o, (name, line)| {
                o.push_str("{\"name\":");
                push_str(o, name);
                let _ = write!(o, ",\"line\":{line}}}");
            });
            out.push_str(",\"previous\":");
            let prev = f.file.checked_sub(1).and_then(entry).map(|e| e.path);
            opt_str(&mut out, prev.filter(|_| p.is_some()));
            out.push_str(",\"unread_before\":");
            let unread: Vec<usize> = f
                .unread_before
                .iter()
                .filter_map(|&k| entry_of(k))
                .collect();
            paths(&mut out, &folder.index, &unread);
            out.push_str("},\"final\":null");
        }
    }
    out.push_str(",\"unread\":");
    paths(&mut out, &folder.index, &folder.unread_story(m));
    out.push('}');
    out
}
