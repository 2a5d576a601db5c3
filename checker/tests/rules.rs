//! Each rule of the kind and backend decision (`dumplab::analysis::rules`)
//! on a minimal real excerpt: lines copied verbatim from the course's
//! fixtures, the drift corpus and XLA dump folders (the source of each is
//! named; a line cut short is a paste cut short, as issue threads cut them).
//! And the rule table agrees with the claim table that grades evidence.

#![allow(clippy::unwrap_used)]

use dumplab::analysis::claims::Claim;
use dumplab::analysis::{BackendBasis, Dialect, Verdict, Weight, rules};
use dumplab::{Backend, Kind, analyze};
use std::collections::BTreeSet;

/// What one excerpt must read as.
struct Expect {
    kind: Kind,
    rule: Option<&'static str>,
    dialect: Option<Dialect>,
    backend: Option<(Backend, BackendBasis)>,
    /// Words of the reason (for `unknown`).
    reason: &'static str,
}

fn check(name: &str, input: &str, e: Expect) {
    let a = analyze(input);
    assert_eq!(a.kind, e.kind, "{name}: {:?}", a.reason);
    assert_eq!(a.kind_rule, e.rule, "{name}");
    assert_eq!(a.dialect, e.dialect, "{name}");
    assert_eq!(a.backend.zip(a.backend_basis), e.backend, "{name}");
    assert!(
        a.reason.as_deref().unwrap_or("").contains(e.reason),
        "{name}: {:?}",
        a.reason
    );
}

/// A kind that rests on hints alone, said to be likely, with `words`.
fn likely(input: &str, words: &str) {
    let a = analyze(input);
    let l = a.kind_likely.as_deref().unwrap_or("");
    assert!(
        l.starts_with("likely, not proved") && l.contains(words),
        "{l:?}"
    );
    assert!(a.kind_guess.is_none() && a.reason.is_none());
}

/// The guess kept apart from the kind, and the hint rule that suggests it.
fn guess(input: &str, want: Option<(Kind, &'static str)>) {
    let a = analyze(input);
    assert_eq!(a.kind_guess.zip(a.kind_guess_rule), want, "{:?}", a.reason);
}

/// Lines `first..=last` of a fixture dump, verbatim, each ending in `\n`.
fn fixture(file: &str, first: usize, last: usize) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(file);
    let text = std::fs::read_to_string(&p).unwrap();
    text.lines()
        .skip(first - 1)
        .take(last + 1 - first)
        .map(|l| format!("{l}\n"))
        .collect()
}

/// `tests/drift/jax-0.4.13/mlp.compiled.cpu.hlo.txt` (jax 0.4.13's
/// `compile().as_text()`), lines 1-2 and 9-11: no `is_scheduled=true`.
const OLD_COMPILED: &str = r#"HloModule jit_mlp, entry_computation_layout={(f32[8,16]{1,0}, f32[16,32]{1,0}, f32[32]{0})->f32[8]{0}}, allow_spmd_sharding_propagation_to_output={true}

