//! The drift corpus (`tests/drift/`, ground truth in its `manifest.toml`):
//! real dumps from many JAX releases, TensorFlow, PyTorch/XLA and XLA dump
//! folders, and damaged pastes made from them. Strict:
//!
//! - every whole file gets its kind, dialect and backend, and a clean one
//!   is left as it is (nothing unwrapped); HLO whose text proves neither
//!   kind (only hints) may be `unknown`, with its guess the label's kind;
//! - every excerpt window (10, 20 and 30 lines, from every line) of a clean
//!   file gets its file's kind or `unknown`, never another kind, and
//!   `unknown` only where no line of the window decides;
//! - every damaged variant gets the answer of its clean original.
//!
//! **A line decides** when the analysis of that line alone gives the
//! file's kind. Read alone, a line has no context, so what it shows is
//! what any window holding it shows at least: a window with such a line
//! and no line proving the opposite (which a real dump of one kind does
//! not hold) has all it needs. Lines that prove only in context (a fused
//! computation's header is proof only with the fusion calling it) do not
//! decide: a window holding the header without the fusion may say
//! `unknown`.
//!
//! Kinds the manifest calls `ambiguous` (a module in the middle of XLA's
//! pipeline, neither before optimizations nor compiled) accept either HLO
//! kind or `unknown`, never a jaxpr or StableHLO; their backend may be
//! unnamed but never wrong.
//!
//! The per-producer counts are printed by the ignored report test
//! (`cargo test -p dumplab --test drift_report -- --ignored --nocapture`).

#![allow(clippy::unwrap_used)]

use dumplab::{Analysis, Kind, analyze};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Deserialize)]
struct Manifest {
    dump: Vec<Entry>,
}

/// The manifest fields this test reads (see `tests/drift/manifest.toml`).
#[derive(Deserialize)]
struct Entry {
    file: String,
    producer: String,
    kind: String,
    dialect: String,
    backend: Option<String>,
    compiled_for: String,
    original: Option<String>,
    damage: Option<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/drift")
}

