//! `mdbook-dumplab folder` through the built binary, on the real dump
//! folders of `checker/tests/folders/` (CPU, H100, TPU v5e): the terminal
//! text (expected files under `tests/folder/`, rewritten by
//! `UPDATE_EXPECT=1`), `--json` with the documented fields, `--module`,
//! `--first`, a folder with binary, linked and hostile files, and errors as
//! one line with exit 1.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const CPU: &str = "checker/tests/folders/cpu_softmax";
const GPU: &str = "checker/tests/folders/gpu_softmax";
const TPU: &str = "checker/tests/folders/tpu_softmax";

/// `mdbook-dumplab folder ARGS` from the repository root.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .current_dir(root())
        .arg("folder")
        .args(args)
        .output()
        .expect("run mdbook-dumplab")
}

fn ok(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(out.stderr.is_empty(), "{err}");
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&ok(out)).expect("one JSON object")
}

/// Exit status 1, nothing on stdout, one error line containing `want`.
fn one_error(out: &Output, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("mdbook-dumplab: error: "), "{err}");
    assert!(err.contains(want), "{err}");
}

#[test]
fn the_text_of_real_folders_is_the_expected_text() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut stale = Vec::new();
    for (name, args) in [
        ("cpu_softmax.txt", &[CPU][..]),
        ("gpu_softmax.txt", &[GPU][..]),
        ("tpu_softmax.txt", &[TPU][..]),
        (
            "cpu_softmax.first-kLoop.txt",
            &[CPU, "--first", "kLoop"][..],
        ),
        // Memory space assignment's prefetch: in the optimized module only.
        (
            "tpu_softmax.first-copy-start.txt",
            &[TPU, "--first", "copy-start"][..],
        ),
        (
            "tpu_softmax.first-transpose.txt",
            &[TPU, "--module", "jit__lambda", "--first", "transpose"][..],
        ),
    ] {
        let got = ok(&run(args));
        let path = root().join("preprocessor/tests/folder").join(name);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &got).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(got.as_str()) {
            stale.push(format!("{name}:\n{got}"));
        }
    }
    assert!(
        stale.is_empty(),
        "expected text differs (UPDATE_EXPECT=1 rewrites it):\n{}",
        stale.join("\n")
    );
}

/// Compares `got` with the expected file `name` under `tests/folder/`
/// (rewritten by `UPDATE_EXPECT=1`); a difference is pushed to `stale`.
fn expect(name: &str, got: &str, stale: &mut Vec<String>) {
    let path = root().join("preprocessor/tests/folder").join(name);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
    } else if std::fs::read_to_string(&path).ok().as_deref() != Some(got) {
        stale.push(format!("{name}:\n{got}"));
    }
}

/// A copy of the CPU folder with step 0017 (where the fusion pass forms
/// `broadcast_divide_fusion`) replaced by binary bytes, as the reviewer's
/// `binfolder`: 0017 is `not read`, 0018 `not compared` naming it, the
/// one problem lists it, and `--first` answers 0018 "or in an earlier file
/// that could not be read (0017)".
#[test]
fn a_copy_of_a_real_folder_with_a_binary_step() {
    let dir = std::env::temp_dir().join(format!("dumplab-cli-binstep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let p17 = "module_0000.jit_fn.0017.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt";
    for e in std::fs::read_dir(root().join(CPU)).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
        }
    }
    let bytes: Vec<u8> = (0..3000u32)
        .map(|i| ((i * 7919 + 13) % 256) as u8)
        .collect();
    std::fs::write(dir.join(p17), &bytes).unwrap();
    let d = dir.to_str().unwrap();
    let mut stale = Vec::new();
    expect("cpu_softmax.binary-0017.txt", &ok(&run(&[d])), &mut stale);
    expect(
        "cpu_softmax.binary-0017.first-broadcast_divide_fusion.txt",
        &ok(&run(&[d, "--first", "broadcast_divide_fusion"])),
        &mut stale,
    );
    let v = json(&run(&[d, "--json"]));
    let problems = v["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0]["path"], p17);
    let m = &v["modules"][0];
    assert_eq!(m["passes"][17]["why"], "not-read");
    assert_eq!(m["passes"][18]["why"], "before-not-read");
    let v = json(&run(&[d, "--json", "--first", "broadcast_divide_fusion"]));
    assert_eq!(v["found"]["step"], 18);
    assert_eq!(v["found"]["unread_before"], serde_json::json!([p17]));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        stale.is_empty(),
        "expected text differs (UPDATE_EXPECT=1 rewrites it):\n{}",
        stale.join("\n")
    );
}

#[test]
fn json_has_the_documented_fields() {
    for (dir, id, name, passes) in [
        (CPU, "module_0000", "jit_fn", 25),
        (GPU, "module_0001", "jit__lambda", 63),
        (TPU, "module_0000", "jit__lambda", 61),
    ] {
        let v = json(&run(&[dir, "--json"]));
        let m = &v["modules"][0];
        assert_eq!(m["id"], id);
        assert_eq!(m["name"], name);
        let ps = m["passes"].as_array().unwrap();
        assert_eq!(ps.len(), passes);
        for (i, p) in ps.iter().enumerate() {
            assert_eq!(p["step"], i, "{dir}");
            for key in [
                "pipeline", "pass", "next", "path", "changed", "delta", "why", "note",
            ] {
                assert!(p.get(key).is_some(), "{dir}: {key}");
            }
            // Every file has its file before it here: changed is known.
            assert!(p["changed"].is_boolean(), "{dir}: {p}");
            assert!(p["why"].is_null() && p["note"].is_null(), "{dir}: {p}");
            assert_eq!(p["delta"].is_object(), p["changed"] == true);
        }
        for f in m["files"].as_array().unwrap() {
            assert_ne!(f["kind"], "unknown", "{dir}: {f}");
            for key in ["path", "size", "parsed", "not_read"] {
                assert!(f.get(key).is_some(), "{dir}: {key}");
            }
        }
        assert!(m.get("memory").is_some());
        assert_eq!(v["unknown"].as_array().unwrap().len(), 0);
        assert_eq!(v["problems"].as_array().unwrap().len(), 0);
    }
}

