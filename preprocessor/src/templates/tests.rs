#![allow(clippy::unwrap_used)]

use super::data::*;
use super::*;

/// `text` tried as an override of `name`: `Ok` or `line:column: message (hint)`.
fn check(name: &str, text: &str, expect: &str) {
    let inline = TEMPLATES.iter().any(|(n, _, i)| *n == name && *i);
    let got = match Templates::builtin().try_override(name, text, inline) {
        Ok(()) => "ok".to_owned(),
        Err(p) => format!("{}:{}: {} ({})", p.line, p.column, p.message, p.hint),
    };
    assert!(
        got.starts_with(expect),
        "{name} {text:?}\n  got:    {got}\n  expect: {expect}..."
    );
}

#[test]
fn builtins_parse_and_render_their_samples() {
    for (name, text, _) in TEMPLATES {
        check(name, text, "ok");
    }
}

#[test]
fn overrides_that_do_not_parse_or_name_unknown_fields() {
    let cases: &[(&str, &str, &str)] = &[
        (QUESTION, "<p>{{{prompt_html}}}</p>", "ok"),
        (
            QUESTION,
            "<div>\n  <p>{{promt_html}}</p>",
            "2:6: unknown field `promt_html` in this template (did you mean `prompt_html`?",
        ),
        (
            QUESTION,
            "{{#if contxt_html}}<p>x</p>{{/if}}",
            "1:1: unknown field `contxt_html` in this template (did you mean `context_html`?",
        ),
        (
            QUESTION,
            "{{#each options}}\n<label>{{valeu}}</label>{{/each}}",
            "2:8: unknown field `valeu` in this template (did you mean `value`?",
        ),
        (QUESTION, "<p>{{#if id}}</p>", "1:"),
        (
            FEEDBACK,
            "<div id=\"f-{{id}}\" data-mode=\"{{mode}}\"></div>",
            "ok",
        ),
        (
            FEEDBACK,
            "{{prompt_html}}",
            "1:1: unknown field `prompt_html` in this template (its fields:",
        ),
        (
            TOOLTIP,
            "<abbr title=\"{{definition}}\">{{{occurrence}}}</abbr>",
            "ok",
        ),
        (
            TOOLTIP,
            "<abbr>{{term}}</abbr>",
            "1:1: the tooltip template must place `{{{occurrence}}}` exactly once",
        ),
    ];
    for (name, text, expect) in cases {
        check(name, text, expect);
    }
}

fn question(hostile: &str) -> QuestionData {
    QuestionData {
        id: hostile.to_owned(),
        type_name: "choice".to_owned(),
        type_label: hostile.to_owned(),
        mode: "single".to_owned(),
        is_single: true,
        is_lines: false,
        is_number: false,
        hash: hostile.to_owned(),
        key: "k".to_owned(),
        prompt_html: crate::exercises::render::inline(hostile),
        context_html: Some(crate::exercises::render::inline(hostile)),
        instruction_html: None,
        snippet_html: None,
        candidates_html: vec![],
        options: vec![OptionData {
            value: hostile.to_owned(),
            label_html: crate::exercises::render::inline(hostile),
        }],
        feedback_html: String::new(),
    }
}

const HOSTILE: &str =
    "{{#include /etc/passwd}} </details><script>alert(1)</script> \"q\" 'a' `</code><b>` \n\nx";

fn assert_inert(html: &str) {
    for bad in [
        "<script",
        "</details>",
        "<b>",
        "{{#include",
        "\n\n",
        "\"q\"",
    ] {
        assert!(!html.contains(bad), "{bad:?} in {html}");
    }
}

#[test]
fn authored_text_stays_escaped_in_every_template() {
    let t = Templates::builtin();
    assert_inert(&crate::html::inert(t.question(&question(HOSTILE)).unwrap()));
    // A course template that writes a generated field with two braces gets
    // it escaped once more: safe, if ugly.
    let mut own = Templates::builtin();
    own.try_override(
        QUESTION,
        "<p>{{prompt_html}}</p><p>{{type_label}}</p>",
        false,
    )
    .unwrap();
    let html = own.question(&question(HOSTILE)).unwrap();
    assert_inert(&html);
    assert!(html.contains("&lt;code&gt;"), "{html}");
    let (open, close) = t
        .tooltip(&TooltipData {
            id: "x",
            term: HOSTILE,
            definition: HOSTILE,
            definition_html: "",
            taught_in: HOSTILE,
            occurrence: "",
        })
        .unwrap();
    assert_inert(&format!("{open}{close}"));
    // Spliced into Markdown prose: no Markdown or directive character either.
    for c in ['`', '*', '[', '{', '\n'] {
        assert!(!open.contains(c), "{c:?} in {open}");
    }
    assert_eq!(close, "</span>");
}

#[test]
fn a_course_overrides_through_its_theme_folder() {
    let root = std::env::temp_dir().join(format!("dumplab-templates-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("theme")).unwrap();
    std::fs::write(
        root.join("theme").join(FEEDBACK),
        "<div class=\"dumplab-actions\"></div>\n\n<div class=\"dumplab-feedback my-own\" role=\"status\"></div>\n",
    )
    .unwrap();
    std::fs::write(
        root.join("theme").join(TOOLTIP),
        "{{#if taught}}\n{{{occurrence}}}{{/if}}",
    )
    .unwrap();
    let mut diags = Vec::new();
    let t = Templates::load(&root, &mut diags);
    let shown: Vec<String> = diags.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0].starts_with("theme/dumplab-tooltip.hbs:1:1: error: unknown field `taught`"),
        "{shown:?}"
    );
    assert!(shown[0].contains("did you mean `taught_in`?"), "{shown:?}");
    let feedback = t
        .feedback(&FeedbackData {
            id: "q".to_owned(),
            type_name: "count".to_owned(),
            mode: "number".to_owned(),
        })
        .unwrap();
    // The course's own, with its blank line dropped (it would end the block).
    assert_eq!(
        feedback,
        "<div class=\"dumplab-actions\"></div>\n<div class=\"dumplab-feedback my-own\" role=\"status\"></div>"
    );
    // The broken tooltip override is not used: the built-in stays.
    let (open, _) = t
        .tooltip(&TooltipData {
            id: "x",
            term: "X",
            definition: "d",
            definition_html: "d",
            taught_in: "t",
            occurrence: "",
        })
        .unwrap();
    assert!(open.starts_with("<span class=\"dumplab-term\""), "{open}");
    let _ = std::fs::remove_dir_all(&root);
}

#[cfg(unix)]
#[test]
fn a_template_outside_the_course_is_refused() {
    let root = std::env::temp_dir().join(format!("dumplab-templates-out-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("course/theme")).unwrap();
    std::fs::write(root.join("outside.hbs"), "{{{prompt_html}}}").unwrap();
    std::os::unix::fs::symlink(
        root.join("outside.hbs"),
        root.join("course/theme").join(QUESTION),
    )
    .unwrap();
    let mut diags = Vec::new();
    let _ = Templates::load(&root.join("course"), &mut diags);
    let shown: Vec<String> = diags.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0].starts_with(
            "theme/dumplab-question.hbs:1:1: error: refused: the template resolves to"
        ),
        "{shown:?}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn every_field_is_documented_in_the_instructors_chapter() {
    let chapter = include_str!("../../../src/instructors.md");
    for name in [QUESTION, FEEDBACK, TOOLTIP] {
        assert!(chapter.contains(name), "{name} is not documented");
        for field in field_names(&samples(name)) {
            assert!(
                chapter.contains(&format!("`{field}`")),
                "{name}: field `{field}` is not documented in src/instructors.md"
            );
        }
    }
}
