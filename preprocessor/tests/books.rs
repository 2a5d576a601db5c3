//! Fixture books built with the real, pinned mdBook and this preprocessor.
//!
//! Each folder under `tests/books/` is a small book. The test builds it with
//! mdBook (found through `DUMPLAB_MDBOOK`, else `.tools/mdbook-0.5.4/bin/mdbook`
//! at the workspace root, which `cargo xtask test` installs), pointing
//! `MDBOOK_PREPROCESSOR__DUMPLAB__COMMAND` at the binary under test, and
//! compares:
//!
//! - for every `expected/<chapter>.html`: the `<main>` element of the built
//!   page;
//! - for `expected/stderr.txt`: the build must fail, and the preprocessor's
//!   lines on stderr (diagnostics and its own messages) must match.
//!
//! To accept the current output as the new expectation, run
//!
//! ```text
//! UPDATE_EXPECT=1 cargo test -p mdbook-dumplab --test books
//! ```
//!
//! and review the diff before committing it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};

mod support;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Builds the fixture book `name` into a fresh folder; returns the folder
/// and mdBook's output. Tests run in parallel and several build the same
/// book, so every build gets a folder of its own.
fn build(name: &str) -> (PathBuf, Output) {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let book = manifest_dir().join("tests/books").join(name);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("books")
        .join(NEXT.fetch_add(1, Ordering::Relaxed).to_string())
        .join(name);
    let _ = fs::remove_dir_all(&out);
    let output = support::mdbook_build(&book, &out);
    (out, output)
}

/// The `<main>...</main>` element of a built page.
fn main_element(html: &str) -> &str {
    let start = html.find("<main>").expect("<main> in page");
    let end = html[start..].find("</main>").expect("</main> in page") + start + "</main>".len();
    &html[start..end]
}

/// Files under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// Compares `actual` with the expectation file, or rewrites it.
fn expect_file(path: &Path, actual: &str) -> Result<(), String> {
    if updating() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, actual).unwrap();
        return Ok(());
    }
    let expected = fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        Ok(())
    } else {
        Err(format!(
            "{} differs (run `UPDATE_EXPECT=1 cargo test -p mdbook-dumplab --test books` to accept):\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        ))
    }
}

/// The lines our preprocessor printed, without mdBook's own log lines.
fn our_stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|l| {
            !l.contains(" INFO ")
                && !l.contains("ERROR")
                && !l.trim_start().starts_with("Caused by")
                && !l.trim().is_empty()
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

fn check_book(name: &str) {
    let (out, output) = build(name);
    let expected_dir = manifest_dir()
        .join("tests/books")
        .join(name)
        .join("expected");
    let mut failures = Vec::new();
    let stderr_file = expected_dir.join("stderr.txt");
    if stderr_file.is_file() {
        assert!(!output.status.success(), "{name}: the build should fail");
        if let Err(e) = expect_file(&stderr_file, &our_stderr(&output)) {
            failures.push(e);
        }
    } else {
        assert!(
            output.status.success(),
            "{name}: mdbook build failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        for rel in files_under(&expected_dir) {
            let page = fs::read_to_string(out.join(&rel))
                .unwrap_or_else(|e| panic!("{name}: {}: {e}", rel.display()));
            if let Err(e) = expect_file(&expected_dir.join(&rel), main_element(&page)) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn basic_book_marks_terms_and_fills_the_glossary() {
    check_book("basic");
}

#[test]
fn density_comes_from_book_toml() {
    check_book("first-per-chapter");
}

#[test]
fn a_broken_glossary_fails_the_build_with_every_problem() {
    check_book("broken");
}

#[test]
fn definitions_stay_out_of_the_search_index() {
    let (out, output) = build("basic");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let index = files_under(&out)
        .into_iter()
        .find(|p| {
            p.to_string_lossy().starts_with("searchindex")
                && p.extension().is_some_and(|e| e == "js")
        })
        .expect("a search index");
    let index = fs::read_to_string(out.join(index)).unwrap();
    // "Merging ops." only occurs in the definition of `fusion`: the glossary
    // page lists it, the lesson must not.
    let docs = index
        .split("\"doc_urls\":[")
        .nth(1)
        .unwrap()
        .split(']')
        .next()
        .unwrap();
    let urls: Vec<&str> = docs.split(',').map(|s| s.trim_matches('"')).collect();
    let store = index
        .split("\"documentStore\"")
        .nth(1)
        .expect("documentStore");
    let hits: Vec<&str> = store
        .split("\"body\":\"")
        .skip(1)
        .filter(|body| {
            body.split("\",\"")
                .next()
                .unwrap_or_default()
                .contains("Merging ops")
        })
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "the phrase must be indexed once (glossary page), found {}",
        hits.len()
    );
    assert!(urls.iter().any(|u| u.starts_with("glossary.html")));
    let lesson_bodies: Vec<&str> = store
        .split("\"id\":")
        .filter(|doc| doc.contains("lesson.html"))
        .collect();
    assert!(lesson_bodies.iter().all(|d| !d.contains("Merging ops")));
    // The definition of XLA reaches no document at all but the glossary's.
    assert_eq!(index.matches("optimizing").count(), 1);
}

#[test]
fn dumps_in_the_prose_become_the_viewer() {
    check_book("viewer");
}

#[test]
fn a_course_overrides_the_markup_templates() {
    check_book("templates");
}
