//! `type = "evidence"`: select the lines that prove a claim. The key is
//! every line of the excerpt that the analysis holds as proof of the claim
//! (the claim table, [`crate::analysis::claims`]); annotations only add
//! notes, and an annotated line the analysis does not hold as proof is an
//! error. The sentences come from [`super::evidence_text`].

use super::cx::Cx;
use super::evidence_text;
use super::library::{Library, kind_of};
use super::lookup::{Ref, lookup, snippet_of};
use super::parts::Parts;
use super::proof::{idle_line, proof_in};
use super::provenance::{Shown, context_of};
use super::text::number_words;
use crate::analysis::claims::{Claim, Select, closest_claim};
use crate::exercise::key::Mode;
use crate::exercise::model::Evidence;

/// Resolves an `evidence` question.
pub(super) fn resolve(e: &Evidence, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let r = lookup(&e.snippet, library, "snippet", cx)?;
    let claim = claim_of(e, &r, cx)?;
    check_annotations(&r, claim, cx);
    let lines = proof_in(&r, claim);
    if lines.is_empty() {
        cx.error(
            "snippet",
            format!(
                "no line of this excerpt proves `{}` ({}), so there is nothing to select",
                claim.name(),
                claim.phrase()
            ),
            "widen the excerpt, or pick the claim the excerpt shows",
        );
        return None;
    }
    let need = need_of(claim, e.need, lines.len(), cx)?;
    let answer: Vec<String> = lines.iter().map(|(l, _)| l.to_string()).collect();
    let text = if need < answer.len() {
        format!("any {} of lines {}", number_words(need), answer.join(", "))
    } else {
        format!(
            "line{} {}",
            if answer.len() == 1 { "" } else { "s" },
            answer.join(", ")
        )
    };
    let proving: Vec<usize> = lines.iter().map(|(l, _)| *l).collect();
    let hints = evidence_text::hints(&r.dump.text, r.lines, &proving, claim);
    let idle = idle_line(&r, &lines);
    let mut p = Parts::single(String::new(), text, lines);
    p.mode = Mode::Lines;
    p.answer = answer;
    p.need = need;
    p.hints = hints;
    p.idle_line = idle;
    p.instruction = Some(evidence_text::instruction(claim, need));
    p.context = context_of(&r, library, Shown::All);
    p.snippet = Some(snippet_of(&r, None));
    Some(p)
}

/// The claim to prove: the authored `claim` (parsed here, with "did you
/// mean"), else that the dump is what its kind says.
fn claim_of(e: &Evidence, r: &Ref<'_>, cx: &mut Cx<'_>) -> Option<Claim> {
    match &e.claim {
        Some(name) => {
            let found = Claim::from_name(name);
            if found.is_none() {
                let names = Claim::names().collect::<Vec<_>>().join(", ");
                let hint = match closest_claim(name) {
                    Some(n) => format!("did you mean `{n}`? The claims: {names}"),
                    None => format!("use one of: {names}"),
                };
                cx.error(
                    "claim",
                    format!("`{name}` is not a claim the checker knows"),
                    &hint,
                );
            }
            found
        }
        None => {
            let found = kind_of(r.dump).and_then(Claim::of_kind);
            if found.is_none() {
                cx.error(
                    "snippet",
                    "the dump's kind is unknown, so the question has no claim to prove",
                    "set `claim = \"...\"`",
                );
            }
            found
        }
    }
}

/// An annotation that says its line proves the claim, where the analysis
/// does not see it, would teach a wrong key: each is an error.
fn check_annotations(r: &Ref<'_>, claim: Claim, cx: &mut Cx<'_>) {
    let a = r.dump.analysis();
    let inside = |l: usize| l >= r.lines.0 && l <= r.lines.1;
    for ev in &r.dump.evidence {
        if inside(ev.line)
            && claim.proven_by(&ev.marker)
            && !a.line_markers.contains(ev.line, &ev.marker)
        {
            cx.error(
                "snippet",
                format!(
                    "line {} of `{}/{}` is annotated `{}`, which proves `{}`, but the checker's analysis does not see `{}` there",
                    ev.line, r.family, r.file, ev.marker, claim.name(), ev.marker
                ),
                "fix the annotation's line or marker in the family's fixture.toml (`mdbook-dumplab analyze` lists what each line shows)",
            );
        }
    }
}

/// How many of the `proving` lines make a right answer: every one for an
/// inventory claim, else the authored `need` (checked) or two.
fn need_of(claim: Claim, need: Option<usize>, proving: usize, cx: &mut Cx<'_>) -> Option<usize> {
    match (claim.select(), need) {
        (Select::Every, None) => Some(proving),
        (Select::Every, Some(n)) if n == proving => Some(n),
        (Select::Every, Some(n)) => {
            cx.error(
                "need",
                format!(
                    "claim `{}` asks for every proving line ({proving} here), not {n}",
                    claim.name(),
                ),
                "remove `need`: the claim asks for all of them",
            );
            None
        }
        (Select::Some, None) => Some(proving.min(2)),
        (Select::Some, Some(n)) if (1..=proving).contains(&n) => Some(n),
        (Select::Some, Some(n)) => {
            cx.error(
                "need",
                format!(
                    "`need = {n}`, but {proving} line{} of this excerpt prove{} `{}`",
                    if proving == 1 { "" } else { "s" },
                    if proving == 1 { "s" } else { "" },
                    claim.name()
                ),
                &if proving == 1 {
                    "remove `need`, or widen the excerpt: one line can only need one".to_owned()
                } else {
                    format!("set `need` between 1 and {proving}")
                },
            );
            None
        }
    }
}
