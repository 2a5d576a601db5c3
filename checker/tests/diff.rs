//! The diff of two dumps (`dumplab::diff`) on real dumps: the rename and
//! dead-copy properties on every compiled fixture and undamaged drift dump,
//! real version pairs and backend pairs whose matches were read by hand,
//! lowered and jaxpr pairs, the errors, and linear work on a grown module.

#![allow(clippy::unwrap_used)]

mod diff_edit;

use dumplab::diff::compiled::CompiledDiff;
use dumplab::diff::json::to_json;
use dumplab::diff::lowered::LoweredDiff;
use dumplab::diff::report::{Body, DiffError, Side, with_diff};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Files `dir/*/NAME` whose name starts with `prefix` and ends with
/// `suffix`, sorted, as paths relative to the repository.
fn files(dir: &str, prefix: &str, suffix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for fam in std::fs::read_dir(root().join(dir)).unwrap().flatten() {
        let Ok(entries) = std::fs::read_dir(fam.path()) else {
            continue;
        };
        for f in entries.flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            if name.starts_with(prefix) && name.ends_with(suffix) {
                let fam = fam.file_name().to_string_lossy().into_owned();
                out.push(format!("{dir}/{fam}/{name}"));
            }
        }
    }
    out.sort();
    out
}

/// Every compiled fixture and every undamaged compiled drift dump.
fn compiled_dumps() -> Vec<String> {
    let mut all = files("fixtures", "compiled.", ".hlo.txt");
    all.extend(
        files("checker/tests/drift", "", ".hlo.txt")
            .into_iter()
            .filter(|p| {
                Path::new(p)
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().contains(".compiled."))
            }),
    );
    assert!(all.len() > 140, "{} compiled dumps", all.len());
    all
}

/// What a compiled diff found, by name: the shape tests compare against.
#[derive(Debug, Default, PartialEq)]
struct Found {
    /// (A, B) of every pair, in A's run order.
    matched: Vec<(String, String)>,
    /// (A, B) of the pairs that differ.
    changed: Vec<(String, String)>,
    /// A's name, B's names.
    split: Vec<(String, Vec<String>)>,
    /// A's names, B's name.
    merged: Vec<(Vec<String>, String)>,
    /// (name, kind) in B.
    added: Vec<(String, String)>,
    /// (name, kind) in A.
    removed: Vec<(String, String)>,
    /// `is_empty()`.
    empty: bool,
}

fn found(d: &CompiledDiff<'_>) -> Found {
    let (a, b) = (&d.a.items, &d.b.items);
    let m = &d.matching;
    let s = |x: &str| x.to_string();
    Found {
        matched: m
            .pairs
            .iter()
            .map(|p| (s(a[p.a].name), s(b[p.b].name)))
            .collect(),
        changed: d
            .changed
            .iter()
            .map(|(n, _)| m.pairs[*n])
            .map(|p| (s(a[p.a].name), s(b[p.b].name)))
            .collect(),
        split: m
            .split
            .iter()
            .map(|g| {
                (
                    s(a[g.whole].name),
                    g.parts.iter().map(|&j| s(b[j].name)).collect(),
                )
            })
            .collect(),
        merged: m
            .merged
            .iter()
            .map(|g| {
                (
                    g.parts.iter().map(|&i| s(a[i].name)).collect(),
                    s(b[g.whole].name),
                )
            })
            .collect(),
        added: m
            .added
            .iter()
            .map(|&j| (s(b[j].name), s(b[j].kind.as_str())))
            .collect(),
        removed: m
            .removed
            .iter()
            .map(|&i| (s(a[i].name), s(a[i].kind.as_str())))
            .collect(),
        empty: d.is_empty(),
    }
}

/// The compiled diff of two texts, as [`Found`], and its JSON.
fn compiled(a: &str, b: &str) -> (Found, serde_json::Value) {
    with_diff(a, b, None, |r| {
        let Body::Compiled(d) = &r.body else {
            panic!("not a compiled diff")
        };
        (found(d), serde_json::from_str(&to_json(r)).unwrap())
    })
    .unwrap()
}

