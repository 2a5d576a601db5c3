//! The ledger against XLA: on every compiled fixture and every undamaged
//! optimized drift dump, DumpLab's XLA figures (the known sum minus one per
//! instruction XLA could not cost) equal what the pinned jaxlib's
//! `hlo_module_cost_analysis` gives (`tests/cost/oracle.json`, written by
//! `tests/cost/oracle.py`, which `cargo xtask test` reruns with `--check`).

use dumplab::cost;
use std::path::Path;

/// XLA accumulates its figures in `float` (f32): a sum past 2^24 is rounded
/// at each step, so figures are compared at f32 precision, scaled by the
/// number of instructions summed.
fn same(ours: f64, xla: f64, terms: usize) -> bool {
    if ours == xla {
        return true;
    }
    let tolerance = xla.abs().max(1.0) * f64::from(f32::EPSILON) * terms.max(1) as f64;
    (ours - xla).abs() <= tolerance
}

#[test]
fn xla_figures_equal_the_oracle_on_every_compiled_dump() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let oracle: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("checker/tests/cost/oracle.json"))
            .expect("tests/cost/oracle.json: run python checker/tests/cost/oracle.py"),
    )
    .expect("oracle.json is JSON");
    let dumps = oracle["dumps"].as_object().expect("a dumps object");
    assert!(
        dumps.len() >= 150,
        "the oracle covers {} dumps",
        dumps.len()
    );
    let mut wrong = Vec::new();
    let mut exact = 0;
    for (path, want) in dumps {
        let text = std::fs::read_to_string(root.join(path)).expect("a dump the oracle names");
        let (f, unread) = cost::module_figures(&text);
        let terms = text.lines().count();
        let pairs = [
            ("flops", f.flops.xla()),
            ("transcendentals", f.transcendentals.xla()),
            ("bytes_accessed", f.bytes.xla()),
        ];
        let mut ok = unread == 0;
        let mut all_exact = true;
        for (k, ours) in pairs {
            let xla = want[k].as_f64().expect("a figure");
            all_exact &= ours == xla;
            if !same(ours, xla, terms) {
                ok = false;
            }
        }
        exact += usize::from(all_exact && ok);
        if !ok {
            wrong.push(format!(
                "{path}: ours flops {} transc {} bytes {} (unread {unread}), XLA {}",
                pairs[0].1, pairs[1].1, pairs[2].1, want
            ));
        }
    }
    eprintln!("{exact} of {} dumps bit-equal to XLA", dumps.len());
    assert!(
        wrong.is_empty(),
        "{} of {} differ:\n{}",
        wrong.len(),
        dumps.len(),
        wrong.join("\n")
    );
}
