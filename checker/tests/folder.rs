//! The dump-folder reader (`dumplab::folder`) on real folders
//! (`tests/folders/`: CPU, H100 and TPU v5e softmax dumps with every pass
//! written): every name's kind, module and step; the index's order and its
//! problems on hostile names; the pass story against the files themselves;
//! "first file where"; the JSON; linear work.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use dumplab::folder::index::{self, refusal};
use dumplab::folder::names::{self, KINDS, Kind};
use dumplab::folder::passes::NotCompared;
use dumplab::folder::{self, Limits, passes};
use std::path::{Path, PathBuf};

fn folders() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/folders")
}

/// Every file of a folder: (relative path, bytes), sorted by path.
fn files_of(dir: &str) -> Vec<(String, Vec<u8>)> {
    let root = folders().join(dir);
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(&root)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .replace('\\', "/");
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

const DIRS: [&str; 3] = ["cpu_softmax", "gpu_softmax", "tpu_softmax"];

/// `id name cl kind [step pipeline pass next]` of one name.
fn describe(path: &str) -> String {
    let n = names::parse(path);
    let mut s = match n.module {
        Some(m) => format!("{} {} {}", m.id, m.name, m.cl.unwrap_or("-")),
        None => "- - -".to_owned(),
    };
    s.push(' ');
    s.push_str(n.kind.as_str());
    if let Some(p) = n.pass {
        s.push_str(&format!(
            " {} {} {} {}",
            p.step,
            p.pipeline,
            p.pass.unwrap_or("-"),
            p.next.unwrap_or("-")
        ));
    }
    s
}

fn check(name: &str, expect: &str) {
    assert_eq!(describe(name), expect, "{name}");
}

#[test]
fn real_names_cpu() {
    let m = "module_0000 jit_fn -";
    for (name, kind) in [
        (
            "module_0000.jit_fn.0000.async-collective.after_pipeline-start.before_async-collective-replacer.txt",
            "pass 0 async-collective pipeline-start async-collective-replacer",
        ),
        (
            "module_0000.jit_fn.0006.simplification.after_algsimp.before_simplify-sorts.txt",
            "pass 6 simplification algsimp simplify-sorts",
        ),
        (
            "module_0000.jit_fn.0004.HLO_passes_through_layout_assignment.after_pipeline-start.before_batched_gather_scatter_normalizer.txt",
            "pass 4 HLO_passes_through_layout_assignment pipeline-start batched_gather_scatter_normalizer",
        ),
        (
            "module_0000.jit_fn.0015.HLO_passes_after_layout_assignment.after_pipeline-start.before_after_layout_assignment.txt",
            "pass 15 HLO_passes_after_layout_assignment pipeline-start after_layout_assignment",
        ),
        (
            "module_0000.jit_fn.0020.copy-insertion.after_adding_copies_to_resolve_interference.txt",
            "pass 20 copy-insertion adding_copies_to_resolve_interference -",
        ),
        (
            "module_0000.jit_fn.0022.copy-insertion.after_adding_special-case_copies.txt",
            "pass 22 copy-insertion adding_special-case_copies -",
        ),
        (
            "module_0000.jit_fn.0024.HLO_passes_after_scheduling.after_pipeline-start.before_apply-xla-transforms.txt",
            "pass 24 HLO_passes_after_scheduling pipeline-start apply-xla-transforms",
        ),
        (
            "module_0000.jit_fn.before_optimizations.txt",
            "before-optimizations",
        ),
        (
            "module_0000.jit_fn.broadcast_divide_fusion_kernel_module.ir-no-opt.ll",
            "llvm-ir-no-opt",
        ),
        (
            "module_0000.jit_fn.broadcast_multiply_fusion_kernel_module.ir-with-opt.ll",
            "llvm-ir-with-opt",
        ),
        (
            "module_0000.jit_fn.cpu_after_optimizations-buffer-assignment-values.txt",
            "buffer-assignment-values",
        ),
        (
            "module_0000.jit_fn.cpu_after_optimizations-buffer-assignment.txt",
            "buffer-assignment",
        ),
        (
            "module_0000.jit_fn.cpu_after_optimizations-live-range.txt",
            "live-range",
        ),
        (
            "module_0000.jit_fn.cpu_after_optimizations-memory-usage-report.txt",
            "memory-usage-report",
        ),
        (
            "module_0000.jit_fn.cpu_after_optimizations.txt",
            "after-optimizations",
        ),
        ("module_0000.jit_fn.debug_options", "debug-options"),
        (
            "module_0000.jit_fn.obj-file.broadcast_divide_fusion_kernel_module.o",
            "object-file",
        ),
        (
            "module_0000.jit_fn/compile_options.textproto",
            "compile-options",
        ),
        ("module_0000.jit_fn/module.mlir", "module-mlir"),
        ("module_0000.jit_fn/topology.textproto", "topology"),
    ] {
        check(name, &format!("{m} {kind}"));
    }
}

#[test]
fn real_names_gpu() {
    let m = "module_0001 jit__lambda -";
    for (name, kind) in [
        ("module_0001.jit__lambda.0.ir-no-opt.ll", "llvm-ir-no-opt"),
        (
            "module_0001.jit__lambda.1.ir-with-opt.ll",
            "llvm-ir-with-opt",
        ),
        ("module_0001.jit__lambda.1.ptx", "ptx"),
        (
            "module_0001.jit__lambda.constants.ir-no-opt.ll",
            "llvm-ir-no-opt",
        ),
        (
            "module_0001.jit__lambda.0031.fusion.after_priority-fusion.before_cse.txt",
            "pass 31 fusion priority-fusion cse",
        ),
        (
            "module_0001.jit__lambda.0045.copy-insertion.after_adding_copies_to_resolve_interference.txt",
            "pass 45 copy-insertion adding_copies_to_resolve_interference -",
        ),
        (
            "module_0001.jit__lambda.0025.remove-no-op-reduce-precision-algebraic-simplifier.after_pipeline-start.before_algsimp.txt",
            "pass 25 remove-no-op-reduce-precision-algebraic-simplifier pipeline-start algsimp",
        ),
        (
            "module_0001.jit__lambda.0062.post-scheduling-passes.after_sanitize-constant-names.before_pipeline-end.txt",
            "pass 62 post-scheduling-passes sanitize-constant-names pipeline-end",
        ),
        (
            "module_0001.jit__lambda.after_spmd_partitioner.txt",
            "after-spmd-partitioner",
        ),
        (
            "module_0001.jit__lambda.autotune_results.pbtxt",
            "autotune-results",
        ),
        (
            "module_0001.jit__lambda.before_optimizations.txt",
            "before-optimizations",
        ),
        ("module_0001.jit__lambda.config.pbtxt", "module-config"),
        ("module_0001.jit__lambda.debug_options", "debug-options"),
        (
            "module_0001.jit__lambda.gpu_target_config.pbtxt",
            "gpu-target-config",
        ),
        (
            "module_0001.jit__lambda.priority_fusion_dump.txt",
            "priority-fusion-dump",
        ),
        (
            "module_0001.jit__lambda.sm_9.0a_gpu_after_optimizations-buffer-assignment-values.txt",
            "buffer-assignment-values",
        ),
        (
            "module_0001.jit__lambda.sm_9.0a_gpu_after_optimizations-buffer-assignment.txt",
            "buffer-assignment",
        ),
        (
            "module_0001.jit__lambda.sm_9.0a_gpu_after_optimizations-live-range.txt",
            "live-range",
        ),
        (
            "module_0001.jit__lambda.sm_9.0a_gpu_after_optimizations-memory-usage-report.txt",
            "memory-usage-report",
        ),
        (
            "module_0001.jit__lambda.sm_9.0a_gpu_after_optimizations.txt",
            "after-optimizations",
        ),
        (
            "module_0001.jit__lambda.thunk_metadata.txt",
            "thunk-metadata",
        ),
        (
            "module_0001.jit__lambda.thunk_sequence.txt",
            "thunk-sequence",
        ),
    ] {
        check(name, &format!("{m} {kind}"));
    }
}

#[test]
fn real_names_tpu() {
    let m = "module_0000 jit__lambda cl_933746096";
    for (name, kind) in [
        (
            "module_0000.jit__lambda.cl_933746096.0000.hlo_device_type_async_wrapper.after_pipeline-start.before_add-random-host-offloading.txt",
            "pass 0 hlo_device_type_async_wrapper pipeline-start add-random-host-offloading",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.0021.tpu-tiling-rewriter.before_tiling_rewriter.txt",
            "pass 21 tpu-tiling-rewriter - tiling_rewriter",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.0022.tpu-tiling-rewriter.after_tiling_propagation.txt",
            "pass 22 tpu-tiling-rewriter tiling_propagation -",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.0037.multi_output_fusion_and_bf16_folding.after_SetupCompileTimeHelpfulBackendConfigInfo.before_cse.txt",
            "pass 37 multi_output_fusion_and_bf16_folding SetupCompileTimeHelpfulBackendConfigInfo cse",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.0047.Float_type_correction_after_SC_offloading.after_pipeline-start.before_float-type-correction.txt",
            "pass 47 Float_type_correction_after_SC_offloading pipeline-start float-type-correction",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.0048.Post-Global_Copy_Insertion.after_pipeline-start.before_tpu-copy-normalizer.txt",
            "pass 48 Post-Global_Copy_Insertion pipeline-start tpu-copy-normalizer",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.0060.Rename_TensorCore_Fusions.after_pipeline-start.before_rename-tensor-core-fusion-ops.txt",
            "pass 60 Rename_TensorCore_Fusions pipeline-start rename-tensor-core-fusion-ops",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.after_codegen.txt",
            "after-codegen",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.after_optimizations-buffer-assignment-values.txt",
            "buffer-assignment-values",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.after_optimizations-buffer-assignment.txt",
            "buffer-assignment",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.after_optimizations-live-range.txt",
            "live-range",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.after_optimizations-memory-usage-report.txt",
            "memory-usage-report",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.after_optimizations.txt",
            "after-optimizations",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.after_optimizations_after_buffer_assignment.txt",
            "after-buffer-assignment",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.after_optimizations_before_buffer_assignment.txt",
            "before-buffer-assignment",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.basic_compiler_metadata.txt",
            "compiler-metadata",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.before_optimizations.txt",
            "before-optimizations",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.debug_options",
            "debug-options",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.execution_options.txt",
            "execution-options",
        ),
        ("module_0000.jit__lambda.cl_933746096.flagfile", "flagfile"),
        (
            "module_0000.jit__lambda.cl_933746096.hlo_module_config.txt",
            "hlo-module-config",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.target_arguments.txt",
            "target-arguments",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.tpu_comp_env.txt",
            "tpu-comp-env",
        ),
        (
            "module_0000.jit__lambda.cl_933746096.transfer_stats.txt",
            "transfer-stats",
        ),
        (
            "module_0000.jit__lambda.cl_933746096/compile_options.textproto",
            "compile-options",
        ),
        (
            "module_0000.jit__lambda.cl_933746096/module.mlir",
            "module-mlir",
        ),
        (
            "module_0000.jit__lambda.cl_933746096/topology.textproto",
            "topology",
        ),
    ] {
        check(name, &format!("{m} {kind}"));
    }
}

#[test]
fn other_names() {
    for (name, expect) in [
        // Not a module's file: unknown, with no module.
        ("README.md", "- - - unknown"),
        ("module_0000", "- - - unknown"),
        ("module_x.jit_fn.before_optimizations.txt", "- - - unknown"),
        (
            "a/b/module_0000.jit_fn.before_optimizations.txt",
            "- - - unknown",
        ),
        // A module's file of no known kind: unknown, in its module.
        (
            "module_0007.jit_fn.something_new.txt",
            "module_0007 jit_fn - unknown",
        ),
        // Module ids that skip numbers, long ids.
        (
            "module_0018.jit_step.before_optimizations.txt",
            "module_0018 jit_step - before-optimizations",
        ),
        (
            "module_12345.jit_f.cpu_after_optimizations.txt",
            "module_12345 jit_f - after-optimizations",
        ),
        // A step past 9999.
        (
            "module_0000.jit_f.10000.p.after_a.before_b.txt",
            "module_0000 jit_f - pass 10000 p a b",
        ),
        // Three digits are no step (a GPU `.N.ir-no-opt.ll` is not one either).
        (
            "module_0000.jit_f.001.p.after_a.before_b.txt",
            "module_0000 jit_f - unknown",
        ),
        // A name holding a dot: the shortest name after which a kind follows.
        (
            "module_0000.jit_f.1.before_optimizations.txt",
            "module_0000 jit_f.1 - before-optimizations",
        ),
        (
            "module_0000.jit_fn.gfx90a_gpu_after_optimizations.txt",
            "module_0000 jit_fn - after-optimizations",
        ),
    ] {
        check(name, expect);
    }
}

/// Every real name of the three folders and what it reads as, frozen in
/// `tests/folders/names.txt` (`UPDATE_EXPECT=1` rewrites it): a change in
/// how any real name reads shows as a diff of that file.
#[test]
fn every_real_name_reads_as_frozen() {
    let mut got = String::new();
    for dir in DIRS {
        for (path, _) in files_of(dir) {
            got.push_str(&format!("{dir}/{path}\t{}\n", describe(&path)));
        }
    }
    let file = folders().join("names.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(&file, &got).unwrap();
    }
    let want = std::fs::read_to_string(&file).unwrap_or_default();
    for (g, w) in got.lines().zip(want.lines()) {
        assert_eq!(g, w, "(UPDATE_EXPECT=1 rewrites tests/folders/names.txt)");
    }
    assert_eq!(got.lines().count(), want.lines().count());
}

#[test]
fn every_spike_name_has_a_known_kind() {
    for dir in DIRS {
        for (path, _) in files_of(dir) {
            let n = names::parse(&path);
            assert_ne!(n.kind, Kind::Unknown, "{dir}/{path}");
            assert!(n.module.is_some(), "{dir}/{path}");
            assert_eq!(n.kind == Kind::Pass, n.pass.is_some(), "{dir}/{path}");
        }
    }
}

#[test]
fn every_kind_has_a_row() {
    // A kind with no row would print as `unknown` silently.
    let all = [
        Kind::BeforeOptimizations,
        Kind::Pass,
        Kind::AfterOptimizations,
        Kind::BeforeBufferAssignment,
        Kind::AfterBufferAssignment,
        Kind::AfterCodegen,
        Kind::AfterSpmdPartitioner,
        Kind::BufferAssignment,
        Kind::BufferAssignmentValues,
        Kind::MemoryUsageReport,
        Kind::LiveRange,
        Kind::DebugOptions,
        Kind::ModuleMlir,
        Kind::CompileOptions,
        Kind::Topology,
        Kind::ThunkSequence,
        Kind::ThunkMetadata,
        Kind::PriorityFusion,
        Kind::AutotuneResults,
        Kind::GpuTargetConfig,
        Kind::ModuleConfigProto,
        Kind::HloModuleConfig,
        Kind::CompilerMetadata,
        Kind::ExecutionOptions,
        Kind::Flagfile,
        Kind::TargetArguments,
        Kind::TpuCompEnv,
        Kind::TransferStats,
        Kind::LlvmIrNoOpt,
        Kind::LlvmIrWithOpt,
        Kind::LlvmIr,
        Kind::Ptx,
        Kind::Object,
        Kind::Proto,
        Kind::ProtoText,
        Kind::Dot,
        Kind::Html,
        Kind::Mlir,
        Kind::Unknown,
    ];
    for k in all {
        assert!(k.row().is_some(), "{k:?}");
        assert!(!k.row().unwrap().description.is_empty());
    }
    for r in KINDS {
        assert!(all.contains(&r.kind), "{:?}", r.kind);
        // Rows of one kind share its name.
        assert_eq!(r.kind.as_str(), r.name);
    }
}

/// A real folder's (path, text) pairs, binary files without text.
fn inputs(files: &[(String, Vec<u8>)]) -> Vec<folder::Input<'_>> {
    files
        .iter()
        .map(|(p, b)| folder::Input {
            path: p,
            size: b.len() as u64,
            text: std::str::from_utf8(b).ok().filter(|t| !t.contains('\0')),
            unread: None,
        })
        .collect()
}

