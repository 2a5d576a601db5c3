//! Unwrapping damaged pastes: clean dumps are never touched; every fixture,
//! damaged as pastes are (a repr string, log prefixes, hard wrapping,
//! prompts), gives the analysis of its clean original, with evidence on the
//! lines as pasted.

#![allow(clippy::unwrap_used)]

mod support;

use dumplab::analysis::{Damage as Undo, unwrap};
use dumplab::{Kind, analyze};
use support::{Damage, damage};

#[test]
fn clean_dumps_are_left_untouched() {
    let mut n = 0;
    for d in support::corpus() {
        let u = unwrap(&d.text);
        assert!(u.undone.is_empty(), "{}: {:?}", d.path.display(), u.undone);
        assert_eq!(u.text, d.text.as_str());
        n += 1;
    }
    for t in [
        include_str!("data/as_text_dialect_hlo_scan.txt"),
        include_str!("data/cond.jaxpr.txt"),
        include_str!("data/xla_dump_before_optimizations.txt"),
        include_str!("data/xla_dump_cpu_after_optimizations.txt"),
    ] {
        assert!(unwrap(t).undone.is_empty());
    }
    assert!(n >= 100, "{n} dumps");
}

/// Which undo each damage must report.
fn undo_of(d: Damage) -> Undo {
    match d {
        Damage::Repr | Damage::Json => Undo::Repr,
        Damage::TfLog | Damage::Glog => Undo::LogPrefix,
        Damage::Wrap(_) => Undo::Wrapped,
        Damage::Prompt => Undo::Prompt,
    }
}

