//! The explainer on real dumps: one row per reason on real kernels of the
//! fixtures for all three targets, and its rules against XLA's own
//! fusion-decision logs of the same compiles (`fixtures/*/fusion-log.*.txt`,
//! written by `fixtures/fusion_logs.py`).

use dumplab::explain::boundaries::From;
use dumplab::explain::report::with_report;
use dumplab::explain::{Basis, InputExplained};
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(fixtures().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The answer (reason id and basis) for operand `operand` of the kernel
/// `kernel`, and the ids of every reason found for it.
fn answer_of(dump: &str, log: Option<&str>, kernel: &str, operand: usize) -> (String, Vec<String>) {
    with_report(dump, log, |r| {
        let m = r.module;
        let k = r
            .explanation
            .kernels
            .iter()
            .find(|k| {
                m.instruction(k.kernel.instruction)
                    .is_some_and(|i| i.name == kernel)
            })
            .unwrap_or_else(|| panic!("no kernel {kernel}"));
        let inp = k
            .inputs
            .iter()
            .find(|i| i.operand == operand)
            .unwrap_or_else(|| panic!("{kernel} has no operand {operand}"));
        let answer = match inp.answer() {
            Some((reason, basis)) => format!("{} ({})", reason.id(), basis.as_str()),
            None => "unknown".to_owned(),
        };
        (
            answer,
            inp.rules.iter().map(|f| f.reason.id().to_owned()).collect(),
        )
    })
    .expect("a compiled dump")
}

/// `(file, kernel, operand, expected answer)` without a log.
fn check(file: &str, kernel: &str, operand: usize, expect: &str) {
    let (got, all) = answer_of(&read(file), None, kernel, operand);
    assert_eq!(
        got, expect,
        "{file}: {kernel} operand {operand} (all found: {all:?})"
    );
}

/// `(file, kernel, operand, expected answer)` without a log: one real
/// boundary per reason a rule can find, on each target where it holds.
const TABLE: &[(&str, &str, usize, &str)] = &[
    // CPU: the checks of its instruction fusion, in XLA's order.
    // A `reduce` is expensive to XLA (`IsExpensive`), and an all-gather
    // reuses its operand's elements: XLA's log says "Fusion is not
    // profitable" for this pair (fusion-log.cpu.txt, under the names it had
    // before the wrapping pass: `%reduce` into `%all-gather`).
    (
        "sharded_callback/compiled.cpu.hlo.txt",
        "all-gather",
        0,
        "recompute (rule)",
    ),
    // XLA's instruction fusion skips a `conditional` as a consumer before
    // any operand check (its log never considers one), so no operand check
    // (do_not_duplicate here) is the reason.
    (
        "sharded_callback/compiled.cpu.hlo.txt",
        "conditional",
        0,
        "consumer-not-fusible (rule)",
    ),
    (
        "softmax/compiled.cpu.hlo.txt",
        "broadcast_multiply_fusion",
        1,
        "recompute (rule)",
    ),
    (
        "softmax/compiled.cpu.hlo.txt",
        "broadcast_divide_fusion",
        0,
        "producer-not-fusible (rule)",
    ),
    (
        "softmax/compiled.cpu.hlo.txt",
        "ynn_fusion",
        0,
        "consumer-custom (rule)",
    ),
    (
        "matmul_bias_relu/compiled.cpu.hlo.txt",
        "broadcast_maximum_fusion",
        0,
        "not-duplicable (rule)",
    ),
    (
        "grad_mlp/compiled.cpu.hlo.txt",
        "multiply_add_fusion",
        0,
        "duplication (rule)",
    ),
    (
        "grad_mlp/compiled.cpu.hlo.txt",
        "dot.1",
        1,
        "consumer-not-fusible (rule)",
    ),
    (
        "change_fusion_break_after/compiled.cpu.hlo.txt",
        "sort.0",
        0,
        "consumer-not-fusible (rule)",
    ),
    // A copy inside a loop: no rule is sure without the log.
    ("scan_rnn/compiled.cpu.hlo.txt", "wrapped_add", 0, "unknown"),
    // TPU: facts of the dump only (libtpu logs no decisions).
    (
        "change_transpose_after/compiled.tpu.hlo.txt",
        "bitcast_add_fusion",
        1,
        "layout-change (rule)",
    ),
    (
        "change_transpose_after/compiled.tpu.hlo.txt",
        "bitcast_add_fusion",
        0,
        "memory-space (rule)",
    ),
    (
        "pallas_elementwise/compiled.tpu.hlo.txt",
        "scale_shift.1",
        0,
        "consumer-not-fusible (rule)",
    ),
    // A Pallas TPU kernel's result: nothing states what XLA:TPU does with it.
    (
        "pallas_in_context/compiled.tpu.hlo.txt",
        "reduce_sum.7",
        0,
        "unknown",
    ),
    (
        "change_fusion_break_after/compiled.tpu.hlo.txt",
        "sort.6",
        1,
        "own-kernel (rule)",
    ),
    ("grad_mlp/compiled.tpu.hlo.txt", "fusion.6", 0, "unknown"),
    // H100: priority fusion's IsFusible on either side.
    (
        "attention/compiled.gpu.hlo.txt",
        "loop_reduce_fusion",
        0,
        "producer-not-fusible (rule)",
    ),
    (
        "change_fusion_break_after/compiled.gpu.hlo.txt",
        "fusion",
        0,
        "consumer-not-fusible (rule)",
    ),
    (
        "cumsum/compiled.gpu.hlo.txt",
        "loop_add_fusion",
        0,
        "unknown",
    ),
];

#[test]
fn one_real_boundary_per_reason_and_target() {
    for &(file, kernel, operand, expect) in TABLE {
        check(file, kernel, operand, expect);
    }
    // Every reason a rule can find has a row: a rule no dump shows is untested.
    for row in dumplab::explain::reasons::REASONS.iter().filter(|r| r.rule) {
        let want = format!("{} (rule)", row.id);
        assert!(
            TABLE.iter().any(|t| t.3 == want),
            "no real boundary in TABLE shows `{}`",
            row.id
        );
    }
}

#[test]
fn a_log_comes_first_and_a_copy_it_never_names_was_added_after_fusion() {
    let dump = read("scan_rnn/compiled.cpu.hlo.txt");
    let log = read("scan_rnn/fusion-log.cpu.txt");
    let (got, _) = answer_of(&dump, Some(&log), "wrapped_add", 0);
    assert_eq!(got, "after-fusion (not-in-log)");
    let dump = read("softmax/compiled.cpu.hlo.txt");
    let log = read("softmax/fusion-log.cpu.txt");
    let (got, _) = answer_of(&dump, Some(&log), "ynn_fusion", 0);
    assert_eq!(got, "consumer-custom (xla-log)");
}

/// Counts over every boundary of one backend's fixtures.
#[derive(Default, Debug)]
struct Agreement {
    families: usize,
    boundaries: usize,
    /// Boundaries XLA's log decided on (a "not fusing" line tied to both kernels).
    logged: usize,
    /// Of them, where the rules' first reason (the answer without the log) is XLA's.
    first_is_xla: usize,
    /// Where XLA's reason is among the rules' reasons.
    among: usize,
    /// Where the rules say nothing (unknown without the log).
    rules_silent: usize,
    /// Boundaries unknown without the log / with it.
    unknown_without: usize,
    unknown_with: usize,
    disagree: Vec<String>,
}

fn agreement(target: &str) -> Agreement {
    let mut a = Agreement::default();
    let mut dirs: Vec<_> = std::fs::read_dir(fixtures())
        .expect("fixtures")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let (Ok(dump), Ok(log)) = (
            std::fs::read_to_string(dir.join(format!("compiled.{target}.hlo.txt"))),
            std::fs::read_to_string(dir.join(format!("fusion-log.{target}.txt"))),
        ) else {
            continue;
        };
        a.families += 1;
        let family = dir
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        tally(&family, &dump, &log, &mut a);
    }
    a
}

