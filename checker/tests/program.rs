//! The syntax layer on every real HLO text: a round trip over every fixture
//! and drift HLO file (each instruction line is in the module, with its
//! name, opcode and operand names found again in the text), proptest on
//! damaged input (no panic, ids in range), and a linear-work check on
//! adversarial names.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use dumplab::kernels::{KINDS, KernelKind, KernelTree};
use dumplab::program::{self, Module};
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Every clean HLO text of the fixtures and the drift corpus (damaged
/// copies left out): (path, text).
fn hlo_files() -> &'static [(PathBuf, String)] {
    static F: OnceLock<Vec<(PathBuf, String)>> = OnceLock::new();
    F.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let mut paths = support::files_under(&root.join("../fixtures"));
        paths.extend(support::files_under(&root.join("tests/drift")));
        paths
            .into_iter()
            .filter(|p| !p.to_string_lossy().contains("damaged"))
            .filter_map(|p| {
                let text = std::fs::read_to_string(&p).ok()?;
                let hlo = text
                    .lines()
                    .any(|l| l.starts_with("HloModule ") || l.starts_with("ENTRY "));
                hlo.then_some((p, text))
            })
            .collect()
    })
}

/// Whether a line, read naively, starts an instruction:
/// `[ROOT ][%]name = <shape> opcode(`.
fn naive_instruction(l: &str) -> Option<&str> {
    let t = l.trim();
    let t = t.strip_prefix("ROOT ").unwrap_or(t);
    let (name, rest) = t.split_once(" = ")?;
    let name = name.strip_prefix('%').unwrap_or(name);
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"_.-".contains(&c));
    (ok && rest.contains('(')).then_some(name)
}

#[test]
fn round_trip_over_every_fixture_and_drift_file() {
    let files = hlo_files();
    assert!(files.len() > 100, "only {} HLO files found", files.len());
    let mut instructions = 0usize;
    for (path, text) in files {
        let m = program::parse(text);
        let lines: Vec<&str> = text.lines().collect();
        let mut by_line = std::collections::HashMap::new();
        for (k, i) in m.instructions.iter().enumerate() {
            by_line.insert(i.line, k);
        }
        for (n, l) in lines.iter().enumerate() {
            let Some(name) = naive_instruction(l) else {
                continue;
            };
            let at = format!("{}:{}", path.display(), n + 1);
            let k = by_line
                .get(&(n + 1))
                .unwrap_or_else(|| panic!("{at}: not read: {l}"));
            let ins = &m.instructions[*k];
            assert_eq!(ins.name, name, "{at}");
            assert!(
                l.contains(&format!("{}(", ins.opcode)),
                "{at}: {}",
                ins.opcode
            );
            let span = lines[n..ins.end_line().min(lines.len())].join("\n");
            for op in m.operands(ins) {
                assert!(span.contains(op.name), "{at}: operand {}", op.name);
            }
            instructions += 1;
        }
        assert_eq!(instructions_in(&m), by_line.len(), "{}", path.display());
        assert!(
            m.unread.is_empty(),
            "{}: unread {:?}",
            path.display(),
            m.unread.first()
        );
        consistent(&m);
    }
    assert!(instructions > 5_000, "{instructions}");
}

fn instructions_in(m: &Module<'_>) -> usize {
    m.instructions.len()
}

/// Ids in range, users the mirror of operands, lines in order.
fn consistent(m: &Module<'_>) {
    let n = m.instructions.len();
    for (k, ins) in m.instructions.iter().enumerate() {
        assert!(ins.line >= 1 && ins.end_line() >= ins.line);
        // The fields kept from the reader's walk are the value's own.
        assert_eq!(m.metadata(ins), ins.metadata(), "{}", ins.name);
        for op in m.operands(ins) {
            if let Some(id) = op.id {
                let target = &m.instructions[id as usize];
                assert!(m.users(target).contains(&(k as u32)));
                assert_eq!(target.computation, ins.computation);
            }
        }
        for &u in m.users(ins) {
            assert!((u as usize) < n);
        }
        for c in m.calls(ins) {
            if let Some(id) = c.id {
                assert!(m.computations[id as usize].callers.contains(&(k as u32)));
            }
        }
    }
    for c in &m.computations {
        assert!(c.first <= c.end && (c.end as usize) <= n);
        for &p in &c.params {
            assert_eq!(m.instructions[p as usize].opcode, "parameter");
        }
    }
    // The on-demand readers of sharded programs: any text, no panic.
    let _ = m
        .header
        .as_ref()
        .map(|h| (h.num_partitions(), h.replica_count()));
    for ins in &m.instructions {
        if let Some(c) = m.collective(ins) {
            if let Some(g) = &c.replica_groups {
                let _ = (g.shape(), g.groups());
            }
            let _ = m.collective_start(ins);
        }
        if let Some(s) = m.sharding(ins) {
            if let program::ShardingKind::Tiled(t) = &s.kind {
                let _ = (t.device_list(), t.replication(), t.shard_shape(&[8, 8]));
            }
        }
    }
    let tree = KernelTree::build(m);
    for (_, k) in tree.walk() {
        assert!((k.instruction as usize) < n);
        assert!(k.kind.row().is_some());
    }
}

