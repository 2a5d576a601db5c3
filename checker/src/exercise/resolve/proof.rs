//! Which lines of a shown excerpt prove a claim, with a note each (the
//! annotation's, else the analysis's), the hint region of a single-answer
//! question, and a line that proves nothing (for the self-test).

use super::evidence_text;
use super::lookup::Ref;
use super::text::{merge_lines, region, sentence, span_words};
use crate::analysis::analyze;
use crate::analysis::claims::Claim;
use crate::exercise::key::Hint;
use std::collections::{BTreeMap, BTreeSet};

/// The lines of `r`'s range that prove `claim`, with a note each: the
/// annotation's notes for the claim's markers on that line, else the
/// analysis's own notes, else a sentence naming the marker.
pub(super) fn proof_in(r: &Ref<'_>, claim: Claim) -> Vec<(usize, String)> {
    let a = r.dump.analysis();
    let mut out = Vec::new();
    for (line, markers) in a.proof_lines(claim, r.lines.0, r.lines.1) {
        let annotated: Vec<String> = r
            .dump
            .evidence
            .iter()
            .filter(|e| e.line == line && claim.proven_by(&e.marker))
            .map(|e| sentence(e.note.trim()))
            .collect();
        let notes = if annotated.is_empty() {
            let found: Vec<String> = a
                .evidence
                .iter()
                .filter(|e| e.line == line && markers.contains(&e.marker))
                .map(|e| sentence(&e.note))
                .collect();
            // Past the analysis's evidence cap: what the line shows alone.
            let found = if found.is_empty() {
                let text = r.dump.text.lines().nth(line - 1).unwrap_or_default();
                analyze(text)
                    .evidence
                    .iter()
                    .filter(|e| markers.contains(&e.marker))
                    .map(|e| sentence(&e.note))
                    .collect()
            } else {
                found
            };
            if found.is_empty() {
                vec![evidence_text::proof_note(
                    markers.first().copied().unwrap_or_default(),
                    claim,
                )]
            } else {
                found
            }
        } else {
            annotated
        };
        for n in notes {
            out.push((line, n));
        }
    }
    // A note already said on an earlier line is not said again.
    let mut first_said: BTreeMap<String, usize> = BTreeMap::new();
    merge_lines(out)
        .into_iter()
        .map(|(line, note)| match first_said.get(&note) {
            Some(&earlier) => (
                line,
                format!("Line {line}: the same clue as line {earlier}."),
            ),
            None => {
                first_said.insert(note.clone(), line);
                (line, note)
            }
        })
        .collect()
}

/// The hint of a single-answer question on a dump: the region of its
/// first lit line, with `text`.
pub(super) fn first_region_hint(r: &Ref<'_>, lines: &[(usize, String)], text: &str) -> Vec<Hint> {
    lines
        .first()
        .map(|(l, _)| {
            let (first, last) = region(&r.dump.text, *l, r.lines);
            Hint {
                first,
                last,
                text: text.replace("{lines}", &span_words(first, last)),
            }
        })
        .into_iter()
        .collect()
}

/// The first line of `r`'s range that is not blank and proves nothing of
/// `claim`.
pub(super) fn idle_line(r: &Ref<'_>, proving: &[(usize, String)]) -> Option<usize> {
    let proving: BTreeSet<usize> = proving.iter().map(|(l, _)| *l).collect();
    r.dump
        .text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .skip(r.lines.0 - 1)
        .take(r.lines.1 - r.lines.0 + 1)
        .find(|(n, l)| !l.trim().is_empty() && !proving.contains(n))
        .map(|(n, _)| n)
}
