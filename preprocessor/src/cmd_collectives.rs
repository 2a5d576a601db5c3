//! `mdbook-dumplab collectives DUMP [--chip NAME] [--json]`: the
//! collectives of a compiled sharded dump.
//!
//! The work is `dumplab::collectives::report`: for every collective the
//! module runs, its devices (groups or pairs), the bytes each device holds
//! and must at least move, its time bound on the chip's interconnect, its
//! schedule (synchronous, or a start/done pair and the kernels scheduled
//! between) and which sharding made it. `--json` prints the object
//! documented in `dumplab::analysis` ("JSON of `collectives`").
//!
//! Exit status 0 with a report; 1 with one `mdbook-dumplab: error: ...`
//! line when the file cannot be read, the dump is not compiled HLO or the
//! chip is no preset. Text from the dump is printed with its control
//! characters escaped.

use crate::cmd_analyze::read_input;
use crate::cmd_cost::{bytes, seconds};
use anyhow::anyhow;
use dumplab::collectives::Row;
use dumplab::collectives::json::{form, to_json};
use dumplab::collectives::report::{Report, backend_note, with_report};
use dumplab::collectives::schedule::Schedule;
use dumplab::diagnostic::printable;
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(json: bool, chip: Option<&str>, dump: &Path) -> anyhow::Result<ExitCode> {
    let (name, text) = read_input(dump)?;
    let name = printable(&name).into_owned();
    let out = with_report(&text, chip, |r| {
        if json {
            format!("{}\n", to_json(r))
        } else {
            text_report(&name, r)
        }
    })
    .map_err(|e| anyhow!("{name}: {e}"))?;
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(out.as_bytes())?;
    lock.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn text_report(name: &str, r: &Report<'_, '_>) -> String {
    let mut s = String::new();
    let rows = &r.collectives.rows;
    let count = |k: Schedule| rows.iter().filter(|x| x.placed.schedule == k).count();
    let pairs = rows.len() - count(Schedule::Sync);
    let _ = writeln!(
        s,
        "{name}: {} collective{}{}: {} synchronous, {pairs} start/done pair{} ({} with work scheduled between)",
        rows.len(),
        plural(rows.len() as u64),
        r.collectives
            .partitions
            .map(|p| format!(" on {p} partitions"))
            .unwrap_or_default(),
        count(Schedule::Sync),
        plural(pairs as u64),
        count(Schedule::PairOverlap),
    );
    if let Some(n) = backend_note(r.backend) {
        let _ = writeln!(s, "{n}");
    }
    match r.chip.chip {
        Some(c) => {
            let f = &c.interconnect.bandwidth;
            let _ = writeln!(
                s,
                "chip: {} ({}): {}\ninterconnect: {} at {:.0} GB/s ({}: \"{}\"{}); a time below is a bound from bandwidth alone: a collective's fixed latency, which the dump does not state, comes on top",
                c.name,
                c.full_name,
                r.chip.why,
                c.interconnect.name,
                f.value / 1e9,
                f.doc.title,
                f.quote,
                if f.derived.is_empty() {
                    String::new()
                } else {
                    format!("; {}", f.derived)
                }
            );
        }
        None => {
            let _ = writeln!(s, "chip: none ({})", r.chip.why);
        }
    }
    for row in rows {
        one(&mut s, r, row);
    }
    if rows.iter().any(|x| !x.placed.between.is_empty()) {
        let _ = writeln!(
            s,
            "\nThe kernels between a start and its done are the order XLA scheduled, the overlap it planned; only a profile shows whether they run at the same time."
        );
    }
    s
}

fn one(s: &mut String, r: &Report<'_, '_>, row: &Row<'_>) {
    let m = r.module;
    let done = row.placed.done.and_then(|d| m.instruction(d));
    let sched = match (row.placed.schedule, done) {
        (Schedule::Sync, _) => "synchronous".to_owned(),
        (k, Some(d)) => format!(
            "{} (done: line {} {})",
            k.sentence(),
            r.pasted_line(d.line),
            printable(d.name)
        ),
        (k, None) => k.sentence().to_owned(),
    };
    let _ = writeln!(
        s,
        "\nline {}  {}  {}: {sched}{}",
        r.pasted_line(row.line),
        printable(row.name),
        row.opcode,
        match (row.gpu_is_sync, row.gpu_kernel_strategy) {
            (Some(v), Some(k)) =>
                format!("; XLA:GPU's is_sync={v}, kernel_strategy={}", printable(k)),
            (Some(v), None) => format!("; XLA:GPU's is_sync={v}"),
            _ => String::new(),
        }
    );
    let c = &row.collective;
    let p = &row.peering;
    let who = match (form(row), p.groups, p.group_size) {
        ("pairs", Some(n), _) => format!(
            "{n} source-target pairs, {} to another device",
            p.moving_pairs.map_or("?".into(), |v| v.to_string())
        ),
        ("channel", _, _) => {
            if c.is_host_transfer {
                "the host (is_host_transfer=true)".to_owned()
            } else {
                "a channel peer".to_owned()
            }
        }
        (f, Some(g), Some(n)) => format!("{g} group{} of {n} devices ({f} form)", plural(g)),
        (f, _, _) => format!("groups not read ({f} form)"),
    };
    let raw = c
        .replica_groups
        .as_ref()
        .map(|g| format!(" replica_groups={}", printable(g.raw)))
        .or(c
            .source_target_pairs
            .as_ref()
            .map(|x| format!(" source_target_pairs={}", printable(x.raw))))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "  devices: {who};{raw}{}",
        c.channel_id
            .map(|id| format!(" channel_id={id}"))
            .unwrap_or_default()
    );
    let pay = row
        .payload_bytes
        .map_or("unknown".into(), |b| bytes(b as f64));
    let senders = match (p.moving_pairs, p.groups) {
        (Some(k), Some(n)) if k < n => {
            format!(" by each of the {k} devices that send elsewhere, 0 by the others")
        }
        _ => String::new(),
    };
    let least = match row.at_least_bytes {
        Some(b) => format!(
            "at least {} moved between devices{senders}{}",
            bytes(b as f64),
            r.seconds(row)
                .map(|t| format!(", at least {} on this chip", seconds(t)))
                .unwrap_or_default()
        ),
        None if c.is_host_transfer => {
            "a transfer to or from the host, not between devices".to_owned()
        }
        None => "interconnect bytes unknown".to_owned(),
    };
    let _ = writeln!(
        s,
        "  per device: {pay} payload; {least} ({})",
        row.wire.rule
    );
    if !row.placed.between.is_empty() {
        let names: Vec<String> = row
            .placed
            .between
            .iter()
            .filter_map(|&b| m.instruction(b))
            .map(|b| format!("line {} {}", r.pasted_line(b.line), printable(b.name)))
            .collect();
        let more = row.placed.between_count.saturating_sub(names.len());
        let _ = writeln!(
            s,
            "  scheduled between start and done: {}{}",
            names.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(
        s,
        "  made: {}: {}",
        row.made.origin.id(),
        printable(&row.made.basis)
    );
    let _ = writeln!(
        s,
        "  source: {}",
        match row.source {
            Some((f, l)) => format!("{}:{l}", printable(f)),
            None => "none (no metadata names a Python line)".to_owned(),
        }
    );
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
