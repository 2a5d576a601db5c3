//! The JSON of a [`DiffReport`], written by hand (the wasm build has no
//! serde; the command line and the page print the same object). The schema
//! is documented beside `analyze`'s, in [`crate::analysis`] (section "JSON
//! of `diff`").

use super::changes::{Changes, ModuleChanges};
use super::compiled::CompiledDiff;
use super::item::{self, Item};
use super::lowered::LoweredDiff;
use super::matching::Group;
use super::report::{Body, DiffReport};
use crate::cost::figures::Figures;
use crate::cost::json::num;
use crate::sourcemap::json::push_str;
use std::fmt::Write;

/// `diff --json`'s object.
pub fn to_json(r: &DiffReport<'_>) -> String {
    let mut out = String::with_capacity(4096);
    match &r.body {
        Body::Compiled(d) => compiled(&mut out, r, d),
        Body::Lowered(d) => lowered(&mut out, r, d),
    }
    out
}

fn strs<'s>(out: &mut String, xs: impl IntoIterator<Item = &'s str>) {
    out.push('[');
    for (i, x) in xs.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, x);
    }
    out.push(']');
}

fn opt_str(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => push_str(out, s),
        None => out.push_str("null"),
    }
}

fn backend(out: &mut String, b: Option<crate::Backend>) {
    opt_str(out, b.map(|b| b.as_str()));
}

/// A figure of one row: `null` for control flow or where XLA could not
/// cost it.
fn row_figure(out: &mut String, x: Option<&Figures>, bytes: bool) {
    let f = x.map(|f| if bytes { f.bytes } else { f.flops });
    match f {
        Some(f) if f.unknown == 0 => num(out, f.known),
        _ => out.push_str("null"),
    }
}

/// B's figure less A's, `null` unless both are known.
fn delta(out: &mut String, a: Option<&Figures>, b: Option<&Figures>, bytes: bool) {
    let get = |x: Option<&Figures>| {
        x.map(|f| if bytes { f.bytes } else { f.flops })
            .filter(|f| f.unknown == 0)
            .map(|f| f.known)
    };
    match (get(a), get(b)) {
        (Some(x), Some(y)) => num(out, y - x),
        _ => out.push_str("null"),
    }
}

fn item(out: &mut String, i: &Item<'_>) {
    out.push_str("{\"name\":");
    push_str(out, i.name);
    let _ = write!(out, ",\"line\":{},\"depth\":{},\"kind\":", i.line, i.depth);
    push_str(out, i.kind.as_str());
    out.push_str(",\"detail\":");
    opt_str(out, i.detail.as_deref());
    out.push_str(",\"shape\":");
    push_str(out, &i.shape);
    out.push_str(",\"op_names\":");
    strs(out, i.op_names.iter().map(String::as_str));
    out.push_str(",\"source_lines\":");
    strs(out, i.lines.iter().map(String::as_str));
    out.push_str(",\"bytes\":");
    row_figure(out, i.xla.as_ref(), true);
    out.push_str(",\"flops\":");
    row_figure(out, i.xla.as_ref(), false);
    out.push('}');
}

fn changes(out: &mut String, c: &Changes) {
    out.push('{');
    let mut first = true;
    let mut key = |out: &mut String, k: &str| {
        if !first {
            out.push(',');
        }
        first = false;
        let _ = write!(out, "\"{k}\":");
    };
    if let Some((x, y)) = c.kind {
        key(out, "kind");
        strs(out, [x.as_str(), y.as_str()]);
    }
    if let Some((x, y)) = &c.detail {
        key(out, "detail");
        out.push('[');
        opt_str(out, x.as_deref());
        out.push(',');
        opt_str(out, y.as_deref());
        out.push(']');
    }
    for (k, v) in [
        ("ops_in", &c.ops_in),
        ("ops_out", &c.ops_out),
        ("op_names_in", &c.op_names_in),
        ("op_names_out", &c.op_names_out),
        ("details_in", &c.details_in),
        ("details_out", &c.details_out),
    ] {
        if !v.is_empty() {
            key(out, k);
            strs(out, v.iter().map(String::as_str));
        }
    }
    for (k, v) in [("shape", &c.shape), ("layout", &c.layout)] {
        if let Some((x, y)) = v {
            key(out, k);
            strs(out, [x.as_str(), y.as_str()]);
        }
    }
    if let Some((x, y)) = &c.operand_shapes {
        key(out, "operand_shapes");
        out.push('[');
        strs(out, x.iter().map(String::as_str));
        out.push(',');
        strs(out, y.iter().map(String::as_str));
        out.push(']');
    }
    if let Some((x, y)) = c.depth {
        key(out, "depth");
        let _ = write!(out, "[{x},{y}]");
    }
    out.push('}');
}

