//! `mdbook-dumplab analyze` through the built binary: human output, `--json`,
//! standard input, and unreadable files.

#![allow(clippy::unwrap_used)]

mod support;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../checker/tests/data")
        .join(name)
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = bin();
    cmd.arg("analyze")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn mdbook-dumplab");
    if let Some(s) = stdin {
        child.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

#[test]
fn human_report_names_kind_and_evidence() {
    let f = data("xla_dump_cpu_after_optimizations.txt");
    let out = run(&[f.to_str().unwrap()], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains(": hlo-optimized"), "{s}");
    assert!(s.contains("[is-scheduled]") && s.contains("why:"), "{s}");
    assert!(s.contains("fusion"), "{s}");
}

#[test]
fn a_text_with_only_hints_is_likely_and_worded_as_likely() {
    // A header without `is_scheduled=true`, read to the `ENTRY`
    // computation with no compiler work on the way: a rule no corpus holds
    // a counterexample to, so the kind, worded as likely, not proved.
    let f = data("as_text_dialect_hlo_scan.txt");
    let out = run(&[f.to_str().unwrap()], None);
    assert!(out.status.success());
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains(": hlo-unoptimized, dialect hlo"), "{s}");
    assert!(
        s.contains("  likely, not proved: HLO before optimization, because line 1 shows `not-scheduled` (rule `unscheduled-header`)"),
        "{s}"
    );
    assert!(!s.contains("why unknown"), "{s}");
    assert!(!s.contains("decided by rule"), "{s}");
    assert!(!s.contains("a guess, not an answer"), "{s}");
}

#[test]
fn json_has_the_documented_fields_one_object_per_input() {
    let a = data("xla_dump_cpu_after_optimizations.txt");
    let b = data("as_text_dialect_hlo_scan.txt");
    let out = run(&["--json", a.to_str().unwrap(), b.to_str().unwrap()], None);
    assert!(out.status.success());
    let v = json_lines(&out);
    assert_eq!(v.len(), 2);
    // The second proves no kind (its header and names are hints): likely
    // before optimization, and said to be likely.
    for (obj, kind) in v.iter().zip(["hlo-optimized", "hlo-unoptimized"]) {
        assert_eq!(obj["kind"], kind);
        for key in [
            "file",
            "kind",
            "backend",
            "lines",
            "entry_fusions",
            "fusions",
            "evidence",
            "reason",
            "kernels",
            "dialect",
            "backend_basis",
            "backend_reason",
            "kind_rule",
            "kind_guess",
            "kind_guess_rule",
            "kind_likely",
            "unwrapped",
        ] {
            assert!(obj.get(key).is_some(), "missing {key} in {obj}");
        }
        assert!(obj["lines"].as_u64().unwrap() > 0);
        let ev = obj["evidence"].as_array().unwrap();
        assert!(
            ev.iter()
                .all(|e| e["line"].is_u64() && e["marker"].is_string() && e["note"].is_string())
        );
    }
    assert!(v[0]["entry_fusions"].as_u64().unwrap() >= 1);
    let f = &v[0]["fusions"][0];
    assert!(
        f["name"].is_string()
            && f["kind"].as_str().unwrap().starts_with('k')
            && f["ops"].is_array()
    );
    assert_eq!(v[1]["entry_fusions"], 0);
    // Kernels: at least the entry fusions.
    assert!(v[0]["entry_kernels"].as_u64().unwrap() >= v[0]["entry_fusions"].as_u64().unwrap());
    assert!(v[1]["backend"].is_null());
    // YNNPACK's fusion config names XLA:CPU.
    assert_eq!(v[0]["backend"], "cpu");
    assert_eq!(v[0]["backend_basis"], "evidence");
    assert!(v[0]["backend_reason"].is_null());
    assert_eq!(v[0]["kind_rule"], "scheduled");
    assert!(v[0]["kind_guess"].is_null());
    assert_eq!(v[1]["kind_rule"], "unscheduled-header");
    assert!(v[1]["kind_guess"].is_null());
    assert!(
        v[1]["kind_likely"]
            .as_str()
            .unwrap()
            .starts_with("likely, not proved")
    );
    assert!(v[0]["kind_likely"].is_null());
    for o in &v {
        assert_eq!(o["dialect"], "hlo");
        assert_eq!(o["unwrapped"], serde_json::json!([]));
    }
    assert!(
        v[0]["file"]
            .as_str()
            .unwrap()
            .ends_with("xla_dump_cpu_after_optimizations.txt")
    );
}

