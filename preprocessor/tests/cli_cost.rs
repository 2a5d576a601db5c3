//! `mdbook-dumplab cost` through the built binary: the ledger of real
//! fixtures (the table and `--json`), the chip chosen or asked for, and
//! bad input refused with one clear error line.

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn fixture(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .arg("cost")
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
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&ok(out)).expect("one JSON object")
}

/// Exit status 1, nothing on stdout, one error line holding every needle.
fn one_error(out: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("mdbook-dumplab: error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "missing {n:?} in {err}");
    }
}

#[test]
fn the_table_of_the_cublas_gemm_names_its_chip_figures_and_the_caveat() {
    let out = ok(&run(
        &[&fixture("matmul_cublas_epilogue/compiled.gpu.hlo.txt")],
        None,
    ));
    for needle in [
        "chip: h100 (NVIDIA H100 SXM5 80GB): the dump is compiled for a GPU",
        "XLA's cost model: 0 flops, 0 transcendentals, 0 B accessed (not counting 1 instruction XLA cannot cost)",
        "DumpLab's estimate: 806.355 M flops",
        "cublas-lt-matmul.2",
        "library-gemm:",
        "workspace:",
        "Only a profile measures time.",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
}

#[test]
fn json_has_the_documented_schema_and_xla_figures_apart_from_the_unknown() {
    let v = json(&run(
        &[
            &fixture("matmul_cublas_epilogue/compiled.gpu.hlo.txt"),
            "--json",
        ],
        None,
    ));
    let xla = &v["totals"]["xla"];
    assert_eq!(xla["flops"], 0);
    assert_eq!(xla["unknown"]["flops"], 1);
    assert_eq!(xla["unknown"]["bytes_accessed"], 1);
    let est = &v["totals"]["estimate"];
    assert_eq!(est["flops"], 806_354_944u64);
    assert_eq!(est["bytes_accessed"], 6_819_840u64);
    assert_eq!(est["bytes_padded"], 6_819_840u64);
    let k = &v["kernels"][0];
    for key in [
        "name",
        "kind",
        "xla",
        "estimate",
        "intensity",
        "bound",
        "lower_bound_s",
        "source_lines",
        "line",
        "runs",
    ] {
        assert!(k.get(key).is_some(), "kernel without {key}: {k}");
    }
    assert_eq!(k["kind"], "custom-call");
    assert_eq!(k["line"], 20);
    assert!(k["source_lines"].as_array().is_some_and(|l| !l.is_empty()));
    assert_eq!(v["chip"]["name"], "h100");
    assert!(
        v["chip"]["source"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["url"].as_str().is_some_and(|u| u.starts_with("https://")))
    );
    assert!(v["reasons"]["library-gemm"].is_string());
}

#[test]
fn the_chip_is_asked_for_or_none_for_a_cpu_dump() {
    let cpu = fixture("softmax/compiled.cpu.hlo.txt");
    let v = json(&run(&[&cpu, "--json"], None));
    assert!(v["chip"]["name"].is_null());
    assert!(v["roofline"].is_null());
    assert!(v["kernels"][0]["bound"].is_null());
    let v = json(&run(&[&cpu, "--json", "--chip", "A100"], None));
    assert_eq!(v["chip"]["name"], "a100");
    assert!(
        v["chip"]["why"]
            .as_str()
            .unwrap()
            .starts_with("asked for; the dump is compiled for a CPU")
    );
    assert!(
        v["roofline"]["lower_bound_s"]
            .as_f64()
            .is_some_and(|s| s > 0.0)
    );
    // The same kernels on two chips: a faster memory, a smaller bound.
    let tpu = fixture("softmax/compiled.tpu.hlo.txt");
    let v5e = json(&run(&[&tpu, "--json"], None));
    let v6e = json(&run(&[&tpu, "--json", "--chip", "v6e"], None));
    let bound = |v: &serde_json::Value| v["roofline"]["lower_bound_s"].as_f64().unwrap();
    assert!(bound(&v6e) < bound(&v5e));
}

#[test]
fn standard_input_is_read_with_dash() {
    let text = std::fs::read(fixture("softmax/compiled.tpu.hlo.txt")).unwrap();
    let out = ok(&run(&["-"], Some(&text)));
    assert!(out.starts_with("-: 4 kernels"), "{out}");
}

#[test]
fn bad_input_gets_one_clear_error_line() {
    one_error(
        &run(&[&fixture("softmax/lowered.stablehlo.mlir")], None),
        &[
            "lowered.stablehlo.mlir: expected compiled HLO",
            "found a stablehlo dump",
        ],
    );
    one_error(
        &run(
            &[&fixture("softmax/compiled.tpu.hlo.txt"), "--chip", "h10"],
            None,
        ),
        &["no chip preset `h10`", "did you mean `h100`?", "v5e, v6e"],
    );
    one_error(
        &run(&["/nonexistent/dump.txt"], None),
        &["/nonexistent/dump.txt: cannot read this file"],
    );
    one_error(&run(&["-"], Some(b"\xff\xfe binary")), &["as UTF-8 text"]);
    // A U+200B inside `ENTRY`: the keyword is not read, and the error says
    // why the entry is missing and where.
    let zw = std::fs::read_to_string(fixture("softmax/compiled.tpu.hlo.txt"))
        .unwrap()
        .replacen("ENTRY", "EN\u{200B}TRY", 1);
    one_error(
        &run(&["-"], Some(zw.as_bytes())),
        &[
            "-: no ENTRY computation: the ledger costs the entry computation and what it calls (a U+200B inside `ENTRY` on line ",
        ],
    );
}

#[test]
fn hostile_text_from_the_dump_is_escaped() {
    // A custom-call target and a source file name with markup and quotes:
    // JSON escapes them (also `<`, `>`, `&`), the table prints them as text.
    let hostile = "HloModule m, is_scheduled=true, entry_computation_layout={(f32[8]{0})->f32[8]{0}}\n\n\
        ENTRY %main (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0)\n  \
        ROOT %cc = f32[8]{0} custom-call(%p), custom_call_target=\"<img src=x onerror=alert(1)>\\\"\", \
        metadata={op_name=\"jit(f)/x\" source_file=\"</script><b>.py\" source_line=3}\n}\n";
    let out = run(&["-", "--json"], Some(hostile.as_bytes()));
    let raw = ok(&out);
    assert!(!raw.contains('<') && !raw.contains('>'), "{raw}");
    let v: serde_json::Value = serde_json::from_str(&raw).unwrap();
    assert_eq!(
        v["kernels"][0]["source_lines"][0]["file"],
        "</script><b>.py"
    );
    let table = ok(&run(&["-", "--chip", "h100"], Some(hostile.as_bytes())));
    assert!(table.contains("custom-call-unknown"), "{table}");
}
