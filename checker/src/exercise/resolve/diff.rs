//! `type = "diff"`: a fact of the diff of two dumps (`crate::diff`), one row
//! per thing a question may ask in [`DIFF_ASKS`]: the kernels of B with no
//! partner in A, the copies and transposes B brings in (lines of B's
//! excerpt), how many more bytes B accesses, how many kernels a merge or a
//! split holds (numbers), whether two lowered programs are the same (a
//! choice). The key is the diff's, computed from both dumps on every build.

use super::cx::{Cx, did_you_mean, find_ask};
use super::library::Library;
use super::lookup::{Ref, lookup, snippet_of};
use super::parts::Parts;
use super::provenance::{Shown, context_of};
use crate::diff::compiled::CompiledDiff;
use crate::diff::report::{Body, DiffReport, with_diff};
use crate::exercise::key::{Hint, Mode};
use crate::exercise::model::DiffQuestion;

/// What a `diff` question may ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffAsk {
    /// The lines of B's kernels with no partner in A.
    Added,
    /// The lines of the copies and transposes B runs and A did not.
    Introduced,
    /// B's XLA bytes accessed less A's.
    BytesDelta,
    /// How many kernels of A one kernel of B holds.
    Merged,
    /// Into how many kernels of B one kernel of A was split.
    Split,
    /// Whether two lowered programs are the same program.
    SameProgram,
}

/// One row of [`DIFF_ASKS`].
pub struct DiffAskRow {
    /// What it asks.
    pub ask: DiffAsk,
    /// Its name in exercise files (`ask = "added"`).
    pub name: &'static str,
    /// Whether it is asked of one kernel (`kernel = "..."`).
    pub of_kernel: bool,
    /// Whether it is asked of two compiled dumps (else two lowered ones).
    pub compiled: bool,
    /// What it is, as `exercises/FORMAT.md` says it.
    pub what: &'static str,
}

/// The asks, one row each.
pub const DIFF_ASKS: &[DiffAskRow] = &[
    DiffAskRow {
        ask: DiffAsk::Added,
        name: "added",
        of_kernel: false,
        compiled: true,
        what: "the lines of B's kernels that have no partner in A",
    },
    DiffAskRow {
        ask: DiffAsk::Introduced,
        name: "introduced",
        of_kernel: false,
        compiled: true,
        what: "the lines of the copies and transposes B runs and A did not",
    },
    DiffAskRow {
        ask: DiffAsk::BytesDelta,
        name: "bytes-delta",
        of_kernel: false,
        compiled: true,
        what: "how many more bytes B accesses than A, as XLA's cost model counts them",
    },
    DiffAskRow {
        ask: DiffAsk::Merged,
        name: "merged",
        of_kernel: true,
        compiled: true,
        what: "how many kernels of A the kernel of B holds",
    },
    DiffAskRow {
        ask: DiffAsk::Split,
        name: "split",
        of_kernel: true,
        compiled: true,
        what: "into how many kernels of B the kernel of A was split",
    },
    DiffAskRow {
        ask: DiffAsk::SameProgram,
        name: "same-program",
        of_kernel: false,
        compiled: false,
        what: "whether the two lowered dumps are the same program",
    },
];

/// Resolves a `diff` question: the ask one of [`DIFF_ASKS`], the two dumps
/// of one kind (compiled for the compiled asks, lowered for
/// `same-program`); the key is the diff's.
pub(super) fn resolve(q: &DiffQuestion, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let b = lookup(&q.snippet, library, "snippet", cx)?;
    let a = lookup(&q.other, library, "other", cx)?;
    let row = ask_row(q, cx)?;
    let (ta, tb) = (a.dump.text.clone(), b.dump.text.clone());
    let built = with_diff(&ta, &tb, None, |r| build(q, row, &b, r, cx));
    match built {
        Ok(Some(mut p)) => {
            let before = context_of(&a, library, Shown::All).unwrap_or_default();
            let after = context_of(&b, library, Shown::All).unwrap_or_default();
            p.context = Some(format!(
                "Before (A, not shown): `{}/{}`. {before} After (B, shown): {after}",
                a.family, a.file
            ));
            p.snippet = Some(snippet_of(&b, None));
            Some(p)
        }
        Ok(None) => None,
        Err(e) => {
            cx.error("other", e.message, "compare two dumps of one kind");
            None
        }
    }
}

