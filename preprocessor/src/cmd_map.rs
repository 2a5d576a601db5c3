//! `mdbook-dumplab map LOWERED COMPILED [--json]`: which Python lines ended
//! up in which kernels.
//!
//! The work is `dumplab::sourcemap::map`; this module reads the two files
//! (one may be `-` for standard input), checks that they are a lowered and
//! a compiled dump of one function, and prints per source line the lowered
//! ops and the kernels it landed in, then the kernels whose provenance is
//! lost. `--json` prints the object documented in `dumplab::sourcemap::json`.
//!
//! A LOWERED text of HLO whose kind the text cannot prove (no proof either
//! way, see `dumplab::analysis::classify`) is read as the lowered dump, as
//! its position says, with one note on standard error.
//!
//! Exit status 0 with a map; 1 with one `mdbook-dumplab: error: ...` line
//! when a file cannot be read, is not the kind of dump expected, or the two
//! are dumps of different functions. Text from the dumps is printed with
//! its control characters escaped.

use crate::cmd_analyze::read_input;
use anyhow::bail;
use dumplab::analysis::Dialect;
use dumplab::diagnostic::printable;
use dumplab::sourcemap::{self, SourceMap};
use dumplab::{Kind, analyze};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// How many lowered ops the human report lists per source line.
const SHOWN_OPS: usize = 8;

