//! `mdbook-dumplab diff` through the built binary: the review text of real
//! pairs (expected files under `tests/diff/`, rewritten by
//! `UPDATE_EXPECT=1`), `--json` with the documented fields, `--chip` adding
//! the lower bounds, standard input, and errors as one line with exit 1.

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `mdbook-dumplab diff ARGS` from the repository root (paths in the output
/// stay relative), with `stdin` piped in.
fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .current_dir(root())
        .arg("diff")
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

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&ok(out)).expect("one JSON object")
}

/// Exit status 1, nothing on stdout, one error line: exactly `want`.
fn one_error(out: &Output, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(err.trim_end(), format!("mdbook-dumplab: error: {want}"));
}

const OLD_SOFTMAX: &str = "checker/tests/drift/jax-0.4.13/softmax.compiled.cpu.hlo.txt";
const NEW_SOFTMAX: &str = "checker/tests/drift/jax-0.10.2/softmax.compiled.cpu.hlo.txt";
const LN_CPU: &str = "fixtures/layernorm/compiled.cpu.hlo.txt";
const LN_GPU: &str = "fixtures/layernorm/compiled.gpu.hlo.txt";
const LN_TPU: &str = "fixtures/layernorm/compiled.tpu.hlo.txt";

#[test]
fn the_review_text_of_real_pairs_is_the_expected_text() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut stale = Vec::new();
    for (name, args) in [
        (
            "softmax-jax-0.4.13-vs-0.10.2.txt",
            &[OLD_SOFTMAX, NEW_SOFTMAX][..],
        ),
        ("layernorm-cpu-vs-gpu.txt", &[LN_CPU, LN_GPU][..]),
        (
            "layernorm-cpu-vs-tpu-v5e.txt",
            &[LN_CPU, LN_TPU, "--chip", "v5e"][..],
        ),
        (
            "mlp-lowered-jax-0.4.13-vs-0.10.2.txt",
            &[
                "checker/tests/drift/jax-0.4.13/mlp.lowered.stablehlo.mlir",
                "checker/tests/drift/jax-0.10.2/mlp.lowered.stablehlo.mlir",
            ][..],
        ),
        (
            "softmax-vs-layernorm-lowered.txt",
            &[
                "fixtures/softmax/lowered.stablehlo.mlir",
                "fixtures/layernorm/lowered.stablehlo.mlir",
            ][..],
        ),
        ("softmax-with-itself.txt", &[NEW_SOFTMAX, NEW_SOFTMAX][..]),
    ] {
        let got = ok(&run(args, None));
        let path = root().join("preprocessor/tests/diff").join(name);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
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
fn the_review_puts_the_biggest_change_first() {
    let out = ok(&run(&[LN_CPU, LN_TPU], None));
    let review: Vec<&str> = out
        .lines()
        .skip_while(|l| *l != "Biggest changes first:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert!(
        review[0].starts_with("  + added copy `copy-start` (B:89)"),
        "{out}"
    );
    assert!(review[0].ends_with("bytes +3.00 MiB"), "{out}");
    assert!(
        review[1]
            .contains("`broadcast_subtract_fusion` (A:103) -> `broadcast_multiply_fusion` (B:93)"),
        "{out}"
    );
    assert!(review[1].contains("bytes -2.00 MiB"), "{out}");
}

#[test]
fn json_has_the_documented_fields() {
    let v = json(&run(&[LN_CPU, LN_GPU, "--json"], None));
    assert_eq!(v["kind"], "compiled");
    for side in ["a", "b"] {
        for key in ["backend", "repaired", "xla"] {
            assert!(v[side].get(key).is_some(), "{side} without {key}: {v}");
        }
        for key in ["flops", "bytes_accessed", "not_kernel_bytes", "uncosted"] {
            assert!(v[side]["xla"][key].is_number(), "{side}.xla.{key}");
        }
    }
    assert_eq!(
        (&v["a"]["backend"], &v["b"]["backend"]),
        (&"cpu".into(), &"gpu".into())
    );
    assert!(v["chip"].is_null());
    assert!(v.get("lower_bound_s").is_none());
    let s = &v["summary"];
    for key in [
        "empty",
        "matched",
        "changed",
        "merged",
        "split",
        "added",
        "removed",
        "introduced",
        "reordered",
        "bytes_delta",
        "flops_delta",
        "truncated",
    ] {
        assert!(s.get(key).is_some(), "summary without {key}: {s}");
    }
    assert!(s.get("lower_bound_delta_s").is_none());
    assert_eq!(s["merged"], 1);
    assert_eq!(s["empty"], false);
    let k = &v["kernels"];
    for key in ["matched", "changed", "merged", "split", "added", "removed"] {
        assert!(k[key].is_array(), "kernels.{key}");
    }
    let m = &k["merged"][0];
    assert_eq!(m["to"], "fusion.5");
    assert_eq!(
        m["from"],
        serde_json::json!([
            "ynn_fusion.1",
            "broadcast_subtract_fusion",
            "ynn_fusion",
            "add_rsqrt_fusion",
            "broadcast_add_fusion"
        ])
    );
    for key in [
        "from_lines",
        "to_line",
        "basis",
        "bytes_delta",
        "flops_delta",
    ] {
        assert!(m.get(key).is_some(), "merged without {key}: {m}");
    }
    for key in ["scheduled", "reordered", "aliasing", "entry_layout"] {
        assert!(v["module"].get(key).is_some(), "module without {key}");
    }
    assert!(v["introduced"].is_array());
    // every count is its list's length
    for (count, list) in [
        ("matched", "matched"),
        ("changed", "changed"),
        ("merged", "merged"),
        ("split", "split"),
        ("added", "added"),
        ("removed", "removed"),
    ] {
        assert_eq!(
            s[count].as_u64(),
            k[list].as_array().map(|a| a.len() as u64),
            "{count}"
        );
    }

    let v = json(&run(&[LN_CPU, LN_TPU, "--json"], None));
    let added = &v["kernels"]["added"][0];
    for key in [
        "name",
        "line",
        "depth",
        "kind",
        "detail",
        "shape",
        "op_names",
        "source_lines",
        "bytes",
        "flops",
    ] {
        assert!(added.get(key).is_some(), "added without {key}: {added}");
    }
    assert_eq!(
        (&added["name"], &added["kind"]),
        (&"copy-start".into(), &"copy".into())
    );
    let changed = &v["kernels"]["changed"][0];
    for key in [
        "a",
        "b",
        "a_line",
        "b_line",
        "kind",
        "basis",
        "bytes_delta",
        "flops_delta",
        "changes",
    ] {
        assert!(
            changed.get(key).is_some(),
            "changed without {key}: {changed}"
        );
    }
    let intro = &v["introduced"][0];
    assert_eq!(
        (&intro["what"], &intro["how"]),
        (&"copy".into(), &"added".into())
    );
}

#[test]
fn a_chip_adds_the_lower_bounds() {
    let v = json(&run(&[LN_CPU, LN_TPU, "--json", "--chip", "h100"], None));
    assert_eq!(v["chip"], "h100");
    let (a, b) = (
        v["lower_bound_s"]["a"].as_f64().unwrap(),
        v["lower_bound_s"]["b"].as_f64().unwrap(),
    );
    assert!(a > 0.0 && b > 0.0);
    let d = v["summary"]["lower_bound_delta_s"].as_f64().unwrap();
    assert!((d - (b - a)).abs() <= 1e-12 * a.max(b), "{d} vs {b} - {a}");
    let text = ok(&run(&[LN_CPU, LN_TPU, "--chip", "h100"], None));
    assert!(text.contains("Lower bound on h100: "), "{text}");
}

#[test]
fn a_dash_reads_standard_input() {
    let b = std::fs::read(root().join(NEW_SOFTMAX)).unwrap();
    let piped = json(&run(&[OLD_SOFTMAX, "-", "--json"], Some(&b)));
    let named = json(&run(&[OLD_SOFTMAX, NEW_SOFTMAX, "--json"], None));
    assert_eq!(piped, named);
    let a = std::fs::read(root().join(OLD_SOFTMAX)).unwrap();
    let piped = json(&run(&["-", NEW_SOFTMAX, "--json"], Some(&a)));
    assert_eq!(piped, named);
    let text = ok(&run(&["-", NEW_SOFTMAX], Some(&a)));
    assert!(
        text.starts_with("A: - (hlo-optimized, no backend named)\n"),
        "{text}"
    );
}

#[test]
fn errors_are_one_line_and_exit_1() {
    let kinds = "a diff compares two dumps of one kind (two compiled HLO modules, two StableHLO modules, two HLO modules before optimization or two jaxprs)";
    one_error(
        &run(&[LN_CPU, "fixtures/layernorm/jaxpr.txt"], None),
        &format!(
            "{LN_CPU} vs fixtures/layernorm/jaxpr.txt: A is compiled HLO, B is a jaxpr: {kinds}; to see how the lowered one became the compiled one, run `mdbook-dumplab map fixtures/layernorm/jaxpr.txt {LN_CPU}`"
        ),
    );
    one_error(
        &run(
            &[
                "fixtures/layernorm/lowered.stablehlo.mlir",
                LN_CPU,
                "--json",
            ],
            None,
        ),
        &format!(
            "fixtures/layernorm/lowered.stablehlo.mlir vs {LN_CPU}: A is a lowered (StableHLO) module, B is compiled HLO: {kinds}; to see how the lowered one became the compiled one, run `mdbook-dumplab map fixtures/layernorm/lowered.stablehlo.mlir {LN_CPU}`"
        ),
    );
    // Two lowered kinds: no pair for `map`.
    one_error(
        &run(
            &[
                "fixtures/layernorm/jaxpr.txt",
                "fixtures/layernorm/lowered.stablehlo.mlir",
            ],
            None,
        ),
        &format!(
            "fixtures/layernorm/jaxpr.txt vs fixtures/layernorm/lowered.stablehlo.mlir: A is a jaxpr, B is a lowered (StableHLO) module: {kinds}"
        ),
    );
    one_error(
        &run(&[LN_CPU, LN_CPU, "--chip", "nope"], None),
        &format!(
            "{LN_CPU} vs {LN_CPU}: no chip preset `nope`: use one of v5e, v6e, h100, h200, a100"
        ),
    );
    one_error(
        &run(&[LN_CPU, "-"], Some(b"hello world\n")),
        &format!(
            "{LN_CPU} vs -: B is text of unknown kind (No line looks like a jaxpr (`{{ lambda ... let`), StableHLO (`stablehlo.` ops, `tensor<...>`) or HLO (`name = shape opcode(...)`).): nothing to compare"
        ),
    );
    // A U+200B inside B's `ENTRY` (line 97): said, with where.
    let zw = std::fs::read_to_string(root().join(LN_CPU))
        .unwrap()
        .replacen("ENTRY", "EN\u{200B}TRY", 1);
    one_error(
        &run(&[LN_CPU, "-"], Some(zw.as_bytes())),
        &format!(
            "{LN_CPU} vs -: B has no ENTRY computation: the diff compares what each entry computation runs (a U+200B inside `ENTRY` on line 97, which is then not read; the text holds 1 zero-width or bidi control character)"
        ),
    );
    let out = run(&["no-such-dump.txt", LN_CPU], None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("mdbook-dumplab: error: no-such-dump.txt: cannot read this file"),
        "{err}"
    );
}

#[test]
fn standard_input_is_one_side_at_most() {
    let out = run(&["-", "-"], Some(b""));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        "mdbook-dumplab: error: A and B are both `-`: standard input can be one of the two dumps, give the other as a file"
    );
}

