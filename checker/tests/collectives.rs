//! The collectives reader on every sharded fixture, one line per collective
//! and one per fact, frozen in `tests/collectives/expected.txt`
//! (`UPDATE_EXPECT=1 cargo test -p dumplab --test collectives` rewrites
//! it); and the replica-group forms read from real lines.

#![allow(clippy::unwrap_used)]

use dumplab::collectives::json::form;
use dumplab::collectives::report::with_report;
use dumplab::program::{ReplicaGroups, SourceTargetPairs};
use std::fmt::Write;
use std::path::Path;

const FAMILIES: &[&str] = &[
    "sharded_matmul",
    "sharded_reshard",
    "shard_map_groups",
    "shard_map_ring",
    "sharded_callback",
];

fn render(text: &str) -> String {
    with_report(text, None, |r| {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "partitions={:?} chip={}",
            r.collectives.partitions,
            r.chip.chip.map_or("none", |c| c.name)
        );
        for row in &r.collectives.rows {
            let between: Vec<&str> = row
                .placed
                .between
                .iter()
                .filter_map(|&b| r.module.instruction(b))
                .map(|i| i.name)
                .collect();
            let _ = writeln!(
                out,
                "  {} (line {}, {}): {} [{}] gpu_is_sync={:?}",
                row.name,
                r.pasted_line(row.line),
                row.opcode,
                row.placed.schedule.id(),
                between.join(", "),
                row.gpu_is_sync
            );
            let _ = writeln!(
                out,
                "    {} groups={:?} size={:?} moving={:?} payload={:?} result={:?} at_least={:?} seconds={:?}",
                form(row),
                row.peering.groups,
                row.peering.group_size,
                row.peering.moving_pairs,
                row.payload_bytes,
                row.result_bytes,
                row.at_least_bytes,
                r.seconds(row).map(|s| format!("{s:.3e}"))
            );
            let _ = writeln!(
                out,
                "    {} {:?} source={:?}",
                row.made.origin.id(),
                row.made.primitive,
                row.source.map(|s| s.1)
            );
        }
        out
    })
    .unwrap_or_else(|e| format!("error: {e}\n"))
}

#[test]
fn every_sharded_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut got = String::new();
    for f in FAMILIES {
        for t in ["cpu", "gpu", "tpu"] {
            let p = root.join(f).join(format!("compiled.{t}.hlo.txt"));
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let _ = write!(got, "== {f} {t}: {}", render(&text));
        }
    }
    let want_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/collectives/expected.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(&want_path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&want_path).unwrap_or_default();
    assert_eq!(
        got, want,
        "(UPDATE_EXPECT=1 cargo test -p dumplab --test collectives rewrites tests/collectives/expected.txt)"
    );
}

#[test]
fn a_lowered_dump_is_refused_with_one_sentence() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/shard_map_ring");
    let text = std::fs::read_to_string(root.join("lowered.stablehlo.mlir")).unwrap();
    let e = with_report(&text, None, |_| ()).unwrap_err();
    assert!(e.starts_with("expected compiled HLO"), "{e}");
    let e = with_report(
        &std::fs::read_to_string(root.join("compiled.gpu.hlo.txt")).unwrap(),
        Some("h10"),
        |_| (),
    )
    .unwrap_err();
    assert!(e.contains("did you mean `h100`?"), "{e}");
}

/// `(raw, (groups, devices per group), every group)`.
type GroupsCase = (&'static str, Option<(u64, u64)>, Option<Vec<Vec<u64>>>);

/// Real `replica_groups=` values from the sharded fixtures.
#[test]
fn replica_group_forms() {
    let table: &[GroupsCase] = &[
        // shard_map_groups: psum over "y", all_gather over "x".
        (
            "{{0,1},{2,3}}",
            Some((2, 2)),
            Some(vec![vec![0, 1], vec![2, 3]]),
        ),
        (
            "{{0,2},{1,3}}",
            Some((2, 2)),
            Some(vec![vec![0, 2], vec![1, 3]]),
        ),
        // shard_map_ring's all_to_all.
        ("{{0,1,2,3}}", Some((1, 4)), Some(vec![vec![0, 1, 2, 3]])),
        // sharded_reshard, TPU: the all-gather of the bf16 x.
        (
            "[2,2]<=[4]",
            Some((2, 2)),
            Some(vec![vec![0, 1], vec![2, 3]]),
        ),
        // sharded_reshard: the partitioner's all-gathers over "y".
        (
            "mesh['axis_0'=2,'axis_1'=2] {'axis_1'}",
            Some((2, 2)),
            Some(vec![vec![0, 1], vec![2, 3]]),
        ),
        // sharded_matmul's all-reduce.
        (
            "mesh['axis_0'=1,'axis_1'=4] {'axis_1'}",
            Some((1, 4)),
            Some(vec![vec![0, 1, 2, 3]]),
        ),
        // sharded_callback's all-gather.
        (
            "mesh['axis_0'=4] {'axis_0'}",
            Some((1, 4)),
            Some(vec![vec![0, 1, 2, 3]]),
        ),
    ];
    for (raw, shape, groups) in table {
        let g = ReplicaGroups::parse(raw);
        assert_eq!(g.shape(), *shape, "{raw}");
        assert_eq!(g.groups(), *groups, "{raw}");
    }
    let p = SourceTargetPairs::parse("{{0,0},{1,2},{2,1},{3,3}}");
    assert_eq!(p.pairs, Some(vec![(0, 0), (1, 2), (2, 1), (3, 3)]));
}

/// The kernel tree's collective opcodes are the program model's: one
/// vocabulary, two views (a row missing in one would make a collective an
/// `op` in the kernel table or drop it from the reader).
#[test]
fn the_kernel_kinds_know_every_collective() {
    let mut a: Vec<&str> = dumplab::kernels::COLLECTIVES.to_vec();
    let mut b: Vec<&str> = dumplab::program::COLLECTIVE_OPS
        .iter()
        .map(|o| o.opcode)
        .collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
}
