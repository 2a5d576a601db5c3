//! One exercise file: parsed (a TOML or schema error pointed at the key to
//! change, with "did you mean"), every question id checked, every question
//! resolved.

use super::cx::{Cx, did_you_mean, key_offset};
use super::library::Library;
use super::page::Resolved;
use super::question::resolve_question;
use crate::diagnostic::Diagnostic;
use crate::exercise::model::ExerciseFile;
use std::collections::BTreeMap;

/// Parses and validates exercise file `file` (text `source`) against
/// `library`; returns the questions that resolved and every problem found.
pub fn resolve_file(
    file: &str,
    source: &str,
    library: &Library,
) -> (Vec<Resolved>, Vec<Diagnostic>) {
    let parsed: ExerciseFile = match toml::from_str(source) {
        Ok(p) => p,
        Err(e) => return (Vec::new(), vec![schema_error(file, source, &e)]),
    };
    let mut out = Vec::new();
    let mut diags = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for q in &parsed.question {
        let span = q.span();
        let mut cx = Cx {
            file,
            source,
            span: span.clone(),
            diags: &mut diags,
        };
        let (id, _, _) = q.get_ref().common();
        if !valid_id(id) {
            cx.error(
                "id",
                format!("question id `{id}` is not a plain name"),
                "use lowercase letters, digits, `-` and `_`, starting with a letter or digit",
            );
        } else if let Some(first) = seen.get(id) {
            let (line, _) = crate::diagnostic::line_column(source, *first);
            cx.error(
                "id",
                format!("question id `{id}` is used twice (first on line {line})"),
                "give every question its own id",
            );
        } else {
            seen.insert(id.to_owned(), span.start);
        }
        if let Some(r) = resolve_question(q.get_ref(), library, &mut cx) {
            out.push(r);
        }
    }
    (out, diags)
}

/// A TOML or schema error as a diagnostic: an unknown field is pointed at
/// its key (serde reports its value), which is what to change, with the
/// field that was meant.
fn schema_error(file: &str, source: &str, e: &toml::de::Error) -> Diagnostic {
    let mut offset = e.span().map_or(0, |s| s.start);
    let message = e.message().trim().to_owned();
    let mut hint =
        "exercises/FORMAT.md lists every key of a question (type, id, prompt, snippet, ...)"
            .to_owned();
    if let Some(field) = message
        .strip_prefix("unknown field `")
        .and_then(|m| m.split('`').next())
    {
        // serde reports a field of a tagged question at the table it
        // buffered, which for an array of questions can be the first one:
        // then the key's one line in the file is where it is.
        let at = key_offset(source, offset.min(source.len()), field)
            .or_else(|| only_key_line(source, field));
        if let Some(value) = at {
            offset = source[..value].rfind(field).unwrap_or(value);
        }
        let expected: Vec<&str> = message
            .split_once("expected")
            .map(|(_, list)| list.split('`').skip(1).step_by(2).collect())
            .unwrap_or_default();
        if let Some(near) = did_you_mean(field, expected.iter().copied()) {
            hint = format!("did you mean `{near}`? {hint}");
        }
    }
    Diagnostic::error_at(file, source, offset, message).with_hint(hint)
}

/// The value offset of `key = ...` when exactly one line of the file sets
/// that key (at any table), else `None`.
fn only_key_line(source: &str, key: &str) -> Option<usize> {
    let mut found = None;
    let mut pos = 0;
    for line in source.split_inclusive('\n') {
        if let Some(v) = key_offset(line, 0, key) {
            if found.is_some() {
                return None;
            }
            found = Some(pos + v);
        }
        pos += line.len();
    }
    found
}

/// Whether a question id is a plain name: lowercase letters, digits, `-`
/// and `_`, starting with a letter or digit.
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        && id.as_bytes()[0].is_ascii_alphanumeric()
}
