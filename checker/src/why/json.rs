//! `why --json`, written by hand (the wasm build has no serde; the
//! command line and the page print the same object):
//!
//! `{"schema": 1, "inputs": [{"kind", "compiled", "backend", "backend_from"
//! ("evidence" | "given" | null), "scope": {"form", "computations",
//! "instructions", "loop_bodies", "sentence"}, "memory": [{"kind", "line",
//! "text", "figures": [{"name", "printed", "bytes", "exact"}],
//! "allocations": [{"rank", "line", "size", "unpadded", "padding" (each
//! {"printed", "bytes", "exact"} or null), "expansion", "shape",
//! "operator", "label", "kind"}], "arrays": [..]}], "next"}], "findings":
//! [{"name", "title", "input", "summary", "bytes", "runs", "runs_basis",
//! "weight", "evidence": [{"line", "name", "note"}], "means", "try",
//! "chapter"}]}`. Findings are in rank order.

use super::catalogue::{self, CHAPTER};
use super::memory::{Bytes, MemoryText, text_row};
use super::{BackendFrom, Finding, Input, Why};
use crate::sourcemap::json::{push_opt_str, push_str};
use std::fmt::Write;

/// The JSON object of an answer.
pub fn to_json(w: &Why) -> String {
    let mut out = String::from("{\"schema\":1,\"inputs\":[");
    for (i, input) in w.inputs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        input_json(&mut out, input);
    }
    out.push_str("],\"findings\":[");
    for (i, f) in w.findings.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        finding_json(&mut out, f);
    }
    out.push_str("]}");
    out
}

fn key(out: &mut String, first: bool, k: &str) {
    if !first {
        out.push(',');
    }
    push_str(out, k);
    out.push(':');
}

fn num(out: &mut String, v: Option<u64>) {
    match v {
        Some(v) => {
            let _ = write!(out, "{v}");
        }
        None => out.push_str("null"),
    }
}

fn input_json(out: &mut String, i: &Input) {
    out.push('{');
    key(out, true, "kind");
    push_str(out, i.kind.as_str());
    key(out, false, "compiled");
    out.push_str(if i.compiled { "true" } else { "false" });
    key(out, false, "backend");
    push_opt_str(out, i.backend.map(|b| b.0.as_str()));
    key(out, false, "backend_from");
    push_opt_str(
        out,
        i.backend.map(|b| match b.1 {
            BackendFrom::Evidence => "evidence",
            BackendFrom::Given => "given",
        }),
    );
    key(out, false, "scope");
    out.push('{');
    key(out, true, "form");
    push_str(out, i.scope.form.as_str());
    key(out, false, "computations");
    let _ = write!(out, "{}", i.scope.computations);
    key(out, false, "instructions");
    let _ = write!(out, "{}", i.scope.instructions);
    key(out, false, "loop_bodies");
    let _ = write!(out, "{}", i.scope.loop_bodies);
    key(out, false, "sentence");
    push_str(out, &i.scope.sentence);
    out.push('}');
    key(out, false, "memory");
    out.push('[');
    for (n, m) in i.memory.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        memory_json(out, m);
    }
    out.push(']');
    key(out, false, "next");
    push_opt_str(out, i.next.as_deref());
    out.push('}');
}

fn bytes_json(out: &mut String, b: Option<&Bytes>) {
    let Some(b) = b else {
        out.push_str("null");
        return;
    };
    out.push('{');
    key(out, true, "printed");
    push_str(out, &b.printed);
    key(out, false, "bytes");
    num(out, Some(b.bytes));
    key(out, false, "exact");
    out.push_str(if b.exact { "true" } else { "false" });
    out.push('}');
}

fn memory_json(out: &mut String, m: &MemoryText) {
    out.push('{');
    key(out, true, "kind");
    push_str(out, text_row(m.kind).name);
    key(out, false, "line");
    num(out, Some(m.line as u64));
    key(out, false, "text");
    push_str(out, &m.text);
    key(out, false, "figures");
    out.push('[');
    for (n, f) in m.figures.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        out.push('{');
        key(out, true, "name");
        push_str(out, f.name);
        out.push(',');
        // The figure's own fields, flattened beside its name.
        let mut inner = String::new();
        bytes_json(&mut inner, Some(&f.size));
        out.push_str(inner.trim_start_matches('{'));
    }
    out.push_str("],\"allocations\":[");
    for (n, a) in m.allocations.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        out.push('{');
        key(out, true, "rank");
        num(out, Some(u64::from(a.rank)));
        key(out, false, "line");
        num(out, Some(a.line as u64));
        for (k, b) in [
            ("size", &a.size),
            ("unpadded", &a.unpadded),
            ("padding", &a.padding),
        ] {
            key(out, false, k);
            bytes_json(out, b.as_ref());
        }
        key(out, false, "expansion");
        match a.expansion {
            Some(e) => {
                let _ = write!(out, "{e}");
            }
            None => out.push_str("null"),
        }
        for (k, v) in [
            ("shape", &a.shape),
            ("operator", &a.operator),
            ("label", &a.label),
            ("kind", &a.kind),
        ] {
            key(out, false, k);
            push_opt_str(out, v.as_deref());
        }
        out.push('}');
    }
    out.push_str("],\"arrays\":[");
    for (n, a) in m.arrays.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        push_str(out, a);
    }
    out.push_str("]}");
}

fn finding_json(out: &mut String, f: &Finding) {
    let row = catalogue::row(f.what);
    out.push('{');
    key(out, true, "name");
    push_str(out, row.name);
    key(out, false, "title");
    push_str(out, row.title);
    key(out, false, "input");
    num(out, Some(f.input as u64));
    key(out, false, "summary");
    push_str(out, &f.summary);
    key(out, false, "bytes");
    num(out, f.bytes);
    key(out, false, "runs");
    num(out, f.runs.count());
    key(out, false, "runs_basis");
    push_str(out, f.runs.basis());
    key(out, false, "weight");
    let _ = write!(out, "{}", f.weight());
    key(out, false, "evidence");
    out.push('[');
    for (n, l) in f.evidence.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        out.push('{');
        key(out, true, "line");
        num(out, Some(l.line as u64));
        key(out, false, "name");
        push_str(out, &l.name);
        key(out, false, "note");
        push_str(out, &l.note);
        out.push('}');
    }
    out.push(']');
    key(out, false, "means");
    push_str(out, row.means);
    key(out, false, "try");
    push_str(out, f.try_this.as_deref().unwrap_or(row.try_this));
    key(out, false, "chapter");
    push_str(out, &format!("{CHAPTER}#{}", row.anchor));
    out.push('}');
}
