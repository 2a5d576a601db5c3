//! The analysis on the real dumps under `fixtures/` (whatever families exist
//! when the tests run) and on hand-cut excerpts and look-alikes.

#![allow(clippy::unwrap_used)]

mod support;

use dumplab::analysis::line_match::marker_matches;
use dumplab::analysis::markers::marker_names;
use dumplab::{Backend, Kind, analyze};
use support::{corpus, line_of};

#[test]
fn the_corpus_is_there() {
    let c = corpus();
    assert!(!c.is_empty(), "no real dumps found under fixtures/*/");
    for k in [
        Kind::Jaxpr,
        Kind::Stablehlo,
        Kind::HloUnoptimized,
        Kind::HloOptimized,
    ] {
        assert!(c.iter().any(|d| d.kind == k), "no {k} dump in the corpus");
    }
}

#[test]
fn every_real_dump_gets_its_kind_and_never_a_wrong_backend() {
    let mut failures = Vec::new();
    let mut backends_found = 0usize;
    let mut compiled = 0usize;
    let mut unproved = 0usize;
    for d in corpus() {
        let a = analyze(&d.text);
        // A lowered HLO file whose text proves nothing either way (no
        // `Sharding` call): an honest unknown, whose guess must be right.
        let honest = a.kind == Kind::Unknown
            && d.kind == Kind::HloUnoptimized
            && a.kind_guess == Some(d.kind);
        unproved += usize::from(honest);
        if a.kind != d.kind && !honest {
            failures.push(format!(
                "{}: {} instead of {} ({:?})",
                d.path.display(),
                a.kind,
                d.kind,
                a.reason
            ));
        }
        if d.kind == Kind::HloOptimized {
            compiled += 1;
            match (a.backend, d.backend) {
                (Some(got), Some(want)) if got != want => {
                    failures.push(format!(
                        "{}: backend {got} instead of {want}",
                        d.path.display()
                    ));
                }
                (Some(_), _) => backends_found += 1,
                _ => {}
            }
        } else if let Some(b) = a.backend {
            // `fixtures/generate.py` lowers with the host CPU's client
            // (`JAX_PLATFORMS=cpu`), so a lowered dump may name the CPU
            // where a line of it proves so (a host callback's
            // `xla_ffi_python_cpu_callback`), and nothing else.
            let proved = a.backend_basis == Some(dumplab::analysis::BackendBasis::Evidence);
            if b != Backend::Cpu || !proved {
                failures.push(format!(
                    "{}: backend {b} for a {} dump",
                    d.path.display(),
                    d.kind
                ));
            }
        }
        assert_eq!(a.lines, d.text.lines().count(), "{}", d.path.display());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!(
        "backend named for {backends_found} of {compiled} compiled dumps (the rest show no backend clue); {unproved} lowered HLO dumps unknown with the right guess"
    );
    assert!(
        backends_found * 10 >= compiled * 8,
        "backend found for only {backends_found} of {compiled}"
    );
}

#[test]
fn every_evidence_line_shows_its_marker() {
    for d in corpus() {
        let a = analyze(&d.text);
        assert!(
            !a.evidence.is_empty() || a.kind == Kind::Unknown,
            "{}",
            d.path.display()
        );
        for e in &a.evidence {
            let line = line_of(&d.text, e.line);
            assert_eq!(
                marker_matches(e.marker, line),
                Some(true),
                "{}:{} [{}] {line}",
                d.path.display(),
                e.line,
                e.marker
            );
            assert!(
                e.columns.start >= 1 && e.columns.start < e.columns.end,
                "{}:{} {:?}",
                d.path.display(),
                e.line,
                e.columns
            );
            assert!(
                e.columns.end <= line.chars().count() + 1,
                "{}:{} {:?}",
                d.path.display(),
                e.line,
                e.columns
            );
            assert!(!e.note.is_empty());
        }
    }
}

#[test]
fn hlo_inventory_is_consistent() {
    for d in corpus().into_iter().filter(|d| d.kind.is_hlo()) {
        let a = analyze(&d.text);
        let p = d.path.display();
        assert_eq!(
            a.entry_fusions,
            a.fusions.iter().filter(|f| f.in_entry).count(),
            "{p}"
        );
        assert_eq!(
            a.computations.iter().filter(|c| c.is_entry).count(),
            1,
            "{p}"
        );
        assert_eq!(
            a.entry_computation.as_deref(),
            a.computations
                .iter()
                .find(|c| c.is_entry)
                .map(|c| c.name.as_str()),
            "{p}"
        );
        assert!(
            !a.entry_params.is_empty()
                || d.text.contains("() ->")
                || d.kind == Kind::HloUnoptimized,
            "{p}"
        );
        let total: usize = a.computations.iter().map(|c| c.instructions).sum();
        assert_eq!(total, a.op_histogram.values().sum::<usize>(), "{p}");
        for f in &a.fusions {
            assert!(
                a.computations.iter().any(|c| c.name == f.computation),
                "{p}: {} calls unknown {}",
                f.name,
                f.computation
            );
            assert!(
                !f.kind.is_empty() && f.kind.starts_with('k'),
                "{p}: {}",
                f.name
            );
            assert!(
                !f.ops.is_empty() && !f.ops.iter().any(|o| o == "parameter"),
                "{p}: {} {:?}",
                f.name,
                f.ops
            );
        }
        let mut params: Vec<_> = a.entry_params.iter().map(|p| p.number).collect();
        params.sort_unstable();
        assert!(
            params.iter().enumerate().all(|(i, n)| i == *n),
            "{p}: {params:?}"
        );
        if d.kind == Kind::HloOptimized {
            assert!(!a.provenance.is_empty(), "{p}");
            assert!(
                a.provenance.iter().any(|p| a
                    .source_op(&p)
                    .and_then(|o| o.source_file.as_deref())
                    .is_some_and(|f| f.ends_with("function.py"))),
                "{p}"
            );
        }
    }
}

#[test]
fn stablehlo_and_jaxpr_inventories() {
    for d in corpus() {
        let a = analyze(&d.text);
        let p = d.path.display();
        match d.kind {
            Kind::Stablehlo => {
                assert!(
                    a.functions
                        .iter()
                        .any(|f| f.name == "main" && f.visibility == "public"),
                    "{p}"
                );
                assert!(
                    a.op_histogram.keys().any(|k| k.starts_with("stablehlo.")),
                    "{p}"
                );
                assert!(
                    a.module_name
                        .as_deref()
                        .is_some_and(|m| m.starts_with("jit_")),
                    "{p}"
                );
                let locs = d.text.contains("#loc");
                assert!(
                    !locs || a.source_ops.iter().all(|o| o.op_name.contains('/')),
                    "{p}"
                );
            }
            Kind::Jaxpr => {
                let eq_lines = d
                    .text
                    .lines()
                    .filter(|l| starts_with_binder(l.trim_start()))
                    .count();
                assert!(
                    a.equations.len() >= eq_lines,
                    "{p}: {} equations for {eq_lines} lines",
                    a.equations.len()
                );
                let nested = d.text.matches("{ lambda").count() > 1;
                assert_eq!(nested, a.equations.iter().any(|e| e.depth > 0), "{p}");
            }
            _ => {}
        }
    }
}

/// What one table row expects; `None` fields are not checked.
#[derive(Default)]
struct Expect {
    kind: Option<Kind>,
    /// The guess kept apart (`kind_guess`), checked with `kind`.
    guess: Option<Option<Kind>>,
    backend: Option<Option<Backend>>,
    entry_fusions: Option<usize>,
    fusions: Option<usize>,
    evidence: &'static [(usize, &'static str)],
    reason_mentions: Option<&'static str>,
    /// Words of `kind_likely` (a kind that rests on hints alone).
    likely_mentions: Option<&'static str>,
}

