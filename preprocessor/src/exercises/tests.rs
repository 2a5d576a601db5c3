//! Golden HTML of rendered questions, hostile strings, and the directive.
//!
//! The golden file is `preprocessor/tests/golden/questions.html`; run with
//! `UPDATE_EXPECT=1` to rewrite it after an intended change, and review the
//! diff.

#![allow(clippy::unwrap_used)]

use super::*;
use crate::templates::Templates;
use dumplab::exercise::resolve::{AnnotatedLine, DumpInfo, Library};
use std::path::PathBuf;

const HOSTILE_DUMP: &str = r#"HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

%fused_computation (param_0: f32[8]) -> f32[8] {
  %param_0 = f32[8]{0} parameter(0)
  ROOT %neg.1 = f32[8]{0} negate(%param_0), metadata={op_name="</code><script>alert('x')</script>"}
}

ENTRY %main.1 (x.1: f32[8]) -> f32[8] {
  %x.1 = f32[8]{0} parameter(0)
  ROOT %neg_fusion = f32[8]{0} fusion(%x.1), kind=kLoop, calls=%fused_computation, backend_config={"outer_dimension_partitions":["2"]}
}
"#;

const JAXPR: &str = "{ lambda ; a:f32[8]. let b:f32[8] = neg a in (b,) }\n";

fn library() -> Library {
    let mut lib = Library::new();
    lib.insert(
        ("neg".into(), "compiled.cpu.hlo.txt".into()),
        DumpInfo {
            text: HOSTILE_DUMP.to_owned(),
            kind: Some(dumplab::Kind::HloOptimized),
            backend: Some(dumplab::Backend::Cpu),
            excerpts: vec![("entry".into(), 8, 11)],
            evidence: vec![
                AnnotatedLine {
                    line: 1,
                    marker: "is-scheduled".into(),
                    note: "<b>scheduled</b> \"quoted\"".into(),
                },
                AnnotatedLine {
                    line: 10,
                    marker: "fusion-kind".into(),
                    note: "one kernel".into(),
                },
            ],
            ..DumpInfo::default()
        },
    );
    lib.insert(
        ("neg".into(), "jaxpr.txt".into()),
        DumpInfo {
            text: JAXPR.to_owned(),
            kind: Some(dumplab::Kind::Jaxpr),
            backend: None,
            excerpts: vec![],
            evidence: vec![AnnotatedLine {
                line: 1,
                marker: "jaxpr-lambda".into(),
                note: "a jaxpr".into(),
            }],
            ..DumpInfo::default()
        },
    );
    lib
}

const EXERCISES: &str = r#"
[[question]]
id = "classify-1"
type = "classify"
prompt = "Which call printed `</code><script>alert(1)</script>` this \"dump\"?"
snippet = "neg/compiled.cpu.hlo.txt"

[[question]]
id = "evidence-1"
type = "evidence"
prompt = "Select the lines that prove it."
snippet = "neg/compiled.cpu.hlo.txt"

[[question]]
id = "count-1"
type = "count"
prompt = "How many kernels?"
snippet = "neg/compiled.cpu.hlo.txt#entry"
fact = "entry_fusions"

[[question]]
id = "pair-1"
type = "pair"
prompt = "Which one?"
snippet = "neg/jaxpr.txt"
candidates = ["neg/compiled.cpu.hlo.txt#entry", "other/compiled.cpu.hlo.txt#entry"]

[[question]]
id = "choice-1"
type = "choice"
prompt = "Pick <img src=x onerror=alert(1)>"
[[question.option]]
text = "`a` & 'b'"
why = "no"
[[question.option]]
text = "\"</label><script>\""
correct = true
why = "yes"

[[question]]
id = "backend-1"
type = "backend"
prompt = "Which backend?"
snippet = "neg/compiled.cpu.hlo.txt#entry"
choices = ["cpu", "tpu"]
"#;

/// The test library plus a second family (`other`) for pair questions.
fn library_with_other() -> Library {
    let mut lib = library();
    let other = lib
        .get(&("neg".to_owned(), "compiled.cpu.hlo.txt".to_owned()))
        .unwrap()
        .clone();
    lib.insert(("other".into(), "compiled.cpu.hlo.txt".into()), other);
    lib
}

pub(crate) fn exercises() -> (Exercises, Vec<Diagnostic>) {
    let lib = library_with_other();
    let (questions, diags) = resolve_file("exercises/t.toml", EXERCISES, &lib);
    let mut files = BTreeMap::new();
    files.insert("exercises/t.toml".to_owned(), questions);
    (
        Exercises {
            files,
            ..Exercises::default()
        },
        diags,
    )
}

pub(crate) fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} differs from the rendering; run with UPDATE_EXPECT=1 and review the diff\n{actual}",
        path.display()
    );
}

#[test]
fn rendered_questions_match_the_golden_html() {
    let (ex, diags) = exercises();
    assert!(diags.is_empty(), "{diags:#?}");
    let mut diags = Vec::new();
    let content = "# T\n\n{{#exercise exercises/t.toml}}\n";
    let found = crate::directives::find(content);
    let html = ex.expand_chapter("src/t.md", content, &found, &mut diags);
    assert!(diags.is_empty(), "{diags:#?}");
    golden("questions.html", &html);
}

