//! `explain --json`, written by hand (the wasm build has no serde; the
//! command line and the page print the same object). The schema is
//! documented beside `analyze`'s, in [`crate::analysis`] (section "JSON of
//! `explain`").

use super::boundaries::From;
use super::reasons::{REASONS, Reason};
use super::report::{Report, ask_of};
use super::{Basis, InputExplained, KernelExplained};
use crate::cost::json::num;
use crate::program::Module;
use crate::sourcemap::json::push_str;
use std::fmt::Write;

/// The JSON object of a report.
pub fn to_json(r: &Report<'_, '_, '_>) -> String {
    let mut out = String::from("{\"schema\":1,\"module\":");
    match r.module.header.as_ref() {
        Some(h) => push_str(&mut out, h.name),
        None => out.push_str("null"),
    }
    out.push_str(",\"backend\":");
    opt_str(&mut out, r.explanation.backend.map(|b| b.as_str()));
    out.push_str(",\"backend_basis\":");
    opt_str(
        &mut out,
        r.explanation.backend.map(|_| {
            if r.explanation.backend_from_log {
                "log"
            } else {
                "evidence"
            }
        }),
    );
    out.push_str(",\"log\":");
    log(&mut out, r);
    out.push_str(",\"folder_module\":");
    opt_str(&mut out, r.explanation.folder_module.as_deref());
    out.push_str(",\"ask\":");
    match ask_of(r.explanation.backend) {
        Some(a) => {
            out.push_str("{\"flags\":");
            opt_str(&mut out, a.flags);
            out.push_str(",\"note\":");
            push_str(&mut out, a.note);
            out.push('}');
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"kernels\":[");
    let mut used: Vec<Reason> = Vec::new();
    for (i, k) in r.explanation.kernels.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        kernel(&mut out, r, k, &mut used);
    }
    let (b, known, unknown) = r.explanation.summary();
    let _ = write!(
        out,
        "],\"summary\":{{\"boundaries\":{b},\"explained\":{known},\"unknown\":{unknown}}},\"reasons\":["
    );
    used.sort_unstable();
    used.dedup();
    for (i, row) in REASONS
        .iter()
        .filter(|row| used.contains(&row.reason))
        .enumerate()
    {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"id\":");
        push_str(&mut out, row.id);
        out.push_str(",\"title\":");
        push_str(&mut out, row.title);
        out.push_str(",\"sentence\":");
        push_str(&mut out, row.sentence);
        out.push('}');
    }
    out.push(']');
    collectives(&mut out, r);
    out.push('}');
    out
}

/// Which sharding made each collective (`crate::collectives::origin`),
/// present only when the module runs any.
fn collectives(out: &mut String, r: &Report<'_, '_, '_>) {
    let c = crate::collectives::read(r.module, r.tree);
    if c.rows.is_empty() {
        return;
    }
    out.push_str(",\"collectives\":[");
    for (i, row) in c.rows.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"name\":");
        push_str(out, row.name);
        let _ = write!(
            out,
            ",\"line\":{},\"opcode\":\"{}\",\"origin\":\"{}\",\"basis\":",
            r.pasted_line(row.line),
            row.opcode,
            row.made.origin.id()
        );
        push_str(out, &row.made.basis);
        out.push('}');
    }
    out.push(']');
}

fn opt_str(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => push_str(out, s),
        None => out.push_str("null"),
    }
}

fn log(out: &mut String, r: &Report<'_, '_, '_>) {
    let Some((pass, c)) = &r.explanation.log else {
        out.push_str("null");
        return;
    };
    out.push_str("{\"pass\":");
    opt_str(out, pass.map(|p| p.as_str()));
    let _ = write!(
        out,
        ",\"lines\":{},\"decisions\":{},\"fused\":{},\"not_fused\":{},\"between_kernels\":{},\"same_kernel\":{},\"unresolved\":{},\"unread\":{}}}",
        c.lines,
        c.decisions,
        c.fused,
        c.not_fused,
        c.between,
        c.same_kernel,
        c.unresolved,
        c.unread
    );
}

fn name_of<'a>(m: &Module<'a>, id: crate::program::InstrId) -> &'a str {
    m.instruction(id).map_or("?", |i| i.name)
}