fn ask_row(q: &DiffQuestion, cx: &mut Cx<'_>) -> Option<&'static DiffAskRow> {
    let row = find_ask(DIFF_ASKS, |a| a.name, &q.ask, "a diff question", cx)?;
    match (row.of_kernel, &q.kernel) {
        (true, None) => {
            cx.error(
                "ask",
                format!("`ask = \"{}\"` is asked of one kernel", row.name),
                "add `kernel = \"NAME\"`, an instruction name without `%`",
            );
            None
        }
        (false, Some(_)) => {
            cx.error(
                "kernel",
                format!("`ask = \"{}\"` is asked of the whole diff", row.name),
                "remove `kernel`",
            );
            None
        }
        _ => Some(row),
    }
}

fn build(
    q: &DiffQuestion,
    row: &DiffAskRow,
    b: &Ref<'_>,
    r: &DiffReport<'_>,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    match (&r.body, row.compiled) {
        (Body::Compiled(d), true) => compiled(q, row, b, d, cx),
        (Body::Lowered(d), false) => Some(same_program(d.same_program())),
        (_, true) => {
            cx.error(
                "snippet",
                format!("`ask = \"{}\"` compares two compiled dumps", row.name),
                "name two `compiled.*.hlo.txt` dumps",
            );
            None
        }
        (_, false) => {
            cx.error(
                "snippet",
                "`ask = \"same-program\"` compares two lowered programs",
                "name two lowered dumps (`lowered.stablehlo.mlir`, `lowered.hlo.txt`, `jaxpr.txt`)",
            );
            None
        }
    }
}

fn compiled(
    q: &DiffQuestion,
    row: &DiffAskRow,
    b: &Ref<'_>,
    d: &CompiledDiff<'_>,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    match row.ask {
        DiffAsk::Added => {
            let lines: Vec<(usize, String)> = d
                .matching
                .added
                .iter()
                .map(|&j| &d.b.items[j])
                .map(|i| {
                    (
                        i.line,
                        format!("`{}`: a {} with no partner in A", i.name, i.kind.as_str()),
                    )
                })
                .collect();
            lines_answer(lines, b, "kernels with no partner in A", cx)
        }
        DiffAsk::Introduced => {
            let lines: Vec<(usize, String)> = d
                .introduced
                .iter()
                .map(|x| {
                    let i = &d.b.items[x.b];
                    (
                        i.line,
                        format!(
                            "`{}`: a {} A did not run ({})",
                            i.name,
                            x.what,
                            x.how.as_str()
                        ),
                    )
                })
                .collect();
            lines_answer(lines, b, "copies or transposes B brings in", cx)
        }
        DiffAsk::BytesDelta => bytes_delta(d, cx),
        DiffAsk::Merged | DiffAsk::Split => group_size(q, row, b, d, cx),
        DiffAsk::SameProgram => None,
    }
}

