//! Builds this repository's real course with the pinned mdBook and the
//! preprocessor under test, and checks what a learner meets on the lesson
//! page: tooltips on the core terms, and none where they do not belong
//! (inside code, links or headings).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::OnceLock;

mod support;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The course, built once per test binary into the target temp dir.
fn built() -> &'static PathBuf {
    static BOOK: OnceLock<PathBuf> = OnceLock::new();
    BOOK.get_or_init(|| {
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("course-book");
        let _ = std::fs::remove_dir_all(&out);
        let output = support::mdbook_build(&repo(), &out);
        assert!(
            output.status.success(),
            "the course does not build:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        out
    })
}

fn page(name: &str) -> String {
    std::fs::read_to_string(built().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The `<main>` element, where the chapter's prose is.
fn main_element(html: &str) -> &str {
    let start = html.find("<main>").expect("<main>");
    let end = html[start..].find("</main>").expect("</main>") + start;
    &html[start..end]
}

/// Every tooltip in `html` with the stack of enclosing elements that matter
/// (`code`, `pre`, `a`, `h1`-`h6`) at the point it opens.
fn tooltips_with_context(html: &str) -> Vec<(String, Vec<String>)> {
    const WATCHED: [&str; 9] = ["code", "pre", "a", "h1", "h2", "h3", "h4", "h5", "h6"];
    let mut stack: Vec<String> = Vec::new();
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt + 1..];
        let end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..end];
        rest = &rest[end.min(rest.len())..];
        if let Some(name) = tag.strip_prefix('/') {
            let name = name.trim().to_ascii_lowercase();
            if WATCHED.contains(&name.as_str())
                && let Some(pos) = stack.iter().rposition(|open| *open == name)
            {
                stack.truncate(pos);
            }
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if tag.contains("dumplab-term") && tag.contains("data-term=") {
            let id = tag
                .split("data-term=\"")
                .nth(1)
                .and_then(|s| s.split('"').next())
                .unwrap_or("")
                .to_owned();
            found.push((id, stack.clone()));
        }
        if WATCHED.contains(&name.as_str()) && !tag.ends_with('/') {
            stack.push(name);
        }
    }
    found
}

#[test]
fn the_lesson_carries_tooltips_for_the_core_terms() {
    let html = page("two-dumps.html");
    let terms = tooltips_with_context(main_element(&html));
    for id in ["xla", "fusion", "jaxpr", "stablehlo"] {
        assert!(
            terms.iter().any(|(t, _)| t == id),
            "two-dumps.html has no tooltip for `{id}`; it has: {terms:?}"
        );
    }
}

#[test]
fn no_tooltip_inside_code_links_or_headings() {
    for name in [
        "two-dumps.html",
        "xla.html",
        "fusion.html",
        "jaxpr.html",
        "stablehlo.html",
        "hlo.html",
        "layouts.html",
        "buffer-assignment.html",
        "intro.html",
    ] {
        let html = page(name);
        for (id, stack) in tooltips_with_context(main_element(&html)) {
            assert!(
                stack.is_empty(),
                "{name}: tooltip `{id}` inside <{}>",
                stack.join("> <")
            );
        }
    }
}

#[test]
fn the_scanner_sees_enclosing_elements() {
    let html = r##"<p><span class="dumplab-term" data-term="xla">XLA</span> <code>x <span class="dumplab-term" data-term="hlo">HLO</span></code> <h2 id="a"><a href="#a">T</a> <span class="dumplab-term" data-term="fusion">f</span></h2></p>"##;
    assert_eq!(
        tooltips_with_context(html),
        vec![
            ("xla".to_owned(), vec![]),
            ("hlo".to_owned(), vec!["code".to_owned()]),
            ("fusion".to_owned(), vec!["h2".to_owned()])
        ]
    );
}