#[test]
fn damaged_fixtures_read_as_their_clean_originals() {
    let mut checked = 0;
    // Wrapped variants with two or more cuts, and those undone.
    let mut wraps = (0usize, 0usize);
    for d in support::corpus() {
        let clean = analyze(&d.text);
        for dmg in [
            Damage::Repr,
            Damage::TfLog,
            Damage::Glog,
            Damage::Wrap(80),
            Damage::Wrap(120),
            Damage::Prompt,
        ] {
            let text = damage(&d.text, dmg);
            // Wrapping is undone when there are two or more cuts (one cut
            // alone is not told from a short line after a long one); the
            // kind must be right either way.
            let cut = match dmg {
                Damage::Wrap(w) => d.text.lines().map(|l| l.len().saturating_sub(1) / w).sum(),
                _ => usize::MAX,
            };
            let a = analyze(&text);
            let p = format!("{} {dmg:?}", d.path.display());
            assert_eq!(a.kind, clean.kind, "{p}: {:?}", a.reason);
            assert_eq!(a.dialect, clean.dialect, "{p}");
            assert_eq!(a.backend, clean.backend, "{p}");
            assert_eq!(a.backend_basis, clean.backend_basis, "{p}");
            assert_eq!(a.fusions.len(), clean.fusions.len(), "{p}");
            let undone = a.unwrapped.iter().any(|u| u.what == undo_of(dmg));
            if cut == usize::MAX {
                assert!(undone, "{p}: {:?}", a.unwrapped);
            } else {
                // A piece that could start a line (a lone `}`) leaves its
                // cut alone: the wrap is undone where it can be told.
                assert!(!undone || cut >= 2, "{p}: {:?}", a.unwrapped);
                wraps.0 += usize::from(cut >= 2);
                wraps.1 += usize::from(cut >= 2 && undone);
            }
            assert_eq!(a.lines, text.lines().count(), "{p}");
            // Kernels are numbered as pasted: each one's line holds its name
            // (where every cut was undone; a wrap left alone cuts lines).
            let repaired = unwrap(&text).text.lines().count() == d.text.lines().count();
            if repaired {
                assert_eq!(a.kernels.len(), clean.kernels.len(), "{p}");
            }
            let pasted: Vec<&str> = text.lines().collect();
            for k in a.kernels.iter().filter(|_| repaired) {
                let line = pasted.get(k.line.wrapping_sub(1)).copied().unwrap_or("");
                assert!(
                    line.contains(&k.name),
                    "{p}: kernel {} at line {}",
                    k.name,
                    k.line
                );
            }
            assert!(
                a.evidence.iter().all(|e| e.line >= 1 && e.line <= a.lines),
                "{p}"
            );
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked}");
    assert!(
        wraps.1 * 10 >= wraps.0 * 9,
        "wrapping undone in {} of {} wrapped dumps",
        wraps.1,
        wraps.0
    );
    eprintln!(
        "wrapping undone in {} of {} wrapped dumps",
        wraps.1, wraps.0
    );
}

#[test]
fn evidence_points_at_the_lines_and_columns_as_pasted() {
    let text = include_str!("data/xla_dump_cpu_after_optimizations.txt");
    let clean = analyze(text);
    // Log prefixes: the same lines, columns moved by the prefix.
    let logged = analyze(&damage(text, Damage::TfLog));
    let shift = support::TF_PREFIX.chars().count();
    let first = |a: &dumplab::Analysis, m: &str| {
        a.evidence
            .iter()
            .find(|e| e.marker == m)
            .map(|e| (e.line, e.columns.clone()))
    };
    let (l0, c0) = first(&clean, "is-scheduled").unwrap();
    let (l1, c1) = first(&logged, "is-scheduled").unwrap();
    assert_eq!(l1, l0);
    assert_eq!(c1.start, c0.start + shift);
    // Every clue, fused computation headers (found at the end) included.
    let moved: Vec<_> = clean
        .evidence
        .iter()
        .map(|e| {
            (
                e.line,
                e.columns.start + shift,
                e.columns.end + shift,
                e.marker,
            )
        })
        .collect();
    let got: Vec<_> = logged
        .evidence
        .iter()
        .map(|e| (e.line, e.columns.start, e.columns.end, e.marker))
        .collect();
    assert_eq!(got, moved);
    // A repr: everything on line 1.
    let repr = analyze(&damage(text, Damage::Repr));
    assert_eq!(repr.lines, 1);
    assert!(repr.evidence.iter().all(|e| e.line == 1));
    // Wrapped at 80: each clue on the pasted line its logical line starts on.
    let wrapped = damage(text, Damage::Wrap(80));
    let w = analyze(&wrapped);
    for e in w.evidence.iter().filter(|e| e.marker == "fusion-kind") {
        let pasted = support::line_of(&wrapped, e.line);
        assert!(
            pasted.trim_start().starts_with('%') || pasted.trim_start().starts_with("ROOT"),
            "line {}: {pasted}",
            e.line
        );
    }
    assert_eq!(
        w.evidence
            .iter()
            .filter(|e| e.marker == "fusion-kind")
            .count(),
        clean
            .evidence
            .iter()
            .filter(|e| e.marker == "fusion-kind")
            .count()
    );
}

#[test]
fn the_report_says_what_was_undone() {
    let text = include_str!("data/xla_dump_cpu_after_optimizations.txt");
    let a = analyze(&damage(&damage(text, Damage::Repr), Damage::TfLog));
    let what: Vec<Undo> = a.unwrapped.iter().map(|u| u.what).collect();
    assert_eq!(what, [Undo::LogPrefix, Undo::Repr]);
    assert!(
        a.unwrapped[0].note.contains("xla_util.cc:72]"),
        "{:?}",
        a.unwrapped
    );
    assert_eq!(a.kind, Kind::HloOptimized);
}

/// Python's escapes undone for display (`\"`, `\'`, `\\`, `\t`; others
/// are kept as pasted, as the repair keeps them).
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(e @ ('"' | '\'' | '\\'))) => {
                out.push(e);
                chars.next();
            }
            ('\\', Some('t')) => {
                out.push('\t');
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// The pasted text under a clue's columns (1-based, end exclusive).
fn under(text: &str, e: &dumplab::Evidence) -> String {
    let line = support::line_of(text, e.line);
    line.chars()
        .skip(e.columns.start - 1)
        .take(e.columns.end.saturating_sub(e.columns.start))
        .collect()
}

/// A row's input: a fixture file, the needle that picks its line, the
/// damage done in order, and an edit after it.
type Pasted<'a> = (&'a str, &'a str, &'a [Damage], fn(String) -> String);