#[test]
fn every_kernel_kind_has_its_row() {
    // A new kind without a row fails to compile here (the match is
    // exhaustive), and a missing row fails below.
    let all = |k: KernelKind| match k {
        KernelKind::Fusion
        | KernelKind::CustomCall
        | KernelKind::Pallas
        | KernelKind::Copy
        | KernelKind::Transpose
        | KernelKind::Collective
        | KernelKind::Loop
        | KernelKind::Branch
        | KernelKind::Call
        | KernelKind::Async
        | KernelKind::Op => k,
    };
    let kinds = [
        KernelKind::Fusion,
        KernelKind::CustomCall,
        KernelKind::Pallas,
        KernelKind::Copy,
        KernelKind::Transpose,
        KernelKind::Collective,
        KernelKind::Loop,
        KernelKind::Branch,
        KernelKind::Call,
        KernelKind::Async,
        KernelKind::Op,
    ];
    assert_eq!(kinds.len(), KINDS.len());
    for k in kinds {
        let row = all(k).row().unwrap_or_else(|| panic!("{k:?} has no row"));
        assert!(!row.description.is_empty());
        // The source map prints only the names it printed before the table.
        assert!(
            [
                "fusion",
                "custom-call",
                "copy",
                "collective",
                "loop",
                "conditional",
                "call",
                "async",
                "op"
            ]
            .contains(&row.map_name),
            "{k:?}"
        );
    }
}

fn fixture(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    std::fs::read_to_string(root.join(path)).expect("fixture")
}

/// The tree as lines: each row `name kind [xN]`, each region `role
/// computation:`, indented by depth.
fn outline(text: &str) -> Vec<String> {
    fn rows(m: &Module<'_>, ks: &[dumplab::kernels::Kernel], depth: usize, out: &mut Vec<String>) {
        for k in ks {
            let name = m.instruction(k.instruction).map_or("?", |i| i.name);
            let trip = k.trip_count.map(|n| format!(" x{n}")).unwrap_or_default();
            out.push(format!(
                "{}{name} {}{trip}",
                "  ".repeat(depth),
                k.kind.as_str()
            ));
            for r in &k.regions {
                let comp = m.computation(r.computation).map_or("?", |c| c.name);
                out.push(format!("{}{:?} {comp}:", "  ".repeat(depth + 1), r.role));
                rows(m, &r.kernels, depth + 2, out);
            }
        }
    }
    let m = program::parse(text);
    let tree = KernelTree::build(&m);
    let mut out = Vec::new();
    rows(&m, &tree.kernels, 0, &mut out);
    out
}

#[test]
fn kernel_trees_of_loops_and_branches() {
    let cases: &[(&str, &[&str])] = &[
        (
            "fori_loop_static/compiled.cpu.hlo.txt",
            &[
                "copy.6 copy",
                "copy.7 copy",
                "while.5 loop x4",
                "  Condition region_1.3:",
                "    wrapped_compare fusion",
                "  Body region_0.2:",
                "    add_tanh_fusion fusion",
                "    wrapped_add fusion",
            ],
        ),
        (
            "cond_branch/compiled.cpu.hlo.txt",
            &[
                "ynn_fusion fusion",
                "compare_convert_fusion fusion",
                "cond.1.clone conditional",
                "  Branch(0) region_1.2:",
                "    broadcast_add_fusion fusion",
                "  Branch(1) region_2.3:",
                "    broadcast_multiply_fusion fusion",
            ],
        ),
        (
            "fori_loop_static/compiled.tpu.hlo.txt",
            &[
                "copy-start.1 copy",
                "copy.9 copy",
                "while loop",
                "  Condition wide.region_1.3:",
                "    lt.0 op",
                "  Body wide.region_0.2.sunk:",
                "    add.12 op",
                "    add_tanh_fusion.2 fusion",
                "copy-start copy",
            ],
        ),
    ];
    for &(file, want) in cases {
        assert_eq!(outline(&fixture(file)), want, "{file}");
    }
}