#[test]
fn renaming_every_instruction_and_computation_gives_an_empty_diff() {
    let mut failed = Vec::new();
    for path in compiled_dumps() {
        let text = read(&path);
        for renamed in [diff_edit::rename(&text), diff_edit::rename_opaque(&text)] {
            assert_ne!(renamed, text, "{path}: nothing renamed");
            let (f, v) = compiled(&text, &renamed);
            if !f.empty || v["summary"]["empty"] != true {
                failed.push(format!("{path}: {}", v["summary"]));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn one_dead_copy_is_one_added_kernel_of_kind_copy() {
    let mut failed = Vec::new();
    for path in compiled_dumps() {
        let text = read(&path);
        let Some(b) = diff_edit::dead_copy(&text) else {
            failed.push(format!("{path}: no dead copy inserted"));
            continue;
        };
        let (f, v) = compiled(&text, &b);
        let want = vec![(diff_edit::DEAD.to_string(), "copy".to_string())];
        let s = &v["summary"];
        if f.added != want
            || !f.removed.is_empty()
            || !f.changed.is_empty()
            || !f.split.is_empty()
            || !f.merged.is_empty()
            || s["added"] != 1
            || s["removed"] != 0
            || v["introduced"]
                != serde_json::json!([{"name": diff_edit::DEAD, "line": v["kernels"]["added"][0]["line"], "what": "copy", "how": "added"}])
        {
            failed.push(format!(
                "{path}: added {:?} removed {:?} changed {:?} split {:?} merged {:?}",
                f.added, f.removed, f.changed, f.split, f.merged
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// What a pair's diff must find, read from the two dumps by hand.
struct Expect {
    /// Every matched pair (A's name, B's name), in A's run order.
    matched: &'static [(&'static str, &'static str)],
    /// The matched pairs that differ.
    changed: &'static [(&'static str, &'static str)],
    /// (A's name, B's names).
    split: &'static [(&'static str, &'static [&'static str])],
    /// (A's names, B's name).
    merged: &'static [(&'static [&'static str], &'static str)],
    /// B's rows with no partner (name, kind).
    added: &'static [(&'static str, &'static str)],
    /// A's rows with no partner (name, kind).
    removed: &'static [(&'static str, &'static str)],
    /// Matched rows that run in another order.
    reordered: u64,
    /// Whether nothing differs at all (rows and module).
    empty: bool,
}

fn owned(e: &Expect) -> Found {
    let s = |x: &str| x.to_string();
    let pairs = |v: &[(&str, &str)]| v.iter().map(|(a, b)| (s(a), s(b))).collect::<Vec<_>>();
    Found {
        matched: pairs(e.matched),
        changed: pairs(e.changed),
        split: e
            .split
            .iter()
            .map(|(a, b)| (s(a), b.iter().map(|x| s(x)).collect()))
            .collect(),
        merged: e
            .merged
            .iter()
            .map(|(a, b)| (a.iter().map(|x| s(x)).collect(), s(b)))
            .collect(),
        added: pairs(e.added),
        removed: pairs(e.removed),
        empty: e.empty,
    }
}

/// The diff of two real dumps finds what was read by hand.
fn check(a: &str, b: &str, expect: &Expect) {
    let (f, v) = compiled(&read(a), &read(b));
    let want = owned(expect);
    assert_eq!(f, want, "{a} vs {b}\n{v:#}");
    assert_eq!(v["summary"]["reordered"], expect.reordered, "{a} vs {b}");
}

const DRIFT: &str = "checker/tests/drift";

/// `mlp` (`relu(x @ w + b).sum(-1)`, `jax_fns.py:10`) on a CPU. jax 0.4.13
/// and 0.4.30 run a bare `dot.5` and one kLoop `fusion` (add, max, reduce);
/// jax 0.10.2 runs the dot as `ynn_fusion` (kCustom, `__ynn_fusion`) and the
/// same kLoop work as `maximum_reduce_fusion`: one pair changed (the dot
/// became a fusion), one the same.
const MLP: Expect = Expect {
    matched: &[("dot.5", "ynn_fusion"), ("fusion", "maximum_reduce_fusion")],
    changed: &[("dot.5", "ynn_fusion")],
    split: &[],
    merged: &[],
    added: &[],
    removed: &[],
    reordered: 0,
    empty: false,
};

/// `softmax` (`jax_fns.py:15`) on a CPU, jax 0.4.13 against 0.10.2. 0.4.13
/// runs the max as `reduce-window` + `reduce.8`, `fusion.1` (sub, exp), the
/// sum as `reduce-window.1` + `reduce.19`, and `fusion` (div). 0.10.2 wraps
/// each bare reduce in a kLoop fusion (`wrapped_reduce-window`,
/// `wrapped_reduce`, `wrapped_reduce-window.1`), keeps `fusion.1` as
/// `subtract_exponential_fusion` (same ops), and rewrites `x / sum` as
/// `x * (1 / sum)`: `reduce_divide_fusion` is the sum with the reciprocal
/// (`reduce_sum`, `div`), `broadcast_multiply_fusion` the multiply (`div`).
const SOFTMAX_0413: Expect = Expect {
    matched: &[
        ("reduce-window", "wrapped_reduce-window"),
        ("reduce.8", "wrapped_reduce"),
        ("fusion.1", "subtract_exponential_fusion"),
        ("reduce-window.1", "wrapped_reduce-window.1"),
        ("reduce.19", "reduce_divide_fusion"),
        ("fusion", "broadcast_multiply_fusion"),
    ],
    changed: &[
        ("reduce-window", "wrapped_reduce-window"),
        ("reduce.8", "wrapped_reduce"),
        ("reduce-window.1", "wrapped_reduce-window.1"),
        ("reduce.19", "reduce_divide_fusion"),
        ("fusion", "broadcast_multiply_fusion"),
    ],
    split: &[],
    merged: &[],
    added: &[],
    removed: &[],
    reordered: 0,
    empty: false,
};

/// `softmax` on a CPU, jax 0.4.30 against 0.10.2: 0.4.30 runs all of it as
/// one oneDNN call (`custom-call`, `__onednn$softmax`, `op_name` div, line
/// 15); 0.10.2 as the six kLoop fusions above: one kernel split into six.
const SOFTMAX_0430: Expect = Expect {
    matched: &[],
    changed: &[],
    split: &[(
        "custom-call",
        &[
            "wrapped_reduce-window",
            "wrapped_reduce",
            "subtract_exponential_fusion",
            "wrapped_reduce-window.1",
            "reduce_divide_fusion",
            "broadcast_multiply_fusion",
        ],
    )],
    merged: &[],
    added: &[],
    removed: &[],
    reordered: 0,
    empty: false,
};

/// `loop` (`fori_loop(0, n, c * 0.5 + sin(c))`, `jax_fns.py:20`) on a CPU,
/// jax 0.4.13 against 0.10.2: the two entry copies (the s32 counter, the
/// f32 carry; 0.4.13 copies the counter first), the `while`, in its
/// condition the compare (bare `compare.23`, 0.10.2's `wrapped_compare`
/// fusion), in its body the counter's add (bare `add.13`, `wrapped_add`) and
/// the kLoop fusion (mul, sin, add; `sine_add_fusion`, same ops). 0.4.13
/// runs the body's add before the fusion, 0.10.2 after it, and the copies
/// in the other order: two rows reordered. The `while` itself runs the same
/// opcodes through its callees and has the same provenance: unchanged.
const LOOP_0413: Expect = Expect {
    matched: &[
        ("copy.7", "copy.7"),
        ("copy.6", "copy.6"),
        ("while.24", "while.5"),
        ("compare.23", "wrapped_compare"),
        ("add.13", "wrapped_add"),
        ("fusion", "sine_add_fusion"),
    ],
    changed: &[("compare.23", "wrapped_compare"), ("add.13", "wrapped_add")],
    split: &[],
    merged: &[],
    added: &[],
    removed: &[],
    reordered: 2,
    empty: false,
};

/// `loop` on a CPU, jax 0.4.30 against 0.10.2: as 0.4.13, but 0.4.30 already
/// copies the carry first and runs the body's fusion before its add.
const LOOP_0430: Expect = Expect {
    matched: &[
        ("copy.6", "copy.6"),
        ("copy.7", "copy.7"),
        ("while.24", "while.5"),
        ("compare.23", "wrapped_compare"),
        ("fusion", "sine_add_fusion"),
        ("add.13", "wrapped_add"),
    ],
    changed: &[("compare.23", "wrapped_compare"), ("add.13", "wrapped_add")],
    split: &[],
    merged: &[],
    added: &[],
    removed: &[],
    reordered: 0,
    empty: false,
};

/// `softmax` on TPU v5e, jax 0.5.3 against 0.10.2: the same four rows
/// (`copy-start` of `x` into `S(1)`, the max as a bare `reduce`, the sum
/// fusion `fusion.1` (sub, exp, reduce_sum), the division fusion `fusion`
/// (sub, exp, div)), the same layouts and provenance: nothing changed but
/// the names (`reduce.10` is `reduce_max.7`).
const SOFTMAX_TPU_053: Expect = Expect {
    matched: &[
        ("copy-start", "copy-start"),
        ("reduce.10", "reduce_max.7"),
        ("fusion.1", "fusion.1"),
        ("fusion", "fusion"),
    ],
    changed: &[],
    split: &[],
    merged: &[],
    added: &[],
    removed: &[],
    reordered: 0,
    empty: true,
};

/// `mlp` on TPU v5e, jax 0.5.3 against 0.10.2: the `copy-start` of `w` and
/// one kOutput `fusion.1` (the dot as a convolution, add, max and reduce)
/// in both.
const MLP_TPU_053: Expect = Expect {
    matched: &[("copy-start", "copy-start"), ("fusion.1", "fusion.1")],
    changed: &[],
    split: &[],
    merged: &[],
    added: &[],
    removed: &[],
    reordered: 0,
    empty: true,
};

#[test]
fn jax_upgrades_match_the_kernels_read_by_hand() {
    for (f, expect) in [("softmax", &SOFTMAX_TPU_053), ("mlp", &MLP_TPU_053)] {
        check(
            &format!("{DRIFT}/jax-0.5.3/{f}.compiled.tpu.hlo.txt"),
            &format!("{DRIFT}/jax-0.10.2/{f}.compiled.tpu.hlo.txt"),
            expect,
        );
    }
    for (old, f, expect) in [
        ("jax-0.4.13", "mlp", &MLP),
        ("jax-0.4.30", "mlp", &MLP),
        ("jax-0.4.13", "softmax", &SOFTMAX_0413),
        ("jax-0.4.30", "softmax", &SOFTMAX_0430),
        ("jax-0.4.13", "loop", &LOOP_0413),
        ("jax-0.4.30", "loop", &LOOP_0430),
    ] {
        check(
            &format!("{DRIFT}/{old}/{f}.compiled.cpu.hlo.txt"),
            &format!("{DRIFT}/jax-0.10.2/{f}.compiled.cpu.hlo.txt"),
            expect,
        );
    }
}

/// `layernorm` on a CPU against H100: the CPU's five kernels (`ynn_fusion.1`
/// the mean's sum, `broadcast_subtract_fusion` x - mean,
/// `ynn_fusion` the sum of squares, `add_rsqrt_fusion`,
/// `broadcast_add_fusion` the scale and shift) are one Triton kCustom
/// `fusion.5` on the GPU, whose fused computation holds every one of their
/// `op_name`s.
const LAYERNORM_CPU_GPU: Expect = Expect {
    matched: &[],
    changed: &[],
    split: &[],
    merged: &[(
        &[
            "ynn_fusion.1",
            "broadcast_subtract_fusion",
            "ynn_fusion",
            "add_rsqrt_fusion",
            "broadcast_add_fusion",
        ],
        "fusion.5",
    )],
    added: &[],
    removed: &[],
    reordered: 0,
    empty: false,
};

/// `layernorm` on a CPU against TPU v5e. The TPU computes the mean as a
/// bare `reduce_sum.14` (`reduce_sum`) and `broadcast_multiply_fusion`
/// (`div`, the division by 1024, f32[256]); the variance's `x - mean` moved
/// into its sum of squares (`multiply_reduce_fusion`: sub, square,
/// reduce_sum); and it moves `x`, `gamma` and `beta` into memory space
/// `S(1)` with three `copy-start`/`copy-done` pairs (one row each).
///
/// Read first as "`broadcast_subtract_fusion` and `ynn_fusion` merged into
/// `multiply_reduce_fusion`, `broadcast_multiply_fusion` added": wrong, the
/// CPU's `broadcast_subtract_fusion` holds the `div` as well (its fused
/// computation `fused_computation.4` carries `jit(fn)/div` and
/// `jit(fn)/sub`), which the TPU runs in `broadcast_multiply_fusion`, not in
/// `multiply_reduce_fusion`. Each CPU kernel has one TPU partner, and the
/// `sub` moved from one pair to the other (`op_names_out` of the first,
/// `op_names_in` of the second), as the diff says.
const LAYERNORM_CPU_TPU: Expect = Expect {
    matched: &[
        ("ynn_fusion.1", "reduce_sum.14"),
        ("broadcast_subtract_fusion", "broadcast_multiply_fusion"),
        ("ynn_fusion", "multiply_reduce_fusion"),
        ("add_rsqrt_fusion", "add_rsqrt_fusion"),
        ("broadcast_add_fusion", "multiply_add_fusion"),
    ],
    changed: &[
        ("ynn_fusion.1", "reduce_sum.14"),
        ("broadcast_subtract_fusion", "broadcast_multiply_fusion"),
        ("ynn_fusion", "multiply_reduce_fusion"),
        ("add_rsqrt_fusion", "add_rsqrt_fusion"),
        ("broadcast_add_fusion", "multiply_add_fusion"),
    ],
    split: &[],
    merged: &[],
    added: &[
        ("copy-start", "copy"),
        ("copy-start.1", "copy"),
        ("copy-start.2", "copy"),
    ],
    removed: &[],
    reordered: 0,
    empty: false,
};

/// `layernorm` on H100 against TPU v5e: the one Triton fusion is the TPU's
/// five kernels (every one of their `op_name`s is in it); the TPU's three
/// copies into `S(1)` have no partner.
const LAYERNORM_GPU_TPU: Expect = Expect {
    matched: &[],
    changed: &[],
    split: &[(
        "fusion.5",
        &[
            "reduce_sum.14",
            "broadcast_multiply_fusion",
            "multiply_reduce_fusion",
            "add_rsqrt_fusion",
            "multiply_add_fusion",
        ],
    )],
    merged: &[],
    added: &[
        ("copy-start", "copy"),
        ("copy-start.1", "copy"),
        ("copy-start.2", "copy"),
    ],
    removed: &[],
    reordered: 0,
    empty: false,
};

/// `vmap_fn` (`y = m @ v; y / norm(y)` over a batch) on H100 against TPU
/// v5e. The GPU runs the matvec as `gemm_fusion_dot` (`dot_general`) and
/// the norm and division as one Triton `triton_softmax.1`; the TPU runs the
/// matvec and the norm's sum of squares as one multi-output
/// `multiply_reduce_fusion` (`dot_general`, `reduce_sum`), then `sqrt.3`
/// and `divide_bitcast_fusion` (`div`), after a `copy-start` of `m`. The
/// work regrouped many to many (two kernels into three, the boundary moved
/// into the norm), which one whole and its parts cannot say: two groups
/// fit, the split of `triton_softmax.1` into the three TPU kernels (four
/// rows) and the merge of both GPU kernels into `multiply_reduce_fusion`
/// (three rows); the diff keeps the one that holds more rows, whichever
/// side is A, and lists `gemm_fusion_dot` as removed although its dot runs
/// in `multiply_reduce_fusion`.
const VMAP_GPU_TPU: Expect = Expect {
    matched: &[],
    changed: &[],
    split: &[(
        "triton_softmax.1",
        &["multiply_reduce_fusion", "sqrt.3", "divide_bitcast_fusion"],
    )],
    merged: &[],
    added: &[("copy-start", "copy")],
    removed: &[("gemm_fusion_dot", "fusion")],
    reordered: 0,
    empty: false,
};

#[test]
fn one_function_on_three_backends_matches_the_kernels_read_by_hand() {
    check(
        "fixtures/vmap_fn/compiled.gpu.hlo.txt",
        "fixtures/vmap_fn/compiled.tpu.hlo.txt",
        &VMAP_GPU_TPU,
    );
    let l = |b: &str| format!("fixtures/layernorm/compiled.{b}.hlo.txt");
    check(&l("cpu"), &l("gpu"), &LAYERNORM_CPU_GPU);
    check(&l("cpu"), &l("tpu"), &LAYERNORM_CPU_TPU);
    check(&l("gpu"), &l("tpu"), &LAYERNORM_GPU_TPU);
}

/// A bare `reduce` runs a `reduce` (the kernel tree lists only its reducer's
/// `add`): the TPU's `reduce_sum.14` against the CPU's `ynn_fusion.1` once
/// said "no longer runs reduce".
#[test]
fn a_bare_reduce_runs_its_own_opcode() {
    let (a, b) = (
        read("fixtures/layernorm/compiled.cpu.hlo.txt"),
        read("fixtures/layernorm/compiled.tpu.hlo.txt"),
    );
    with_diff(&a, &b, None, |r| {
        let Body::Compiled(d) = &r.body else { panic!() };
        let ops = |name: &str| {
            let i = d.b.items.iter().find(|i| i.name == name).unwrap();
            i.ops.clone()
        };
        assert_eq!(ops("reduce_sum.14"), ["add", "reduce"]);
        let (n, c) = d
            .changed
            .iter()
            .find(|(n, _)| d.b.items[d.matching.pairs[*n].b].name == "reduce_sum.14")
            .unwrap();
        assert!(c.ops_out.is_empty() && c.ops_in.is_empty(), "{n}: {c:?}");
    })
    .unwrap();
}

/// Prints what the diff of two dumps found (a tool for reading a pair by
/// hand): `DIFF_A=PATH DIFF_B=PATH cargo test -p dumplab --test diff
/// print_pair -- --ignored --nocapture`, paths from the repository root.
#[test]
#[ignore]
fn print_pair() {
    let a = std::env::var("DIFF_A").unwrap();
    let b = std::env::var("DIFF_B").unwrap();
    let (f, v) = compiled(&read(&a), &read(&b));
    println!("{f:#?}\n{:#}", v["kernels"]);
}

/// The lowered or jaxpr diff of two texts.
fn lowered(a: &str, b: &str) -> (LoweredDiff, serde_json::Value) {
    with_diff(a, b, None, |r| {
        let Body::Lowered(d) = &r.body else {
            panic!("not a lowered diff")
        };
        (d.clone(), serde_json::from_str(&to_json(r)).unwrap())
    })
    .unwrap()
}

/// Every SSA value and argument of a StableHLO module renamed (`%0` to
/// `%v_0`, `%arg0` to `%v_arg0`, `%cst` to `%v_cst`): a consistent rename.
fn rename_ssa(text: &str) -> String {
    text.replace('%', "%v_")
}

#[test]
fn a_lowered_program_or_jaxpr_against_itself_is_the_same_program() {
    for (path, kind, format) in [
        (
            "fixtures/softmax/lowered.stablehlo.mlir",
            "lowered",
            "stablehlo",
        ),
        (
            "fixtures/layernorm/lowered.stablehlo.mlir",
            "lowered",
            "stablehlo",
        ),
        (
            "fixtures/scan_rnn/lowered.stablehlo.mlir",
            "lowered",
            "stablehlo",
        ),
        ("fixtures/softmax/lowered.hlo.txt", "lowered", "hlo"),
        ("fixtures/softmax/jaxpr.txt", "jaxpr", "jaxpr"),
        ("fixtures/scan_rnn/jaxpr.txt", "jaxpr", "jaxpr"),
        (
            "checker/tests/drift/jax-0.4.13/loop.lowered.mhlo.mlir",
            "lowered",
            "stablehlo",
        ),
    ] {
        let text = read(path);
        let (d, v) = lowered(&text, &text);
        assert!(d.same_program(), "{path}: {v}");
        assert!(d.ops.0 > 0, "{path}: no ops read");
        assert_eq!(
            (v["kind"].as_str(), v["format"].as_str()),
            (Some(kind), Some(format)),
            "{path}"
        );
        assert_eq!(v["summary"]["same_program"], true);
        assert_eq!(v["summary"]["lines_changed"], 0);
        // Lowered HLO proves no kind (only hints): compared as lowered
        // programs all the same, and the report says so.
        assert_eq!(v["kind_unproved"], format == "hlo", "{path}");
        if format != "jaxpr" && format != "hlo" {
            let (d, v) = lowered(&text, &rename_ssa(&text));
            assert!(d.same_program(), "{path} renamed: {v}");
        }
    }
}

#[test]
fn two_functions_lowered_are_not_the_same_program() {
    for (a, b) in [
        (
            "fixtures/softmax/lowered.stablehlo.mlir",
            "fixtures/layernorm/lowered.stablehlo.mlir",
        ),
        (
            "fixtures/softmax/lowered.hlo.txt",
            "fixtures/layernorm/lowered.hlo.txt",
        ),
        (
            "fixtures/softmax/jaxpr.txt",
            "fixtures/log_softmax/jaxpr.txt",
        ),
        (
            "fixtures/matmul/jaxpr.txt",
            "fixtures/matmul_bias_relu/jaxpr.txt",
        ),
    ] {
        let (d, v) = lowered(&read(a), &read(b));
        assert!(!d.same_program(), "{a} vs {b}: {v}");
        assert!(
            v["summary"]["lines_changed"].as_u64() > Some(0),
            "{a} vs {b}: {v}"
        );
    }
    // softmax [512,1024] against layernorm's three parameters
    let (d, _) = lowered(
        &read("fixtures/softmax/lowered.hlo.txt"),
        &read("fixtures/layernorm/lowered.hlo.txt"),
    );
    assert_eq!(
        d.signature,
        Some((
            vec!["f32[512,1024]".to_string()],
            vec![
                "f32[256,1024]".into(),
                "f32[1024]".into(),
                "f32[1024]".into()
            ]
        ))
    );
}

/// The lowered StableHLO of `mlp` under jax 0.4.13 and 0.10.2: the same ten
/// operations (the drift corpus prints them without locations, so compared
/// as one program).
#[test]
fn mlp_lowered_under_two_releases_is_the_same_program() {
    let (d, v) = lowered(
        &read("checker/tests/drift/jax-0.4.13/mlp.lowered.stablehlo.mlir"),
        &read("checker/tests/drift/jax-0.10.2/mlp.lowered.stablehlo.mlir"),
    );
    assert!(d.same_program(), "{v}");
    assert_eq!(d.ops, (10, 10));
    assert!(d.unlocated);
}

#[test]
fn dumps_of_two_kinds_unknown_text_and_unknown_chips_are_one_sentence_each() {
    let c = read("fixtures/softmax/compiled.cpu.hlo.txt");
    let l = read("fixtures/softmax/lowered.stablehlo.mlir");
    let j = read("fixtures/softmax/jaxpr.txt");
    let h = read("fixtures/softmax/lowered.hlo.txt");
    let kinds = "a diff compares two dumps of one kind (two compiled HLO modules, two StableHLO modules, two HLO modules before optimization or two jaxprs)";
    let unknown = "text of unknown kind (No line looks like a jaxpr (`{ lambda ... let`), StableHLO (`stablehlo.` ops, `tensor<...>`) or HLO (`name = shape opcode(...)`).): nothing to compare";
    // The last column: the compiled side when the other is lowered (the
    // pair the source map reads instead).
    for (a, b, chip, expect, side) in [
        (
            &*c,
            &*l,
            None,
            format!("A is compiled HLO, B is a lowered (StableHLO) module: {kinds}"),
            Some(Side::A),
        ),
        (
            &*l,
            &*c,
            None,
            format!("A is a lowered (StableHLO) module, B is compiled HLO: {kinds}"),
            Some(Side::B),
        ),
        (
            &*j,
            &*l,
            None,
            format!("A is a jaxpr, B is a lowered (StableHLO) module: {kinds}"),
            None,
        ),
        (
            &*j,
            &*c,
            None,
            format!("A is a jaxpr, B is compiled HLO: {kinds}"),
            Some(Side::B),
        ),
        (
            &*c,
            &*h,
            None,
            format!(
                "A is compiled HLO, B is HLO before optimization (likely, not proved: only hints say so): {kinds}"
            ),
            Some(Side::A),
        ),
        (&*h, "hello world", None, format!("B is {unknown}"), None),
        (&*c, "hello world", None, format!("B is {unknown}"), None),
        ("", &*c, None, format!("A is {unknown}"), None),
        (
            &*c,
            &*c,
            Some("nope"),
            "no chip preset `nope`: use one of v5e, v6e, h100, h200, a100".to_string(),
            None,
        ),
    ] {
        let got = with_diff(a, b, chip, |_| ()).err();
        assert_eq!(
            got,
            Some(DiffError {
                message: expect,
                compiled_side: side
            })
        );
    }
}

/// The renamer on real lines: every name a line defines or refers to (by
/// `%name`, `calls=`, `to_apply=`, `condition=`, `body=`,
/// `branch_computations={...}`, a computation's parameter list) is renamed,
/// the `op_name`s and source lines are kept.
#[test]
fn the_renamer_renames_every_reference_on_real_lines() {
    for (path, line, gone, kept) in [
        (
            "fixtures/cond_branch/compiled.cpu.hlo.txt",
            78,
            &[
                "%cond.1.clone ",
                "%compare_convert_fusion,",
                "%tuple.2,",
                "%region_1.2,",
                "%region_2.3}",
            ][..],
            &[
                "branch_computations={%region_1.",
                "op_name=\"jit(fn)/cond\"",
            ][..],
        ),
        (
            "fixtures/fori_loop_while/compiled.cpu.hlo.txt",
            69,
            &[
                "%while.5 ",
                "(%tuple)",
                "condition=%region_1.2,",
                "body=%region_0.1,",
            ][..],
            &["condition=%region_1.", "op_name=\"jit(fn)/while\""][..],
        ),
        (
            "checker/tests/drift/jax-0.4.13/softmax.compiled.cpu.hlo.txt",
            15,
            &["%fused_computation ", "param_0:", "param_1.1:"][..],
            &["%fused_computation.", "param_0.", "f32[8,128]"][..],
        ),
        (
            "checker/tests/drift/jax-0.4.13/softmax.compiled.cpu.hlo.txt",
            3,
            &["%region_0.4 ", "Arg_0.5:", "Arg_1.6:"][..],
            &["%region_0.", "-> f32[]"][..],
        ),
    ] {
        let text = read(path);
        let renamed = diff_edit::rename(&text);
        let before = text.lines().nth(line - 1).unwrap();
        let after = renamed.lines().nth(line - 1).unwrap();
        for g in gone {
            assert!(
                before.contains(g),
                "{path}:{line}: the row's {g:?} is not on the line"
            );
            assert!(!after.contains(g), "{path}:{line}: {g:?} kept in {after}");
        }
        for k in kept {
            assert!(after.contains(k), "{path}:{line}: {k:?} lost in {after}");
        }
    }
}

#[path = "../benches/scale/mod.rs"]
mod scale;

/// `text` grown to `copies` copies of its computations and entry
/// instructions, copy K under the named scope `layer_K` (the benches'
/// `scale_scoped`, asked for the bytes of exactly that many copies).
fn grown(text: &str, copies: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let entry_at = lines.iter().position(|l| l.starts_with("ENTRY ")).unwrap();
    let first = lines
        .iter()
        .position(|l| l.starts_with('%') && l.trim_end().ends_with('{'))
        .unwrap_or(entry_at);
    let end = lines[entry_at..]
        .iter()
        .position(|l| l.trim() == "}")
        .map_or(lines.len(), |p| entry_at + p);
    let per_copy: usize = lines[first..entry_at]
        .iter()
        .chain(&lines[entry_at + 1..end])
        .map(|l| l.len() + 1)
        .sum();
    scale::scale_scoped(text, (copies - 1) * per_copy)
}

/// The matcher's work, rows and whether it stopped, for the grown CPU and
/// TPU modules of `random_normal` (the CPU dump with the most metadata).
fn grown_pair(copies: usize) -> (usize, usize, bool, Found) {
    let a = grown(&read("fixtures/random_normal/compiled.cpu.hlo.txt"), copies);
    let b = grown(&read("fixtures/random_normal/compiled.tpu.hlo.txt"), copies);
    with_diff(&a, &b, None, |r| {
        let Body::Compiled(d) = &r.body else { panic!() };
        let m = &d.matching;
        (
            m.work,
            d.a.items.len() + d.b.items.len(),
            m.truncated,
            found(d),
        )
    })
    .unwrap()
}

/// Twice the copies, about twice the matcher's work (counted, not timed),
/// and never its budget.
#[test]
fn doubling_a_module_pair_doubles_the_matchers_work() {
    let (w1, n1, t1, f1) = grown_pair(40);
    let (w2, n2, t2, f2) = grown_pair(80);
    assert!(!t1 && !t2, "stopped at the budget");
    assert_eq!(n2, 2 * n1, "rows");
    let ratio = w2 as f64 / w1 as f64;
    assert!(
        (1.8..2.2).contains(&ratio),
        "work {w1} -> {w2} ({ratio:.2}x)"
    );
    assert_eq!(f2.matched.len(), 2 * f1.matched.len());
    assert_eq!(f2.added.len(), 2 * f1.added.len());
    println!("work {w1} -> {w2} ({ratio:.2}x) for {n1} -> {n2} rows");
}

/// An edit that keeps every opcode, shape and provenance but changes what an
/// instruction says is a change, never "no change": the reduction axis of
/// the real code-change pair, a constant edited in place, and the same in
/// the lowered forms (jaxpr, StableHLO, HLO before optimization).
#[test]
fn an_edited_attribute_or_constant_is_a_change() {
    let before = read("fixtures/change_reduce_axis_before/compiled.cpu.hlo.txt");
    let after = read("fixtures/change_reduce_axis_after/compiled.cpu.hlo.txt");
    let (_, j) = compiled(&before, &after);
    let changed = &j["kernels"]["changed"][0]["changes"];
    assert_eq!(
        changed["details_out"],
        serde_json::json!(["reduce dimensions={1}"]),
        "{j}"
    );
    assert_eq!(
        changed["details_in"],
        serde_json::json!(["reduce dimensions={0}"]),
        "{j}"
    );
    // One literal edited, nothing else: the fusion that holds it changed.
    let text = read("fixtures/change_fusion_break_before/compiled.cpu.hlo.txt");
    let two = "f32[] constant(2)";
    assert!(text.contains(two), "the fixture multiplies by 2");
    let (f, j) = compiled(&text, &text.replacen(two, "f32[] constant(3)", 1));
    assert!(!f.empty, "{j}");
    let c = &j["kernels"]["changed"][0]["changes"];
    assert_eq!(c["details_in"], serde_json::json!(["constant 3"]), "{j}");
    assert_eq!(c["details_out"], serde_json::json!(["constant 2"]), "{j}");
    for file in ["jaxpr.txt", "lowered.stablehlo.mlir", "lowered.hlo.txt"] {
        let a = read(&format!("fixtures/change_reduce_axis_before/{file}"));
        let b = read(&format!("fixtures/change_reduce_axis_after/{file}"));
        let (d, _) = lowered(&a, &b);
        assert!(!d.same_program(), "{file}: sum(axis=1) against sum(axis=0)");
    }
}

/// A transpose fusion XLA:GPU adds is an introduced transpose; the same
/// code on other source lines of its file is the same program, and says it
/// moved.
#[test]
fn a_transpose_fusion_is_introduced_and_moved_code_is_the_same_program() {
    let (_, j) = compiled(
        &read("fixtures/conv2d/compiled.cpu.hlo.txt"),
        &read("fixtures/conv2d/compiled.gpu.hlo.txt"),
    );
    let introduced: Vec<(&str, &str)> = j["introduced"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["name"].as_str().unwrap(), x["what"].as_str().unwrap()))
        .collect();
    assert!(
        introduced.contains(&("wrapped_transpose", "transpose")),
        "{j}"
    );
    let (d, j) = lowered(
        &read("fixtures/matmul_bias_relu/lowered.stablehlo.mlir"),
        &read("fixtures/matmul_cublas_epilogue/lowered.stablehlo.mlir"),
    );
    assert!(d.moved && d.same_program(), "{j}");
    assert_eq!(j["summary"]["moved"], true);
    // A change on top of the move is still a change.
    let (d, _) = lowered(
        &read("fixtures/change_transpose_before/lowered.stablehlo.mlir"),
        &read("fixtures/change_transpose_after/lowered.stablehlo.mlir"),
    );
    assert!(!d.moved && !d.same_program());
}
