//! Excerpt robustness: windows of 10 to 30 lines cut across every real dump
//! are classified correctly or `unknown`, never wrong; and `unknown` less
//! often than a naive substring classifier. Run with `--nocapture` to see the
//! figures for 15-line windows.

#![allow(clippy::unwrap_used)]

mod support;

use dumplab::{Kind, analyze};
use support::{corpus, naive};

#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    right: usize,
    unknown: usize,
    wrong: usize,
}

impl Tally {
    fn add(&mut self, got: Kind, want: Kind) {
        if got == want {
            self.right += 1;
        } else if got == Kind::Unknown {
            self.unknown += 1;
        } else {
            self.wrong += 1;
        }
    }
    fn total(&self) -> usize {
        self.right + self.unknown + self.wrong
    }
    fn pct(&self, n: usize) -> f64 {
        100.0 * n as f64 / self.total().max(1) as f64
    }
}

#[test]
fn windows_are_right_or_unknown_never_wrong() {
    let dumps = corpus();
    assert!(!dumps.is_empty(), "no real dumps under fixtures/*/");
    let mut wrong = Vec::new();
    let mut ours15 = Tally::default();
    let mut naive15 = Tally::default();
    let mut per_kind: Vec<(Kind, Tally)> = Vec::new();
    for d in &dumps {
        let lines: Vec<&str> = d.text.lines().collect();
        for size in [10usize, 15, 20, 30] {
            if lines.len() <= size {
                continue;
            }
            for start in 0..=lines.len() - size {
                let window = lines[start..start + size].join("\n");
                let a = analyze(&window);
                if a.kind != d.kind && a.kind != Kind::Unknown {
                    wrong.push(format!(
                        "{} lines {}..{}: {} instead of {}",
                        d.path.display(),
                        start + 1,
                        start + size,
                        a.kind,
                        d.kind
                    ));
                }
                if size == 15 {
                    ours15.add(a.kind, d.kind);
                    naive15.add(naive(&window), d.kind);
                    match per_kind.iter_mut().find(|(k, _)| *k == d.kind) {
                        Some((_, t)) => t.add(a.kind, d.kind),
                        None => {
                            let mut t = Tally::default();
                            t.add(a.kind, d.kind);
                            per_kind.push((d.kind, t));
                        }
                    }
                }
            }
        }
    }
    println!(
        "15-line windows over {} real dumps: {} windows",
        dumps.len(),
        ours15.total()
    );
    for (name, t) in [
        ("analysis", ours15),
        ("naive substring classifier", naive15),
    ] {
        println!(
            "  {name}: right {:.1}%, unknown {:.1}%, wrong {:.1}% ({}/{}/{})",
            t.pct(t.right),
            t.pct(t.unknown),
            t.pct(t.wrong),
            t.right,
            t.unknown,
            t.wrong
        );
    }
    for (k, t) in &per_kind {
        println!(
            "  analysis on {k}: right {:.1}%, unknown {:.1}%",
            t.pct(t.right),
            t.pct(t.unknown)
        );
    }
    assert!(
        wrong.is_empty(),
        "{} wrong windows, first ones:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        ours15.unknown <= naive15.unknown,
        "more unknown windows than the naive classifier: {ours15:?} vs {naive15:?}"
    );
}

/// A window that is unknown must hold no line that, on its own, proves the
/// dump's kind: the tokens below are ones a reader would point at.
#[test]
fn unknown_windows_hold_no_decisive_line() {
    let decisive: &[(Kind, &[&str])] = &[
        (Kind::Jaxpr, &["{ lambda", "in ("]),
        (
            Kind::Stablehlo,
            &["stablehlo.", "tensor<", "#loc", "func.func"],
        ),
        (
            Kind::HloOptimized,
            &[
                "is_scheduled=true",
                " fusion(",
                ":T(",
                "-start(",
                "backend_config={\"operation_queue_id\"",
            ],
        ),
        // A header without `is_scheduled=true` is a hint, never proof
        // (rule `unscheduled-header`): only a `Sharding` call proves it.
        (Kind::HloUnoptimized, &["custom_call_target=\"Sharding\""]),
    ];
    for d in corpus() {
        let lines: Vec<&str> = d.text.lines().collect();
        let size = 15usize;
        if lines.len() <= size {
            continue;
        }
        let tokens = decisive
            .iter()
            .find(|(k, _)| *k == d.kind)
            .map(|(_, t)| *t)
            .unwrap_or(&[]);
        for start in 0..=lines.len() - size {
            let window = lines[start..start + size].join("\n");
            let a = analyze(&window);
            if a.kind == Kind::Unknown {
                let hit = tokens.iter().find(|t| window.contains(**t));
                assert!(
                    hit.is_none(),
                    "{} lines {}..: unknown although it shows {:?}: {:?}",
                    d.path.display(),
                    start + 1,
                    hit,
                    a.reason
                );
            }
        }
    }
}
