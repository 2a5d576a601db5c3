//! `type = "cost"`: a figure of the cost ledger of a compiled dump
//! (`crate::cost`), one row per thing a question may ask in [`ASKS`]: a
//! kernel's flops, bytes accessed or HBM bytes (a number), whether it is
//! memory- or compute-bound on the chip (a choice), or which kernel has
//! the largest lower bound (a line). The key is the ledger's, computed from
//! the dump on every build; likely wrong numbers (XLA's own figure where
//! the estimate differs from it, the arrays counted whole, on-chip arrays
//! counted as HBM traffic) get their own feedback.

use super::cx::{Cx, did_you_mean, find_ask};
use super::library::Library;
use super::lookup::{Ref, lookup, snippet_of};
use super::parts::Parts;
use super::provenance::{Shown, context_of};
use crate::cost::ledger::Entry;
use crate::cost::report::{Report, with_report};
use crate::exercise::key::Mode;
use crate::exercise::model::CostQuestion;

/// What a `cost` question may ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// A kernel's flops in one run (the estimate).
    Flops,
    /// A kernel's bytes accessed in one run (the estimate).
    Bytes,
    /// A kernel's bytes to and from HBM in one run.
    HbmBytes,
    /// Whether a kernel is memory- or compute-bound on the chip.
    Bound,
    /// The kernel with the largest lower bound over all its runs.
    Slowest,
}

/// One row of [`ASKS`].
pub struct AskRow {
    /// What it asks.
    pub ask: Ask,
    /// Its name in exercise files (`ask = "bytes"`).
    pub name: &'static str,
    /// Whether it is asked of one kernel (`kernel = "..."`).
    pub of_kernel: bool,
    /// What it is, as `exercises/FORMAT.md` and the answer say it.
    pub what: &'static str,
}

/// The asks, one row each.
pub const ASKS: &[AskRow] = &[
    AskRow {
        ask: Ask::Flops,
        name: "flops",
        of_kernel: true,
        what: "the kernel's flops in one run, as the ledger's estimate counts them",
    },
    AskRow {
        ask: Ask::Bytes,
        name: "bytes",
        of_kernel: true,
        what: "the bytes the kernel accesses in one run, as the ledger's estimate counts them",
    },
    AskRow {
        ask: Ask::HbmBytes,
        name: "hbm-bytes",
        of_kernel: true,
        what: "the bytes the kernel moves to and from HBM in one run (tile padding in, on-chip memory spaces out)",
    },
    AskRow {
        ask: Ask::Bound,
        name: "bound",
        of_kernel: true,
        what: "whether the kernel is memory- or compute-bound on the chip, under the roofline model",
    },
    AskRow {
        ask: Ask::Slowest,
        name: "slowest",
        of_kernel: false,
        what: "the kernel with the largest lower bound on time over all its runs",
    },
];

/// Resolves a `cost` question: the ask must be one of [`ASKS`], the
/// kernel one of the dump's and inside the snippet; the key is the
/// ledger's figure.
pub(super) fn resolve(c: &CostQuestion, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let r = lookup(&c.snippet, library, "snippet", cx)?;
    let row = find_ask(ASKS, |a| a.name, &c.ask, "a cost question", cx)?;
    match (row.of_kernel, &c.kernel) {
        (true, None) => {
            cx.error(
                "ask",
                format!("`ask = \"{}\"` is asked of one kernel", row.name),
                "add `kernel = \"NAME\"`, an instruction name of the dump without `%`",
            );
            return None;
        }
        (false, Some(_)) => {
            cx.error(
                "kernel",
                format!("`ask = \"{}\"` is asked of the whole dump", row.name),
                "remove `kernel`",
            );
            return None;
        }
        _ => {}
    }
    let text = r.dump.text.clone();
    let built = with_report(&text, c.chip.as_deref(), |rep| build(c, row, &r, rep, cx));
    match built {
        Ok(Some(mut p)) => {
            p.context = context_of(&r, library, Shown::All);
            p.snippet = Some(snippet_of(&r, None));
            Some(p)
        }
        Ok(None) => None,
        Err(e) => {
            let at = if e.starts_with("no chip preset") {
                "chip"
            } else {
                "snippet"
            };
            cx.error(
                at,
                e,
                "ask about a compiled dump, on a chip preset the ledger knows",
            );
            None
        }
    }
}

