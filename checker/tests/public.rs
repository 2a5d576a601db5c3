//! The public corpus (`tests/public/`, ground truth in its `manifest.toml`):
//! real dumps that people published (JAX's export back-compat data, XLA's,
//! TensorFlow's and PyTorch/XLA's tests and docs) and that no rule here was
//! tuned on. Every label was written from the file's provenance before
//! DumpLab ran on it (`tests/public/README.md`).
//!
//! - `manifest_is_consistent` (always run): every file listed once, its
//!   sha256 as recorded, its url a GitHub blob at a commit, its labels well
//!   formed;
//! - `public_kinds` (always run): prints right / unknown / wrong for the
//!   kind, each kind rule with how often it decided and was right, and each
//!   hint rule with how often its guess (`kind_guess`, never the answer)
//!   was right; fails on any wrong kind (an honest `unknown` is none);
//! - `public_backends` (always run): prints right / unknown / wrong / unsupported for the
//!   backend, and each rule of `RULES` with how often it decided and how
//!   often it was right, and fails on any wrong or unsupported backend.
//!
//! ```text
//! cargo test -p dumplab --test public -- --nocapture
//! ```
//!
//! Counting: a label `ambiguous` (a hand-written test module, neither a
//! front end's output nor a compiled one) accepts either HLO kind as right
//! and `unknown` as unknown; a jaxpr or StableHLO answer is wrong. A
//! backend DumpLab names where the label has none is "unsupported": the
//! source does not say, so the claim has no ground truth behind it.

#![allow(clippy::unwrap_used, clippy::print_stdout)]

mod support;

use dumplab::Backend;
use dumplab::Kind;
use std::collections::BTreeMap;
use support::truth::{
    PublicEntry, Verdict3, backend_clue_line, backend_rule_table, describe, judge_all,
    kind_rule_table, public_corpus, public_manifest, public_root, show, tally,
};

#[test]
fn manifest_is_consistent() {
    let m = public_manifest();
    // `short__*` files are short pastes cut from other entries, not dumps.
    let dumps = m.iter().filter(|e| !e.file.starts_with("short__")).count();
    assert!(
        dumps >= 40,
        "the public corpus holds {dumps} dumps, fewer than 40"
    );
    let mut bad = Vec::new();
    let mut seen = BTreeMap::new();
    for e in &m {
        if seen.insert(e.file.as_str(), ()).is_some() {
            bad.push(format!("{}: listed twice", e.file));
        }
        let bytes = std::fs::read(public_root().join(&e.file)).unwrap_or_default();
        if sha256_hex(&bytes) != e.sha256 {
            bad.push(format!("{}: sha256 differs from the manifest", e.file));
        }
        bad.extend(
            entry_problems(e)
                .into_iter()
                .map(|p| format!("{}: {p}", e.file)),
        );
    }
    for f in std::fs::read_dir(public_root()).unwrap() {
        let name = f.unwrap().file_name().into_string().unwrap();
        if !seen.contains_key(name.as_str()) && name != "manifest.toml" && name != "README.md" {
            bad.push(format!("{name}: in tests/public/ but not in the manifest"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// What is wrong with one entry's labels, in words.
fn entry_problems(e: &PublicEntry) -> Vec<String> {
    let mut p = Vec::new();
    let blob = e
        .url
        .strip_prefix("https://github.com/")
        .and_then(|r| r.split_once("/blob/"));
    let commit_ok = blob.is_some_and(|(_, rest)| {
        rest.split_once('/').is_some_and(|(c, path)| {
            c.len() == 40 && c.bytes().all(|b| b.is_ascii_hexdigit()) && !path.is_empty()
        })
    });
    if !commit_ok {
        p.push(format!(
            "url `{}` is not a GitHub blob at a 40-digit commit",
            e.url
        ));
    }
    if e.kind == "ambiguous" {
        if e.reason.as_deref().is_none_or(str::is_empty) {
            p.push("kind `ambiguous` without a reason".to_owned());
        }
    } else if e.kind.parse::<Kind>().map_or(true, |k| k == Kind::Unknown) {
        p.push(format!(
            "kind `{}` is not a Kind name nor `ambiguous`",
            e.kind
        ));
    }
    match (&e.backend, &e.backend_evidence) {
        (Some(b), Some(_)) if b.parse::<Backend>().is_err() => p.push(format!("backend `{b}`")),
        (Some(_), None) => p.push("backend without backend_evidence".to_owned()),
        (None, Some(_)) => p.push("backend_evidence without a backend".to_owned()),
        _ => {}
    }
    for (field, v) in [
        ("license", &e.license),
        ("evidence", &e.evidence),
        ("excerpt", &e.excerpt),
    ] {
        if v.trim().is_empty() {
            p.push(format!("empty {field}"));
        }
    }
    p
}

#[test]
fn public_kinds() {
    let corpus = public_corpus();
    let rows = judge_all(&corpus);
    println!(
        "public corpus, {} dumps; kind: {}",
        rows.len(),
        show(&tally(&rows, |r| r.kind))
    );
    println!("{}", kind_rule_table(&rows));
    let wrong: Vec<String> = rows
        .iter()
        .filter(|r| r.kind == Verdict3::Wrong)
        .map(describe)
        .collect();
    assert!(
        wrong.is_empty(),
        "wrong kinds on the public corpus:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn public_backends() {
    let corpus = public_corpus();
    let rows = judge_all(&corpus);
    println!(
        "public corpus, {} dumps; backend: {}",
        rows.len(),
        show(&tally(&rows, |r| r.backend))
    );
    println!("{}", backend_rule_table(&rows));
    for r in rows.iter().filter(|r| r.backend == Verdict3::Unknown) {
        println!("  missed: {}", describe(r));
    }
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| r.backend.is_bad())
        .map(|r| {
            let clue = backend_clue_line(&r.analysis).map(|l| format!("; its clue at line {l}"));
            format!(
                "{} [{}]{}",
                describe(r),
                r.backend.as_str(),
                clue.unwrap_or_default()
            )
        })
        .collect();
    assert!(
        bad.is_empty(),
        "wrong or unsupported backends on the public corpus:\n{}",
        bad.join("\n")
    );
}

/// SHA-256 (FIPS 180-4) of `data`, in lowercase hex: the manifest's hashes
/// are checked without a hashing crate.
fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64).wrapping_mul(8)).to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [
                t1.wrapping_add(t2),
                v[0],
                v[1],
                v[2],
                v[3].wrapping_add(t1),
                v[4],
                v[5],
                v[6],
            ];
        }
        for (hi, vi) in h.iter_mut().zip(v) {
            *hi = hi.wrapping_add(vi);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[test]
fn sha256_matches_known_digests() {
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}