/// The questions on a built page: `(id, type)` of every
/// `data-dumplab-question` element in `<main>`, each id once.
fn questions(html: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for tag in main_element(html).split('<').skip(1) {
        let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
        let attr = |name: &str| {
            tag.split(&format!(" {name}=\""))
                .nth(1)
                .and_then(|s| s.split('"').next())
                .map(str::to_owned)
        };
        if let (Some(id), Some(kind)) = (attr("data-dumplab-question"), attr("data-type"))
            && !found.iter().any(|(seen, _)| *seen == id)
        {
            found.push((id, kind));
        }
    }
    found
}

/// Every chapter that teaches a stage of the pipeline has exercises of
/// more than one type, and the course (the instructors' chapter aside) has
/// at least forty.
#[test]
fn every_chapter_has_exercises_and_the_course_has_forty() {
    const CHAPTERS: [&str; 7] = [
        "xla.html",
        "jaxpr.html",
        "stablehlo.html",
        "hlo.html",
        "layouts.html",
        "fusion.html",
        "buffer-assignment.html",
    ];
    let mut total = questions(&page("two-dumps.html")).len();
    for name in CHAPTERS {
        let found = questions(&page(name));
        let mut kinds: Vec<&str> = found.iter().map(|(_, k)| k.as_str()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        assert!(
            found.len() >= 3,
            "{name} has {} questions: {found:?}",
            found.len()
        );
        assert!(kinds.len() >= 2, "{name} asks only `{kinds:?}` questions");
        total += found.len();
    }
    assert!(total >= 40, "the course has {total} questions");
}

#[test]
fn the_question_scanner_reads_ids_and_types_once() {
    let html = r#"<main><div class="dumplab-q" id="q-a" data-dumplab-question="a" data-type="count" data-mode="number"><p data-dumplab-question="a" data-type="count"></p></div><div data-dumplab-question="b" data-type="pair"></div><span data-type="x"></span></main>"#;
    assert_eq!(
        questions(html),
        vec![
            ("a".to_owned(), "count".to_owned()),
            ("b".to_owned(), "pair".to_owned())
        ]
    );
}

/// The markup of each question of `html` of type `kind`: the element that
/// carries its `data-dumplab-question`, to its matching end tag.
fn questions_of_type<'a>(html: &'a str, kind: &str) -> Vec<(String, &'a str)> {
    let main = main_element(html);
    const ATTR: &str = " data-dumplab-question=\"";
    let mut out: Vec<(String, &str)> = Vec::new();
    for (at, _) in main.match_indices(ATTR) {
        let id = main[at + ATTR.len()..].split('"').next().unwrap_or("");
        let open = main[..at].rfind('<').expect("a tag");
        let head = &main[open..];
        let tag = &head[..head.find('>').expect("a closed tag")];
        let name = tag[1..].split(' ').next().unwrap_or("");
        if !tag.contains(&format!(" data-type=\"{kind}\""))
            || out.iter().any(|(seen, _)| seen == id)
        {
            continue;
        }
        // The matching end tag: nested elements of the same name counted.
        let (start, end) = (format!("<{name}"), format!("</{name}>"));
        let mut depth = 0usize;
        let mut i = 0;
        let close = loop {
            let next_open = head[i..].find(&start).map(|x| x + i);
            let next_close = head[i..].find(&end).map(|x| x + i).expect("an end tag");
            match next_open {
                Some(o) if o < next_close => {
                    depth += 1;
                    i = o + start.len();
                }
                _ => {
                    depth -= 1;
                    i = next_close + end.len();
                    if depth == 0 {
                        break i;
                    }
                }
            }
        };
        out.push((id.to_owned(), &head[..close]));
    }
    out
}

/// A pair question asks which compiled dump came from a lowered module:
/// the function's file would name the family, and so the answer.
#[test]
fn no_pair_question_names_the_fixture_it_shows() {
    let mut seen = 0;
    for name in ["two-dumps.html", "stablehlo.html"] {
        for (id, markup) in questions_of_type(&page(name), "pair") {
            seen += 1;
            assert!(
                !markup.contains("fixtures/"),
                "{name}: pair question `{id}` names a fixture path"
            );
            assert!(
                markup.contains("dumplab-q-context"),
                "{name}: pair question `{id}` lost its signature line"
            );
        }
    }
    assert!(seen >= 2, "only {seen} pair questions found");
}
