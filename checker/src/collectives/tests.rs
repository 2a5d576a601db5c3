//! Table tests on the sharded fixtures: one line per collective.

use super::report::with_report;
use std::fmt::Write;

fn render(text: &str) -> String {
    with_report(text, None, |r| {
        let mut out = String::new();
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
                "{} {} g={:?}x{:?} pay={:?} min={:?} {} [{}] {} {:?}",
                row.name,
                row.placed.schedule.id(),
                row.peering.groups,
                row.peering.group_size,
                row.payload_bytes,
                row.at_least_bytes,
                super::json::form(row),
                between.join(","),
                row.made.origin.id(),
                row.source.map(|s| s.1),
            );
        }
        out
    })
    .unwrap_or_else(|e| e)
}

fn fixture(family: &str, target: &str) -> String {
    let path = format!(
        "{}/../fixtures/{family}/compiled.{target}.hlo.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn print_all() {
    for f in [
        "sharded_matmul",
        "sharded_reshard",
        "shard_map_groups",
        "shard_map_ring",
        "sharded_callback",
    ] {
        for t in ["cpu", "gpu", "tpu"] {
            if f == "sharded_callback" && t == "gpu" {
                continue;
            }
            println!("== {f} {t}\n{}", render(&fixture(f, t)));
        }
    }
}
