//! Resolution and validation of exercise files against a small library of
//! real-looking dumps: keys come from annotations and analysis, and every
//! mistake an instructor can make is reported at its `file:line:column`.

#![allow(clippy::unwrap_used)]

use super::classify::kind_label;
use super::kernels::kernel_miscounts;
use super::*;
use crate::analysis::{Backend, Kernel, KernelKind, Kind, analyze};
use crate::exercise::model::Question;
use crate::grade::{Outcome, grade};
use std::collections::BTreeMap;

const COMPILED: &str =
    "HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

%fused_computation (param_0: f32[8]) -> f32[8] {
  %param_0 = f32[8]{0} parameter(0)
  ROOT %neg.1 = f32[8]{0} negate(%param_0)
}

ENTRY %main.1 (x.1: f32[8]) -> f32[8] {
  %x.1 = f32[8]{0} parameter(0)
  ROOT %neg_fusion = f32[8]{0} fusion(%x.1), kind=kLoop, calls=%fused_computation, backend_config={\"outer_dimension_partitions\":[\"2\"]}
}
";

const LOWERED: &str = "module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = \"result\"}) {
    %0 = stablehlo.negate %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
";

fn library() -> Library {
    let mut lib = Library::new();
    let compiled = |note: &str| DumpInfo {
        text: COMPILED.to_owned(),
        kind: Some(Kind::HloOptimized),
        backend: Some(Backend::Cpu),
        excerpts: vec![("entry".to_owned(), 8, 11)],
        evidence: vec![
            AnnotatedLine {
                line: 1,
                marker: "is-scheduled".to_owned(),
                note: "scheduled: compiled".to_owned(),
            },
            AnnotatedLine {
                line: 10,
                marker: "fusion-kind".to_owned(),
                note: note.to_owned(),
            },
            AnnotatedLine {
                line: 10,
                marker: "fused-computation".to_owned(),
                note: "second marker, same line".to_owned(),
            },
        ],
        ..DumpInfo::default()
    };
    lib.insert(
        ("neg".into(), "compiled.cpu.hlo.txt".into()),
        compiled("a `fusion` </code><script>alert(1)</script>"),
    );
    lib.insert(
        ("other".into(), "compiled.cpu.hlo.txt".into()),
        compiled("other"),
    );
    // `neg` with a dead copy of its parameter: one kernel more.
    let copied = COMPILED.replace(
        "  ROOT %neg_fusion",
        "  %dead = f32[8]{0} copy(%x.1)\n  ROOT %neg_fusion",
    );
    lib.insert(
        ("copied".into(), "compiled.cpu.hlo.txt".into()),
        DumpInfo {
            text: copied,
            ..compiled("copied")
        },
    );
    // `neg` updating a copy of its parameter: a donation would spare it.
    let donatable = COMPILED.replace(
        "  ROOT %neg_fusion = f32[8]{0} fusion(%x.1)",
        "  %dead = f32[8]{0} copy(%x.1)\n  ROOT %neg_fusion = f32[8]{0} fusion(%dead)",
    );
    assert_ne!(donatable, COMPILED);
    lib.insert(
        ("donatable".into(), "compiled.cpu.hlo.txt".into()),
        DumpInfo {
            text: donatable,
            ..compiled("donatable")
        },
    );
    lib.insert(
        ("sharded".into(), "compiled.cpu.hlo.txt".into()),
        DumpInfo {
            text: SHARDED.to_owned(),
            excerpts: vec![],
            evidence: vec![],
            ..compiled("sharded")
        },
    );
    lib.insert(
        ("neg".into(), "lowered.stablehlo.mlir".into()),
        DumpInfo {
            text: LOWERED.to_owned(),
            kind: Some(Kind::Stablehlo),
            backend: None,
            excerpts: vec![("main".to_owned(), 2, 5)],
            evidence: vec![AnnotatedLine {
                line: 2,
                marker: "func-main".to_owned(),
                note: "entry point".to_owned(),
            }],
            ..DumpInfo::default()
        },
    );
    // A dump folder of `neg`: before optimizations and two numbered files,
    // the second one the first's text again.
    let folder = [
        ("module_0000.jit_fn.before_optimizations.txt", LOWERED_HLO),
        (
            "module_0000.jit_fn.0000.simplification.after_pipeline-start.before_algsimp.txt",
            LOWERED_HLO,
        ),
        (
            "module_0000.jit_fn.0001.simplification.after_algsimp.before_dce.txt",
            COMPILED,
        ),
    ];
    for (path, text) in folder {
        lib.insert(
            ("neg".into(), format!("folder.cpu/{path}")),
            DumpInfo {
                text: text.to_owned(),
                ..DumpInfo::default()
            },
        );
    }
    lib
}

/// A compiled module of 4 partitions with one `psum`.
const SHARDED: &str = "HloModule jit_f, is_scheduled=true, num_partitions=4

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0), sharding={devices=[4]<=[4]}
  ROOT %all-reduce = f32[8]{0} all-reduce(%x), channel_id=1, replica_groups={{0,1},{2,3}}, use_global_device_ids=true, to_apply=%add, metadata={op_name=\"jit(f)/shard_map/psum_invariant\"}
}
";

/// HLO before optimization, for the test folder.
const LOWERED_HLO: &str = "HloModule jit_fn\n\nENTRY %main (x: f32[8]) -> f32[8] {\n  %x = f32[8] parameter(0)\n  ROOT %neg = f32[8] negate(%x)\n}\n";

fn resolve(source: &str) -> (Vec<Resolved>, Vec<String>) {
    let (qs, diags) = resolve_file("exercises/t.toml", source, &library());
    (qs, diags.iter().map(ToString::to_string).collect())
}

fn one(source: &str) -> Resolved {
    let (mut qs, diags) = resolve(source);
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(qs.len(), 1);
    qs.remove(0)
}

/// Grades `answer` through the sealed key, as the page does.
fn verdict(q: &Resolved, answer: &str) -> Outcome {
    grade(&q.id, &q.hash, &q.sealed, answer).unwrap().outcome
}

