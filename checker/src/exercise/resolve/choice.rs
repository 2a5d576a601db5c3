//! `type = "choice"`: a conceptual multiple choice, the one type whose key
//! is typed by hand (`correct = true`), with an optional dump shown.

use super::cx::Cx;
use super::library::Library;
use super::lookup::{lookup, snippet_of};
use super::parts::Parts;
use super::provenance::{Shown, context_of};
use crate::diagnostic::Diagnostic;
use crate::exercise::model::{Choice, ChoiceOption};

/// Words a note may not start with: the verdict already says them.
const VERDICT_WORDS: [&str; 6] = ["Right", "Correct", "Wrong", "Incorrect", "Yes", "No"];

/// Resolves a `choice` question: two to six options, exactly one right.
pub(super) fn resolve(c: &Choice, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let mut shown = None;
    if let Some(s) = &c.snippet {
        let r = lookup(s, library, "snippet", cx)?;
        shown = Some((context_of(&r, library, Shown::All), snippet_of(&r, None)));
    }
    if !(2..=6).contains(&c.option.len()) {
        cx.error(
            "option",
            format!(
                "a choice question needs 2 to 6 options, not {}",
                c.option.len()
            ),
            "add or remove `[[question.option]]` tables",
        );
        return None;
    }
    let right: Vec<usize> = c
        .option
        .iter()
        .enumerate()
        .filter(|(_, o)| o.correct)
        .map(|(i, _)| i)
        .collect();
    let &[i] = right.as_slice() else {
        cx.error(
            "option",
            format!(
                "a choice question needs exactly one option with `correct = true`, not {}",
                right.len()
            ),
            "mark the one right option `correct = true`",
        );
        return None;
    };
    let right_option = &c.option[i];
    let mut p = Parts::single(option_id(i), right_option.text.clone(), Vec::new());
    for (n, o) in c.option.iter().enumerate() {
        check_why(n, o, cx);
        p.options.push((option_id(n), o.text.clone()));
        p.option_notes.push((option_id(n), o.why.clone()));
    }
    p.explanation = Some(right_option.why.clone());
    if let Some((context, snippet)) = shown {
        p.context = context;
        p.snippet = Some(snippet);
    }
    Some(p)
}

/// The id of option `n` (0-based): `a`, `b`, ...
fn option_id(n: usize) -> String {
    char::from(b'a' + n as u8).to_string()
}

/// The verdict already says right or wrong: a note that says it again
/// reads "Correct: ... Right: ...". Reported at the note itself.
fn check_why(n: usize, o: &ChoiceOption, cx: &mut Cx<'_>) {
    let first = o.why.split([':', ',', '.', ' ']).next().unwrap_or("");
    if !VERDICT_WORDS.contains(&first) {
        return;
    }
    // The note inside this question's table, which runs to the next one.
    let start = cx.span.start.min(cx.source.len());
    let rest = cx.source.get(start..).unwrap_or_default();
    let end = rest
        .get(1..)
        .and_then(|r| r.find("\n[[question]]"))
        .map_or(rest.len(), |e| e + 1);
    let at = rest
        .get(..end)
        .and_then(|r| r.find(o.why.as_str()))
        .map_or(start, |p| start + p);
    let d = Diagnostic::error_at(
        cx.file,
        cx.source,
        at,
        format!(
            "option {}'s `why` starts with \"{first}\", which the verdict already says",
            n + 1
        ),
    )
    .with_hint(
        "start with the reason itself; the page prints \"Correct\" or \"Not this one\" before it",
    );
    cx.diags.push(d);
}