/// A module pasted out of a log: the report says what was undone, and
/// lines refer to the paste.
#[test]
fn damaged_pastes_say_what_was_undone() {
    // A compiled CPU module with no accelerator clue (nor a CPU one).
    let clean = include_str!("../../fixtures/transpose_matmul/compiled.cpu.hlo.txt");
    let logged: String = clean
        .lines()
        .map(|l| format!("2019-08-05 19:26:48.376350: E external/org_tensorflow/tensorflow/compiler/xla/xla_util.cc:72] {l}\n"))
        .collect();
    let out = run(&["-"], Some(&logged));
    assert!(out.status.success());
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains(": hlo-optimized, backend not named (no GPU or TPU clue in a compiled module; a guess: CPU), dialect hlo"), "{s}");
    assert!(
        s.contains("unwrapped (log-prefix): log prefixes removed"),
        "{s}"
    );
    assert!(s.contains("decided by rule `scheduled`"), "{s}");
    let out = run(&["--json", "-"], Some(&logged));
    let v = json_lines(&out);
    assert_eq!(v[0]["unwrapped"][0]["what"], "log-prefix");
    assert_eq!(v[0]["unwrapped"][0]["first_line"], 1);
    assert_eq!(v[0]["lines"], clean.lines().count());
    let first = &v[0]["evidence"][0];
    assert_eq!(first["line"], 1);
    assert!(first["columns"]["start"].as_u64().unwrap() > 90, "{first}");
    assert!(v[0]["backend"].is_null());
    assert!(v[0]["backend_basis"].is_null());
    assert_eq!(v[0]["backend_guess"], "cpu");
    assert!(
        v[0]["backend_reason"]
            .as_str()
            .unwrap()
            .starts_with("no GPU or TPU clue in a compiled module;")
    );
}

#[test]
fn stdin_is_read_for_dash() {
    let out = run(
        &["--json", "-"],
        Some(include_str!("../../checker/tests/data/cond.jaxpr.txt")),
    );
    assert!(out.status.success());
    let v = json_lines(&out);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["file"], "-");
    assert_eq!(v[0]["kind"], "jaxpr");
    assert_eq!(v[0]["entry_fusions"], 0);
}

#[test]
fn unknown_input_is_still_success_with_a_reason() {
    let out = run(&["--json", "-"], Some("just some prose\n"));
    assert!(out.status.success());
    let v = json_lines(&out);
    assert_eq!(v[0]["kind"], "unknown");
    assert!(v[0]["reason"].as_str().unwrap().len() > 10);
}

#[test]
fn unreadable_file_fails_naming_it_and_the_rest_is_analysed() {
    let good = data("cond.jaxpr.txt");
    let out = run(
        &["--json", "/nonexistent/dump.txt", good.to_str().unwrap()],
        None,
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/nonexistent/dump.txt") && err.contains("cannot read"),
        "{err}"
    );
    let v = json_lines(&out);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["kind"], "jaxpr");
}

#[test]
fn binary_file_is_refused_with_a_hint() {
    let dir = std::env::temp_dir().join(format!("dumplab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("blob.bin");
    std::fs::write(&f, [0xffu8, 0xfe, 0x00, 0x41]).unwrap();
    let out = run(&[f.to_str().unwrap()], None);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("blob.bin") && err.contains("UTF-8"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    // `analyze --json fixtures/*/* | head -c 10`: the pipe closes early.
    let files: Vec<PathBuf> =
        std::fs::read_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/softmax"))
            .expect("fixtures/softmax")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt" || x == "mlir"))
            .collect();
    let mut child = bin()
        .arg("analyze")
        .arg("--json")
        .args(std::iter::repeat_n(&files, 200).flatten())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = [0u8; 10];
    std::io::Read::read_exact(child.stdout.as_mut().expect("stdout"), &mut first).expect("read");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn control_characters_in_names_never_reach_the_terminal() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-analyze-hostile");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a\u{1b}[2J\u{202e}.hlo.txt");
    std::fs::write(&file, "HloModule m, is_scheduled=true\n\nENTRY %main () -> f32[] {\n  ROOT %c = f32[] constant(1)\n}\n").unwrap();
    let missing = dir.join("gone\u{1b}]8;;x\u{7}.txt");
    let out = run(&[file.to_str().unwrap(), missing.to_str().unwrap()], None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("hlo-optimized"), "{stdout}");
    for text in [&stdout, &stderr] {
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}') && !text.contains('\u{202e}'),
            "{text:?}"
        );
    }
    assert!(stdout.contains("a\\u{1b}[2J\\u{202e}.hlo.txt"), "{stdout}");
}

