//! The ledger's rules on real instructions, each figure worked by hand in
//! the comment beside it (XLA's rules: `xla/service/hlo_cost_analysis.cc`;
//! DumpLab's estimate: `cost::estimate`). The module totals are checked
//! against XLA itself in `tests/cost.rs`; these pin each rule.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use dumplab::cost::ledger::{self, Entry};

use dumplab::cost::report::with_report;
use dumplab::cost::xla::Xla;
use dumplab::program;
use std::path::Path;

fn dump(file: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    std::fs::read_to_string(root.join(file)).unwrap()
}

/// XLA's figures of one instruction (by name) of a fixture dump:
/// `(flops, transcendentals, bytes)`.
fn check(file: &str, name: &str, expect: (f64, f64, f64)) {
    let text = dump(file);
    let m = program::parse(&text);
    let ins = m
        .instructions
        .iter()
        .find(|i| i.name == name)
        .unwrap_or_else(|| panic!("{file}: no instruction {name}"));
    let mut x = Xla::new(&m);
    let f = x.instruction(ins.id);
    let got = (f.flops.xla(), f.transcendentals.xla(), f.bytes.xla());
    assert_eq!(got, expect, "{file} {name}");
    assert_eq!(x.unread, 0, "{file} {name}: unread");
}

#[test]
fn xla_rules_on_real_instructions() {
    // dot: 2 * 256*512 outputs * 512 (lhs contracting dim); bytes: bf16
    // 256x512 (262144) + bf16 512x512 (524288) + f32 256x512 out (524288).
    check(
        "bf16_mixed/compiled.cpu.hlo.txt",
        "dot_general.0",
        (134_217_728.0, 0.0, 1_310_720.0),
    );
    // convolution 3x3, pad 1, 32x32: 31+32+31 = 94 valid positions per
    // spatial dim; 16 in * 32 out features * batch 8 * 94^2 FMAs, 2 flops
    // each; bytes 524288 + 18432 + 1048576.
    check(
        "conv2d/compiled.cpu.hlo.txt",
        "conv_general_dilated.0",
        (72_384_512.0, 0.0, 1_591_296.0),
    );
    // variadic reduce (argmax): the reducer's 9 elementwise ops (4 compare,
    // 2 or, 1 and, 2 select) per application, 256*1000 - 256 applications;
    // bytes: f32 and s32 256x1000 in, two scalar inits, (f32[256], s32[256]) out.
    check(
        "argmax/compiled.cpu.hlo.txt",
        "reduce.2",
        (2_301_696.0, 0.0, 2_050_056.0),
    );
    // gather: output (f32 256x1x64 = 65536) twice plus its indices (s32 256x1).
    check(
        "gather_take/compiled.cpu.hlo.txt",
        "gather.3",
        (0.0, 0.0, 132_096.0),
    );
    // scatter: updates (f32 128x1x32 = 16384) three times plus the indices
    // (s32 128x1 = 512); one add per update element.
    check(
        "scatter_add/compiled.cpu.hlo.txt",
        "scatter-add.0",
        (4096.0, 0.0, 49_664.0),
    );
    // reduce-window 1x1x16 over f32 64x32x16, padded low 15 (no shortcut:
    // pad_high is 0): 15 adds per output element; bytes in + init + out.
    check(
        "cumsum/compiled.cpu.hlo.txt",
        "reduce-window.4",
        (491_520.0, 0.0, 262_148.0),
    );
    // dynamic-update-slice: the update (f32 1x128) twice plus operand 2,
    // one s32 index (XLA counts only the first index operand).
    check(
        "dynamic_update_loop/compiled.cpu.hlo.txt",
        "dynamic_update_slice.5",
        (0.0, 0.0, 1028.0),
    );
    // a fusion whose root is that dynamic-update-slice: param_0 is updated
    // in place (not read), param_1.1 (s32) read once by its four users,
    // param_2.4 (f32 128) once; the output writes only the update (512).
    // Flops: convert 1, multiply 128, compare 1, add 1, select 1.
    check(
        "dynamic_update_loop/compiled.cpu.hlo.txt",
        "select_dynamic-update-slice_fusion",
        (132.0, 0.0, 1028.0),
    );
    // a slice reads only what it keeps: f32 64x2 out, twice.
    check("cumsum/compiled.cpu.hlo.txt", "slice.5", (0.0, 0.0, 1024.0));
    // XLA:TPU's asynchronous slice: XLA costs the slice it wraps, f32
    // 2x1024x128 (1048576 bytes, the output tuple's second element) read
    // and written once, not the f32 8x1024x128 operand; its slice-done is
    // the default: the start's tuple (an index table of 3 elements, 24
    // bytes) plus its f32 2x1024x128 result.
    check(
        "kv_cache_decode/compiled.tpu.hlo.txt",
        "slice-start.4",
        (0.0, 0.0, 2_097_152.0),
    );
    check(
        "kv_cache_decode/compiled.tpu.hlo.txt",
        "slice-done.4",
        (0.0, 0.0, 1_048_600.0),
    );
    // a custom call: XLA adds -1 flops and -1 bytes.
    check(
        "matmul_cublas_epilogue/compiled.gpu.hlo.txt",
        "cublas-lt-matmul.2",
        (-1.0, 0.0, -1.0),
    );
}