fn check(name: &str, input: &str, e: Expect) {
    let a = analyze(input);
    if let Some(k) = e.kind {
        assert_eq!(a.kind, k, "{name}: {:?}", a.reason);
    }
    if let Some(g) = e.guess {
        assert_eq!(a.kind_guess, g, "{name}: {:?}", a.reason);
    }
    assert_eq!(
        a.kind_guess.is_some(),
        a.kind_guess_rule.is_some(),
        "{name}: a guess exactly with its rule"
    );
    if a.kind_guess.is_some() {
        assert!(
            a.kind == Kind::Unknown && a.kind_rule.is_none(),
            "{name}: a guess only for unknown"
        );
    }
    if let Some(b) = e.backend {
        assert_eq!(a.backend, b, "{name}");
    }
    if let Some(n) = e.entry_fusions {
        assert_eq!(a.entry_fusions, n, "{name}");
    }
    if let Some(n) = e.fusions {
        assert_eq!(a.fusions.len(), n, "{name}");
    }
    for (line, marker) in e.evidence {
        assert!(
            a.evidence
                .iter()
                .any(|ev| ev.line == *line && ev.marker == *marker),
            "{name}: no `{marker}` evidence on line {line}; got {:?}",
            a.evidence
                .iter()
                .map(|ev| (ev.line, ev.marker))
                .collect::<Vec<_>>()
        );
    }
    if let Some(m) = e.likely_mentions {
        assert!(
            a.kind_likely.as_deref().is_some_and(|r| r.contains(m)),
            "{name}: kind_likely {:?} lacks {m:?}",
            a.kind_likely
        );
    }
    if let Some(m) = e.reason_mentions {
        assert!(
            a.reason.as_deref().is_some_and(|r| r.contains(m)),
            "{name}: reason {:?} lacks {m:?}",
            a.reason
        );
    }
    assert_eq!(
        a.kind == Kind::Unknown,
        a.reason.is_some(),
        "{name}: a reason exactly when unknown"
    );
    for ev in &a.evidence {
        assert_eq!(
            marker_matches(ev.marker, line_of(input, ev.line)),
            Some(true),
            "{name}: {} on {}",
            ev.marker,
            ev.line
        );
    }
}

