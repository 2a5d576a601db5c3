//! `fixtures/MARKERS.md` is what `mdbook-dumplab markers` prints for the
//! course: the marker reference instructors read never drifts from the
//! checker's tables or the fixtures.
//!
//! `UPDATE_EXPECT=1 cargo test -p mdbook-dumplab --test marker_reference`
//! rewrites it; review the diff.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

#[test]
fn the_marker_reference_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .args(["markers", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(out.status.success());
    let actual = String::from_utf8(out.stdout).unwrap();
    // Every marker has a row.
    let names: Vec<&str> = actual
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    assert!(
        names.contains(&"fusion-kind") && names.len() >= 41,
        "{names:?}"
    );
    let file = root.join("fixtures/MARKERS.md");
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(&file, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        expected == actual,
        "fixtures/MARKERS.md is stale: run `UPDATE_EXPECT=1 cargo test -p mdbook-dumplab --test marker_reference` and commit it"
    );
}
