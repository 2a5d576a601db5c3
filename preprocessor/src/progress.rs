//! The course's question list on every page, for progress across chapters.
//!
//! Progress stays in the learner's browser (`theme/exercises.js`, one
//! localStorage entry per question content hash). To show "answered right /
//! total" per chapter in mdBook's sidebar, every page must know which
//! questions each chapter holds, including chapters not loaded. So every
//! chapter ends with one `<script type="application/json"
//! class="dumplab-course">` listing, per chapter page, the content hashes of
//! the questions placed there, in page order. It is built from the
//! questions the exercise directives rendered, never typed by hand; it
//! holds hashes only (no prompt, no key). mdBook's search skips `<script>`.

use crate::html::json_for_script;
use dumplab::exercise::resolve::Resolved;

/// The element the script carries (a class, not an id: `print.html` holds
/// every chapter's copy).
pub(crate) const CLASS: &str = "dumplab-course";

/// The `<script>` block for a book whose chapters (page, questions) are
/// `chapters`, in book order; chapters without questions are left out, and
/// a book without questions gets nothing.
pub(crate) fn course_script<'a>(
    chapters: impl IntoIterator<Item = (&'a str, &'a [&'a Resolved])>,
) -> String {
    let list: Vec<serde_json::Value> = chapters
        .into_iter()
        .filter(|(_, qs)| !qs.is_empty())
        .map(|(page, qs)| {
            serde_json::json!({
                "page": page,
                "questions": qs.iter().map(|q| q.hash.as_str()).collect::<Vec<_>>(),
            })
        })
        .collect();
    if list.is_empty() {
        return String::new();
    }
    let json = serde_json::json!({ "version": 1, "chapters": list }).to_string();
    format!(
        "\n\n<script type=\"application/json\" class=\"{CLASS}\">{}</script>\n",
        json_for_script(&json)
    )
}

/// A chapter's page as the sidebar links it: `a/b.md` becomes `a/b.html`.
pub(crate) fn page_of(path: &str) -> String {
    match path.strip_suffix(".md") {
        Some(stem) => format!("{stem}.html"),
        None => path.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn pages_are_the_sidebar_links() {
        for (input, expect) in [
            ("intro.md", "intro.html"),
            ("part/two-dumps.md", "part/two-dumps.html"),
            ("README", "README"),
        ] {
            assert_eq!(page_of(input), expect, "{input}");
        }
    }

    #[test]
    fn one_list_of_hashes_per_chapter_with_questions() {
        let (ex, _) = crate::exercises::tests::exercises();
        let all: Vec<&Resolved> = ex.files()["exercises/t.toml"].iter().collect();
        let (first, rest) = all.split_at(2);
        let script = course_script([("a.html", first), ("b.html", &[][..]), ("c/d.html", rest)]);
        let body = script
            .trim()
            .strip_prefix("<script type=\"application/json\" class=\"dumplab-course\">")
            .and_then(|s| s.strip_suffix("</script>"))
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        let hashes = |qs: &[&Resolved]| qs.iter().map(|q| q.hash.clone()).collect::<Vec<_>>();
        assert_eq!(
            v,
            serde_json::json!({"version": 1, "chapters": [
                {"page": "a.html", "questions": hashes(first)},
                {"page": "c/d.html", "questions": hashes(rest)},
            ]})
        );
    }

    #[test]
    fn hostile_page_names_cannot_end_the_script() {
        let script = course_script([("</script><script>alert(1)//{{#x}}.html", &[][..])]);
        assert_eq!(script, "", "a book without questions gets no list");
        // A chapter with questions is listed, its page escaped.
        let (ex, _) = crate::exercises::tests::exercises();
        let one: Vec<&Resolved> = ex.files()["exercises/t.toml"].iter().take(1).collect();
        let script = course_script([("</script><b>{{#x}}.html", &one[..])]);
        assert_eq!(script.matches("</script>").count(), 1, "{script}");
        assert!(
            !script.contains("<b>") && !script.contains("{{"),
            "{script}"
        );
    }
}