%fused_computation (param_0.3: f32[8,32], param_1.3: f32[32]) -> f32[8] {
  %param_0.3 = f32[8,32]{1,0} parameter(0)
  %param_1.3 = f32[32]{0} parameter(1)
"#;

/// `tests/drift/jax-0.4.26/softmax.compiled.cpu.hlo.txt`, lines 1-6.
const JAX_0_4_26_SOFTMAX: &str = r#"HloModule jit_softmax, entry_computation_layout={(f32[8,128]{1,0})->f32[8,128]{1,0}}, allow_spmd_sharding_propagation_to_parameters={true}, allow_spmd_sharding_propagation_to_output={true}

ENTRY %main.25 (Arg_0.1: f32[8,128]) -> f32[8,128] {
  %Arg_0.1 = f32[8,128]{1,0} parameter(0)
  ROOT %custom-call = f32[8,128]{1,0} custom-call(f32[8,128]{1,0} %Arg_0.1), custom_call_target="__onednn$softmax", metadata={op_name="jit(softmax)/jit(main)/div" source_file="checker/tests/drift/functions/jax_fns.py" source_line=15}
}
"#;

/// `checker/tests/data/xla_dump_tpu_before_optimizations.txt` (jax
/// 0.10.2 with libtpu, `--xla_dump_to`, deviceless v5e): the header's
/// entry layout is tiled, the instructions are not.
const TPU_BEFORE: &str = include_str!("data/xla_dump_tpu_before_optimizations.txt");

/// Line `n` of a fixture dump cut before `, metadata=` (and what follows:
/// the scheduling name and backend config), as a paste cut short.
fn cut_before_metadata(file: &str, n: usize) -> String {
    let l = fixture(file, n, n);
    let cut = l.split(", metadata=").next().unwrap().to_owned();
    assert!(cut.len() < l.len(), "{file}:{n} has metadata");
    cut
}

/// The `copy` line of `fixtures/fori_loop_while/compiled.cpu.hlo.txt`.
fn copy() -> String {
    fixture("fori_loop_while/compiled.cpu.hlo.txt", 66, 66)
}

/// The compiled header of `fixtures/elementwise_chain/compiled.cpu.hlo.txt`.
fn scheduled_header() -> String {
    fixture("elementwise_chain/compiled.cpu.hlo.txt", 1, 1)
}

#[test]
fn each_rule_on_a_real_excerpt() {
    let hlo = Some(Dialect::Hlo);
    // No clue names a backend: none (a guess is kept apart).
    let cpu_inferred = None;
    check(
        "scheduled: the compiled header",
        &scheduled_header(),
        Expect {
            kind: Kind::HloOptimized,
            rule: Some("scheduled"),
            dialect: hlo,
            backend: cpu_inferred,
            reason: "",
        },
    );
    check(
        "compiler-structure: fused computation and param_N outweigh a header without is_scheduled",
        OLD_COMPILED,
        Expect {
            kind: Kind::HloOptimized,
            rule: Some("compiler-structure"),
            dialect: hlo,
            backend: cpu_inferred,
            reason: "",
        },
    );
    check(
        "compiler-layout: a tiled layout on an instruction",
        &fixture("argmax/compiled.tpu.hlo.txt", 18, 18),
        Expect {
            kind: Kind::HloOptimized,
            rule: Some("compiler-layout"),
            dialect: hlo,
            backend: Some((Backend::Tpu, BackendBasis::Evidence)),
            reason: "",
        },
    );
    check(
        "backend-config: a TPU backend config",
        &fixture("cumsum/compiled.tpu.hlo.txt", 37, 37),
        Expect {
            kind: Kind::HloOptimized,
            rule: Some("backend-config"),
            dialect: hlo,
            backend: Some((Backend::Tpu, BackendBasis::Evidence)),
            reason: "",
        },
    );
    check(
        "unscheduled-header: XLA's before-optimizations dump, header to entry with no compiler work: a hint no corpus contradicts, so likely",
        include_str!("data/xla_dump_before_optimizations.txt"),
        Expect {
            kind: Kind::HloUnoptimized,
            rule: Some("unscheduled-header"),
            dialect: hlo,
            backend: None,
            reason: "",
        },
    );
    guess(include_str!("data/xla_dump_before_optimizations.txt"), None);
    likely(
        include_str!("data/xla_dump_before_optimizations.txt"),
        "line 1 shows `not-scheduled` (rule `unscheduled-header`)",
    );
    check(
        "unscheduled-header: the header alone tells nothing (JAX up to 0.4.26 printed compiled modules so)",
        &fixture("elementwise_chain/lowered.hlo.txt", 1, 1),
        Expect {
            kind: Kind::Unknown,
            rule: None,
            dialect: hlo,
            backend: None,
            reason: "JAX up to 0.4.26 printed compiled modules so too",
        },
    );
    check(
        "lowering-printer: bare names and a signature-less region after the header: a hint, so unknown and a guess",
        &fixture("softmax/lowered.hlo.txt", 1, 6),
        Expect {
            kind: Kind::Unknown,
            rule: None,
            dialect: hlo,
            backend: None,
            reason: "line 3 shows `unsigned-computation` (rule `lowering-printer`)",
        },
    );
    guess(
        &fixture("softmax/lowered.hlo.txt", 1, 6),
        Some((Kind::HloUnoptimized, "lowering-printer")),
    );
    check(
        "sharding-annotation: a Shardy result-sharding call of the lowering proves a module before compilation",
        &format!(
            "{}{}",
            fixture("sharded_matmul/lowered.hlo.txt", 1, 1),
            fixture("sharded_matmul/lowered.hlo.txt", 7, 7)
        ),
        Expect {
            kind: Kind::HloUnoptimized,
            rule: Some("sharding-annotation"),
            dialect: hlo,
            backend: None,
            reason: "",
        },
    );
    check(
        "lowering-printer: without the header, bare names tell nothing (jaxlib 0.4.13's dumps of compiled modules print them too)",
        &fixture("softmax/lowered.hlo.txt", 3, 6),
        Expect {
            kind: Kind::Unknown,
            rule: None,
            dialect: hlo,
            backend: None,
            reason: "without the module header",
        },
    );
    check(
        "front-end-copy: a copy alone decides nothing",
        &copy(),
        Expect {
            kind: Kind::Unknown,
            rule: None,
            dialect: hlo,
            backend: None,
            reason: "A `copy` alone does not tell",
        },
    );
    check(
        "entry-layout-tiles: a TPU module before optimizations: a TPU, and no proof of the kind (likely, by its header)",
        TPU_BEFORE,
        Expect {
            kind: Kind::HloUnoptimized,
            rule: Some("unscheduled-header"),
            dialect: hlo,
            backend: Some((Backend::Tpu, BackendBasis::Evidence)),
            reason: "",
        },
    );
    likely(TPU_BEFORE, "(rule `unscheduled-header`)");
    check(
        "entry-layout-tiles: the header alone names a TPU, and no kind",
        TPU_BEFORE.lines().next().unwrap(),
        Expect {
            kind: Kind::Unknown,
            rule: None,
            dialect: hlo,
            backend: Some((Backend::Tpu, BackendBasis::Evidence)),
            reason: "",
        },
    );
    check(
        "gpu: a GEMM fusion's name, the line cut before its metadata",
        &cut_before_metadata("matmul/compiled.gpu.hlo.txt", 25),
        Expect {
            kind: Kind::HloOptimized,
            rule: Some("compiler-structure"),
            dialect: hlo,
            backend: Some((Backend::Gpu, BackendBasis::Evidence)),
            reason: "",
        },
    );
    check(
        "compiler-library-call: a cuDNN convolution, the line cut before its metadata",
        &cut_before_metadata("conv2d/compiled.gpu.hlo.txt", 25),
        Expect {
            kind: Kind::HloOptimized,
            rule: Some("compiler-library-call"),
            dialect: hlo,
            backend: Some((Backend::Gpu, BackendBasis::Evidence)),
            reason: "",
        },
    );
    check(
        "compiler-library-call: XLA:CPU's oneDNN softmax (tests/drift/jax-0.4.26/softmax.compiled.cpu.hlo.txt:1-5, jax 0.4.26 printing no is_scheduled)",
        JAX_0_4_26_SOFTMAX,
        Expect {
            kind: Kind::HloOptimized,
            rule: Some("compiler-library-call"),
            dialect: hlo,
            backend: Some((Backend::Cpu, BackendBasis::Evidence)),
            reason: "",
        },
    );
    check(
        "mhlo: jax 0.4.13's lowered module (tests/drift/jax-0.4.13/mlp.lowered.mhlo.mlir:6)",
        "    %3 = mhlo.add %0, %2 : tensor<8x32xf32>\n",
        Expect {
            kind: Kind::Stablehlo,
            rule: None,
            dialect: Some(Dialect::Mhlo),
            backend: None,
            reason: "",
        },
    );
}

#[test]
fn a_copy_in_a_compiled_module_is_a_compiler_copy() {
    // With the header that says compiled, the same copy line proves it too.
    let text = format!("{}{}", scheduled_header(), copy());
    let a = analyze(&text);
    assert_eq!(a.kind, Kind::HloOptimized);
    assert!(a.line_markers.contains(2, "layout-op"));
    assert!(a.line_markers.contains(2, "copy-instruction"));
    // Before compilation, a copy is the front end's (TensorFlow's bridge
    // emits them; here the copy line put into the entry of a real module
    // before optimizations: a composition of two real excerpts).
    let mut lines: Vec<String> = TPU_BEFORE.lines().map(str::to_owned).collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("ROOT"))
        .unwrap();
    lines.insert(at, copy().trim_end().to_owned());
    let a = analyze(&lines.join("\n"));
    // A copy corroborates only: the header's hint makes it likely.
    assert_eq!(a.kind, Kind::HloUnoptimized, "{:?}", a.reason);
    assert!(a.kind_likely.is_some(), "{:?}", a.reason);
    assert!(a.line_markers.contains(at + 1, "copy-instruction"));
    assert!(!a.line_markers.contains(at + 1, "layout-op"));
}