#[test]
fn look_alikes_and_xla_dumps() {
    check(
        "as_text(dialect=\"hlo\"): layouts but no fusion, no schedule: only hints, no corpus against them, so likely",
        include_str!("data/as_text_dialect_hlo_scan.txt"),
        Expect {
            kind: Some(Kind::HloUnoptimized),
            guess: Some(None),
            likely_mentions: Some("line 1 shows `not-scheduled` (rule `unscheduled-header`)"),
            backend: Some(None),
            entry_fusions: Some(0),
            fusions: Some(0),
            evidence: &[(1, "not-scheduled"), (1, "hlo-module-header")],
            ..Expect::default()
        },
    );
    check(
        "XLA's before-optimizations dump: % names and signatures, still not scheduled: a hint no corpus contradicts, so likely",
        include_str!("data/xla_dump_before_optimizations.txt"),
        Expect {
            kind: Some(Kind::HloUnoptimized),
            guess: Some(None),
            likely_mentions: Some("(rule `unscheduled-header`)"),
            fusions: Some(0),
            evidence: &[(1, "not-scheduled"), (3, "stack-frames")],
            ..Expect::default()
        },
    );
    check(
        "XLA's after-optimizations dump for CPU",
        include_str!("data/xla_dump_cpu_after_optimizations.txt"),
        Expect {
            kind: Some(Kind::HloOptimized),
            evidence: &[(1, "is-scheduled")],
            ..Expect::default()
        },
    );
    check(
        "a jaxpr with cond branches",
        include_str!("data/cond.jaxpr.txt"),
        Expect {
            kind: Some(Kind::Jaxpr),
            evidence: &[(1, "jaxpr-lambda"), (1, "jaxpr-let"), (6, "jaxpr-subjaxpr")],
            ..Expect::default()
        },
    );
}