pub(crate) fn run(json: bool, lowered: &Path, compiled: &Path) -> anyhow::Result<ExitCode> {
    if lowered == Path::new("-") && compiled == Path::new("-") {
        bail!("only one of LOWERED and COMPILED can be `-` (standard input)");
    }
    let (lname, ltext) = read_input(lowered)?;
    let (cname, ctext) = read_input(compiled)?;
    let lk = analyze(&ltext);
    let ck = analyze(&ctext);
    let lname = printable(&lname).into_owned();
    let cname = printable(&cname).into_owned();
    let lowered_kinds = [Kind::Stablehlo, Kind::Jaxpr, Kind::HloUnoptimized];
    if lk.kind == Kind::HloOptimized && lowered_kinds.contains(&ck.kind) {
        bail!(
            "{lname} is compiled HLO and {cname} a {} dump: the arguments are the wrong way round (LOWERED first, then COMPILED)",
            ck.kind
        );
    }
    // HLO whose kind no line proves (only hints, or none): the position
    // names it the lowered dump, and one line says the text could not.
    let unproved = lk.dialect == Some(Dialect::Hlo)
        && ((lk.kind == Kind::Unknown && lk.kind_guess != Some(Kind::HloOptimized))
            || lk.kind_likely.is_some());
    if unproved {
        let guess = if lk.kind_likely.is_some() {
            " (its hints make it likely, not proved)".to_owned()
        } else {
            lk.kind_guess.map_or_else(String::new, |g| {
                format!(" (its hints suggest {g}, a guess)")
            })
        };
        eprintln!(
            "mdbook-dumplab: note: {lname}: the text does not prove that it is HLO before optimization{guess}; read as the lowered dump, as its position says"
        );
    } else if !lowered_kinds.contains(&lk.kind) {
        bail!(
            "{lname}: expected a lowered dump (StableHLO, a jaxpr or HLO before optimization), found {}",
            describe(&lk)
        );
    }
    if ck.kind != Kind::HloOptimized {
        bail!(
            "{cname}: expected compiled HLO (`lower(...).compile().as_text()`), found {}",
            describe(&ck)
        );
    }
    let m = sourcemap::map(&ltext, &ctext);
    if m.kernels.is_empty() {
        bail!(
            "{cname}: no kernel found: the text has no ENTRY computation, or nothing in it runs{}",
            printable(&dumplab::analysis::invisible::hint(
                &ctext,
                &dumplab::analysis::pasted::LineMap::default()
            ))
        );
    }
    if let Some(why) = &m.mismatch {
        bail!("{lname} and {cname}: {}", printable(why));
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if json {
        writeln!(out, "{}", sourcemap::json::to_json(&m))?;
    } else {
        write!(out, "{}", human(&lname, &cname, &m))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `a stablehlo dump`, or `an unknown text (why)`.
fn describe(a: &dumplab::Analysis) -> String {
    match (&a.kind, &a.reason) {
        (Kind::Unknown, Some(r)) => format!("text of unknown kind ({})", printable(r)),
        (k, _) => format!("a {k} dump"),
    }
}

fn op_list(m: &SourceMap, ids: &[usize]) -> String {
    let mut s = String::new();
    for (i, o) in ids.iter().filter_map(|&i| m.lowered_ops.get(i)).enumerate() {
        if i == SHOWN_OPS {
            let _ = write!(s, ", ... ({} more)", ids.len() - SHOWN_OPS);
            break;
        }
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(
            s,
            "{} {} (line {})",
            printable(&o.name),
            printable(&o.op),
            o.line
        );
    }
    s
}

fn names(m: &SourceMap, ids: &[usize]) -> String {
    let v: Vec<String> = ids
        .iter()
        .filter_map(|&i| m.kernels.get(i))
        .map(|k| printable(&k.name).into_owned())
        .collect();
    v.join(", ")
}

fn human(lname: &str, cname: &str, m: &SourceMap) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{lname} -> {cname}: {} lowered ops, {} kernels in `{}`, {} source lines",
        m.lowered_ops.len(),
        m.kernels.len(),
        printable(m.entry.as_deref().unwrap_or("?")),
        m.source_lines.len()
    );
    for e in &m.source_lines {
        let _ = writeln!(s, "\n{}:{}", printable(&e.source.file), e.source.line);
        let ops = op_list(m, &e.lowered_ops);
        let _ = writeln!(
            s,
            "  lowered: {}",
            if ops.is_empty() { "(none)" } else { &ops }
        );
        let ks = names(m, &e.kernels);
        let _ = writeln!(
            s,
            "  kernels: {}",
            if ks.is_empty() {
                "(none: folded away or provenance lost)"
            } else {
                &ks
            }
        );
    }
    let _ = writeln!(s, "\nkernels, in run order:");
    for k in &m.kernels {
        let what = match &k.detail {
            Some(d) => format!("{} {}", k.kind.map_name(), printable(d)),
            None => k.kind.map_name().to_owned(),
        };
        let lines: Vec<String> = k
            .source_lines
            .iter()
            .filter_map(|&i| m.line(i))
            .map(|l| format!("{}:{}", printable(&l.file), l.line))
            .collect();
        let _ = writeln!(
            s,
            "  {} ({what}) line {}: {} -> {}; reads {}, writes {}; from {}",
            printable(&k.name),
            k.line,
            printable(&k.operand_shapes.join(", ")),
            printable(&k.shape),
            bytes(k.bytes_read),
            bytes(k.bytes_written),
            if lines.is_empty() {
                match k.origin {
                    Some(o) => format!("no source line (a collective; made: {o})"),
                    None => "no source line".to_owned(),
                }
            } else {
                lines.join(", ")
            }
        );
    }
    let lost: Vec<usize> = m
        .kernels
        .iter()
        .enumerate()
        .filter(|(_, k)| k.source_lines.is_empty())
        .map(|(i, _)| i)
        .collect();
    let _ = writeln!(
        s,
        "\nkernels whose provenance is lost: {}",
        if lost.is_empty() {
            "none".to_owned()
        } else {
            names(m, &lost)
        }
    );
    if m.truncated {
        let _ = writeln!(
            s,
            "note: many kernels share huge called computations; the walk through them stopped early, so some kernels' source lines may be missing"
        );
    }
    let bare: Vec<usize> = m
        .lowered_ops
        .iter()
        .enumerate()
        .filter(|(_, o)| o.source_lines.is_empty())
        .map(|(i, _)| i)
        .collect();
    let _ = writeln!(
        s,
        "lowered ops without a source line: {}",
        if bare.is_empty() {
            "none".to_owned()
        } else {
            format!("{}: {}", bare.len(), op_list(m, &bare))
        }
    );
    if let Some(hint) = m.unlocated_hint() {
        let _ = writeln!(s, "note: {hint}");
    }
    s
}

/// `4.0 MiB`, `512 B`, `?`.
fn bytes(b: Option<u64>) -> String {
    match b {
        None => "?".to_owned(),
        Some(b) if b < 1024 => format!("{b} B"),
        Some(b) if b < 1024 * 1024 => format!("{:.1} KiB", b as f64 / 1024.0),
        Some(b) => format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
    }
}
