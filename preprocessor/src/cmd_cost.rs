//! `mdbook-dumplab cost DUMP [--chip NAME] [--json]`: where the time goes,
//! per kernel of a compiled dump.
//!
//! The work is `dumplab::cost::report`: XLA's own figures (flops,
//! transcendentals, bytes accessed, as XLA's generic cost model counts
//! them), DumpLab's estimate where XLA's is wrong or empty, and the
//! roofline on a chip preset (the one asked for, else the default of the
//! platform the dump is compiled for, else none). The text output is a
//! table; `--json` prints the object documented in `dumplab::analysis`
//! ("JSON of `cost`").
//!
//! Exit status 0 with a ledger; 1 with one `mdbook-dumplab: error: ...`
//! line when the file cannot be read, is not compiled HLO, or `--chip`
//! names no preset. Text from the dump is printed with its control
//! characters escaped.

use crate::cmd_analyze::read_input;
use anyhow::anyhow;
use dumplab::cost::estimate::REASONS;
use dumplab::cost::json::to_json;
use dumplab::cost::report::{Report, with_report};
use dumplab::cost::{Figure, ledger::Entry};
use dumplab::diagnostic::printable;
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Kernels the table lists before it says how many more there are.
const SHOWN: usize = 40;

pub(crate) fn run(json: bool, chip: Option<&str>, dump: &Path) -> anyhow::Result<ExitCode> {
    let (name, text) = read_input(dump)?;
    let name = printable(&name).into_owned();
    let out = with_report(&text, chip, |r| {
        if json {
            format!("{}\n", to_json(r))
        } else {
            table(&name, r)
        }
    })
    .map_err(|e| anyhow!("{name}: {e}"))?;
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(out.as_bytes())?;
    lock.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `1.2 G`, `512`, `3.4 k`: a count with an SI prefix.
pub(crate) fn count(v: f64) -> String {
    let units = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (scale, u) in units {
        if v >= scale {
            return format!("{:.3} {u}", v / scale);
        }
    }
    format!("{v:.0}")
}

/// `6.00 MiB`: bytes with a binary prefix.
pub(crate) fn bytes(v: f64) -> String {
    let units = [
        (1u64 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (scale, u) in units {
        if v >= scale as f64 {
            return format!("{:.2} {u}", v / scale as f64);
        }
    }
    format!("{v:.0} B")
}

/// `1.23 us`: seconds at a readable scale.
pub(crate) fn seconds(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.3} s")
    } else if v >= 1e-3 {
        format!("{:.3} ms", v * 1e3)
    } else if v >= 1e-6 {
        format!("{:.3} us", v * 1e6)
    } else {
        format!("{:.1} ns", v * 1e9)
    }
}

fn fig(f: Figure, show: fn(f64) -> String) -> String {
    if f.unknown > 0 {
        "unknown".to_owned()
    } else {
        show(f.known)
    }
}

fn table(name: &str, r: &Report<'_, '_>) -> String {
    let mut s = String::new();
    let l = &r.ledger;
    let _ = writeln!(s, "{name}: {} kernels", l.kernels.len());
    for u in r.repaired {
        let _ = writeln!(s, "  costed on the repaired text: {}", printable(&u.note));
    }
    match r.chip.chip {
        Some(c) => {
            let _ = writeln!(s, "chip: {} ({}): {}", c.name, c.full_name, r.chip.why);
        }
        None => {
            let _ = writeln!(s, "chip: none: {}", r.chip.why);
        }
    }
    let x = &l.xla;
    let _ = writeln!(
        s,
        "XLA's cost model: {} flops, {} transcendentals, {} accessed{}",
        count(x.flops.known),
        count(x.transcendentals.known),
        bytes(x.bytes.known),
        unknown_note(x.flops.unknown.max(x.bytes.unknown))
    );
    let e = &l.estimate;
    let _ = writeln!(
        s,
        "DumpLab's estimate: {} flops, {} transcendentals, {} accessed{}{}",
        count(e.figures.flops.known),
        count(e.figures.transcendentals.known),
        bytes(e.figures.bytes.known),
        if e.bytes_padded.known != e.figures.bytes.known {
            format!(" ({} with tile padding)", bytes(e.bytes_padded.known))
        } else {
            String::new()
        },
        match e.figures.flops.unknown {
            0 => String::new(),
            1 => " (and 1 kernel whose flops the dump does not state)".to_owned(),
            n => format!(" (and {n} kernels whose flops the dump does not state)"),
        }
    );
    if l.unread > 0 {
        let _ = writeln!(
            s,
            "  {} instructions could not be read; their figures are left out",
            l.unread
        );
    }
    s.push('\n');
    rows(&mut s, r);
    if let Some(m) = &r.roof {
        let overlapped = m.overlapping_pairs;
        if overlapped == 0 {
            let _ = writeln!(
                s,
                "\nlower bound on the module: {} (the kernels' bounds summed, one after another)",
                seconds(m.lower_bound_s)
            );
        } else {
            let _ = writeln!(
                s,
                "\nthe kernels' bounds summed, one after another: {} (no lower bound on the module here: {overlapped} collective start/done pair{} with work scheduled between may run at the same time as that work)",
                seconds(m.lower_bound_s),
                if overlapped == 1 { "" } else { "s" }
            );
        }
        if let (Some(o), Some(c)) = (m.overhead_per_kernel_s, r.chip.chip) {
            let _ = writeln!(
                s,
                "kernel launches: {}{}; at an assumed {} each, {} of fixed overhead beside the bounds ({})",
                m.kernel_runs,
                if m.runs_known {
                    ""
                } else {
                    " at least (a loop states no trip count)"
                },
                seconds(o),
                seconds(o * m.kernel_runs as f64),
                c.overhead.note
            );
        }
    }
    links(&mut s, r);
    reasons(&mut s, r);
    s.push_str(
        "\nThis is a lower bound from the dump under a simple model: every byte from HBM (a kernel whose data sits in a cache can beat it) and the kernels one after another (asynchronous copies that overlap compute can make the module faster than the sum). Only a profile measures time.\n",
    );
    s
}

fn unknown_note(n: u64) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(
            " (not counting {n} instruction{} XLA cannot cost)",
            if n == 1 { "" } else { "s" }
        )
    }
}

