//! `type = "pair"`: pick the compiled dump of the same function. The key is
//! the one candidate from the snippet's family.

use super::cx::Cx;
use super::library::Library;
use super::lookup::{Ref, lookup, snippet_of};
use super::parts::Parts;
use super::provenance::{Shown, context_of, params_of};
use crate::exercise::key::Hint;
use crate::exercise::model::Pair;
use std::collections::BTreeSet;

/// What the options' notes and the hint say: where every candidate takes
/// the lowered module's shapes, only the operations can tell them apart.
struct Notes {
    /// The note of the right candidate.
    same: &'static str,
    /// The note of every other candidate.
    other: &'static str,
    /// The hint after a wrong pick.
    compare: &'static str,
}

/// Every candidate takes the lowered module's shapes.
const SAME_SHAPES: Notes = Notes {
    same: "Same function: the operations of the lowered module are all here, fused or not.",
    other: "Another function with the same shapes: compare its operations with the lowered module's.",
    compare: "Every dump takes the lowered module's shapes: compare the operations each one computes (reductions, opcodes inside the fused computations) with the lowered module's.",
};

/// Some candidate takes other shapes.
const OTHER_SHAPES: Notes = Notes {
    same: "Same function: the parameter shapes and the operations of the lowered module are all here, fused or not.",
    other: "Another function: compare its parameter shapes and operations with the lowered module's.",
    compare: "Compare the parameter and result shapes of the lowered module with each dump's `ENTRY` signature first.",
};

/// Resolves a `pair` question: two to four candidates from different
/// families, exactly one from the snippet's.
pub(super) fn resolve(p: &Pair, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let r = lookup(&p.snippet, library, "snippet", cx)?;
    if !(2..=4).contains(&p.candidates.len()) {
        cx.error(
            "candidates",
            format!(
                "a pair question needs 2 to 4 candidates, not {}",
                p.candidates.len()
            ),
            "list two to four compiled snippets",
        );
        return None;
    }
    let shapes = |r: &Ref<'_>| -> Vec<String> {
        params_of(r, library)
            .iter()
            .map(|p| p.shape.clone())
            .collect()
    };
    let mut refs = Vec::new();
    for c in &p.candidates {
        refs.push(lookup(c, library, "candidates", cx)?);
    }
    let notes = if refs.iter().all(|c| shapes(c) == shapes(&r)) {
        SAME_SHAPES
    } else {
        OTHER_SHAPES
    };
    let mut right = None;
    let mut families = BTreeSet::new();
    let mut out = Parts::single(String::new(), String::new(), Vec::new());
    for (i, c) in refs.into_iter().enumerate() {
        let letter = char::from(b'A' + i as u8);
        let opt = letter.to_ascii_lowercase().to_string();
        if !families.insert(c.family) {
            cx.error(
                "candidates",
                format!("two candidates come from family `{}`", c.family),
                "take each candidate from a different family",
            );
            return None;
        }
        if c.family == r.family {
            right = Some((letter, opt.clone()));
        }
        let note = if c.family == r.family {
            notes.same
        } else {
            notes.other
        };
        out.option_notes.push((opt.clone(), note.to_owned()));
        out.options.push((opt, format!("Dump {letter}")));
        out.candidates
            .push(snippet_of(&c, Some(format!("Dump {letter}"))));
    }
    let Some((letter, opt)) = right else {
        cx.error(
            "candidates",
            format!(
                "no candidate comes from the snippet's family `{}`",
                r.family
            ),
            "add the compiled dump of the same family",
        );
        return None;
    };
    out.answer = vec![opt];
    out.answer_text = format!("Dump {letter}");
    out.hints = vec![Hint {
        first: r.lines.0,
        last: r.lines.1,
        text: notes.compare.to_owned(),
    }];
    out.context = context_of(&r, library, Shown::NoFile);
    out.snippet = Some(snippet_of(&r, None));
    Some(out)
}
