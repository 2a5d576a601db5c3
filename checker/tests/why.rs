//! `why` on the paste corpus (`tests/pastes/`, every file made by the
//! pinned JAX, see its README): each finding fires on the dump built for
//! it and not on the negative built beside it (the ground truth is the
//! construction, not this reader's output); on fragments cut from the dump
//! as people paste them; and its memory figures equal XLA's.

#![allow(clippy::unwrap_used)]

use dumplab::why::{self, Form, Why};
use std::collections::BTreeSet;
use std::path::Path;

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn names(w: &Why) -> BTreeSet<&'static str> {
    w.findings
        .iter()
        .map(|f| why::catalogue::row(f.what).name)
        .collect()
}

fn why_of(text: &str) -> Why {
    why::why(&[text], None).unwrap()
}

/// (file under `tests/pastes/`, finding, whether the construction puts
/// it there).
const TRUTH: &[(&str, &str, bool)] = &[
    (
        "scatter_loop/compiled.gpu.set_c128.hlo.txt",
        "scatter-serial-loop",
        true,
    ),
    (
        "scatter_loop/compiled.gpu.set_c128_unique.hlo.txt",
        "scatter-serial-loop",
        true,
    ),
    (
        "scatter_loop/compiled.gpu.add_c128.hlo.txt",
        "scatter-serial-loop",
        false,
    ),
    (
        "scatter_loop/compiled.gpu.add_rows_f32.hlo.txt",
        "scatter-serial-loop",
        false,
    ),
    (
        "scatter_loop/compiled.cpu.set_c128.hlo.txt",
        "scatter-serial-loop",
        false,
    ),
    (
        "scatter_loop/compiled.tpu.lax_unique_sorted.hlo.txt",
        "scatter-serial-loop",
        false,
    ),
    ("copy_in_loop/compiled.cpu.swap.hlo.txt", "loop-copy", true),
    (
        "copy_in_loop/compiled.cpu.transpose.hlo.txt",
        "loop-copy",
        true,
    ),
    ("copy_in_loop/compiled.gpu.swap.hlo.txt", "loop-copy", true),
    (
        "copy_in_loop/compiled.gpu.transpose.hlo.txt",
        "loop-copy",
        true,
    ),
    ("copy_in_loop/compiled.tpu.swap.hlo.txt", "loop-copy", true),
    (
        "copy_in_loop/compiled.tpu.transpose.hlo.txt",
        "loop-copy",
        true,
    ),
    (
        "donation_missing/compiled.cpu.hlo.txt",
        "donation-copy",
        true,
    ),
    (
        "donation_missing/compiled.gpu.hlo.txt",
        "donation-copy",
        true,
    ),
    (
        "donation_missing/compiled.tpu.hlo.txt",
        "donation-copy",
        true,
    ),
    (
        "donation_missing/compiled.cpu.donated.hlo.txt",
        "donation-copy",
        false,
    ),
    (
        "donation_missing/compiled.gpu.donated.hlo.txt",
        "donation-copy",
        false,
    ),
    (
        "donation_missing/compiled.tpu.donated.hlo.txt",
        "donation-copy",
        false,
    ),
    (
        "donation_unusable/warning.argnums.txt",
        "donation-unusable",
        true,
    ),
    (
        "donation_unusable/warning.argnames.txt",
        "donation-unusable",
        true,
    ),
    (
        "allgather_dot/compiled.tpu.gather_constraint.hlo.txt",
        "all-gather-before-dot",
        true,
    ),
    (
        "allgather_dot/compiled.tpu.gather_out_replicated.hlo.txt",
        "all-gather-before-dot",
        true,
    ),
    (
        "allgather_dot/compiled.tpu.well_sharded.hlo.txt",
        "all-gather-before-dot",
        false,
    ),
    (
        "allgather_dot/compiled.tpu.contracting_both.hlo.txt",
        "all-gather-before-dot",
        false,
    ),
    (
        "allgather_dot/compiled.cpu.well_sharded.hlo.txt",
        "all-gather-before-dot",
        false,
    ),
    (
        "gpu_dot_no_library/compiled.gpu.s32.hlo.txt",
        "dot-no-library",
        true,
    ),
    (
        "gpu_dot_no_library/compiled.gpu.u8_u8_u32.hlo.txt",
        "dot-no-library",
        true,
    ),
    (
        "gpu_dot_no_library/compiled.gpu.s32.no_triton.hlo.txt",
        "dot-no-library",
        true,
    ),
    (
        "gpu_dot_no_library/compiled.gpu.f32.hlo.txt",
        "dot-no-library",
        false,
    ),
    (
        "gpu_dot_no_library/compiled.gpu.f32.no_triton.hlo.txt",
        "dot-no-library",
        false,
    ),
    (
        "gpu_dot_no_library/compiled.gpu.f64.no_triton.hlo.txt",
        "dot-no-library",
        false,
    ),
    (
        "gpu_dot_no_library/compiled.gpu.bf16_f32.hlo.txt",
        "dot-no-library",
        false,
    ),
    (
        "gpu_dot_no_library/compiled.gpu.s8_s8_s32.no_triton.hlo.txt",
        "dot-no-library",
        false,
    ),
    (
        "gpu_dot_no_library/compiled.gpu.c64.no_triton.hlo.txt",
        "dot-no-library",
        false,
    ),
    (
        "tpu_padding/compiled.tpu.row_major.hlo.txt",
        "tile-padding",
        true,
    ),
    (
        "tpu_padding/compiled.tpu.default_layout.hlo.txt",
        "tile-padding",
        false,
    ),
    (
        "huge_intermediate/compiled.cpu.hlo.txt",
        "huge-intermediate",
        true,
    ),
    (
        "layout_transpose/compiled.tpu.transpose_plus.hlo.txt",
        "layout-transpose",
        true,
    ),
    (
        "layout_transpose/compiled.cpu.transpose_into_dot.hlo.txt",
        "layout-transpose",
        false,
    ),
    (
        "layout_transpose/compiled.gpu.transpose_into_dot.hlo.txt",
        "layout-transpose",
        false,
    ),
    (
        "layout_transpose/compiled.tpu.transpose_into_dot.hlo.txt",
        "layout-transpose",
        false,
    ),
    ("tpu_oom/error.tpu.matmul_chain.txt", "out-of-memory", true),
    (
        "tpu_oom/error.tpu.padded_params.lastline.txt",
        "out-of-memory",
        true,
    ),
    (
        "tpu_oom/error.tpu.padded_intermediates.traceback.txt",
        "out-of-memory",
        true,
    ),
];

