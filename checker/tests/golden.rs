//! Everything users see, frozen: for every real dump of the course
//! (`fixtures/`) and of the drift corpus (`tests/drift/`), the object
//! `mdbook-dumplab analyze --json` prints (the serde form of the
//! [`Analysis`](dumplab::Analysis)) and the playground's report
//! (`dumplab::inspect::inspect`), and for a compiled dump its cost ledger
//! (`cost --json`) and its explanation (`explain --json`, without a log); for every fixture family, the source map
//! of each lowered/compiled pair (`map --json`, the playground's map).
//!
//! Golden files live in `tests/golden/`, one per input, pretty-printed so a
//! change reads as a diff. A rewrite of the reader must leave them as they
//! are; an intended change is made with
//!
//! ```sh
//! UPDATE_EXPECT=1 cargo test -p dumplab --test golden
//! ```
//!
//! and named in the commit that makes it. A golden file whose input is gone
//! fails the test too, so the folder never holds stale answers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn update() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Whether a corpus file is a dump (not a generator, note or manifest).
fn is_dump(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // A fixture's whole XLA dump folder (`fixtures/<family>/folder.cpu/`)
    // is read by the folder reader, whose own tests freeze what it shows;
    // its hundreds of pass files are not dumps of the course one by one.
    let in_dump_folder = path.components().any(|c| {
        c.as_os_str()
            .to_str()
            .is_some_and(dumplab::fixture::is_folder_name)
    });
    // A family's fusion-decision log (`fusion-log.cpu.txt`, written by
    // `fixtures/fusion_logs.py`) is XLA's stderr, not a dump: the input of
    // `explain --log`, whose own tests read it.
    let fusion_log = name.starts_with("fusion-log.");
    !(in_dump_folder
        || fusion_log
        || name.ends_with(".py")
        || name.ends_with(".sh")
        || name.ends_with(".toml")
        || name.ends_with(".md")
        || name.ends_with(".pbtxt")
        || name.ends_with(".txt") && name == "requirements.txt")
}

/// Pretty JSON of a JSON string (so goldens diff line by line).
fn pretty(json: &str) -> serde_json::Value {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("not JSON ({e}): {json}"))
}

/// The golden object of one dump.
fn dump_outputs(text: &str) -> serde_json::Value {
    let a = dumplab::analyze(text);
    let analysis = serde_json::to_value(&a).expect("analysis serializes");
    let inspect = pretty(&dumplab::inspect::inspect(text));
    if a.kind != dumplab::Kind::HloOptimized {
        return serde_json::json!({ "analyze": analysis, "inspect": inspect });
    }
    // The cost ledger of a compiled dump, as `cost --json` prints it.
    let cost = dumplab::cost::report::with_report(text, None, dumplab::cost::json::to_json)
        .map_or_else(|e| serde_json::json!({ "error": e }), |j| pretty(&j));
    // Why these kernels, as `explain --json` prints it (no log).
    let explain =
        dumplab::explain::report::with_report(text, None, dumplab::explain::json::to_json)
            .map_or_else(|e| serde_json::json!({ "error": e }), |j| pretty(&j));
    serde_json::json!({ "analyze": analysis, "inspect": inspect, "cost": cost, "explain": explain })
}

/// Lowered/compiled pairs of one family: every `compiled.B[.V].hlo.txt`
/// with the lowered StableHLO of the same target and variant (or the
/// family's default lowering), and the HLO look-alike against each
/// compiled dump of the default variant.
fn pairs(family: &Path) -> Vec<(String, PathBuf, PathBuf)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(family) else {
        return out;
    };
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in &names {
        let Some(rest) = name
            .strip_prefix("compiled.")
            .and_then(|r| r.strip_suffix(".hlo.txt"))
        else {
            continue;
        };
        let specific = format!("lowered.{rest}.stablehlo.mlir");
        let lowered = if names.contains(&specific) {
            specific
        } else {
            "lowered.stablehlo.mlir".to_string()
        };
        if names.contains(&lowered) {
            out.push((
                format!("{lowered}+{name}"),
                family.join(&lowered),
                family.join(name),
            ));
        }
        if !rest.contains('.') && names.iter().any(|n| n == "lowered.hlo.txt") {
            out.push((
                format!("lowered.hlo.txt+{name}"),
                family.join("lowered.hlo.txt"),
                family.join(name),
            ));
        }
        if !rest.contains('.') && names.iter().any(|n| n == "jaxpr.txt") {
            out.push((
                format!("jaxpr.txt+{name}"),
                family.join("jaxpr.txt"),
                family.join(name),
            ));
        }
    }
    out
}

