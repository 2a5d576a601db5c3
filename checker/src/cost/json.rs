//! The JSON of a cost [`Report`], written by hand (the wasm build has no
//! serde; the command line and the page print the same object). The schema
//! is documented beside `analyze`'s, in [`crate::analysis`] (section "JSON
//! of `cost`").

use super::estimate::{Estimate, REASONS};
use super::figures::{Figure, Figures};
use super::ledger::Entry;
use super::report::Report;
use super::roofline::KernelRoof;
use crate::sourcemap::json::push_str;
use std::fmt::Write;

/// A number, or `null` when it is not finite (integers without a point,
/// others in exponent form).
pub fn num(out: &mut String, v: f64) {
    if !v.is_finite() {
        out.push_str("null");
    } else if v.fract() == 0.0 && v.abs() < 1e15 {
        let _ = write!(out, "{}", v as i64);
    } else {
        let _ = write!(out, "{v:e}");
    }
}

fn opt_num(out: &mut String, v: Option<f64>) {
    match v {
        Some(v) => num(out, v),
        None => out.push_str("null"),
    }
}

/// XLA's figures: the known sums and, per figure, the instructions XLA
/// could not cost.
fn xla(out: &mut String, f: &Figures) {
    out.push_str("{\"flops\":");
    num(out, f.flops.known);
    out.push_str(",\"transcendentals\":");
    num(out, f.transcendentals.known);
    out.push_str(",\"bytes_accessed\":");
    num(out, f.bytes.known);
    out.push_str(",\"unknown\":");
    unknown(out, f.flops, f.transcendentals, f.bytes);
    out.push('}');
}

fn unknown(out: &mut String, a: Figure, b: Figure, c: Figure) {
    let _ = write!(
        out,
        "{{\"flops\":{},\"transcendentals\":{},\"bytes_accessed\":{}}}",
        a.unknown, b.unknown, c.unknown
    );
}

/// A kernel's figure: `null` when unknown.
fn figure(out: &mut String, f: Figure, kernel: bool) {
    if kernel && f.unknown > 0 {
        out.push_str("null");
    } else {
        num(out, f.known);
    }
}

fn estimate(out: &mut String, e: &Estimate, kernel: bool) {
    out.push_str("{\"flops\":");
    figure(out, e.figures.flops, kernel);
    out.push_str(",\"transcendentals\":");
    figure(out, e.figures.transcendentals, kernel);
    out.push_str(",\"bytes_accessed\":");
    figure(out, e.figures.bytes, kernel);
    out.push_str(",\"bytes_padded\":");
    figure(out, e.bytes_padded, kernel);
    out.push_str(",\"bytes_on_chip\":");
    num(out, e.bytes_on_chip);
    if !kernel {
        out.push_str(",\"unknown\":");
        unknown(
            out,
            e.figures.flops,
            e.figures.transcendentals,
            e.figures.bytes,
        );
    }
    out.push_str(",\"reasons\":[");
    for (i, r) in e.reasons.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, r.id());
    }
    out.push_str("]}");
}

fn kernel(out: &mut String, r: &Report<'_, '_>, e: &Entry<'_>, roof: Option<&KernelRoof>) {
    out.push_str("{\"name\":");
    push_str(out, e.name);
    out.push_str(",\"kind\":");
    push_str(out, e.kind.as_str());
    out.push_str(",\"detail\":");
    match &e.detail {
        Some(d) => push_str(out, d),
        None => out.push_str("null"),
    }
    let _ = write!(
        out,
        ",\"line\":{},\"depth\":{},\"runs\":",
        r.pasted_line(e.line),
        e.depth
    );
    opt_num(out, e.runs.map(|n| n as f64));
    out.push_str(",\"xla\":");
    xla(out, &e.xla);
    out.push_str(",\"estimate\":");
    estimate(out, &e.estimate, true);
    out.push_str(",\"intensity\":");
    opt_num(out, roof.and_then(|k| k.intensity));
    out.push_str(",\"bound\":");
    match roof.and_then(|k| k.bound) {
        Some(b) => push_str(out, b.name()),
        None => out.push_str("null"),
    }
    out.push_str(",\"lower_bound_s\":");
    opt_num(out, roof.map(|k| k.lower_bound_s));
    if let Some(l) = roof.and_then(|k| k.link.as_ref()) {
        let _ = write!(out, ",\"link\":{{\"bytes\":{},\"seconds\":", l.bytes);
        num(out, l.seconds);
        out.push('}');
    }
    out.push_str(",\"notes\":[");
    for (i, n) in roof.map_or(&[][..], |k| &k.notes[..]).iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, n);
    }
    out.push_str("],\"estimated_cycles\":");
    opt_num(out, e.estimated_cycles.map(|c| c as f64));
    out.push_str(",\"source_lines\":[");
    for (i, (file, line)) in e.source_lines.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"file\":");
        push_str(out, file);
        let _ = write!(out, ",\"line\":{line}}}");
    }
    out.push_str("]}");
}

