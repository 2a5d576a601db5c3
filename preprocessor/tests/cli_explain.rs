//! `mdbook-dumplab explain` through the built binary: the text of real
//! dumps with and without XLA's log (expected files under
//! `tests/explain/`, rewritten by `UPDATE_EXPECT=1`), `--json` with the
//! documented fields, standard input, and errors as one line with exit 1.

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `mdbook-dumplab explain ARGS` from the repository root, with `stdin` piped in.
fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .current_dir(root())
        .arg("explain")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mdbook-dumplab");
    let mut pipe = child.stdin.take().unwrap();
    if let Some(s) = stdin {
        pipe.write_all(s).unwrap();
    }
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Exit status 1, nothing on stdout, one error line: exactly `want`.
fn one_error(out: &Output, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(err.trim_end(), format!("mdbook-dumplab: error: {want}"));
}

const SOFTMAX: &str = "fixtures/softmax/compiled.cpu.hlo.txt";
const SOFTMAX_LOG: &str = "fixtures/softmax/fusion-log.cpu.txt";

#[test]
fn the_text_of_real_dumps_is_the_expected_text() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut stale = Vec::new();
    for (name, args) in [
        ("softmax-cpu.txt", &[SOFTMAX][..]),
        (
            "softmax-cpu-with-log.txt",
            &[SOFTMAX, "--log", SOFTMAX_LOG][..],
        ),
        (
            "scan-rnn-cpu-with-log.txt",
            &[
                "fixtures/scan_rnn/compiled.cpu.hlo.txt",
                "--log",
                "fixtures/scan_rnn/fusion-log.cpu.txt",
            ][..],
        ),
        (
            "transpose-tpu.txt",
            &["fixtures/change_transpose_after/compiled.tpu.hlo.txt"][..],
        ),
        (
            "attention-h100.txt",
            &["fixtures/attention/compiled.gpu.hlo.txt"][..],
        ),
        (
            "dynamic-update-loop-cpu-with-folder.txt",
            &[
                "fixtures/dynamic_update_loop/compiled.cpu.hlo.txt",
                "--folder",
                "fixtures/dynamic_update_loop/folder.cpu",
            ][..],
        ),
        (
            "dynamic-update-loop-tpu-with-folder.txt",
            &[
                "fixtures/dynamic_update_loop/compiled.tpu.hlo.txt",
                "--folder",
                "fixtures/dynamic_update_loop/folder.tpu",
            ][..],
        ),
    ] {
        let got = ok(&run(args, None));
        let path = root().join("preprocessor/tests/explain").join(name);
        if update {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if got != want {
            stale.push(format!("{name}:\n{got}"));
        }
    }
    assert!(
        stale.is_empty(),
        "stale (UPDATE_EXPECT=1 rewrites):\n{}",
        stale.join("\n")
    );
}

#[test]
fn json_has_the_documented_fields() {
    let out = ok(&run(&[SOFTMAX, "--log", SOFTMAX_LOG, "--json"], None));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"], 1);
    assert_eq!(v["backend"], "cpu");
    assert_eq!(v["log"]["pass"], "cpu-instruction-fusion");
    for key in ["boundaries", "explained", "unknown"] {
        assert!(v["summary"][key].is_number(), "summary.{key}");
    }
    let k = v["kernels"].as_array().unwrap();
    let mult = k
        .iter()
        .find(|k| k["name"] == "broadcast_multiply_fusion")
        .unwrap();
    let inp = &mult["inputs"][1];
    assert_eq!(inp["from"], "broadcast_divide_fusion");
    assert_eq!(inp["reason"], "recompute");
    assert_eq!(inp["basis"], "xla-log");
    assert_eq!(inp["xla"]["message"], "Fusion is not profitable.");
    assert!(inp["ask"].is_null());
    let ids: Vec<&str> = v["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"recompute"), "{ids:?}");
    // Without the log: the rule says the same, and the unknown ones say how to ask.
    let v: serde_json::Value = serde_json::from_str(&ok(&run(
        &["fixtures/scan_rnn/compiled.cpu.hlo.txt", "--json"],
        None,
    )))
    .unwrap();
    let unknown: Vec<&serde_json::Value> = v["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|k| k["inputs"].as_array().unwrap())
        .filter(|i| i["reason"] == "unknown")
        .collect();
    assert!(!unknown.is_empty());
    for i in unknown {
        assert!(
            i["ask"]
                .as_str()
                .unwrap()
                .contains("TF_CPP_VMODULE=instruction_fusion=5"),
            "{i}"
        );
        assert!(i["basis"].is_null());
    }
}

#[test]
fn standard_input_and_errors() {
    let text = std::fs::read(root().join(SOFTMAX)).unwrap();
    let out = ok(&run(&["-"], Some(&text)));
    assert!(out.starts_with("-: 4 kernels"), "{out}");
    one_error(
        &run(&["fixtures/softmax/lowered.stablehlo.mlir"], None),
        "fixtures/softmax/lowered.stablehlo.mlir: expected compiled HLO (`lower(...).compile().as_text()`), found a stablehlo dump: kernels and their boundaries are what a backend decided",
    );
    one_error(
        &run(
            &[
                SOFTMAX,
                "--folder",
                "fixtures/dynamic_update_loop/folder.cpu",
            ],
            None,
        ),
        "fixtures/softmax/compiled.cpu.hlo.txt: the folder's module module_0000 is not this dump's compile: its optimized file has no fusion `ynn_fusion.1`",
    );
    one_error(
        &run(
            &[
                "fixtures/kv_cache_decode/compiled.cpu.hlo.txt",
                "--log",
                "fixtures/kv_cache_decode/fusion-log.gpu.txt",
            ],
            None,
        ),
        "fixtures/kv_cache_decode/compiled.cpu.hlo.txt: the log is of an XLA:GPU compile, the dump names cpu: pass the log of the compile that printed this dump",
    );
    one_error(
        &run(&["no/such/file.txt"], None),
        "no/such/file.txt: cannot read this file; check that the path exists and is readable: No such file or directory (os error 2)",
    );
}
