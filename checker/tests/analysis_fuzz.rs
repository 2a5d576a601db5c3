//! Fuzzing the analysis with proptest: arbitrary bytes and mutated real
//! dumps (dropped lines, flipped bytes, truncation, inserted deep nesting)
//! must never panic, and the answer must stay self-consistent. The default
//! case count is small for CI; `PROPTEST_CASES=20000` runs it for longer.

#![allow(clippy::unwrap_used)]

mod support;

use dumplab::analysis::line_match::marker_matches;
use dumplab::analysis::unwrap;
use dumplab::{Kind, analyze};
use proptest::prelude::*;
use std::sync::OnceLock;
use support::{Damage, damage};

fn dumps() -> &'static [String] {
    static D: OnceLock<Vec<String>> = OnceLock::new();
    D.get_or_init(|| {
        let mut v: Vec<String> = support::corpus().into_iter().map(|d| d.text).collect();
        v.push(include_str!("data/xla_dump_before_optimizations.txt").to_owned());
        v.push(include_str!("data/cond.jaxpr.txt").to_owned());
        v
    })
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

fn consistent(text: &str) {
    let a = analyze(text);
    assert_eq!(a.kind == Kind::Unknown, a.reason.is_some());
    assert_eq!(a.backend.is_some(), a.backend_basis.is_some());
    assert_eq!(a.backend_guess.is_some(), a.backend_reason.is_some());
    assert!(a.backend_guess.is_none() || (a.kind == Kind::HloOptimized && a.backend.is_none()));
    assert!(a.kind == Kind::Unknown || a.dialect.is_some());
    assert_eq!(a.kind_rule.is_some(), a.kind.is_hlo());
    // A guess of the kind only where no proof decided it, with its rule.
    assert_eq!(a.kind_guess.is_some(), a.kind_guess_rule.is_some());
    assert!(
        a.kind_guess.is_none()
            || (a.kind == Kind::Unknown && a.kind_guess.is_some_and(Kind::is_hlo))
    );
    assert_eq!(
        a.entry_fusions,
        a.fusions.iter().filter(|f| f.in_entry).count()
    );
    for e in &a.evidence {
        assert!(
            e.line >= 1 && e.line <= a.lines,
            "line {} of {}",
            e.line,
            a.lines
        );
        // Clues of a repaired paste are on the lines as pasted, which
        // hold them cut or escaped: checked on clean text only.
        if a.unwrapped.is_empty() {
            let line = support::line_of(text, e.line);
            assert_eq!(
                marker_matches(e.marker, line),
                Some(true),
                "[{}] {line:?}",
                e.marker
            );
        }
    }
    repaired_consistently(text);
}

/// [`unwrap`] never panics, repairs its own output no further, and maps
/// every repaired line to a pasted line, in order.
fn repaired_consistently(text: &str) {
    let u = unwrap(text);
    if u.undone.is_empty() {
        assert_eq!(u.text, text);
        return;
    }
    let again = unwrap(&u.text);
    assert!(
        again.undone.is_empty(),
        "{:?} then {:?}",
        u.undone,
        again.undone
    );
    let repaired = u.text.lines().count();
    assert_eq!(u.map.len(), repaired);
    let mut last = (1usize, 0usize);
    for n in 1..=repaired {
        let at = u.map.get(n);
        assert!(
            at.0 >= 1 && at.0 <= u.pasted_lines,
            "{at:?} of {}",
            u.pasted_lines
        );
        assert!(
            at >= last || at.0 > last.0,
            "line {n}: {at:?} after {last:?}"
        );
        last = at;
    }
}

/// A damaged paste of a real dump (see [`support::Damage`]): one or two
/// damages, in any order.
fn damaged() -> impl Strategy<Value = Vec<Damage>> {
    prop::collection::vec(
        prop_oneof![
            Just(Damage::Repr),
            Just(Damage::TfLog),
            Just(Damage::Glog),
            Just(Damage::Prompt),
            (40usize..240).prop_map(Damage::Wrap),
        ],
        1..3,
    )
}

