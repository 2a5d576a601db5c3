//! `mdbook-dumplab explain DUMP [--log FILE] [--json]`: why these kernels.
//!
//! The work is `dumplab::explain::report`: for every input of every kernel
//! that comes from another kernel, why the two are separate (XLA's own
//! words from its fusion-decision log when `--log` gives one of the same
//! compile, else the reasons DumpLab's rules find in the dump, else
//! `unknown` with the flags that make XLA say), and every copy and
//! transpose with its layouts, bytes and source lines. `--json` prints the
//! object documented in `dumplab::analysis` ("JSON of `explain`").
//!
//! Exit status 0 with an explanation; 1 with one `mdbook-dumplab: error:
//! ...` line when a file cannot be read or the dump is not compiled HLO.
//! Text from the dump or the log is printed with its control characters
//! escaped.

use crate::cmd_analyze::read_input;
use crate::cmd_cost::bytes;
use anyhow::anyhow;
use dumplab::diagnostic::printable;
use dumplab::explain::boundaries::From;
use dumplab::explain::json::{detail, to_json};
use dumplab::explain::report::{Report, ask_of, with_folder_report, with_report};
use dumplab::explain::{InputExplained, KernelExplained};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(
    json: bool,
    log: Option<&Path>,
    folder: Option<&Path>,
    module: Option<&str>,
    dump: &Path,
) -> anyhow::Result<ExitCode> {
    let (name, text) = read_input(dump)?;
    let name = printable(&name).into_owned();
    let log_text = match log {
        Some(p) => Some(read_input(p)?.1),
        None => None,
    };
    let show = |r: &Report<'_, '_, '_>| {
        if json {
            format!("{}\n", to_json(r))
        } else {
            text_report(&name, r)
        }
    };
    let out = match folder {
        None => {
            with_report(&text, log_text.as_deref(), show).map_err(|e| anyhow!("{name}: {e}"))?
        }
        Some(dir) => crate::cmd_folder::with_folder(dir, |f, shown| {
            let m = crate::cmd_folder::module_of(f, module, shown, "--folder")?;
            with_folder_report(&text, log_text.as_deref(), Some((f, m)), show)
                .map_err(|e| anyhow!("{name}: {e}"))
        })?,
    };
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(out.as_bytes())?;
    lock.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn text_report(name: &str, r: &Report<'_, '_, '_>) -> String {
    let mut s = String::new();
    let e = &r.explanation;
    let (b, known, unknown) = e.summary();
    let _ = writeln!(
        s,
        "{name}: {} kernels, {b} boundaries between them: {known} explained, {unknown} unknown",
        e.kernels.len()
    );
    for u in r.repaired {
        let _ = writeln!(s, "  read on the repaired text: {}", printable(&u.note));
    }
    match &e.log {
        Some((pass, c)) => {
            let _ = writeln!(
                s,
                "XLA's log ({}): {} decisions read: {} fused, {} not fused ({} between two kernels of this dump, {} inside one kernel, {} about parameters, tuple elements, constants or names this dump no longer has)",
                pass.map_or("no fusion pass found", |p| p.as_str()),
                c.decisions,
                c.fused,
                c.not_fused,
                c.between,
                c.same_kernel,
                c.unresolved
            );
        }
        None => {
            let _ = writeln!(
                s,
                "no log: the reasons are DumpLab's rules, read from the dump"
            );
        }
    }
    if unknown > 0
        && e.log.is_none()
        && let Some(a) = ask_of(r.explanation.backend)
    {
        match a.flags {
            Some(f) => {
                let _ = writeln!(
                    s,
                    "for XLA's own reasons, compile with {f} and pass the log with --log"
                );
            }
            None => {
                let _ = writeln!(s, "XLA's own reasons: {}", a.note);
            }
        }
    }
    for k in &e.kernels {
        kernel(&mut s, r, k);
    }
    let c = dumplab::collectives::read(r.module, r.tree);
    if !c.rows.is_empty() {
        let _ = writeln!(s, "\ncollectives: which sharding made each one");
        for row in &c.rows {
            let _ = writeln!(
                s,
                "  line {}  {}  {}: {}: {}",
                r.pasted_line(row.line),
                printable(row.name),
                row.opcode,
                row.made.origin.id(),
                printable(&row.made.basis)
            );
        }
    }
    s
}

