//! The roofline of one kernel (`dumplab::cost::roof`): the peak each real
//! dot line runs at (the course's fixtures, and `tests/data/
//! dot_precision_lines.txt`, one compiled line per precision or algorithm
//! preset made with the pinned JAX), the vocabulary tables against XLA's,
//! and hand-worked roofs.

#![allow(clippy::unwrap_used)]

use dumplab::cost::chips::{CHIPS, Platform, chip};
use dumplab::cost::roof::{
    ALGORITHMS, Bound, ELEMENTS, F32_RULES, MatrixOp, PRECISIONS, Prec, Work, matrix_peak, roof,
};
use std::path::Path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

/// Line `n` of a fixture file, `family/file:n`.
fn fixture_line(place: &str) -> String {
    let (file, n) = place.rsplit_once(':').unwrap();
    let text = read(&format!("../fixtures/{file}"));
    text.lines()
        .nth(n.parse::<usize>().unwrap() - 1)
        .unwrap()
        .to_owned()
}

/// The line of `tests/data/dot_precision_lines.txt` under `key`
/// (`TARGET ELEMENT PRESET OPTIONS`).
fn data_line(key: &str) -> String {
    let text = read("tests/data/dot_precision_lines.txt");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.split_once('\t').filter(|(k, _)| *k == key))
        .map(|(_, line)| line.to_owned())
        .unwrap_or_else(|| panic!("no line {key}"))
}

/// The raw value after `key` up to the first of `ends` (exclusive), or with
/// its closing bracket when it opens one.
fn attr<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(key)? + key.len();
    let rest = &line[start..];
    let end = match rest.chars().next()? {
        '{' => rest.find('}')? + 1,
        '[' => rest.find(']')? + 1,
        '"' => rest[1..].find('"')? + 2,
        _ => rest.find([',', ' ', '}']).unwrap_or(rest.len()),
    };
    Some(&rest[..end])
}