#[test]
fn index_of_real_folders() {
    for (dir, module, passes, total) in [
        ("cpu_softmax", "module_0000", 25, 41),
        ("gpu_softmax", "module_0001", 63, 83),
        ("tpu_softmax", "module_0000", 61, 81),
    ] {
        let files = files_of(dir);
        let sizes: Vec<(&str, u64)> = files
            .iter()
            .map(|(p, b)| (p.as_str(), b.len() as u64))
            .collect();
        let ix = index::index(&sizes, &Limits::default());
        assert!(ix.problems.is_empty(), "{dir}: {:?}", ix.problems);
        assert!(ix.unknown.is_empty(), "{dir}");
        assert_eq!(ix.modules.len(), 1, "{dir}");
        let m = &ix.modules[0];
        assert_eq!(m.module.id, module);
        assert_eq!(m.passes.len(), passes, "{dir}");
        assert_eq!(m.files.len(), total, "{dir}");
        let steps: Vec<u32> = m
            .passes
            .iter()
            .map(|&i| ix.entries[i].name.pass.unwrap().step)
            .collect();
        assert_eq!(steps, (0..passes as u32).collect::<Vec<_>>(), "{dir}");
    }
}

#[test]
fn hostile_names_one_problem_each() {
    let names = [
        ("../etc/passwd", "`..`"),
        ("module_0000.jit_fn/../../x", "`..`"),
        ("/etc/passwd", "absolute"),
        ("C:/x.txt", "absolute"),
        ("module_0000.jit_fn\\module.mlir", "backslash"),
        ("a\0b", "control"),
        ("a\u{1b}[31mred", "control"),
        ("a//b", "empty or `.`"),
        ("./a", "empty or `.`"),
        ("", "empty name"),
    ];
    for (n, needle) in names {
        let why = refusal(n).unwrap_or_else(|| panic!("{n:?} accepted"));
        assert!(why.contains(needle), "{n:?}: {why}");
    }
    let mut list: Vec<(&str, u64)> = names.iter().map(|(n, _)| (*n, 1)).collect();
    list.push(("module_0000.jit_fn.before_optimizations.txt", 10));
    list.push(("module_0000.jit_fn.before_optimizations.txt", 10));
    let ix = index::index(&list, &Limits::default());
    assert_eq!(ix.problems.len(), names.len() + 1);
    assert!(ix.problems.last().unwrap().message.contains("same name"));
    assert_eq!(ix.entries.len(), 1);
}

