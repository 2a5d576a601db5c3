//! The drift corpus (`tests/drift/`): real dumps from many JAX releases,
//! TensorFlow and PyTorch/XLA, XLA dump folders and damaged pastes, with
//! ground truth from provenance in `tests/drift/manifest.toml`.
//!
//! `manifest_is_consistent` (always run) checks the manifest itself. The
//! report (ignored: it judges nothing, it measures) runs [`analyze`] on every
//! file and on 10-30-line excerpt windows of the clean ones, and prints
//! right / unknown / wrong per producer for kind, dialect and backend:
//!
//! ```text
//! cargo test -p dumplab --test drift_report -- --ignored --nocapture
//! ```
//!
//! The dialect column reads the analysis' JSON field `dialect` and says `n/a`
//! while the analysis has none.
//!
//! `every_corpus_counts` (always run) judges the three corpora one way
//! (`support/truth.rs`): the course's fixtures, the drift corpus and the
//! public corpus (`tests/public/`, labels in its `manifest.toml`, which no
//! rule was tuned on). It prints right / unknown / wrong per corpus for the
//! kind and the backend, and each rule of `RULES` with how often it decided,
//! was judged and was right there, and fails on a wrong kind or a wrong or
//! unsupported backend:
//!
//! ```text
//! cargo test -p dumplab --test drift_report -- --nocapture
//! ```

#![allow(clippy::unwrap_used, clippy::print_stdout)]

mod support;

use dumplab::{Kind, analyze};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use support::truth::{
    Labelled, Verdict3, backend_rule_table, describe, drift_corpus, fixture_corpus, judge_all,
    kind_rule_table, public_corpus, show, tally,
};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    dump: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Entry {
    file: String,
    producer: String,
    framework: String,
    stage: String,
    kind: String,
    dialect: String,
    backend: Option<String>,
    compiled_for: String,
    #[serde(default)]
    partial: bool,
    reason: Option<String>,
    original: Option<String>,
    damage: Option<String>,
    damage_detail: Option<String>,
    call: String,
    versions: BTreeMap<String, String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/drift")
}

