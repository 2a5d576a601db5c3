//! The claim table on real fixture lines: for each claim, lines of the
//! course's dumps that prove it and lines that do not, as the analysis of
//! the whole dump sees them (context counts: a computation header proves
//! compilation only when a fusion calls it).

#![allow(clippy::unwrap_used)]

use dumplab::analysis::claims::{Claim, closest_claim};
use dumplab::analyze;
use std::path::Path;

fn dump(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    std::fs::read_to_string(root.join(path)).unwrap()
}

/// (claim, dump, lines that prove it, lines that do not)
const TABLE: &[(&str, &str, &[usize], &[usize])] = &[
    // `is_scheduled=true`; `%fused_computation (param_0.3: ...)`, the
    // header of the computation a fusion calls, with `param_N` names (the
    // line the issue found graded "proves nothing"); the `fusion` line.
    // Not: a source-location table, the `ENTRY` header, an entry parameter.
    (
        "compiled",
        "elementwise_chain/compiled.cpu.hlo.txt",
        &[1, 24, 25, 28, 40, 46],
        &[3, 16, 43, 44, 47],
    ),
    (
        "compiled",
        "elementwise_chain/compiled.tpu.hlo.txt",
        &[1, 44, 46],
        &[43],
    ),
    (
        "compiled",
        "fori_loop_while/compiled.cpu.hlo.txt",
        &[1, 44, 66],
        &[62, 68, 69],
    ),
    // The `Sharding` custom call (here Shardy's `xla.sdy.FuncResultSharding`)
    // that partitioning removes. Not: the header without `is_scheduled`
    // (a hint: JAX up to 0.4.26 printed compiled modules without it),
    // `ENTRY main.1 {` without a signature, bare names (a printer's habits).
    (
        "not-compiled",
        "sharded_matmul/lowered.hlo.txt",
        &[7],
        &[1, 3, 4, 6, 10],
    ),
    // A text with only hints proves it on no line.
    (
        "not-compiled",
        "elementwise_chain/lowered.hlo.txt",
        &[],
        &[1, 3, 4, 19, 20],
    ),
    (
        "lowered-hlo",
        "elementwise_chain/lowered.hlo.txt",
        &[3, 4, 19],
        &[1, 20],
    ),
    ("jaxpr", "elementwise_chain/jaxpr.txt", &[1, 2, 10], &[]),
    (
        "stablehlo",
        "elementwise_chain/lowered.stablehlo.mlir",
        &[1, 3, 4, 5],
        &[],
    ),
    (
        "hlo",
        "elementwise_chain/compiled.cpu.hlo.txt",
        &[1, 43, 44],
        &[2, 41],
    ),
    // XLA:CPU's `outer_dimension_partitions` backend config.
    (
        "cpu",
        "elementwise_chain/compiled.cpu.hlo.txt",
        &[46],
        &[1, 24, 44],
    ),
    // Lowered for a CPU: `stablehlo.custom_call @lapack_sgetrf_ffi` and the
    // two `@lapack_strsm_ffi` calls of `jnp.linalg.solve`. Not: the module,
    // `@main`, a plain StableHLO op.
    (
        "cpu",
        "../checker/tests/drift/jax-0.10.2/solve.lowered.stablehlo.mlir",
        &[7, 96, 97],
        &[1, 2, 8],
    ),
    // jaxlib 0.4.30, MHLO: `mhlo.custom_call @lapack_sgetrf` and the two
    // `@blas_strsm` calls, before the `_ffi` targets.
    (
        "cpu",
        "../checker/tests/drift/jax-0.4.30/solve.lowered.mhlo.mlir",
        &[12, 111, 122],
        &[1, 3, 13],
    ),
    // A `jax.pure_callback` lowered for the CPU: the StableHLO call of
    // `@xla_ffi_python_cpu_callback`, the HLO `custom_call_target` before
    // and after compiling. Not: the module line, the callback's operand.
    (
        "cpu",
        "sharded_callback/lowered.stablehlo.mlir",
        &[8],
        &[1, 7],
    ),
    ("cpu", "sharded_callback/lowered.hlo.txt", &[13], &[1, 12]),
    ("cpu", "sharded_callback/compiled.cpu.hlo.txt", &[21], &[20]),
    // jaxlib's DUCC FFT, which JAX's FFT lowering called only for a CPU
    // (JAX's export back-compat data, 2023, in the public corpus).
    (
        "cpu",
        "../checker/tests/public/jax-bc__cpu_ducc_fft.2023_03_17.mlir",
        &[9],
        &[1, 8],
    ),
    // Lowered for a deviceless H100: `@cusolver_getrf_ffi` and
    // `@cu_lu_pivots_to_permutation`. Not: the module, `@main`, a plain op.
    (
        "gpu",
        "../checker/tests/drift/jax-0.10.2/solve.lowered.gpu.stablehlo.mlir",
        &[8, 20],
        &[1, 3, 9],
    ),
    // Lowered for ROCm (JAX's export back-compat data, platform='rocm'):
    // `@hip_threefry2x32_ffi`. Not: the module line, a plain op.
    (
        "gpu",
        "../checker/tests/public/jax-bc__rocm_threefry2x32.2026_02_05.mlir",
        &[52],
        &[4, 51],
    ),
    // `jnp.linalg.eigh` lowered for each: `@cusolver_syevd_ffi`, `@Eigh`.
    (
        "gpu",
        "../checker/tests/drift/jax-0.10.2/eigh.lowered.gpu.stablehlo.mlir",
        &[13],
        &[1, 3],
    ),
    (
        "tpu",
        "../checker/tests/drift/jax-0.10.2/eigh.lowered.tpu.stablehlo.mlir",
        &[13],
        &[1, 3],
    ),
    // Lowered for a TPU v5e: `@LuDecomposition`.
    (
        "tpu",
        "../checker/tests/drift/jax-0.10.2/solve.lowered.tpu.stablehlo.mlir",
        &[8],
        &[1, 3, 9],
    ),
    // XLA:GPU's backend config on line 46 and the `fingerprint_before_lhs`
    // its scheduler put in the header (line 1). Not: the ENTRY header.
    (
        "gpu",
        "elementwise_chain/compiled.gpu.hlo.txt",
        &[1, 46],
        &[43],
    ),
    // The same function compiled for the CPU and the TPU: no
    // `fingerprint_before_lhs` in their headers.
    ("gpu", "elementwise_chain/compiled.cpu.hlo.txt", &[], &[1]),
    ("gpu", "elementwise_chain/compiled.tpu.hlo.txt", &[], &[1]),
    // `T(8,128)` tiles in the header's layouts and on every shape.
    (
        "tpu",
        "elementwise_chain/compiled.tpu.hlo.txt",
        &[1, 44, 46],
        &[43],
    ),
    (
        "fusion",
        "elementwise_chain/compiled.cpu.hlo.txt",
        &[46],
        &[1, 24, 43],
    ),
    (
        "fusion",
        "fori_loop_while/compiled.cpu.hlo.txt",
        &[44, 45, 59],
        &[66, 69],
    ),
];