#[test]
fn a_kernel_row_names_its_source_lines() {
    // fixtures/fori_loop_while/compiled.cpu.hlo.txt: the loop's body
    // fusion came from line 18 (the body's tanh and mul), its condition's
    // from line 20 (the fori_loop call).
    let text = fixture("fori_loop_while/compiled.cpu.hlo.txt");
    let m = program::parse(&text);
    let tree = KernelTree::build(&m);
    let lines = |name: &str| -> Vec<u32> {
        let row = tree
            .walk()
            .into_iter()
            .map(|(_, k)| k)
            .find(|k| m.instruction(k.instruction).is_some_and(|i| i.name == name));
        row.map(|k| tree.source_lines(&m, k).iter().map(|l| l.1).collect())
            .unwrap_or_default()
    };
    assert_eq!(lines("add_tanh_fusion"), [18]);
    assert_eq!(lines("wrapped_compare"), [20]);
}

/// The real line of `file` that starts (trimmed) with `start`.
fn line_starting(file: &str, start: &str) -> String {
    let text = fixture(file);
    let line = text.lines().find(|l| l.trim_start().starts_with(start));
    line.unwrap_or_else(|| panic!("no {start:?} in {file}"))
        .to_owned()
}

#[test]
fn kinds_of_real_instructions() {
    use KernelKind::*;
    let cases: &[(&str, &str, KernelKind, Option<&str>)] = &[
        (
            "softmax/compiled.gpu.hlo.txt",
            "ROOT %triton_softmax.2 = ",
            Fusion,
            Some("kCustom __triton"),
        ),
        (
            "matmul_cublas_epilogue/compiled.gpu.hlo.txt",
            "%cublas-lt-matmul.2 = ",
            CustomCall,
            Some("__cublas$lt$matmul"),
        ),
        (
            "pallas_elementwise/compiled.tpu.hlo.txt",
            "ROOT %scale_shift.1 = ",
            Pallas,
            Some("tpu_custom_call"),
        ),
        (
            "pallas_in_context/compiled.tpu.hlo.txt",
            "%around.1 = ",
            Pallas,
            Some("tpu_custom_call"),
        ),
        // XLA:TPU's own Mosaic kernel: not a pallas_call.
        (
            "attention/compiled.tpu.hlo.txt",
            "%online-softmax = ",
            CustomCall,
            Some("tpu_custom_call"),
        ),
        (
            "conv2d/compiled.gpu.hlo.txt",
            "ROOT %transpose.2 = ",
            Transpose,
            None,
        ),
        (
            "fori_loop_static/compiled.tpu.hlo.txt",
            "%copy-start.1 = ",
            Copy,
            None,
        ),
        (
            "fori_loop_static/compiled.cpu.hlo.txt",
            "%while.5 = ",
            Loop,
            None,
        ),
        (
            "cond_branch/compiled.cpu.hlo.txt",
            "%cond.1.clone = ",
            Branch,
            None,
        ),
    ];
    for &(file, start, kind, detail) in cases {
        let line = line_starting(file, start);
        let m = program::parse(&line);
        let ins = m.instructions.first().unwrap_or_else(|| panic!("{line}"));
        let got = dumplab::kernels::kind_of(ins);
        assert_eq!((got.0, got.1.as_deref()), (kind, detail), "{file}: {start}");
    }
    // A collective, as XLA prints an asynchronous one.
    let m = program::parse(
        "  %all-reduce-start = f32[8]{0} all-reduce-start(%p), replica_groups={}, to_apply=%add",
    );
    let got = dumplab::kernels::kind_of(&m.instructions[0]);
    assert_eq!((got.0, got.1.as_deref()), (Collective, Some("all-reduce")));
}

