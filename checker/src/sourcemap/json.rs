//! The JSON of a [`SourceMap`], written by hand: the wasm build has no
//! serde, and the command line and the page must print the same object.
//!
//! The schema is documented beside the `analyze` one, in
//! [`crate::analysis`] (section "JSON of `map`").

use super::{Kernel, LoweredOp, SourceMap};
use std::fmt::Write;

/// Appends `s` as a JSON string (quotes, escapes; control characters and
/// `<`, `>`, `&` as `\u00XX`, so the text is safe inside a script too).
pub fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20
                || c == '<'
                || c == '>'
                || c == '&'
                || c == '\u{2028}'
                || c == '\u{2029}' =>
            {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Appends `s` as a JSON string, or `null`.
pub fn push_opt_str(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => push_str(out, s),
        None => out.push_str("null"),
    }
}

fn push_strs<'a>(out: &mut String, items: impl IntoIterator<Item = &'a str>) {
    out.push('[');
    for (i, s) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, s);
    }
    out.push(']');
}

fn push_opt_strs(out: &mut String, v: Option<&[String]>) {
    match v {
        Some(v) => push_strs(out, v.iter().map(String::as_str)),
        None => out.push_str("null"),
    }
}

fn push_opt_u64(out: &mut String, v: Option<u64>) {
    match v {
        Some(v) => {
            let _ = write!(out, "{v}");
        }
        None => out.push_str("null"),
    }
}

fn push_lines(out: &mut String, m: &SourceMap, ids: &[usize]) {
    out.push('[');
    for (i, l) in ids.iter().filter_map(|&i| m.line(i)).enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"file\":");
        push_str(out, &l.file);
        let _ = write!(out, ",\"line\":{}}}", l.line);
    }
    out.push(']');
}

fn push_op_ref(out: &mut String, o: &LoweredOp) {
    let _ = write!(out, "{{\"line\":{},\"name\":", o.line);
    push_str(out, &o.name);
    out.push_str(",\"op\":");
    push_str(out, &o.op);
    out.push('}');
}

fn push_op_refs(out: &mut String, m: &SourceMap, ids: &[usize]) {
    out.push('[');
    for (i, o) in ids.iter().filter_map(|&i| m.lowered_ops.get(i)).enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_op_ref(out, o);
    }
    out.push_str("],\"unlocated_hint\":");
    push_opt_str(out, m.unlocated_hint());
}

fn kernel_names<'a>(m: &'a SourceMap, ids: &'a [usize]) -> impl Iterator<Item = &'a str> + 'a {
    ids.iter()
        .filter_map(|&i| m.kernels.get(i))
        .map(|k| k.name.as_str())
}

fn push_kernel(out: &mut String, m: &SourceMap, k: &Kernel) {
    out.push_str("{\"name\":");
    push_str(out, &k.name);
    out.push_str(",\"kind\":");
    push_str(out, k.kind.map_name());
    out.push_str(",\"detail\":");
    push_opt_str(out, k.detail.as_deref());
    out.push_str(",\"opcode\":");
    push_str(out, &k.opcode);
    let _ = write!(out, ",\"line\":{},\"ops\":", k.line);
    push_strs(out, k.ops.iter().map(String::as_str));
    out.push_str(",\"shape\":");
    push_str(out, &k.shape);
    out.push_str(",\"operand_shapes\":");
    push_strs(out, k.operand_shapes.iter().map(String::as_str));
    let _ = write!(out, ",\"kernel\":{}", k.kernel);
    out.push_str(",\"bytes_read\":");
    push_opt_u64(out, k.bytes_read);
    out.push_str(",\"bytes_written\":");
    push_opt_u64(out, k.bytes_written);
    if let Some(o) = k.origin {
        out.push_str(",\"origin\":");
        push_str(out, o);
    }
    out.push_str(",\"source_lines\":");
    push_lines(out, m, &k.source_lines);
    out.push_str(",\"lowered_ops\":");
    push_op_refs(out, m, &k.lowered_ops);
    out.push('}');
}

/// The map as one JSON object (schema above).
pub fn to_json(m: &SourceMap) -> String {
    let mut out = String::with_capacity(256 + 256 * m.kernels.len() + 128 * m.lowered_ops.len());
    push_fields(&mut out, m);
    out.push('}');
    out
}

/// Writes `{` and the map's fields, leaving the object open so callers can
/// add their own fields.
pub fn push_fields(out: &mut String, m: &SourceMap) {
    out.push_str("{\"lowered_format\":");
    push_opt_str(out, m.lowered_format.map(|f| f.as_str()));
    out.push_str(",\"entry\":");
    push_opt_str(out, m.entry.as_deref());
    out.push_str(",\"lowered_signature\":");
    push_opt_strs(out, m.lowered_signature.as_deref());
    out.push_str(",\"compiled_signature\":");
    push_opt_strs(out, m.compiled_signature.as_deref());
    out.push_str(",\"mismatch\":");
    push_opt_str(out, m.mismatch.as_deref());
    out.push_str(if m.truncated {
        ",\"truncated\":true"
    } else {
        ",\"truncated\":false"
    });
    let _ = write!(out, ",\"kernel_count\":{}", m.kernel_count());
    out.push_str(",\"kernels\":[");
    for (i, k) in m.kernels.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_kernel(out, m, k);
    }
    out.push_str("],\"lowered_ops\":[");
    for (i, o) in m.lowered_ops.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{{\"line\":{},\"name\":", o.line);
        push_str(out, &o.name);
        out.push_str(",\"op\":");
        push_str(out, &o.op);
        out.push_str(",\"op_name\":");
        push_opt_str(out, o.op_name.as_deref());
        out.push_str(",\"source_lines\":");
        push_lines(out, m, &o.source_lines);
        out.push_str(",\"kernels\":");
        push_strs(out, kernel_names(m, &o.kernels));
        out.push('}');
    }
    out.push_str("],\"source_lines\":[");
    for (i, e) in m.source_lines.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"file\":");
        push_str(out, &e.source.file);
        let _ = write!(out, ",\"line\":{},\"lowered_ops\":", e.source.line);
        push_op_refs(out, m, &e.lowered_ops);
        out.push_str(",\"kernels\":");
        push_strs(out, kernel_names(m, &e.kernels));
        out.push('}');
    }
    out.push_str("],\"kernels_without_source\":");
    push_strs(out, m.kernels_without_source().map(|k| k.name.as_str()));
    out.push_str(",\"lowered_without_source\":[");
    for (i, o) in m.lowered_without_source().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_op_ref(out, o);
    }
    out.push_str("],\"unlocated_hint\":");
    push_opt_str(out, m.unlocated_hint());
}