fn kernel(
    out: &mut String,
    r: &Report<'_, '_, '_>,
    k: &KernelExplained<'_, '_>,
    used: &mut Vec<Reason>,
) {
    let m = r.module;
    let ins = m.instruction(k.kernel.instruction);
    out.push_str("{\"name\":");
    push_str(out, ins.map_or("?", |i| i.name));
    out.push_str(",\"kind\":");
    push_str(out, k.kernel.kind.as_str());
    out.push_str(",\"detail\":");
    opt_str(out, k.kernel.detail.as_deref());
    let _ = write!(
        out,
        ",\"line\":{},\"depth\":{},\"inputs\":[",
        ins.map_or(0, |i| r.pasted_line(i.line)),
        k.depth
    );
    for (i, inp) in k.inputs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        input(out, r, k, inp, used);
    }
    out.push_str("],\"copy\":");
    match &k.copy {
        Some(c) => {
            out.push_str("{\"opcode\":");
            push_str(out, &c.opcode);
            out.push_str(",\"from_layout\":");
            opt_str(out, c.from_layout.as_deref());
            out.push_str(",\"to_layout\":");
            opt_str(out, c.to_layout.as_deref());
            out.push_str(",\"changes_layout\":");
            match c.changes_layout() {
                Some(b) => out.push_str(if b { "true" } else { "false" }),
                None => out.push_str("null"),
            }
            out.push_str(",\"shape\":");
            push_str(out, &c.shape);
            out.push_str(",\"bytes\":");
            match c.bytes {
                Some(b) => num(out, b),
                None => out.push_str("null"),
            }
            out.push_str(",\"hbm_bytes\":");
            match c.hbm_bytes {
                Some(b) => num(out, b),
                None => out.push_str("null"),
            }
            out.push_str(",\"source_lines\":[");
            for (i, (f, l)) in c.source_lines.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('[');
                push_str(out, f);
                let _ = write!(out, ",{l}]");
            }
            out.push_str("],\"added\":");
            added(out, c.added.as_ref());
            out.push('}');
        }
        None => out.push_str("null"),
    }
    out.push('}');
}

fn added(out: &mut String, a: Option<&super::added::Added>) {
    let Some(a) = a else {
        out.push_str("null");
        return;
    };
    out.push_str("{\"file\":");
    push_str(out, &a.file);
    out.push_str(",\"step\":");
    match a.step {
        Some(s) => {
            let _ = write!(out, "{s}");
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"pipeline\":");
    opt_str(out, a.pipeline.as_deref());
    out.push_str(",\"pass\":");
    opt_str(out, a.pass.as_deref());
    out.push_str(",\"unread_before\":[");
    for (i, f) in a.unread_before.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, f);
    }
    out.push_str("]}");
}

