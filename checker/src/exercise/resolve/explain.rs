//! `type = "explain"`: why these kernels (`crate::explain`), one row per
//! thing a question may ask in [`EXPLAIN_ASKS`]: why a kernel's input from
//! another kernel is not fused into it (a choice among the reasons), which
//! kernel produces an input (a line), and the bytes a copy moves (a
//! number). The key is the explainer's, computed from the dump (and, with
//! `log = true`, XLA's fusion log of the same compile) on every build.

use super::cx::{Cx, did_you_mean, find_ask};
use super::library::Library;
use super::lookup::{Ref, lookup, snippet_of};
use super::parts::Parts;
use super::provenance::{Shown, context_of};
use crate::exercise::key::Mode;
use crate::exercise::model::ExplainQuestion;
use crate::explain::InputExplained;
use crate::explain::boundaries::From;
use crate::explain::reasons::REASONS;
use crate::explain::report::{Report, with_report};

/// What an `explain` question may ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainAsk {
    /// Why an input from another kernel is a separate kernel.
    Reason,
    /// The line of the kernel that produces an input.
    From,
    /// The bytes a copy or transpose moves.
    CopyBytes,
    /// What a copy changes: the layout, the memory space, both or neither.
    CopyChange,
}

/// One row of [`EXPLAIN_ASKS`].
pub struct ExplainAskRow {
    /// What it asks.
    pub ask: ExplainAsk,
    /// Its name in exercise files.
    pub name: &'static str,
    /// Whether it needs `operand`.
    pub of_operand: bool,
    /// What it is, as `exercises/FORMAT.md` and the answer say it.
    pub what: &'static str,
}

/// The asks, one row each.
pub const EXPLAIN_ASKS: &[ExplainAskRow] = &[
    ExplainAskRow {
        ask: ExplainAsk::Reason,
        name: "reason",
        of_operand: true,
        what: "why the kernel's input from another kernel was not fused into it",
    },
    ExplainAskRow {
        ask: ExplainAsk::From,
        name: "from",
        of_operand: true,
        what: "the line of the kernel whose result the input is",
    },
    ExplainAskRow {
        ask: ExplainAsk::CopyBytes,
        name: "copy-bytes",
        of_operand: false,
        what: "the bytes the copy or transpose reads and writes, as the ledger's estimate counts them (an asynchronous copy read once and written once)",
    },
    ExplainAskRow {
        ask: ExplainAsk::CopyChange,
        name: "copy-change",
        of_operand: false,
        what: "what the copy changes: the layout, the memory space, both, or neither",
    },
];

/// The answers of `copy-change`: id, label.
const CHANGES: &[(&str, &str)] = &[
    ("layout", "the layout only"),
    ("memory-space", "the memory space only"),
    ("both", "the layout and the memory space"),
    ("neither", "neither: the same layout in the same memory"),
];

/// Resolves an `explain` question.
pub(super) fn resolve(q: &ExplainQuestion, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let r = lookup(&q.snippet, library, "snippet", cx)?;
    let row = ask_row(q, cx)?;
    let log = if q.log {
        log_of(&r, library, cx)?
    } else {
        None
    };
    let text = r.dump.text.clone();
    let built = with_report(&text, log.as_deref(), |rep| build(q, row, &r, rep, cx));
    match built {
        Ok(Some(mut p)) => {
            p.context = context_of(&r, library, Shown::All);
            p.snippet = Some(snippet_of(&r, None));
            Some(p)
        }
        Ok(None) => None,
        Err(e) => {
            cx.error("snippet", e, "ask about a compiled dump");
            None
        }
    }
}

