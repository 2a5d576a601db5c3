//! The chip presets (`dumplab::cost::chips`): every figure has its source,
//! the figures the issue states are the table's, names resolve and
//! misspellings get a suggestion.

#![allow(clippy::unwrap_used)]

use dumplab::cost::chips::{CHIPS, Platform, chip, default_for, names, suggest};

#[test]
fn every_figure_has_a_source() {
    let mut seen = 0;
    for c in CHIPS {
        for (label, figure) in c.figures() {
            let Some(f) = figure else { continue };
            seen += 1;
            let at = format!("{} {label}", c.name);
            assert!(f.value.is_finite() && f.value > 0.0, "{at}: {}", f.value);
            assert!(!f.doc.title.is_empty(), "{at}: no document title");
            assert!(f.doc.url.starts_with("https://"), "{at}: {}", f.doc.url);
            assert!(!f.doc.read.is_empty(), "{at}: where it was read");
            assert!(!f.quote.is_empty(), "{at}: no quoted line");
        }
        assert!(!c.vector_note.is_empty(), "{}", c.name);
        assert!(
            !c.overhead.what.is_empty() && !c.overhead.note.is_empty(),
            "{}",
            c.name
        );
    }
    // v5e: 5; v6e: 6 (fp8 from JAX's TpuInfo); h100 and h200: 11 each;
    // a100: 10 (no fp8); each counts its interconnect.
    assert_eq!(seen, 43, "a figure appeared or went");
}

/// A quoted line carries the number the figure is read from: the value
/// itself (in the unit the line prints), or twice it where the vendor
/// prints the sparse figure and the table keeps the dense half.
#[test]
fn every_quote_shows_its_number() {
    for c in CHIPS {
        for (label, figure) in c.figures() {
            let Some(f) = figure else { continue };
            let digits: String = f.quote.chars().filter(|ch| *ch != ',').collect();
            let scales = [1e12, 1e9, 1e-6];
            let shown = scales.iter().any(|s| {
                let v = f.value / s;
                let sparse = 2.0 * v;
                [v, sparse].iter().any(|x| {
                    let t = format!("{x}");
                    digits.contains(&t) || digits.contains(&format!("{x:.1}"))
                })
            });
            // Or in the scientific form a source file prints (`9.20e14`).
            let scientific = digits.contains(&format!("{:.2e}", f.value));
            assert!(
                shown || scientific,
                "{} {label}: {} not in {:?}",
                c.name,
                f.value,
                f.quote
            );
            if f.quote.contains('*') || f.derived.contains("sparsity") {
                assert!(
                    !f.derived.is_empty(),
                    "{} {label}: sparse quote, no derivation",
                    c.name
                );
            }
        }
    }
}

#[test]
fn the_issue_figures_are_the_tables() {
    let v5e = chip("v5e").unwrap();
    assert_eq!(v5e.bf16.value, 197e12);
    assert_eq!(v5e.hbm_bandwidth.value, 819e9);
    let h100 = chip("h100").unwrap();
    assert_eq!(h100.hbm_bandwidth.value, 3.35e12);
    assert_eq!(h100.tf32.as_ref().unwrap().value, 494.7e12);
    // "989 TFLOP/s bf16 dense": the whitepaper's 989.4.
    assert_eq!(h100.bf16.value, 989.4e12);
    assert!((h100.bf16.value / 1e12 - 989.0).abs() < 0.5);
}

#[test]
fn tpus_publish_no_vector_rate_and_gpus_do() {
    for c in CHIPS {
        match c.platform {
            Platform::Tpu => {
                assert!(c.f32_vector.is_none(), "{}", c.name);
                assert!(c.vector_note.contains("no vector-unit"), "{}", c.name);
                assert!(
                    c.overhead.figure.is_none(),
                    "{}: unknown, not guessed",
                    c.name
                );
            }
            Platform::Gpu => {
                assert!(c.f32_vector.is_some() && c.tf32.is_some(), "{}", c.name);
                assert_eq!(
                    c.overhead.figure.as_ref().unwrap().value,
                    1e-6,
                    "{}",
                    c.name
                );
            }
        }
    }
}

#[test]
fn names_resolve_and_misspellings_get_a_suggestion() {
    assert_eq!(
        names().collect::<Vec<_>>(),
        ["v5e", "v6e", "h100", "h200", "a100"]
    );
    for n in names() {
        assert_eq!(chip(n).unwrap().name, n);
        assert_eq!(chip(&n.to_uppercase()).unwrap().name, n);
    }
    assert!(chip("h300").is_none());
    assert_eq!(suggest("h10"), Some("h100"));
    assert_eq!(suggest("a10"), Some("a100"));
    assert_eq!(suggest("v5"), Some("v5e"));
    assert_eq!(suggest("v6"), Some("v6e"));
    assert_eq!(suggest("h2000"), Some("h200"));
    assert_eq!(suggest("tpu-v5-lite-pod"), None);
    assert_eq!(default_for(Platform::Tpu).unwrap().name, "v5e");
    assert_eq!(default_for(Platform::Gpu).unwrap().name, "h100");
    for p in [Platform::Gpu, Platform::Tpu] {
        let defaults = CHIPS
            .iter()
            .filter(|c| c.platform == p && c.default_for_platform)
            .count();
        assert_eq!(defaults, 1, "{}", p.name());
    }
}