#[test]
fn excerpts() {
    check(
        "jaxpr equations without the header",
        "      f:f32[4] = sin e\n      g:f32[] = reduce_sum[axes=(0,) out_sharding=None] f\n",
        Expect {
            kind: Some(Kind::Jaxpr),
            evidence: &[(1, "jaxpr-equation")],
            ..Expect::default()
        },
    );
    check(
        "jaxpr tail",
        "      unroll=1\n    ] 0.0:f32[] a\n  in (b, c) }\n",
        Expect {
            kind: Some(Kind::Jaxpr),
            evidence: &[(3, "jaxpr-in")],
            ..Expect::default()
        },
    );
    check(
        "StableHLO ops without module or func",
        "    %5 = stablehlo.subtract %arg0, %4 : tensor<512x1024xf32> loc(#loc8)\n    %6 = stablehlo.exponential %5 : tensor<512x1024xf32> loc(#loc9)\n",
        Expect {
            kind: Some(Kind::Stablehlo),
            evidence: &[(1, "stablehlo-op"), (2, "mlir-tensor-type")],
            ..Expect::default()
        },
    );
    check(
        "StableHLO location aliases only",
        "#loc8 = loc(\"jit(fn)/sub\"(#loc4))\n#loc9 = loc(\"jit(fn)/exp\"(#loc4))\n",
        Expect {
            kind: Some(Kind::Stablehlo),
            evidence: &[(1, "mlir-loc")],
            ..Expect::default()
        },
    );
    check(
        "compiled HLO instructions with layouts only: no proof either way",
        "  %x.1 = f32[256,1024]{1,0} parameter(0), metadata={op_name=\"x\"}\n  %constant.5 = f32[] constant(0)\n  ROOT %add.3 = f32[256,1024]{1,0} add(%x.1, %x.1)\n",
        Expect {
            kind: Some(Kind::Unknown),
            reason_mentions: Some("Layouts alone"),
            evidence: &[(1, "layout")],
            ..Expect::default()
        },
    );
    check(
        "one TPU line",
        "  %bitcast_input.1 = f32[1024,2048]{1,0:T(8,128)S(1)} parameter(0)\n",
        Expect {
            kind: Some(Kind::HloOptimized),
            backend: Some(Some(Backend::Tpu)),
            evidence: &[(1, "tpu-tiled-layout"), (1, "memory-space")],
            ..Expect::default()
        },
    );
    check(
        "a GPU cuBLAS call",
        "  %custom-call.1 = (f32[8,8]{1,0}, s8[0]{0}) custom-call(%a, %b), custom_call_target=\"__cublas$gemm\", backend_config={\"operation_queue_id\":\"0\",\"gemm_backend_config\":{}}\n",
        Expect {
            kind: Some(Kind::HloOptimized),
            backend: Some(Some(Backend::Gpu)),
            evidence: &[
                (1, "custom-call"),
                (1, "gpu-custom-call"),
                (1, "gpu-backend-config"),
            ],
            ..Expect::default()
        },
    );
    check(
        "a fusion in an entry computation",
        "ENTRY %main.3 (x.1: f32[8]) -> f32[8] {\n  %x.1 = f32[8]{0} parameter(0)\n  ROOT %f = f32[8]{0} fusion(%x.1), kind=kLoop, calls=%fused_computation\n}\n",
        Expect {
            kind: Some(Kind::HloOptimized),
            entry_fusions: Some(1),
            fusions: Some(1),
            evidence: &[(3, "fusion-kind")],
            ..Expect::default()
        },
    );
    check(
        "bare names from as_text(dialect=\"hlo\") without the header: jaxlib 0.4.13's dumps of compiled modules look the same",
        "  sub.12 = f32[256,1]{1,0} broadcast(div.2), dimensions={0,1}\n  sub.13 = f32[256]{0} reshape(sub.12)\n",
        Expect {
            kind: Some(Kind::Unknown),
            evidence: &[(1, "bare-names")],
            reason_mentions: Some("without the module header"),
            ..Expect::default()
        },
    );
    check(
        "bare names with the header from as_text(dialect=\"hlo\"): a hint, so unknown and a guess",
        "HloModule jit_fn, entry_computation_layout={(f32[256]{0})->f32[256]{0}}\n  sub.12 = f32[256,1]{1,0} broadcast(div.2), dimensions={0,1}\n  sub.13 = f32[256]{0} reshape(sub.12)\n",
        Expect {
            kind: Some(Kind::Unknown),
            guess: Some(Some(Kind::HloUnoptimized)),
            reason_mentions: Some("Missing: a clue of a rule that proves compilation"),
            evidence: &[(2, "bare-names")],
            ..Expect::default()
        },
    );
    check(
        "jaxpr next to HLO contradicts",
        "    b:f32[8] = sin a\n  %x.1 = f32[8]{0} parameter(0)\n",
        Expect {
            kind: Some(Kind::Unknown),
            reason_mentions: Some("contradict"),
            ..Expect::default()
        },
    );
    check(
        "a fusion outweighs a header without is_scheduled (rule compiler-structure)",
        "HloModule m, entry_computation_layout={()->f32[]}\n  %f = f32[8]{0} fusion(%x), kind=kLoop, calls=%c\n",
        Expect {
            kind: Some(Kind::HloOptimized),
            evidence: &[(1, "not-scheduled"), (2, "fusion-kind")],
            ..Expect::default()
        },
    );
    check(
        "proof of both sides contradicts, and the reason names a line of each",
        "HloModule m, is_scheduled=true\n  %s = f32[8]{0} custom-call(%x), custom_call_target=\"Sharding\"\n",
        Expect {
            kind: Some(Kind::Unknown),
            reason_mentions: Some("line 1 shows compilation (`is-scheduled`) while line 2"),
            ..Expect::default()
        },
    );
    check(
        "prose",
        "The compiler fused these ops.\n",
        Expect {
            kind: Some(Kind::Unknown),
            ..Expect::default()
        },
    );
    check(
        "empty",
        "",
        Expect {
            kind: Some(Kind::Unknown),
            ..Expect::default()
        },
    );
    check(
        "MLIR region `cond {` is not an HLO computation",
        "    cond {\n      %c_4 = stablehlo.constant dense<16> : tensor<i32>\n",
        Expect {
            kind: Some(Kind::Stablehlo),
            ..Expect::default()
        },
    );
}

