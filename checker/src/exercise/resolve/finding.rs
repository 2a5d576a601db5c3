//! `type = "finding"`: what `crate::why` finds in the excerpt shown, read
//! as a learner would paste it: the excerpt alone, not the whole dump. One
//! row per thing a question may ask in [`FINDING_ASKS`]: which finding
//! ranks first, the lines it rests on, and the bytes it concerns. The key
//! is the reader's, computed from the excerpt on every build.

use super::cx::{Cx, find_ask};
use super::library::Library;
use super::lookup::{Ref, lookup, snippet_of};
use super::parts::Parts;
use super::provenance::{Shown, context_of};
use crate::exercise::key::{Hint, Mode};
use crate::exercise::model::FindingQuestion;
use crate::why::catalogue::{self, FINDINGS};
use crate::why::{self, Finding};

/// What a `finding` question may ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindingAsk {
    /// Which finding of the catalogue ranks first.
    Top,
    /// The lines the first finding rests on.
    Evidence,
    /// The bytes the first finding concerns.
    Bytes,
}

/// One row of [`FINDING_ASKS`].
pub struct FindingAskRow {
    /// What it asks.
    pub ask: FindingAsk,
    /// Its name in exercise files.
    pub name: &'static str,
    /// What it is, as `exercises/FORMAT.md` says it.
    pub what: &'static str,
}

/// The asks, one row each.
pub const FINDING_ASKS: &[FindingAskRow] = &[
    FindingAskRow {
        ask: FindingAsk::Top,
        name: "top",
        what: "which finding of the catalogue ranks first for the excerpt (a choice among the catalogue's titles)",
    },
    FindingAskRow {
        ask: FindingAsk::Evidence,
        name: "evidence",
        what: "the lines the first finding rests on (select lines)",
    },
    FindingAskRow {
        ask: FindingAsk::Bytes,
        name: "bytes",
        what: "the bytes the first finding concerns, as `why` counts them (a number)",
    },
];

/// Options a `top` question offers besides its answer, at most.
const OTHER_OPTIONS: usize = 4;

/// Resolves a `finding` question.
pub(super) fn resolve(q: &FindingQuestion, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let r = lookup(&q.snippet, library, "snippet", cx)?;
    let row = find_ask(FINDING_ASKS, |a| a.name, &q.ask, "a finding question", cx)?;
    let backend = match q.backend.as_deref().map(why::parse_backend).transpose() {
        Ok(b) => b,
        Err(e) => {
            cx.error(
                "backend",
                e,
                "write `backend = \"cpu\"`, `\"gpu\"` or `\"tpu\"`",
            );
            return None;
        }
    };
    let excerpt: String = r
        .dump
        .text
        .lines()
        .skip(r.lines.0 - 1)
        .take(r.lines.1 - r.lines.0 + 1)
        .map(|l| format!("{l}\n"))
        .collect();
    let w = match why::why(&[&excerpt], backend) {
        Ok(w) => w,
        Err(e) => {
            cx.error(
                "backend",
                e,
                "leave `backend` out: the excerpt names its own",
            );
            return None;
        }
    };
    let Some(top) = w.findings.first() else {
        cx.error(
            "snippet",
            "`mdbook-dumplab why` finds nothing in this excerpt",
            "widen the excerpt to hold a finding's evidence (`why` on the excerpt lists what it finds)",
        );
        return None;
    };
    let mut p = match row.ask {
        FindingAsk::Top => top_parts(top, &w.findings, &r),
        FindingAsk::Evidence => evidence_parts(top, &r),
        FindingAsk::Bytes => bytes_parts(top, &r, cx)?,
    };
    p.context = context_of(&r, library, Shown::All);
    p.snippet = Some(snippet_of(&r, None));
    Some(p)
}

/// A line of the dump: the excerpt's line moved to the dump's numbering.
fn dump_line(r: &Ref<'_>, excerpt_line: usize) -> usize {
    r.lines.0 + excerpt_line.saturating_sub(1)
}

fn lit(top: &Finding, r: &Ref<'_>) -> Vec<(usize, String)> {
    top.evidence
        .iter()
        .map(|l| (dump_line(r, l.line), l.note.clone()))
        .collect()
}

fn top_parts(top: &Finding, all: &[Finding], r: &Ref<'_>) -> Parts {
    let row = catalogue::row(top.what);
    let mut p = Parts::single(row.name.to_owned(), row.title.to_owned(), lit(top, r));
    let why_right = format!("{} {}", top.summary, row.means);
    p.options.push((row.name.to_owned(), row.title.to_owned()));
    p.option_notes.push((row.name.to_owned(), why_right));
    // The other findings of the excerpt first (ranked lower), then the
    // catalogue's next rows, so that the choice is never a giveaway.
    let mut others: Vec<&catalogue::Row> = Vec::new();
    for f in all.iter().skip(1) {
        let o = catalogue::row(f.what);
        if o.id != row.id && !others.iter().any(|x| x.id == o.id) {
            others.push(o);
        }
    }
    for o in FINDINGS {
        if others.len() >= OTHER_OPTIONS {
            break;
        }
        if o.id != row.id && !others.iter().any(|x| x.id == o.id) {
            others.push(o);
        }
    }
    others.truncate(OTHER_OPTIONS);
    for o in others {
        let note = match all.iter().find(|f| f.what == o.id) {
            Some(f) => format!(
                "The excerpt shows this too ({}), but it concerns fewer bytes times runs than the first.",
                f.summary
            ),
            None => format!("The excerpt lacks its evidence: {}.", o.needs),
        };
        p.options.push((o.name.to_owned(), o.title.to_owned()));
        p.option_notes.push((o.name.to_owned(), note));
    }
    p.options.sort_by(|a, b| a.0.cmp(&b.0));
    p
}

fn evidence_parts(top: &Finding, r: &Ref<'_>) -> Parts {
    let mut lines = lit(top, r);
    lines.sort_by_key(|l| l.0);
    lines.dedup_by_key(|l| l.0);
    let answer: Vec<usize> = lines.iter().map(|l| l.0).collect();
    let mut p = Parts::single(
        answer.first().map_or(String::new(), usize::to_string),
        answer
            .iter()
            .map(|l| format!("line {l}"))
            .collect::<Vec<_>>()
            .join(", "),
        lines,
    );
    p.answer = answer.iter().map(usize::to_string).collect();
    p.mode = Mode::Lines;
    p.need = answer.len();
    p.idle_line = (r.lines.0..=r.lines.1).find(|l| !answer.contains(l));
    p.instruction = Some(format!(
        "Select the line{} that show{} it.",
        if answer.len() == 1 { "" } else { "s" },
        if answer.len() == 1 { "s" } else { "" }
    ));
    p.hints = vec![Hint {
        first: r.lines.0,
        last: r.lines.1,
        text: catalogue::row(top.what).needs.to_owned(),
    }];
    p
}

fn bytes_parts(top: &Finding, r: &Ref<'_>, cx: &mut Cx<'_>) -> Option<Parts> {
    let Some(b) = top.bytes else {
        cx.error(
            "ask",
            "the first finding has no byte figure",
            "ask `top` or `evidence` of this excerpt",
        );
        return None;
    };
    let mut p = Parts::single(
        b.to_string(),
        format!("{b} bytes ({})", why::human(b)),
        lit(top, r),
    );
    p.mode = Mode::Number;
    Some(p)
}
