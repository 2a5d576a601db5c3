//! The marker table on real fixture lines: each line shows its marker (as
//! the fixture validator checks it), and the row names the chapter that
//! teaches it (the playground's link) and the concern that finds it. Every
//! marker the analysis reports on the course's dumps has its row, so no
//! reader of the table falls back to a default.

#![allow(clippy::unwrap_used)]

use dumplab::analysis::line_match::marker_matches;
use dumplab::analysis::markers::{
    Chapter, Detector, marker_chapter, marker_description, marker_detector,
};
use dumplab::analyze;
use dumplab::inspect::chapter_of;
use std::path::Path;

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn line(place: &str) -> String {
    let (file, n) = place.rsplit_once(':').unwrap();
    let text = std::fs::read_to_string(fixtures().join(file)).unwrap();
    let n: usize = n.parse().unwrap();
    text.lines().nth(n - 1).unwrap().to_owned()
}

fn check(place: &str, marker: &str, chapter: &str, detector: Detector) {
    let l = line(place);
    assert_eq!(marker_matches(marker, &l), Some(true), "{place}: {l}");
    assert_eq!(chapter_of(marker), chapter, "{marker}");
    assert_eq!(marker_detector(marker), Some(detector), "{marker}");
}

#[test]
fn real_lines_show_their_marker_taught_where_the_row_says() {
    use Detector::*;
    check("argmax/jaxpr.txt:2", "jaxpr-equation", "jaxpr.html", Jaxpr);
    check(
        "concat_pad/jaxpr.txt:5",
        "jaxpr-subjaxpr",
        "jaxpr.html",
        Jaxpr,
    );
    check(
        "argmax/lowered.stablehlo.mlir:13",
        "stablehlo-op",
        "stablehlo.html",
        Mlir,
    );
    check(
        "argmax/lowered.stablehlo.mlir:1",
        "mlir-loc",
        "stablehlo.html",
        Mlir,
    );
    check(
        "argmax/compiled.cpu.hlo.txt:1",
        "hlo-module-header",
        "hlo.html",
        Schedule,
    );
    check(
        "argmax/compiled.cpu.hlo.txt:1",
        "is-scheduled",
        "buffer-assignment.html",
        Schedule,
    );
    check(
        "argmax/compiled.tpu.hlo.txt:44",
        "async-op",
        "buffer-assignment.html",
        Schedule,
    );
    check(
        "argmax/compiled.cpu.hlo.txt:42",
        "entry-computation",
        "hlo.html",
        Structure,
    );
    check(
        "dynamic_update_loop/compiled.cpu.hlo.txt:85",
        "while",
        "hlo.html",
        Structure,
    );
    check(
        "cond_branch/compiled.cpu.hlo.txt:78",
        "conditional",
        "hlo.html",
        Structure,
    );
    check(
        "argmax/compiled.cpu.hlo.txt:44",
        "fusion-kind",
        "fusion.html",
        Fusion,
    );
    check(
        "attention/compiled.gpu.hlo.txt:75",
        "gpu-fusion-name",
        "fusion.html",
        Fusion,
    );
    check(
        "argmax/compiled.tpu.hlo.txt:18",
        "tpu-tiled-layout",
        "layouts.html",
        Layout,
    );
    check(
        "argmax/compiled.tpu.hlo.txt:22",
        "memory-space",
        "layouts.html",
        Layout,
    );
    check(
        "argmax/compiled.tpu.hlo.txt:1",
        "entry-layout-tiles",
        "layouts.html",
        Layout,
    );
    check(
        "attention/compiled.tpu.hlo.txt:43",
        "copy-instruction",
        "layouts.html",
        Layout,
    );
    check(
        "conv2d/compiled.gpu.hlo.txt:25",
        "gpu-custom-call",
        "fusion.html",
        CustomCall,
    );
    // A library call XLA's rewriters made: taught beside the other custom
    // calls (`fusion.md`, "What XLA cannot fuse"), not in `hlo.md`.
    check(
        "conv2d/compiled.gpu.hlo.txt:25",
        "compiler-custom-call",
        "fusion.html",
        CustomCall,
    );
    check(
        "argmax/compiled.cpu.hlo.txt:44",
        "cpu-backend-config",
        "hlo.html",
        BackendConfig,
    );
    check(
        "argmax/compiled.tpu.hlo.txt:22",
        "tpu-backend-config",
        "hlo.html",
        BackendConfig,
    );
    // Pallas kernels are taught in `pallas.md`.
    check(
        "attention/compiled.tpu.hlo.txt:47",
        "mosaic-tpu-kernel",
        "pallas.html",
        Pallas,
    );
    check(
        "pallas_elementwise/compiled.gpu.hlo.txt:19",
        "triton-kernel",
        "pallas.html",
        Pallas,
    );
    check(
        "pallas_elementwise/compiled.gpu.mosaic_gpu.hlo.txt:19",
        "mosaic-gpu-kernel",
        "pallas.html",
        Pallas,
    );
    // JAX's CPU lowering of linear algebra, in the drift corpus.
    check(
        "../checker/tests/drift/jax-0.10.2/solve.lowered.stablehlo.mlir:7",
        "lapack-custom-call",
        "stablehlo.html",
        Mlir,
    );
    // jaxlib 0.4.30's LAPACK and BLAS kernels before the FFI, in MHLO.
    check(
        "../checker/tests/drift/jax-0.4.30/solve.lowered.mhlo.mlir:12",
        "lapack-custom-call",
        "stablehlo.html",
        Mlir,
    );
    check(
        "../checker/tests/drift/jax-0.4.30/solve.lowered.mhlo.mlir:111",
        "lapack-custom-call",
        "stablehlo.html",
        Mlir,
    );
    // JAX's GPU and TPU lowerings of the same `solve` (deviceless H100, v5e).
    check(
        "../checker/tests/drift/jax-0.10.2/solve.lowered.gpu.stablehlo.mlir:8",
        "gpu-library-custom-call",
        "stablehlo.html",
        Mlir,
    );
    check(
        "../checker/tests/drift/jax-0.10.2/solve.lowered.tpu.stablehlo.mlir:8",
        "tpu-lowering-custom-call",
        "stablehlo.html",
        Mlir,
    );
    // JAX's ROCm lowering: `@hip_threefry2x32_ffi` and the LU pivots, from
    // JAX's export back-compat data (platform='rocm'), in the public corpus.
    check(
        "../checker/tests/public/jax-bc__rocm_threefry2x32.2026_02_05.mlir:52",
        "gpu-library-custom-call",
        "stablehlo.html",
        Mlir,
    );
    check(
        "../checker/tests/public/jax-bc__rocm_lu_pivots_to_permutation.2026_02_04.mlir:5",
        "gpu-library-custom-call",
        "stablehlo.html",
        Mlir,
    );
    // XLA:TPU's own expansion of the LU decomposition, compiled.
    check(
        "../checker/tests/drift/jax-0.10.2/solve.compiled.tpu.hlo.txt:153",
        "tpu-custom-call",
        "fusion.html",
        CustomCall,
    );
    // `x - 1.0` rewritten by XLA's algebraic simplifier as an `add` of -1.
    check(
        "elementwise_chain/compiled.cpu.hlo.txt:40",
        "rewritten-op",
        "hlo.html",
        Source,
    );
    // The header tag of XLA:GPU's scheduler (every compiled H100 fixture).
    check(
        "elementwise_chain/compiled.gpu.hlo.txt:1",
        "lhs-fingerprint",
        "buffer-assignment.html",
        Schedule,
    );
    check(
        "argmax/lowered.hlo.txt:4",
        "bare-names",
        "hlo.html",
        Printer,
    );
    check(
        "argmax/compiled.cpu.hlo.txt:3",
        "stack-frames",
        "hlo.html",
        Source,
    );
}