/// A real line of a fixture (the first holding `needle`) in a module of
/// its own, pasted as `dmg` (in order), then `edit`ed (a hostile name): the
/// first clue of `marker` covers exactly `expect` in the paste, however
/// many escapes stand before it on the pasted line.
fn check(input: Pasted<'_>, expect: (&str, &str)) {
    let (file, needle, dmg, edit) = input;
    let (marker, want) = expect;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(file);
    let dump = std::fs::read_to_string(&path).unwrap();
    let line = dump.lines().find(|l| l.contains(needle)).unwrap();
    let module = format!("HloModule m, is_scheduled=true\n\nENTRY %main {{\n{line}\n}}\n");
    let text = edit(dmg.iter().fold(module, |t, &d| damage(&t, d)));
    let a = analyze(&text);
    let e = a.evidence.iter().find(|e| e.marker == marker);
    let e = e.unwrap_or_else(|| panic!("{file} {dmg:?}: no {marker}"));
    assert_eq!(
        under(&text, e),
        want,
        "{file} {dmg:?} {marker}: {:?}",
        e.columns
    );
}

#[test]
fn a_clue_after_escapes_covers_its_pasted_characters() {
    let same: fn(String) -> String = |s| s;
    let root = "ROOT %loop_add_fusion";
    let gpu = "elementwise_chain/compiled.gpu.hlo.txt";
    for (input, expect) in [
        // `op_name=\"jit(fn)/sub\"` stands before: two escapes.
        (
            (gpu, root, &[Damage::Json][..], same),
            ("scheduling-name", "scheduling_name"),
        ),
        // A clue that holds escapes covers them whole.
        (
            (gpu, root, &[Damage::Json][..], same),
            ("gpu-backend-config", "\\\"operation_queue_id\\\""),
        ),
        // Python's repr of the same line: its `"` are not escaped.
        (
            (gpu, root, &[Damage::Repr][..], same),
            ("scheduling-name", "scheduling_name"),
        ),
        // `\u202e` and `\x1b`, as Python writes them, are kept as pasted.
        (
            (
                gpu,
                root,
                &[Damage::Json][..],
                (|s: String| s.replace("jit(fn)/sub", "jit(fn)/\\u202esub\\x1b"))
                    as fn(String) -> String,
            ),
            ("scheduling-name", "scheduling_name"),
        ),
        // A JSON string of captured log lines: the prefixes go in a second
        // round, and the columns still count the escapes.
        (
            (gpu, root, &[Damage::Glog, Damage::Json][..], same),
            ("gpu-backend-config", "\\\"operation_queue_id\\\""),
        ),
        // A `\r` before the line's end is dropped: nothing before it moves.
        (
            (
                gpu,
                root,
                &[Damage::Json][..],
                (|s: String| s.replace("%fused_add,", "%fused_add,\\r")) as fn(String) -> String,
            ),
            ("scheduling-name", "scheduling_name"),
        ),
        // A custom call's target in escaped quotes: the clue ends on one.
        (
            (
                "conv2d/compiled.gpu.hlo.txt",
                "%cudnn-conv.1 =",
                &[Damage::Json][..],
                same,
            ),
            (
                "gpu-custom-call",
                "custom_call_target=\\\"__cudnn$convForward\\\"",
            ),
        ),
    ] {
        check(input, expect);
    }
}

#[test]
fn every_clue_of_a_repr_paste_covers_the_characters_of_its_clean_clue() {
    let mut checked = 0usize;
    for d in support::corpus() {
        let clean = analyze(&d.text);
        // A JSON string and a repr, and a JSON string of captured log lines
        // (undone in two rounds: the string, then the prefixes).
        for dmg in [
            &[Damage::Json][..],
            &[Damage::Repr],
            &[Damage::Glog, Damage::Json],
        ] {
            let text = dmg.iter().fold(d.text.clone(), |t, &x| damage(&t, x));
            let a = analyze(&text);
            let p = format!("{} {dmg:?}", d.path.display());
            assert_eq!(a.evidence.len(), clean.evidence.len(), "{p}");
            for (e, c) in a.evidence.iter().zip(&clean.evidence) {
                assert_eq!(e.marker, c.marker, "{p}");
                assert_eq!(
                    unescape(&under(&text, e)),
                    under(&d.text, c),
                    "{p} {}",
                    e.marker
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}
