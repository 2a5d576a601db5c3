//! `mdbook-dumplab analyze [--json] FILE...`: says what kind of dump each
//! file is and why, for instructors checking a fixture and for scripts.
//!
//! The work is `dumplab::analyze`; this module only reads files (or standard
//! input for `-`) and prints. Every readable input is analysed and the exit
//! status is 0 whatever its kind; an unreadable input is named with what to
//! do, the others are still analysed, and the exit status is 1.

pub(crate) use crate::input::read_input;
use dumplab::diagnostic::printable;
use dumplab::{Analysis, Kind, analyze};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// How many evidence lines the human report shows per input.
const SHOWN_EVIDENCE: usize = 12;

/// Bytes buffered before a write to standard output: a JSON report of a
/// large dump is tens of MB, written in a few thousand system calls.
const OUT_BUFFER: usize = 1 << 16;

pub(crate) fn run(json: bool, files: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(OUT_BUFFER, stdout.lock());
    let mut failed = false;
    for (i, path) in files.iter().enumerate() {
        let (name, text) = match read_input(path) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("mdbook-dumplab: error: {}", printable(&format!("{e:#}")));
                failed = true;
                continue;
            }
        };
        let a = analyze(&text);
        // Kernels as the fusion chapter counts them: the analysis' own.
        let kernels = a.kernels.iter().filter(|k| k.in_entry).count();
        if json {
            write_json_line(&mut out, &name, &a, kernels)?;
        } else {
            if i > 0 {
                writeln!(out)?;
            }
            // Names and notes quote the dump: a hostile one must not drive
            // the terminal.
            for line in human(&name, &a, &text).lines() {
                writeln!(out, "{}", printable(line))?;
            }
        }
        if i + 1 == files.len() {
            // The process ends next: freeing the last analysis one string
            // at a time (thousands of source ops and kernels for a large
            // dump) would be work the exit does at once.
            std::mem::forget(a);
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// One line of `--json`: `file` first, then the analysis' fields in their
/// order, then `entry_kernels` (schema in the `dumplab` crate docs, module
/// `analysis`).
#[derive(serde::Serialize)]
struct JsonLine<'a> {
    file: &'a str,
    #[serde(flatten)]
    analysis: &'a Analysis,
    /// How many of the analysis' `kernels` are in the entry computation.
    entry_kernels: usize,
}

/// Writes one JSON object and a newline to `out`, streamed: a report of a
/// large dump is never held in memory whole.
fn write_json_line(
    out: &mut impl Write,
    name: &str,
    a: &Analysis,
    kernels: usize,
) -> anyhow::Result<()> {
    let line = JsonLine {
        file: name,
        analysis: a,
        entry_kernels: kernels,
    };
    // As an `io::Error` again (the original one when writing failed): a
    // reader that went away must still read as a broken pipe.
    serde_json::to_writer(&mut *out, &line).map_err(std::io::Error::from)?;
    out.write_all(b"\n")?;
    Ok(())
}

