//! Each folder under `tests/broken-fixtures/` is a tiny course with one
//! broken fixture family; running the built `mdbook-dumplab check` on it must
//! print exactly its `expected.txt` (diagnostics with their `file:line:column`,
//! hints, summary line, and the exit status on the last line).
//!
//! A case holds only what makes it broken (its `fixture.toml`, sometimes an
//! extra dump); the family's function and dumps it shares, frozen, in
//! `_family/`. The test assembles each case in a scratch folder: the shared
//! files first, then the case's own on top.
//!
//! A case may add `exercises/*.toml`: the broken exercises show each check
//! the resolver's self-test makes on every build (a fact that does not
//! apply to the dump, a claim no line proves, an annotation the analysis
//! does not hold as proof, feedback that repeats the verdict, ...).
//!
//! `UPDATE_EXPECT=1 cargo test -p mdbook-dumplab --test broken_fixtures`
//! rewrites the expected files; review the diff before committing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken-fixtures");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/broken-fixtures exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.is_dir() && !p.ends_with("_family"))
        .collect();
    cases.sort();
    cases
}

/// Copies every file under `from` into `to`, keeping relative paths.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("scratch folder");
    for entry in std::fs::read_dir(from).expect("readable case") {
        let path = entry.expect("readable entry").path();
        let dest = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_tree(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).expect("copy");
        }
    }
}

/// The case as a course on disk: the shared family, then the case's files.
fn assemble(case: &Path) -> PathBuf {
    // Tests run in parallel: each assembly gets its own folder.
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = case.file_name().expect("a case name");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("broken-fixtures")
        .join(NEXT.fetch_add(1, Ordering::Relaxed).to_string())
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    copy_tree(
        &case.with_file_name("_family"),
        &dir.join("fixtures/elementwise_chain"),
    );
    copy_tree(case, &dir);
    let _ = std::fs::remove_file(dir.join("expected.txt"));
    dir
}

/// What `check .` prints in `case`, with the exit status appended.
fn run_check(case: &Path) -> String {
    let course = assemble(case);
    let output = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .args(["check", "."])
        .current_dir(&course)
        .output()
        .expect("the built binary runs");
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    text.push_str(&format!("exit: {}\n", output.status.code().unwrap_or(-1)));
    text
}

#[test]
fn every_broken_fixture_reports_exactly_what_is_expected() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 9, "the corpus lost cases: {cases:?}");
    for case in &cases {
        let actual = run_check(case);
        let expected_path = case.join("expected.txt");
        if update {
            std::fs::write(&expected_path, &actual).expect("expected.txt is writable");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if actual != expected {
            failures.push(format!(
                "== {}\n-- expected:\n{expected}-- actual:\n{actual}",
                case.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) differ (UPDATE_EXPECT=1 rewrites):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn broken_cases_fail_and_the_draft_case_only_warns() {
    for case in cases() {
        let out = run_check(&case);
        let name = case
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        if name.starts_with("ok-") {
            assert!(out.ends_with("exit: 0\n"), "{name} must pass:\n{out}");
            assert!(out.contains(": warning: "), "{name} must warn:\n{out}");
            assert!(!out.contains(": error: "), "{name} must not error:\n{out}");
        } else {
            assert!(out.ends_with("exit: 1\n"), "{name} must fail:\n{out}");
            assert!(
                out.contains("fixtures/elementwise_chain/") || out.contains("exercises/t.toml:"),
                "{name} must name the file:\n{out}"
            );
        }
    }
}