/// One matched pair: names, lines, kinds, basis, figures.
fn pair(out: &mut String, d: &CompiledDiff<'_>, n: usize, c: Option<&Changes>) {
    let p = d.matching.pairs[n];
    let (a, b) = (&d.a.items[p.a], &d.b.items[p.b]);
    out.push_str("{\"a\":");
    push_str(out, a.name);
    out.push_str(",\"b\":");
    push_str(out, b.name);
    let _ = write!(
        out,
        ",\"a_line\":{},\"b_line\":{},\"kind\":",
        a.line, b.line
    );
    push_str(out, b.kind.as_str());
    out.push_str(",\"basis\":");
    push_str(out, p.basis.as_str());
    out.push_str(",\"bytes_delta\":");
    delta(out, a.xla.as_ref(), b.xla.as_ref(), true);
    out.push_str(",\"flops_delta\":");
    delta(out, a.xla.as_ref(), b.xla.as_ref(), false);
    if let Some(c) = c {
        out.push_str(",\"changes\":");
        changes(out, c);
    }
    out.push('}');
}

/// A split (`whole_in_a`) or merge.
fn group(out: &mut String, d: &CompiledDiff<'_>, g: &Group, whole_in_a: bool) {
    let (wholes, parts) = if whole_in_a {
        (&d.a.items, &d.b.items)
    } else {
        (&d.b.items, &d.a.items)
    };
    let w = &wholes[g.whole];
    let ps: Vec<&Item<'_>> = g.parts.iter().map(|&p| &parts[p]).collect();
    let names = |out: &mut String| strs(out, ps.iter().map(|p| p.name));
    let lines = |out: &mut String| {
        out.push('[');
        for (i, p) in ps.iter().enumerate() {
            let _ = write!(out, "{}{}", if i > 0 { "," } else { "" }, p.line);
        }
        out.push(']');
    };
    out.push_str("{\"from\":");
    if whole_in_a {
        push_str(out, w.name);
        let _ = write!(out, ",\"from_line\":{},\"to\":", w.line);
        names(out);
        out.push_str(",\"to_lines\":");
        lines(out);
    } else {
        names(out);
        out.push_str(",\"from_lines\":");
        lines(out);
        out.push_str(",\"to\":");
        push_str(out, w.name);
        let _ = write!(out, ",\"to_line\":{}", w.line);
    }
    out.push_str(",\"basis\":");
    push_str(out, g.basis.as_str());
    let whole = item::sum(&[w]);
    let parts = item::sum(&ps);
    let (a, b) = if whole_in_a {
        (whole, parts)
    } else {
        (parts, whole)
    };
    out.push_str(",\"bytes_delta\":");
    delta(out, a.as_ref(), b.as_ref(), true);
    out.push_str(",\"flops_delta\":");
    delta(out, a.as_ref(), b.as_ref(), false);
    out.push('}');
}

fn module(out: &mut String, m: &ModuleChanges) {
    out.push_str("{\"scheduled\":");
    match m.scheduled {
        Some((a, b)) => {
            let _ = write!(out, "[{a},{b}]");
        }
        None => out.push_str("null"),
    }
    let _ = write!(out, ",\"reordered\":{}", m.reordered);
    for (k, v) in [("aliasing", &m.aliasing), ("entry_layout", &m.entry_layout)] {
        let _ = write!(out, ",\"{k}\":");
        match v {
            Some((a, b)) => {
                out.push('[');
                opt_str(out, a.as_deref());
                out.push(',');
                opt_str(out, b.as_deref());
                out.push(']');
            }
            None => out.push_str("null"),
        }
    }
    out.push('}');
}

/// XLA's module figures of a side.
fn figures(out: &mut String, f: &Figures, not_kernel_bytes: f64) {
    out.push_str("{\"flops\":");
    num(out, f.flops.known);
    out.push_str(",\"bytes_accessed\":");
    num(out, f.bytes.known);
    out.push_str(",\"not_kernel_bytes\":");
    num(out, not_kernel_bytes);
    let _ = write!(
        out,
        ",\"uncosted\":{}}}",
        f.bytes.unknown.max(f.flops.unknown)
    );
}

fn summary(out: &mut String, r: &DiffReport<'_>, d: &CompiledDiff<'_>) {
    let m = &d.matching;
    let _ = write!(
        out,
        "{{\"empty\":{},\"matched\":{},\"changed\":{},\"merged\":{},\"split\":{},\"added\":{},\"removed\":{},\"introduced\":{},\"reordered\":{},\"bytes_delta\":",
        d.is_empty(),
        m.pairs.len(),
        d.changed.len(),
        m.merged.len(),
        m.split.len(),
        m.added.len(),
        m.removed.len(),
        d.introduced.len(),
        d.module.reordered,
    );
    num(out, d.b.xla.bytes.known - d.a.xla.bytes.known);
    out.push_str(",\"flops_delta\":");
    num(out, d.b.xla.flops.known - d.a.xla.flops.known);
    if r.chip.is_some() {
        out.push_str(",\"lower_bound_delta_s\":");
        match (d.a.lower_bound_s, d.b.lower_bound_s) {
            (Some(x), Some(y)) => num(out, y - x),
            _ => out.push_str("null"),
        }
    }
    let _ = write!(out, ",\"truncated\":{}}}", m.truncated);
}