fn ask_row(q: &ExplainQuestion, cx: &mut Cx<'_>) -> Option<&'static ExplainAskRow> {
    let row = find_ask(EXPLAIN_ASKS, |a| a.name, &q.ask, "an explain question", cx)?;
    match (row.of_operand, q.operand) {
        (true, None) => {
            cx.error(
                "ask",
                format!(
                    "`ask = \"{}\"` is asked of one input of the kernel",
                    row.name
                ),
                "add `operand = N`, the input's position from 0",
            );
            None
        }
        (false, Some(_)) => {
            cx.error(
                "operand",
                format!("`ask = \"{}\"` is asked of the kernel itself", row.name),
                "remove `operand`",
            );
            None
        }
        _ => Some(row),
    }
}

/// The family's fusion log of the snippet's target (`compiled.cpu.hlo.txt`
/// -> `fusion-log.cpu.txt`).
fn log_of(r: &Ref<'_>, library: &Library, cx: &mut Cx<'_>) -> Option<Option<String>> {
    let target = r
        .file
        .strip_prefix("compiled.")
        .and_then(|f| f.strip_suffix(".hlo.txt"))
        .filter(|t| !t.contains('.'));
    let name = target.map(|t| format!("fusion-log.{t}.txt"));
    match name.and_then(|n| {
        library
            .get(&(r.family.to_owned(), n.clone()))
            .map(|d| (n, d))
    }) {
        Some((_, d)) => Some(Some(d.text.clone())),
        None => {
            cx.error(
                "log",
                format!("`{}` has no fusion log beside it", r.file),
                "write it with `python fixtures/fusion_logs.py FAMILY`, or remove `log = true`",
            );
            None
        }
    }
}

fn build(
    q: &ExplainQuestion,
    row: &ExplainAskRow,
    r: &Ref<'_>,
    rep: &Report<'_, '_, '_>,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    let m = rep.module;
    let name = q.kernel.trim_start_matches('%');
    let k = rep.explanation.kernels.iter().find(|k| {
        m.instruction(k.kernel.instruction)
            .is_some_and(|i| i.name == name)
    });
    let Some(k) = k else {
        let names = rep
            .explanation
            .kernels
            .iter()
            .filter_map(|k| m.instruction(k.kernel.instruction).map(|i| i.name));
        let hint = match did_you_mean(name, names) {
            Some(n) => format!("did you mean `{n}`?"),
            None => {
                "name one of the dump's kernels (`mdbook-dumplab explain` lists them)".to_owned()
            }
        };
        cx.error(
            "kernel",
            format!("`{name}` is no kernel of this dump"),
            &hint,
        );
        return None;
    };
    let line = m
        .instruction(k.kernel.instruction)
        .map_or(0, |i| rep.pasted_line(i.line));
    if line < r.lines.0 || line > r.lines.1 {
        cx.error(
            "kernel",
            format!(
                "`{name}` is on line {line}, outside the snippet (lines {}-{})",
                r.lines.0, r.lines.1
            ),
            "widen the snippet to show the kernel's line",
        );
        return None;
    }
    match row.ask {
        ExplainAsk::CopyBytes => return copy_bytes(name, k, line, cx),
        ExplainAsk::CopyChange => return copy_change(name, k, line, cx),
        _ => {}
    }
    let operand = q.operand.unwrap_or(0);
    let Some(inp) = k
        .inputs
        .iter()
        .find(|i| i.operand == operand && i.is_boundary())
    else {
        cx.error(
            "operand",
            format!("operand {operand} of `{name}` does not come from another kernel"),
            "ask about an input that is another kernel's result (`mdbook-dumplab explain` lists them)",
        );
        return None;
    };
    match row.ask {
        ExplainAsk::Reason => reason(rep, name, line, inp, q.log, cx),
        _ => from(rep, r, name, inp, cx),
    }
}

fn producer_name<'a>(rep: &Report<'_, 'a, '_>, inp: &InputExplained<'_>) -> &'a str {
    match inp.from {
        From::Kernel(id) => rep.module.instruction(id).map_or("?", |i| i.name),
        _ => "?",
    }
}

fn reason(
    rep: &Report<'_, '_, '_>,
    name: &str,
    line: usize,
    inp: &InputExplained<'_>,
    log: bool,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    let Some((answer, basis)) = inp.answer() else {
        cx.error(
            "operand",
            format!(
                "the explainer is not sure why operand {} of `{name}` is a separate kernel",
                inp.operand
            ),
            "ask about another input, or set `log = true` to read XLA's own reason",
        );
        return None;
    };
    let producer = producer_name(rep, inp);
    let why = match inp.xla.first() {
        Some(l) => format!("XLA's fusion log says: \"{}\".", l.message),
        None if inp.after_fusion.is_some() => {
            "The copy never appears in XLA's fusion log: a later pass added it.".to_owned()
        }
        None => format!(
            "In the dump: {}.",
            inp.rules.first().map_or("", |f| f.detail.as_str())
        ),
    };
    let row = answer.row();
    let mut p = Parts::single(
        row.id.to_owned(),
        row.title.to_owned(),
        vec![(line, format!("`{producer}` -> `{name}`: {why}"))],
    );
    // The reasons a rule can find, and with a log those only a log gives
    // (XLA's own words aside): the answer never stands out by being offered.
    let with_log = !inp.xla.is_empty() || inp.after_fusion.is_some() || log;
    let offered = |o: &&crate::explain::reasons::ReasonRow| {
        o.rule
            || o.reason == answer
            || (with_log && o.reason != crate::explain::reasons::Reason::XlaOther)
    };
    for option in REASONS.iter().filter(offered) {
        p.options
            .push((option.id.to_owned(), option.title.to_owned()));
        let note = if option.reason == answer {
            format!("{} {why}", option.sentence)
        } else if let Some(f) = inp.rules.iter().find(|f| f.reason == option.reason) {
            format!(
                "That is true here too ({}), but it is not the check that decided: {} comes first.",
                f.detail, row.title
            )
        } else {
            format!("Not for this pair. {why}")
        };
        p.option_notes.push((option.id.to_owned(), note));
    }
    p.explanation = Some(format!(
        "{} ({}) {why}",
        row.sentence,
        match basis {
            crate::explain::Basis::XlaLog => "from XLA's log",
            crate::explain::Basis::NotInLog => "from what XLA's complete log does not name",
            crate::explain::Basis::DumpFolder => "from the compile's dump folder",
            crate::explain::Basis::Rule =>
                "from DumpLab's rules, in the order XLA makes its checks",
        }
    ));
    Some(p)
}

fn from(
    rep: &Report<'_, '_, '_>,
    r: &Ref<'_>,
    name: &str,
    inp: &InputExplained<'_>,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    let From::Kernel(id) = inp.from else {
        return None;
    };
    let producer = rep.module.instruction(id)?;
    let pl = rep.pasted_line(producer.line);
    if pl < r.lines.0 || pl > r.lines.1 {
        cx.error(
            "operand",
            format!(
                "the kernel feeding operand {} (`{}`, line {pl}) is outside the snippet",
                inp.operand, producer.name
            ),
            "widen the snippet to show both kernels",
        );
        return None;
    }
    let via = if inp.via.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = inp
            .via
            .iter()
            .filter_map(|&v| rep.module.instruction(v).map(|i| i.name))
            .collect();
        format!(", through {}", names.join(", "))
    };
    let mut p = Parts::single(
        pl.to_string(),
        format!("line {pl} (`{}`)", producer.name),
        vec![(
            pl,
            format!(
                "`{}`: its result is operand {} of `{name}`{via}",
                producer.name, inp.operand
            ),
        )],
    );
    p.mode = Mode::Lines;
    p.need = 1;
    p.instruction = Some("Select the line of the kernel that produces this input.".to_owned());
    p.idle_line = (r.lines.0..=r.lines.1).find(|&l| l != pl);
    Some(p)
}