#[test]
fn a_backend_config_over_several_lines_keeps_every_kernel() {
    for n in [3, 4] {
        let out = run(&["--json", "-"], Some(&support::cpu_module(n, true)));
        assert!(out.status.success(), "{out:?}");
        let v = &json_lines(&out)[0];
        assert_eq!(v["entry_kernels"], n, "{v}");
        assert_eq!(v["entry_fusions"], n, "{v}");
    }
}

#[test]
fn two_modules_in_one_text_get_a_warning_naming_their_first_lines() {
    let one = include_str!("../../fixtures/softmax/compiled.cpu.hlo.txt");
    let second = one.lines().count() + 1;
    let out = run(&["-"], Some(&format!("{one}{one}")));
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "  warning: 2 modules in one text (they start on lines 1, {second}): read as one; give each dump on its own\n"
        )),
        "{text}"
    );
    let out = run(&["--json", "-"], Some(&format!("{one}{one}")));
    assert_eq!(
        json_lines(&out)[0]["pasted_modules"],
        serde_json::json!([1, second])
    );
    let out = run(&["-"], Some(one));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("warning:"));
}

fn public(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../checker/tests/public")
        .join(name)
}

/// Short pastes from the public corpus (`checker/tests/public/short__*`,
/// cut from XLA's GPU architecture page and JAX's ROCm back-compat data):
/// each gets the answer its text supports, and the report says what the
/// text lacks.
#[test]
fn short_pastes_get_what_their_text_supports_and_say_what_is_missing() {
    // (file, the first line's answer, what the report must say, what it
    // must not)
    let cases: [(&str, &str, &[&str], &[&str]); 3] = [
        (
            // One instruction: a Triton GEMM fusion, XLA:GPU's, compiled.
            "short__xla-docs_gpu_architecture.one-instruction.hlo.txt",
            ": hlo-optimized for GPU, dialect hlo (1 lines)",
            &[
                "0 computations, no ENTRY computation in this text, 1 fusions",
                "[gpu-fusion-name]",
            ],
            &["entry `?`"],
        ),
        (
            // Six lines from inside a fused computation: HLO, but nothing
            // says compiled or not, nor the backend.
            "short__xla-docs_gpu_architecture.inside-fused-computation.hlo.txt",
            ": unknown, dialect hlo (6 lines)",
            &["why unknown: This is HLO", "no module header"],
            &["entry `?`"],
        ),
        (
            // One StableHLO op: hipSOLVER names a GPU; no function around it.
            "short__jax-bc_rocm_qr_hipsolver_geqrf.one-op.mlir",
            ": stablehlo for GPU, dialect stablehlo (1 lines)",
            &[
                "functions: none in this text (no `func.func` line)",
                "[gpu-library-custom-call]",
            ],
            &["functions: \n"],
        ),
    ];
    for (file, head, says, not) in cases {
        let f = public(file);
        let out = run(&[f.to_str().unwrap()], None);
        assert!(out.status.success(), "{file}");
        let s = String::from_utf8_lossy(&out.stdout);
        let first = s.lines().next().unwrap_or("");
        assert!(first.ends_with(head), "{file}: {s}");
        for w in says {
            assert!(s.contains(w), "{file}: want {w:?} in\n{s}");
        }
        for w in not {
            assert!(!s.contains(w), "{file}: {w:?} in\n{s}");
        }
    }
}