/// A lines answer: every listed line inside B's excerpt.
fn lines_answer(
    all: Vec<(usize, String)>,
    b: &Ref<'_>,
    what: &str,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    let inside = |l: usize| l >= b.lines.0 && l <= b.lines.1;
    if all.is_empty() {
        cx.error(
            "ask",
            format!("the diff finds no {what}"),
            "ask about another pair",
        );
        return None;
    }
    if let Some((l, _)) = all.iter().find(|(l, _)| !inside(*l)) {
        cx.error(
            "snippet",
            format!(
                "one of the {what} is on line {l}, outside the snippet (lines {}-{})",
                b.lines.0, b.lines.1
            ),
            "widen the snippet to show every one of them",
        );
        return None;
    }
    let mut answer: Vec<usize> = all.iter().map(|(l, _)| *l).collect();
    answer.sort_unstable();
    answer.dedup();
    let text = answer
        .iter()
        .map(|l| format!("line {l}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut p = Parts::single(answer[0].to_string(), text, all.clone());
    p.answer = answer.iter().map(usize::to_string).collect();
    p.mode = Mode::Lines;
    p.need = answer.len();
    p.idle_line = (b.lines.0..=b.lines.1).find(|l| !answer.contains(l));
    p.instruction = Some(format!(
        "Select the line{} of the {what}.",
        if answer.len() == 1 { "" } else { "s" }
    ));
    p.hints = vec![Hint {
        first: b.lines.0,
        last: b.lines.1,
        text: "Match each kernel of B with the one of A that computes the same (its `op_name`s and source lines in `metadata`, its opcodes, its shapes), never by its name: every compile renumbers names.".to_owned(),
    }];
    Some(p)
}

fn bytes_delta(d: &CompiledDiff<'_>, cx: &mut Cx<'_>) -> Option<Parts> {
    let (xa, xb) = (&d.a.xla.bytes, &d.b.xla.bytes);
    if xa.unknown > 0 || xb.unknown > 0 {
        cx.error(
            "ask",
            "XLA's cost model cannot cost a custom call of one of the dumps, so their byte figures are not comparable",
            "ask about a pair without library calls",
        );
        return None;
    }
    let delta = xb.known - xa.known;
    if !(delta.is_finite() && delta > 0.0 && delta.fract() == 0.0 && delta < 9e15) {
        cx.error(
            "ask",
            format!("B accesses {delta} bytes more than A: the question needs B to access more"),
            "swap `snippet` and `other`, or ask about another pair",
        );
        return None;
    }
    let v = delta as u64;
    let mut p = Parts::single(v.to_string(), format!("{v} bytes"), Vec::new());
    p.mode = Mode::Number;
    p.miscounts = vec![(
        (xb.known as u64).to_string(),
        "That is all the bytes B accesses; the question asks how many more than A.".to_owned(),
    )];
    Some(p)
}

fn group_size(
    q: &DiffQuestion,
    row: &DiffAskRow,
    b: &Ref<'_>,
    d: &CompiledDiff<'_>,
    cx: &mut Cx<'_>,
) -> Option<Parts> {
    let name = q.kernel.as_deref().unwrap_or("").trim_start_matches('%');
    let (groups, wholes, parts) = match row.ask {
        DiffAsk::Merged => (&d.matching.merged, &d.b.items, &d.b.items),
        _ => (&d.matching.split, &d.a.items, &d.b.items),
    };
    let Some(g) = groups.iter().find(|g| wholes[g.whole].name == name) else {
        let names = groups.iter().map(|g| wholes[g.whole].name);
        let hint = match did_you_mean(name, names) {
            Some(n) => format!("did you mean `{n}`?"),
            None => "`mdbook-dumplab diff` lists the pair's merges and splits".to_owned(),
        };
        cx.error(
            "kernel",
            format!(
                "`{name}` is the whole of no {} in this diff",
                if row.ask == DiffAsk::Merged {
                    "merge"
                } else {
                    "split"
                }
            ),
            &hint,
        );
        return None;
    };
    let n = g.parts.len();
    let inside = |l: usize| l >= b.lines.0 && l <= b.lines.1;
    let lines: Vec<(usize, String)> = if row.ask == DiffAsk::Merged {
        let w = &parts[g.whole];
        vec![(
            w.line,
            format!("`{}`: holds the work of {n} kernels of A", w.name),
        )]
    } else {
        g.parts
            .iter()
            .map(|&j| &parts[j])
            .filter(|i| inside(i.line))
            .map(|i| {
                (
                    i.line,
                    format!("`{}`: one of the {n} kernels `{name}` became", i.name),
                )
            })
            .collect()
    };
    if lines.iter().any(|(l, _)| !inside(*l)) || lines.is_empty() {
        cx.error(
            "snippet",
            "the kernels the question is about are outside the snippet",
            "widen the snippet to show them",
        );
        return None;
    }
    let mut p = Parts::single(n.to_string(), format!("{n} kernels"), lines);
    p.mode = Mode::Number;
    Some(p)
}

fn same_program(same: bool) -> Parts {
    let (key, text) = if same {
        (
            "same",
            "the same program: what differs is what the compiler decided, or how it was called",
        )
    } else {
        ("changed", "the program changed")
    };
    let mut p = Parts::single(key.to_owned(), text.to_owned(), Vec::new());
    let why = if same {
        "Every source line lowered to the same operations, with the same attributes and types, in both dumps."
    } else {
        "Some source line lowered to other operations, attributes or types (or the signature differs)."
    };
    for (id, label) in [
        (
            "same",
            "The same program: what differs is what the compiler decided, or how it was called",
        ),
        ("changed", "The program changed"),
    ] {
        p.options.push((id.to_owned(), label.to_owned()));
        p.option_notes.push((id.to_owned(), why.to_owned()));
    }
    p.explanation = Some(why.to_owned());
    p
}