#[test]
fn provenance_from_metadata_and_stack_frames() {
    let a = analyze(include_str!("data/xla_dump_cpu_after_optimizations.txt"));
    let p = a
        .provenance
        .iter()
        .find(|p| {
            a.source_op(p)
                .is_some_and(|o| o.op_name.ends_with("/dot_general"))
        })
        .expect("dot_general provenance");
    assert_eq!(p.instruction, "dot_general.0");
    let o = a.source_op(&p).expect("source op");
    assert_eq!(o.source_file.as_deref(), Some("<string>"));
    assert_eq!(o.source_line, Some(3));
    assert!(
        a.provenance
            .iter()
            .all(|p| p.source_op < a.source_ops.len())
    );
}

#[test]
fn markers_are_all_defined_and_unknown_names_say_so() {
    for m in marker_names() {
        assert!(marker_matches(m, "").is_some(), "{m}");
        assert_eq!(dumplab::analysis::markers::canonical(m), Some(*m));
    }
    assert_eq!(marker_matches("no-such-marker", "x"), None);
    assert_eq!(
        marker_matches(
            "tpu-tiled-layout",
            "  %p = f32[8,128]{1,0:T(8,128)} parameter(0)"
        ),
        Some(true)
    );
    assert_eq!(
        marker_matches("tpu-tiled-layout", "  %p = f32[8,128]{1,0} parameter(0)"),
        Some(false)
    );
    assert_eq!(
        marker_matches("layout", "  %p = f32[8,128]{1,0} parameter(0)"),
        Some(true)
    );
}

