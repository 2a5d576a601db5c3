//! `mdbook-dumplab why` through the binary: every compiled fixture, whole
//! and cut the ways people paste it (a fused computation alone, the
//! computations without the header, a few instruction lines, the end cut
//! mid-line), is read with exit status 0 and its scope named; a text with
//! no HLO says what to paste; a contradicted `--backend` is one error.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn why_json(text: &str) -> serde_json::Value {
    // One file per call: the tests run on several threads.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("dumplab-why-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("paste-{n}.txt"));
    std::fs::write(&f, text).unwrap();
    let out = bin().args(["why", "--json"]).arg(&f).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn form(v: &serde_json::Value) -> String {
    v["inputs"][0]["scope"]["form"].as_str().unwrap().to_owned()
}

#[test]
fn every_compiled_fixture_and_its_fragments_are_read() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures"))
        .unwrap()
        .flat_map(|e| std::fs::read_dir(e.unwrap().path()).into_iter().flatten())
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.starts_with("compiled.") && n.ends_with(".hlo.txt")
        })
        .collect();
    files.sort();
    assert!(files.len() > 100, "{} compiled fixtures", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let name = f.display();
        assert_eq!(form(&why_json(&text)), "module", "{name}");
        // The computations without the header and source tables.
        let first = lines
            .iter()
            .position(|l| l.starts_with('%') || l.starts_with("ENTRY"))
            .unwrap();
        let entry = lines.iter().position(|l| l.starts_with("ENTRY")).unwrap();
        if first < entry {
            let fused = lines[first..entry].join("\n");
            assert_eq!(
                form(&why_json(&fused)),
                "computations",
                "{name}: before ENTRY"
            );
        }
        // A few instruction lines from the entry.
        let few: Vec<&str> = lines[entry + 1..]
            .iter()
            .take(5)
            .copied()
            .filter(|l| !l.starts_with('}'))
            .collect();
        if !few.is_empty() {
            let v = why_json(&few.join("\n"));
            assert_eq!(form(&v), "instructions", "{name}: instruction lines");
            assert!(
                v["inputs"][0]["next"]
                    .as_str()
                    .unwrap()
                    .contains("compile().as_text()")
            );
        }
        // The end cut in the middle of the entry's last instruction.
        let cut = text.trim_end().trim_end_matches('}').trim_end();
        let cut = &cut[..cut.len() - cut.lines().last().unwrap().len() / 2];
        assert_eq!(form(&why_json(cut)), "cut", "{name}: cut");
    }
}

#[test]
fn no_hlo_says_what_to_paste_and_a_wrong_backend_is_one_error() {
    let v = why_json("my program is slow, why?\n");
    assert_eq!(form(&v), "no-hlo");
    assert!(
        v["inputs"][0]["next"]
            .as_str()
            .unwrap()
            .contains("print(jax.jit(f).lower(*args).compile().as_text())")
    );
    let gpu = root().join("fixtures/matmul/compiled.gpu.hlo.txt");
    let out = bin()
        .args(["why", "--backend", "tpu"])
        .arg(&gpu)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("compiled for gpu") && err.contains("leave out --backend"),
        "{err}"
    );
    let out = bin()
        .args(["why", "--backend", "npu"])
        .arg(&gpu)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("give cpu, gpu or tpu"));
}

#[test]
fn the_text_output_ranks_and_names_its_evidence() {
    let f = root().join("fixtures/kv_cache_decode/compiled.cpu.hlo.txt");
    let out = bin().arg("why").arg(&f).output().unwrap();
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("a whole module"), "{s}");
    assert!(s.contains("1. [donation-copy]"), "{s}");
    assert!(s.contains("donate_argnums=(0, 1)"), "{s}");
    assert!(s.contains("compiled.cpu.hlo.txt:1"), "{s}");
}