/// Real log prefixes: XLA's glog lines from a fusion log made here, and
/// PyTorch/XLA's TensorFlow-style line with a thread id after the level
/// (`2021-02-10 03:53:38.327068: E     463 .../xla_util.cc:98] `, from a
/// comment on https://github.com/pytorch/xla/pull/2771): both are
/// unwrapped, and a text that holds no dump line says so.
#[test]
fn real_log_prefixes_are_unwrapped() {
    let fusion_log = include_str!("../../fixtures/argmax/fusion-log.gpu.txt");
    let two: String = fusion_log
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    let pt = "2021-02-10 03:53:38.327068: E     463 tensorflow/compiler/xla/xla_client/xla_util.cc:98] >>> Dumping Computation 0\n";
    for (text, prefix) in [
        (
            two.as_str(),
            "`I1201 19:30:01.234090   17861 priority_fusion.cc:172]`",
        ),
        (
            pt,
            "`2021-02-10 03:53:38.327068: E     463 tensorflow/compiler/xla/xla_client/xla_util.cc:98]`",
        ),
    ] {
        let out = run(&["-"], Some(text));
        assert!(out.status.success());
        let s = String::from_utf8_lossy(&out.stdout);
        assert!(
            s.contains(&format!(
                "unwrapped (log-prefix): log prefixes removed (the first: {prefix})"
            )),
            "{s}"
        );
        assert!(s.contains(": unknown"), "{s}");
        assert!(s.contains("why unknown: No line looks like"), "{s}");
    }
}

/// A compiled module as XLA logs it, behind glog prefixes, with the log
/// lines after it: made here with the pinned JAX 0.10.2 on the CPU
/// (`jnp.sin(x) * 2 + 1` on f32[8], `TF_CPP_MIN_LOG_LEVEL=0
/// TF_CPP_VMODULE=hlo_alias_analysis=2`: `HloAliasAnalysis::Run` prints
/// the module with `XLA_VLOG_LINES(2, ...)`), the last module it printed
/// and the four log lines after it (`checker/tests/data/
/// glog_hlo_alias_analysis.cpu.txt`). The whole text, one instruction
/// line of it and the fused computation alone are each read as compiled,
/// the prefix named, the columns those of the paste.
#[test]
fn a_module_logged_by_xla_is_read_behind_its_prefixes() {
    let text = std::fs::read_to_string(data("glog_hlo_alias_analysis.cpu.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let pick = |from: usize, to: usize| -> String {
        lines[from - 1..to]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let cases = [
        (text.clone(), "entry `main.1`", "-:1:76: [is-scheduled]"),
        (
            pick(32, 32),
            "no ENTRY computation in this text",
            "[fusion-kind]",
        ),
        (
            pick(19, 29),
            "no ENTRY computation in this text",
            "[fused-parameter]",
        ),
    ];
    for (paste, entry, clue) in cases {
        let out = run(&["-"], Some(&paste));
        assert!(out.status.success());
        let s = String::from_utf8_lossy(&out.stdout);
        assert!(
            s.lines()
                .next()
                .unwrap_or("")
                .contains(": hlo-optimized, backend not named"),
            "{s}"
        );
        assert!(
            s.contains("unwrapped (log-prefix): log prefixes removed (the first: `I1202 02:09:46."),
            "{s}"
        );
        assert!(s.contains(entry), "{s}");
        assert!(s.contains(clue), "{s}");
    }
}

#[test]
fn a_zero_width_character_inside_entry_is_named_where_the_entry_is_missing() {
    // fixtures/argmax/compiled.cpu.hlo.txt with a U+200B inside `ENTRY`
    // (line 42): the keyword is not read, and the report says why.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let zw = std::fs::read_to_string(root.join("argmax/compiled.cpu.hlo.txt"))
        .unwrap()
        .replacen("ENTRY", "EN\u{200B}TRY", 1);
    let out = run(&["-"], Some(&zw));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("no ENTRY computation in this text (a U+200B inside `ENTRY` on line 42, which is then not read; the text holds 1 zero-width or bidi control character)"),
        "{text}"
    );
    // And no such character reaches the terminal raw.
    assert!(!text.contains('\u{200B}'), "{text}");
}