/// Compares (or, under `UPDATE_EXPECT`, writes) one golden file; returns a
/// problem to report.
fn check(golden: &Path, actual: &serde_json::Value) -> Option<String> {
    let mut text = String::new();
    layout(actual, 0, &mut text);
    text.push('\n');
    if update() {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        let same = std::fs::read_to_string(golden).is_ok_and(|old| old == text);
        if !same {
            std::fs::write(golden, &text).unwrap();
        }
        return None;
    }
    match std::fs::read_to_string(golden) {
        Ok(old) if old == text => None,
        Ok(old) => {
            let line = old
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .map_or(old.lines().count().min(text.lines().count()), |i| i);
            let was = old.lines().nth(line).unwrap_or("<end>");
            let now = text.lines().nth(line).unwrap_or("<end>");
            Some(format!(
                "{}:{}: was `{}`, now `{}`",
                golden.display(),
                line + 1,
                was.trim(),
                now.trim()
            ))
        }
        Err(_) => Some(format!("{}: missing", golden.display())),
    }
}

/// JSON with objects opened to three levels and every array element on a
/// line of its own, compact inside: diffs name the element that changed
/// without the bulk of full pretty-printing.
fn layout(v: &serde_json::Value, depth: usize, out: &mut String) {
    let pad = |out: &mut String, d: usize| out.extend(std::iter::repeat_n("  ", d));
    match v {
        serde_json::Value::Object(m) if depth < 3 && !m.is_empty() => {
            out.push_str("{\n");
            for (i, (k, v)) in sorted(m).into_iter().enumerate() {
                pad(out, depth + 1);
                out.push_str(&serde_json::to_string(k).unwrap());
                out.push_str(": ");
                layout(v, depth + 1, out);
                out.push_str(if i + 1 < m.len() { ",\n" } else { "\n" });
            }
            pad(out, depth);
            out.push('}');
        }
        serde_json::Value::Array(a) if depth < 3 && !a.is_empty() => {
            out.push_str("[\n");
            for (i, v) in a.iter().enumerate() {
                pad(out, depth + 1);
                compact(v, out);
                out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
            }
            pad(out, depth);
            out.push(']');
        }
        _ => compact(v, out),
    }
}

/// An object's entries in key order, whatever order the map keeps (serde_json
/// keeps insertion order when another crate of the workspace turns on its
/// `preserve_order` feature).
fn sorted(m: &serde_json::Map<String, serde_json::Value>) -> Vec<(&String, &serde_json::Value)> {
    let mut v: Vec<_> = m.iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

/// Compact JSON with object keys sorted.
fn compact(v: &serde_json::Value, out: &mut String) {
    match v {
        serde_json::Value::Object(m) => {
            out.push('{');
            for (i, (k, v)) in sorted(m).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap());
                out.push(':');
                compact(v, out);
            }
            out.push('}');
        }
        serde_json::Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                compact(v, out);
            }
            out.push(']');
        }
        _ => out.push_str(&serde_json::to_string(v).unwrap()),
    }
}

fn golden_root() -> PathBuf {
    manifest_dir().join("tests/golden")
}

fn run(corpus: &str, root: &Path, golden_dir: &str, with_maps: bool) {
    let inputs: Vec<PathBuf> = support::files_under(root)
        .into_iter()
        .filter(|p| is_dump(p))
        .collect();
    assert!(
        inputs.len() > 100,
        "{corpus}: only {} dumps found",
        inputs.len()
    );
    let mut wanted = BTreeSet::new();
    let mut problems = Vec::new();
    for path in &inputs {
        let rel = path.strip_prefix(root).unwrap();
        let text = std::fs::read(path).unwrap();
        let text = String::from_utf8_lossy(&text);
        let golden = Path::new(golden_dir).join(format!("{}.json", rel.display()));
        problems.extend(check(&golden_root().join(&golden), &dump_outputs(&text)));
        wanted.insert(golden);
    }
    if with_maps {
        let mut families: Vec<PathBuf> = std::fs::read_dir(root)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        families.sort();
        for fam in families {
            for (name, lowered, compiled) in pairs(&fam) {
                let l = std::fs::read_to_string(&lowered).unwrap();
                let c = std::fs::read_to_string(&compiled).unwrap();
                let map = pretty(&dumplab::sourcemap::json::to_json(
                    &dumplab::sourcemap::map(&l, &c),
                ));
                let fam_name = fam.file_name().unwrap().to_string_lossy().into_owned();
                let golden = Path::new(golden_dir)
                    .join(&fam_name)
                    .join(format!("map.{name}.json"));
                problems.extend(check(&golden_root().join(&golden), &map));
                wanted.insert(golden);
            }
        }
    }
    let have: BTreeSet<PathBuf> = support::files_under(&golden_root().join(golden_dir))
        .into_iter()
        .map(|p| p.strip_prefix(golden_root()).unwrap().to_path_buf())
        .collect();
    for stale in have.difference(&wanted) {
        if update() {
            std::fs::remove_file(golden_root().join(stale)).unwrap();
        } else {
            problems.push(format!("{}: its input is gone", stale.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "{corpus}: {} golden files differ (UPDATE_EXPECT=1 cargo test -p dumplab --test golden \
         to accept an intended change, and name it):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn fixtures_analyze_inspect_and_map_are_unchanged() {
    run(
        "fixtures",
        &manifest_dir().join("../fixtures"),
        "fixtures",
        true,
    );
}

#[test]
fn drift_corpus_analyze_and_inspect_are_unchanged() {
    run("drift", &manifest_dir().join("tests/drift"), "drift", false);
}