fn manifest() -> Vec<Entry> {
    let path = root().join("manifest.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let m: Manifest = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(m.dump.len() >= 40, "{} dumps in the manifest", m.dump.len());
    m.dump
}

fn read(file: &str) -> String {
    let p = root().join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn ambiguous(e: &Entry) -> bool {
    e.kind == "ambiguous"
}

/// Whether kind `k` is an acceptable answer for the whole file of `e`.
fn kind_ok(e: &Entry, k: Kind) -> bool {
    if ambiguous(e) {
        k.is_hlo() || k == Kind::Unknown
    } else {
        k.as_str() == e.kind
    }
}

/// What is wrong with the analysis of a whole file, if anything.
fn whole_file_problems(e: &Entry, a: &Analysis) -> Vec<String> {
    let mut out = Vec::new();
    // HLO whose text proves neither kind (only hints): an honest unknown,
    // not a wrong answer, as long as its guess (kept apart) is the label.
    let honest = a.kind == Kind::Unknown && a.kind_guess.is_some_and(|g| g.as_str() == e.kind);
    if !kind_ok(e, a.kind) && !honest {
        out.push(format!("kind {} (want {}): {:?}", a.kind, e.kind, a.reason));
    }
    let dialect = a.dialect.map_or("none", |d| d.as_str());
    if dialect != e.dialect {
        out.push(format!("dialect {dialect} (want {})", e.dialect));
    }
    let backend = a.backend.map(|b| b.as_str());
    let backend_ok = match (&e.backend, backend) {
        (Some(want), Some(got)) => want == got,
        // Not named, where no clue is in the text (the reason says so): an
        // honest unknown, not a wrong answer.
        (Some(_), None) => ambiguous(e) || a.backend_reason.is_some(),
        (None, None) => true,
        // Named where the manifest says the text cannot tell: right only
        // when it is the backend that made the dump.
        (None, Some(got)) => got == e.compiled_for,
    };
    if !backend_ok {
        out.push(format!(
            "backend {backend:?} ({:?}, want {:?})",
            a.backend_basis, e.backend
        ));
    }
    out
}

#[test]
fn whole_files_get_kind_dialect_and_backend() {
    let mut bad = Vec::new();
    for e in manifest() {
        let a = analyze(&read(&e.file));
        for p in whole_file_problems(&e, &a) {
            bad.push(format!("{}: {p}", e.file));
        }
        // A clean file is read as it is: nothing to unwrap.
        if e.damage.is_none() && !a.unwrapped.is_empty() {
            bad.push(format!(
                "{}: clean, but unwrapped {:?}",
                e.file, a.unwrapped
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Per line (0-based), whether that line alone decides `kind`.
fn deciding_lines(text: &str, kind: Kind) -> Vec<bool> {
    text.lines().map(|l| analyze(l).kind == kind).collect()
}

#[test]
fn excerpt_windows_are_never_wrong_and_unknown_only_where_no_line_decides() {
    let mut bad = Vec::new();
    let mut windows = 0usize;
    let mut tally: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let entries = manifest();
    for e in entries.iter().filter(|e| e.original.is_none()) {
        let text = read(&e.file);
        let lines: Vec<&str> = text.lines().collect();
        // Only a kind the text can show is decided by lines (`unknown`
        // and `ambiguous` files have none).
        let want: Option<Kind> = e.kind.parse().ok().filter(|k| *k != Kind::Unknown);
        let decides = want.map(|k| deciding_lines(&text, k));
        for size in [10usize, 20, 30] {
            if lines.len() < size {
                continue;
            }
            for start in 0..=lines.len() - size {
                let end = start + size;
                let w = lines.get(start..end).unwrap().join("\n");
                let a = analyze(&w);
                windows += 1;
                let t = tally.entry(e.producer.as_str()).or_default();
                t.0 += 1;
                let at = format!("{}:{}-{}", e.file, start + 1, end);
                if !kind_ok(e, a.kind) && a.kind != Kind::Unknown {
                    bad.push(format!("{at}: wrong kind {} (want {})", a.kind, e.kind));
                    continue;
                }
                if a.kind == Kind::Unknown {
                    t.1 += 1;
                    let decided = decides
                        .as_ref()
                        .and_then(|d| d.get(start..end))
                        .and_then(|d| d.iter().position(|x| *x));
                    if let Some(i) = decided {
                        bad.push(format!(
                            "{at}: unknown, but line {} decides {}: {:?}",
                            start + i + 1,
                            e.kind,
                            a.reason
                        ));
                    }
                }
            }
        }
    }
    eprintln!("{windows} windows; per producer (windows, unknown): {tally:?}");
    assert!(windows > 5000, "{windows} windows");
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn damaged_variants_read_as_their_clean_originals() {
    let entries = manifest();
    let mut bad = Vec::new();
    let mut damaged = 0usize;
    for e in &entries {
        let (Some(orig), Some(damage)) = (&e.original, &e.damage) else {
            continue;
        };
        damaged += 1;
        let clean = analyze(&read(orig));
        let text = read(&e.file);
        let a = analyze(&text);
        // Cutting a dump short may cut away the line that named the
        // backend (it is then not named, only guessed): the backend is
        // compared otherwise, and a named one must still be the original's.
        let truncated = damage == "truncated";
        let answer = |a: &Analysis| {
            let backend = a.backend.filter(|_| !truncated);
            let basis = a.backend_basis.filter(|_| !truncated);
            (a.kind, a.dialect, backend, basis)
        };
        if truncated && a.backend.is_some() && a.backend != clean.backend {
            bad.push(format!("{}: truncated, names another backend", e.file));
        }
        if answer(&a) != answer(&clean) {
            bad.push(format!(
                "{} ({damage}): {:?}, its original {:?}; undone {:?}",
                e.file,
                answer(&a),
                answer(&clean),
                a.unwrapped
            ));
        }
        let pasted = text.lines().count();
        if a.evidence.iter().any(|ev| ev.line == 0 || ev.line > pasted) {
            bad.push(format!(
                "{}: evidence past the {pasted} pasted lines",
                e.file
            ));
        }
        // Something to undo: every damage but truncation, and wrapping
        // only when two or more lines were cut (`unwrap` joins a lone cut
        // line with nothing: it cannot be told from a short line).
        let clean_lines = read(orig).lines().count();
        let to_undo = match damage.as_str() {
            "truncated" => false,
            "wrapped" => pasted >= clean_lines + 2,
            _ => true,
        };
        if to_undo && a.unwrapped.is_empty() {
            bad.push(format!("{} ({damage}): nothing undone", e.file));
        }
    }
    assert!(damaged >= 10, "{damaged} damaged variants");
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