fn input(
    out: &mut String,
    r: &Report<'_, '_, '_>,
    k: &KernelExplained<'_, '_>,
    inp: &InputExplained<'_>,
    used: &mut Vec<Reason>,
) {
    let m = r.module;
    let _ = write!(out, "{{\"operand\":{},\"from\":", inp.operand);
    let (from, line) = match inp.from {
        From::Kernel(id) => (
            name_of(m, id),
            m.instruction(id).map(|i| r.pasted_line(i.line)),
        ),
        From::Parameter(_) => ("parameter", None),
        From::Constant(_) => ("constant", None),
        From::Tuple(_) => ("tuple", None),
        From::Unknown => ("unknown", None),
    };
    push_str(out, from);
    out.push_str(",\"from_line\":");
    match line {
        Some(l) => {
            let _ = write!(out, "{l}");
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"via\":[");
    for (i, &v) in inp.via.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, name_of(m, v));
    }
    out.push_str("],\"reason\":");
    let answer = inp.answer();
    match (inp.is_boundary(), answer) {
        (false, _) => out.push_str("null"),
        (true, Some((reason, _))) => push_str(out, reason.id()),
        (true, None) => push_str(out, "unknown"),
    }
    out.push_str(",\"detail\":");
    match inp.is_boundary() {
        true => push_str(out, &detail(m, k, inp, r.explanation.log.is_some())),
        false => out.push_str("null"),
    }
    out.push_str(",\"basis\":");
    opt_str(out, answer.map(|(_, b)| b.as_str()));
    out.push_str(",\"reasons\":[");
    let mut first = true;
    let mut item = |out: &mut String, id: &str, basis: Basis, detail: &str| {
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str("{\"id\":");
        push_str(out, id);
        out.push_str(",\"basis\":");
        push_str(out, basis.as_str());
        out.push_str(",\"detail\":");
        push_str(out, detail);
        out.push('}');
    };
    for l in &inp.xla {
        let reason = l.reason.unwrap_or(Reason::XlaOther);
        used.push(reason);
        item(
            out,
            reason.id(),
            Basis::XlaLog,
            &format!("XLA: \"{}\" (log line {})", l.message, l.line),
        );
    }
    if let Some(id) = inp.after_fusion {
        used.push(Reason::AfterFusion);
        let what = format!("{} never appears in XLA's fusion log", name_of(m, id));
        item(out, Reason::AfterFusion.id(), Basis::NotInLog, &what);
    }
    if let Some(id) = inp.folder_after_fusion {
        used.push(Reason::AfterFusion);
        let what = format!(
            "{} first appears in the dump folder after the fusion pass's file",
            name_of(m, id)
        );
        item(out, Reason::AfterFusion.id(), Basis::DumpFolder, &what);
    }
    for f in &inp.rules {
        used.push(f.reason);
        item(out, f.reason.id(), Basis::Rule, &f.detail);
    }
    out.push_str("],\"xla\":");
    match inp.xla.first() {
        Some(l) => {
            out.push_str("{\"message\":");
            push_str(out, l.message);
            let _ = write!(out, ",\"line\":{}}}", l.line);
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"ask\":");
    let ask = (inp.is_boundary() && answer.is_none() && r.explanation.log.is_none())
        .then(|| ask_of(r.explanation.backend).and_then(|a| a.flags))
        .flatten();
    opt_str(out, ask);
    out.push('}');
}

/// The sentence of a boundary's answer (the command line prints it too).
pub fn detail(
    m: &Module<'_>,
    k: &KernelExplained<'_, '_>,
    inp: &InputExplained<'_>,
    has_log: bool,
) -> String {
    let consumer = name_of(m, k.kernel.instruction);
    let producer = match inp.from {
        From::Kernel(id) => name_of(m, id),
        _ => "?",
    };
    if let Some(l) = inp.xla.first() {
        return format!(
            "XLA did not fuse {producer} into {consumer}: \"{}\"",
            l.message
        );
    }
    if let Some(id) = inp.after_fusion {
        return format!(
            "{} never appears in XLA's fusion log: a pass after fusion added it",
            name_of(m, id)
        );
    }
    if let Some(id) = inp.folder_after_fusion {
        return format!(
            "{} first appears in the dump folder after the file the fusion pass wrote: a later pass added it",
            name_of(m, id)
        );
    }
    if let Some(f) = inp.rules.first() {
        return f.detail.clone();
    }
    let wrapped = [producer, consumer]
        .into_iter()
        .find(|n| n.starts_with("wrapped_"));
    let same_layout_copy = k
        .copy
        .as_ref()
        .is_some_and(|c| c.changes_layout() == Some(false))
        || match inp.from {
            From::Kernel(id) => m.instruction(id).is_some_and(|i| {
                i.opcode == "copy"
                    && super::rules::operand_shape(m, i, 0).and_then(super::rules::layout_text)
                        == super::rules::layout_text(i.shape_text)
            }),
            _ => false,
        };
    if same_layout_copy && wrapped.is_none() {
        let tell = if has_log {
            "the log given decides nothing on this pair; the compile's dump folder (--folder) can tell"
        } else {
            "XLA's fusion log of the compile, or its dump folder, can tell"
        };
        return format!(
            "unknown: no rule is sure why {producer} and {consumer} are separate (a copy that keeps its layout: a guess is that a pass after fusion added it, as copy insertion adds copies; {tell})"
        );
    }
    match wrapped {
        Some(w) => format!(
            "unknown: no rule is sure why {producer} and {consumer} are separate ({w} looks like the fusion wrapper's name for an op that fusion left alone; XLA's log says why under the op's own name)"
        ),
        None => format!("unknown: no rule is sure why {producer} and {consumer} are separate"),
    }
}