#[test]
fn a_lapack_call_is_lowered_text_only() {
    // The lowered line shows `lapack-custom-call`; the same routine as an
    // HLO `custom-call` (lowered to HLO, or compiled) is `cpu-custom-call`.
    let cases = [
        ("solve.lowered.stablehlo.mlir:7", true, false),
        ("solve.lowered.stablehlo.mlir:96", true, false),
        ("solve.lowered.stablehlo.mlir:8", false, false),
        ("solve.lowered.hlo.txt:96", false, true),
    ];
    for (place, lapack, cpu) in cases {
        let l = line(&format!("../checker/tests/drift/jax-0.10.2/{place}"));
        assert_eq!(
            marker_matches("lapack-custom-call", &l),
            Some(lapack),
            "{place}: {l}"
        );
        assert_eq!(
            marker_matches("cpu-custom-call", &l),
            Some(cpu),
            "{place}: {l}"
        );
    }
}

#[test]
fn only_compiled_gpu_headers_carry_the_lhs_fingerprint() {
    // Every compiled H100 header carries `fingerprint_before_lhs`, no CPU
    // or TPU header does, and neither does a lowered module's header.
    let root = fixtures();
    let mut seen = [0usize; 3];
    for fam in std::fs::read_dir(&root).unwrap().flatten() {
        for (i, name) in [
            "compiled.gpu.hlo.txt",
            "compiled.cpu.hlo.txt",
            "compiled.tpu.hlo.txt",
            "lowered.hlo.txt",
        ]
        .iter()
        .enumerate()
        {
            let Ok(text) = std::fs::read_to_string(fam.path().join(name)) else {
                continue;
            };
            let head = text.lines().next().unwrap_or("");
            let want = i == 0;
            assert_eq!(
                marker_matches("lhs-fingerprint", head),
                Some(want),
                "{}/{name}: {head}",
                fam.path().display()
            );
            seen[i.min(2)] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
}

#[test]
fn jax_0_10_2_lowers_an_fft_the_same_for_every_platform() {
    // `jax.jit(jnp.fft.fft).lower(c64[3,4]).as_text()` with the pinned JAX
    // 0.10.2, lowered for the CPU, a deviceless H100 and a deviceless TPU
    // v5e: the three texts are byte-identical (`tests/data/
    // fft.lowered.stablehlo.mlir`), a `stablehlo.fft` where jaxlib once
    // called `@ducc_fft` for the CPU; so no line names a platform and the
    // backend stays unnamed.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fft.lowered.stablehlo.mlir");
    let text = std::fs::read_to_string(path).unwrap();
    let fft = text.lines().nth(7).unwrap();
    assert!(fft.contains("stablehlo.fft"), "{fft}");
    for m in [
        "lapack-custom-call",
        "gpu-library-custom-call",
        "tpu-lowering-custom-call",
        "cpu-custom-call",
        "gpu-custom-call",
        "tpu-custom-call",
    ] {
        assert_eq!(marker_matches(m, fft), Some(false), "{m}: {fft}");
    }
    let a = analyze(&text);
    assert_eq!(a.kind, dumplab::Kind::Stablehlo);
    assert_eq!(a.backend, None, "{:?}", a.backend_basis);
}

#[test]
fn host_callbacks_and_ducc_fft_name_the_cpu() {
    // (line, lapack-custom-call, cpu-custom-call, gpu-custom-call,
    // gpu-library-custom-call): a `jax.pure_callback` lowered and compiled
    // for the CPU (`xla_ffi_python_cpu_callback`, JAX 0.10.2's fixture), and
    // `@ducc_fft`, jaxlib's CPU FFT of 2023 in JAX's export back-compat data
    // (the public corpus). Not: the callback's operand line, a plain op.
    let cases = [
        (
            "sharded_callback/lowered.stablehlo.mlir:8",
            true,
            false,
            false,
            false,
        ),
        (
            "sharded_callback/lowered.stablehlo.mlir:7",
            false,
            false,
            false,
            false,
        ),
        (
            "sharded_callback/lowered.hlo.txt:13",
            false,
            true,
            false,
            false,
        ),
        (
            "sharded_callback/compiled.cpu.hlo.txt:21",
            false,
            true,
            false,
            false,
        ),
        (
            "sharded_callback/compiled.cpu.hlo.txt:20",
            false,
            false,
            false,
            false,
        ),
        (
            "../checker/tests/public/jax-bc__cpu_ducc_fft.2023_03_17.mlir:9",
            true,
            false,
            false,
            false,
        ),
        (
            "../checker/tests/public/jax-bc__cpu_ducc_fft.2023_03_17.mlir:8",
            false,
            false,
            false,
            false,
        ),
    ];
    let markers = [
        "lapack-custom-call",
        "cpu-custom-call",
        "gpu-custom-call",
        "gpu-library-custom-call",
    ];
    for (place, lapack, cpu, gpu, gpu_lib) in cases {
        let l = line(place);
        for (m, want) in markers.iter().zip([lapack, cpu, gpu, gpu_lib]) {
            assert_eq!(marker_matches(m, &l), Some(want), "{m} {place}: {l}");
        }
    }
}

#[test]
fn platform_library_calls_name_their_platform_and_no_other() {
    // Each lowered line shows its platform's marker and none of the others';
    // `Qr` (JAX's default lowering, which every backend expands) shows none.
    let markers = [
        "lapack-custom-call",
        "gpu-library-custom-call",
        "tpu-lowering-custom-call",
    ];
    let cases = [
        ("jax-0.10.2/solve.lowered.stablehlo.mlir:7", Some(0)),
        ("jax-0.4.30/solve.lowered.stablehlo.mlir:12", Some(0)),
        ("jax-0.4.30/solve.lowered.mhlo.mlir:12", Some(0)),
        ("jax-0.4.30/solve.lowered.mhlo.mlir:111", Some(0)),
        ("jax-0.4.30/solve.lowered.mhlo.mlir:13", None),
        ("jax-0.10.2/solve.lowered.gpu.stablehlo.mlir:8", Some(1)),
        ("jax-0.10.2/solve.lowered.gpu.stablehlo.mlir:20", Some(1)),
        ("jax-0.10.2/solve.lowered.tpu.stablehlo.mlir:8", Some(2)),
        ("jax-0.10.2/eigh.lowered.gpu.stablehlo.mlir:13", Some(1)),
        ("jax-0.10.2/eigh.lowered.tpu.stablehlo.mlir:13", Some(2)),
        ("jax-0.10.2/solve.lowered.tpu.stablehlo.mlir:9", None),
    ];
    for (place, which) in cases {
        let l = line(&format!("../checker/tests/drift/{place}"));
        for (i, m) in markers.iter().enumerate() {
            assert_eq!(
                marker_matches(m, &l),
                Some(which == Some(i)),
                "{m} {place}: {l}"
            );
        }
    }
    let l = r#"    %0:2 = stablehlo.custom_call @Qr(%arg0) {api_version = 1 : i32, backend_config = ""} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>)"#;
    for m in markers {
        assert_eq!(marker_matches(m, l), Some(false), "{m}: {l}");
    }
    // Compiled for a TPU: XLA:TPU's own linear algebra targets.
    for n in [153, 165, 168] {
        let place = format!("../checker/tests/drift/jax-0.10.2/solve.compiled.tpu.hlo.txt:{n}");
        assert_eq!(
            marker_matches("tpu-custom-call", &line(&place)),
            Some(true),
            "{place}"
        );
    }
}

#[test]
fn every_marker_the_analysis_reports_on_the_fixtures_has_a_full_row() {
    let mut families: Vec<_> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    families.sort();
    let mut seen = std::collections::BTreeSet::new();
    for family in families {
        for entry in std::fs::read_dir(&family).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name == "fixture.toml" || name.ends_with(".py") || !path.is_file() {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for e in analyze(&text).evidence {
                if seen.insert(e.marker) {
                    assert!(marker_description(e.marker).is_some(), "{}", e.marker);
                    assert!(marker_chapter(e.marker).is_some(), "{}", e.marker);
                    assert!(marker_detector(e.marker).is_some(), "{}", e.marker);
                }
            }
        }
    }
    assert!(seen.len() > 40, "{seen:?}");
    assert!(Chapter::ALL.iter().all(|c| c.page().ends_with(".html")));
}

#[test]
fn a_rewritten_op_is_an_opcode_another_primitive_lowers_to() {
    // Compiled: `add` named `jit(fn)/sub`, `multiply` named `jit(fn)/div`.
    // Not: the same ops before optimization, an op named after its own
    // primitive, a `broadcast` named after the op it feeds.
    let cases = [
        ("elementwise_chain/compiled.cpu.hlo.txt:40", true),
        ("softmax/compiled.cpu.hlo.txt:47", true),
        ("layernorm/compiled.gpu.hlo.txt:48", true),
        ("elementwise_chain/compiled.cpu.hlo.txt:34", false),
        ("elementwise_chain/compiled.cpu.hlo.txt:39", false),
        ("softmax/compiled.cpu.hlo.txt:46", false),
    ];
    for (place, want) in cases {
        let l = line(place);
        assert_eq!(
            marker_matches("rewritten-op", &l),
            Some(want),
            "{place}: {l}"
        );
    }
}

#[test]
fn no_rewritten_op_before_optimization() {
    // Real modules before any XLA pass whose names and opcodes differ
    // anyway, made with the pinned JAX (`as_text(dialect="hlo",
    // debug_info=True)` of `jnp.exp` on `complex64[8,8]`; XLA's own
    // `before_optimizations` dump of the grad of
    // `sum(exp(a - 1.) / 3. * maximum(a, 0.) - a)`): complex `exp` lowers to
    // `multiply`s named `jit(exp)/exp`, and the conversion to HLO names an
    // `add` it made `.../add_any;.../neg`.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for file in [
        "complex_exp.lowered.hlo.txt",
        "grad_merged_names.before_optimizations.txt",
    ] {
        let text = std::fs::read_to_string(data.join(file)).unwrap();
        let a = analyze(&text);
        // No proof either way (a header without `is_scheduled=true` is a
        // hint, read to the entry with no compiler work): likely the module
        // before compilation, and said to be likely.
        assert_eq!(
            a.kind,
            dumplab::Kind::HloUnoptimized,
            "{file}: {:?}",
            a.reason
        );
        assert!(a.kind_likely.is_some(), "{file}");
        assert!(
            a.evidence.iter().all(|e| e.marker != "rewritten-op"),
            "{file}: {:?}",
            a.evidence
                .iter()
                .filter(|e| e.marker == "rewritten-op")
                .collect::<Vec<_>>()
        );
    }
    let merged = line("../checker/tests/data/grad_merged_names.before_optimizations.txt:45");
    assert!(merged.contains("add_any;"), "{merged}");
    assert_eq!(marker_matches("rewritten-op", &merged), Some(false));
}