fn compiled(out: &mut String, r: &DiffReport<'_>, d: &CompiledDiff<'_>) {
    out.push_str("{\"kind\":\"compiled\",\"a\":{\"backend\":");
    backend(out, r.backends.0);
    let _ = write!(out, ",\"repaired\":{},\"xla\":", r.repaired.0);
    figures(out, &d.a.xla, d.a.not_kernel_bytes);
    out.push_str("},\"b\":{\"backend\":");
    backend(out, r.backends.1);
    let _ = write!(out, ",\"repaired\":{},\"xla\":", r.repaired.1);
    figures(out, &d.b.xla, d.b.not_kernel_bytes);
    out.push_str("},\"chip\":");
    opt_str(out, r.chip.map(|c| c.name));
    if r.chip.is_some() {
        out.push_str(",\"lower_bound_s\":{\"a\":");
        num(out, d.a.lower_bound_s.unwrap_or(f64::NAN));
        out.push_str(",\"b\":");
        num(out, d.b.lower_bound_s.unwrap_or(f64::NAN));
        out.push('}');
    }
    out.push_str(",\"summary\":");
    summary(out, r, d);
    out.push_str(",\"kernels\":{\"matched\":[");
    for n in 0..d.matching.pairs.len() {
        if n > 0 {
            out.push(',');
        }
        pair(out, d, n, None);
    }
    out.push_str("],\"changed\":[");
    for (i, (n, c)) in d.changed.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        pair(out, d, *n, Some(c));
    }
    out.push_str("],\"merged\":[");
    for (i, g) in d.matching.merged.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        group(out, d, g, false);
    }
    out.push_str("],\"split\":[");
    for (i, g) in d.matching.split.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        group(out, d, g, true);
    }
    for (key, side, list) in [
        ("added", &d.b.items, &d.matching.added),
        ("removed", &d.a.items, &d.matching.removed),
    ] {
        let _ = write!(out, "],\"{key}\":[");
        for (i, &n) in list.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            item(out, &side[n]);
        }
    }
    out.push_str("]},\"introduced\":[");
    for (i, x) in d.introduced.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let b = &d.b.items[x.b];
        out.push_str("{\"name\":");
        push_str(out, b.name);
        let _ = write!(
            out,
            ",\"line\":{},\"what\":\"{}\",\"how\":\"{}\"}}",
            b.line,
            x.what,
            x.how.as_str()
        );
    }
    out.push_str("],\"module\":");
    module(out, &d.module);
    out.push('}');
}

fn ops(out: &mut String, list: &[(String, usize)]) {
    out.push('{');
    for (i, (op, n)) in list.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, op);
        let _ = write!(out, ":{n}");
    }
    out.push('}');
}

fn lowered(out: &mut String, r: &DiffReport<'_>, d: &LoweredDiff) {
    let kind = if r.kind == crate::analysis::Kind::Jaxpr {
        "jaxpr"
    } else {
        "lowered"
    };
    let _ = write!(
        out,
        "{{\"kind\":\"{kind}\",\"format\":\"{}\",\"kind_unproved\":{},\"a\":{{\"backend\":",
        d.format, r.kind_unproved
    );
    backend(out, r.backends.0);
    let _ = write!(
        out,
        ",\"repaired\":{},\"ops\":{}}},\"b\":{{\"backend\":",
        r.repaired.0, d.ops.0
    );
    backend(out, r.backends.1);
    let _ = write!(
        out,
        ",\"repaired\":{},\"ops\":{}}},\"summary\":{{\"same_program\":{},\"moved\":{},\"lines_same\":{},\"lines_changed\":{},\"unlocated\":{}}},\"lines\":[",
        r.repaired.1,
        d.ops.1,
        d.same_program(),
        d.moved,
        d.lines_same,
        d.changed.len(),
        d.unlocated
    );
    for (i, l) in d.changed.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"file\":");
        opt_str(out, l.at.as_ref().map(|(f, _)| f.as_str()));
        out.push_str(",\"line\":");
        match &l.at {
            Some((_, n)) => {
                let _ = write!(out, "{n}");
            }
            None => out.push_str("null"),
        }
        out.push_str(",\"a\":");
        ops(out, &l.a);
        out.push_str(",\"b\":");
        ops(out, &l.b);
        out.push('}');
    }
    out.push_str("],\"donation\":");
    sides(out, d.donation.as_ref());
    out.push_str(",\"signature\":");
    sides(out, d.signature.as_ref());
    out.push('}');
}

/// `{"a": [...], "b": [...]}` of two lists, or `null`.
fn sides(out: &mut String, v: Option<&(Vec<String>, Vec<String>)>) {
    match v {
        Some((a, b)) => {
            out.push_str("{\"a\":");
            strs(out, a.iter().map(String::as_str));
            out.push_str(",\"b\":");
            strs(out, b.iter().map(String::as_str));
            out.push('}');
        }
        None => out.push_str("null"),
    }
}
