//! The Pallas kernel markers on real lines of the fixtures' dumps: which
//! marker each line shows, and the kernel name it carries.

use super::{Flavour, kernel_call};
use crate::analysis::line_match::marker_matches;

fn line(family_file: &str, n: usize) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(family_file);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    text.lines().nth(n - 1).unwrap_or_default().to_owned()
}

/// (dump, line, the kernel the line shows: flavour, name, from a `pallas_call`)
type Want<'a> = Option<(Flavour, Option<&'a str>, bool)>;

fn check(cases: &[(&str, usize, Want<'_>)]) {
    for &(file, n, want) in cases {
        let l = line(file, n);
        assert!(!l.is_empty(), "{file}:{n} is missing or empty");
        let got = kernel_call(&l).map(|k| (k.flavour, k.name, k.from_pallas));
        assert_eq!(got, want, "{file}:{n}");
        for (marker, flavour) in [
            ("mosaic-tpu-kernel", Flavour::MosaicTpu),
            ("triton-kernel", Flavour::Triton),
            ("mosaic-gpu-kernel", Flavour::MosaicGpu),
        ] {
            let shows = want.is_some_and(|(f, _, _)| f == flavour);
            assert_eq!(
                marker_matches(marker, &l),
                Some(shows),
                "{file}:{n} {marker}"
            );
        }
    }
}

#[test]
fn pallas_kernels_on_real_lines() {
    use Flavour::*;
    check(&[
        // Compiled TPU: the custom call, no name outside the serialized body.
        (
            "pallas_elementwise/compiled.tpu.hlo.txt",
            19,
            Some((MosaicTpu, None, true)),
        ),
        // Lowered for the TPU: `kernel_name` names it.
        (
            "pallas_elementwise/lowered.tpu.stablehlo.mlir",
            5,
            Some((MosaicTpu, Some("scale_shift_kernel"), true)),
        ),
        // Triton, compiled and lowered: `name = "..."` in the backend config.
        (
            "pallas_matmul/compiled.gpu.hlo.txt",
            19,
            Some((Triton, Some("matmul_kernel"), true)),
        ),
        (
            "pallas_softmax/lowered.gpu.stablehlo.mlir",
            5,
            Some((Triton, Some("softmax_kernel"), true)),
        ),
        // Mosaic GPU: no name field.
        (
            "pallas_elementwise/compiled.gpu.mosaic_gpu.hlo.txt",
            19,
            Some((MosaicGpu, None, true)),
        ),
        // A Mosaic kernel XLA:TPU wrote itself from plain `jnp` attention:
        // its op_name is `online-softmax`, not a `pallas_call`.
        (
            "attention/compiled.tpu.hlo.txt",
            47,
            Some((MosaicTpu, None, false)),
        ),
        // Not a kernel: the copy in front of it, the parameter, a cuBLAS
        // call, a Triton *fusion* XLA made itself.
        ("pallas_elementwise/compiled.tpu.hlo.txt", 18, None),
        ("pallas_elementwise/compiled.gpu.hlo.txt", 17, None),
        ("matmul_cublas_epilogue/compiled.gpu.hlo.txt", 20, None),
        ("softmax/compiled.gpu.hlo.txt", 43, None),
    ]);
}

#[test]
fn hostile_and_truncated_lines_do_not_panic() {
    for l in [
        "custom_call_target=\"tpu_custom_call",
        "stablehlo.custom_call @\"__gpu$xla.gpu.triton",
        "stablehlo.custom_call @mosaic_gpu_v2",
        "%k = f32[] custom-call(), custom_call_target=\"__gpu$xla.gpu.triton\", backend_config={, name = \"",
        "%k = f32[] custom-call(), custom_call_target=\"tpu_custom_call\" kernel_name = \"é\"",
    ] {
        let _ = kernel_call(l);
    }
    let k = kernel_call(
        "%k = f32[] custom-call(), custom_call_target=\"__gpu$xla.gpu.triton\", backend_config={, name = \"",
    );
    assert_eq!(k.map(|k| (k.name, k.from_pallas)), Some((None, false)));
}

#[test]
fn the_note_names_the_field_that_holds_the_kernel() {
    let check = |file: &str, n: usize, field: &str| {
        let l = line(file, n);
        let k = kernel_call(&l).unwrap_or_else(|| panic!("{file}:{n} holds no kernel"));
        let note = super::note(&k);
        assert!(
            note.contains(&format!("`{field}` carries")),
            "{file}:{n}: {note}"
        );
        assert!(note.contains("allow_input_fusion"), "{file}:{n}: {note}");
    };
    check(
        "pallas_softmax/lowered.gpu.stablehlo.mlir",
        5,
        "mhlo.backend_config",
    );
    check(
        "pallas_elementwise/lowered.gpu.mosaic_gpu.stablehlo.mlir",
        5,
        "mhlo.backend_config",
    );
    check(
        "pallas_elementwise/lowered.tpu.stablehlo.mlir",
        5,
        "backend_config",
    );
    check(
        "pallas_elementwise/compiled.gpu.hlo.txt",
        19,
        "backend_config",
    );
    check(
        "pallas_elementwise/compiled.tpu.hlo.txt",
        19,
        "backend_config",
    );
}