/// The ledger entry of a kernel by name.
fn entry<'a>(l: &'a ledger::Ledger<'_>, name: &str) -> &'a Entry<'a> {
    l.kernels.iter().find(|e| e.name == name).unwrap()
}

#[test]
fn a_slice_start_reads_its_slice_from_hbm_and_writes_it_on_chip() {
    let text = dump("kv_cache_decode/compiled.tpu.hlo.txt");
    with_report(&text, None, |r| {
        // slice={[0:2], [0:1024], [0:128]} of v_cache: f32 2x1024x128,
        // 1048576 bytes read from HBM and written to S(1), whose T(8,128)
        // tiles it fills exactly (no padding).
        let e = entry(&r.ledger, "slice-start.4");
        assert_eq!(e.estimate.figures.bytes.known, 2_097_152.0);
        assert_eq!(e.estimate.bytes_on_chip, 1_048_576.0);
        assert_eq!(e.estimate.bytes_padded.known, 2_097_152.0);
    })
    .unwrap();
}

#[test]
fn cublas_gemm_is_costed_from_its_dot_dimensions() {
    let text = dump("matmul_cublas_epilogue/compiled.gpu.hlo.txt");
    with_report(&text, None, |r| {
        let e = entry(&r.ledger, "cublas-lt-matmul.2");
        // x f32[512,768] @ w f32[768,1024]: 2*512*1024*768 flops, plus the
        // BIAS_RELU epilogue, one flop per output element per step.
        assert_eq!(
            e.estimate.figures.flops.known,
            2.0 * 512.0 * 1024.0 * 768.0 + 2.0 * 512.0 * 1024.0
        );
        assert_eq!(e.estimate.figures.flops.unknown, 0);
        // x 1572864 + w 3145728 + b 4096 + out 2097152; the s8 workspace
        // (4 MiB) left out.
        assert_eq!(e.estimate.figures.bytes.known, 6_819_840.0);
        assert_eq!((e.xla.flops.unknown, e.xla.bytes.unknown), (1, 1));
        assert_eq!(r.chip.chip.map(|c| c.name), Some("h100"));
    })
    .unwrap();
}