fn kernel(s: &mut String, r: &Report<'_, '_, '_>, k: &KernelExplained<'_, '_>) {
    let m = r.module;
    let Some(ins) = m.instruction(k.kernel.instruction) else {
        return;
    };
    let boundaries: Vec<&InputExplained<'_>> =
        k.inputs.iter().filter(|i| i.is_boundary()).collect();
    if boundaries.is_empty() && k.copy.is_none() {
        return;
    }
    let indent = "  ".repeat(k.depth);
    let _ = writeln!(
        s,
        "\n{indent}line {}  {}  {}{}",
        r.pasted_line(ins.line),
        printable(ins.name),
        k.kernel.kind.as_str(),
        k.kernel
            .detail
            .as_deref()
            .map(|d| format!(" {}", printable(d)))
            .unwrap_or_default()
    );
    if let Some(c) = &k.copy {
        let layouts = match (c.from_layout.as_deref(), c.to_layout.as_deref()) {
            (None, None) if c.shape.ends_with("[]") => "a scalar, no layout".to_owned(),
            (a, b) => format!(
                "layout {} -> {}{}",
                a.unwrap_or("(not printed)"),
                b.unwrap_or("(not printed)"),
                match (c.changes_layout(), c.moves_memory_space()) {
                    (Some(false), Some(true)) => {
                        " (the same dimension order and tiles, another memory space)"
                    }
                    (Some(false), _) => " (the same layout)",
                    _ => "",
                }
            ),
        };
        let _ = writeln!(
            s,
            "{indent}  {} {}: {layouts}, {}",
            c.opcode,
            printable(&c.shape),
            match (c.bytes, c.hbm_bytes) {
                (Some(b), Some(h)) if h != b => format!(
                    "{} read and written; to and from HBM {} (on-chip arrays left out, tile padding counted; the ledger's estimate)",
                    bytes(b),
                    bytes(h)
                ),
                (Some(b), _) => format!("{} read and written (the ledger's estimate)", bytes(b)),
                (None, _) => "bytes unknown".to_owned(),
            }
        );
        for (f, l) in &c.source_lines {
            let _ = writeln!(s, "{indent}  from {}:{l}", printable(f));
        }
        if let Some(a) = &c.added {
            let unread = if a.unread_before.is_empty() {
                String::new()
            } else {
                format!(
                    " (or in one of the {} unread files before it)",
                    a.unread_before.len()
                )
            };
            let step = match (a.step, a.pipeline.as_deref(), a.pass.as_deref()) {
                (Some(n), Some(pl), Some(p)) => {
                    format!(" (step {n:04}, {}: after {})", printable(pl), printable(p))
                }
                (Some(n), Some(pl), None) => format!(" (step {n:04}, {})", printable(pl)),
                _ => String::new(),
            };
            let _ = writeln!(s, "{indent}  first in {}{step}{unread}", printable(&a.file));
        } else if r.explanation.folder_module.is_some() {
            let _ = writeln!(
                s,
                "{indent}  in no numbered file of the folder's module: the pass that added it left no file in this folder"
            );
        }
    }
    for inp in boundaries {
        let from = match inp.from {
            From::Kernel(id) => m.instruction(id).map_or("?", |i| i.name),
            _ => "?",
        };
        let (reason, basis) = match inp.answer() {
            Some((reason, basis)) => (reason.id(), basis.as_str()),
            None => ("unknown", "no rule is sure"),
        };
        let _ = writeln!(
            s,
            "{indent}  input {} from {}: {reason} ({basis})",
            inp.operand,
            printable(from)
        );
        let by_absence = inp.after_fusion.is_some() || inp.folder_after_fusion.is_some();
        if inp.xla.is_empty() && (by_absence || inp.rules.is_empty()) {
            let _ = writeln!(
                s,
                "{indent}    {}",
                printable(&detail(m, k, inp, r.explanation.log.is_some()))
            );
        }
        for l in &inp.xla {
            let _ = writeln!(
                s,
                "{indent}    XLA (log line {}): {}",
                l.line,
                printable(l.message)
            );
        }
        for f in &inp.rules {
            let _ = writeln!(s, "{indent}    {}: {}", f.reason.id(), printable(&f.detail));
        }
    }
}