fn chip(out: &mut String, r: &Report<'_, '_>) {
    out.push_str("{\"name\":");
    let Some(c) = r.chip.chip else {
        out.push_str("null,\"why\":");
        push_str(out, r.chip.why);
        out.push('}');
        return;
    };
    push_str(out, c.name);
    out.push_str(",\"full_name\":");
    push_str(out, c.full_name);
    out.push_str(",\"why\":");
    push_str(out, r.chip.why);
    let published: Vec<_> = c
        .figures()
        .into_iter()
        .filter_map(|(label, f)| Some((label, f?)))
        .collect();
    out.push_str(",\"peaks\":{");
    for (i, (label, f)) in published.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, label);
        out.push(':');
        num(out, f.value);
    }
    out.push_str("},\"source\":[");
    for (i, (label, f)) in published.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"figure\":");
        push_str(out, label);
        out.push_str(",\"title\":");
        push_str(out, f.doc.title);
        out.push_str(",\"url\":");
        push_str(out, f.doc.url);
        out.push_str(",\"quote\":");
        push_str(out, f.quote);
        out.push_str(",\"derived\":");
        push_str(out, f.derived);
        out.push('}');
    }
    out.push_str("]}");
}

/// The report as JSON (see the module docs).
pub fn to_json(r: &Report<'_, '_>) -> String {
    let mut out = String::with_capacity(256 + 512 * r.ledger.kernels.len());
    out.push_str("{\"totals\":{\"xla\":");
    xla(&mut out, &r.ledger.xla);
    out.push_str(",\"estimate\":");
    estimate(&mut out, &r.ledger.estimate, false);
    out.push_str(",\"not_kernel_bytes\":");
    num(&mut out, r.ledger.not_kernel_bytes);
    out.push_str("},\"kernels\":[");
    let roofs = r.roof.as_ref().map(|m| &m.kernels);
    for (i, e) in r.ledger.kernels.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        kernel(&mut out, r, e, roofs.and_then(|k| k.get(i)));
    }
    out.push_str("],\"chip\":");
    chip(&mut out, r);
    out.push_str(",\"roofline\":");
    match &r.roof {
        Some(m) => {
            out.push_str("{\"lower_bound_s\":");
            num(&mut out, m.lower_bound_s);
            let _ = write!(out, ",\"overlapping_pairs\":{}", m.overlapping_pairs);
            let _ = write!(
                out,
                ",\"kernel_runs\":{},\"runs_known\":{},\"overhead_per_kernel_s\":",
                m.kernel_runs, m.runs_known
            );
            opt_num(&mut out, m.overhead_per_kernel_s);
            out.push_str(",\"overhead_s\":");
            opt_num(
                &mut out,
                m.overhead_per_kernel_s.map(|o| o * m.kernel_runs as f64),
            );
            out.push_str(",\"overhead_assumption\":");
            match r.chip.chip {
                Some(c) => push_str(&mut out, c.overhead.note),
                None => out.push_str("null"),
            }
            out.push_str(",\"ranked\":[");
            for (i, k) in m.ranked.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_str(&mut out, r.ledger.kernels.get(*k).map_or("", |e| e.name));
            }
            out.push_str("]}");
        }
        None => out.push_str("null"),
    }
    let _ = write!(out, ",\"unread\":{},\"repaired\":[", r.ledger.unread);
    for (i, u) in r.repaired.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(&mut out, &u.note);
    }
    out.push_str("],\"reasons\":{");
    let used = &r.ledger.estimate.reasons;
    for (i, row) in REASONS
        .iter()
        .filter(|row| used.contains(&row.reason))
        .enumerate()
    {
        if i > 0 {
            out.push(',');
        }
        push_str(&mut out, row.id);
        out.push(':');
        push_str(&mut out, row.text);
    }
    out.push_str("}}");
    out
}
