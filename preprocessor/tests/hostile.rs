//! The hostile course: course data that tries to reach what it must not
//! (files of the build machine, the page's script, Markdown outside its
//! question), built with the real, pinned mdBook and this preprocessor.
//!
//! `tests/hostile/_course/` is a small course with hostile text in every
//! field that reaches a page: a prompt, an option, a `why`, an explanation,
//! an evidence note, a glossary headword, alias, definition and chapter
//! anchor, and a dump line (a real JAX dump whose `jax.named_scope` holds
//! `{{#include ...}}`, `{{#title ...}}` and `</script>`). It must build, and
//! the site must hold the literal text and no byte of the secrets: a file
//! next to the course and an environment variable of the build
//! (`/proc/self/environ`). The built site is kept at
//! `$CARGO_TARGET_TMPDIR/hostile/book` for the browser test
//! (`tests/browser/hostile.test.mjs`), which checks that nothing runs.
//!
//! Every other folder under `tests/hostile/` is a case laid over the course
//! (its files replace the course's; `links.txt` lists symlinks to create as
//! `path -> target`): the build must fail with exactly its `expected.txt`
//! (the preprocessor's lines on stderr; `<scratch>` stands for the
//! scratch folder). `UPDATE_EXPECT=1 cargo test -p mdbook-dumplab --test
//! hostile` rewrites them; review the diff.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};

mod support;

/// What `secret.txt`, outside the course, holds.
const FILE_SECRET: &str = "FILE-SECRET-5f0c2e9a";
/// An environment variable of the build, readable as `/proc/self/environ`.
const ENV_SECRET: &str = "ENV-SECRET-91d7b3c4";

/// The course's scripts and styles, which the hostile course's pages load.
const THEME_FILES: [&str; 7] = [
    "glossary.css",
    "exercises.css",
    "viewer.css",
    "viewer.js",
    "glossary.js",
    "dumplab-wasm.js",
    "exercises.js",
];

fn hostile_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile")
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &dest);
        } else {
            fs::copy(&path, &dest).unwrap();
        }
    }
}

/// A scratch folder holding `secret.txt` and `course/` (the course with
/// `case` laid over it); returns the scratch folder.
fn assemble(case: Option<&Path>) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile")
        .join(NEXT.fetch_add(1, Ordering::Relaxed).to_string());
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(&scratch).unwrap();
    fs::write(scratch.join("secret.txt"), FILE_SECRET).unwrap();
    let course = scratch.join("course");
    copy_tree(&hostile_dir().join("_course"), &course);
    let theme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../theme");
    fs::create_dir_all(course.join("theme")).unwrap();
    for file in THEME_FILES {
        fs::copy(theme.join(file), course.join("theme").join(file)).unwrap();
    }
    if let Some(case) = case {
        copy_tree(case, &course);
        let _ = fs::remove_file(course.join("expected.txt"));
        if let Ok(links) = fs::read_to_string(course.join("links.txt")) {
            for line in links.lines().filter(|l| !l.trim().is_empty()) {
                let (path, target) = line.split_once(" -> ").expect("`path -> target`");
                let path = course.join(path.trim());
                let _ = fs::remove_file(&path);
                std::os::unix::fs::symlink(target.trim(), &path).unwrap();
            }
            fs::remove_file(course.join("links.txt")).unwrap();
        }
    }
    scratch
}

fn build(course: &Path, dest: &Path) -> Output {
    let _ = fs::remove_dir_all(dest);
    support::mdbook_build_with(course, dest, &[("DUMPLAB_HOSTILE_TOKEN", ENV_SECRET)])
}

/// Every file under `dir`.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn assert_no_secret(dest: &Path) {
    for file in files_under(dest) {
        let bytes = fs::read(&file).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for secret in [FILE_SECRET, ENV_SECRET] {
            assert!(
                !text.contains(secret),
                "{} holds a secret of the build machine",
                file.display()
            );
        }
    }
}

