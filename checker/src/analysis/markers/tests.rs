//! The marker table holds a complete row for every marker: what would fall
//! back silently elsewhere (a chapter, a draft rank, a backend hint) fails
//! here instead.

use super::*;
use crate::analysis::claims::Claim;

#[test]
fn every_marker_has_its_row_under_a_unique_kebab_case_name() {
    for (i, row) in ROWS.iter().enumerate() {
        assert_eq!(row.marker as usize, i, "{}", row.name);
        assert_eq!(by_name(row.name), Some(row.marker), "{}", row.name);
        assert_eq!(row.marker.name(), row.name);
        assert!(
            !row.name.is_empty()
                && row
                    .name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{}",
            row.name
        );
        assert_eq!(
            ROWS.iter().filter(|r| r.name == row.name).count(),
            1,
            "{}",
            row.name
        );
    }
    assert_eq!(marker_names().len(), COUNT);
    assert_eq!(all().len(), COUNT);
}

#[test]
fn every_row_says_what_its_line_shows() {
    for row in &ROWS {
        let d = row.description;
        assert!(d.len() > 20 && d.ends_with('.'), "{}: {d}", row.name);
        assert_eq!(marker_description(row.name), Some(d));
    }
}

#[test]
fn draft_ranks_are_distinct_and_dense() {
    let mut ranks: Vec<u8> = ROWS
        .iter()
        .filter_map(|r| match r.draft {
            Draft::Rank(n) => Some(n),
            Draft::Last => None,
        })
        .collect();
    ranks.sort_unstable();
    let dense: Vec<u8> = (0..).take(ranks.len()).collect();
    assert_eq!(ranks, dense);
    // What proves the kind comes first, then what the compiler decided.
    let check = |marker: &str, expect: Draft| assert_eq!(draft_rank(marker), expect, "{marker}");
    check("is-scheduled", Draft::Rank(0));
    check("not-scheduled", Draft::Rank(1));
    check("fusion-kind", Draft::Rank(4));
    check("entry-computation", Draft::Rank(21));
    check("hlo-instruction", Draft::Last);
    check("no-such-marker", Draft::Last);
}

#[test]
fn every_chapter_is_a_page_of_the_book_and_teaches_a_marker() {
    let summary = include_str!("../../../../src/SUMMARY.md");
    for c in Chapter::ALL {
        let source = c.page().replace(".html", ".md");
        assert!(
            summary.contains(&format!("]({source})")),
            "{source} is not in src/SUMMARY.md"
        );
        assert!(
            ROWS.iter().any(|r| r.chapter == c),
            "no marker is taught in {source}"
        );
    }
    for row in &ROWS {
        assert!(Chapter::ALL.contains(&row.chapter), "{}", row.name);
        assert_eq!(marker_chapter(row.name), Some(row.chapter));
    }
}

#[test]
fn every_marker_that_proves_a_backend_has_the_words_of_its_hint() {
    let backend_claims = [Claim::Cpu, Claim::Gpu, Claim::Tpu];
    for row in &ROWS {
        let proves_backend = backend_claims
            .iter()
            .any(|c| c.proven_by_marker(row.marker));
        assert_eq!(
            row.backend_clue.is_some(),
            proves_backend,
            "{}: a marker has backend words exactly when it proves a backend claim",
            row.name
        );
    }
}

#[test]
fn backend_hints_are_read_from_the_rows() {
    let check = |claim: Claim, expect: &str| assert_eq!(claim.look_for(), expect, "{claim:?}");
    check(
        Claim::Cpu,
        "what only XLA:CPU writes: a CPU `backend_config` (`outer_dimension_partitions`, ...) or a call into a CPU library (`__onednn$...`, LAPACK)",
    );
    check(
        Claim::Gpu,
        "what only XLA:GPU writes: a GPU `backend_config`, a `scheduling_name`, a cuBLAS, cuDNN or Triton call, a Mosaic GPU kernel, a fusion named by the GEMM or Triton rewriters, or a `fingerprint_before_lhs` in the header",
    );
    check(
        Claim::Tpu,
        "what only XLA:TPU writes: a TPU `backend_config`, a `tpu_custom_call`, or tiles such as `T(8,128)` in a layout",
    );
}

#[test]
fn every_detector_finds_a_marker() {
    let detectors = [
        Detector::Jaxpr,
        Detector::Mlir,
        Detector::Schedule,
        Detector::Structure,
        Detector::Layout,
        Detector::Fusion,
        Detector::CustomCall,
        Detector::BackendConfig,
        Detector::Pallas,
        Detector::Printer,
        Detector::Source,
    ];
    for d in detectors {
        assert!(
            ROWS.iter().any(|r| r.detector == d),
            "{} finds nothing",
            d.name()
        );
    }
    for row in &ROWS {
        assert_eq!(marker_detector(row.name), Some(row.detector));
    }
}
