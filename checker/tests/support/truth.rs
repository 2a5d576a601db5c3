//! The three corpora with their ground truth, judged one way: the course's
//! fixtures (truth from the generator's file names), the drift corpus
//! (`tests/drift/manifest.toml`) and the public corpus
//! (`tests/public/manifest.toml`). Read by the drift report, which prints
//! right / unknown / wrong per corpus, and by the public corpus test, which
//! prints each rule's figures there.

#![allow(clippy::unwrap_used)]

use dumplab::analysis::BackendBasis;
use dumplab::analysis::classify::{RULES, Verdict};
use dumplab::{Analysis, Backend, Kind, analyze};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One labelled file of a corpus.
pub struct Labelled {
    /// The file, relative to its corpus.
    pub file: String,
    /// Its text.
    pub text: String,
    /// The kind it is (`unknown` where no kind fits); `None` for
    /// `ambiguous` (any HLO kind is right).
    pub kind: Option<Kind>,
    /// The backend its text shows, where the truth says it shows one.
    pub backend: Option<Backend>,
    /// The backend that made it (provenance), where known: a backend named
    /// where the truth has none is `extra` when it is this one.
    pub made_for: Option<Backend>,
}

/// How one answer compares with its label.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Verdict3 {
    /// The label's answer (or, for `ambiguous`, an HLO kind).
    Right,
    /// `unknown`, or no backend where the label names one.
    Unknown,
    /// Another answer.
    Wrong,
    /// A backend named where the label names none and the provenance does
    /// not say it made the file.
    Unsupported,
    /// A backend named where the label names none, but the backend that
    /// made the file (the text does not show it, by the label).
    Extra,
    /// No backend named, and the label names none either.
    NotApplicable,
}

impl Verdict3 {
    /// The verdict's name in the printed tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict3::Right => "right",
            Verdict3::Unknown => "unknown",
            Verdict3::Wrong => "wrong",
            Verdict3::Unsupported => "unsupported",
            Verdict3::Extra => "extra",
            Verdict3::NotApplicable => "n/a",
        }
    }

    /// Whether the verdict fails a corpus.
    pub fn is_bad(self) -> bool {
        matches!(self, Verdict3::Wrong | Verdict3::Unsupported)
    }
}

/// The kind's verdict: `ambiguous` (`None`) takes either HLO kind; a
/// label `unknown` (a text no kind fits) takes only `unknown`.
pub fn judge_kind(label: Option<Kind>, got: Kind) -> Verdict3 {
    match (label, got) {
        (Some(l), g) if l == g => Verdict3::Right,
        (_, Kind::Unknown) => Verdict3::Unknown,
        (None, g) if g.is_hlo() => Verdict3::Right,
        _ => Verdict3::Wrong,
    }
}

/// The backend's verdict.
pub fn judge_backend(
    label: Option<Backend>,
    made_for: Option<Backend>,
    got: Option<Backend>,
) -> Verdict3 {
    match (label, got) {
        (None, None) => Verdict3::NotApplicable,
        (None, Some(g)) if Some(g) == made_for => Verdict3::Extra,
        (None, Some(_)) => Verdict3::Unsupported,
        (Some(_), None) => Verdict3::Unknown,
        (Some(l), Some(g)) if l == g => Verdict3::Right,
        _ => Verdict3::Wrong,
    }
}

/// One analysed file: its label, the analysis and both verdicts.
pub struct Judged<'a> {
    /// The file and its label.
    pub label: &'a Labelled,
    /// What DumpLab said.
    pub analysis: Analysis,
    /// The kind's verdict.
    pub kind: Verdict3,
    /// The backend's verdict.
    pub backend: Verdict3,
}

/// Every file of `corpus` analysed and judged.
pub fn judge_all(corpus: &[Labelled]) -> Vec<Judged<'_>> {
    corpus
        .iter()
        .map(|label| {
            let analysis = analyze(&label.text);
            Judged {
                kind: judge_kind(label.kind, analysis.kind),
                backend: judge_backend(label.backend, label.made_for, analysis.backend),
                label,
                analysis,
            }
        })
        .collect()
}

