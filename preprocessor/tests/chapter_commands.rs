//! The course shows command lines with their output (```console blocks
//! whose first line is `$ mdbook-dumplab ...`): each is run through the
//! built binary from the repository root, and its output must be the
//! block's, so that no chapter shows a ledger the checker no longer
//! prints. `UPDATE_EXPECT=1` rewrites the blocks from the binary.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The console blocks of a chapter: (byte range of the body, command line).
fn blocks(md: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(open) = md[at..].find("```console\n") {
        let body = at + open + "```console\n".len();
        let Some(close) = md[body..].find("\n```") else {
            break;
        };
        let end = body + close + 1;
        let first = md[body..end].lines().next().unwrap_or("");
        if let Some(cmd) = first.strip_prefix("$ mdbook-dumplab ") {
            out.push((body..end, cmd.to_owned()));
        }
        at = end;
    }
    out
}

fn run(cmd: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .args(cmd.split_whitespace())
        .current_dir(root())
        .output()
        .expect("run mdbook-dumplab");
    assert!(
        out.status.success(),
        "`{cmd}`: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_command_a_chapter_shows_prints_what_it_shows() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut seen = 0;
    let mut stale = Vec::new();
    for entry in std::fs::read_dir(root().join("src")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("md") {
            continue;
        }
        let md = std::fs::read_to_string(&path).unwrap();
        let mut fixed = md.clone();
        for (range, cmd) in blocks(&md).into_iter().rev() {
            seen += 1;
            let want = format!("$ mdbook-dumplab {cmd}\n{}", run(&cmd));
            if md[range.clone()] != want {
                stale.push(format!("{}: `{cmd}`", path.display()));
                fixed.replace_range(range, &want);
            }
        }
        if update && fixed != md {
            std::fs::write(&path, fixed).unwrap();
        }
    }
    assert!(seen >= 4, "only {seen} command blocks in the course");
    assert!(
        update || stale.is_empty(),
        "stale output (UPDATE_EXPECT=1 rewrites it):\n{}",
        stale.join("\n")
    );
}