#[test]
fn first_as_json() {
    let v = json(&run(&[
        CPU,
        "--json",
        "--module",
        "module_0000",
        "--first",
        "kLoop",
    ]));
    let f = &v["found"];
    assert_eq!(v["module"], "module_0000");
    assert_eq!(f["step"], 17);
    assert_eq!(f["pass"], "fusion");
    assert_eq!(f["matched"], "fusion kind");
    assert_eq!(f["count"], 2);
    assert!(
        f["previous"]
            .as_str()
            .unwrap()
            .contains(".0016.after_layout_assignment.")
    );
    let v = json(&run(&[CPU, "--json", "--first", "parameter"]));
    assert!(v["found"]["step"].is_null());
    assert!(v["found"]["previous"].is_null());
    assert!(
        v["found"]["path"]
            .as_str()
            .unwrap()
            .ends_with("before_optimizations.txt")
    );
    let v = json(&run(&[CPU, "--json", "--first", "all-reduce"]));
    assert!(v["found"].is_null());
    assert!(v["final"].is_null());
    let v = json(&run(&[TPU, "--json", "--first", "copy-start"]));
    assert!(v["found"].is_null());
    assert!(
        v["final"]
            .as_str()
            .unwrap()
            .ends_with(".cl_933746096.after_optimizations.txt")
    );
}

#[test]
fn errors_are_one_line() {
    one_error(
        &run(&[CPU, "--module", "jit_fm"]),
        "--module jit_fm: no module of that id or name in checker/tests/folders/cpu_softmax; did you mean jit_fn?",
    );
    one_error(
        &run(&[CPU, "--module", "zzzzzzzzzz"]),
        "its modules are module_0000 (jit_fn)",
    );
    one_error(
        &run(&["checker/tests/folders/none"]),
        "checker/tests/folders/none: not a folder; give the folder --xla_dump_to wrote",
    );
    one_error(
        &run(&[&format!("{CPU}/module_0000.jit_fn.debug_options")]),
        "not a folder",
    );
}

/// A folder made for the test: two modules, a binary `.txt`, a file
/// outside any module, a link, an escape sequence in a name.
#[test]
fn a_made_folder_with_binary_and_hostile_files() {
    let dir = std::env::temp_dir().join(format!("dumplab-cli-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cpu = root().join(CPU);
    for f in [
        "module_0000.jit_fn.before_optimizations.txt",
        "module_0000.jit_fn.0000.async-collective.after_pipeline-start.before_async-collective-replacer.txt",
    ] {
        std::fs::copy(cpu.join(f), dir.join(f)).unwrap();
    }
    std::fs::write(
        dir.join("module_0003.jit_g.before_optimizations.txt"),
        b"HloModule x\n\0\xff binary",
    )
    .unwrap();
    std::fs::write(dir.join("notes.md"), "hello").unwrap();
    std::fs::write(dir.join("module_0003.jit_g.\u{1b}[31mred.txt"), "x").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("/etc/passwd", dir.join("module_0003.jit_g.debug_options")).unwrap();
    let d = dir.to_str().unwrap();
    let v = json(&run(&[d, "--json"]));
    assert_eq!(v["modules"].as_array().unwrap().len(), 2);
    assert_eq!(v["unknown"][0], "notes.md");
    let g = &v["modules"][1];
    assert_eq!(g["id"], "module_0003");
    for f in g["files"].as_array().unwrap() {
        // The binary file and the link are listed, never parsed.
        assert_eq!(f["parsed"], false, "{f}");
    }
    // Each file not read says why; the binary before_optimizations (a kind
    // DumpLab parses) is one problem too, of the shape of a file over the
    // size limit. The link (debug_options, a kind only listed) is not.
    let not_read = |suffix: &str| {
        g["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"].as_str().unwrap().ends_with(suffix))
            .unwrap()["not_read"]
            .clone()
    };
    assert_eq!(
        not_read("before_optimizations.txt"),
        "not text (NUL bytes, or not UTF-8)"
    );
    #[cfg(unix)]
    assert_eq!(
        not_read("debug_options"),
        "a link or other special file (not followed)"
    );
    let problems = v["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0]["message"]
            .as_str()
            .unwrap()
            .contains("control character")
    );
    assert_eq!(
        problems[1]["path"],
        "module_0003.jit_g.before_optimizations.txt"
    );
    assert_eq!(
        problems[1]["message"],
        "21 bytes, not text (NUL bytes, or not UTF-8): listed, not read"
    );
    // The text escapes the name's control characters.
    let text = ok(&run(&[d]));
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("\\u{1b}[31mred"), "{text}");
    assert!(
        text.contains("0000       1 file, same text as the file before"),
        "{text}"
    );
    one_error(&run(&[d, "--first", "x"]), "--first needs --module");
    let _ = std::fs::remove_dir_all(&dir);
}
