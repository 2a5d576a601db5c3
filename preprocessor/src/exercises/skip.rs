//! Root causes first: a question that uses a fixture family with errors is
//! skipped, with one warning that points at the family's errors, instead of
//! a cascade of "no dump in family" and self-test errors that hide the cause.
//!
//! The exercise file is read here only for what skipping needs: each
//! `[[question]]`'s id, the families its `snippet` and `candidates` name, and
//! the lines its block spans (to drop the resolver's diagnostics inside it).

use dumplab::Diagnostic;
use std::collections::BTreeSet;
use std::ops::RangeInclusive;

/// One question of an exercise file that uses a broken family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Skipped {
    /// The question's id.
    pub(crate) id: String,
    /// The broken family it uses.
    pub(crate) family: String,
    /// The lines of its `[[question]]` block (1-based).
    pub(crate) lines: RangeInclusive<usize>,
    /// Byte offset of its `id` value, for the warning.
    pub(crate) id_offset: usize,
}

/// The questions of `text` that use one of `broken`.
pub(crate) fn skipped(text: &str, broken: &BTreeSet<String>) -> Vec<Skipped> {
    if broken.is_empty() {
        return Vec::new();
    }
    let Ok(doc) = text.parse::<toml::Table>() else {
        return Vec::new(); // the resolver reports the syntax error
    };
    let Some(questions) = doc.get("question").and_then(toml::Value::as_array) else {
        return Vec::new();
    };
    let blocks = blocks(text);
    let mut out = Vec::new();
    for (q, (lines, start)) in questions.iter().zip(blocks) {
        let Some(id) = q.get("id").and_then(toml::Value::as_str) else {
            continue;
        };
        let refs = q
            .get("snippet")
            .into_iter()
            .chain(
                q.get("candidates")
                    .and_then(toml::Value::as_array)
                    .into_iter()
                    .flatten(),
            )
            .filter_map(toml::Value::as_str);
        let family = refs
            .filter_map(|r| r.split('/').next())
            .find(|f| broken.contains(*f));
        if let Some(family) = family {
            let id_offset = text[start..]
                .find(&format!("\"{id}\""))
                .map_or(start, |i| start + i);
            out.push(Skipped {
                id: id.to_owned(),
                family: family.to_owned(),
                lines,
                id_offset,
            });
        }
    }
    out
}

/// Every question id `text` declares, whether or not the question resolves
/// (a question with errors is reported at its file; a chapter placing it
/// is no error of its own).
pub(crate) fn declared_ids(text: &str) -> Vec<String> {
    let Ok(doc) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    doc.get("question")
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|q| q.get("id").and_then(toml::Value::as_str))
        .map(str::to_owned)
        .collect()
}

/// The line span and byte start of each `[[question]]` block, in order.
fn blocks(text: &str) -> Vec<(RangeInclusive<usize>, usize)> {
    let mut starts = Vec::new();
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if line.trim() == "[[question]]" {
            starts.push((i + 1, offset));
        }
        offset += line.len();
    }
    let total = text.lines().count().max(1);
    starts
        .iter()
        .enumerate()
        .map(|(k, &(line, byte))| {
            let end = starts.get(k + 1).map_or(total, |&(next, _)| next - 1);
            (line..=end, byte)
        })
        .collect()
}

/// The warning that stands for everything a skipped question would report.
pub(crate) fn warning(path: &str, text: &str, s: &Skipped) -> Diagnostic {
    Diagnostic::warning_at(
        path,
        text,
        s.id_offset,
        format!(
            "skipped: question `{}` uses family `{}`, which has errors (above)",
            s.id, s.family
        ),
    )
    .with_hint("fix the family's errors first; this question is checked again then")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_on_broken_families_are_found_with_their_blocks() {
        let text = "[[question]]\nid = \"a\"\nsnippet = \"good/x.hlo.txt\"\n\n[[question]]\nid = \"b\"\ntype = \"pair\"\nsnippet = \"good/x.mlir\"\ncandidates = [\n  \"good/y.hlo.txt\",\n  \"bad/y.hlo.txt\",\n]\n\n[[question]]\nid = \"c\"\nsnippet = \"bad/jaxpr.txt#all\"\n";
        let broken = BTreeSet::from(["bad".to_owned()]);
        let got: Vec<(String, String, RangeInclusive<usize>)> = skipped(text, &broken)
            .into_iter()
            .map(|s| (s.id, s.family, s.lines))
            .collect();
        assert_eq!(
            got,
            vec![
                ("b".to_owned(), "bad".to_owned(), 5..=13),
                ("c".to_owned(), "bad".to_owned(), 14..=16),
            ]
        );
        assert!(skipped(text, &BTreeSet::new()).is_empty());
        assert!(skipped("not toml [[", &broken).is_empty());
    }
}
