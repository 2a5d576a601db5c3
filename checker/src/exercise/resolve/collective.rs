//! `type = "collective"`: a fact of one collective of a compiled sharded
//! dump (`crate::collectives`), one row per thing a question may ask in
//! [`COLLECTIVE_ASKS`]: its group size, its schedule, how many kernels are
//! scheduled between its start and done, its payload, the bytes each
//! device must at least move, and which sharding made it. The key is the
//! reader's, computed from the dump on every build.

use super::cx::{Cx, did_you_mean, find_ask};
use super::library::Library;
use super::lookup::{Ref, lookup, snippet_of};
use super::parts::Parts;
use super::provenance::{Shown, context_of};
use crate::collectives::Row;
use crate::collectives::origin::ORIGINS;
use crate::collectives::report::{Report, with_report};
use crate::collectives::schedule::{SCHEDULES, Schedule};
use crate::exercise::key::Mode;
use crate::exercise::model::CollectiveQuestion;

/// What a `collective` question may ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectiveAsk {
    /// Devices per group.
    GroupSize,
    /// Synchronous, or a start/done pair with or without work between.
    Schedule,
    /// How many kernels are scheduled between start and done.
    Between,
    /// The operand bytes each device holds.
    PayloadBytes,
    /// The bytes each device must at least send or receive.
    LinkBytes,
    /// Which sharding made it.
    Origin,
}

/// One row of [`COLLECTIVE_ASKS`].
pub struct CollectiveAskRow {
    /// What it asks.
    pub ask: CollectiveAsk,
    /// Its name in exercise files.
    pub name: &'static str,
    /// What it is, as `exercises/FORMAT.md` says it.
    pub what: &'static str,
}

/// The asks, one row each.
pub const COLLECTIVE_ASKS: &[CollectiveAskRow] = &[
    CollectiveAskRow {
        ask: CollectiveAsk::GroupSize,
        name: "group-size",
        what: "how many devices each of its replica groups holds (a number)",
    },
    CollectiveAskRow {
        ask: CollectiveAsk::Schedule,
        name: "schedule",
        what: "one synchronous instruction, or a start/done pair with nothing or with work scheduled between (a choice)",
    },
    CollectiveAskRow {
        ask: CollectiveAsk::Between,
        name: "between",
        what: "how many kernels are scheduled between a pair's start and its done (a number)",
    },
    CollectiveAskRow {
        ask: CollectiveAsk::PayloadBytes,
        name: "payload-bytes",
        what: "the bytes of its operands on each device, from the per-device shapes (a number)",
    },
    CollectiveAskRow {
        ask: CollectiveAsk::LinkBytes,
        name: "link-bytes",
        what: "the bytes each device must at least send or receive, whatever the algorithm (a number)",
    },
    CollectiveAskRow {
        ask: CollectiveAsk::Origin,
        name: "origin",
        what: "which sharding made it: written in the program, or inserted by the partitioner and why (a choice)",
    },
];

