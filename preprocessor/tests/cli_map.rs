//! `mdbook-dumplab map` through the built binary: the map of real fixture
//! families (human and `--json`), and hostile, binary and mismatched inputs,
//! each refused with one clear error line.

#![allow(clippy::unwrap_used)]

mod support;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn fixture(family: &str, file: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(family)
        .join(file)
        .to_string_lossy()
        .into_owned()
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .arg("map")
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

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Exit status 1, nothing on stdout, exactly one error line on stderr
/// holding every `needle`.
fn one_error(out: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("mdbook-dumplab: error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "missing {n:?} in {err}");
    }
}

fn names(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect()
}

#[test]
fn human_map_of_the_cpu_softmax_names_line_18_and_its_four_kernels() {
    let out = run(
        &[
            &fixture("softmax", "lowered.stablehlo.mlir"),
            &fixture("softmax", "compiled.cpu.hlo.txt"),
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("4 kernels in `main.3`"), "{s}");
    assert!(s.contains("\nfixtures/softmax/function.py:18\n"), "{s}");
    assert!(
        s.contains("  kernels: ynn_fusion.1, ynn_fusion, broadcast_divide_fusion, broadcast_multiply_fusion\n"),
        "{s}"
    );
    assert!(s.contains("kernels whose provenance is lost: none"), "{s}");
    assert!(s.contains("reads 2.0 MiB, writes 2.0 KiB"), "{s}");
}

#[test]
fn json_map_of_the_elementwise_chain_puts_every_line_in_its_one_fusion() {
    for backend in ["cpu", "gpu", "tpu"] {
        let v = json(&run(
            &[
                "--json",
                &fixture("elementwise_chain", "lowered.stablehlo.mlir"),
                &fixture("elementwise_chain", &format!("compiled.{backend}.hlo.txt")),
            ],
            None,
        ));
        let kernels = v["kernels"].as_array().unwrap();
        let fusions: Vec<_> = kernels.iter().filter(|k| k["kind"] == "fusion").collect();
        assert_eq!(fusions.len(), 1, "{backend}: {kernels:?}");
        let fusion = fusions[0]["name"].as_str().unwrap();
        assert_eq!(fusions[0]["detail"], "kLoop", "{backend}");
        assert!(!fusion.starts_with('%'));
        for key in [
            "name",
            "kind",
            "source_lines",
            "lowered_ops",
            "ops",
            "shape",
            "operand_shapes",
            "bytes_read",
            "bytes_written",
        ] {
            assert!(fusions[0].get(key).is_some(), "{backend}: no {key}");
        }
        let lines = v["source_lines"].as_array().unwrap();
        assert_eq!(
            lines
                .iter()
                .map(|l| l["line"].as_u64().unwrap())
                .collect::<Vec<_>>(),
            [16, 17, 18, 19],
            "{backend}"
        );
        for l in lines {
            assert_eq!(l["file"], "fixtures/elementwise_chain/function.py");
            assert!(names(&l["kernels"]).contains(&fusion), "{backend}: {l}");
            assert!(!l["lowered_ops"].as_array().unwrap().is_empty());
        }
        let ops: Vec<&str> = fusions[0]["lowered_ops"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["op"].as_str().unwrap())
            .collect();
        assert!(
            ops.contains(&"stablehlo.tanh") && ops.contains(&"stablehlo.exponential"),
            "{ops:?}"
        );
        assert_eq!(v["mismatch"], serde_json::Value::Null);
    }
}

#[test]
fn lost_provenance_is_listed_not_hidden() {
    let v = json(&run(
        &[
            "--json",
            &fixture("cumsum", "lowered.stablehlo.mlir"),
            &fixture("cumsum", "compiled.tpu.hlo.txt"),
        ],
        None,
    ));
    let lost = names(&v["kernels_without_source"]);
    assert!(lost.contains(&"copy_bitcast_fusion"), "{lost:?}");
    assert!(!v["lowered_without_source"].as_array().unwrap().is_empty());
}

#[test]
fn lowered_dump_from_standard_input() {
    let text = std::fs::read(fixture("softmax", "lowered.stablehlo.mlir")).unwrap();
    let v = json(&run(
        &["--json", "-", &fixture("softmax", "compiled.tpu.hlo.txt")],
        Some(&text),
    ));
    assert_eq!(v["lowered_format"], "stablehlo");
    assert!(v["kernels"].as_array().unwrap().len() >= 3);
}

#[test]
fn two_different_functions_are_named_as_such() {
    let out = run(
        &[
            &fixture("softmax", "lowered.stablehlo.mlir"),
            &fixture("matmul", "compiled.cpu.hlo.txt"),
        ],
        None,
    );
    one_error(&out, &["different functions", "f32[512,1024]"]);
}

#[test]
fn swapped_arguments_are_named_as_such() {
    let out = run(
        &[
            &fixture("softmax", "compiled.cpu.hlo.txt"),
            &fixture("softmax", "lowered.stablehlo.mlir"),
        ],
        None,
    );
    one_error(&out, &["wrong way round"]);
}

#[test]
fn hostile_inputs_get_one_clear_error_line() {
    let dir = std::env::temp_dir().join(format!("dumplab-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_string_lossy().into_owned()
    };
    let lowered = fixture("softmax", "lowered.stablehlo.mlir");
    let compiled = fixture("softmax", "compiled.cpu.hlo.txt");
    let binary = write("blob.bin", &[0xff, 0xfe, 0x00, 0x41, 0x80]);
    let nuls = write("nuls.txt", &[0u8; 4096]);
    let empty = write("empty.txt", b"");
    let prose = write("prose.txt", "ENTRY\u{1b}[31m is not a dump\n".as_bytes());
    let full = std::fs::read_to_string(&compiled).unwrap();
    let truncated = write(
        "truncated.txt",
        full.get(..full.len() / 3).unwrap().as_bytes(),
    );
    let no_entry = write(
        "no_entry.txt",
        full.get(..full.find("ENTRY").unwrap()).unwrap().as_bytes(),
    );
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec![&lowered, &binary], vec!["blob.bin", "UTF-8"]),
        (vec![&binary, &compiled], vec!["blob.bin", "UTF-8"]),
        (
            vec![&lowered, &nuls],
            vec!["nuls.txt", "expected compiled HLO"],
        ),
        (
            vec![&lowered, &empty],
            vec!["empty.txt", "expected compiled HLO"],
        ),
        (
            vec![&empty, &compiled],
            vec!["empty.txt", "expected a lowered dump"],
        ),
        (
            vec![&lowered, &prose],
            vec!["prose.txt", "expected compiled HLO"],
        ),
        (
            vec![&lowered, &truncated],
            vec!["truncated.txt", "no kernel"],
        ),
        (vec![&lowered, &no_entry], vec!["no_entry.txt", "no kernel"]),
        (
            vec![&lowered, &lowered],
            vec!["expected compiled HLO", "stablehlo"],
        ),
        (
            vec![&lowered, "/nonexistent/c.txt"],
            vec!["/nonexistent/c.txt", "cannot read"],
        ),
        (vec!["-", "-"], vec!["only one"]),
    ];
    for (args, needles) in cases {
        let out = run(&args, Some(b""));
        one_error(&out, &needles);
    }
    // Terminal escapes in a file name come out escaped.
    let out = run(&[&lowered, &prose], None);
    assert!(!String::from_utf8_lossy(&out.stderr).contains('\u{1b}'));
    std::fs::remove_dir_all(&dir).ok();
}

/// Writes `text` to a fresh file under the temp folder; its path.
fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("dumplab-cli-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

fn kernel_rows(v: &serde_json::Value) -> Vec<&serde_json::Value> {
    v["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["kernel"] == true)
        .collect()
}

#[test]
fn a_backend_config_over_several_lines_keeps_every_later_kernel() {
    let lowered = fixture("softmax", "lowered.stablehlo.mlir");
    for n in [3, 4] {
        for multiline in [false, true] {
            let path = temp_file(
                &format!("cpu{n}-{multiline}.hlo.txt"),
                &support::cpu_module(n, multiline),
            );
            let v = json(&run(&["--json", &lowered, &path], None));
            let rows = kernel_rows(&v);
            assert_eq!(rows.len(), n, "{n} kernels, multi-line {multiline}: {v}");
            // The clue inside the config is kept: `__ynn_fusion` on the CPU.
            assert_eq!(rows[0]["detail"], "kLoop __ynn_fusion", "{v}");
        }
    }
}

#[test]
fn the_sixth_operand_after_index_5_has_its_shape() {
    let mut s = String::from(
        "HloModule jit_f, is_scheduled=true\n\nENTRY %main (a.1: f32[8], b.1: f32[8], c.1: f32[8], d.1: f32[8], e.1: f32[8], f.1: f32[8]) -> f32[8] {\n",
    );
    for (i, n) in ["a", "b", "c", "d", "e", "f"].iter().enumerate() {
        s.push_str(&format!("  %{n}.1 = f32[8]{{0}} parameter({i})\n"));
    }
    s.push_str("  ROOT %call = f32[8]{0} custom-call(%a.1, %b.1, %c.1, %d.1, %e.1, /*index=5*/%f.1), custom_call_target=\"tpu_custom_call\"\n}\n");
    let path = temp_file("index5.hlo.txt", &s);
    let lowered = fixture("softmax", "lowered.stablehlo.mlir");
    let v = json(&run(&["--json", &lowered, &path], None));
    let rows = kernel_rows(&v);
    assert_eq!(rows.len(), 1, "{v}");
    let shapes: Vec<&str> = rows[0]["operand_shapes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(shapes, ["f32[8]"; 6], "{v}");
    assert_eq!(rows[0]["bytes_read"], 6 * 32, "{v}");
}

#[test]
fn a_lowered_hlo_text_that_proves_no_kind_is_mapped_by_its_position_with_one_note() {
    let out = run(
        &[
            &fixture("softmax", "lowered.hlo.txt"),
            &fixture("softmax", "compiled.cpu.hlo.txt"),
            "--json",
        ],
        None,
    );
    let v = json(&out);
    assert_eq!(v["lowered_format"], "hlo");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("lowered.hlo.txt: the text does not prove that it is HLO before optimization (its hints make it likely, not proved); read as the lowered dump, as its position says"),
        "{err}"
    );
}
