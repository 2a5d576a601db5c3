//! One question: resolved by its type's module (one file per type), then
//! keyed, hashed, sealed and graded against its own key
//! ([`super::self_test`]).

use super::cx::Cx;
use super::library::Library;
use super::page::Resolved;
use super::parts::Parts;
use super::self_test::self_test;
use super::{
    backend, choice, classify, collective, cost, count, diff, evidence, explain, finding, folder,
    pair,
};
use crate::exercise::key::Key;
use crate::exercise::model::Question;
use crate::exercise::seal::{hash_fields, seal};

/// Resolves question `q` by its type, keys, hashes and seals it, and
/// grades it against its own key; every problem goes to `cx`.
pub(super) fn resolve_question(
    q: &Question,
    library: &Library,
    cx: &mut Cx<'_>,
) -> Option<Resolved> {
    let before = cx.diags.len();
    let parts = match q {
        Question::Classify(c) => classify::resolve(c, library, cx),
        Question::Backend(b) => backend::resolve(b, library, cx),
        Question::Evidence(e) => evidence::resolve(e, library, cx),
        Question::Count(c) => count::resolve(c, library, cx),
        Question::Pair(p) => pair::resolve(p, library, cx),
        Question::Choice(c) => choice::resolve(c, library, cx),
        Question::Cost(c) => cost::resolve(c, library, cx),
        Question::Diff(d) => diff::resolve(d, library, cx),
        Question::Folder(f) => folder::resolve(f, library, cx),
        Question::Explain(e) => explain::resolve(e, library, cx),
        Question::Collective(c) => collective::resolve(c, library, cx),
        Question::Finding(f) => finding::resolve(f, library, cx),
    };
    let Some(parts) = parts else {
        // Never drop a question silently: a type that gives up says why,
        // and if it did not, this is the checker's bug, reported as one.
        if cx.diags.len() == before {
            let (id, ..) = q.common();
            cx.error(
                "id",
                format!(
                    "question `{id}` could not be resolved, and its type said nothing about why"
                ),
                "this is a bug in DumpLab's checker: report it with the question",
            );
        }
        return None;
    };
    let idle_line = parts.idle_line;
    let resolved = sealed(q, parts);
    for problem in self_test(&resolved, idle_line) {
        cx.error(
            "id",
            format!("self-test of `{}`: {problem}", resolved.id),
            "the key and the grader disagree; fix the question (or report the checker bug this shows)",
        );
    }
    Some(resolved)
}

/// The question with its key, its content hash (over everything the page
/// shows and the key) and the key sealed with it.
fn sealed(q: &Question, parts: Parts) -> Resolved {
    let (id, prompt, authored) = q.common();
    let explanation = match authored {
        Some(e) if !e.is_empty() => e.to_owned(),
        _ => parts.explanation.unwrap_or_default(),
    };
    let key = Key {
        mode: parts.mode,
        answer: parts.answer,
        answer_text: parts.answer_text,
        options: parts.option_notes,
        lines: parts.lines,
        explanation,
        need: parts.need,
        miscounts: parts.miscounts,
        hints: parts.hints,
    };
    let mut fields: Vec<&str> = vec![id, q.type_name(), prompt];
    fields.extend(parts.context.as_deref());
    fields.extend(parts.instruction.as_deref());
    let snippet_texts: Vec<&str> = parts
        .snippet
        .iter()
        .chain(parts.candidates.iter())
        .map(|s| s.text.as_str())
        .collect();
    fields.extend(snippet_texts);
    let option_labels: Vec<&str> = parts.options.iter().map(|(_, l)| l.as_str()).collect();
    fields.extend(option_labels);
    let encoded = key.encode();
    fields.push(&encoded);
    let hash = hash_fields(&fields);
    let sealed = seal(id, &hash, &encoded);
    Resolved {
        id: id.to_owned(),
        type_name: q.type_name(),
        prompt: prompt.to_owned(),
        context: parts.context,
        instruction: parts.instruction,
        mode: parts.mode,
        snippet: parts.snippet,
        candidates: parts.candidates,
        options: parts.options,
        hash,
        sealed,
        key,
    }
}