#[test]
fn limits_on_entries_and_bytes() {
    let limits = Limits {
        max_entries: 3,
        max_file_bytes: 100,
        max_total_bytes: 150,
    };
    let list = [
        ("module_0000.f.0000.p.after_a.before_b.txt", 101),
        ("module_0000.f.0001.p.after_a.before_b.txt", 100),
        ("module_0000.f.0002.p.after_a.before_b.txt", 60),
        ("module_0000.f.0003.p.after_a.before_b.txt", 1),
        ("module_0000.f.0004.p.after_a.before_b.txt", 1),
    ];
    let ix = index::index(&list, &limits);
    assert_eq!(ix.entries.len(), 3);
    let skipped: Vec<bool> = ix.entries.iter().map(|e| e.skipped.is_some()).collect();
    assert_eq!(skipped, [true, false, true]);
    let msgs: Vec<&str> = ix.problems.iter().map(|p| p.message.as_str()).collect();
    assert!(
        msgs[0].contains("101 bytes, over the limit for one file"),
        "{msgs:?}"
    );
    assert!(msgs[1].contains("whole folder"), "{msgs:?}");
    assert!(
        msgs[2].starts_with(
            "not indexed, nor the entry after it in the list: a folder is indexed up to 3 entries"
        ),
        "{msgs:?}"
    );
    assert_eq!(ix.problems[2].path, list[3].0);
}

