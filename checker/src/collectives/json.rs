//! `collectives --json`, written by hand (the wasm build has no serde; the
//! command line and the page print the same object). The schema is
//! documented beside `analyze`'s, in [`crate::analysis`] (section "JSON of
//! `collectives`").

use super::Row;
use super::report::{Report, backend_note};
use crate::cost::json::num;
use crate::program::{GroupsForm, Peers};
use crate::sourcemap::json::{push_opt_str, push_str};
use std::fmt::Write;

/// The JSON object of a report.
pub fn to_json(r: &Report<'_, '_>) -> String {
    let mut out = String::from("{\"schema\":1,\"module\":");
    push_opt_str(&mut out, r.module.header.as_ref().map(|h| h.name));
    out.push_str(",\"backend\":");
    push_opt_str(&mut out, r.backend.map(|b| b.as_str()));
    out.push_str(",\"partitions\":");
    opt_num(&mut out, r.collectives.partitions);
    out.push_str(",\"replicas\":");
    opt_num(&mut out, r.collectives.replicas);
    out.push_str(",\"note\":");
    push_opt_str(&mut out, backend_note(r.backend));
    out.push_str(",\"chip\":");
    chip(&mut out, r);
    out.push_str(",\"collectives\":[");
    for (i, row) in r.collectives.rows.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        one(&mut out, r, row);
    }
    out.push_str("],\"summary\":");
    summary(&mut out, r);
    out.push('}');
    out
}

fn opt_num(out: &mut String, v: Option<u64>) {
    match v {
        Some(v) => {
            let _ = write!(out, "{v}");
        }
        None => out.push_str("null"),
    }
}

fn opt_bool(out: &mut String, v: Option<bool>) {
    out.push_str(match v {
        Some(true) => "true",
        Some(false) => "false",
        None => "null",
    });
}

fn chip(out: &mut String, r: &Report<'_, '_>) {
    out.push_str("{\"name\":");
    push_opt_str(out, r.chip.chip.map(|c| c.name));
    out.push_str(",\"why\":");
    push_str(out, r.chip.why);
    out.push_str(",\"interconnect\":");
    match r.chip.chip {
        Some(c) => {
            let f = &c.interconnect.bandwidth;
            out.push_str("{\"name\":");
            push_str(out, c.interconnect.name);
            out.push_str(",\"bytes_per_s\":");
            num(out, f.value);
            out.push_str(",\"source\":");
            push_str(out, f.doc.title);
            out.push_str(",\"url\":");
            push_str(out, f.doc.url);
            out.push_str(",\"quote\":");
            push_str(out, f.quote);
            out.push_str(",\"derived\":");
            push_str(out, f.derived);
            out.push('}');
        }
        None => out.push_str("null"),
    }
    out.push('}');
}

