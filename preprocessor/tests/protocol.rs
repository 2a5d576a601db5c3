//! The preprocessor protocol, driven directly: mdBook's JSON on stdin, the
//! book (or nothing) on stdout, messages on stderr.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::{Book, Chapter};
use mdbook_preprocessor::config::Config;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Runs the binary on a one-chapter book whose root is fixture book `root`.
fn run(root: &str, version: &str, chapter: &str) -> (bool, String, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/books")
        .join(root);
    let config: Config = std::fs::read_to_string(root.join("book.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let mut ctx = PreprocessorContext::new(root, config, "html".to_owned());
    ctx.mdbook_version = version.to_owned();
    let mut book = Book::new();
    book.push_item(Chapter::new(
        "Lesson",
        chapter.to_owned(),
        "lesson.md",
        vec![],
    ));
    let input = serde_json::to_string(&(ctx, book)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn marks_terms_and_answers_with_the_book() {
    let (ok, stdout, stderr) = run(
        "first-per-chapter",
        mdbook_preprocessor::MDBOOK_VERSION,
        "XLA here.\n",
    );
    assert!(ok, "{stderr}");
    assert_eq!(stderr, "");
    let book: Book = serde_json::from_str(&stdout).unwrap();
    let content = &book.chapters().next().unwrap().content;
    assert!(
        content.starts_with("<span class=\"dumplab-term\" data-term=\"xla\""),
        "{content}"
    );
}

#[test]
fn a_different_mdbook_version_gets_one_warning_line() {
    let (ok, stdout, stderr) = run("first-per-chapter", "0.4.52", "XLA here.\n");
    assert!(ok);
    assert!(!stdout.is_empty());
    assert_eq!(
        stderr,
        format!(
            "mdbook-dumplab: warning: this preprocessor was built for mdBook {} but is run by mdBook 0.4.52; use the pinned version (`cargo xtask serve` installs it)\n",
            mdbook_preprocessor::MDBOOK_VERSION
        )
    );
}

#[test]
fn errors_write_nothing_to_stdout() {
    let (ok, stdout, stderr) = run("broken", mdbook_preprocessor::MDBOOK_VERSION, "XLA here.\n");
    assert!(!ok);
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with("book.toml:8:12: error: unknown tooltips density `sometimes`\n"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(
            "mdbook-dumplab: 4 error(s) in the course (listed above); nothing was built\n"
        ),
        "{stderr}"
    );
}

#[test]
fn supports_only_html() {
    let status = |r: &str| {
        Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
            .args(["supports", r])
            .status()
            .unwrap()
            .success()
    };
    assert!(status("html"));
    assert!(!status("markdown"));
}