#[test]
fn a_hundred_thousand_names_index_fast() {
    let names: Vec<String> = (0..100_000)
        .map(|i| {
            format!(
                "module_{:04}.jit_f{}.{:04}.simplification.after_algsimp.before_simplify-sorts.txt",
                i % 500,
                i % 500,
                i / 500
            )
        })
        .collect();
    let list: Vec<(&str, u64)> = names.iter().map(|n| (n.as_str(), 1000)).collect();
    let t = std::time::Instant::now();
    let ix = index::index(&list, &Limits::default());
    let took = t.elapsed();
    assert_eq!(ix.entries.len(), 100_000);
    assert_eq!(ix.modules.len(), 500);
    assert!(ix.modules.iter().all(|m| m.passes.len() == 200));
    eprintln!("100,000 names indexed in {took:?}");
    // Well under a second natively, even unoptimized on a shared machine.
    assert!(took.as_secs_f64() < 2.0, "{took:?}");
    // One more than the limit: one problem, nothing else lost.
    let mut more = list.clone();
    more.push(("module_0000.jit_f0.before_optimizations.txt", 1));
    let ix = index::index(&more, &Limits::default());
    assert_eq!(ix.problems.len(), 1);
    assert!(
        ix.problems[0]
            .message
            .starts_with("not indexed: a folder is indexed up to 100000 entries")
    );
}

/// Whether each numbered file differs from the one before it, from the
/// files themselves.
fn changed_by_bytes(files: &[(String, Vec<u8>)]) -> Vec<bool> {
    let before = files
        .iter()
        .find(|(p, _)| p.ends_with(".before_optimizations.txt"))
        .map(|(_, b)| b.clone())
        .unwrap();
    let mut passes: Vec<&(String, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| names::parse(p).kind == Kind::Pass)
        .collect();
    passes.sort_by_key(|(p, _)| names::parse(p).pass.unwrap().step);
    let mut prev = before;
    passes
        .iter()
        .map(|(_, b)| {
            let c = *b != prev;
            prev = b.clone();
            c
        })
        .collect()
}

#[test]
fn pass_story_against_the_files() {
    for (dir, changed) in [("cpu_softmax", 5), ("gpu_softmax", 0), ("tpu_softmax", 0)] {
        let files = files_of(dir);
        let inputs = inputs(&files);
        let f = folder::read_inputs(&inputs, &Limits::default());
        let steps = &f.stories[0].steps;
        let expect = changed_by_bytes(&files);
        let got: Vec<bool> = steps.iter().map(|s| s.changed.unwrap()).collect();
        assert_eq!(got, expect, "{dir}");
        if changed > 0 {
            assert_eq!(expect.iter().filter(|&&c| c).count(), changed, "{dir}");
        }
        for s in steps {
            assert_eq!(s.delta.is_some(), s.changed == Some(true), "{dir}");
        }
        // The object files are listed, not parsed.
        let json: serde_json::Value = serde_json::from_str(&folder::json::folder_json(&f)).unwrap();
        for file in json["modules"][0]["files"].as_array().unwrap() {
            let kind = file["kind"].as_str().unwrap();
            let parsed = file["parsed"].as_bool().unwrap();
            assert_eq!(
                parsed,
                names::KINDS.iter().any(|r| r.name == kind && r.parsed),
                "{file}"
            );
        }
    }
}