fn build(
    c: &CostQuestion,
    row: &AskRow,
    r: &Ref<'_>,
    rep: &Report<'_, '_>,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    if row.ask == Ask::Slowest {
        return slowest(rep, r, cx);
    }
    let name = c.kernel.as_deref().unwrap_or("").trim_start_matches('%');
    let k = rep.ledger.kernels.iter().position(|e| e.name == name);
    let Some(k) = k else {
        let names = rep.ledger.kernels.iter().map(|e| e.name);
        let hint = match did_you_mean(name, names) {
            Some(n) => format!("did you mean `{n}`?"),
            None => "name one of the dump's kernels (`mdbook-dumplab cost` lists them)".to_owned(),
        };
        cx.error(
            "kernel",
            format!("`{name}` is no kernel of this dump's ledger"),
            &hint,
        );
        return None;
    };
    let e = &rep.ledger.kernels[k];
    let line = rep.pasted_line(e.line);
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
        Ask::Bound => bound(rep, k, line, cx),
        _ => number(row, e, line, cx),
    }
}

/// A figure as a whole number, if it is one.
fn whole(v: f64) -> Option<u64> {
    (v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v < 9e15).then_some(v as u64)
}

/// `7,340,032`.
fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn number(row: &AskRow, e: &Entry<'_>, line: usize, cx: &mut Cx<'_>) -> Option<Parts> {
    let est = &e.estimate;
    let (figure, unit) = match row.ask {
        Ask::Flops => (est.figures.flops, "flops"),
        Ask::Bytes => (est.figures.bytes, "bytes"),
        _ => (est.hbm_bytes(), "bytes"),
    };
    let Some(value) = whole(figure.known).filter(|_| figure.unknown == 0) else {
        cx.error(
            "kernel",
            format!("the ledger does not know {} of `{}`", row.what, e.name),
            "ask about a kernel the dump states this figure of",
        );
        return None;
    };
    let mut miscounts: Vec<(String, String)> = Vec::new();
    let mut wrong = |v: Option<u64>, why: String| {
        if let Some(v) = v.filter(|v| *v != value) {
            if !miscounts.iter().any(|(m, _)| *m == v.to_string()) {
                miscounts.push((v.to_string(), why));
            }
        }
    };
    let xla = match row.ask {
        Ask::Flops => e.xla.flops,
        _ => e.xla.bytes,
    };
    if xla.unknown == 0 {
        wrong(
            whole(xla.known),
            format!(
                "That is XLA's own figure; the ledger's estimate differs from it here ({}).",
                reasons(e)
            ),
        );
    }
    if row.ask == Ask::Bytes {
        wrong(whole(est.hbm_bytes().known), "That counts only the bytes that cross HBM; the question asks every byte the kernel reads and writes, those in on-chip memory too.".to_owned());
    }
    if row.ask == Ask::HbmBytes {
        wrong(
            whole(est.figures.bytes.known),
            "That counts the arrays in on-chip memory (`S(n)` layouts) as HBM traffic too."
                .to_owned(),
        );
        wrong(
            whole(est.figures.bytes.known - est.bytes_on_chip),
            "That leaves out the padding the arrays' tiles add (`T(8,128)` and the like)."
                .to_owned(),
        );
    }
    if let Some(runs) = e.runs.filter(|n| *n > 1) {
        wrong(
            value.checked_mul(runs),
            format!("That counts all {runs} runs of the kernel; the question asks one."),
        );
    }
    let text = format!("{} {unit}", grouped(value));
    let mut p = Parts::single(
        value.to_string(),
        text.clone(),
        vec![(line, format!("`{}`: {text} in one run", e.name))],
    );
    p.mode = Mode::Number;
    p.miscounts = miscounts;
    Some(p)
}

/// The reasons of an entry's estimate, as words.
fn reasons(e: &Entry<'_>) -> String {
    let ids: Vec<&str> = e.estimate.reasons.iter().map(|r| r.id()).collect();
    if ids.is_empty() {
        "see the ledger".to_owned()
    } else {
        ids.join(", ")
    }
}

