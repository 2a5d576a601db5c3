//! The playground's report (`dumplab::inspect`) on damaged pastes: the
//! deciding lines are those of the repaired text the analysis read, each
//! mark on its clue, with the pasted line number kept beside it.

#![allow(clippy::unwrap_used)]

mod support;

use serde_json::Value;
use support::{Damage, damage};

fn inspect(text: &str) -> Value {
    let mut req = b"inspect\n".to_vec();
    req.extend_from_slice(text.as_bytes());
    serde_json::from_str(&dumplab::inspect::respond(&req)).unwrap()
}

fn fixture(path: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(path);
    std::fs::read_to_string(p).unwrap()
}

/// Each deciding line as shown: (shown line, marked text, marker, line text).
fn shown(v: &Value) -> Vec<(u64, String, String, String)> {
    v["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let text = e["text"].as_str().unwrap().to_owned();
            let (a, b) = (e["start"].as_u64().unwrap(), e["end"].as_u64().unwrap());
            let mark: String = text
                .chars()
                .skip(a as usize - 1)
                .take((b - a) as usize)
                .collect();
            let line = e["repaired_line"].as_u64().unwrap();
            (line, mark, e["marker"].as_str().unwrap().to_owned(), text)
        })
        .collect()
}

/// Pasted line numbers of the evidence.
fn pasted(v: &Value) -> Vec<u64> {
    v["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_u64().unwrap())
        .collect()
}

/// `damage` of `file` shows the clean file's deciding lines and marks, and
/// numbers them as pasted by `expect_pasted(shown line)`.
fn check(file: &str, dmg: Option<Damage>, expect_pasted: fn(u64) -> u64) {
    let clean = fixture(file);
    let text = dmg.map_or(clean.clone(), |d| damage(&clean, d));
    let (want, got) = (inspect(&clean), inspect(&text));
    let what = format!("{file} {dmg:?}");
    assert_eq!(got["kind"], want["kind"], "{what}");
    if dmg.is_some() {
        assert_eq!(
            got["repaired_lines"],
            clean.trim_end().lines().count(),
            "{what}"
        );
    }
    let pasted_lines = text.lines().count();
    assert_eq!(got["lines"], pasted_lines, "{what}");
    let shown_got = shown(&got);
    assert!(!shown_got.is_empty(), "{what}");
    assert_eq!(shown_got, shown(&want), "{what}");
    for ((line, mark, marker, _), p) in shown_got.iter().zip(pasted(&got)) {
        assert!(!mark.trim().is_empty(), "{what}: {marker} on line {line}");
        assert_eq!(p, expect_pasted(*line), "{what}: {marker} on line {line}");
    }
}

#[test]
fn deciding_lines_are_the_repaired_ones_numbered_as_pasted() {
    for file in [
        "softmax/compiled.cpu.hlo.txt",
        "softmax/lowered.stablehlo.mlir",
        "matmul/compiled.gpu.hlo.txt",
    ] {
        // Clean: shown as pasted.
        check(file, None, |l| l);
        // Log prefixes: one repaired line per pasted line, prefix gone.
        check(file, Some(Damage::TfLog), |l| l);
        check(file, Some(Damage::Glog), |l| l);
        // A repr: every line was pasted on line 1.
        check(file, Some(Damage::Repr), |_| 1);
        // A JSON string: its `\"` are one character of the repaired line.
        check(file, Some(Damage::Json), |_| 1);
    }
}

#[test]
fn a_wrapped_paste_shows_joined_lines_numbered_where_they_start() {
    let clean = fixture("softmax/compiled.cpu.hlo.txt");
    let wrapped = damage(&clean, Damage::Wrap(80));
    let v = inspect(&wrapped);
    let repaired = dumplab::analysis::unwrap(&wrapped);
    assert!(!repaired.undone.is_empty());
    let lines: Vec<&str> = repaired.text.lines().collect();
    let pasted_lines: Vec<&str> = wrapped.lines().collect();
    let ev = v["evidence"].as_array().unwrap();
    for (e, (line, mark, marker, text)) in ev.iter().zip(shown(&v)) {
        let what = format!("{marker} on repaired line {line}");
        assert!(lines[line as usize - 1].starts_with(&text), "{what}");
        assert!(!mark.trim().is_empty(), "{what}");
        // The pasted line is where the repaired line begins.
        let p = e["line"].as_u64().unwrap() as usize;
        assert!(
            text.starts_with(pasted_lines[p - 1].trim_end()),
            "{what}: pasted {p}"
        );
    }
    // Some clue sits on a line that was cut and joined again.
    assert!(
        ev.iter()
            .zip(shown(&v))
            .any(|(e, (line, ..))| e["line"].as_u64() != Some(line)),
        "no joined line among the deciding ones"
    );
}

/// Dumps pasted one after another are named by where each starts; one dump
/// has none.
#[test]
fn several_pasted_modules_are_listed_by_their_first_lines() {
    let a = fixture("layernorm/compiled.cpu.hlo.txt");
    let b = fixture("softmax/lowered.stablehlo.mlir");
    // The lowered module opens with its `#loc` aliases, then `module @...`.
    let at = b.lines().position(|l| l.starts_with("module")).unwrap();
    let second = a.lines().count() + at + 1;
    assert_eq!(
        inspect(&format!("{a}{b}"))["pasted_modules"],
        serde_json::json!([1, second])
    );
    assert_eq!(inspect(&a)["pasted_modules"], serde_json::json!([]));
    let many: String = (0..200).map(|_| a.as_str()).collect();
    assert_eq!(dumplab::analyze(&many).pasted_modules.len(), 200);
}