#[test]
fn cpu_deltas() {
    let files = files_of("cpu_softmax");
    let inputs = inputs(&files);
    let f = folder::read_inputs(&inputs, &Limits::default());
    let ix = &f.index;
    let m = &ix.modules[0];
    let delta_at = |step: u32| {
        let k = m
            .passes
            .iter()
            .position(|&i| ix.entries[i].name.pass.unwrap().step == step)
            .unwrap();
        f.stories[0].steps[k].delta.clone().unwrap()
    };
    // The fusion pass forms the CPU softmax's fusions.
    let d = delta_at(17);
    assert!(d.fusions_formed_count > 0, "{d:?}");
    assert!(d.kernels.1 < d.kernels.0, "{d:?}");
    let json: serde_json::Value = serde_json::from_str(&folder::json::folder_json(&f)).unwrap();
    let p17 = &json["modules"][0]["passes"][17];
    assert_eq!(p17["step"], 17);
    assert_eq!(p17["pass"], "fusion");
    assert_eq!(p17["next"], "fusion-wrapper");
    assert_eq!(p17["changed"], true);
    assert_eq!(
        p17["delta"]["fusions_formed"]["count"].as_u64().unwrap() as usize,
        d.fusions_formed_count
    );
    assert!(json["modules"][0]["passes"][0]["delta"].is_null());
    assert_eq!(json["modules"][0]["passes"][0]["changed"], false);
    // The memory figures of the same compile (`compiled.memory_analysis()`:
    // temp 2048, arguments and outputs 2 MiB each, peak 4 MiB).
    let mem = &json["modules"][0]["memory"];
    assert_eq!(mem["temp_bytes"], 2048, "{mem}");
    assert_eq!(mem["argument_bytes"], 2_097_152);
    assert_eq!(mem["output_bytes"], 2_097_152);
    assert_eq!(mem["peak_bytes"], 4_194_304);
}

#[test]
fn first_file_where() {
    let files = files_of("cpu_softmax");
    let inputs = inputs(&files);
    let f = folder::read_inputs(&inputs, &Limits::default());
    let texts: Vec<Option<&str>> = f.story_texts(0).iter().map(|(_, t)| *t).collect();
    // `fusion` as an opcode first appears after the dot library rewriter
    // (step 14, file 15 after before_optimizations): XLA:CPU's
    // `%ynn_fusion.1 = f32[512,1024]{1,0} fusion(%x.1), kind=kCustom`.
    let found = passes::first(&texts, "fusion").unwrap();
    assert_eq!(found.matched, passes::Matched::Opcode);
    assert_eq!(found.file, 15);
    assert_eq!(found.instructions[0].0, "ynn_fusion.1");
    assert_eq!(passes::first(&texts, "ynn_fusion").unwrap().file, 15);
    assert_eq!(
        passes::first(&texts, "ynn_fusion").unwrap().matched,
        passes::Matched::Instruction
    );
    // kLoop fusions come with the fusion pass (step 17).
    let found = passes::first(&texts, "kLoop").unwrap();
    assert_eq!(found.matched, passes::Matched::FusionKind);
    assert_eq!(found.file, 18);
    // A parameter is there from the start.
    let found = passes::first(&texts, "parameter").unwrap();
    assert_eq!(found.file, 0);
    assert!(passes::first(&texts, "all-reduce").is_none());
    assert_eq!(f.pass_re(0), Some(".*"));
    let text = folder::report::first_text(&f, 0, "kLoop");
    assert!(text.contains("--xla_dump_hlo_pass_re=.*"), "{text}");
    assert!(text.contains("first appears in module_0000.jit_fn.0017.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt"), "{text}");
    assert!(
        text.contains("Step 17, pipeline HLO_passes_after_layout_assignment, after fusion."),
        "{text}"
    );
    assert!(
        text.contains("ran after the file before it was written (module_0000.jit_fn.0016.after_layout_assignment"),
        "{text}"
    );
}

#[test]
fn story_without_before_or_with_a_gap() {
    let a = "HloModule m\n\nENTRY e {\n  ROOT p = f32[] parameter(0)\n}\n";
    let b = "HloModule m\n\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT n = f32[] negate(p)\n}\n";
    let files = [
        ("module_0000.m.0000.x.after_a.before_b.txt", a),
        ("module_0000.m.0001.x.after_b.before_c.txt", b),
        ("module_0000.m.0003.x.after_d.before_e.txt", b),
        ("module_0000.m.0004.x.after_e.before_f.txt", b),
    ];
    let f = folder::read(&files, &Limits::default());
    let changed: Vec<Option<bool>> = f.stories[0].steps.iter().map(|s| s.changed).collect();
    // No before_optimizations: the first is not compared; step 2 is missing.
    assert_eq!(changed, [None, Some(true), None, Some(false)]);
    let why: Vec<Option<NotCompared>> = f.stories[0].steps.iter().map(|s| s.why).collect();
    assert_eq!(
        why,
        [
            Some(NotCompared::FirstFile),
            None,
            Some(NotCompared::BeforeMissing(2)),
            None
        ]
    );
    let d = f.stories[0].steps[1].delta.as_ref().unwrap();
    assert_eq!(d.instructions, (1, 2));
    assert_eq!(d.added.names, ["n"]);
    // An unreadable file in the middle (binary): neither it nor the file
    // after it is compared; the one after that is.
    let inputs: Vec<folder::Input<'_>> = [
        ("module_0000.m.before_optimizations.txt", Some(a)),
        ("module_0000.m.0000.x.after_a.before_b.txt", Some(a)),
        ("module_0000.m.0001.x.after_b.before_c.txt", None),
        ("module_0000.m.0002.x.after_c.before_d.txt", Some(b)),
        ("module_0000.m.0003.x.after_d.before_e.txt", Some(b)),
        // Two files of one step: the second is not compared either.
        ("module_0000.m.0003.y.after_d.before_e.txt", Some(b)),
    ]
    .iter()
    .map(|&(path, text)| folder::Input {
        path,
        size: 10,
        text,
        unread: None,
    })
    .collect();
    let f = folder::read_inputs(&inputs, &Limits::default());
    let changed: Vec<Option<bool>> = f.stories[0].steps.iter().map(|s| s.changed).collect();
    assert_eq!(changed, [Some(false), None, None, Some(false), None]);
    let why: Vec<Option<NotCompared>> = f.stories[0].steps.iter().map(|s| s.why).collect();
    assert_eq!(
        why,
        [
            None,
            Some(NotCompared::NotRead),
            Some(NotCompared::BeforeNotRead(Some(1))),
            None,
            Some(NotCompared::SameStep)
        ]
    );
    let json: serde_json::Value = serde_json::from_str(&folder::json::folder_json(&f)).unwrap();
    assert!(json["modules"][0]["passes"][1]["changed"].is_null());
    assert_eq!(json["modules"][0]["passes"][1]["why"], "not-read");
    assert_eq!(json["modules"][0]["passes"][2]["why"], "before-not-read");
    assert_eq!(json["modules"][0]["passes"][4]["why"], "same-step");
    assert!(json["modules"][0]["passes"][3]["why"].is_null());
    assert_eq!(json["modules"][0]["files"][2]["parsed"], false);
    // An unreadable before_optimizations: the first file says so.
    let mut two = inputs[..2].to_vec();
    two[0].text = None;
    let f = folder::read_inputs(&two, &Limits::default());
    assert_eq!(f.stories[0].steps[0].changed, None);
    assert_eq!(
        f.stories[0].steps[0].why,
        Some(NotCompared::BeforeNotRead(None))
    );
    let mut text = String::new();
    folder::report::module_text(&mut text, &f, 0);
    assert!(
        text.contains("not compared: the file before it (before_optimizations) was not read"),
        "{text}"
    );
}