fn copy_bytes(
    name: &str,
    k: &crate::explain::KernelExplained<'_, '_>,
    line: usize,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    let Some(c) = &k.copy else {
        cx.error(
            "kernel",
            format!("`{name}` is no copy or transpose"),
            "ask `copy-bytes` of a copy, a copy-start or a transpose",
        );
        return None;
    };
    let Some(bytes) = c
        .bytes
        .filter(|b| b.fract() == 0.0 && *b >= 0.0 && *b < 9e15)
    else {
        cx.error(
            "kernel",
            format!("the ledger does not know the bytes of `{name}`"),
            "ask about another copy",
        );
        return None;
    };
    let value = bytes as u64;
    let layouts = match (&c.from_layout, &c.to_layout) {
        (Some(a), Some(b)) => format!(" from layout {a} to {b}"),
        _ => String::new(),
    };
    let text = format!("{value} bytes");
    let mut p = Parts::single(
        value.to_string(),
        text.clone(),
        vec![(
            line,
            format!(
                "`{name}`: {} {}{layouts}: {text}, read once and written once",
                c.opcode, c.shape
            ),
        )],
    );
    p.mode = Mode::Number;
    let half = value / 2;
    if value % 2 == 0 && half > 0 {
        p.miscounts.push((
            half.to_string(),
            "That is the array once; a copy reads it and writes it, and the ledger counts both."
                .to_owned(),
        ));
    }
    Some(p)
}

fn copy_change(
    name: &str,
    k: &crate::explain::KernelExplained<'_, '_>,
    line: usize,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    let (Some(c), Some(layout), Some(space)) = (
        &k.copy,
        k.copy.as_ref().and_then(|c| c.changes_layout()),
        k.copy.as_ref().and_then(|c| c.moves_memory_space()),
    ) else {
        cx.error(
            "kernel",
            format!("`{name}` is no copy whose layouts the dump prints on both sides"),
            "ask `copy-change` of a copy or copy-start of arrays",
        );
        return None;
    };
    let id = match (layout, space) {
        (true, false) => "layout",
        (false, true) => "memory-space",
        (true, true) => "both",
        (false, false) => "neither",
    };
    let label = CHANGES
        .iter()
        .find(|(i, _)| *i == id)
        .map_or(id, |(_, l)| l);
    let why = format!(
        "`{name}` ({} {}) goes from layout {} to {}.",
        c.opcode,
        c.shape,
        c.from_layout.as_deref().unwrap_or("?"),
        c.to_layout.as_deref().unwrap_or("?")
    );
    let mut p = Parts::single(id.to_owned(), label.to_owned(), vec![(line, why.clone())]);
    for (i, l) in CHANGES {
        p.options.push(((*i).to_owned(), (*l).to_owned()));
        p.option_notes.push(((*i).to_owned(), format!("{why} The minor-to-major order and the tiles are the layout; S(n) is the memory space.")));
    }
    p.explanation = Some(why);
    Some(p)
}