#[test]
fn each_claim_on_lines_that_prove_it_and_lines_that_do_not() {
    for (claim, file, yes, no) in TABLE {
        let claim = Claim::from_name(claim).unwrap();
        let text = dump(file);
        let a = analyze(&text);
        let lines = text.lines().count();
        let proving: Vec<usize> = a
            .proof_lines(claim, 1, lines)
            .into_iter()
            .map(|(l, _)| l)
            .collect();
        for l in *yes {
            assert!(
                proving.contains(l),
                "{file}:{l} must prove `{}`; the proving lines: {proving:?}",
                claim.name()
            );
        }
        for l in *no {
            assert!(
                !proving.contains(l),
                "{file}:{l} must not prove `{}`",
                claim.name()
            );
        }
    }
}

#[test]
fn every_claim_is_in_the_table_and_names_round_trip() {
    for c in Claim::ALL {
        assert_eq!(Claim::from_name(c.name()), Some(c));
        assert!(
            TABLE.iter().any(|(n, ..)| *n == c.name()),
            "claim `{}` has no case",
            c.name()
        );
        assert!(c.marker_names().next().is_some());
    }
    assert_eq!(closest_claim("complied"), Some("compiled"));
    assert_eq!(closest_claim("notcompiled"), Some("not-compiled"));
    assert_eq!(closest_claim("banana"), None);
}

#[test]
fn the_classifier_decides_from_the_same_table() {
    // Every clue `analyze` shows first for a compiled dump proves either
    // compilation or a backend; for the look-alike with a `Sharding` call,
    // that it is not compiled. The look-alike without one proves nothing
    // (its header and names are hints): likely before optimization, said
    // so, and no line decides.
    let plain = analyze(&dump("elementwise_chain/lowered.hlo.txt"));
    assert_eq!(plain.kind, dumplab::Kind::HloUnoptimized);
    assert!(plain.kind_likely.is_some());
    assert_eq!(plain.deciding_evidence().count(), 0);
    for (file, claims) in [
        (
            "elementwise_chain/compiled.cpu.hlo.txt",
            &[Claim::Compiled, Claim::Cpu, Claim::Gpu, Claim::Tpu][..],
        ),
        ("sharded_matmul/lowered.hlo.txt", &[Claim::NotCompiled][..]),
    ] {
        let a = analyze(&dump(file));
        let deciding: Vec<_> = a.deciding_evidence().collect();
        assert!(!deciding.is_empty(), "{file}");
        for e in deciding {
            assert!(
                claims.iter().any(|c| c.proven_by(e.marker)),
                "{file}:{} `{}` decides, but proves none of {claims:?}",
                e.line,
                e.marker
            );
        }
    }
}