/// The form `replica_groups=` was printed in (`list`, `iota`, `mesh`), or
/// `pairs` / `channel` for the other peers.
pub fn form(row: &Row<'_>) -> &'static str {
    match row.collective.op.peers {
        Peers::Pairs => "pairs",
        Peers::Channel => "channel",
        Peers::Groups => match row.collective.replica_groups.as_ref().map(|g| &g.form) {
            Some(GroupsForm::Listed(_)) => "list",
            Some(GroupsForm::Iota(_)) => "iota",
            Some(GroupsForm::Mesh(_)) => "mesh",
            Some(GroupsForm::Unread) => "unread",
            None => "none",
        },
    }
}

fn one(out: &mut String, r: &Report<'_, '_>, row: &Row<'_>) {
    let m = r.module;
    out.push_str("{\"name\":");
    push_str(out, row.name);
    let _ = write!(
        out,
        ",\"line\":{},\"opcode\":\"{}\",\"schedule\":\"{}\",\"schedule_says\":",
        r.pasted_line(row.line),
        row.opcode,
        row.placed.schedule.id()
    );
    push_str(out, row.placed.schedule.sentence());
    out.push_str(",\"done\":");
    match row.placed.done.and_then(|d| m.instruction(d)) {
        Some(d) => {
            out.push_str("{\"name\":");
            push_str(out, d.name);
            let _ = write!(out, ",\"line\":{}}}", r.pasted_line(d.line));
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"between\":[");
    for (i, b) in row
        .placed
        .between
        .iter()
        .filter_map(|&b| m.instruction(b))
        .enumerate()
    {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"name\":");
        push_str(out, b.name);
        let _ = write!(out, ",\"line\":{}}}", r.pasted_line(b.line));
    }
    let _ = write!(out, "],\"between_count\":{}", row.placed.between_count);
    out.push_str(",\"gpu_is_sync\":");
    opt_bool(out, row.gpu_is_sync);
    out.push_str(",\"gpu_kernel_strategy\":");
    push_opt_str(out, row.gpu_kernel_strategy);
    peers(out, row);
    out.push_str(",\"payload_bytes\":");
    opt_num(out, row.payload_bytes);
    out.push_str(",\"result_bytes\":");
    opt_num(out, row.result_bytes);
    out.push_str(",\"at_least_bytes\":");
    opt_num(out, row.at_least_bytes);
    out.push_str(",\"rule\":");
    push_str(out, row.wire.rule);
    out.push_str(",\"seconds\":");
    match r.seconds(row) {
        Some(s) => num(out, s),
        None => out.push_str("null"),
    }
    out.push_str(",\"origin\":");
    push_str(out, row.made.origin.id());
    out.push_str(",\"origin_says\":");
    push_str(out, row.made.origin.row().map_or("", |o| o.label));
    out.push_str(",\"primitive\":");
    push_opt_str(out, row.made.primitive.as_deref());
    out.push_str(",\"basis\":");
    push_str(out, &row.made.basis);
    out.push_str(",\"source\":");
    match row.source {
        Some((file, line)) => {
            out.push_str("{\"file\":");
            push_str(out, file);
            let _ = write!(out, ",\"line\":{line}}}");
        }
        None => out.push_str("null"),
    }
    out.push('}');
}

fn peers(out: &mut String, row: &Row<'_>) {
    let c = &row.collective;
    out.push_str(",\"peers\":{\"form\":");
    push_str(out, form(row));
    out.push_str(",\"raw\":");
    push_opt_str(
        out,
        c.replica_groups
            .as_ref()
            .map(|g| g.raw)
            .or(c.source_target_pairs.as_ref().map(|p| p.raw)),
    );
    out.push_str(",\"group_size\":");
    opt_num(out, row.peering.group_size);
    out.push_str(",\"groups\":");
    opt_num(out, row.peering.groups);
    out.push_str(",\"moving_pairs\":");
    opt_num(out, row.peering.moving_pairs);
    out.push_str(",\"channel_id\":");
    opt_num(out, c.channel_id);
    let _ = write!(
        out,
        ",\"use_global_device_ids\":{},\"host_transfer\":{}",
        c.use_global_device_ids, c.is_host_transfer
    );
    out.push_str(",\"dimensions\":");
    match &c.dimensions {
        Some(d) => {
            out.push('[');
            for (i, v) in d.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{v}");
            }
            out.push(']');
        }
        None => out.push_str("null"),
    }
    out.push('}');
}

fn summary(out: &mut String, r: &Report<'_, '_>) {
    use super::schedule::Schedule;
    let rows = &r.collectives.rows;
    let count = |s: Schedule| rows.iter().filter(|x| x.placed.schedule == s).count();
    let known: Option<u64> = rows.iter().map(|x| x.at_least_bytes).sum();
    let _ = write!(
        out,
        "{{\"count\":{},\"sync\":{},\"pair_empty\":{},\"pair_overlap\":{},\"pair_unordered\":{},\"at_least_bytes\":",
        rows.len(),
        count(Schedule::Sync),
        count(Schedule::PairEmpty),
        count(Schedule::PairOverlap),
        count(Schedule::PairUnordered),
    );
    opt_num(out, known);
    out.push('}');
}