/// A real folder (its files as [`files_of`] reads them) with the file of
/// one step replaced, as the reviewer's `binfolder` has it.
fn with_step(files: &[(String, Vec<u8>)], step: &str, bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = files.to_vec();
    let k = out
        .iter()
        .position(|(p, _)| p.contains(&format!(".{step}.")))
        .unwrap();
    out[k].1 = bytes.to_vec();
    out
}

/// Random-looking bytes: not UTF-8, with NUL bytes.
fn binary(n: usize) -> Vec<u8> {
    (0..n).map(|i| ((i * 7919 + 13) % 256) as u8).collect()
}

/// `broadcast_divide_fusion` is formed by the fusion pass, step 0017; with
/// 0017 binary the first file read that holds it is 0018, and the answer
/// says that it may be in 0017 (the file that was not read), not that 0018
/// is where it appears after 0017.
#[test]
fn first_with_an_unread_file_before_the_hit() {
    let clean = files_of("cpu_softmax");
    let f0 = folder::read_inputs(&inputs(&clean), &Limits::default());
    let found = f0.first(0, "broadcast_divide_fusion").unwrap();
    assert_eq!(found.file, 18);
    assert!(found.unread_before.is_empty());
    let files = with_step(&clean, "0017", &binary(3000));
    let f = folder::read_inputs(&inputs(&files), &Limits::default());
    let found = f.first(0, "broadcast_divide_fusion").unwrap();
    assert_eq!(found.file, 19, "step 0018, after before_optimizations");
    assert_eq!(found.unread_before, [18]);
    let text = folder::report::first_text(&f, 0, "broadcast_divide_fusion");
    assert!(
        text.contains("first appears in module_0000.jit_fn.0018.simplification_after_layout_assignment.after_pipeline-start.before_algsimp.txt or in an earlier file that could not be read (0017)\n"),
        "{text}"
    );
    assert!(
        text.contains("ran after the last file read without it was written (module_0000.jit_fn.0016.after_layout_assignment.after_pipeline-start.before_pipeline-end.txt) and no later than this file's pass; 0017 in between could not be read"),
        "{text}"
    );
    assert!(!text.contains("ran after the file before it"), "{text}");
    let v: serde_json::Value =
        serde_json::from_str(&folder::json::first_json(&f, 0, "broadcast_divide_fusion")).unwrap();
    let p17 = "module_0000.jit_fn.0017.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt";
    assert_eq!(v["found"]["step"], 18);
    assert_eq!(v["found"]["unread_before"], serde_json::json!([p17]));
    assert_eq!(v["unread"], serde_json::json!([p17]));
    // Something there before 0017: the unread file changes nothing.
    let v: serde_json::Value =
        serde_json::from_str(&folder::json::first_json(&f, 0, "multiply")).unwrap();
    assert_eq!(v["found"]["step"], 6);
    assert_eq!(v["found"]["unread_before"], serde_json::json!([]));
    // Nowhere read: the unread file is named.
    let text = folder::report::first_text(&f, 0, "all-reduce");
    assert!(
        text.contains("Of those, one file could not be read (0017): it may be in one of them."),
        "{text}"
    );
}