#[test]
fn kind_and_backend_names_round_trip() {
    for k in Kind::ALL {
        assert_eq!(k.as_str().parse::<Kind>(), Ok(k));
    }
    for b in Backend::ALL {
        assert_eq!(b.as_str().parse::<Backend>(), Ok(b));
    }
    assert!("hlo".parse::<Kind>().is_err());
    assert!("cuda".parse::<Backend>().is_err());
}

/// `a:f32[8]`-like start of a line: an equation's first output variable.
fn starts_with_binder(l: &str) -> bool {
    let name_end = l
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(0);
    name_end > 0 && l[name_end..].starts_with(':') && l.contains(" = ")
}

/// Counts of loops, conditionals and custom calls agree with the opcodes in
/// the text, and each names the computations it runs.
#[test]
fn control_flow_and_custom_calls_are_inventoried() {
    let opcode_lines = |text: &str, op: &str| {
        text.lines()
            .filter(|l| l.contains(&format!(" {op}(")))
            .count()
    };
    let mut loops = 0usize;
    let mut conds = 0usize;
    for d in corpus().into_iter().filter(|d| d.kind.is_hlo()) {
        let a = analyze(&d.text);
        let p = d.path.display();
        assert_eq!(a.while_loops.len(), opcode_lines(&d.text, "while"), "{p}");
        assert_eq!(
            a.conditionals.len(),
            opcode_lines(&d.text, "conditional"),
            "{p}"
        );
        assert_eq!(
            a.custom_calls.len(),
            opcode_lines(&d.text, "custom-call"),
            "{p}"
        );
        for w in &a.while_loops {
            for c in [&w.condition, &w.body] {
                let c = c.as_deref().expect("while names its computations");
                assert!(a.computations.iter().any(|x| x.name == c), "{p}: {c}");
            }
        }
        for c in &a.conditionals {
            assert!(c.branches.len() >= 2, "{p}: {:?}", c.branches);
        }
        assert!(a.custom_calls.iter().all(|c| !c.target.is_empty()), "{p}");
        loops += a.while_loops.len();
        conds += a.conditionals.len();
    }
    assert!(
        loops > 0 && conds > 0,
        "the corpus has loops ({loops}) and conditionals ({conds})"
    );
}

#[test]
fn stablehlo_provenance_resolves_locations_to_source_lines() {
    let mut resolved = 0usize;
    for d in corpus()
        .into_iter()
        .filter(|d| d.kind == Kind::Stablehlo && d.text.contains("#loc"))
    {
        let a = analyze(&d.text);
        for p in a.provenance.iter() {
            assert!(
                p.instruction.starts_with('%'),
                "{}: {p:?}",
                d.path.display()
            );
            let o = a.source_op(&p).expect("every provenance has a source op");
            if o.source_file
                .as_deref()
                .is_some_and(|f| f.ends_with("function.py"))
                && o.source_line.is_some()
            {
                resolved += 1;
            }
        }
    }
    assert!(resolved > 0);
}

#[test]
fn jaxpr_nesting_depth() {
    let a = analyze(include_str!("data/cond.jaxpr.txt"));
    let depth = |prim: &str| {
        a.equations
            .iter()
            .find(|e| e.primitive == prim)
            .map(|e| e.depth)
    };
    assert_eq!(depth("gt"), Some(0));
    assert_eq!(depth("cond"), Some(0));
    assert_eq!(depth("cos"), Some(1));
    assert_eq!(
        depth("exp"),
        Some(1),
        "the equation inside a one-line branch"
    );
    assert_eq!(a.op_histogram.get("mul"), Some(&1));
}
