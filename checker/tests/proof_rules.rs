//! "A rule whose evidence occurs on both sides cannot be proof": every
//! [`Weight::Proof`] rule of `RULES`, on every labelled corpus (the
//! course's fixtures `fixtures/*/`, named by their generator's file names;
//! the drift corpus `tests/drift/` and the public corpus `tests/public/`,
//! each with its manifest), never finds a clue in a dump labelled the other
//! side: a compiled-side rule in HLO before compilation, a not-compiled
//! rule in compiled HLO, a backend rule in a dump labelled another backend.
//! Labels come from provenance, never from the analysis; `ambiguous` labels
//! (modules in the middle of XLA's pipeline, hand-written test modules)
//! have no side and are skipped for the kind.
//!
//! A failure names the rule, the marker, the corpus and file, and the line.

#![allow(clippy::unwrap_used)]

mod support;

use dumplab::analysis::{Verdict, Weight, rules};
use dumplab::{Backend, Kind, analyze};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One labelled dump: where it is, its text, and its labels.
struct Labelled {
    at: String,
    text: String,
    kind: Option<Kind>,
    backend: Option<Backend>,
}

/// The manifest fields read here (drift and public alike).
#[derive(Deserialize)]
struct Entry {
    file: String,
    kind: String,
    backend: Option<String>,
}

#[derive(Deserialize)]
struct Manifest {
    dump: Vec<Entry>,
}

fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn manifest_corpus(name: &str) -> Vec<Labelled> {
    let root: &Path = &tests_dir().join(name);
    let text = std::fs::read_to_string(root.join("manifest.toml")).unwrap();
    let m: Manifest = toml::from_str(&text).unwrap();
    m.dump
        .into_iter()
        .map(|e| Labelled {
            at: format!("checker/tests/{name}/{}", e.file),
            text: std::fs::read_to_string(root.join(&e.file)).unwrap(),
            // `ambiguous` (and `unknown`) have no side.
            kind: e.kind.parse().ok().filter(|k: &Kind| *k != Kind::Unknown),
            backend: e.backend.map(|b| b.parse().unwrap()),
        })
        .collect()
}

fn fixtures() -> Vec<Labelled> {
    support::corpus()
        .into_iter()
        .map(|d| {
            let fam = d.path.parent().and_then(Path::file_name).unwrap();
            let file = d.path.file_name().unwrap();
            Labelled {
                at: format!(
                    "fixtures/{}/{}",
                    fam.to_string_lossy(),
                    file.to_string_lossy()
                ),
                text: d.text,
                kind: Some(d.kind),
                backend: d.backend,
            }
        })
        .collect()
}

/// Whether a rule saying `verdict` speaks against a dump labelled so.
fn other_side(verdict: Verdict, d: &Labelled) -> bool {
    match verdict {
        Verdict::Compiled => d.kind == Some(Kind::HloUnoptimized),
        Verdict::NotCompiled => d.kind == Some(Kind::HloOptimized),
        Verdict::Backend(b) => d.backend.is_some_and(|l| l != b),
    }
}

/// Every clue of a rule of `weight` in a dump labelled the other side, in
/// words, and how many (rule, dump) pairs were looked at.
fn clues_on_the_other_side(corpus: &[Labelled], weight: Weight) -> (Vec<String>, usize) {
    let mut bad = Vec::new();
    let mut pairs = 0;
    for d in corpus {
        let proof = rules()
            .iter()
            .filter(|r| r.weight == weight && other_side(r.verdict, d));
        let mut a = None;
        for r in proof {
            pairs += 1;
            let a = a.get_or_insert_with(|| analyze(&d.text));
            for m in r.marker_names() {
                if let Some(e) = a.evidence.iter().find(|e| e.marker == m) {
                    bad.push(format!(
                        "rule `{}`: marker `{m}` at {}:{}, labelled {}/{}",
                        r.name,
                        d.at,
                        e.line,
                        d.kind.map_or("ambiguous", Kind::as_str),
                        d.backend.map_or("-", Backend::as_str)
                    ));
                }
            }
        }
    }
    (bad, pairs)
}

#[test]
fn no_proof_rule_finds_a_clue_on_the_other_side() {
    let corpora = [
        ("fixtures", fixtures()),
        ("drift", manifest_corpus("drift")),
        ("public", manifest_corpus("public")),
    ];
    let mut bad = Vec::new();
    for (name, corpus) in &corpora {
        assert!(!corpus.is_empty(), "the {name} corpus is empty");
        // Each corpus has dumps of both sides for the kind.
        for k in [Kind::HloUnoptimized, Kind::HloOptimized] {
            assert!(
                corpus.iter().any(|d| d.kind == Some(k)),
                "no {k} dump in the {name} corpus"
            );
        }
        let (found, pairs) = clues_on_the_other_side(corpus, Weight::Proof);
        eprintln!(
            "{name}: {} dumps, {pairs} (proof rule, dump of the other side) pairs",
            corpus.len()
        );
        assert!(
            pairs > 0,
            "the {name} corpus gives no proof rule a dump of the other side"
        );
        bad.extend(found);
    }
    assert!(
        bad.is_empty(),
        "proof found on the other side ({}):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Why the hints are hints: each finds clues on both sides. A header
/// without `is_scheduled=true` and names without `%` occur in compiled
/// modules too (JAX up to 0.4.26, jaxlib 0.4.13's dump folders), so they
/// may suggest a guess but never decide. Should a hint stop occurring on
/// the other side of every corpus, this fails, and the rule can be weighed
/// again.
#[test]
fn every_hint_rule_finds_a_clue_on_the_other_side() {
    let all: Vec<Labelled> = [
        fixtures(),
        manifest_corpus("drift"),
        manifest_corpus("public"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let (found, _) = clues_on_the_other_side(&all, Weight::Hint);
    for r in rules().iter().filter(|r| r.weight == Weight::Hint) {
        let tag = format!("rule `{}`:", r.name);
        let n = found.iter().filter(|f| f.starts_with(&tag)).count();
        eprintln!("{} {n} clues on the other side", r.name);
        assert!(
            n > 0,
            "hint rule `{}` never finds a clue on the other side",
            r.name
        );
    }
}