/// The dot of a real line as the ledger will hand it over: the operand
/// element type (read off the operands' own lines, named in each case), and
/// the line's precision and algorithm as printed.
fn op_of<'a>(line: &'a str, element: &'a str) -> MatrixOp<'a> {
    MatrixOp {
        element,
        precision: attr(line, "operand_precision=")
            .or_else(|| attr(line, "\"operand_precision\":")),
        algorithm: attr(line, "algorithm=").or_else(|| attr(line, "\"algorithm\":")),
        flops: 1.0,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

#[track_caller]
fn check(chip_name: &str, line: &str, element: &str, expect: Option<f64>, why: &str) {
    let c = chip(chip_name).unwrap();
    let (rate, note) = matrix_peak(c, &op_of(line, element));
    match (rate, expect) {
        (Some(r), Some(e)) => assert!(close(r, e), "{chip_name}: {r} != {e} on {line}"),
        (None, None) => {}
        _ => panic!("{chip_name}: {rate:?} != {expect:?} on {line}"),
    }
    assert!(
        note.contains(why),
        "{chip_name}: note {note:?} lacks {why:?}"
    );
}

#[test]
fn fixture_dots_run_at_the_peak_of_their_operand_type() {
    // f32 operands (`%parameter_0 = f32[512,1024]`, line 17), no precision
    // printed: DEFAULT, TF32 on the GPUs.
    let gemm = fixture_line("matmul/compiled.gpu.hlo.txt:19");
    check("h100", &gemm, "f32", Some(494.7e12), "TF32");
    check("h200", &gemm, "f32", Some(494.5e12), "TF32");
    check("a100", &gemm, "f32", Some(156e12), "TF32");
    // The TPU's dot is a convolution of f32 operands (`%fusion.1 =
    // f32[512,1024]`, line 28): one bf16 pass.
    let conv = fixture_line("matmul/compiled.tpu.hlo.txt:31");
    check("v5e", &conv, "f32", Some(197e12), "one bf16 pass");
    check("v6e", &conv, "f32", Some(918e12), "one bf16 pass");
    // bf16 operands (`parameter_0: bf16[256,4,128]`, line 22; TPU
    // `%fusion.8 = bf16[256,512]`, line 34), f32 accumulation.
    let mixed = fixture_line("bf16_mixed/compiled.gpu.hlo.txt:25");
    check("h100", &mixed, "bf16", Some(989.4e12), "bf16");
    check("a100", &mixed, "bf16", Some(312e12), "bf16");
    let mixed_tpu = fixture_line("bf16_mixed/compiled.tpu.hlo.txt:37");
    check("v5e", &mixed_tpu, "bf16", Some(197e12), "bf16");
    // The cuBLAS GEMM carries its precision in backend_config:
    // `"operand_precision":["DEFAULT","DEFAULT"],"algorithm":"ALG_UNSET"`,
    // f32 operands (`%x.1 = f32[512,768]`, line 19).
    let cublas = fixture_line("matmul_cublas_epilogue/compiled.gpu.hlo.txt:20");
    assert!(
        cublas.contains(r#""operand_precision":["DEFAULT","DEFAULT"],"algorithm":"ALG_UNSET""#)
    );
    check("h100", &cublas, "f32", Some(494.7e12), "TF32");
}

#[test]
fn precision_and_algorithm_presets_pick_their_peak() {
    let h100_bf16 = 989.4e12;
    let cases: &[(&str, &str, &str, Option<f64>, &str)] = &[
        (
            "gpu f32 DEFAULT -",
            "h100",
            "f32",
            Some(494.7e12),
            "DEFAULT runs as TF32",
        ),
        (
            "gpu f32 high -",
            "h100",
            "f32",
            Some(494.7e12),
            "HIGH runs as TF32",
        ),
        (
            "gpu f32 highest -",
            "h100",
            "f32",
            Some(66.9e12),
            "CUDA-core",
        ),
        (
            "gpu f32 highest -",
            "a100",
            "f32",
            Some(19.5e12),
            "CUDA-core",
        ),
        (
            "gpu bf16 DEFAULT -",
            "h100",
            "bf16",
            Some(h100_bf16),
            "bf16",
        ),
        ("gpu f16 DEFAULT -", "h100", "f16", Some(989.4e12), "fp16"),
        (
            "gpu f8e4m3fn DEFAULT -",
            "h100",
            "f8e4m3fn",
            Some(1978.9e12),
            "fp8",
        ),
        (
            "gpu f8e4m3fn DEFAULT -",
            "h200",
            "f8e4m3fn",
            Some(1979e12),
            "fp8",
        ),
        (
            "gpu f8e4m3fn DEFAULT -",
            "a100",
            "f8e4m3fn",
            None,
            "no published fp8",
        ),
        (
            "gpu f32 BF16_BF16_F32 -",
            "h100",
            "f32",
            Some(h100_bf16),
            "dot_bf16_bf16_f32,",
        ),
        (
            "gpu f32 BF16_BF16_F32_X3 -",
            "h100",
            "f32",
            Some(h100_bf16 / 3.0),
            "over 3",
        ),
        (
            "gpu f32 BF16_BF16_F32_X6 -",
            "h100",
            "f32",
            Some(h100_bf16 / 6.0),
            "over 6",
        ),
        (
            "gpu f32 BF16_BF16_F32_X9 -",
            "h100",
            "f32",
            Some(h100_bf16 / 9.0),
            "over 9",
        ),
        (
            "gpu f32 TF32_TF32_F32 -",
            "h100",
            "f32",
            Some(494.7e12),
            "TF32 peak",
        ),
        (
            "gpu f32 TF32_TF32_F32_X3 -",
            "h100",
            "f32",
            Some(494.7e12 / 3.0),
            "over 3",
        ),
        (
            "gpu f32 F32_F32_F32 -",
            "h100",
            "f32",
            Some(66.9e12),
            "CUDA-core",
        ),
        ("gpu f16 F16_F16_F32 -", "a100", "f16", Some(312e12), "fp16"),
        (
            "gpu f32 DEFAULT cublas",
            "h100",
            "f32",
            Some(494.7e12),
            "TF32",
        ),
        (
            "gpu f32 highest cublas",
            "h100",
            "f32",
            Some(66.9e12),
            "CUDA-core",
        ),
        (
            "gpu f32 TF32_TF32_F32 cublas",
            "h100",
            "f32",
            Some(494.7e12),
            "TF32 peak",
        ),
        (
            "gpu f32 F32_F32_F32 cublas",
            "h200",
            "f32",
            Some(67e12),
            "CUDA-core",
        ),
        (
            "gpu s8 DEFAULT cublas",
            "h100",
            "s8",
            Some(1978.9e12),
            "int8",
        ),
        (
            "tpu f32 DEFAULT -",
            "v5e",
            "f32",
            Some(197e12),
            "one bf16 pass",
        ),
        ("tpu f32 high -", "v5e", "f32", Some(197e12 / 3.0), "over 3"),
        (
            "tpu f32 highest -",
            "v5e",
            "f32",
            Some(197e12 / 6.0),
            "over 6",
        ),
        (
            "tpu f32 highest -",
            "v6e",
            "f32",
            Some(918e12 / 6.0),
            "over 6",
        ),
        ("tpu bf16 DEFAULT -", "v5e", "bf16", Some(197e12), "bf16"),
        // XLA:TPU prints these algorithms as precisions (`{high,high}`,
        // `{highest,highest}`): the same passes either way.
        (
            "tpu f32 BF16_BF16_F32_X3 -",
            "v5e",
            "f32",
            Some(197e12 / 3.0),
            "over 3",
        ),
        (
            "tpu f32 BF16_BF16_F32_X6 -",
            "v5e",
            "f32",
            Some(197e12 / 6.0),
            "over 6",
        ),
        ("tpu f16 DEFAULT -", "v5e", "f16", None, "no published fp16"),
        (
            "tpu f8e4m3fn DEFAULT -",
            "v5e",
            "f8e4m3fn",
            None,
            "no published fp8",
        ),
        ("tpu s8 DEFAULT -", "v5e", "s8", Some(393e12), "int8"),
        ("tpu s8 DEFAULT -", "v6e", "s8", Some(1836e12), "int8"),
    ];
    for (key, chip_name, element, expect, why) in cases {
        check(chip_name, &data_line(key), element, *expect, why);
    }
    // The lines carry what the cases claim.
    assert!(data_line("tpu f32 BF16_BF16_F32_X3 -").contains("operand_precision={high,high}"));
    assert!(
        data_line("gpu f32 highest cublas")
            .contains(r#""operand_precision":["HIGHEST","HIGHEST"]"#)
    );
    assert!(
        data_line("gpu f32 F32_F32_F32 cublas").contains(r#""algorithm":"ALG_DOT_F32_F32_F32""#)
    );
}

#[test]
fn names_outside_the_tables_give_no_peak_and_say_so() {
    let h100 = chip("h100").unwrap();
    let op = |element, precision, algorithm| MatrixOp {
        element,
        precision,
        algorithm,
        flops: 1.0,
    };
    let (r, why) = matrix_peak(h100, &op("f33", None, None));
    assert_eq!(r, None);
    assert!(why.contains("element type unknown"));
    let (r, why) = matrix_peak(h100, &op("f32", Some("{fastest,fastest}"), None));
    assert_eq!(r, None);
    assert!(why.contains("precision unknown"));
    let (r, why) = matrix_peak(h100, &op("f32", None, Some("dot_bf16_bf16_f32_x12")));
    assert_eq!(r, None);
    assert!(why.contains("algorithm unknown"));
    // An algorithm the pinned libtpu rejects has no TPU peak.
    let (r, why) = matrix_peak(
        chip("v5e").unwrap(),
        &op("f32", None, Some("dot_tf32_tf32_f32")),
    );
    assert_eq!(r, None);
    assert!(why.contains("rejects"));
    // Operands at different precisions take the lower one.
    let (r, _) = matrix_peak(
        chip("v5e").unwrap(),
        &op("f32", Some("{highest,default}"), None),
    );
    assert_eq!(r, Some(197e12));
    // s32 accumulation of an int8 dot is the output; s32 operands have no peak.
    assert_eq!(matrix_peak(h100, &op("s32", None, None)).0, None);
}

/// XLA's primitive types as HLO text prints them (`xla_data.proto`),
/// tuple/token/opaque aside: each has its row, so no dot's type falls
/// through to "unknown".
#[test]
fn every_xla_element_type_has_its_row() {
    let xla = [
        "pred",
        "s1",
        "s2",
        "s4",
        "s8",
        "s16",
        "s32",
        "s64",
        "u1",
        "u2",
        "u4",
        "u8",
        "u16",
        "u32",
        "u64",
        "f16",
        "f32",
        "bf16",
        "f64",
        "f8e5m2",
        "f8e4m3",
        "f8e4m3fn",
        "f8e4m3b11fnuz",
        "f8e5m2fnuz",
        "f8e4m3fnuz",
        "f8e3m4",
        "f8e8m0fnu",
        "f4e2m1fn",
        "c64",
        "c128",
    ];
    for t in xla {
        assert!(ELEMENTS.iter().any(|(n, _)| *n == t), "{t} has no row");
    }
    assert_eq!(
        ELEMENTS.len(),
        xla.len(),
        "a row for a type XLA does not have"
    );
}

/// The algorithm names of XLA's `PrecisionConfig.Algorithm` in the pinned
/// jaxlib (`strings jaxlib/*.so | grep ALG_`), `ALG_UNSET` aside.
#[test]
fn every_xla_algorithm_has_its_row() {
    let xla = [
        "ALG_DOT_ANY_F8_ANY_F8_F32",
        "ALG_DOT_ANY_F8_ANY_F8_F32_FAST_ACCUM",
        "ALG_DOT_BF16_BF16_BF16",
        "ALG_DOT_BF16_BF16_F32",
        "ALG_DOT_BF16_BF16_F32_X3",
        "ALG_DOT_BF16_BF16_F32_X6",
        "ALG_DOT_BF16_BF16_F32_X9",
        "ALG_DOT_F16_F16_F16",
        "ALG_DOT_F16_F16_F32",
        "ALG_DOT_F32_F32_F32",
        "ALG_DOT_F64_F64_F64",
        "ALG_DOT_TF32_TF32_F32",
        "ALG_DOT_TF32_TF32_F32_X3",
    ];
    for name in xla {
        let text = name.strip_prefix("ALG_").unwrap().to_ascii_lowercase();
        let row = ALGORITHMS.iter().find(|a| a.name == text);
        let row = row.unwrap_or_else(|| panic!("{name} has no row"));
        for (entry, platform) in [(row.gpu, "gpu"), (row.tpu, "tpu")] {
            match entry {
                Some((_, passes)) => {
                    assert!(passes >= 1 && !row.why.is_empty(), "{name} {platform}")
                }
                None => assert!(!row.unsupported.is_empty(), "{name} {platform}"),
            }
        }
    }
    assert_eq!(ALGORITHMS.len(), xla.len());
    // ALG_UNSET, as a GEMM's backend_config prints it, is no algorithm.
    let h100 = chip("h100").unwrap();
    let unset = MatrixOp {
        element: "f32",
        precision: None,
        algorithm: Some("\"ALG_UNSET\""),
        flops: 1.0,
    };
    assert_eq!(matrix_peak(h100, &unset).0, Some(494.7e12));
}

#[test]
fn every_platform_has_an_f32_rule_per_precision() {
    for platform in [Platform::Gpu, Platform::Tpu] {
        for (_, p) in PRECISIONS {
            let rules = F32_RULES
                .iter()
                .filter(|r| r.platform == platform && r.precision == *p)
                .count();
            assert_eq!(rules, 1, "{platform:?} {p:?}");
        }
    }
    assert_eq!(F32_RULES.len(), 2 * PRECISIONS.len());
    assert!(Prec::Default < Prec::High && Prec::High < Prec::Highest);
    // Every chip publishes the peaks its platform's f32 rules use.
    for c in CHIPS {
        for r in F32_RULES.iter().filter(|r| r.platform == c.platform) {
            assert!(r.unit.peak(c).is_some(), "{} {:?}", c.name, r.precision);
        }
    }
}

#[track_caller]
fn assert_close(a: f64, b: f64) {
    assert!(close(a, b), "{a} != {b}");
}

fn gemm(
    element: &'static str,
    precision: Option<&'static str>,
    n: f64,
    bytes_per: f64,
) -> Work<'static> {
    let flops = 2.0 * n * n * n;
    Work {
        flops,
        transcendentals: 0.0,
        bytes: 3.0 * n * n * bytes_per,
        matrix: vec![MatrixOp {
            element,
            precision,
            algorithm: None,
            flops,
        }],
    }
}

#[test]
fn hand_worked_gemm_roofs() {
    // A 1024^3 bf16 GEMM on an H100: 2*1024^3 flops over 989.4 TFLOP/s
    // against 3 * 2 MiB over 3.35 TB/s: compute-bound.
    let w = gemm("bf16", None, 1024.0, 2.0);
    let r = roof(chip("h100").unwrap(), &w);
    assert_close(r.compute_s, 2147483648.0 / 989.4e12);
    assert_close(r.memory_s, 6291456.0 / 3.35e12);
    assert_eq!(r.bound, Bound::Compute);
    assert_close(r.lower_bound_s, r.compute_s);
    assert_close(r.intensity.unwrap(), 2147483648.0 / 6291456.0);
    assert!(r.notes.iter().any(|n| n.contains("bf16")));
    // The same on an A100: 312 TFLOP/s, 2,039 GB/s.
    let r = roof(chip("a100").unwrap(), &w);
    assert_close(r.compute_s, 2147483648.0 / 312e12);
    assert_close(r.memory_s, 6291456.0 / 2039e9);
    assert_eq!(r.bound, Bound::Compute);
    // JAX's Pallas TPU matmul guide: a 1024^3 f32 matmul on a v5e is below
    // the chip's ~240 flops/byte, so memory-bound ...
    let w = gemm("f32", None, 1024.0, 4.0);
    let r = roof(chip("v5e").unwrap(), &w);
    assert_close(r.compute_s, 2147483648.0 / 197e12);
    assert_close(r.memory_s, 12582912.0 / 819e9);
    assert_eq!(r.bound, Bound::Memory);
    assert_close(r.lower_bound_s, r.memory_s);
    // ... while at HIGHEST its six bf16 passes make it compute-bound.
    let w = gemm("f32", Some("{highest,highest}"), 1024.0, 4.0);
    let r = roof(chip("v5e").unwrap(), &w);
    assert_close(r.compute_s, 6.0 * 2147483648.0 / 197e12);
    assert_eq!(r.bound, Bound::Compute);
    assert!(r.notes.iter().any(|n| n.contains("six bf16 passes")));
}

#[test]
fn hand_worked_elementwise_roofs() {
    // An f32 add of 2^20 elements: 2^20 flops, 3 * 4 MiB.
    let w = Work {
        flops: 1048576.0,
        transcendentals: 0.0,
        bytes: 12582912.0,
        matrix: vec![],
    };
    let r = roof(chip("h100").unwrap(), &w);
    assert_close(r.compute_s, 1048576.0 / 66.9e12);
    assert_close(r.memory_s, 12582912.0 / 3.35e12);
    assert_eq!(r.bound, Bound::Memory);
    assert_close(r.intensity.unwrap(), 1.0 / 12.0);
    assert!(r.notes.iter().any(|n| n.contains("vector f32 rate")));
    // A TPU publishes no vector rate: the flops leave the compute time.
    let r = roof(chip("v5e").unwrap(), &w);
    assert_eq!(r.compute_s, 0.0);
    assert_close(r.memory_s, 12582912.0 / 819e9);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("left out of the compute time"))
    );
    // Transcendentals are noted, never timed.
    let w = Work {
        transcendentals: 1048576.0,
        ..w
    };
    let r = roof(chip("h100").unwrap(), &w);
    assert_close(r.compute_s, 1048576.0 / 66.9e12);
    assert!(
        r.notes
            .contains(&"transcendentals are not in the compute time")
    );
}

#[test]
fn degenerate_work_never_panics() {
    let h100 = chip("h100").unwrap();
    let r = roof(
        h100,
        &Work {
            flops: 0.0,
            transcendentals: 0.0,
            bytes: 0.0,
            matrix: vec![],
        },
    );
    assert_eq!(
        (r.intensity, r.bound, r.lower_bound_s),
        (None, Bound::Memory, 0.0)
    );
    // Flops with no bytes: no intensity, compute-bound.
    let r = roof(
        h100,
        &Work {
            flops: 10.0,
            transcendentals: 0.0,
            bytes: 0.0,
            matrix: vec![],
        },
    );
    assert_eq!((r.intensity, r.bound), (None, Bound::Compute));
    // Negative, NaN and infinite counts are taken as 0; matrix flops above
    // the total leave no negative vector time.
    let r = roof(
        h100,
        &Work {
            flops: f64::NAN,
            transcendentals: -1.0,
            bytes: f64::INFINITY,
            matrix: vec![MatrixOp {
                element: "bf16",
                precision: None,
                algorithm: None,
                flops: -1.0,
            }],
        },
    );
    assert_eq!((r.compute_s, r.memory_s, r.intensity), (0.0, 0.0, None));
    let r = roof(h100, &gemm("bf16", None, 8.0, 2.0));
    let w = Work {
        flops: 1.0,
        ..gemm("bf16", None, 8.0, 2.0)
    };
    let fewer = roof(h100, &w);
    assert_close(fewer.compute_s, r.compute_s);
    assert_eq!(Bound::Memory.name(), "memory");
    assert_eq!(Bound::Compute.name(), "compute");
}