#[test]
fn hostile_course_data_stays_text() {
    let scratch = assemble(None);
    // A fixed place, for the browser test.
    let dest = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile/book");
    let output = build(&scratch.join("course"), &dest);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_no_secret(&dest);
    let lesson = fs::read_to_string(dest.join("lesson.html")).unwrap();
    let glossary = fs::read_to_string(dest.join("glossary.html")).unwrap();
    for (name, page) in [("lesson", &lesson), ("glossary", &glossary)] {
        let title = page
            .split("<title>")
            .nth(1)
            .unwrap()
            .split("</title>")
            .next()
            .unwrap();
        assert!(
            !title.contains("PWNED"),
            "{name}: the title was changed: {title}"
        );
        let lower = page.to_ascii_lowercase();
        assert!(
            !lower.contains("href=\"javascript:"),
            "{name}: a javascript: link"
        );
        assert!(
            !page.contains("<script>window.__pwned"),
            "{name}: raw script"
        );
        assert!(!page.contains("<img src=x"), "{name}: raw img");
        for tag in ["<h1", "<h2", "<h3"] {
            assert!(
                !page.split(tag).skip(1).any(|h| h
                    .split("</h")
                    .next()
                    .unwrap()
                    .contains("INJECTED")),
                "{name}: a heading was injected"
            );
        }
    }
    // The hostile text is on the page, as text (mdBook's renderer decodes
    // our `{&#123;` back to `{{` in the finished page, where nothing expands
    // it any more): in the prompt, the dump.
    assert!(
        lesson.contains("#include ../../secret.txt}}"),
        "prompt text kept"
    );
    assert!(lesson.contains("#title PWNED-TITLE}}"), "dump text kept");
    assert!(
        lesson.contains("&lt;/script&gt;&lt;script&gt;window.__pwned=1"),
        "the dump line is shown escaped"
    );
    // The prose dump: its text escaped, its fold kept whole.
    assert!(
        lesson.contains("&lt;/summary&gt;&lt;/details&gt;&lt;script&gt;window.__pwned=21"),
        "the folded table row is shown escaped"
    );
    assert_eq!(
        lesson.matches("<details class=\"dl-fold\">").count(),
        lesson.matches("</details>").count(),
        "every fold closes once, where the viewer closes it"
    );
    assert_eq!(
        lesson.matches("data-dumplab-question=").count(),
        3,
        "the three questions, and none from directives shown as code"
    );
    assert!(
        !lesson.contains("<dl class=\"dumplab-glossary\""),
        "a prompt made the lesson the glossary"
    );
    assert!(glossary.contains("<dl class=\"dumplab-glossary\""));
    // Relative and web links in a definition survive; javascript: does not.
    // (mdBook turns the relative `glossary.md` into `glossary.html`.)
    assert!(
        glossary.contains("<a href=\"glossary.html\">rel</a>"),
        "relative link kept"
    );
    assert!(glossary.contains("<a href=\"https://example.invalid/a\">web</a>"));
    assert!(
        glossary.contains(" run <a href=\"glossary.html\">"),
        "javascript: link text kept as text"
    );
}

fn our_stderr(output: &Output, scratch: &Path) -> String {
    let scratch = fs::canonicalize(scratch).unwrap();
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|l| {
            !l.contains(" INFO ")
                && !l.contains("ERROR")
                && !l.contains(" WARN ")
                && !l.trim_start().starts_with("Caused by")
                && !l.trim().is_empty()
        })
        .map(|l| format!("{}\n", l.replace(&*scratch.to_string_lossy(), "<scratch>")))
        .collect()
}

#[test]
fn hostile_cases_fail_with_one_clear_error_each() {
    let mut cases: Vec<PathBuf> = fs::read_dir(hostile_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && !p.ends_with("_course"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 8, "the corpus lost cases");
    let update = std::env::var_os("UPDATE_EXPECT").is_some_and(|v| !v.is_empty() && v != "0");
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let scratch = assemble(Some(case));
        let dest = scratch.join("book");
        let output = build(&scratch.join("course"), &dest);
        assert_no_secret(&dest);
        if output.status.success() {
            failures.push(format!("{name}: the build should fail"));
            continue;
        }
        let actual = our_stderr(&output, &scratch);
        // `check` finds the same problems, with the same words, before a build.
        let check = std::process::Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
            .arg("check")
            .arg(scratch.join("course"))
            .output()
            .unwrap();
        let scratch_path = fs::canonicalize(&scratch).unwrap();
        let checked = String::from_utf8_lossy(&check.stdout)
            .replace(&*scratch_path.join("course").to_string_lossy(), "")
            .replace(&*scratch_path.to_string_lossy(), "<scratch>");
        if check.status.success() {
            failures.push(format!("{name}: `check` passes a course the build refuses"));
        }
        for line in checked.lines().filter(|l| l.contains(": error: ")) {
            let line = line.trim_start_matches('/');
            if !actual.contains(line) {
                failures.push(format!(
                    "{name}: `check` says what the build does not:\n{line}\n--- build\n{actual}"
                ));
            }
        }
        let expected_file = case.join("expected.txt");
        if update {
            fs::write(&expected_file, &actual).unwrap();
            continue;
        }
        let expected = fs::read_to_string(&expected_file).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{name}: stderr differs (UPDATE_EXPECT=1 to accept)\n--- expected\n{expected}--- actual\n{actual}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
