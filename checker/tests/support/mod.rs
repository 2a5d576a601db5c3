//! Shared by the analysis tests: the corpus of real dumps under `fixtures/`,
//! discovered at test time so new families are covered without editing
//! tests, and the naive substring classifier the excerpt test compares with.

#![allow(dead_code, unreachable_pub)]

use dumplab::{Backend, Kind};
use std::path::PathBuf;

pub mod truth;

/// One real dump and what its file name says it is.
pub struct Dump {
    pub path: PathBuf,
    pub text: String,
    pub kind: Kind,
    pub backend: Option<Backend>,
}

/// What the generator's file names mean.
pub fn expected_from_name(name: &str) -> Option<(Kind, Option<Backend>)> {
    match name {
        "jaxpr.txt" => Some((Kind::Jaxpr, None)),
        "lowered.stablehlo.mlir" => Some((Kind::Stablehlo, None)),
        "lowered.hlo.txt" => Some((Kind::HloUnoptimized, None)),
        _ => {
            let b = name.strip_prefix("compiled.")?.strip_suffix(".hlo.txt")?;
            Some((Kind::HloOptimized, b.parse().ok()))
        }
    }
}

/// Every real dump under `fixtures/*/`, sorted by path.
pub fn corpus() -> Vec<Dump> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut out = Vec::new();
    let Ok(families) = std::fs::read_dir(&root) else {
        return out;
    };
    for fam in families.flatten() {
        let Ok(files) = std::fs::read_dir(fam.path()) else {
            continue;
        };
        for f in files.flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            let Some((kind, backend)) = expected_from_name(&name) else {
                continue;
            };
            let Ok(text) = std::fs::read_to_string(f.path()) else {
                continue;
            };
            out.push(Dump {
                path: f.path(),
                text,
                kind,
                backend,
            });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// A classifier made of substring tests, the kind of thing the analysis
/// must beat: the comparison point of the excerpt-window figures.
pub fn naive(text: &str) -> Kind {
    if text.contains("{ lambda") || text.contains(" let") {
        Kind::Jaxpr
    } else if text.contains("stablehlo.") || text.contains("func.func") {
        Kind::Stablehlo
    } else if text.contains("fusion(") || text.contains("is_scheduled=true") {
        Kind::HloOptimized
    } else if text.contains("HloModule") || text.contains("ENTRY") {
        Kind::HloUnoptimized
    } else {
        Kind::Unknown
    }
}

/// The text of 1-based line `n`.
pub fn line_of(text: &str, n: usize) -> &str {
    text.lines().nth(n.saturating_sub(1)).unwrap_or("")
}

/// The damage pastes take, applied to a real dump: what the unwrapping
/// must undo (the drift corpus holds such variants made by its generator;
/// these make the same shapes from every fixture).
#[derive(Clone, Copy, Debug)]
pub enum Damage {
    /// `repr(text)` as Python prints a `str`: one line, `\n` escapes,
    /// single quotes around.
    Repr,
    /// A JSON string (`json.dumps(text)`, a notebook's or a log's copy):
    /// one line, double quotes around, `\"`, `\\`, `\n` and `\t` escapes.
    Json,
    /// Every line behind TensorFlow's log prefix.
    TfLog,
    /// Every line behind a glog prefix.
    Glog,
    /// Hard-wrapped at this many bytes (a terminal or a tracker).
    Wrap(usize),
    /// The first line behind a `>>> ` prompt, the rest behind `... `.
    Prompt,
}

/// A TensorFlow log prefix as it appears in pasted logs.
pub const TF_PREFIX: &str = "2019-08-05 19:26:48.376350: E external/org_tensorflow/tensorflow/compiler/xla/xla_util.cc:72] ";
/// A glog prefix.
pub const GLOG_PREFIX: &str = "I1130 13:20:01.123456 12345 hlo_pass_pipeline.cc:123] ";

/// `text` with damage `d`.
pub fn damage(text: &str, d: Damage) -> String {
    match d {
        Damage::Repr => {
            let mut s = String::from("'");
            for c in text.chars() {
                match c {
                    '\\' => s.push_str("\\\\"),
                    '\n' => s.push_str("\\n"),
                    '\'' => s.push_str("\\'"),
                    '\t' => s.push_str("\\t"),
                    c => s.push(c),
                }
            }
            s.push_str("'\n");
            s
        }
        Damage::Json => {
            let mut s = String::from("\"");
            for c in text.chars() {
                match c {
                    '\\' => s.push_str("\\\\"),
                    '\n' => s.push_str("\\n"),
                    '"' => s.push_str("\\\""),
                    '\t' => s.push_str("\\t"),
                    c => s.push(c),
                }
            }
            s.push_str("\"\n");
            s
        }
        Damage::TfLog | Damage::Glog => {
            let p = if matches!(d, Damage::TfLog) {
                TF_PREFIX
            } else {
                GLOG_PREFIX
            };
            text.lines().map(|l| format!("{p}{l}\n")).collect()
        }
        Damage::Wrap(w) => {
            let mut s = String::new();
            for l in text.lines() {
                let b = l.as_bytes();
                if b.is_empty() {
                    s.push('\n');
                }
                let mut i = 0;
                while i < b.len() {
                    let mut e = (i + w).min(b.len());
                    while !l.is_char_boundary(e) {
                        e -= 1;
                    }
                    s.push_str(&l[i..e]);
                    s.push('\n');
                    i = e;
                }
            }
            s
        }
        Damage::Prompt => text
            .lines()
            .enumerate()
            .map(|(i, l)| format!("{}{l}\n", if i == 0 { ">>> " } else { "... " }))
            .collect(),
    }
}

/// Every file under `dir`, recursively, sorted by path.
pub fn files_under(dir: &std::path::Path) -> Vec<PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}