fn bound(rep: &Report<'_, '_>, k: usize, line: usize, cx: &mut Cx<'_>) -> Option<Parts> {
    let (Some(chip), Some(roof)) = (
        rep.chip.chip,
        rep.roof.as_ref().and_then(|m| m.kernels.get(k)),
    ) else {
        cx.error(
            "chip",
            "the dump names no accelerator, so the ledger has no roofline",
            "set `chip = \"h100\"` (or another preset)",
        );
        return None;
    };
    let Some(b) = roof.bound else {
        cx.error(
            "kernel",
            "the ledger does not know this kernel's flops, so not its bound",
            "ask about a kernel whose flops the dump states",
        );
        return None;
    };
    let e = &rep.ledger.kernels[k];
    let why = format!(
        "On {} its flops take at least {:.3} us and its HBM bytes at least {:.3} us, under the roofline model.",
        chip.name,
        roof.compute_s * 1e6,
        roof.memory_s * 1e6
    );
    let key = b.name();
    let text = format!("{key}-bound");
    let mut p = Parts::single(
        key.to_owned(),
        text,
        vec![(line, format!("`{}`: {why}", e.name))],
    );
    for (id, label) in [("memory", "memory-bound"), ("compute", "compute-bound")] {
        p.options.push((id.to_owned(), label.to_owned()));
        p.option_notes.push((id.to_owned(), why.clone()));
    }
    p.explanation = Some(why);
    Some(p)
}

fn slowest(rep: &Report<'_, '_>, r: &Ref<'_>, cx: &mut Cx<'_>) -> Option<Parts> {
    let Some(m) = &rep.roof else {
        cx.error(
            "chip",
            "the dump names no accelerator, so the ledger has no roofline",
            "set `chip = \"h100\"` (or another preset)",
        );
        return None;
    };
    let total =
        |i: usize| m.kernels[i].lower_bound_s * rep.ledger.kernels[i].runs.unwrap_or(1) as f64;
    let (first, second) = (m.ranked.first().copied()?, m.ranked.get(1).copied());
    if second.is_some_and(|s| total(s) >= total(first)) {
        cx.error(
            "ask",
            "two kernels share the largest lower bound: the question has no one answer",
            "ask about another dump, or another chip",
        );
        return None;
    }
    let inside = |i: usize| {
        let l = rep.pasted_line(rep.ledger.kernels[i].line);
        (l >= r.lines.0 && l <= r.lines.1).then_some(l)
    };
    let Some(answer) = inside(first) else {
        cx.error(
            "snippet",
            "the kernel with the largest lower bound is outside the snippet",
            "widen the snippet to show every kernel",
        );
        return None;
    };
    let mut lines = Vec::new();
    let mut idle = None;
    for &i in &m.ranked {
        if let Some(l) = inside(i) {
            let e = &rep.ledger.kernels[i];
            lines.push((
                l,
                format!(
                    "`{}`: at least {:.3} us over its runs",
                    e.name,
                    total(i) * 1e6
                ),
            ));
            if i != first {
                idle = idle.or(Some(l));
            }
        }
    }
    let name = rep.ledger.kernels[first].name;
    let mut p = Parts::single(
        answer.to_string(),
        format!("line {answer} (`{name}`)"),
        lines.clone(),
    );
    p.mode = Mode::Lines;
    p.need = 1;
    p.idle_line = idle;
    p.instruction = Some("Select the line of the kernel with the largest lower bound.".to_owned());
    if let (Some(&(first, _)), Some(&(last, _))) = (
        lines.iter().min_by_key(|l| l.0),
        lines.iter().max_by_key(|l| l.0),
    ) {
        p.hints = vec![crate::exercise::key::Hint {
            first,
            last,
            text: format!(
                "Each kernel's bound is the larger of its flops over the {} peak that applies and the bytes it moves to and from HBM over the bandwidth; compare the kernels on these lines.",
                rep.chip.chip.map_or("chip's", |c| c.name)
            ),
        }];
    }
    Some(p)
}