#[test]
fn classify_key_is_the_annotated_kind() {
    let q = one(r#"
[[question]]
id = "c1"
type = "classify"
prompt = "Which call?"
snippet = "neg/compiled.cpu.hlo.txt#entry"
choices = ["hlo-unoptimized", "hlo-optimized"]
"#);
    assert_eq!(q.key.answer, ["hlo-optimized"]);
    assert_eq!(
        q.options
            .iter()
            .map(|(id, _)| id.as_str())
            .collect::<Vec<_>>(),
        ["hlo-unoptimized", "hlo-optimized"]
    );
    let snippet = q.snippet.as_ref().unwrap();
    assert_eq!(
        (
            snippet.first_line,
            snippet.language,
            snippet.caption.as_str()
        ),
        (8, Language::Hlo, "lines 8\u{2013}11")
    );
    assert_eq!(
        q.key.lines.len(),
        1,
        "the excerpt holds line 10 only: {:?}",
        q.key.lines
    );
    assert!(
        q.key.lines[0].1.contains("second marker"),
        "notes of one line are merged"
    );
    assert_eq!(verdict(&q, "hlo-optimized"), Outcome::Correct);
    assert_eq!(verdict(&q, "hlo-unoptimized"), Outcome::Wrong);
    assert_eq!(verdict(&q, "jaxpr"), Outcome::Invalid, "not offered");
    assert!(
        !q.sealed.contains("optimized"),
        "sealed keys are not greppable"
    );
}

#[test]
fn backend_evidence_count_pair_and_choice_resolve() {
    let backend = one(r#"
[[question]]
id = "b"
type = "backend"
prompt = "Which backend?"
snippet = "neg/compiled.cpu.hlo.txt"
"#);
    assert_eq!(
        (backend.key.answer.as_slice(), backend.options.len()),
        (&["cpu".to_owned()][..], 3)
    );
    assert_eq!(verdict(&backend, "cpu"), Outcome::Correct);

    let evidence = one(r#"
[[question]]
id = "e"
type = "evidence"
prompt = "Which lines?"
snippet = "neg/compiled.cpu.hlo.txt"
"#);
    // Every line the analysis holds as proof of compilation: the header's
    // `is_scheduled=true`, the fused computation's header, its `param_0`
    // parameter and operand, and the `fusion` instruction.
    assert_eq!(evidence.key.answer, ["1", "3", "4", "5", "10"]);
    assert_eq!(evidence.key.need, 2);
    assert_eq!(verdict(&evidence, "1,10"), Outcome::Correct);
    assert_eq!(
        verdict(&evidence, "3,4"),
        Outcome::Correct,
        "any two proving lines"
    );
    assert_eq!(verdict(&evidence, "10"), Outcome::Partial);
    assert_eq!(
        verdict(&evidence, "1,10,8"),
        Outcome::Partial,
        "`ENTRY` proves nothing"
    );
    assert_eq!(verdict(&evidence, "8"), Outcome::Wrong);
    assert!(
        evidence
            .instruction
            .as_deref()
            .unwrap_or_default()
            .contains("at least two lines"),
        "{:?}",
        evidence.instruction
    );

    let count = one(r#"
[[question]]
id = "n"
type = "count"
prompt = "How many kernels?"
snippet = "neg/compiled.cpu.hlo.txt#entry"
fact = "entry_fusions"
"#);
    let counted = analyze(COMPILED).entry_fusions.to_string();
    assert_eq!(
        count.key.answer,
        std::slice::from_ref(&counted),
        "the key is the checker's count"
    );
    assert_eq!(verdict(&count, &counted), Outcome::Correct);

    let pair = one(r#"
[[question]]
id = "p"
type = "pair"
prompt = "Which compiled dump?"
snippet = "neg/lowered.stablehlo.mlir#main"
candidates = ["other/compiled.cpu.hlo.txt#entry", "neg/compiled.cpu.hlo.txt#entry"]
"#);
    assert_eq!(pair.key.answer, ["b"]);
    assert_eq!(
        pair.candidates
            .iter()
            .map(|c| c.caption.as_str())
            .collect::<Vec<_>>(),
        ["Dump A", "Dump B"]
    );
    assert_eq!(pair.snippet.as_ref().unwrap().language, Language::Mlir);
    assert_eq!(verdict(&pair, "b"), Outcome::Correct);
    assert_eq!(verdict(&pair, "a"), Outcome::Wrong);

    let choice = one(r#"
[[question]]
id = "ch"
type = "choice"
prompt = "Pick"
[[question.option]]
text = "one"
why = "no"
[[question.option]]
text = "two"
correct = true
why = "yes"
"#);
    assert_eq!(
        (
            choice.key.answer.as_slice(),
            choice.key.explanation.as_str()
        ),
        (&["b".to_owned()][..], "yes")
    );
    assert_eq!(verdict(&choice, "b"), Outcome::Correct);
}

#[test]
fn editing_a_question_changes_its_hash() {
    let base = "[[question]]\nid = \"b\"\ntype = \"backend\"\nprompt = \"Which backend?\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\n";
    let a = one(base);
    let b = one(&base.replace("Which backend?", "Which backend compiled it?"));
    assert_ne!(a.hash, b.hash);
    assert_eq!(a.hash, one(base).hash, "stable across builds");
}

/// (source, expected diagnostics)
fn check(cases: &[(&str, &[&str])]) {
    for (source, expected) in cases {
        let (_, diags) = resolve(source);
        let firsts: Vec<&str> = diags
            .iter()
            .map(|d| d.lines().next().unwrap_or_default())
            .collect();
        assert_eq!(firsts, *expected, "for:\n{source}");
        for d in &diags {
            assert!(d.contains("\n  help: "), "every error has a hint: {d}");
        }
    }
}

#[test]
fn every_mistake_is_reported_where_it_is() {
    check(&[
        (
            "[[question]]\nid = \"x\"\ntype = \"clasify\"\nprompt = \"p\"\n",
            &[
                "exercises/t.toml:3:8: error: unknown variant `clasify`, expected one of `classify`, `evidence`, `count`, `pair`, `choice`, `backend`, `cost`, `diff`, `folder`, `explain`, `collective`, `finding`",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"backend\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nchoises = [\"cpu\"]\n",
            &[
                "exercises/t.toml:6:1: error: unknown field `choises`, expected one of `id`, `prompt`, `explanation`, `snippet`, `choices`",
            ],
        ),
        (
            "[[question]]\nid = \"a\"\ntype = \"backend\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\n\n[[question]]\nid = \"b\"\ntype = \"backend\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\n\n[[question]]\nid = \"c\"\ntype = \"backend\"\npromtp = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\n",
            &[
                "exercises/t.toml:16:1: error: unknown field `promtp`, expected one of `id`, `prompt`, `explanation`, `snippet`, `choices`",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"backend\"\nprompt = \"p\"\nsnippet = \"neg/compiled.tpu.hlo.txt\"\n",
            &[
                "exercises/t.toml:5:11: error: snippet `neg/compiled.tpu.hlo.txt`: no dump `compiled.tpu.hlo.txt` in fixture family `neg`",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"backend\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt#nope\"\n",
            &[
                "exercises/t.toml:5:11: error: snippet `neg/compiled.cpu.hlo.txt#nope`: no excerpt `nope`",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"backend\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt#5-99\"\n",
            &[
                "exercises/t.toml:5:11: error: snippet `neg/compiled.cpu.hlo.txt#5-99`: lines 5-99 are outside the dump's 11 lines",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"backend\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\n  choices = [\"gpu\", \"tpu\"]\n",
            &["exercises/t.toml:6:13: error: the right answer, `cpu`, is not among the choices"],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"classify\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nchoices = [\"compiled\"]\n",
            &["exercises/t.toml:6:11: error: `compiled` is not a choice this question type knows"],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"count\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nfact = \"kernels\"\n",
            &["exercises/t.toml:6:8: error: `kernels` is not a fact the checker counts"],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"evidence\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt#8-9\"\n",
            &[
                "exercises/t.toml:5:11: error: no line of this excerpt proves `compiled` (XLA compiled this module), so there is nothing to select",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"pair\"\nprompt = \"p\"\nsnippet = \"neg/lowered.stablehlo.mlir\"\ncandidates = [\"other/compiled.cpu.hlo.txt\"]\n",
            &["exercises/t.toml:6:14: error: a pair question needs 2 to 4 candidates, not 1"],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"pair\"\nprompt = \"p\"\nsnippet = \"neg/lowered.stablehlo.mlir\"\ncandidates = [\"other/compiled.cpu.hlo.txt\", \"other/compiled.cpu.hlo.txt#entry\"]\n",
            &["exercises/t.toml:6:14: error: two candidates come from family `other`"],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"choice\"\nprompt = \"p\"\n[[question.option]]\ntext = \"a\"\nwhy = \"w\"\n[[question.option]]\ntext = \"b\"\nwhy = \"w\"\n",
            &[
                "exercises/t.toml:1:1: error: a choice question needs exactly one option with `correct = true`, not 0",
            ],
        ),
        (
            "[[question]]\nid = \"Bad Id\"\ntype = \"backend\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\n[[question]]\nid = \"b\"\ntype = \"backend\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\n[[question]]\nid = \"b\"\ntype = \"backend\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\n",
            &[
                "exercises/t.toml:2:6: error: question id `Bad Id` is not a plain name",
                "exercises/t.toml:12:6: error: question id `b` is used twice (first on line 6)",
            ],
        ),
        (
            "[[question]\n",
            &["exercises/t.toml:1:12: error: unclosed array table, expected `]`"],
        ),
    ]);
}

#[test]
fn claims_needs_facts_and_notes_are_checked_where_they_are_written() {
    check(&[
        (
            "[[question]]\nid = \"x\"\ntype = \"evidence\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nclaim = \"complied\"\n",
            &["exercises/t.toml:6:9: error: `complied` is not a claim the checker knows"],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"evidence\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nneed = 9\n",
            &[
                "exercises/t.toml:6:8: error: `need = 9`, but 5 lines of this excerpt prove `compiled`",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"evidence\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nclaim = \"fusion\"\nneed = 1\n",
            &[],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"evidence\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nclaim = \"fusion\"\nneed = 2\n",
            &[
                "exercises/t.toml:7:8: error: claim `fusion` asks for every proving line (1 here), not 2",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"evidence\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nclaim = \"not-compiled\"\n",
            &[
                "exercises/t.toml:5:11: error: no line of this excerpt proves `not-compiled` (nobody has compiled this module yet), so there is nothing to select",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"count\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nfact = \"equations\"\n",
            &[
                "exercises/t.toml:6:8: error: fact `equations` applies to jaxpr dumps, and this one is hlo-optimized",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"count\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nfact = \"iteration_kernels\"\n",
            &[
                "exercises/t.toml:6:8: error: fact `iteration_kernels` applies to HLO with a `while` dumps, and this one is hlo-optimized",
            ],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"count\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nfact = \"entry_fusion\"\n",
            &["exercises/t.toml:6:8: error: `entry_fusion` is not a fact the checker counts"],
        ),
        (
            "[[question]]\nid = \"x\"\ntype = \"choice\"\nprompt = \"p\"\n[[question.option]]\ntext = \"a\"\nwhy = \"Wrong: no.\"\n[[question.option]]\ntext = \"b\"\ncorrect = true\nwhy = \"Right: yes.\"\n",
            &[
                "exercises/t.toml:7:8: error: option 1's `why` starts with \"Wrong\", which the verdict already says",
                "exercises/t.toml:11:8: error: option 2's `why` starts with \"Right\", which the verdict already says",
            ],
        ),
    ]);
    let (_, diags) = resolve(
        "[[question]]\nid = \"x\"\ntype = \"count\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\nfact = \"entry_fusion\"\n",
    );
    assert!(
        diags[0].contains("did you mean `entry_fusions`?"),
        "{diags:?}"
    );
}

#[test]
fn an_annotation_the_analysis_does_not_hold_as_proof_is_an_error() {
    let mut lib = library();
    if let Some(d) = lib.get_mut(&("neg".to_owned(), "compiled.cpu.hlo.txt".to_owned())) {
        // The ENTRY header passes the line-level `fused-computation` test
        // (it is a computation header), but no fusion calls it.
        d.evidence.push(AnnotatedLine {
            line: 8,
            marker: "fused-computation".to_owned(),
            note: "not really".to_owned(),
        });
    }
    let (_, diags) = resolve_file(
        "exercises/t.toml",
        "[[question]]\nid = \"x\"\ntype = \"evidence\"\nprompt = \"p\"\nsnippet = \"neg/compiled.cpu.hlo.txt\"\n",
        &lib,
    );
    let first: Vec<String> = diags
        .iter()
        .map(|d| d.to_string().lines().next().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(
        first,
        [
            "exercises/t.toml:5:11: error: line 8 of `neg/compiled.cpu.hlo.txt` is annotated `fused-computation`, which proves `compiled`, but the checker's analysis does not see `fused-computation` there"
        ]
    );
}

#[test]
fn the_self_test_catches_a_key_that_does_not_grade_right() {
    let q = one(r#"
[[question]]
id = "b"
type = "backend"
prompt = "Which backend?"
snippet = "neg/compiled.cpu.hlo.txt"
"#);
    assert!(self_test(&q, None).is_empty());
    // A key sealed for another answer: the key grades wrong, and the
    // option it names grades right.
    let mut bad = q.clone();
    let mut key = bad.key.clone();
    key.answer = vec!["gpu".to_owned()];
    bad.sealed = crate::exercise::seal::seal(&bad.id, &bad.hash, &key.encode());
    assert_eq!(
        self_test(&bad, None),
        [
            "the key (`cpu`) grades wrong",
            "a wrong option (`gpu`) grades correct"
        ]
    );
    // A damaged seal.
    bad.sealed = "AAAA".to_owned();
    assert!(self_test(&bad, None)[0].starts_with("the key: "));

    let e = one(r#"
[[question]]
id = "e"
type = "evidence"
prompt = "Which lines?"
snippet = "neg/compiled.cpu.hlo.txt"
"#);
    assert!(self_test(&e, Some(8)).is_empty());
    assert_eq!(
        self_test(&e, Some(10)),
        [
            "a line that proves nothing (`10`) grades partial",
            "the right lines and one that proves nothing (`1,3,4,5,10,10`) grades correct"
        ],
        "a proving line passed off as idle is caught"
    );
}

#[test]
fn counts_say_what_was_miscounted() {
    let q = one(r#"
[[question]]
id = "n"
type = "count"
prompt = "How many kernels?"
snippet = "neg/compiled.cpu.hlo.txt#entry"
fact = "entry_kernels"
"#);
    assert_eq!(q.key.answer, ["1"]);
    let v = grade(&q.id, &q.hash, &q.sealed, "3").unwrap();
    assert_eq!(v.outcome, Outcome::Wrong);
    assert!(
        v.hint.is_some(),
        "a wrong count points at the counted lines"
    );
    assert!(v.answer_ids.is_empty(), "and gives nothing away");
}

/// `(fusions, custom calls, copies, unfused ops)` and the miscounts told.
#[test]
fn kernel_miscounts_name_what_was_left_out() {
    let kernels = |(f, c, copies, other): (usize, usize, usize, usize)| {
        let mut out: Vec<Kernel> = Vec::new();
        for (n, kind) in [
            (f, KernelKind::Fusion),
            (c, KernelKind::CustomCall),
            (copies, KernelKind::Copy),
            (other, KernelKind::Op),
        ] {
            for i in 0..n {
                out.push(Kernel {
                    name: format!("k{i}"),
                    opcode: "op".to_owned(),
                    kind,
                    line: 1,
                    computation: "main".to_owned(),
                    in_entry: true,
                });
            }
        }
        out
    };
    let check = |counts, expect: &[(usize, &str)]| {
        let ks = kernels(counts);
        let refs: Vec<&Kernel> = ks.iter().collect();
        let got = kernel_miscounts(&refs);
        let got: Vec<(usize, &str)> = got.iter().map(|(n, s)| (*n, s.as_str())).collect();
        assert_eq!(got, expect, "for {counts:?}");
    };
    check((2, 0, 0, 0), &[]);
    check(
        (3, 0, 1, 0),
        &[
            (
                3,
                "That counts the fusions alone: the copy launches work too.",
            ),
            (
                3,
                "That leaves out the copy: a `copy` reads and writes a whole array, one kernel.",
            ),
        ],
    );
    check(
        (0, 1, 0, 0),
        &[(
            0,
            "That counts the fusions alone: the custom call launches work too.",
        )],
    );
    check(
        (1, 1, 4, 0),
        &[
            (
                1,
                "That counts the fusions alone: the copies and the custom call launch work too.",
            ),
            (
                2,
                "That leaves out the copies: a `copy` reads and writes a whole array, one kernel each.",
            ),
        ],
    );
    // `copy-start`s: their `-done` halves are a likely miscount.
    let with_starts = |counts, starts: usize| {
        let mut ks = kernels(counts);
        for k in ks
            .iter_mut()
            .filter(|k| k.kind == KernelKind::Copy)
            .take(starts)
        {
            k.opcode = "copy-start".to_owned();
        }
        let refs: Vec<&Kernel> = ks.iter().collect();
        kernel_miscounts(&refs)
            .into_iter()
            .filter(|(_, s)| s.contains("-done"))
            .collect::<Vec<_>>()
    };
    assert_eq!(with_starts((3, 0, 1, 0), 0), []);
    assert_eq!(
        with_starts((3, 0, 1, 0), 1),
        [(
            5,
            "That counts the `-done` half of the async pair too: it only waits for its `-start`, which is the kernel.".to_owned()
        )]
    );
    assert_eq!(
        with_starts((1, 1, 4, 0), 2),
        [(
            8,
            "That counts the `-done` halves of the async pairs too: each only waits for its `-start`, which is the kernel.".to_owned()
        )]
    );
    check(
        (2, 0, 0, 2),
        &[(
            2,
            "That counts the fusions alone: the unfused ops standing on their own launch work too.",
        )],
    );
}

#[test]
fn each_question_says_what_its_dump_is_from_the_provenance() {
    let mut lib = library();
    for (file, call, target) in [
        (
            "compiled.cpu.hlo.txt",
            "jax.jit(fn).lower(*args()).compile().as_text()",
            Some("host CPU (x86_64), XLA:CPU pinned to 2 cores"),
        ),
        (
            "lowered.stablehlo.mlir",
            "jax.jit(fn).lower(*args()).as_text(debug_info=True)",
            None,
        ),
    ] {
        if let Some(d) = lib.get_mut(&("neg".to_owned(), file.to_owned())) {
            d.provenance = Some(DumpSource {
                function: "fixtures/neg/function.py".to_owned(),
                call: call.to_owned(),
                target: target.map(str::to_owned),
            });
        }
    }
    let (qs, diags) = resolve_file(
        "exercises/t.toml",
        r#"
[[question]]
id = "e"
type = "evidence"
prompt = "Which lines?"
snippet = "neg/compiled.cpu.hlo.txt"

[[question]]
id = "c"
type = "classify"
prompt = "Which call?"
snippet = "neg/lowered.stablehlo.mlir#main"

[[question]]
id = "p"
type = "pair"
prompt = "Which one?"
snippet = "neg/lowered.stablehlo.mlir#main"
candidates = ["other/compiled.cpu.hlo.txt", "neg/compiled.cpu.hlo.txt"]
"#,
        &lib,
    );
    assert!(diags.is_empty(), "{diags:?}");
    // A pair question does not name the function's file: its folder is the
    // family, and so the answer. The signature and the call stay.
    assert_eq!(
        qs[2].context.as_deref(),
        Some(
            "From `fn(x: f32[8])`, printed with `jax.jit(fn).lower(*args()).as_text(debug_info=True)`."
        )
    );
    // Both candidates take `f32[8]`: the notes do not send the learner to
    // the shapes.
    for (_, note) in &qs[2].key.options {
        assert!(!note.contains("shapes and"), "{note}");
    }
    assert_eq!(
        qs[2].key.options[0].1,
        "Another function with the same shapes: compare its operations with the lowered module's."
    );
    assert_eq!(
        qs[0].context.as_deref(),
        Some(
            "From `fixtures/neg/function.py`: `fn(x: f32[8])`, compiled for the host CPU with `jax.jit(fn).lower(*args()).compile().as_text()`."
        )
    );
    // A classify question does not give its answer away: no call, no target.
    assert_eq!(
        qs[1].context.as_deref(),
        Some("From `fixtures/neg/function.py`: `fn(x: f32[8])`.")
    );
    // Its options quote the calls the family's provenance records.
    let label = |id: &str| {
        qs[1]
            .options
            .iter()
            .find(|(o, _)| o == id)
            .map(|(_, l)| l.clone())
            .unwrap()
    };
    assert_eq!(
        label("stablehlo"),
        "lowered StableHLO: `jax.jit(fn).lower(*args()).as_text(debug_info=True)`"
    );
    assert_eq!(
        label("hlo-optimized"),
        "compiled HLO: `jax.jit(fn).lower(*args()).compile().as_text()`"
    );
    assert_eq!(
        label("jaxpr"),
        "jaxpr: `jax.make_jaxpr(fn)(*args())`",
        "the generic call where the family has no such dump"
    );
    assert_eq!(
        short_call(
            "topo = t(); jax.jit(fn).lower(*jax.tree.map(lambda a: a, list(args()))).compile().as_text()  # env JAX_PLATFORMS=cpu"
        ),
        "jax.jit(fn).lower(*args).compile().as_text()"
    );
}

#[test]
fn option_calls_name_no_variant_and_no_target() {
    let check = |call: &str, expect: &str| assert_eq!(option_call(call), expect, "{call}");
    check(
        "jax.jit(fn).lower(*args()).compile().as_text()",
        "jax.jit(fn).lower(*args()).compile().as_text()",
    );
    check(
        "topo = t(); jax.jit(fn_triton).lower(*jax.tree.map(lambda a: a, list(args()))).as_text(debug_info=True)  # env JAX_PLATFORMS=cpu",
        "jax.jit(fn).lower(*args()).as_text(debug_info=True)",
    );
    check(
        "topo = t(); jax.jit(fn_mosaic_tpu_donated, donate_argnums=(0,)).lower(*jax.tree.map(lambda a: a, list(args()))).compile().as_text()",
        "jax.jit(fn, donate_argnums=(0,)).lower(*args()).compile().as_text()",
    );
    check(
        "str(jax.make_jaxpr(fn_x)(*args()))",
        "jax.make_jaxpr(fn)(*args())",
    );
}

#[test]
fn a_classify_option_prefers_the_plain_function_over_a_variant() {
    let mut lib = library();
    let lowered = ("neg".to_owned(), "lowered.stablehlo.mlir".to_owned());
    let mut gpu = lib.get(&lowered).cloned().unwrap();
    gpu.provenance = Some(DumpSource {
        function: "fixtures/neg/function.py".to_owned(),
        call: "topo = t(); jax.jit(fn_triton).lower(*jax.tree.map(lambda a: a, list(args()))).as_text(debug_info=True)".to_owned(),
        target: Some("NVIDIA H100 80GB HBM3, sm_90 (deviceless AOT)".to_owned()),
    });
    // Sorts before `lowered.stablehlo.mlir`: the rank, not the name, decides.
    lib.insert(
        ("neg".to_owned(), "lowered.gpu.stablehlo.mlir".to_owned()),
        gpu,
    );
    if let Some(d) = lib.get_mut(&lowered) {
        d.provenance = Some(DumpSource {
            function: "fixtures/neg/function.py".to_owned(),
            call: "jax.jit(fn).lower(*args()).as_text(debug_info=True)".to_owned(),
            target: None,
        });
    }
    assert_eq!(
        kind_label(Kind::Stablehlo, "neg", &lib),
        "lowered StableHLO: `jax.jit(fn).lower(*args()).as_text(debug_info=True)`"
    );
}

#[test]
fn a_per_target_variant_is_named_only_where_the_target_is_shown() {
    let mut lib = library();
    if let Some(d) = lib.get_mut(&("neg".to_owned(), "compiled.cpu.hlo.txt".to_owned())) {
        d.provenance = Some(DumpSource {
            function: "fixtures/neg/function.py".to_owned(),
            call: "jax.jit(fn_mosaic_tpu).lower(*args()).compile().as_text()".to_owned(),
            target: Some("host CPU (x86_64), XLA:CPU pinned to 2 cores".to_owned()),
        });
    }
    let (qs, diags) = resolve_file(
        "exercises/t.toml",
        r#"
[[question]]
id = "e"
type = "evidence"
prompt = "Which lines?"
snippet = "neg/compiled.cpu.hlo.txt"

[[question]]
id = "b"
type = "backend"
prompt = "Which backend?"
snippet = "neg/compiled.cpu.hlo.txt"
"#,
        &lib,
    );
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        qs[0].context.as_deref(),
        Some(
            "From `fixtures/neg/function.py`: `fn_mosaic_tpu(x: f32[8])`, compiled for the host CPU with `jax.jit(fn_mosaic_tpu).lower(*args()).compile().as_text()`."
        )
    );
    // `fn_mosaic_tpu` would name the answer of a backend question.
    assert_eq!(
        qs[1].context.as_deref(),
        Some("From `fixtures/neg/function.py`: a per-target variant of `fn(x: f32[8])`.")
    );
}

#[test]
fn a_loaded_family_is_analysed_once_and_the_library_reuses_it() {
    let toml = "status = \"reviewed\"\n[provenance]\nfunction = \"function.py\"\njax = \"0\"\njaxlib = \"0\"\npython = \"3\"\n[provenance.dumps.\"compiled.cpu.hlo.txt\"]\ncall = \"jax.jit(fn).lower(*args()).compile().as_text()\"\ntarget = \"host CPU\"\n";
    let files = BTreeMap::from([
        ("function.py".to_owned(), String::new()),
        ("compiled.cpu.hlo.txt".to_owned(), COMPILED.to_owned()),
    ]);
    let (family, _) = crate::fixture::load_family("neg", "fixtures/neg", toml, files);
    let family = family.unwrap();
    assert_eq!(family.analyses.len(), 1, "one analysis per dump file");
    let lib = library_of(&BTreeMap::from([("neg".to_owned(), family)]));
    let info = lib
        .get(&("neg".to_owned(), "compiled.cpu.hlo.txt".to_owned()))
        .unwrap();
    assert!(
        info.analysis.get().is_some(),
        "the library carries the analysis made at load time"
    );
    assert_eq!(info.analysis().entry_fusions, 1);
    assert_eq!(
        info.provenance.as_ref().map(|p| p.function.as_str()),
        Some("fixtures/neg/function.py")
    );
}

/// Every kind a dump can be annotated with has its `classify` row, every
/// backend its `backend` row: where one is missing, its option would be
/// labelled with its bare name and offer no note.
#[test]
fn every_kind_and_every_backend_has_its_row() {
    for kind in Kind::ALL.into_iter().filter(|k| *k != Kind::Unknown) {
        assert_eq!(
            KINDS.iter().filter(|(k, ..)| *k == kind).count(),
            1,
            "KINDS needs one row for `{kind}`"
        );
    }
    for backend in Backend::ALL {
        assert_eq!(
            BACKENDS.iter().filter(|(b, ..)| *b == backend).count(),
            1,
            "BACKENDS needs one row for `{backend}`"
        );
    }
}

/// Every ask of an `explain` question is documented in `exercises/FORMAT.md`.
#[test]
fn every_explain_ask_is_documented_where_instructors_read_it() {
    let doc = include_str!("../../../../exercises/FORMAT.md");
    let section: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("## Explain asks"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    let rows: Vec<&&str> = section.iter().filter(|l| l.starts_with("| `")).collect();
    assert_eq!(rows.len(), super::EXPLAIN_ASKS.len(), "one row per ask");
    for ask in super::EXPLAIN_ASKS {
        let row = format!("| `{}` |", ask.name);
        assert!(
            rows.iter().any(|r| r.starts_with(&row)),
            "exercises/FORMAT.md lacks `{row}`"
        );
    }
}

/// Every ask of a `collective` question is documented in
/// `exercises/FORMAT.md`.
#[test]
fn every_collective_ask_is_documented_where_instructors_read_it() {
    let doc = include_str!("../../../../exercises/FORMAT.md");
    let section: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("## Collective asks"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    let rows: Vec<&&str> = section.iter().filter(|l| l.starts_with("| `")).collect();
    assert_eq!(rows.len(), super::COLLECTIVE_ASKS.len(), "one row per ask");
    for ask in super::COLLECTIVE_ASKS {
        let row = format!("| `{}` |", ask.name);
        assert!(
            rows.iter().any(|r| r.starts_with(&row)),
            "exercises/FORMAT.md lacks `{row}`"
        );
    }
}

/// Every ask of a `cost` question is documented in `exercises/FORMAT.md`,
/// once, with what it is asked of.
#[test]
fn every_cost_ask_is_documented_where_instructors_read_it() {
    let doc = include_str!("../../../../exercises/FORMAT.md");
    let section: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("## Cost asks"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    let rows: Vec<&&str> = section.iter().filter(|l| l.starts_with("| `")).collect();
    assert_eq!(rows.len(), super::ASKS.len(), "one row per ask");
    for ask in super::ASKS {
        let of = if ask.of_kernel {
            "a kernel"
        } else {
            "the dump"
        };
        let row = format!("| `{}` | {of} |", ask.name);
        assert!(
            rows.iter().any(|r| r.starts_with(&row)),
            "exercises/FORMAT.md lacks `{row}`"
        );
    }
}

/// Every ask of a `diff` question is documented in `exercises/FORMAT.md`,
/// once, with what it is asked of.
#[test]
fn every_diff_ask_is_documented_where_instructors_read_it() {
    let doc = include_str!("../../../../exercises/FORMAT.md");
    let section: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("## Diff asks"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    let rows: Vec<&&str> = section.iter().filter(|l| l.starts_with("| `")).collect();
    assert_eq!(rows.len(), super::DIFF_ASKS.len(), "one row per ask");
    for ask in super::DIFF_ASKS {
        let row = format!("| `{}` |", ask.name);
        assert!(
            rows.iter().filter(|r| r.starts_with(&row)).count() == 1,
            "exercises/FORMAT.md lacks `{row}`"
        );
    }
}

/// Every ask of a `folder` question is documented in `exercises/FORMAT.md`,
/// once, with the words its row says.
#[test]
fn every_folder_ask_is_documented_where_instructors_read_it() {
    let doc = include_str!("../../../../exercises/FORMAT.md");
    let section: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("## Folder asks"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    let rows: Vec<&&str> = section.iter().filter(|l| l.starts_with("| `")).collect();
    assert_eq!(rows.len(), super::FOLDER_ASKS.len(), "one row per ask");
    for ask in super::FOLDER_ASKS {
        let row = format!("| `{}` |", ask.name);
        let found: Vec<_> = rows.iter().filter(|r| r.starts_with(&row)).collect();
        assert_eq!(found.len(), 1, "exercises/FORMAT.md lacks `{row}`");
        assert!(
            found[0].contains(ask.what),
            "the row of `{}` does not say: {}",
            ask.name,
            ask.what
        );
    }
}

/// A `diff` question's key is the diff's: the dead copy B adds is the one
/// kernel without a partner; the same pair asks no `merged`; an identical
/// pair has nothing added; a misspelt ask is told the near one.
#[test]
fn diff_keys_are_the_diffs() {
    let q = one(r#"
[[question]]
id = "d1"
type = "diff"
prompt = "Which kernel is new?"
snippet = "copied/compiled.cpu.hlo.txt#entry"
other = "neg/compiled.cpu.hlo.txt"
ask = "added"
"#);
    assert_eq!(q.key.answer, vec!["10".to_owned()], "{:?}", q.key);
    assert_eq!(verdict(&q, "10"), Outcome::Correct);
    assert_ne!(verdict(&q, "11"), Outcome::Correct);
    let q = one(r#"
[[question]]
id = "d2"
type = "diff"
prompt = "Same program?"
snippet = "neg/lowered.stablehlo.mlir"
other = "neg/lowered.stablehlo.mlir"
ask = "same-program"
"#);
    assert_eq!(q.key.answer, vec!["same".to_owned()]);
    for (src, want) in [
        (
            "snippet = \"neg/compiled.cpu.hlo.txt#entry\"\nother = \"other/compiled.cpu.hlo.txt\"\nask = \"added\"",
            "the diff finds no kernels with no partner in A",
        ),
        (
            "snippet = \"neg/compiled.cpu.hlo.txt#entry\"\nother = \"neg/compiled.cpu.hlo.txt\"\nask = \"aded\"",
            "did you mean `added`?",
        ),
        (
            "snippet = \"neg/compiled.cpu.hlo.txt#entry\"\nother = \"neg/lowered.stablehlo.mlir\"\nask = \"added\"",
            "a diff compares two dumps of one kind",
        ),
        (
            "snippet = \"copied/compiled.cpu.hlo.txt#entry\"\nother = \"neg/compiled.cpu.hlo.txt\"\nask = \"merged\"\nkernel = \"dead\"",
            "`dead` is the whole of no merge in this diff",
        ),
    ] {
        let (_, diags) = resolve(&format!(
            "[[question]]\nid = \"x\"\ntype = \"diff\"\nprompt = \"p\"\n{src}\n"
        ));
        assert!(
            diags.iter().any(|d| d.contains(want)),
            "{src}: want {want:?} in {diags:#?}"
        );
    }
}

/// The facts table and the one in `exercises/FORMAT.md` agree, row by row:
/// name and the dumps it applies to.
#[test]
fn every_fact_is_documented_where_instructors_read_it() {
    let doc = include_str!("../../../../exercises/FORMAT.md");
    let mut names = BTreeMap::new();
    for fact in &FACTS {
        let row = format!("| `{}` | {} |", fact.name, fact.applies.as_str());
        assert!(doc.contains(&row), "exercises/FORMAT.md lacks `{row}`");
        assert!(names.insert(fact.name, ()).is_none(), "{} twice", fact.name);
    }
    let documented = doc
        .lines()
        .skip_while(|l| !l.starts_with("## Count facts"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `"))
        .count();
    assert_eq!(
        documented,
        FACTS.len(),
        "a documented fact the checker does not count"
    );
}

/// `fixture.toml`'s kind and backend are read once, into the checker's own
/// types, which the library carries to the keys; a kind an annotation cannot
/// say (`unknown`) or a misspelt backend is refused where it is written,
/// with the values it may take.
#[test]
fn annotated_kind_and_backend_are_the_checkers_types_from_the_file_on() {
    let toml = |kind: &str, backend: &str| {
        format!(
            "status = \"reviewed\"\n[provenance]\nfunction = \"function.py\"\njax = \"0\"\njaxlib = \"0\"\npython = \"3\"\n\n[[dump]]\nfile = \"compiled.cpu.hlo.txt\"\nkind = \"{kind}\"\nbackend = \"{backend}\"\n"
        )
    };
    let files = || {
        BTreeMap::from([
            ("function.py".to_owned(), String::new()),
            ("compiled.cpu.hlo.txt".to_owned(), COMPILED.to_owned()),
        ])
    };
    let load = |kind: &str, backend: &str| {
        crate::fixture::load_family("neg", "fixtures/neg", &toml(kind, backend), files())
    };
    let (family, _) = load("hlo-optimized", "cpu");
    let lib = library_of(&BTreeMap::from([("neg".to_owned(), family.unwrap())]));
    let info = &lib[&("neg".to_owned(), "compiled.cpu.hlo.txt".to_owned())];
    assert_eq!(
        (info.kind, info.backend),
        (Some(Kind::HloOptimized), Some(Backend::Cpu))
    );
    let first = |kind: &str, backend: &str| load(kind, backend).1[0].to_string();
    assert_eq!(
        first("unknown", "cpu"),
        "fixtures/neg/fixture.toml:10:8: error: invalid fixture annotation: unknown variant `unknown`, expected one of `jaxpr`, `stablehlo`, `hlo-unoptimized`, `hlo-optimized`\n  help: use one of the values the message lists"
    );
    assert_eq!(
        first("hlo-optimized", "gpuu"),
        "fixtures/neg/fixture.toml:11:11: error: invalid fixture annotation: unknown variant `gpuu`, expected one of `cpu`, `gpu`, `tpu`\n  help: use one of the values the message lists"
    );
}

/// A fact's count and likely miscounts, or why it does not apply.
type Counts<'a> = Result<(usize, &'a [usize]), &'a str>;

/// Counts on real fixture dumps, through the facts table: `(dump, fact,
/// count, likely miscounts)`; a fact that does not apply says why.
#[test]
fn facts_count_real_fixture_dumps() {
    let check = |cases: &[(&str, &str, Counts<'_>)]| {
        let mut wrong = Vec::new();
        for (dump, fact, expect) in cases {
            let path = format!("{}/../fixtures/{dump}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let a = analyze(&text);
            let fact = super::facts::FACTS
                .iter()
                .find(|f| f.name == *fact)
                .unwrap();
            // The kind the resolver reads: the annotated one, which every
            // family gives its `lowered.hlo.txt` (the text alone proves no
            // kind there).
            let kind = if dump.ends_with("/lowered.hlo.txt") {
                Kind::HloUnoptimized
            } else {
                a.kind
            };
            let got = match fact.mismatch(kind, &a) {
                Some(why) => Err(why),
                None => {
                    let c = fact.count(&a, (1, text.lines().count()));
                    Ok((
                        c.value,
                        c.miscounts.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
                    ))
                }
            };
            let expect = expect.map(|(n, m)| (n, m.to_vec())).map_err(str::to_owned);
            if got != expect {
                wrong.push(format!("({dump:?}, {:?}, {got:?}),", fact.name));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    };
    check(&[
        (
            "elementwise_chain/compiled.cpu.hlo.txt",
            "entry_fusions",
            Ok((1, &[])),
        ),
        (
            "elementwise_chain/compiled.cpu.hlo.txt",
            "entry_kernels",
            Ok((1, &[])),
        ),
        (
            "fori_loop_while/compiled.cpu.hlo.txt",
            "while_loops",
            Ok((1, &[])),
        ),
        // The body alone is the likely miscount.
        (
            "fori_loop_while/compiled.cpu.hlo.txt",
            "iteration_kernels",
            Ok((3, &[2])),
        ),
        (
            "fori_loop_while/compiled.tpu.hlo.txt",
            "iteration_kernels",
            Ok((3, &[2, 1])),
        ),
        // XLA:GPU turned the `conditional` into a select; CPU kept it.
        (
            "cond_branch/compiled.gpu.hlo.txt",
            "conditionals",
            Ok((0, &[])),
        ),
        (
            "cond_branch/compiled.cpu.hlo.txt",
            "conditionals",
            Ok((1, &[])),
        ),
        ("cond_branch/compiled.gpu.hlo.txt", "fusions", Ok((3, &[]))),
        (
            "scan_rnn/compiled.tpu.hlo.txt",
            "entry_kernels",
            Ok((8, &[0, 4, 11])),
        ),
        // The scan's body equations are not top-level ones.
        ("scan_rnn/jaxpr.txt", "equations", Ok((1, &[5]))),
        ("scan_rnn/lowered.hlo.txt", "computations", Ok((6, &[]))),
        (
            "scan_rnn/jaxpr.txt",
            "fusions",
            Err("fact `fusions` applies to HLO dumps, and this one is jaxpr"),
        ),
        (
            "elementwise_chain/compiled.cpu.hlo.txt",
            "equations",
            Err("fact `equations` applies to jaxpr dumps, and this one is hlo-optimized"),
        ),
        (
            "elementwise_chain/compiled.cpu.hlo.txt",
            "iteration_kernels",
            Err(
                "fact `iteration_kernels` applies to HLO with a `while` dumps, and this one is hlo-optimized",
            ),
        ),
    ]);
}

/// `Question::TYPE_NAMES` is every type the model reads, as serde lists them
/// for a misspelt `type`, and each type names itself with its entry.
#[test]
fn the_type_names_are_every_type_of_the_model() {
    let (_, diags) = resolve("[[question]]\nid = \"x\"\ntype = \"?\"\nprompt = \"p\"\n");
    let listed: Vec<String> = Question::TYPE_NAMES
        .iter()
        .map(|t| format!("`{t}`"))
        .collect();
    assert!(
        diags[0].contains(&format!("expected one of {}\n", listed.join(", "))),
        "{diags:?}"
    );
    let (qs, diags) = resolve(
        r#"
[[question]]
id = "a"
type = "classify"
prompt = "p"
snippet = "neg/compiled.cpu.hlo.txt#entry"

[[question]]
id = "b"
type = "evidence"
prompt = "p"
snippet = "neg/compiled.cpu.hlo.txt"

[[question]]
id = "c"
type = "count"
prompt = "p"
snippet = "neg/compiled.cpu.hlo.txt"
fact = "entry_fusions"

[[question]]
id = "d"
type = "pair"
prompt = "p"
snippet = "neg/lowered.stablehlo.mlir"
candidates = ["other/compiled.cpu.hlo.txt", "neg/compiled.cpu.hlo.txt"]

[[question]]
id = "e"
type = "choice"
prompt = "p"
[[question.option]]
text = "x"
correct = true
why = "because"
[[question.option]]
text = "y"
why = "because not"

[[question]]
id = "f"
type = "backend"
prompt = "p"
snippet = "neg/compiled.cpu.hlo.txt"

[[question]]
id = "g"
type = "cost"
prompt = "p"
snippet = "neg/compiled.cpu.hlo.txt"
ask = "slowest"
chip = "h100"

[[question]]
id = "h"
type = "diff"
prompt = "p"
snippet = "neg/lowered.stablehlo.mlir"
other = "neg/lowered.stablehlo.mlir"
ask = "same-program"

[[question]]
id = "i"
type = "folder"
prompt = "p"
snippet = "neg/folder.cpu/module_0000.jit_fn.before_optimizations.txt"
ask = "changed-files"

[[question]]
id = "j"
type = "explain"
prompt = "p"
snippet = "copied/compiled.cpu.hlo.txt"
ask = "copy-bytes"
kernel = "dead"

[[question]]
id = "k"
type = "collective"
prompt = "p"
snippet = "sharded/compiled.cpu.hlo.txt"
ask = "group-size"
kernel = "all-reduce"

[[question]]
id = "l"
type = "finding"
prompt = "p"
snippet = "donatable/compiled.cpu.hlo.txt"
ask = "top"
"#,
    );
    assert!(diags.is_empty(), "{diags:?}");
    let names: Vec<&str> = qs.iter().map(|q| q.type_name).collect();
    assert_eq!(names, Question::TYPE_NAMES);
}

/// The library of real fixture folders, read from disk as the course
/// loader reads them (text files only), keyed `family/folder.X/path`.
fn folder_library(folders: &[(&str, &str)]) -> Library {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut lib = Library::new();
    for (family, dir) in folders {
        let mut stack = vec![root.join(family).join(dir)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&p) else {
                    continue;
                };
                let rel = p.strip_prefix(root.join(family)).unwrap();
                let key = rel.to_string_lossy().replace('\\', "/");
                lib.insert(
                    ((*family).to_owned(), key),
                    DumpInfo {
                        text,
                        ..DumpInfo::default()
                    },
                );
            }
        }
    }
    lib
}

/// A `folder` question's key is the folder reader's: the first file of a
/// copy by its name, the donated parameter, the temp bytes; what the folder
/// cannot give (the TPU's temp), a query found nowhere or only in the final
/// module, a misplaced `of` and a file outside any folder are build errors
/// at the key to change.
#[test]
fn folder_keys_are_the_folder_readers() {
    let lib = folder_library(&[
        ("dynamic_update_loop", "folder.cpu"),
        ("dynamic_update_loop", "folder.cpu.donated"),
        ("softmax", "folder.tpu"),
    ]);
    let loop_final =
        "dynamic_update_loop/folder.cpu/module_0000.jit_fn.cpu_after_optimizations.txt#78-86";
    let q = |ask: &str, snippet: &str, of: Option<&str>| {
        let of = of.map(|o| format!("of = \"{o}\"\n")).unwrap_or_default();
        format!(
            "[[question]]\nid = \"f\"\ntype = \"folder\"\nprompt = \"?\"\nsnippet = \"{snippet}\"\nask = \"{ask}\"\n{of}"
        )
    };
    let run = |src: String| {
        let (qs, diags) = resolve_file("exercises/t.toml", &src, &lib);
        (
            qs,
            diags.iter().map(ToString::to_string).collect::<Vec<_>>(),
        )
    };
    // First file of `copy.7`, by name: step 0035; 0033 (where the copy of
    // `buf.1` was still `copy.2`) is offered and graded wrong.
    let (qs, diags) = run(q("first-file", loop_final, Some("copy.7")));
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(qs[0].key.answer, ["0035"]);
    assert_eq!(verdict(&qs[0], "0035"), Outcome::Correct);
    assert_eq!(verdict(&qs[0], "0033"), Outcome::Wrong);
    assert!(
        qs[0].key.lines.iter().any(|(l, _)| *l == 82),
        "{:?}",
        qs[0].key.lines
    );
    // The donated buffer: parameter 0; without donation: none.
    let ba = "module_0000.jit_fn.cpu_after_optimizations-buffer-assignment.txt#1-9";
    let (qs, diags) = run(q(
        "aliased",
        &format!("dynamic_update_loop/folder.cpu.donated/{ba}"),
        None,
    ));
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(qs[0].key.answer, ["p0"]);
    let (qs, _) = run(q(
        "aliased",
        &format!("dynamic_update_loop/folder.cpu/{ba}"),
        None,
    ));
    assert_eq!(qs[0].key.answer, ["none"]);
    // Temp bytes: the preallocated-temp allocation, as memory_analysis().
    let (qs, _) = run(q(
        "temp-bytes",
        &format!("dynamic_update_loop/folder.cpu/{ba}"),
        None,
    ));
    assert_eq!(qs[0].key.answer, ["132"]);

    let tpu = "softmax/folder.tpu/module_0000.jit_fn.cl_933746096.after_optimizations.txt#1-3";
    for (src, at, says) in [
        (
            q("temp-bytes", tpu, None),
            "ask",
            "does not give this module's temp bytes",
        ),
        (
            q("first-file", tpu, Some("copy-start")),
            "of",
            "only in the optimized module",
        ),
        (
            q("first-file", loop_final, Some("no-such-thing")),
            "of",
            "appears in no file",
        ),
        (
            q("first-file", loop_final, None),
            "ask",
            "needs what to look for",
        ),
        (
            q("temp-bytes", loop_final, Some("copy")),
            "of",
            "looks for nothing",
        ),
        (
            q("temp-byte", loop_final, None),
            "ask",
            "did you mean `temp-bytes`",
        ),
        (
            q("temp-bytes", "neg/compiled.cpu.hlo.txt#1-2", None),
            "snippet",
            "no fixture family",
        ),
    ] {
        let (qs, diags) = run(src.clone());
        assert!(qs.is_empty(), "{src}");
        assert_eq!(diags.len(), 1, "{src}: {diags:#?}");
        assert!(diags[0].contains(says), "{src}: {diags:#?}");
        // Reported at the line of the key to change.
        let line: usize = diags[0].split(':').nth(1).unwrap().parse().unwrap();
        let key_line = src.lines().nth(line - 1).unwrap();
        assert!(
            key_line.starts_with(&format!("{at} =")),
            "{src}: {diags:#?}"
        );
    }
}

/// A `collective` question's keys are the reader's, and its mistakes are
/// reported at the value to change.
#[test]
fn collective_questions() {
    let q = |ask: &str, kernel: &str| {
        format!(
            "[[question]]\nid = \"c\"\ntype = \"collective\"\nprompt = \"p\"\nsnippet = \"sharded/compiled.cpu.hlo.txt\"\nask = \"{ask}\"\nkernel = \"{kernel}\"\n"
        )
    };
    let g = one(&q("group-size", "all-reduce"));
    assert_eq!(verdict(&g, "2"), Outcome::Correct);
    assert_eq!(verdict(&g, "4"), Outcome::Wrong);
    let p = one(&q("payload-bytes", "all-reduce"));
    assert_eq!(verdict(&p, "32"), Outcome::Correct);
    let l = one(&q("link-bytes", "all-reduce"));
    // Each device must receive the other's sum: the whole operand.
    assert_eq!(verdict(&l, "32"), Outcome::Correct);
    assert_eq!(verdict(&l, "16"), Outcome::Wrong);
    let s = one(&q("schedule", "all-reduce"));
    assert_eq!(verdict(&s, "sync"), Outcome::Correct);
    assert_eq!(verdict(&s, "pair-overlap"), Outcome::Wrong);
    let o = one(&q("origin", "all-reduce"));
    assert_eq!(verdict(&o, "written"), Outcome::Correct);
    assert_eq!(verdict(&o, "reduction"), Outcome::Wrong);
    let (_, diags) = resolve(&q("group-size", "all-reduse"));
    assert!(
        diags.len() == 1 && diags[0].contains("did you mean `all-reduce`?"),
        "{diags:?}"
    );
    let (_, diags) = resolve(&q("between", "all-reduce"));
    assert!(
        diags.len() == 1 && diags[0].contains("no start/done pair"),
        "{diags:?}"
    );
    let (_, diags) = resolve(&q("groups", "all-reduce"));
    assert!(
        diags.len() == 1 && diags[0].contains("group-size"),
        "{diags:?}"
    );
}