/// The unread file itself says `not read` with its reason, the file after
/// it `not compared` naming it; each file not read is one problem, binary
/// or over the size limit alike.
#[test]
fn an_unread_file_and_the_file_after_it() {
    let clean = files_of("cpu_softmax");
    let p17 = "module_0000.jit_fn.0017.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt";
    let p18 = "0018 simplification_after_layout_assignment: after pipeline-start (before algsimp)";
    // Binary.
    let files = with_step(&clean, "0017", &binary(3000));
    let f = folder::read_inputs(&inputs(&files), &Limits::default());
    let steps = &f.stories[0].steps;
    assert_eq!(steps[17].why, Some(NotCompared::NotRead));
    assert_eq!(steps[18].why, Some(NotCompared::BeforeNotRead(Some(17))));
    assert_eq!((steps[17].changed, steps[18].changed), (None, None));
    assert_eq!(steps[19].changed, Some(true));
    let text = folder::report::folder_text(&f);
    assert!(
        text.contains("0017 HLO_passes_after_layout_assignment: after fusion (before fusion-wrapper)  not read: 3000 bytes, not text (NUL bytes, or not UTF-8)\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{p18}  not compared: the file before it (0017) was not read\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "1 problems:\n  {p17}: 3000 bytes, not text (NUL bytes, or not UTF-8): listed, not read\n"
        )),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(&folder::json::folder_json(&f)).unwrap();
    let m = &v["modules"][0];
    assert_eq!(m["passes"][17]["why"], "not-read");
    assert_eq!(m["passes"][18]["why"], "before-not-read");
    assert_eq!(
        m["passes"][18]["note"],
        "not compared: the file before it (0017) was not read"
    );
    let file = |p: &str| {
        m["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["path"] == p)
            .unwrap()
            .clone()
    };
    assert_eq!(file(p17)["parsed"], false);
    assert_eq!(file(p17)["not_read"], "not text (NUL bytes, or not UTF-8)");
    assert_eq!(
        v["problems"].as_array().unwrap().len(),
        1,
        "{}",
        v["problems"]
    );
    // Over the size limit for one file (a small limit, the file padded).
    let mut big = clean.iter().find(|(p, _)| p == p17).unwrap().1.clone();
    big.resize(30_000, b' ');
    let files = with_step(&clean, "0017", &big);
    let limits = Limits {
        max_file_bytes: 20_000,
        ..Limits::default()
    };
    let f = folder::read_inputs(&inputs(&files), &limits);
    let steps = &f.stories[0].steps;
    assert_eq!(steps[17].why, Some(NotCompared::NotRead));
    assert_eq!(steps[18].why, Some(NotCompared::BeforeNotRead(Some(17))));
    let text = folder::report::folder_text(&f);
    assert!(
        text.contains("after fusion (before fusion-wrapper)  not read: 30000 bytes, over the limit for one file\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "  {p17}: 30000 bytes, over the limit for one file: listed, not read\n"
        )),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(&folder::json::folder_json(&f)).unwrap();
    let problems: Vec<&str> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    assert_eq!(problems.iter().filter(|p| **p == p17).count(), 1);
    let found = f.first(0, "broadcast_divide_fusion").unwrap();
    assert_eq!(found.unread_before, [18]);
}

/// XLA:GPU's autotuner compiles single fusions as modules of one numbered
/// file and no before_optimizations (`module_0671.fused_reduce.2`, step
/// 0000 only): the module's first file, nothing to compare with; neither
/// missing nor unreadable.
#[test]
fn a_single_file_autotuner_module() {
    let mut files = files_of("gpu_softmax");
    let step0 = files
        .iter()
        .find(|(p, _)| p.starts_with("module_0001.") && p.contains(".0000."))
        .unwrap()
        .1
        .clone();
    files.push((
        "module_0671.fused_reduce.2.0000.cublaslt_rewriter_pipeline.after_pipeline-start.before_dot-algorithm-rewriter.txt"
            .to_owned(),
        step0,
    ));
    let f = folder::read_inputs(&inputs(&files), &Limits::default());
    let m = f
        .index
        .modules
        .iter()
        .position(|m| m.module.id == "module_0671")
        .unwrap();
    assert_eq!(f.index.modules[m].module.name, "fused_reduce.2");
    assert_eq!(
        f.stories[m].steps[0].why,
        Some(NotCompared::FirstFile),
        "{:?}",
        f.stories[m]
    );
    let mut text = String::new();
    folder::report::module_text(&mut text, &f, m);
    assert!(
        text.contains("0000 cublaslt_rewriter_pipeline: after pipeline-start (before dot-algorithm-rewriter)  the module's first file: nothing to compare with (the folder has no before_optimizations file for it)\n"),
        "{text}"
    );
    assert!(!text.contains("missing or unreadable"), "{text}");
    let v: serde_json::Value = serde_json::from_str(&folder::json::folder_json(&f)).unwrap();
    assert_eq!(v["modules"][m]["passes"][0]["why"], "first-file");
    assert!(v["problems"].as_array().unwrap().is_empty());
}

/// A file with the same text as the one before is not said to show that
/// its pass did nothing (XLA writes pipeline-start and in-pass files
/// whatever happened, and a pass may report a change the text does not
/// show); the `--first` text states XLA's rule for `.*` and for any other
/// regex.
#[test]
fn same_text_is_not_no_change() {
    let files = files_of("cpu_softmax");
    let f = folder::read_inputs(&inputs(&files), &Limits::default());
    let text = folder::report::folder_text(&f);
    assert!(!text.contains("unchanged"), "{text}");
    assert!(
        text.contains("    0000-0005  6 files, same text as the file before\n"),
        "{text}"
    );
    assert!(text.contains(folder::report::SAME_TEXT), "{text}");
    let first = folder::report::first_text(&f, 0, "kLoop");
    assert!(
        first.contains(
            "after a pass only when the pass reports a change (xla/hlo/pass/hlo_pass_pipeline.cc)"
        ),
        "{first}"
    );
    assert!(first.contains("pipeline-start or in-pass file"), "{first}");
    // Another regex: a file after every matching pass, changed or not.
    let other: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(p, b)| {
            if p.ends_with(".debug_options") {
                let t = String::from_utf8(b.clone()).unwrap();
                (p.clone(), t.replace("\".*\"", "\"fusion\"").into_bytes())
            } else {
                (p.clone(), b.clone())
            }
        })
        .collect();
    let f = folder::read_inputs(&inputs(&other), &Limits::default());
    assert_eq!(f.pass_re(0), Some("fusion"));
    let first = folder::report::first_text(&f, 0, "kLoop");
    assert!(
        first.contains("a --xla_dump_hlo_pass_re other than .*: XLA then writes a file after every pass whose name it matches, changed or not"),
        "{first}"
    );
    assert!(!first.contains("reported no change"), "{first}");
}