#[derive(Debug, Clone)]
enum Mutation {
    DropLine(usize),
    FlipByte(usize, u8),
    Truncate(usize),
    Nest(usize, usize, u8),
    DuplicateLine(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::DropLine),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::FlipByte(i, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (
            any::<usize>(),
            1usize..5000,
            prop::sample::select(b"{([\"%=<".to_vec())
        )
            .prop_map(|(i, n, c)| Mutation::Nest(i, n, c)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
    ]
}

fn apply(text: &str, muts: &[Mutation]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for m in muts {
        match *m {
            Mutation::DropLine(i) | Mutation::DuplicateLine(i) => {
                let s = String::from_utf8_lossy(&bytes).into_owned();
                let mut lines: Vec<&str> = s.lines().collect();
                if !lines.is_empty() {
                    let k = i % lines.len();
                    if matches!(m, Mutation::DropLine(_)) {
                        lines.remove(k);
                    } else {
                        let l = lines[k];
                        lines.insert(k, l);
                    }
                }
                bytes = lines.join("\n").into_bytes();
            }
            Mutation::FlipByte(i, b) => {
                if !bytes.is_empty() {
                    let k = i % bytes.len();
                    bytes[k] ^= b;
                }
            }
            Mutation::Truncate(i) => {
                let k = i % (bytes.len() + 1);
                bytes.truncate(k);
            }
            Mutation::Nest(i, n, c) => {
                let k = i % (bytes.len() + 1);
                let tail = bytes.split_off(k);
                bytes.extend(std::iter::repeat_n(c, n));
                bytes.extend(tail);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        consistent(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn arbitrary_dump_like_text(s in "[ %{}()\\[\\]=,:.\\-a-zA-Z0-9_\"<>#@\n]{0,2000}") {
        consistent(&s);
    }

    #[test]
    fn damaged_pastes(which in any::<usize>(), damages in damaged(), muts in prop::collection::vec(mutation(), 0..3)) {
        let all = dumps();
        prop_assume!(!all.is_empty());
        let mut text = all[which % all.len()].clone();
        for d in damages {
            text = damage(&text, d);
        }
        consistent(&apply(&text, &muts));
    }

    #[test]
    fn damage_shaped_text(s in "(>>> |\\.\\.\\. |\\$ |I1130 13:20:01\\.1 1 f\\.cc:1\\] |\\\\n|\\\\|'|\"|%a = f32\\[8\\] add\\(\\)|HloModule m|[ a-z{}=]{1,60}|\n){0,80}") {
        consistent(&s);
    }

    #[test]
    fn mutated_real_dumps(which in any::<usize>(), muts in prop::collection::vec(mutation(), 1..6)) {
        let all = dumps();
        prop_assume!(!all.is_empty());
        let text = &all[which % all.len()];
        consistent(&apply(text, &muts));
    }
}

#[test]
fn a_megabyte_of_nesting_does_not_recurse() {
    for unit in [
        "{",
        "(",
        "[",
        "{ lambda ",
        "%a = (",
        "\"",
        "f32[",
        "loc(#loc",
    ] {
        let s = unit.repeat(1_000_000 / unit.len());
        consistent(&s);
        let lines = format!("{}\n", unit).repeat(100_000 / (unit.len() + 1));
        consistent(&lines);
    }
}

/// Many ops pointing at one huge unterminated `#loc` alias: each alias is
/// resolved once, so this stays linear (it would take minutes otherwise).
#[test]
fn many_ops_sharing_a_long_location_stay_linear() {
    let mut s = format!("#loc1 = loc(\"{}\n", "a".repeat(1_000_000));
    for i in 0..20_000 {
        s.push_str(&format!(
            "  %{i} = stablehlo.add %a, %b : tensor<f32> loc(#loc1)\n"
        ));
    }
    consistent(&s);
}

/// A computation with a hundred thousand made-up opcodes stays linear.
#[test]
fn many_distinct_opcodes_stay_linear() {
    let mut s = String::from("%c (p: f32[]) -> f32[] {\n");
    for i in 0..100_000 {
        s.push_str(&format!("  %x{i} = f32[] op{i}(%p)\n"));
    }
    s.push_str("}\n");
    consistent(&s);
    assert_eq!(analyze(&s).op_histogram.len(), 100_000);
}