/// Resolves a `collective` question.
pub(super) fn resolve(q: &CollectiveQuestion, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let r = lookup(&q.snippet, library, "snippet", cx)?;
    let row = find_ask(
        COLLECTIVE_ASKS,
        |a| a.name,
        &q.ask,
        "a collective question",
        cx,
    )?;
    let text = r.dump.text.clone();
    match with_report(&text, None, |rep| build(q, row, &r, rep, cx)) {
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

fn build(
    q: &CollectiveQuestion,
    row: &CollectiveAskRow,
    r: &Ref<'_>,
    rep: &Report<'_, '_>,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    let m = rep.module;
    let name = q.kernel.trim_start_matches('%');
    let Some(c) = rep.collectives.named(m, name) else {
        let names = rep.collectives.rows.iter().map(|c| c.name);
        let hint = match did_you_mean(name, names) {
            Some(n) => format!("did you mean `{n}`?"),
            None => "name one of the dump's collectives (`mdbook-dumplab collectives` lists them)"
                .to_owned(),
        };
        cx.error(
            "kernel",
            format!("`{name}` is no collective of this dump"),
            &hint,
        );
        return None;
    };
    let line = rep.pasted_line(c.line);
    if line < r.lines.0 || line > r.lines.1 {
        cx.error(
            "kernel",
            format!(
                "`{}` is on line {line}, outside the snippet (lines {}-{})",
                c.name, r.lines.0, r.lines.1
            ),
            "widen the snippet to show the collective's line",
        );
        return None;
    }
    let missing = |cx: &mut Cx<'_>, what: &str| {
        cx.error(
            "ask",
            format!("the reader does not know {what} of `{}`", c.name),
            "ask something else of it, or ask about another collective",
        );
    };
    match row.ask {
        CollectiveAsk::GroupSize => {
            match (c.peering.group_size, c.collective.replica_groups.as_ref()) {
                (Some(g), Some(groups)) => Some(number(
                    g,
                    format!("{g} devices per group"),
                    line,
                    format!(
                        "`{}`: replica_groups={}: {} group(s) of {g} devices",
                        c.name,
                        groups.raw,
                        c.peering.groups.unwrap_or(0)
                    ),
                )),
                _ => {
                    missing(cx, "the replica groups");
                    None
                }
            }
        }
        CollectiveAsk::Between => between(rep, c, line, cx),
        CollectiveAsk::PayloadBytes => match c.payload_bytes {
            Some(b) => Some(number(
                b,
                format!("{b} bytes"),
                line,
                format!("`{}`: its operands hold {b} bytes on each device", c.name),
            )),
            None => {
                missing(cx, "the payload");
                None
            }
        },
        CollectiveAsk::LinkBytes => match c.at_least_bytes {
            Some(b) => {
                let mut p = number(
                    b,
                    format!("{b} bytes"),
                    line,
                    format!("`{}`: {}", c.name, c.wire.rule),
                );
                if let Some(pay) = c.payload_bytes.filter(|&x| x != b) {
                    p.miscounts.push((
                        pay.to_string(),
                        "That is the payload each device holds; the bytes it must move follow from it and the group size.".to_owned(),
                    ));
                }
                Some(p)
            }
            None => {
                missing(cx, "the bytes moved");
                None
            }
        },
        CollectiveAsk::Schedule => Some(schedule(c, line)),
        CollectiveAsk::Origin => Some(origin(c, line)),
    }
}

fn number(value: u64, text: String, line: usize, why: String) -> Parts {
    let mut p = Parts::single(value.to_string(), text, vec![(line, why)]);
    p.mode = Mode::Number;
    p
}

fn between(rep: &Report<'_, '_>, c: &Row<'_>, line: usize, cx: &mut Cx<'_>) -> Option<Parts> {
    if !matches!(
        c.placed.schedule,
        Schedule::PairEmpty | Schedule::PairOverlap
    ) {
        cx.error(
            "ask",
            format!(
                "`{}` is no start/done pair in a scheduled module",
                c.name
            ),
            "ask `between` of a collective printed as `X-start` in a module with `is_scheduled=true`",
        );
        return None;
    }
    let names: Vec<&str> = c
        .placed
        .between
        .iter()
        .filter_map(|&b| rep.module.instruction(b))
        .map(|i| i.name)
        .collect();
    let n = c.placed.between_count as u64;
    let why = if names.is_empty() {
        format!("`{}`: nothing is scheduled between start and done", c.name)
    } else {
        format!(
            "`{}`: scheduled between start and done: {}",
            c.name,
            names.join(", ")
        )
    };
    Some(number(n, format!("{n} kernels"), line, why))
}

fn schedule(c: &Row<'_>, line: usize) -> Parts {
    let s = c.placed.schedule;
    let why = format!("`{}` ({}): {}", c.name, c.opcode, s.sentence());
    let mut p = Parts::single(
        s.id().to_owned(),
        s.sentence().to_owned(),
        vec![(line, why.clone())],
    );
    for (k, id, says) in SCHEDULES {
        if *k == Schedule::PairUnordered && s != Schedule::PairUnordered {
            continue;
        }
        p.options.push(((*id).to_owned(), (*says).to_owned()));
        p.option_notes.push(((*id).to_owned(), why.clone()));
    }
    p.explanation = Some(why);
    p
}

fn origin(c: &Row<'_>, line: usize) -> Parts {
    let o = c.made.origin;
    let label = o.row().map_or("", |r| r.label);
    let why = format!("`{}`: {}", c.name, c.made.basis);
    let mut p = Parts::single(
        o.id().to_owned(),
        label.to_owned(),
        vec![(line, why.clone())],
    );
    for row in ORIGINS {
        p.options.push((row.id.to_owned(), row.label.to_owned()));
        p.option_notes.push((row.id.to_owned(), why.clone()));
    }
    p.explanation = Some(why);
    p
}