#[test]
fn cudnn_convolution_is_costed_as_xla_costs_a_convolution() {
    let text = dump("conv2d/compiled.gpu.hlo.txt");
    with_report(&text, None, |r| {
        let e = entry(&r.ledger, "cudnn-conv.1");
        // The same convolution XLA:CPU keeps as a `convolution` (see
        // `xla_rules_on_real_instructions`): 72,384,512 flops, from the
        // custom call's own window and dim_labels.
        assert_eq!(e.estimate.figures.flops.known, 72_384_512.0);
        assert_eq!(e.estimate.figures.flops.unknown, 0);
        // x f32[8,32,32,16] 524288 + filter f32[32,3,3,16] 18432 + result
        // f32[8,32,32,32] 1048576; the u8[0] scratch left out.
        assert_eq!(e.estimate.figures.bytes.known, 1_591_296.0);
    })
    .unwrap();
}

#[test]
fn pallas_kernel_takes_its_stated_cost_estimate() {
    let text = dump("pallas_cost_estimate/compiled.tpu.hlo.txt");
    with_report(&text, None, |r| {
        let e = r
            .ledger
            .kernels
            .iter()
            .find(|e| e.kind.as_str() == "pallas")
            .unwrap();
        let f = e.estimate.figures;
        // cost_estimate=pl.CostEstimate(flops=262144, transcendentals=262144,
        // bytes_accessed=3145728), as function.py states it.
        assert_eq!(
            (f.flops.known, f.transcendentals.known, f.bytes.known),
            (262_144.0, 262_144.0, 3_145_728.0)
        );
        assert_eq!(r.chip.chip.map(|c| c.name), Some("v5e"));
    })
    .unwrap();
    // Without an estimate, the flops are unknown, never 0.
    let text = dump("pallas_matmul/compiled.gpu.hlo.txt");
    with_report(&text, None, |r| {
        let e = r
            .ledger
            .kernels
            .iter()
            .find(|e| e.kind.as_str() == "pallas")
            .unwrap();
        assert_eq!(e.estimate.figures.flops.unknown, 1);
        let roof = &r.roof.as_ref().unwrap().kernels;
        let i = r
            .ledger
            .kernels
            .iter()
            .position(|k| k.name == e.name)
            .unwrap();
        assert_eq!(roof[i].bound, None);
    })
    .unwrap();
}

#[test]
fn loop_kernels_run_once_per_stated_trip() {
    let text = dump("fori_loop_static/compiled.gpu.hlo.txt");
    with_report(&text, None, |r| {
        // known_trip_count n=4: the body's kernels run 4 times; XLA:GPU's
        // WhileThunk runs a counted loop without its condition (0 runs).
        // XLA's cost model counts each once.
        assert_eq!(entry(&r.ledger, "loop_tanh_fusion").runs, Some(4));
        assert_eq!(entry(&r.ledger, "loop_compare_fusion").runs, Some(0));
        let tanh = entry(&r.ledger, "loop_tanh_fusion");
        assert_eq!(
            tanh.total().figures.transcendentals.known,
            4.0 * tanh.xla.transcendentals.known
        );
        // 2 body kernels x 4 launches; the two copies are memcpys on a GPU.
        assert_eq!(r.roof.as_ref().unwrap().kernel_runs, 8);
    })
    .unwrap();
    // XLA:TPU's `while` states no trip count: the body's kernels run the 4
    // trips its counter implies (and say so); the condition's, which the
    // dump does not say how the TPU runs, are counted once as XLA does.
    let text = dump("fori_loop_static/compiled.tpu.hlo.txt");
    with_report(&text, None, |r| {
        let has = |e: &Entry<'_>, id: &str| e.estimate.reasons.iter().any(|r| r.id() == id);
        for name in ["add.12", "add_tanh_fusion.2"] {
            let e = entry(&r.ledger, name);
            assert_eq!(e.runs, Some(4), "{name}");
            assert!(has(e, "trip-count-derived"), "{name}");
        }
        let cond = entry(&r.ledger, "lt.0");
        assert_eq!(cond.runs, None);
        assert!(has(cond, "trip-count-unknown"));
    })
    .unwrap();
}