fn manifest() -> Manifest {
    let path = root().join("manifest.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const KINDS: [&str; 6] = [
    "jaxpr",
    "stablehlo",
    "hlo-unoptimized",
    "hlo-optimized",
    "unknown",
    "ambiguous",
];
const DIALECTS: [&str; 5] = ["jaxpr", "stablehlo", "mhlo", "hlo", "none"];
const BACKENDS: [&str; 3] = ["cpu", "gpu", "tpu"];
const DAMAGES: [&str; 5] = ["repr", "log-prefix", "wrapped", "prompt", "truncated"];

#[test]
fn manifest_is_consistent() {
    let m = manifest();
    assert!(!m.dump.is_empty(), "manifest.toml lists no dump");
    let files: BTreeMap<&str, &Entry> = m.dump.iter().map(|e| (e.file.as_str(), e)).collect();
    assert_eq!(files.len(), m.dump.len(), "a file is listed twice");
    let mut bad = Vec::new();
    for e in &m.dump {
        let path = root().join(&e.file);
        match std::fs::metadata(&path) {
            Ok(md) if md.len() > 0 => {}
            _ => bad.push(format!("{}: missing or empty", e.file)),
        }
        if !KINDS.contains(&e.kind.as_str()) {
            bad.push(format!(
                "{}: kind `{}` is not one of {KINDS:?}",
                e.file, e.kind
            ));
        }
        if (e.kind == "ambiguous") != e.reason.is_some() && e.kind != "unknown" {
            bad.push(format!(
                "{}: `reason` goes with kind = \"ambiguous\"",
                e.file
            ));
        }
        if !DIALECTS.contains(&e.dialect.as_str()) {
            bad.push(format!(
                "{}: dialect `{}` is not one of {DIALECTS:?}",
                e.file, e.dialect
            ));
        }
        for b in e.backend.iter().chain([&e.compiled_for]) {
            if !BACKENDS.contains(&b.as_str()) {
                bad.push(format!(
                    "{}: backend `{b}` is not one of {BACKENDS:?}",
                    e.file
                ));
            }
        }
        match (&e.original, &e.damage) {
            (None, None) => {}
            (Some(o), Some(d)) => {
                match files.get(o.as_str()) {
                    Some(orig) if orig.original.is_none() => {
                        if (&orig.kind, &orig.dialect, &orig.backend)
                            != (&e.kind, &e.dialect, &e.backend)
                        {
                            bad.push(format!("{}: truth differs from its original {o}", e.file));
                        }
                    }
                    _ => bad.push(format!(
                        "{}: original {o} is not a clean file of the manifest",
                        e.file
                    )),
                }
                if !DAMAGES.contains(&d.as_str()) {
                    bad.push(format!(
                        "{}: damage `{d}` is not one of {DAMAGES:?}",
                        e.file
                    ));
                }
            }
            _ => bad.push(format!("{}: `original` and `damage` go together", e.file)),
        }
    }
    assert!(bad.is_empty(), "manifest.toml:\n{}", bad.join("\n"));
}

/// Right / unknown / wrong (and, for backends, `extra`: named where the
/// truth says the text cannot tell, but it is the backend that made it).
#[derive(Default, Clone, Copy)]
struct Tally {
    right: usize,
    unknown: usize,
    wrong: usize,
    extra: usize,
}

impl Tally {
    fn cell(&self) -> String {
        if self.right + self.unknown + self.wrong + self.extra == 0 {
            return "n/a".to_owned();
        }
        let extra = if self.extra > 0 {
            format!(" +{}", self.extra)
        } else {
            String::new()
        };
        format!("{}/{}/{}{extra}", self.right, self.unknown, self.wrong)
    }
}

#[derive(Default)]
struct Row {
    files: usize,
    ambiguous: usize,
    kind: Tally,
    dialect: Tally,
    backend: Tally,
    windows: Tally,
}

struct Got {
    kind: Kind,
    backend: Option<String>,
    dialect: Option<Option<String>>,
}

fn judge(text: &str) -> Got {
    let a = analyze(text);
    let json = serde_json::to_value(&a).unwrap();
    Got {
        kind: a.kind,
        backend: a.backend.map(|b| b.as_str().to_owned()),
        dialect: json.get("dialect").map(|d| d.as_str().map(str::to_owned)),
    }
}

fn tally_kind(t: &mut Tally, got: Kind, want: &str) {
    if got.as_str() == want {
        t.right += 1;
    } else if got == Kind::Unknown {
        t.unknown += 1;
    } else {
        t.wrong += 1;
    }
}

fn group(e: &Entry) -> String {
    match &e.damage_detail {
        Some(d) => format!("damaged: {d}"),
        None => e.producer.clone(),
    }
}

#[test]
#[ignore = "a report: run with --ignored --nocapture"]
fn drift_report() {
    let m = manifest();
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut notes = Vec::new();
    let mut wrong_windows = Vec::new();
    for e in &m.dump {
        let text = std::fs::read_to_string(root().join(&e.file)).unwrap();
        let g = judge(&text);
        let row = rows.entry(group(e)).or_default();
        row.files += 1;
        if e.kind == "ambiguous" {
            row.ambiguous += 1;
            notes.push(format!(
                "{}: ambiguous by provenance, analysis says {}",
                e.file, g.kind
            ));
        } else {
            tally_kind(&mut row.kind, g.kind, &e.kind);
            if g.kind.as_str() != e.kind {
                notes.push(format!("{}: kind {} (want {})", e.file, g.kind, e.kind));
            }
        }
        if let Some(d) = &g.dialect {
            let got = d.as_deref().unwrap_or("none");
            match got {
                _ if got == e.dialect => row.dialect.right += 1,
                "none" | "unknown" => row.dialect.unknown += 1,
                _ => row.dialect.wrong += 1,
            }
        }
        match (&e.backend, &g.backend) {
            (Some(w), Some(x)) if w == x => row.backend.right += 1,
            (None, None) => row.backend.right += 1,
            (Some(_), None) => row.backend.unknown += 1,
            (None, Some(x)) if *x == e.compiled_for => row.backend.extra += 1,
            (w, x) => {
                row.backend.wrong += 1;
                notes.push(format!("{}: backend {x:?} (want {w:?})", e.file));
            }
        }
        if e.original.is_some() || e.kind == "ambiguous" {
            continue;
        }
        let lines: Vec<&str> = text.lines().collect();
        for size in [10usize, 15, 20, 30] {
            if lines.len() <= size {
                continue;
            }
            for start in 0..=lines.len() - size {
                let got = analyze(&lines[start..start + size].join("\n")).kind;
                tally_kind(&mut row.windows, got, &e.kind);
                if got.as_str() != e.kind && got != Kind::Unknown {
                    wrong_windows.push(format!(
                        "{} lines {}..{}: {got} (want {})",
                        e.file,
                        start + 1,
                        start + size,
                        e.kind
                    ));
                }
            }
        }
    }
    println!(
        "\n| producer | files | kind r/u/w | dialect r/u/w | backend r/u/w (+extra) | windows 10-30 r/u/w | ambiguous |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut total = Row::default();
    for (name, r) in &rows {
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} |",
            r.files,
            r.kind.cell(),
            r.dialect.cell(),
            r.backend.cell(),
            r.windows.cell(),
            r.ambiguous
        );
        total.files += r.files;
        total.ambiguous += r.ambiguous;
        for (t, s) in [
            (&mut total.kind, r.kind),
            (&mut total.dialect, r.dialect),
            (&mut total.backend, r.backend),
            (&mut total.windows, r.windows),
        ] {
            t.right += s.right;
            t.unknown += s.unknown;
            t.wrong += s.wrong;
            t.extra += s.extra;
        }
    }
    println!(
        "| **all** | {} | {} | {} | {} | {} | {} |",
        total.files,
        total.kind.cell(),
        total.dialect.cell(),
        total.backend.cell(),
        total.windows.cell(),
        total.ambiguous
    );
    println!("\nWhole files not right ({}):", notes.len());
    for n in &notes {
        println!("  {n}");
    }
    println!("\nWrong windows ({}; first 40):", wrong_windows.len());
    for w in wrong_windows.iter().take(40) {
        println!("  {w}");
    }
}

#[test]
fn every_corpus_counts() {
    let corpora: [(&str, Vec<Labelled>); 3] = [
        ("fixtures", fixture_corpus()),
        ("drift", drift_corpus()),
        ("public", public_corpus()),
    ];
    let mut bad = Vec::new();
    let mut rules = String::new();
    println!("\n| corpus | files | kind | backend |\n|---|---|---|---|");
    for (name, corpus) in &corpora {
        let rows = judge_all(corpus);
        println!(
            "| {name} | {} | {} | {} |",
            rows.len(),
            show(&tally(&rows, |r| r.kind)),
            show(&tally(&rows, |r| r.backend))
        );
        rules.push_str(&format!(
            "\n{name}:\n{}\n{}\n",
            kind_rule_table(&rows),
            backend_rule_table(&rows)
        ));
        for r in &rows {
            if r.kind == Verdict3::Wrong || r.backend.is_bad() {
                bad.push(format!(
                    "{name}: {} [kind {}, backend {}]",
                    describe(r),
                    r.kind.as_str(),
                    r.backend.as_str()
                ));
            }
        }
    }
    println!("{rules}");
    assert!(
        bad.is_empty(),
        "wrong kinds or wrong/unsupported backends:\n{}",
        bad.join("\n")
    );
}