/// One boundary as the agreement counts it.
struct Row {
    name: String,
    operand: usize,
    xla: Option<String>,
    rules: Vec<String>,
    basis: Option<Basis>,
    message: Option<String>,
}

fn rows(dump: &str, log: Option<&str>) -> Vec<Row> {
    with_report(dump, log, |r| {
        let m = r.module;
        let name = |i: &InputExplained<'_>| match i.from {
            From::Kernel(id) => m
                .instruction(id)
                .map_or("?".to_owned(), |x| x.name.to_owned()),
            _ => String::new(),
        };
        let mut out = Vec::new();
        for k in &r.explanation.kernels {
            let kn = m.instruction(k.kernel.instruction).map_or("?", |i| i.name);
            for i in k.inputs.iter().filter(|i| i.is_boundary()) {
                out.push(Row {
                    name: format!("{kn} <- {}", name(i)),
                    operand: i.operand,
                    xla: i
                        .xla
                        .first()
                        .and_then(|x| x.reason)
                        .map(|r| r.id().to_owned()),
                    rules: i.rules.iter().map(|f| f.reason.id().to_owned()).collect(),
                    basis: i.answer().map(|x| x.1),
                    message: i.xla.first().map(|x| x.message.to_owned()),
                });
            }
        }
        out
    })
    .expect("compiled")
}