#[test]
fn story_work_is_linear() {
    // Each text is parsed once at most: the changed files and, at most once
    // each, the file before a changed one.
    for dir in DIRS {
        let files = files_of(dir);
        let inputs = inputs(&files);
        let t = std::time::Instant::now();
        let f = folder::read_inputs(&inputs, &Limits::default());
        let took = t.elapsed();
        let s = &f.stories[0];
        let changed = s.steps.iter().filter(|x| x.changed == Some(true)).count();
        assert!(s.parses <= s.steps.len() + 1, "{dir}: {}", s.parses);
        assert!(s.parses <= 2 * changed, "{dir}: {} for {changed}", s.parses);
        eprintln!(
            "{dir}: {} files, {changed} changed, {} parses, read in {took:?}",
            s.steps.len(),
            s.parses
        );
    }
    // Every file different from the one before: each parsed once, plus
    // before_optimizations.
    let texts: Vec<String> = (0..200)
        .map(|i| format!("HloModule m\n\nENTRY e {{\n  ROOT p{i} = f32[] parameter(0)\n}}\n"))
        .collect();
    let steps: Vec<passes::StepFile<'_>> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| passes::StepFile {
            step: i as u32,
            text: Some(t),
        })
        .collect();
    let before = "HloModule m\n\nENTRY e {\n  ROOT q = f32[] parameter(0)\n}\n";
    let (out, parses) = passes::story(passes::Before::Text(before), &steps);
    assert_eq!(parses, 201);
    assert!(out.iter().all(|s| s.changed == Some(true)));
    assert_eq!(out[5].delta.as_ref().unwrap().added.names, ["p5"]);
}

fn respond(req: &[u8]) -> serde_json::Value {
    let s = dumplab::inspect::respond(req);
    serde_json::from_str(&s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

#[test]
fn wasm_folder_index_and_module() {
    for dir in DIRS {
        let files = files_of(dir);
        let mut req = b"folder-index\n".to_vec();
        for (p, b) in &files {
            req.extend_from_slice(format!("{}\t{p}\n", b.len()).as_bytes());
        }
        let v = respond(&req);
        let m = &v["modules"][0];
        assert_eq!(m["files"].as_array().unwrap().len(), files.len(), "{dir}");
        assert!(m["memory"].is_null());
        for p in m["passes"].as_array().unwrap() {
            assert!(p["changed"].is_null() && p["delta"].is_null(), "{p}");
        }
        // The module read whole: as `folder --json` has it.
        let id = m["id"].as_str().unwrap();
        let mut req = format!("folder-module\n{id}\n").into_bytes();
        for (p, b) in &files {
            req.extend_from_slice(format!("{p}\n{}\n", b.len()).as_bytes());
            req.extend_from_slice(b);
        }
        let v = respond(&req);
        let inputs = inputs(&files);
        let f = folder::read_inputs(&inputs, &Limits::default());
        let whole: serde_json::Value =
            serde_json::from_str(&folder::json::folder_json(&f)).unwrap();
        assert_eq!(v["module"], whole["modules"][0], "{dir}");
        // Names only and whole agree on everything but what needs texts.
        let idx = &respond(&{
            let mut r = b"folder-index\n".to_vec();
            for (p, b) in &files {
                r.extend_from_slice(format!("{}\t{p}\n", b.len()).as_bytes());
            }
            r
        })["modules"][0];
        // `not_read` needs the texts: an object file is binary.
        let without_not_read = |x: &serde_json::Value| -> Vec<serde_json::Value> {
            let mut files = x["files"].as_array().unwrap().clone();
            for f in &mut files {
                f.as_object_mut().unwrap().remove("not_read");
            }
            files
        };
        assert_eq!(
            without_not_read(idx),
            without_not_read(&v["module"]),
            "{dir}"
        );
        for f in v["module"]["files"].as_array().unwrap() {
            let binary = f["kind"] == "object-file";
            assert_eq!(f["not_read"].is_string(), binary, "{dir}: {f}");
        }
        let steps = |x: &serde_json::Value| -> Vec<serde_json::Value> {
            x["passes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["step"].clone())
                .collect()
        };
        assert_eq!(steps(idx), steps(&v["module"]));
    }
}

#[test]
fn wasm_folder_errors() {
    for (req, needle) in [
        (
            &b"folder-index\n12 x\n"[..],
            "line 2 of the file list has no tab",
        ),
        (b"folder-index\nabc\tx\n", "no size in bytes"),
        (b"folder-index\n\xff\t\n", "not UTF-8"),
        (b"folder-module", "malformed"),
        (
            b"folder-module\nmodule_0000\nx.txt\n99\nabc",
            "byte length of x.txt is wrong",
        ),
        (b"folder-module\nmodule_0000\nx.txt", "name and byte length"),
        (
            b"folder-module\nmodule_0009\nmodule_0000.f.before_optimizations.txt\n3\nabc",
            "no module module_0009 among the files sent",
        ),
    ] {
        let v = respond(req);
        let e = v["error"].as_str().unwrap_or_else(|| panic!("{v}"));
        assert!(e.contains(needle), "{e}");
    }
    // Hostile names are problems of the index, not errors.
    let v = respond(b"folder-index\n1\t../x\n1\t/abs\n1\tmodule_0000.f.debug_options\n");
    assert_eq!(v["problems"].as_array().unwrap().len(), 2);
    assert_eq!(v["modules"][0]["files"][0]["kind"], "debug-options");
    // A binary file in a module record is listed, not parsed.
    let mut req =
        b"folder-module\nmodule_0000\nmodule_0000.f.before_optimizations.txt\n3\n".to_vec();
    req.extend_from_slice(b"\xff\0a");
    let v = respond(&req);
    assert_eq!(v["module"]["files"][0]["parsed"], false);
    assert_eq!(v["module"]["files"][0]["size"], 3);
}