/// How many answers got each verdict.
pub fn tally(
    rows: &[Judged<'_>],
    pick: impl Fn(&Judged<'_>) -> Verdict3,
) -> BTreeMap<Verdict3, usize> {
    let mut t = BTreeMap::new();
    for r in rows {
        *t.entry(pick(r)).or_insert(0) += 1;
    }
    t
}

/// A tally in words: `right 40, unknown 1`.
pub fn show(t: &BTreeMap<Verdict3, usize>) -> String {
    t.iter()
        .map(|(v, n)| format!("{} {n}", v.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The line of the first clue of one of `markers` (the evidence DumpLab used).
pub fn first_clue(a: &Analysis, markers: &[&str]) -> Option<usize> {
    a.evidence
        .iter()
        .find(|e| markers.contains(&e.marker))
        .map(|e| e.line)
}

/// The backend rule whose clue decided `a`'s backend, by name.
pub fn backend_rule(a: &Analysis) -> Option<&'static str> {
    match a.backend_basis? {
        BackendBasis::Evidence => RULES
            .iter()
            .filter(|r| matches!(r.verdict, Verdict::Backend(b) if Some(b) == a.backend))
            .find(|r| first_clue(a, &r.marker_names().collect::<Vec<_>>()).is_some())
            .map(|r| r.name),
    }
}

/// The line of the clue that decided `a`'s backend.
pub fn backend_clue_line(a: &Analysis) -> Option<usize> {
    let name = backend_rule(a)?;
    let rule = RULES.iter().find(|r| r.name == name)?;
    first_clue(a, &rule.marker_names().collect::<Vec<_>>())
}

/// Per kind rule of `RULES`: how often it decided, on how many labels that
/// can judge it (not `ambiguous`), and how often it was right there; for a
/// hint rule (which never decides), the same of the guesses it suggested.
pub fn kind_rule_table(rows: &[Judged<'_>]) -> String {
    let mut out = String::from("kind rule: decided / judged / right; guessed / judged / right");
    for rule in RULES
        .iter()
        .filter(|r| !matches!(r.verdict, Verdict::Backend(_)))
    {
        let count = |pick: &dyn Fn(&Analysis) -> Option<(&'static str, Kind)>| {
            let hit: Vec<(&Judged<'_>, Kind)> = rows
                .iter()
                .filter_map(|r| {
                    pick(&r.analysis)
                        .filter(|p| p.0 == rule.name)
                        .map(|p| (r, p.1))
                })
                .collect();
            let judged: Vec<_> = hit.iter().filter(|(r, _)| r.label.kind.is_some()).collect();
            let right = judged
                .iter()
                .filter(|(r, k)| judge_kind(r.label.kind, *k) == Verdict3::Right)
                .count();
            (hit.len(), judged.len(), right)
        };
        let d = count(&|a| a.kind_rule.map(|n| (n, a.kind)));
        let g = count(&|a| a.kind_guess_rule.zip(a.kind_guess));
        out.push_str(&format!(
            "\n  {:<22} {:>4} / {:>4} / {:>4}; {:>4} / {:>4} / {:>4}",
            rule.name, d.0, d.1, d.2, g.0, g.1, g.2
        ));
    }
    out
}

/// Per backend rule of `RULES`: how often it decided, how often the label
/// names a backend there, and how often it was right.
pub fn backend_rule_table(rows: &[Judged<'_>]) -> String {
    let mut out = String::from("backend rule: decided / judged / right");
    for rule in RULES
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Backend(_)))
    {
        let decided: Vec<&Judged<'_>> = rows
            .iter()
            .filter(|r| backend_rule(&r.analysis) == Some(rule.name))
            .collect();
        let judged = decided.iter().filter(|r| r.label.backend.is_some()).count();
        let right = decided
            .iter()
            .filter(|r| r.backend == Verdict3::Right)
            .count();
        out.push_str(&format!(
            "\n  {:<22} {:>4} / {judged:>4} / {right:>4}",
            rule.name,
            decided.len()
        ));
    }
    out
}

/// One judged file in a line: its label, DumpLab's answer, the kind rule
/// with its clue's line and the backend's basis or reason.
pub fn describe(r: &Judged<'_>) -> String {
    let a = &r.analysis;
    let rule = match a.kind_rule {
        Some(name) => {
            let markers = RULES
                .iter()
                .find(|r| r.name == name)
                .map(|r| r.marker_names().collect::<Vec<_>>());
            let line = markers.and_then(|m| first_clue(a, &m));
            format!(
                "{name}{}",
                line.map(|l| format!(" at line {l}")).unwrap_or_default()
            )
        }
        None => "-".to_owned(),
    };
    let basis = a.backend_basis.map_or("-", |b| b.as_str());
    format!(
        "{}: label {}/{}, DumpLab {}/{} (kind rule {rule}, backend basis {basis}{})",
        r.label.file,
        r.label.kind.map_or("ambiguous", |k| k.as_str()),
        r.label.backend.map_or("-", |b| b.as_str()),
        a.kind.as_str(),
        a.backend.map_or("-", |b| b.as_str()),
        a.backend_reason
            .as_deref()
            .map(|s| format!(": {s}"))
            .unwrap_or_default()
    )
}

fn checker_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read_toml<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> T {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The public corpus' manifest (`tests/public/manifest.toml`).
#[derive(Deserialize)]
pub struct PublicManifest {
    /// One entry per file.
    pub dump: Vec<PublicEntry>,
}

/// One `[[dump]]` of `tests/public/manifest.toml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublicEntry {
    /// The file, in `tests/public/`.
    pub file: String,
    /// Its source: a GitHub blob at a commit.
    pub url: String,
    /// The file's SHA-256 as committed.
    pub sha256: String,
    /// The source's license.
    pub license: String,
    /// A `Kind` name or `ambiguous`.
    pub kind: String,
    /// Why `ambiguous`.
    pub reason: Option<String>,
    /// The backend the source names.
    pub backend: Option<String>,
    /// Where the source names it.
    pub backend_evidence: Option<String>,
    /// Where the kind label comes from.
    pub evidence: String,
    /// Which part of the source the file is.
    pub excerpt: String,
}

impl PublicEntry {
    /// The label's kind: a `Kind`, or `None` for `ambiguous`.
    pub fn label_kind(&self) -> Option<Kind> {
        (self.kind != "ambiguous").then(|| self.kind.parse().unwrap())
    }

    /// The label's backend.
    pub fn label_backend(&self) -> Option<Backend> {
        self.backend.as_deref().map(|b| b.parse().unwrap())
    }
}

/// The folder of the public corpus.
pub fn public_root() -> PathBuf {
    checker_dir().join("tests/public")
}

/// The public corpus' manifest entries.
pub fn public_manifest() -> Vec<PublicEntry> {
    read_toml::<PublicManifest>(&public_root().join("manifest.toml")).dump
}

/// The public corpus with its labels.
pub fn public_corpus() -> Vec<Labelled> {
    public_manifest()
        .iter()
        .map(|e| Labelled {
            file: e.file.clone(),
            text: read_file(&public_root().join(&e.file)),
            kind: e.label_kind(),
            backend: e.label_backend(),
            made_for: None,
        })
        .collect()
}

/// The fields of a drift manifest entry the judging reads.
#[derive(Deserialize)]
struct DriftEntry {
    file: String,
    kind: String,
    backend: Option<String>,
    compiled_for: String,
}

#[derive(Deserialize)]
struct DriftManifest {
    dump: Vec<DriftEntry>,
}

/// The drift corpus with its labels.
pub fn drift_corpus() -> Vec<Labelled> {
    let root = checker_dir().join("tests/drift");
    read_toml::<DriftManifest>(&root.join("manifest.toml"))
        .dump
        .into_iter()
        .map(|e| Labelled {
            text: read_file(&root.join(&e.file)),
            kind: (e.kind != "ambiguous").then(|| e.kind.parse().unwrap()),
            backend: e.backend.as_deref().map(|b| b.parse().unwrap()),
            made_for: e.compiled_for.parse().ok(),
            file: e.file,
        })
        .collect()
}

/// The course's fixtures with the truth their file names carry
/// (`compiled.<backend>[.<variant>].hlo.txt`); the generator lowers with the
/// CPU's client, so a lowered file was made for the CPU.
pub fn fixture_corpus() -> Vec<Labelled> {
    let root = checker_dir().join("../fixtures");
    super::corpus()
        .into_iter()
        .map(|d| {
            let name = d.path.file_name().map(|n| n.to_string_lossy().into_owned());
            let backend = d.backend.or_else(|| {
                let rest = name.as_deref()?.strip_prefix("compiled.")?;
                rest.split('.').next()?.parse().ok()
            });
            Labelled {
                file: d
                    .path
                    .strip_prefix(&root)
                    .unwrap_or(&d.path)
                    .display()
                    .to_string(),
                made_for: backend.or(Some(Backend::Cpu)),
                kind: Some(d.kind),
                backend,
                text: d.text,
            }
        })
        .collect()
}

fn read_file(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
