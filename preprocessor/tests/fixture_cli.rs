//! `mdbook-dumplab fixture draft`: pre-filling annotations from dumps on
//! disk, run through the built binary on a scratch copy of one family.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const END: &str = "# END generated provenance";

fn bin(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A scratch course holding the walkthrough family with its provenance only,
/// as the generator leaves a new family.
fn scratch(test: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fixture-cli-{test}"));
    let _ = std::fs::remove_dir_all(&root);
    let family = root.join("fixtures/relu_scale");
    std::fs::create_dir_all(&family).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/walkthrough/relu_scale");
    for entry in std::fs::read_dir(&src).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, family.join(p.file_name().unwrap())).unwrap();
    }
    root
}

#[test]
fn draft_prefills_annotations_that_validate_as_a_draft() {
    let root = scratch("draft");
    let before = std::fs::read_to_string(root.join("fixtures/relu_scale/fixture.toml")).unwrap();
    assert!(
        before.trim_end().ends_with(END),
        "the walkthrough family must start without annotations"
    );

    let out = bin(&["fixture", "draft", "relu_scale"], &root);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).starts_with("wrote draft annotations for 4 dumps to "),
        "{}",
        text(&out)
    );

    let after = std::fs::read_to_string(root.join("fixtures/relu_scale/fixture.toml")).unwrap();
    assert!(
        after.starts_with(&before[..before.find(END).unwrap() + END.len()]),
        "the provenance block must be kept verbatim"
    );
    for expected in [
        "[family]",
        "file = \"jaxpr.txt\"\nkind = \"jaxpr\"",
        "file = \"lowered.stablehlo.mlir\"\nkind = \"stablehlo\"",
        "file = \"lowered.hlo.txt\"\nkind = \"hlo-unoptimized\"",
        "file = \"compiled.cpu.hlo.txt\"\nkind = \"hlo-optimized\"\nbackend = \"cpu\"",
        "entry_fusions = ",
        "marker = \"is-scheduled\"",
        "marker = \"fusion-kind\"",
        "[[dump.excerpt]]\nname = \"entry\"",
    ] {
        assert!(
            after.contains(expected),
            "draft lacks {expected:?}:\n{after}"
        );
    }

    let check = bin(&["check", "."], &root);
    let report = text(&check);
    assert!(check.status.success(), "{report}");
    assert!(
        report.contains("fixtures/relu_scale/fixture.toml:1:10: warning: fixture is a draft"),
        "{report}"
    );
    assert!(
        report.ends_with(
            "check ok: 1 fixture family (4 dumps), 0 exercise files: 0 errors, 1 warning\n"
        ),
        "{report}"
    );
}

#[test]
fn redrafting_keeps_reviewed_annotations_and_drafts_new_dumps() {
    let root = scratch("redraft");
    let family = root.join("fixtures/relu_scale");
    // The CPU dump comes later, as GPU/TPU dumps do after a first review.
    let cpu = std::fs::read(family.join("compiled.cpu.hlo.txt")).unwrap();
    std::fs::remove_file(family.join("compiled.cpu.hlo.txt")).unwrap();
    assert!(
        bin(&["fixture", "draft", "relu_scale"], &root)
            .status
            .success()
    );
    let path = family.join("fixture.toml");
    let drafted = std::fs::read_to_string(&path).unwrap();
    let teaches = drafted
        .lines()
        .find(|l| l.starts_with("teaches = "))
        .unwrap()
        .to_owned();
    let reviewed = drafted
        .replacen("status = \"draft\"", "status = \"reviewed\"", 1)
        .replacen(&teaches, "teaches = \"Words a reviewer wrote.\"", 1);
    std::fs::write(&path, &reviewed).unwrap();

    // Nothing new: nothing changes.
    let again = bin(&["fixture", "draft", "relu_scale"], &root);
    assert!(again.status.success(), "{}", text(&again));
    assert!(text(&again).contains("nothing changed"), "{}", text(&again));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), reviewed);

    // A new dump: one drafted entry appended, every reviewed byte kept.
    std::fs::write(family.join("compiled.cpu.hlo.txt"), &cpu).unwrap();
    let added = bin(&["fixture", "draft", "relu_scale"], &root);
    assert!(added.status.success(), "{}", text(&added));
    assert!(
        text(&added).starts_with("added draft entries for 1 new dump (compiled.cpu.hlo.txt)"),
        "{}",
        text(&added)
    );
    let after = std::fs::read_to_string(&path).unwrap();
    let kept = reviewed
        .trim_end()
        .replacen("status = \"reviewed\"", "status = \"draft\"", 1);
    assert!(
        after.starts_with(&kept),
        "reviewed annotations kept:\n{after}"
    );
    assert!(after.contains("file = \"compiled.cpu.hlo.txt\"\nkind = \"hlo-optimized\""));
    assert_eq!(after.matches("[family]").count(), 1);
    assert!(
        after.starts_with("status = \"draft\""),
        "new entries need a review"
    );

    // Only an explicit flag throws the review away; the old one is refused.
    let old_flag = bin(&["fixture", "draft", "relu_scale", "--force"], &root);
    assert_eq!(old_flag.status.code(), Some(2), "{}", text(&old_flag));
    let fresh = bin(
        &["fixture", "draft", "relu_scale", "--discard-review"],
        &root,
    );
    assert!(fresh.status.success(), "{}", text(&fresh));
    let fresh = std::fs::read_to_string(&path).unwrap();
    assert!(!fresh.contains("Words a reviewer wrote."));
    assert_eq!(
        fresh.matches("[family]").count(),
        1,
        "replaces, not appends"
    );
}

#[test]
fn draft_and_new_fail_with_one_clear_line() {
    let root = scratch("errors");
    let missing = bin(&["fixture", "draft", "nope"], &root);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        text(&missing)
            .starts_with("mdbook-dumplab: error: cannot read ./fixtures/nope/fixture.toml"),
        "{}",
        text(&missing)
    );

    let bad_name = bin(&["fixture", "draft", "Bad Name"], &root);
    assert!(
        text(&bad_name).contains("is not a usable family name"),
        "{}",
        text(&bad_name)
    );

    let no_python = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .args([
            "fixture",
            "new",
            "x",
            "--from",
            "fixtures/relu_scale/function.py",
        ])
        .env("DUMPLAB_PYTHON", root.join("no-such-python"))
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(no_python.status.code(), Some(1));
    assert!(
        text(&no_python).contains("cannot run "),
        "{}",
        text(&no_python)
    );
}