fn rows(s: &mut String, r: &Report<'_, '_>) {
    let _ = writeln!(
        s,
        "{:>5}  {:<34} {:<12} {:>6} {:>12} {:>11} {:>9} {:>8} {:>11}",
        "line", "kernel", "kind", "runs", "flops/run", "HBM B/run", "flop/B", "bound", "all runs"
    );
    let order: Vec<usize> = match &r.roof {
        Some(m) => m.ranked.clone(),
        None => (0..r.ledger.kernels.len()).collect(),
    };
    for &i in order.iter().take(SHOWN) {
        let Some(e) = r.ledger.kernels.get(i) else {
            continue;
        };
        let roof = r.roof.as_ref().and_then(|m| m.kernels.get(i));
        let _ = writeln!(
            s,
            "{:>5}  {:<34} {:<12} {:>6} {:>12} {:>11} {:>9} {:>8} {:>11}",
            r.pasted_line(e.line),
            name(e),
            e.kind.as_str(),
            e.runs.map_or("?".to_owned(), |n| n.to_string()),
            fig(e.estimate.figures.flops, count),
            fig(e.estimate.hbm_bytes(), bytes),
            roof.and_then(|k| k.intensity)
                .map_or("-".to_owned(), |v| format!("{v:.2}")),
            roof.and_then(|k| k.bound).map_or("-", |b| b.name()),
            roof.map_or("-".to_owned(), |k| {
                let t = seconds(k.lower_bound_s * e.runs.unwrap_or(1) as f64);
                if k.bound.is_some() {
                    t
                } else {
                    format!("{t}*")
                }
            }),
        );
    }
    let bytes_only = r
        .roof
        .as_ref()
        .is_some_and(|m| m.kernels.iter().any(|k| k.bound.is_none()));
    if bytes_only {
        s.push_str("  * no verdict: the flops are unknown, or some have no roof on this chip (the bound counts what has one)\n");
    }
    if order.len() > SHOWN {
        let _ = writeln!(
            s,
            "  ... and {} more kernels (--json lists every one)",
            order.len() - SHOWN
        );
    }
}

fn name(e: &Entry<'_>) -> String {
    let indent = "  ".repeat(e.depth.min(4));
    let n = printable(e.name);
    let mut v = format!("{indent}{n}");
    if v.chars().count() > 34 {
        v = v.chars().take(33).collect::<String>() + "…";
    }
    v
}

fn reasons(s: &mut String, r: &Report<'_, '_>) {
    // The module's estimate holds every kernel's reasons.
    let used = &r.ledger.estimate.reasons;
    if used.is_empty() {
        return;
    }
    s.push_str("\nwhere the estimate differs from XLA's figures:\n");
    for row in REASONS.iter().filter(|row| used.contains(&row.reason)) {
        let _ = writeln!(s, "  {}: {}", row.id, row.text);
    }
}

/// The collectives' bytes over the chip's interconnect, when the module
/// has any.
fn links(s: &mut String, r: &Report<'_, '_>) {
    let (Some(m), Some(c)) = (&r.roof, r.chip.chip) else {
        return;
    };
    let rows: Vec<(usize, &dumplab::cost::roofline::Link)> = m
        .kernels
        .iter()
        .enumerate()
        .filter_map(|(i, k)| k.link.as_ref().map(|l| (i, l)))
        .collect();
    if rows.is_empty() {
        return;
    }
    let f = &c.interconnect.bandwidth;
    let _ = writeln!(
        s,
        "\ncollectives over {} ({:.0} GB/s, both directions together: {}, \"{}\"); the bytes each device must at least move, whatever the algorithm (mdbook-dumplab collectives says why), over that bandwidth: a bound from bandwidth alone, a collective's fixed latency, which the dump does not state, comes on top:",
        c.interconnect.name,
        f.value / 1e9,
        f.doc.title,
        f.quote
    );
    for (i, l) in rows {
        let e = &r.ledger.kernels[i];
        let _ = writeln!(
            s,
            "  line {}  {}: at least {}, at least {}",
            r.pasted_line(e.line),
            printable(e.name),
            bytes(l.bytes as f64),
            seconds(l.seconds)
        );
    }
}
