//! `type = "count"`: a fact the checker counts in the whole dump (the
//! table of [`super::facts`]); the snippet's counted lines are lit, and
//! likely miscounts get their own feedback.

use super::cx::{Cx, did_you_mean};
use super::facts::{FACTS, fact_named};
use super::library::{Library, kind_of};
use super::lookup::{lookup, snippet_of};
use super::parts::Parts;
use super::provenance::{Shown, context_of};
use super::text::{merge_lines, span_words};
use crate::analysis::Kind;
use crate::exercise::key::{Hint, Mode};
use crate::exercise::model::Count;

/// Resolves a `count` question: the fact must be one the checker counts
/// and apply to the shown dump; the key is its count in the whole dump.
pub(super) fn resolve(c: &Count, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let r = lookup(&c.snippet, library, "snippet", cx)?;
    let a = r.dump.analysis();
    let Some(fact) = fact_named(&c.fact) else {
        let names = FACTS.iter().map(|f| f.name);
        let hint = match did_you_mean(&c.fact, names.clone()) {
            Some(n) => format!(
                "did you mean `{n}`? The facts: {}",
                names.collect::<Vec<_>>().join(", ")
            ),
            None => format!("use one of: {}", names.collect::<Vec<_>>().join(", ")),
        };
        cx.error(
            "fact",
            format!("`{}` is not a fact the checker counts", c.fact),
            &hint,
        );
        return None;
    };
    let kind = kind_of(r.dump).unwrap_or(Kind::Unknown);
    if let Some(why) = fact.mismatch(kind, a) {
        let fitting: Vec<&str> = FACTS
            .iter()
            .filter(|f| f.mismatch(kind, a).is_none())
            .map(|f| f.name)
            .collect();
        cx.error(
            "fact",
            why,
            &format!(
                "ask for a fact of this dump ({}), or show a dump the fact applies to",
                if fitting.is_empty() {
                    "none applies".to_owned()
                } else {
                    fitting.join(", ")
                }
            ),
        );
        return None;
    }
    let counted = fact.count(a, r.lines);
    let lines = merge_lines(counted.lines);
    let hints = match (lines.first(), lines.last()) {
        (Some((first, _)), Some((last, _))) => vec![Hint {
            first: *first,
            last: *last,
            text: format!(
                "Everything counted is in {}. The count is of {}.",
                span_words(*first, *last),
                fact.what
            ),
        }],
        _ => Vec::new(),
    };
    let value = counted.value.to_string();
    let mut miscounts: Vec<(String, String)> = Vec::new();
    for (n, why) in counted.miscounts {
        let n = n.to_string();
        if n != value && !miscounts.iter().any(|(m, _)| *m == n) {
            miscounts.push((n, why));
        }
    }
    let mut p = Parts::single(value.clone(), value, lines);
    p.mode = Mode::Number;
    p.miscounts = miscounts;
    p.hints = hints;
    p.context = context_of(&r, library, Shown::All);
    p.snippet = Some(snippet_of(&r, None));
    Some(p)
}
