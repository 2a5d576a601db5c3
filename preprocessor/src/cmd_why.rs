//! `mdbook-dumplab why TEXT... [--backend B] [--json]`: every reader that
//! applies to what was pasted (a compiled module, a fragment of one, HLO
//! before optimization, an out-of-memory report, a log line), and the
//! findings ranked by what they cost.
//!
//! The work is `dumplab::why`; this file reads the files and prints. Text
//! from the inputs is printed with its control characters escaped.
//! Exit status 0 with an answer (no finding is an answer); 1 with one
//! `mdbook-dumplab: error: ...` line when a file cannot be read or
//! `--backend` contradicts the text.

use crate::input::read_input;
use anyhow::anyhow;
use dumplab::diagnostic::printable;
use dumplab::why::catalogue::{self, CHAPTER};
use dumplab::why::memory::text_row;
use dumplab::why::{self, BackendFrom, Why, human};
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Findings printed in full; the rest are counted.
const SHOWN: usize = 12;

pub(crate) fn run(
    json: bool,
    backend: Option<&str>,
    files: &[PathBuf],
) -> anyhow::Result<ExitCode> {
    let backend = backend
        .map(why::parse_backend)
        .transpose()
        .map_err(|e| anyhow!("--backend: {e}"))?;
    let mut names = Vec::new();
    let mut texts = Vec::new();
    for f in files {
        let (name, text) = read_input(f)?;
        names.push(printable(&name).into_owned());
        texts.push(text);
    }
    let refs: Vec<&str> = texts.iter().map(|t| &**t).collect();
    let w = why::why(&refs, backend).map_err(|e| match names.as_slice() {
        [one] => anyhow!("{one}: {e}"),
        _ => anyhow!("{e}"),
    })?;
    let out = if json {
        format!("{}\n", why::json::to_json(&w))
    } else {
        text(&names, &w)
    };
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(out.as_bytes())?;
    lock.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn text(names: &[String], w: &Why) -> String {
    let mut s = String::new();
    for (name, i) in names.iter().zip(&w.inputs) {
        let _ = writeln!(s, "{name}: {}", i.scope.sentence);
        let backend = match i.backend {
            Some((b, BackendFrom::Evidence)) => format!("{} (named by the text)", b.as_str()),
            Some((b, BackendFrom::Given)) => format!(
                "{} (given with --backend, not found in the text)",
                b.as_str()
            ),
            None => "not named by the text (give it with --backend cpu|gpu|tpu)".to_owned(),
        };
        if i.scope.instructions > 0 {
            let _ = writeln!(s, "  kind: {}; backend: {backend}", i.kind);
        }
        for m in &i.memory {
            let mut figures: Vec<String> = m
                .figures
                .iter()
                .map(|f| format!("{} {}", f.name, printable(&f.size.printed)))
                .collect();
            if figures.is_empty() {
                figures = m.arrays.iter().map(|a| printable(a).into_owned()).collect();
            }
            let _ = writeln!(
                s,
                "  line {}: {}: {}",
                m.line,
                text_row(m.kind).name,
                figures.join(", ")
            );
            for a in m.allocations.iter().take(5) {
                let _ = writeln!(
                    s,
                    "    {}. {} {}{}",
                    a.rank,
                    a.size.as_ref().map_or("?", |b| b.printed.as_str()),
                    printable(a.shape.as_deref().unwrap_or("(no shape)")),
                    a.unpadded
                        .as_ref()
                        .map_or(String::new(), |u| format!(", unpadded {}", u.printed))
                );
            }
        }
        if let Some(next) = &i.next {
            let _ = writeln!(s, "  next: {next}");
        }
    }
    findings(&mut s, names, w);
    s
}

fn findings(s: &mut String, names: &[String], w: &Why) {
    if w.findings.is_empty() {
        let _ = writeln!(
            s,
            "no finding: none of the {} findings of the catalogue has its evidence here ({CHAPTER} lists them)",
            catalogue::FINDINGS.len()
        );
        return;
    }
    let _ = writeln!(s, "top suspects, by bytes times runs:");
    for (n, f) in w.findings.iter().take(SHOWN).enumerate() {
        let row = catalogue::row(f.what);
        let _ = writeln!(s, "{}. [{}] {}", n + 1, row.name, row.title);
        let _ = writeln!(s, "   {}", printable(&f.summary));
        if let Some(b) = f.bytes {
            let runs = match f.runs.count() {
                Some(1) => String::new(),
                Some(r) => format!(" x {r} runs"),
                None => " (runs unknown: counted once)".to_owned(),
            };
            let _ = writeln!(s, "   bytes: {}{runs}", human(b));
        }
        let name = names.get(f.input).map_or("-", String::as_str);
        for l in &f.evidence {
            let who = if l.name.is_empty() {
                String::new()
            } else {
                format!("{}: ", printable(&l.name))
            };
            let _ = writeln!(s, "   {name}:{}: {who}{}", l.line, printable(&l.note));
        }
        let _ = writeln!(
            s,
            "   try: {}",
            f.try_this.as_deref().unwrap_or(row.try_this)
        );
        let _ = writeln!(s, "   read: {CHAPTER}#{}", row.anchor);
    }
    if w.findings.len() > SHOWN {
        let _ = writeln!(
            s,
            "... {} more (use --json to see all)",
            w.findings.len() - SHOWN
        );
    }
}
