//! The sentences of an evidence question built from its claim: the
//! instruction ("Select every line that launches a fused kernel."), the
//! fallback note of a proving line, and the hints shown after a wrong or
//! partly right pick.
//!
//! A claim says either something about the whole text that one line shows
//! ([`Says::Text`]) or something each proving line does ([`Says::Line`]);
//! every sentence here is composed from that, so no claim reads "a line
//! where a line ...".
//!
//! A hint outlines where to look again without marking the answer. Its
//! range is the paragraph around a proving line (see [`region`]); when that
//! paragraph is most of the excerpt (an entry computation printed without
//! blank lines), outlining it says nothing, so the range shrinks to the
//! span of the proving lines, padded so that it holds at least four lines
//! and a line that proves nothing. When even that is most of the excerpt,
//! the hint names no range and says what kind of clue to look for
//! ([`Claim::look_for`]).

use super::text::{number_words, region, span_words};
use crate::analysis::claims::{Claim, Says, Select};
use crate::exercise::key::Hint;

/// The instruction under the prompt, for `need` proving lines.
pub(super) fn instruction(claim: Claim, need: usize) -> String {
    match (claim.select(), claim.says()) {
        (Select::Every, _) => format!("Select every line that {}.", claim.line_does()),
        (Select::Some, Says::Text(s)) if need == 1 => {
            format!("Select a line that shows, by itself, that {s}.")
        }
        (Select::Some, Says::Text(s)) => format!(
            "Select at least {} lines, each showing by itself that {s}.",
            number_words(need)
        ),
        (Select::Some, Says::Line(s)) if need == 1 => format!("Select a line that {s}."),
        (Select::Some, Says::Line(s)) => {
            format!("Select at least {} lines that {s}.", number_words(need))
        }
    }
}

/// The note of a proving line whose marker has no note of its own.
pub(super) fn proof_note(marker: &str, claim: Claim) -> String {
    match claim.says() {
        Says::Text(s) => format!("`{marker}`: this line shows on its own that {s}."),
        Says::Line(s) => format!("`{marker}`: this line {s}."),
    }
}

/// The hints of an evidence question on `text`, whose excerpt is `excerpt`
/// (first and last line) and whose proving lines are `proving` (sorted):
/// one per paragraph holding a proving line, or one for the whole excerpt
/// when a paragraph is most of it.
pub(super) fn hints(
    text: &str,
    excerpt: (usize, usize),
    proving: &[usize],
    claim: Claim,
) -> Vec<Hint> {
    let regions: Vec<(usize, usize)> = proving.iter().map(|&l| region(text, l, excerpt)).collect();
    if regions.iter().any(|&r| is_most_of(r, excerpt)) {
        return vec![whole_excerpt_hint(text, excerpt, proving, claim)];
    }
    let mut out: Vec<Hint> = Vec::new();
    for (first, last) in regions {
        if out
            .last()
            .is_some_and(|h| h.first == first && h.last == last)
        {
            continue;
        }
        out.push(look_again(first, last, claim));
    }
    out
}

/// "Look again at lines 75–79: a line there launches a fused kernel."
fn look_again(first: usize, last: usize, claim: Claim) -> Hint {
    Hint {
        first,
        last,
        text: format!(
            "Look again at {}: a line there {}.",
            span_words(first, last),
            claim.line_does()
        ),
    }
}

/// The hint when a paragraph is most of the excerpt: the padded span of the
/// proving lines when that is smaller, or else what to look for, over the
/// whole excerpt.
fn whole_excerpt_hint(
    text: &str,
    excerpt: (usize, usize),
    proving: &[usize],
    claim: Claim,
) -> Hint {
    let span = padded_span(text, excerpt, proving);
    match span {
        Some((first, last)) if !is_most_of((first, last), excerpt) => {
            look_again(first, last, claim)
        }
        _ => Hint {
            first: excerpt.0,
            last: excerpt.1,
            text: format!("Look for {}.", claim.look_for()),
        },
    }
}

/// Whether `range` covers two thirds of `excerpt` or more.
fn is_most_of(range: (usize, usize), excerpt: (usize, usize)) -> bool {
    let len = |(a, b): (usize, usize)| b.saturating_sub(a) + 1;
    len(range) * 3 >= len(excerpt) * 2
}

/// The span from the first proving line to the last, widened (a line after,
/// then a line before, in turn) until it holds four lines and a non-blank
/// line that proves nothing, so that it never outlines the answer alone.
/// `None` when the excerpt has no room for that.
fn padded_span(text: &str, excerpt: (usize, usize), proving: &[usize]) -> Option<(usize, usize)> {
    let (&lo, &hi) = (proving.first()?, proving.last()?);
    let lines: Vec<&str> = text.lines().collect();
    let idle =
        |n: usize| !proving.contains(&n) && lines.get(n - 1).is_some_and(|l| !l.trim().is_empty());
    let (mut first, mut last) = (lo, hi);
    let mut after = true;
    while last - first < 3 || !(first..=last).any(idle) {
        let can_after = last < excerpt.1;
        let can_before = first > excerpt.0;
        match (after && can_after, can_before, can_after) {
            (true, ..) => last += 1,
            (false, true, _) => first -= 1,
            (false, false, true) => last += 1,
            (false, false, false) => return None,
        }
        after = !after;
    }
    Some((first, last))
}

#[cfg(test)]
mod tests;
