//! `mdbook-dumplab collectives` through the built binary: the text of real
//! sharded dumps on the three targets (expected files under
//! `tests/collectives/`, rewritten by `UPDATE_EXPECT=1`), `--json` with the
//! documented fields, `--chip`, and errors as one line with exit 1.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .current_dir(root())
        .arg("collectives")
        .args(args)
        .output()
        .expect("spawn mdbook-dumplab")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn one_error(out: &Output, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(err.trim_end(), format!("mdbook-dumplab: error: {want}"));
}

fn expect(name: &str, got: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/collectives")
        .join(name);
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        got,
        want,
        "{} (UPDATE_EXPECT=1 rewrites it)",
        path.display()
    );
}

#[test]
fn the_text_of_each_target() {
    for (family, target) in [
        ("shard_map_ring", "gpu"),
        ("shard_map_ring", "tpu"),
        ("sharded_reshard", "cpu"),
        ("sharded_callback", "tpu"),
    ] {
        let dump = format!("fixtures/{family}/compiled.{target}.hlo.txt");
        let got = ok(&run(&[&dump]));
        expect(&format!("{family}.{target}.txt"), &got);
    }
}

#[test]
fn json_has_the_documented_fields() {
    let got = ok(&run(&[
        "--json",
        "--chip",
        "v5e",
        "fixtures/sharded_matmul/compiled.gpu.hlo.txt",
    ]));
    for field in [
        "\"schema\":1",
        "\"partitions\":4",
        "\"chip\":{\"name\":\"v5e\"",
        "\"interconnect\":{\"name\":\"ICI\"",
        "\"schedule\":\"pair-empty\"",
        "\"gpu_is_sync\":true",
        "\"payload_bytes\":131072",
        "\"at_least_bytes\":131072",
        "\"gpu_kernel_strategy\":\"KERNEL_STRATEGY_TRITON_ONE_SHOT\"",
        "\"origin\":\"reduction\"",
        "\"summary\":{\"count\":1",
    ] {
        assert!(got.contains(field), "{field} not in {got}");
    }
}

#[test]
fn errors_are_one_line() {
    one_error(
        &run(&[
            "--chip",
            "h10",
            "fixtures/shard_map_ring/compiled.gpu.hlo.txt",
        ]),
        "fixtures/shard_map_ring/compiled.gpu.hlo.txt: no chip preset `h10` (did you mean `h100`?): use one of v5e, v6e, h100, h200, a100",
    );
    let out = run(&["fixtures/shard_map_ring/lowered.stablehlo.mlir"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err.lines().count() == 1 && err.contains("expected compiled HLO"),
        "{err}"
    );
}
