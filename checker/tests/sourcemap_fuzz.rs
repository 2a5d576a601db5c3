//! Fuzzing the source map and the playground's report: pairs of mutated real
//! dumps (truncated, lines dropped, bytes flipped, lines from another dump
//! spliced in) and token soup must never panic, the hand-written JSON must
//! always parse, and the map must stay self-consistent (indices in range,
//! both directions of every link agreeing). `PROPTEST_CASES=20000` runs it
//! for longer.

#![allow(clippy::unwrap_used)]

mod support;

use dumplab::sourcemap::{json::to_json, map};
use proptest::prelude::*;
use std::sync::OnceLock;

fn dumps() -> &'static [String] {
    static D: OnceLock<Vec<String>> = OnceLock::new();
    D.get_or_init(|| support::corpus().into_iter().map(|d| d.text).collect())
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

fn consistent(lowered: &str, compiled: &str) {
    let m = map(lowered, compiled);
    let v: serde_json::Value = serde_json::from_str(&to_json(&m)).expect("valid JSON");
    assert_eq!(v["kernels"].as_array().unwrap().len(), m.kernels.len());
    let n = m.source_lines.len();
    for (ki, k) in m.kernels.iter().enumerate() {
        for &l in &k.source_lines {
            assert!(l < n);
            assert!(m.source_lines[l].kernels.contains(&ki));
        }
        for &o in &k.lowered_ops {
            assert!(m.lowered_ops[o].kernels.contains(&ki));
        }
    }
    for (oi, o) in m.lowered_ops.iter().enumerate() {
        for &l in &o.source_lines {
            assert!(l < n);
            assert!(m.source_lines[l].lowered_ops.contains(&oi));
        }
    }
    let mut sorted = m.source_lines.iter().map(|e| &e.source).collect::<Vec<_>>();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), n, "lines sorted and distinct");
}

fn mutate(text: &str, cut: usize, drop: usize, flip: usize) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    if !lines.is_empty() {
        lines.remove(drop % lines.len());
    }
    let mut s = lines.join("\n");
    let mut b = std::mem::take(&mut s).into_bytes();
    if !b.is_empty() {
        let i = flip % b.len();
        b[i] = match b[i] {
            b'(' => b')',
            b'{' => b'}',
            b'"' => b'#',
            b'%' => b' ',
            c => c ^ 0x20,
        };
    }
    let s = String::from_utf8_lossy(&b).into_owned();
    let cut = cut % (s.len() + 1);
    let mut end = cut;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn mutated_pairs_of_real_dumps(a in any::<usize>(), b in any::<usize>(), cut in any::<usize>(), drop in any::<usize>(), flip in any::<usize>()) {
        let d = dumps();
        let lowered = &d[a % d.len()];
        let compiled = &d[b % d.len()];
        consistent(&mutate(lowered, cut, drop, flip), compiled);
        consistent(lowered, &mutate(compiled, cut, drop, flip));
        let mut req = b"inspect\n".to_vec();
        req.extend_from_slice(mutate(compiled, cut, drop, flip).as_bytes());
        let _: serde_json::Value = serde_json::from_str(&dumplab::inspect::respond(&req)).unwrap();
    }

    #[test]
    fn token_soup(tokens in proptest::collection::vec(prop_oneof![
        Just("loc(".to_owned()), Just("#loc1".to_owned()), Just(" = ".to_owned()), Just("callsite(".to_owned()),
        Just(" at ".to_owned()), Just("fused[".to_owned()), Just("\"f.py\":3:1".to_owned()), Just(")".to_owned()),
        Just("]".to_owned()), Just("\n".to_owned()), Just("%0 = stablehlo.add %a".to_owned()), Just("ENTRY %m {".to_owned()),
        Just("%f = f32[8]{0} fusion(%p), kind=kLoop, calls=%c".to_owned()), Just("metadata={op_name=\"a/b\" stack_frame_id=1}".to_owned()),
        Just("StackFrames\n1 {file_location_id=1 parent_frame_id=1}".to_owned()), Just("}".to_owned()), Just("%c (p: f32[8]) -> f32[8] {".to_owned()),
        Just("\u{0}".to_owned()), Just("é".to_owned()), Just("<script>".to_owned()),
    ], 0..200)) {
        let s: String = tokens.concat();
        consistent(&s, &s);
        consistent(&s, "");
        consistent("", &s);
    }
}