fn human(name: &str, a: &Analysis, text: &str) -> String {
    let mut s = String::new();
    let backend = match (a.backend, a.backend_guess, &a.backend_reason) {
        (Some(b), ..) => format!(" for {}", b.as_str().to_uppercase()),
        (None, Some(g), Some(r)) => format!(
            ", backend not named ({}; a guess: {})",
            r.split(';').next().unwrap_or(r),
            g.as_str().to_uppercase()
        ),
        _ => String::new(),
    };
    let dialect = a
        .dialect
        .map(|d| format!(", dialect {}", d.as_str()))
        .unwrap_or_default();
    s.push_str(&format!(
        "{name}: {}{backend}{dialect} ({} lines)\n",
        a.kind, a.lines
    ));
    for u in &a.unwrapped {
        s.push_str(&format!(
            "  unwrapped ({}): {}; {} lines from line {}\n",
            u.what.as_str(),
            u.note,
            u.lines,
            u.first_line
        ));
    }
    if !a.pasted_modules.is_empty() {
        let at: Vec<String> = a.pasted_modules.iter().map(usize::to_string).collect();
        s.push_str(&format!(
            "  warning: {} modules in one text (they start on lines {}): read as one; give each dump on its own\n",
            a.pasted_modules.len(),
            at.join(", ")
        ));
    }
    if let Some(r) = &a.reason {
        s.push_str(&format!("  why unknown: {r}\n"));
    }
    if let (Some(g), Some(rule)) = (a.kind_guess, a.kind_guess_rule) {
        s.push_str(&format!(
            "  a guess, not an answer: {g} (suggested by rule `{rule}`, a hint, never proof)\n"
        ));
    }
    match (a.kind_rule, &a.kind_likely) {
        (Some(_), Some(likely)) => s.push_str(&format!("  {likely}\n")),
        (Some(rule), None) => s.push_str(&format!(
            "  decided by rule `{rule}` (mdbook-dumplab markers lists the rules)\n"
        )),
        _ => {}
    }
    if a.kind.is_hlo() || (a.kind == Kind::Unknown && !a.computations.is_empty()) {
        let entry = a.entry_computation.as_deref().map_or_else(
            || {
                // A keyword with a zero-width character inside is not
                // read: say so, with where the first such character is.
                format!(
                    "no ENTRY computation in this text{}",
                    dumplab::analysis::invisible::hint(
                        text,
                        &dumplab::analysis::pasted::LineMap::default()
                    )
                )
            },
            |e| format!("entry `{e}`"),
        );
        s.push_str(&format!(
            "  {} computations, {entry}, {} fusions ({} in the entry), {} custom calls, {} while loops, {} conditionals\n",
            a.computations.len(),
            a.fusions.len(),
            a.entry_fusions,
            a.custom_calls.len(),
            a.while_loops.len(),
            a.conditionals.len()
        ));
        for f in a.fusions.iter().take(SHOWN_EVIDENCE) {
            s.push_str(&format!(
                "    fusion {} ({}): {}\n",
                f.name,
                f.kind,
                f.ops.join(", ")
            ));
        }
    }
    if a.kind == Kind::Stablehlo {
        let funcs: Vec<_> = a.functions.iter().map(|f| format!("@{}", f.name)).collect();
        if funcs.is_empty() {
            s.push_str("  functions: none in this text (no `func.func` line)\n");
        } else {
            s.push_str(&format!("  functions: {}\n", funcs.join(", ")));
        }
    }
    if a.kind == Kind::Jaxpr {
        let nested = a.equations.iter().filter(|e| e.depth > 0).count();
        s.push_str(&format!(
            "  {} equations ({} inside sub-jaxprs)\n",
            a.equations.len(),
            nested
        ));
    }
    if !a.op_histogram.is_empty() {
        let mut ops: Vec<_> = a.op_histogram.iter().collect();
        ops.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
        let top: Vec<_> = ops
            .iter()
            .take(8)
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        s.push_str(&format!("  most used ops: {}\n", top.join(", ")));
    }
    let deciding: Vec<_> = a.deciding_evidence().collect();
    if !deciding.is_empty() {
        s.push_str("  why:\n");
        for e in deciding.iter().take(SHOWN_EVIDENCE) {
            s.push_str(&format!(
                "    {name}:{}:{}: [{}] {}\n",
                e.line, e.columns.start, e.marker, e.note
            ));
        }
    }
    let rest = a.evidence.len() - deciding.len().min(SHOWN_EVIDENCE);
    if rest > 0 {
        s.push_str(&format!("  {rest} more clues (use --json to see all)\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    //! The streamed JSON writer must print, byte for byte, what the command
    //! printed when it built each line as a string and spliced `file` and
    //! `entry_kernels` around the analysis: checked on every fixture dump.

    use super::*;

    /// The former writer, kept as the reference.
    fn spliced_json_line(name: &str, a: &Analysis, kernels: usize) -> String {
        let body = serde_json::to_string(a).unwrap_or_default();
        let rest = body.strip_prefix('{').unwrap_or(&body);
        let rest = rest.strip_suffix('}').unwrap_or(rest);
        let sep = if rest.is_empty() { "" } else { "," };
        let file = serde_json::to_string(name).unwrap_or_default();
        format!("{{\"file\":{file}{sep}{rest},\"entry_kernels\":{kernels}}}\n")
    }

    fn streamed(name: &str, a: &Analysis, kernels: usize) -> String {
        let mut out = Vec::new();
        assert!(write_json_line(&mut out, name, a, kernels).is_ok());
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn streamed_json_matches_the_spliced_string_on_every_fixture() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let mut checked = 0;
        for fam in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            for f in std::fs::read_dir(fam.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let path = f.path();
                if path.extension().is_some_and(|e| e == "py" || e == "toml") {
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                let a = analyze(&text);
                let kernels = a.kernels.iter().filter(|k| k.in_entry).count();
                let name = path.display().to_string();
                assert_eq!(
                    streamed(&name, &a, kernels),
                    spliced_json_line(&name, &a, kernels),
                    "{name}"
                );
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} fixture dumps found");
        // Hostile names and texts: quotes, control characters, non-ASCII.
        for (name, text) in [
            ("a\"b\\c\u{1b}[2J\u{2028}é", "HloModule \"x\u{7}\n"),
            ("-", ""),
        ] {
            let a = analyze(text);
            assert_eq!(streamed(name, &a, 3), spliced_json_line(name, &a, 3));
        }
    }
}
