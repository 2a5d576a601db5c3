//! The line diff of the page's before/after view (`dumplab::folder::linediff`)
//! on real pass files of a dump folder (the drift corpus' JAX 0.10.2 CPU
//! folder), checked against `diff -U3`'s hunks of the same files, against a
//! shortest edit script (an LCS table) on random texts, and for its work
//! budget on texts with nothing in common.

#![allow(clippy::unwrap_used)]

use dumplab::folder::linediff::{Diff, Limits, Op, diff, write_json};
use proptest::prelude::*;

const DIR: &str = "tests/drift/jax-0.10.2/xla-dump-cpu/module_0000.jit_mlp.";

fn file(name: &str) -> String {
    std::fs::read_to_string(format!("{}/{DIR}{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// B rebuilt from A and the hunks: every line of a hunk checked against the
/// texts, every line outside the hunks copied from A.
fn rebuild(a: &str, b: &str, d: &Diff<'_>) -> Vec<String> {
    let la: Vec<&str> = a.lines().collect();
    let lb: Vec<&str> = b.lines().collect();
    let mut out = Vec::new();
    let mut next = 0; // the next line of A to copy, 0-based
    for h in &d.hunks {
        let start = if h.a_lines == 0 {
            h.a_start
        } else {
            h.a_start - 1
        };
        assert!(start >= next, "hunks overlap or go backwards");
        out.extend(la[next..start].iter().map(|s| s.to_string()));
        next = start;
        for l in &h.lines {
            match l.op {
                Op::Same => {
                    assert_eq!(l.a, Some(next + 1));
                    assert_eq!(la[next], l.text);
                    assert_eq!(lb[l.b.unwrap() - 1], l.text);
                    out.push(l.text.to_string());
                    next += 1;
                }
                Op::Removed => {
                    assert_eq!(l.a, Some(next + 1));
                    assert_eq!(la[next], l.text);
                    next += 1;
                }
                Op::Added => {
                    assert_eq!(lb[l.b.unwrap() - 1], l.text);
                    out.push(l.text.to_string());
                }
            }
        }
    }
    out.extend(la[next..].iter().map(|s| s.to_string()));
    out
}

/// Lines of the shortest edit script: n + m - 2 LCS.
fn shortest(a: &[&str], b: &[&str]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diag = 0;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
            diag = up;
        }
    }
    a.len() + b.len() - 2 * row[b.len()]
}

fn headers(d: &Diff<'_>) -> Vec<String> {
    d.hunks
        .iter()
        .map(|h| {
            format!(
                "@@ -{},{} +{},{} @@",
                h.a_start, h.a_lines, h.b_start, h.b_lines
            )
        })
        .collect()
}

/// (file A, file B, the hunk headers `diff -U3 A B` prints, lines added, removed)
fn check(a: &str, b: &str, expect: &[&str], added: usize, removed: usize) {
    let (ta, tb) = (file(a), file(b));
    let d = diff(&ta, &tb, Limits::default());
    assert_eq!(headers(&d), expect, "{a} → {b}");
    assert_eq!((d.added, d.removed), (added, removed), "{a} → {b}");
    assert!(!d.truncated && !d.cut);
    let lb: Vec<&str> = tb.lines().collect();
    assert_eq!(rebuild(&ta, &tb, &d), lb);
    let la: Vec<&str> = ta.lines().collect();
    assert_eq!(d.added + d.removed, shortest(&la, &lb));
}

#[test]
fn real_pass_files_give_the_hunks_of_diff_u3() {
    // The fusion pass: a fused computation moved before the reduction's
    // region and a second one formed, the entry's six instructions into one
    // fusion.
    check(
        "0002.HLO_passes_after_layout_assignment.after_reshape-decomposer.before_fusion.txt",
        "0003.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt",
        &["@@ -28,16 +28,27 @@", "@@ -45,11 +56,6 @@"],
        16,
        10,
    );
    // The first pass file against the module before optimizations.
    check(
        "before_optimizations.txt",
        "0000.HLO_passes_through_layout_assignment.after_flatten-call-graph.before_layout-assignment.txt",
        &["@@ -28,13 +28,6 @@", "@@ -46,13 +39,11 @@"],
        4,
        13,
    );
    check(
        "0001.HLO_passes_through_layout_assignment.after_layout-assignment.before_sub-byte-size-setter.txt",
        "0002.HLO_passes_after_layout_assignment.after_reshape-decomposer.before_fusion.txt",
        &["@@ -34,13 +34,19 @@"],
        8,
        2,
    );
    // The last pass file against the optimized module: its header line
    // and the entry's layout.
    check(
        "0003.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt",
        "cpu_after_optimizations.txt",
        &["@@ -1,4 +1,4 @@", "@@ -54,8 +54,8 @@"],
        2,
        2,
    );
    // Layout assignment wrote a file equal to the one before it.
    check(
        "0000.HLO_passes_through_layout_assignment.after_flatten-call-graph.before_layout-assignment.txt",
        "0001.HLO_passes_through_layout_assignment.after_layout-assignment.before_sub-byte-size-setter.txt",
        &[],
        0,
        0,
    );
    // A file against itself: no hunk.
    let same = "0003.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt";
    check(same, same, &[], 0, 0);
}

#[test]
fn the_reply_is_json_with_every_line_numbered() {
    let a =
        file("0002.HLO_passes_after_layout_assignment.after_reshape-decomposer.before_fusion.txt");
    let b = file("0003.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt");
    let d = diff(&a, &b, Limits::default());
    let v: serde_json::Value = serde_json::from_str(&write_json(&d)).unwrap();
    assert_eq!(v["added"], 16);
    assert_eq!(v["removed"], 10);
    assert_eq!(v["a_lines"], 55);
    assert_eq!(v["b_lines"], 61);
    assert_eq!(v["truncated"], false);
    let first = &v["hunks"][0]["lines"];
    assert_eq!(first[0]["op"], "=");
    assert_eq!(first[0]["a"], 28);
    assert_eq!(first[3]["op"], "+");
    assert_eq!(first[3]["a"], serde_json::Value::Null);
    assert_eq!(
        first[3]["text"],
        "%fused_computation (param_0: f32[8,16], param_1: f32[16,32]) -> f32[8,32] {"
    );
    // Markup characters reach the page escaped in the JSON, as text.
    let d = diff("<a>\n", "<b>&\n", Limits::default());
    let j = write_json(&d);
    assert!(!j.contains('<') && !j.contains('&'), "{j}");
    let v: serde_json::Value = serde_json::from_str(&j).unwrap();
    assert_eq!(v["hunks"][0]["lines"][1]["text"], "<b>&");
}

#[test]
fn insertions_and_deletions_at_the_ends_name_the_line_they_follow() {
    let d = diff("x\ny\n", "x\ny\nz\n", Limits::default());
    assert_eq!(headers(&d), ["@@ -1,2 +1,3 @@"]);
    let d = diff("", "z\n", Limits::default());
    assert_eq!(headers(&d), ["@@ -0,0 +1,1 @@"]);
    let d = diff("z\n", "", Limits::default());
    assert_eq!(headers(&d), ["@@ -1,1 +0,0 @@"]);
    // Line endings: \r\n and \n lines are the same lines.
    let d = diff("a\r\nb\r\n", "a\nb\n", Limits::default());
    assert!(d.hunks.is_empty());
}

#[test]
fn the_budget_stops_the_search_and_says_so() {
    // 50,000 lines with nothing in common, then the same 10 lines: the
    // search gives up within its budget, the unequal part is shown as
    // removed then added, the equal end still matched.
    let mut a: String = (0..50_000)
        .map(|i| format!("%a.{i} = f32[] constant({i})\n"))
        .collect();
    let mut b: String = (0..50_000)
        .map(|i| format!("%b.{i} = f32[] constant({i})\n"))
        .collect();
    for i in 0..10 {
        let l = format!("ROOT %r.{i} = f32[] add(%x, %y)\n");
        a.push_str(&l);
        b.push_str(&l);
    }
    let started = std::time::Instant::now();
    let d = diff(
        &a,
        &b,
        Limits {
            work: 100_000,
            ..Limits::default()
        },
    );
    assert!(started.elapsed().as_secs_f64() < 2.0);
    assert!(d.truncated);
    assert_eq!((d.removed, d.added), (50_000, 50_000));
    assert!(d.cut, "20,000 lines shown at most");
    assert_eq!(d.hunks.iter().map(|h| h.lines.len()).sum::<usize>(), 20_000);
    // Unbounded shown lines: B rebuilt whole.
    let d = diff(
        &a,
        &b,
        Limits {
            work: 100_000,
            max_lines: usize::MAX,
            ..Limits::default()
        },
    );
    let lb: Vec<&str> = b.lines().collect();
    assert_eq!(rebuild(&a, &b, &d), lb);
    // A small budget on the real fusion pass: still B, rebuilt.
    let fa =
        file("0002.HLO_passes_after_layout_assignment.after_reshape-decomposer.before_fusion.txt");
    let fb = file("0003.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt");
    let d = diff(
        &fa,
        &fb,
        Limits {
            work: 10,
            ..Limits::default()
        },
    );
    assert!(d.truncated);
    assert_eq!(rebuild(&fa, &fb, &d), fb.lines().collect::<Vec<_>>());
}

proptest! {
    #[test]
    fn random_texts_get_a_shortest_script(
        a in proptest::collection::vec(0u8..4, 0..40),
        b in proptest::collection::vec(0u8..4, 0..40),
        ctx in 0usize..4,
    ) {
        let ta: String = a.iter().map(|c| format!("l{c}\n")).collect();
        let tb: String = b.iter().map(|c| format!("l{c}\n")).collect();
        let d = diff(&ta, &tb, Limits { context: ctx, ..Limits::default() });
        let la: Vec<&str> = ta.lines().collect();
        let lb: Vec<&str> = tb.lines().collect();
        prop_assert!(!d.truncated);
        prop_assert_eq!(d.added + d.removed, shortest(&la, &lb));
        prop_assert_eq!(rebuild(&ta, &tb, &d), lb.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        // Any budget: still a correct script.
        let d = diff(&ta, &tb, Limits { work: 7, context: ctx, max_lines: usize::MAX });
        prop_assert_eq!(rebuild(&ta, &tb, &d), lb.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    }
}

#[test]
fn the_line_diff_request_answers_as_the_page_asks() {
    let ask = |a: &[u8], b: &[u8]| -> serde_json::Value {
        let mut req = format!("line-diff\n{}\n", a.len()).into_bytes();
        req.extend_from_slice(a);
        req.extend_from_slice(b);
        serde_json::from_str(&dumplab::inspect::respond(&req)).unwrap()
    };
    let a =
        file("0002.HLO_passes_after_layout_assignment.after_reshape-decomposer.before_fusion.txt");
    let b = file("0003.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt");
    let v = ask(a.as_bytes(), b.as_bytes());
    assert_eq!(
        (v["added"].as_u64(), v["removed"].as_u64()),
        (Some(16), Some(10))
    );
    assert_eq!(v["hunks"].as_array().map(Vec::len), Some(2));
    // Not text, or a wrong length: one sentence.
    let v = ask(b"\xff\xfe", b"x");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("The file before is not UTF-8 text"),
        "{v}"
    );
    for req in [
        &b"line-diff\n"[..],
        b"line-diff\n99\nab",
        b"line-diff\nx\nab",
    ] {
        let v: serde_json::Value = serde_json::from_str(&dumplab::inspect::respond(req)).unwrap();
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("malformed request"),
            "{v}"
        );
    }
}