#[test]
fn every_type_renders_its_hooks() {
    let (ex, _) = exercises();
    for q in &ex.files["exercises/t.toml"] {
        let html = render::question(q, &Templates::builtin()).unwrap();
        assert!(
            html.contains(&format!("data-dumplab-question=\"{}\"", q.id)),
            "{html}"
        );
        assert!(
            html.contains(&format!("data-type=\"{}\"", q.type_name)),
            "{html}"
        );
        // One raw HTML block: a blank line would end it and let Markdown in.
        assert!(!html.contains("\n\n"), "blank line in {}", q.id);
        // highlight.js must leave dumps alone: no <code> in <pre>, no language-* class.
        assert!(
            !html.contains("<pre class=\"dumplab-code\" data-lang=\"hlo\"><code"),
            "{html}"
        );
        assert!(!html.contains("language-"), "{html}");
        // The key is sealed: the right answer's spelling is not in the page as a key.
        assert!(!html.contains("answer\t"), "{html}");
    }
}

#[test]
fn hostile_strings_render_as_text() {
    let (ex, _) = exercises();
    let all: String = ex.files["exercises/t.toml"]
        .iter()
        .map(|q| render::question(q, &Templates::builtin()).unwrap())
        .collect();
    for bad in [
        "<script",
        "</code><script",
        "<img",
        "onerror=alert(1)>",
        "</label><script",
    ] {
        assert!(!all.contains(bad), "`{bad}` reached the page unescaped");
    }
    assert!(
        all.contains("&lt;/code&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
        "the prompt is shown as text"
    );
    assert!(
        all.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"),
        "the dump is shown as text"
    );
}

#[test]
fn directives_are_found_placed_and_reported() {
    let (ex, _) = exercises();
    let check = |content: &str, expect_questions: usize, expect_diags: &[&str]| {
        let mut diags = Vec::new();
        let found = crate::directives::find(content);
        let out = ex.expand_chapter("src/ch/t.md", content, &found, &mut diags);
        assert_eq!(
            out.matches("data-dumplab-question=").count(),
            expect_questions,
            "{content}\n=> {out}"
        );
        let shown: Vec<String> = diags
            .iter()
            .map(|d| d.to_string().lines().next().unwrap().to_owned())
            .collect();
        assert_eq!(shown, expect_diags, "{content}");
        out
    };
    check("a\n{{#exercise exercises/t.toml}}\nb\n", 6, &[]);
    check(
        "{{#exercise exercises/t.toml#count-1}} and {{#exercise exercises/t.toml#pair-1}}\n",
        2,
        &[],
    );
    let fenced = check("```toml\n{{#exercise exercises/t.toml}}\n```\n", 0, &[]);
    assert!(fenced.contains("{{#exercise exercises/t.toml}}"));
    let escaped = check("write \\{{#exercise exercises/t.toml}} to place\n", 0, &[]);
    assert!(
        escaped.contains("write {{#exercise exercises/t.toml}} to place"),
        "{escaped}"
    );
    check("in `{{#exercise exercises/t.toml}}` code\n", 0, &[]);
    check(
        "x\n  {{#exercise exercises/nope.toml}}\n",
        0,
        &["src/ch/t.md:2:3: error: no exercise file `exercises/nope.toml`"],
    );
    check(
        "{{#exercise exercises/t.toml#nope}}\n",
        0,
        &["src/ch/t.md:1:1: error: `exercises/t.toml` has no question `nope`"],
    );
    check("no directive at all\n", 0, &[]);
    check(
        "{{#exercise exercises/t.toml#count-1}}\n\n{{#exercise exercises/t.toml}}\n",
        6,
        &["src/ch/t.md:3:1: error: question `count-1` is already placed on this page (line 1)"],
    );
    check(
        "{{#exercise }}\n",
        0,
        &["src/ch/t.md:1:1: error: the exercise directive names no file"],
    );
}

#[test]
fn authored_text_cannot_break_out_or_spell_a_directive() {
    let hostile =
        "a {{#include /proc/self/environ}}\n\n[x](javascript:alert(1))\r\r# H\n\n{{#title T}}";
    let lib = library_with_other();
    let toml = format!(
        "[[question]]\nid = \"h\"\ntype = \"choice\"\nprompt = {p}\nexplanation = {p}\n[[question.option]]\ntext = {p}\nwhy = {p}\ncorrect = true\n[[question.option]]\ntext = \"b\"\nwhy = \"c\"\n",
        p = toml::Value::String(hostile.to_owned())
    );
    let (questions, diags) = resolve_file("exercises/h.toml", &toml, &lib);
    assert!(diags.is_empty(), "{diags:#?}");
    let ex = Exercises {
        files: BTreeMap::from([("exercises/h.toml".to_owned(), questions)]),
        ..Exercises::default()
    };
    let content = "{{#exercise exercises/h.toml}}\n";
    let out = ex.expand_chapter(
        "src/h.md",
        content,
        &crate::directives::find(content),
        &mut Vec::new(),
    );
    let block = out.trim();
    assert!(!block.contains("{{"), "{block}");
    assert!(!block.contains('\r'), "{block}");
    assert!(
        !block.lines().any(|l| l.trim().is_empty()),
        "a blank line would end the HTML block: {block}"
    );
    assert!(block.contains("#include /proc/self/environ}}"), "{block}");
}