#[test]
fn trip_counts_as_xla_states_them() {
    // fixtures/fori_loop_static/compiled.*.hlo.txt, two orders of fields.
    let cases: &[(&str, Option<u64>)] = &[
        (
            r#"{"dynamic_variables":[],"known_induction_variable":{"tuple_index":"0"},"known_init_step":{"init":"0","step":"1"},"known_trip_count":{"n":"32"}}"#,
            Some(32),
        ),
        (
            r#"{"known_trip_count":{"n":"32"},"known_init_step":{"init":"0","step":"1"},"known_induction_variable":{"tuple_index":"0"},"dynamic_variables":[]}"#,
            Some(32),
        ),
        (r#"{"known_induction_variable":{"tuple_index":"0"}}"#, None),
    ];
    for &(config, want) in cases {
        assert_eq!(dumplab::kernels::trip_count(config), want, "{config}");
    }
}

/// Work per byte of the text.
fn work_per_byte(text: &str) -> f64 {
    let m = program::parse(text);
    let tree = KernelTree::build(&m);
    assert!(tree.kernels.len() <= m.instructions.len());
    m.work as f64 / text.len().max(1) as f64
}

#[test]
fn work_is_linear_on_adversarial_names() {
    type Gen = fn(usize) -> String;
    let gens: &[(&str, Gen)] = &[
        ("long names, a chain of users", |n| {
            let name = "x".repeat(n);
            let mut s = String::from("ENTRY %e () -> f32[] {\n");
            for i in 0..200 {
                s.push_str(&format!(
                    "  %{name}{i} = f32[8]{{0}} add(%{name}{}, %{name}{})\n",
                    i.max(1) - 1,
                    i.max(1) - 1
                ));
            }
            s.push_str("}\n");
            s
        }),
        ("one name used n times", |n| {
            let ops: Vec<String> = (0..n).map(|_| "%same.1".to_owned()).collect();
            format!(
                "ENTRY %e () -> f32[] {{\n  %same.1 = f32[] parameter(0)\n  ROOT %t = (f32[]) tuple({})\n}}\n",
                ops.join(", /*index=5*/")
            )
        }),
        ("deep tuple nesting", |n| {
            format!("  %a = {}f32[]{} tuple()\n", "(".repeat(n), ")".repeat(n))
        }),
        ("open brackets never closed", |n| {
            format!(
                "  %a = f32[8]{{0}} fusion({}\n{}",
                "(".repeat(n),
                "  \"k\":{\n".repeat(n / 8 + 1)
            )
        }),
        ("unclosed comments", |n| {
            format!("  %a = f32[8]{{0}} add({})\n", "/*, ".repeat(n))
        }),
    ];
    for (what, g) in gens {
        let (small, large) = (g(1000), g(4000));
        let (a, b) = (work_per_byte(&small), work_per_byte(&large));
        assert!(b <= a * 1.25 + 0.5, "{what}: {a:.2} -> {b:.2} per byte");
        assert!(b < 16.0, "{what}: {b:.2} per byte");
    }
}

#[test]
fn hostile_groups_and_shardings_are_read_not_expanded() {
    // Sizes and depths no dump has: each read in bounded work, never
    // expanded past the caps.
    let many_axes: Vec<String> = (0..5000).map(|i| format!("'a{i}'=1")).collect();
    let over: Vec<String> = (0..5000).map(|i| format!("'a{i}'")).collect();
    let mesh = format!("mesh[{}] {{{}}}", many_axes.join(","), over.join(","));
    let ones = vec!["1"; 5000].join(",");
    let rows: Vec<String> = vec![
        mesh,
        "[65536,65536]<=[4294967296]".to_owned(),
        format!("[1,1]<=[{ones}]"),
        "mesh['a'=4294967296,'b'=4294967296] {'a'}".to_owned(),
        "mesh['a'=8] {'a':(0)0}".to_owned(),
        "{{0,1},{2".to_owned(),
    ];
    for text in &rows {
        let g = program::ReplicaGroups::parse(text);
        if let Some(groups) = g.groups() {
            let devices: usize = groups.iter().map(Vec::len).sum();
            assert!(devices as u64 <= program::MAX_DEVICES, "{devices}");
        }
    }
    let deep = format!("{}devices=[2]0,1{}", "{".repeat(5000), "}".repeat(5000));
    let s = program::Sharding::parse(&deep);
    assert!(matches!(s.kind, program::ShardingKind::Tuple(_)));
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        consistent(&program::parse(&String::from_utf8_lossy(&bytes)));
    }

    #[test]
    fn arbitrary_dump_like_text(s in "[ %{}()\\[\\]=,:.\\-a-zA-Z0-9_\"<>#@*/\n]{0,2000}") {
        consistent(&program::parse(&s));
    }

    #[test]
    fn damaged_real_dumps(which in any::<usize>(), cut in any::<usize>(), flips in prop::collection::vec((any::<usize>(), 1u8..=255), 0..8)) {
        let files = hlo_files();
        prop_assume!(!files.is_empty());
        let mut bytes = files[which % files.len()].1.as_bytes().to_vec();
        for (at, x) in flips {
            if !bytes.is_empty() {
                let k = at % bytes.len();
                bytes[k] ^= x;
            }
        }
        let k = cut % (bytes.len() + 1);
        bytes.truncate(k);
        let text = String::from_utf8_lossy(&bytes);
        consistent(&program::parse(&text));
        let _ = dumplab::sourcemap::map("", &text);
    }
}

#[test]
fn the_kernel_table_and_the_program_model_know_the_same_collectives() {
    // Two readers name collectives: the kernel table's kinds and the
    // syntax layer's rows; a collective one of them lacks would silently
    // become an op there.
    let model: Vec<&str> = program::COLLECTIVE_OPS.iter().map(|c| c.opcode).collect();
    for k in dumplab::kernels::COLLECTIVES {
        assert!(model.contains(k), "{k}: no row in program::COLLECTIVE_OPS");
    }
    for m in &model {
        assert!(
            dumplab::kernels::COLLECTIVES.contains(m),
            "{m}: not in kernels::COLLECTIVES"
        );
    }
}