#[test]
fn tpu_tiles_pad_and_on_chip_arrays_stay_off_hbm() {
    let text = dump("cumsum/compiled.tpu.hlo.txt");
    with_report(&text, None, |r| {
        let e = entry(&r.ledger, "reduce-window.1");
        // XLA: out f32[64,5] 1280 + in f32[64,4] 1024 + init f32[] 4.
        assert_eq!(e.xla.bytes.known, 2308.0);
        // Tiles: out {0,1:T(8,128)} is 5x64 physically, padded to 8x128
        // (4096); in {0,1:T(4,128)} 4x64 to 4x128 (2048); the scalar
        // f32[]{:T(128)} to one 128-element tile (512).
        assert_eq!(e.estimate.bytes_padded.known, 6656.0);
        // out and in are in S(1): 4096 + 2048 bytes on chip; 512 from HBM.
        assert_eq!(e.estimate.bytes_on_chip, 6144.0);
        assert_eq!(e.estimate.hbm_bytes().known, 512.0);
    })
    .unwrap();
}

#[test]
fn not_compiled_text_and_unknown_chips_are_one_clear_error() {
    let lowered = dump("softmax/lowered.stablehlo.mlir");
    let err = with_report(&lowered, None, |_| ()).unwrap_err();
    assert!(err.starts_with("expected compiled HLO"), "{err}");
    let compiled = dump("softmax/compiled.tpu.hlo.txt");
    let err = with_report(&compiled, Some("h10"), |_| ()).unwrap_err();
    assert!(err.contains("did you mean `h100`?"), "{err}");
    // A CPU dump names no accelerator: no chip unless asked.
    let cpu = dump("softmax/compiled.cpu.hlo.txt");
    with_report(&cpu, None, |r| {
        assert!(r.chip.chip.is_none() && r.roof.is_none())
    })
    .unwrap();
    with_report(&cpu, Some("a100"), |r| assert!(r.roof.is_some())).unwrap();
}

/// XLA:TPU's loops state no trip count; the ledger reads one from the
/// induction variable. On every fixture family compiled for the TPU and for
/// the CPU or GPU, the TPU loop's derived count equals the count the same
/// loop (the same `op_name`) states in the CPU or GPU dump; and on a CPU or
/// GPU dump a derived count never contradicts a stated one.
#[test]
fn derived_trip_counts_agree_with_stated_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let loops = |path: &Path| -> Vec<(String, Option<u64>, Option<u64>)> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Vec::new();
        };
        let m = program::parse(&text);
        m.instructions
            .iter()
            .filter(|i| i.opcode == "while")
            .map(|w| {
                (
                    w.metadata().op_name.unwrap_or("").to_owned(),
                    w.backend_config().and_then(dumplab::kernels::trip_count),
                    dumplab::cost::trips::derived(&m, w),
                )
            })
            .collect()
    };
    let (mut agreed, mut derived_only) = (0, 0);
    for family in std::fs::read_dir(&root).unwrap().flatten() {
        let dir = family.path();
        let tpu = loops(&dir.join("compiled.tpu.hlo.txt"));
        let mut stated = loops(&dir.join("compiled.cpu.hlo.txt"));
        stated.extend(loops(&dir.join("compiled.gpu.hlo.txt")));
        for (_, s, d) in &stated {
            if let (Some(s), Some(d)) = (s, d) {
                assert_eq!(s, d, "{}", dir.display());
            }
        }
        for (op, s, d) in &tpu {
            assert!(
                s.is_none(),
                "a TPU loop that states its count: update this test"
            );
            let Some(d) = d else { continue };
            derived_only += 1;
            let same: Vec<u64> = stated
                .iter()
                .filter(|(o, ..)| o == op)
                .filter_map(|(_, s, _)| *s)
                .collect();
            if let Some(s) = same.first() {
                assert_eq!(s, d, "{}: `{op}`", dir.display());
                agreed += 1;
            }
        }
    }
    assert!(
        agreed >= 3,
        "{agreed} TPU loops checked against a stated count"
    );
    assert!(derived_only >= agreed);
}
