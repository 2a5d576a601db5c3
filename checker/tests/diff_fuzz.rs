//! Fuzzing the diff of two dumps (`dumplab::diff`) on real dumps: a module
//! diffed with itself is empty (whole, with random entry instructions
//! removed, or a window of it); swapping A and B swaps added and removed,
//! and split and merged; damaged input on either side never panics and the
//! JSON always parses. `PROPTEST_CASES=2000` runs it for longer.

#![allow(clippy::unwrap_used)]

mod support;

use dumplab::diff::compiled::CompiledDiff;
use dumplab::diff::json::to_json;
use dumplab::diff::report::{Body, with_diff};
use dumplab::{Kind, program};
use proptest::prelude::*;
use std::sync::OnceLock;

/// Every real dump under `fixtures/` (all kinds).
fn dumps() -> &'static [String] {
    static D: OnceLock<Vec<String>> = OnceLock::new();
    D.get_or_init(|| support::corpus().into_iter().map(|d| d.text).collect())
}

/// The compiled fixtures.
fn compiled() -> &'static [String] {
    static D: OnceLock<Vec<String>> = OnceLock::new();
    D.get_or_init(|| {
        support::corpus()
            .into_iter()
            .filter(|d| d.kind == Kind::HloOptimized)
            .map(|d| d.text)
            .collect()
    })
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

/// `text` without the entry instructions (not the ROOT) whose bit in
/// `mask` is set (bit i for the i-th entry instruction, cycling).
fn drop_entry_lines(text: &str, mask: u64) -> String {
    let m = program::parse(text);
    let mut gone = std::collections::HashSet::new();
    if let Some(e) = m.entry {
        for (i, ins) in m.instructions_of(e).iter().enumerate() {
            if !ins.is_root && mask & (1 << (i % 64)) != 0 {
                gone.extend(ins.line..=ins.end_line());
            }
        }
    }
    text.lines()
        .enumerate()
        .filter(|(i, _)| !gone.contains(&(i + 1)))
        .map(|(_, l)| format!("{l}\n"))
        .collect()
}

/// Lines `start..start+len` of `text` (cycling the start).
fn window(text: &str, start: usize, len: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let s = start % lines.len().max(1);
    lines[s..(s + len).min(lines.len())].join("\n")
}

/// The self-diff of `text` is empty when the diff reads it, and an error
/// otherwise.
fn empty_with_itself(text: &str) {
    let r = with_diff(text, text, None, |r| match &r.body {
        Body::Compiled(d) => (d.is_empty(), to_json(r)),
        Body::Lowered(d) => (d.same_program(), to_json(r)),
    });
    if let Ok((empty, json)) = r {
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(empty, "{v}");
    }
}

/// Names of what a compiled diff found on each side: (added, removed,
/// split as (A, [B]), merged as ([A], B), pairs).
type Sides = (
    Vec<String>,
    Vec<String>,
    Vec<(String, Vec<String>)>,
    Vec<(Vec<String>, String)>,
    Vec<(String, String)>,
);

fn sides(d: &CompiledDiff<'_>) -> Sides {
    let (a, b) = (&d.a.items, &d.b.items);
    let m = &d.matching;
    let name = |x: &dumplab::diff::item::Item<'_>| format!("{}@{}", x.name, x.line);
    let mut pairs: Vec<(String, String)> = m
        .pairs
        .iter()
        .map(|p| (name(&a[p.a]), name(&b[p.b])))
        .collect();
    pairs.sort();
    (
        m.added.iter().map(|&j| name(&b[j])).collect(),
        m.removed.iter().map(|&i| name(&a[i])).collect(),
        m.split
            .iter()
            .map(|g| {
                (
                    name(&a[g.whole]),
                    g.parts.iter().map(|&j| name(&b[j])).collect(),
                )
            })
            .collect(),
        m.merged
            .iter()
            .map(|g| {
                (
                    g.parts.iter().map(|&i| name(&a[i])).collect(),
                    name(&b[g.whole]),
                )
            })
            .collect(),
        pairs,
    )
}

fn diff_sides(a: &str, b: &str) -> Sides {
    with_diff(a, b, None, |r| {
        let Body::Compiled(d) = &r.body else { panic!() };
        sides(d)
    })
    .unwrap()
}