fn tally(family: &str, dump: &str, log: &str, a: &mut Agreement) {
    let rows = |l: Option<&str>| rows(dump, l);
    let with = rows(Some(log));
    let without = rows(None);
    assert_eq!(with.len(), without.len());
    for (w, o) in with.iter().zip(&without) {
        a.boundaries += 1;
        a.unknown_without += usize::from(o.basis.is_none());
        a.unknown_with += usize::from(w.basis.is_none());
        let Some(message) = &w.message else { continue };
        a.logged += 1;
        assert_eq!(
            w.basis,
            Some(Basis::XlaLog),
            "{family}: {}: XLA's reason comes first",
            w.name
        );
        let ours = &o.rules;
        if ours.is_empty() {
            a.rules_silent += 1;
            continue;
        }
        let xla = w.xla.as_deref();
        if xla.is_some_and(|x| ours.iter().any(|r| r == x)) {
            a.among += 1;
        }
        if xla.is_some_and(|x| ours.first().is_some_and(|r| r == x)) {
            a.first_is_xla += 1;
        } else {
            a.disagree.push(format!(
                "{family}: {} (operand {}): XLA \"{message}\", rules {ours:?}",
                w.name, w.operand
            ));
        }
    }
}

#[test]
fn on_the_cpu_fixtures_every_answer_the_rules_give_is_xlas_own_reason() {
    let a = agreement("cpu");
    eprintln!("cpu: {a:#?}");
    assert!(
        a.families >= 40,
        "fusion logs of the CPU fixtures: {} found (run fixtures/fusion_logs.py)",
        a.families
    );
    assert!(a.logged >= 50, "{a:#?}");
    assert!(a.disagree.is_empty(), "{:#?}", a.disagree);
    assert_eq!(a.first_is_xla + a.rules_silent, a.logged);
}

#[test]
fn on_the_h100_fixtures_the_rules_never_contradict_a_logged_reason() {
    let a = agreement("gpu");
    eprintln!("gpu: {a:#?}");
    assert!(
        a.families >= 40,
        "fusion logs of the H100 fixtures: {} found (run fixtures/fusion_logs.py --target gpu)",
        a.families
    );
    assert!(a.logged >= 4, "{a:#?}");
    assert!(a.disagree.is_empty(), "{:#?}", a.disagree);
}