#[test]
fn each_finding_fires_where_it_was_built_and_not_on_its_negative() {
    let mut wrong = Vec::new();
    for &(file, finding, expected) in TRUTH {
        let w = why_of(&read(&format!("tests/pastes/{file}")));
        if names(&w).contains(finding) != expected {
            wrong.push(format!(
                "{file}: {finding} expected {expected}, got {:?}",
                names(&w)
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // Every HLO finding of the catalogue has a dump built for it here.
    for row in why::catalogue::FINDINGS {
        let memory_only = matches!(
            row.name,
            "rematerialization-failed" | "largest-allocations" | "same-hlo"
        );
        assert!(
            memory_only || TRUTH.iter().any(|t| t.1 == row.name && t.2),
            "{}: no dump of the corpus was built for it",
            row.name
        );
    }
}

#[test]
fn the_same_program_twice_is_below_hlo() {
    let a = read("tests/pastes/identical_hlo/compiled.cpu.a.hlo.txt");
    let b = read("tests/pastes/identical_hlo/compiled.cpu.b.hlo.txt");
    let w = why::why(&[&a, &b], None).unwrap();
    assert!(names(&w).contains("same-hlo"), "{:?}", names(&w));
    let c = read("tests/pastes/copy_in_loop/compiled.cpu.swap.hlo.txt");
    let w = why::why(&[&a, &c], None).unwrap();
    assert!(!names(&w).contains("same-hlo"));
}

/// The fragments people paste, cut from a whole module: the module
/// without its header and source tables, without its source tables only, the end cut in the middle of the
/// line after the last evidence line, the 30 lines around the first
/// evidence line, and every line under a glog prefix.
fn fragments(text: &str, first: usize, last: usize) -> Vec<(&'static str, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with('%') || l.starts_with("ENTRY"))
        .unwrap_or(0);
    let no_header = lines[start..].join("\n");
    let cut_at = (last + 1).min(lines.len());
    let mut tail = lines[..cut_at.saturating_sub(1)].join("\n");
    if let Some(l) = lines.get(cut_at.saturating_sub(1)) {
        tail.push('\n');
        tail.push_str(&l[..l.len() / 2]);
    }
    let from = first.saturating_sub(15).max(1) - 1;
    let window = lines[from..(first + 15).min(lines.len())].join("\n");
    let logged: String = lines
        .iter()
        .map(|l| format!("I1207 12:00:00.000000  4242 dump.cc:12] {l}\n"))
        .collect();
    // The module without its source tables (`FileNames` to the first
    // computation), as people trim it.
    let tables = lines.iter().position(|l| *l == "FileNames").unwrap_or(1);
    let no_tables = [&lines[..tables], &lines[start..]].concat().join("\n");
    vec![
        ("no-header", no_header),
        ("no-tables", no_tables),
        ("cut-tail", tail),
        ("window", window),
        ("log-prefix", logged),
    ]
}

#[test]
fn findings_fire_on_fragments_and_fragments_add_none() {
    let mut report = Vec::new();
    for &(file, finding, expected) in TRUTH.iter().filter(|t| t.2 && t.0.contains("compiled")) {
        let _ = expected;
        let text = read(&format!("tests/pastes/{file}"));
        let whole = why_of(&text);
        let f = whole
            .findings
            .iter()
            .find(|f| why::catalogue::row(f.what).name == finding)
            .unwrap();
        let first = f.evidence.iter().map(|l| l.line).min().unwrap();
        let last = f.evidence.iter().map(|l| l.line).max().unwrap();
        let mut fired = Vec::new();
        for (form, cut) in fragments(&text, first, last) {
            let w = why_of(&cut);
            let extra: Vec<_> = names(&w).difference(&names(&whole)).copied().collect();
            assert!(
                extra.is_empty(),
                "{file} {form}: the fragment adds {extra:?}"
            );
            if names(&w).contains(finding) {
                fired.push(form);
            }
        }
        if fired.len() < 2 {
            report.push(format!("{file}: {finding} fires only on {fired:?}"));
        }
    }
    assert!(report.is_empty(), "{report:#?}");
}

#[test]
fn a_fragment_says_what_it_is() {
    let text = read("tests/pastes/scatter_loop/compiled.gpu.set_c128.hlo.txt");
    let lines: Vec<&str> = text.lines().collect();
    // The while body alone (lines 49 to 59).
    let body = lines[48..59].join("\n");
    let w = why_of(&body);
    let s = &w.inputs[0].scope;
    assert_eq!(s.form, Form::Computations);
    assert_eq!(s.loop_bodies, 1);
    assert!(
        s.sentence.contains("1 loop body read without its loop"),
        "{}",
        s.sentence
    );
    assert!(
        w.inputs[0]
            .next
            .as_deref()
            .unwrap_or("")
            .contains("compile().as_text()")
    );
    // A few instruction lines.
    let few = lines[19..24].join("\n");
    assert_eq!(why_of(&few).inputs[0].scope.form, Form::Instructions);
    // Cut in the middle of its last line.
    let cut = &text[..text.len() - 40];
    assert_eq!(why_of(cut).inputs[0].scope.form, Form::Cut);
    // No HLO: one refusal that says what to paste.
    let none = why_of("hello");
    assert_eq!(none.inputs[0].scope.form, Form::NoHlo);
    assert!(
        none.inputs[0]
            .next
            .as_deref()
            .unwrap()
            .contains("compile().as_text()")
    );
}

#[test]
fn memory_figures_equal_xlas() {
    // The deviceless TPU's error: the figures it prints.
    let w = why_of(&read("tests/pastes/tpu_oom/error.tpu.matmul_chain.txt"));
    let m = &w.inputs[0].memory[0];
    assert_eq!(m.figure("required").unwrap().bytes, 20 << 30);
    assert_eq!(m.figure("available").unwrap().printed, "15.75G");
    // The memory-usage report of the same kind of compile: its total in
    // bytes, and the error's 24.00G for it.
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pastes/tpu_oom/dump.tpu.padded_params");
    let report = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("memory-usage-report.txt"))
        .unwrap();
    let w = why_of(&std::fs::read_to_string(report).unwrap());
    let total = w.inputs[0].memory[0].figure("total").unwrap();
    assert_eq!((total.bytes, total.exact), (25_769_804_288, true));
    let err = why_of(&read("tests/pastes/tpu_oom/error.tpu.padded_params.txt"));
    // The error prints the same total with two decimals (the report adds
    // a 512-byte tuple to three 8 GiB buffers).
    let required = err.inputs[0].memory[0].figure("required").unwrap();
    assert_eq!(required.printed, "24.00G");
    assert_eq!(total.printed, "24.00GiB");
    assert!(total.bytes.abs_diff(required.bytes) < 1 << 20);
    // The padded bytes of the entry's parameters equal
    // `memory_analysis().argument_size_in_bytes` of the same compile.
    let text = read("tests/pastes/tpu_padding/compiled.tpu.row_major.hlo.txt");
    let m = dumplab::program::parse(&text);
    let entry = m.entry_computation().unwrap();
    let padded: u64 = entry
        .params
        .iter()
        .map(|&p| {
            let shape = m.instruction(p).unwrap().shape();
            let arrays = shape.arrays();
            dumplab::cost::estimate::padded_bytes(arrays[0]).unwrap()
        })
        .sum();
    let analysis = read("tests/pastes/tpu_padding/memory_analysis.tpu.row_major.json");
    assert!(
        analysis.contains(&format!("\"argument_size_in_bytes\": {padded}")),
        "{padded} vs {analysis}"
    );
}

/// XLA:TPU's long report comes from real TPUs only; this one is rebuilt
/// in its format (from the public reports' layout) with the figures of
/// the `padded_params` compile above, whose memory-usage report says
/// 8.00GiB for `f32[16777216,2]` and whose data is 128 MiB.
#[test]
fn the_long_tpu_report_is_read_with_its_figures() {
    let report = "\
jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 24.00G of 15.75G hbm. Exceeded hbm capacity by 8.25G.

Total hbm usage >= 24.25G:
    reserved        256.00M
    program          24.00G
    arguments            0B

Output size 16.00G; shares 0B with arguments.

Program hbm requirement 24.00G:
    global            4.0K
    HLO temp         24.00G (0.0% utilization: Unpadded (384.00M) Padded (24.00G), 0.0% fragmentation (0B))

  Largest program allocations in hbm:

  1. Size: 8.00G
     Operator: op_name=\"jit(oom_padded_params)/add\"
     Shape: f32[16777216,2]{1,0:T(8,128)}
     Unpadded size: 128.00M
     Extra memory due to padding: 7.88G (64.0x expansion)
     XLA label: %add.1 = f32[16777216,2]{1,0:T(8,128)} add(%x.1, %x.1)
     Allocation type: HLO temp
     ==========================
";
    let w = why_of(report);
    let m = &w.inputs[0].memory[0];
    let fig = |n: &str| m.figure(n).unwrap().bytes;
    assert_eq!(fig("used"), 24 << 30);
    assert_eq!(fig("capacity"), (15.75 * (1u64 << 30) as f64) as u64);
    assert_eq!(fig("exceeded"), (8.25 * (1u64 << 30) as f64) as u64);
    assert_eq!(fig("reserved"), 256 << 20);
    assert_eq!(fig("arguments"), 0);
    assert_eq!(fig("global"), 4 << 10);
    assert_eq!(fig("hlo-temp-unpadded"), 384 << 20);
    let a = &m.allocations[0];
    assert_eq!(a.size.as_ref().unwrap().bytes, 8 << 30);
    assert_eq!(a.unpadded.as_ref().unwrap().bytes, 128 << 20);
    assert_eq!(a.expansion, Some(64.0));
    assert_eq!(a.kind.as_deref(), Some("HLO temp"));
    let found = names(&w);
    assert!(
        found.contains("out-of-memory") && found.contains("tile-padding"),
        "{found:?}"
    );
    let pad = w
        .findings
        .iter()
        .find(|f| f.summary.contains("dimension 1 (2) is padded to 128"));
    assert!(pad.is_some(), "{:?}", w.findings);
}

#[test]
fn other_memory_messages_in_xlas_formats() {
    // `hlo_rematerialization.cc`'s LOG(WARNING), under glog's prefix.
    let remat = "W0000 00:00:1756998431.440298    5182 hlo_rematerialization.cc:3183] Can't reduce memory use below 17.50GiB (18790481920 bytes) by rematerialization; only reduced to 20.00GiB (21474836480 bytes), down from 20.50GiB (22011707392 bytes) originally";
    let w = why_of(remat);
    let m = &w.inputs[0].memory[0];
    assert_eq!(m.figure("limit").unwrap().bytes, 18_790_481_920);
    assert_eq!(m.figure("reached").unwrap().bytes, 21_474_836_480);
    assert!(names(&w).contains("rematerialization-failed"));
    // TSL's BFC allocator (no space before "requested").
    let bfc = "W external/xla/xla/tsl/framework/bfc_allocator.cc:501] Allocator (GPU_0_bfc) ran out of memory trying to allocate 16.00GiB (rounded to 17179869184)requested by op";
    let w = why_of(bfc);
    assert_eq!(
        w.inputs[0].memory[0].figure("requested").unwrap().bytes,
        17_179_869_184
    );
    // JAX's donation warning, both ways it printed avals.
    for (line, arrays) in [
        (
            "UserWarning: Some donated buffers were not usable: float32[1024,1024], int32[].",
            2,
        ),
        (
            "Some donated buffers were not usable: ShapedArray(float32[8,128]).",
            1,
        ),
    ] {
        let w = why_of(line);
        assert_eq!(w.inputs[0].memory[0].arrays.len(), arrays, "{line}");
    }
    // The warning's source line is not a warning.
    assert!(
        why_of("  warnings.warn(\"Some donated buffers were not usable:\"")
            .findings
            .is_empty()
    );
}