/// The markers of the rules of one verdict that can decide (weight above
/// corroborating).
fn rule_markers(v: Verdict) -> BTreeSet<&'static str> {
    rules()
        .iter()
        .filter(|r| r.verdict == v && r.weight > Weight::Corroborates)
        .flat_map(|r| r.marker_names())
        .collect()
}

/// The markers of the proof rules of one verdict.
fn proof_markers(v: Verdict) -> BTreeSet<&'static str> {
    rules()
        .iter()
        .filter(|r| r.verdict == v && r.weight == Weight::Proof)
        .flat_map(|r| r.marker_names())
        .collect()
}

fn claim_markers(cs: &[Claim]) -> BTreeSet<&'static str> {
    cs.iter().flat_map(|c| c.marker_names()).collect()
}

#[test]
fn the_rule_table_agrees_with_the_claim_table() {
    assert_eq!(
        rule_markers(Verdict::Compiled),
        claim_markers(&[Claim::Compiled])
    );
    // A claim of a kind is proven only by a proof rule's clues; the hints'
    // clues prove none (they suggest a guess), and the lowering printer's
    // are what the printer claim reads.
    assert_eq!(
        proof_markers(Verdict::NotCompiled),
        claim_markers(&[Claim::NotCompiled])
    );
    let printer = rules()
        .iter()
        .find(|r| r.name == "lowering-printer")
        .map(|r| r.marker_names().collect::<BTreeSet<_>>());
    assert_eq!(printer, Some(claim_markers(&[Claim::LoweredHlo])));
    for r in rules().iter().filter(|r| r.weight == Weight::Hint) {
        for m in r.marker_names() {
            assert!(
                !Claim::NotCompiled.proven_by(m) && !Claim::Compiled.proven_by(m),
                "hint `{}`'s clue `{m}` proves a kind claim",
                r.name
            );
        }
    }
    for b in Backend::ALL {
        assert_eq!(
            rule_markers(Verdict::Backend(b)),
            claim_markers(&[Claim::of_backend(b)]),
            "{b}"
        );
    }
    let names: BTreeSet<&str> = rules().iter().map(|r| r.name).collect();
    assert_eq!(names.len(), rules().len(), "rule names are unique");
}