/// Swapping A and B swaps added and removed, split and merged, and the
/// two names of every pair.
fn swaps(a: &str, b: &str) {
    let (add, rem, split, merged, pairs) = diff_sides(a, b);
    let (add2, rem2, split2, merged2, pairs2) = diff_sides(b, a);
    assert_eq!(add, rem2, "added vs removed swapped");
    assert_eq!(rem, add2, "removed vs added swapped");
    let mut flip_split: Vec<(Vec<String>, String)> =
        split.into_iter().map(|(w, p)| (p, w)).collect();
    let mut merged2 = merged2;
    flip_split.sort();
    merged2.sort();
    assert_eq!(flip_split, merged2, "split vs merged swapped");
    let flip_merged: Vec<(String, Vec<String>)> = merged.into_iter().map(|(p, w)| (w, p)).collect();
    let mut split2 = split2;
    let mut flip_merged = flip_merged;
    split2.sort();
    flip_merged.sort();
    assert_eq!(flip_merged, split2, "merged vs split swapped");
    let mut back: Vec<(String, String)> = pairs2.into_iter().map(|(x, y)| (y, x)).collect();
    back.sort();
    assert_eq!(pairs, back, "pairs swapped");
}

/// A damaged copy of `text`: a line dropped, a byte flipped, cut short.
fn mutate(text: &str, cut: usize, drop: usize, flip: usize) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    if !lines.is_empty() {
        lines.remove(drop % lines.len());
    }
    let mut b = lines.join("\n").into_bytes();
    if !b.is_empty() {
        let i = flip % b.len();
        b[i] = match b[i] {
            b'(' => b')',
            b'{' => b'}',
            b'"' => b'#',
            b'%' => b' ',
            b'=' => b',',
            c => c ^ 0x20,
        };
    }
    let s = String::from_utf8_lossy(&b).into_owned();
    let mut end = cut % (s.len() + 1);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_owned()
}

/// The diff of two texts never panics; its JSON parses when it has one.
fn never_panics(a: &str, b: &str, chip: Option<&str>) {
    if let Ok(json) = with_diff(a, b, chip, to_json) {
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(v["kind"].is_string(), "{v}");
    }
}

#[test]
fn every_compiled_fixture_swaps_with_its_other_backends() {
    let d = support::corpus();
    let by_family = |f: &std::path::Path| f.parent().map(|p| p.to_path_buf());
    let c: Vec<_> = d.iter().filter(|x| x.kind == Kind::HloOptimized).collect();
    let mut n = 0;
    for x in &c {
        for y in &c {
            if x.path < y.path && by_family(&x.path) == by_family(&y.path) {
                swaps(&x.text, &y.text);
                n += 1;
            }
        }
    }
    assert!(n >= 60, "{n} pairs");
}

/// The undamaged compiled drift dumps, by (function, backend): each
/// release's text.
fn drift_by_function() -> std::collections::BTreeMap<String, Vec<String>> {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/drift");
    let mut out: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for rel in std::fs::read_dir(&root).unwrap().flatten() {
        for f in std::fs::read_dir(rel.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = f.file_name().to_string_lossy().into_owned();
            if name.contains(".compiled.") && name.ends_with(".hlo.txt") {
                let text = std::fs::read_to_string(f.path()).unwrap();
                out.entry(name).or_default().push(text);
            }
        }
    }
    out
}

#[test]
fn every_pair_of_releases_swaps() {
    let mut n = 0;
    for texts in drift_by_function().values() {
        for (i, a) in texts.iter().enumerate() {
            for b in &texts[i + 1..] {
                swaps(a, b);
                n += 1;
            }
        }
    }
    assert!(n >= 60, "{n} pairs");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn a_module_with_itself_is_empty(i in any::<usize>(), mask in any::<u64>(), start in any::<usize>(), len in 1usize..400) {
        let c = compiled();
        let text = &c[i % c.len()];
        empty_with_itself(text);
        empty_with_itself(&drop_entry_lines(text, mask));
        empty_with_itself(&window(text, start, len));
        let d = dumps();
        empty_with_itself(&d[i % d.len()]);
    }

    #[test]
    fn swapping_a_and_b_swaps_added_and_removed(i in any::<usize>(), j in any::<usize>(), mask in any::<u64>()) {
        let c = compiled();
        let (a, b) = (&c[i % c.len()], &c[j % c.len()]);
        swaps(a, b);
        swaps(a, &drop_entry_lines(a, mask));
    }

    #[test]
    fn damaged_input_on_either_side_never_panics(i in any::<usize>(), j in any::<usize>(), cut in any::<usize>(), drop in any::<usize>(), flip in any::<usize>(), chip in prop_oneof![Just(None), Just(Some("h100")), Just(Some("v5e"))]) {
        let d = dumps();
        let (a, b) = (&d[i % d.len()], &d[j % d.len()]);
        let m = mutate(a, cut, drop, flip);
        never_panics(&m, b, chip);
        never_panics(b, &m, chip);
        never_panics(&m, &m, chip);
        never_panics(&m, &mutate(b, flip, cut, drop), chip);
    }
}