#[test]
fn two_lowered_hlo_texts_that_prove_no_kind_are_compared_as_lowered_and_say_so() {
    let args = [
        "fixtures/softmax/lowered.hlo.txt",
        "fixtures/layernorm/lowered.hlo.txt",
    ];
    let text = ok(&run(&args, None));
    assert!(
        text.contains("A: fixtures/softmax/lowered.hlo.txt (hlo-unoptimized, no backend named)\nB: fixtures/layernorm/lowered.hlo.txt (hlo-unoptimized, no backend named)\nNeither text proves its kind (only hints of HLO before optimization): compared as lowered programs.\n"),
        "{text}"
    );
    let v = json(&run(&["--json", args[0], args[1]], None));
    assert_eq!(v["kind_unproved"], true);
    assert_eq!(v["format"], "hlo");
}

/// The `map` command the error suggests, for paths a shell would split or
/// quote, runs as printed (through `sh -c`) and draws the map.
#[test]
fn the_suggested_map_command_runs_as_printed() {
    let dir = std::env::temp_dir().join(format!("dumplab-diff-{}", std::process::id()));
    let dir = dir.join("sp dir");
    std::fs::create_dir_all(&dir).unwrap();
    let lowered = dir.join("it's lowered.mlir");
    let compiled = dir.join("my compiled.txt");
    std::fs::copy(
        root().join("fixtures/softmax/lowered.stablehlo.mlir"),
        &lowered,
    )
    .unwrap();
    std::fs::copy(
        root().join("fixtures/softmax/compiled.cpu.hlo.txt"),
        &compiled,
    )
    .unwrap();
    let out = run(
        &[compiled.to_str().unwrap(), lowered.to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let cmd = err
        .split("run `")
        .nth(1)
        .and_then(|r| r.split('`').next())
        .unwrap_or_else(|| panic!("no command in {err}"));
    let cmd = cmd.replacen("mdbook-dumplab", env!("CARGO_BIN_EXE_mdbook-dumplab"), 1);
    let map = Command::new("sh").arg("-c").arg(&cmd).output().unwrap();
    assert_eq!(
        map.status.code(),
        Some(0),
        "{cmd}: {}",
        String::from_utf8_lossy(&map.stderr)
    );
    assert!(
        String::from_utf8_lossy(&map.stdout).contains("kernel"),
        "{cmd}"
    );
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}
