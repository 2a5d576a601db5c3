//! Table tests of the evidence sentences, with the shapes of the course's
//! real questions (excerpt, proving lines, blank lines).

use super::*;

/// A dump of `len` lines, blank at `blanks`, every other line non-blank.
fn dump(len: usize, blanks: &[usize]) -> String {
    (1..=len)
        .map(|n| {
            if blanks.contains(&n) {
                String::new()
            } else {
                format!("  %line.{n} = f32[8]{{0}} negate(%x)")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The hints, one per line as `first-last: text`.
fn shown(hints: &[Hint]) -> String {
    hints
        .iter()
        .map(|h| format!("{}-{}: {}", h.first, h.last, h.text))
        .collect::<Vec<_>>()
        .join("\n")
}

/// ((excerpt, proving lines, blank lines, claim), expected hints)
#[allow(clippy::type_complexity)]
fn check(cases: &[((usize, usize), &[usize], &[usize], Claim, &str)]) {
    for &(excerpt, proving, blanks, claim, expect) in cases {
        let text = dump(excerpt.1 + 5, blanks);
        let got = shown(&hints(&text, excerpt, proving, claim));
        assert_eq!(got, expect, "for excerpt {excerpt:?}, proving {proving:?}");
        for h in hints(&text, excerpt, proving, claim) {
            assert!(h.first >= excerpt.0 && h.last <= excerpt.1, "inside: {h:?}");
            assert!(
                (h.first, h.last) != excerpt || !h.text.contains("Look again"),
                "a hint over the whole excerpt names no range: {h:?}"
            );
        }
    }
}

#[test]
fn hints_point_inside_the_excerpt_and_never_at_all_of_it() {
    let compiled = format!("16-20: Look for {}.", Claim::Compiled.look_for());
    check(&[
        // pallas-elementwise-compiled-evidence: 17-19 prove, of 16-20; the
        // span padded to four lines is still most of it.
        ((16, 20), &[17, 18, 19], &[], Claim::Compiled, &compiled),
        // hlo-fusion-lines-gpu: four fusions in 75-79, of 70-80.
        (
            (70, 80),
            &[75, 76, 78, 79],
            &[],
            Claim::Fusion,
            "75-79: Look again at lines 75\u{2013}79: a line there launches a fused kernel.",
        ),
        // ba-loop-compiler-lines: two copies, 66 and 67, of 62-71: padded
        // to four lines so the outline is not the answer.
        (
            (62, 71),
            &[66, 67],
            &[],
            Claim::Compiled,
            "65-68: Look again at lines 65\u{2013}68: a line there shows that XLA compiled this module.",
        ),
        // xla-pipeline-evidence: 59-62 all prove, of 56-63: padded with a
        // line that proves nothing.
        (
            (56, 63),
            &[59, 60, 61, 62],
            &[],
            Claim::Compiled,
            "59-63: Look again at lines 59\u{2013}63: a line there shows that XLA compiled this module.",
        ),
        // A proving line at the excerpt's end pads backwards.
        (
            (1, 12),
            &[12],
            &[],
            Claim::Gpu,
            "9-12: Look again at lines 9\u{2013}12: a line there shows that the module was compiled for a GPU.",
        ),
        // A whole dump in paragraphs: one hint per paragraph, as before.
        (
            (1, 30),
            &[3, 5, 25],
            &[10, 20],
            Claim::Tpu,
            "1-9: Look again at lines 1\u{2013}9: a line there shows that the module was compiled for a TPU.\n\
             21-30: Look again at lines 21\u{2013}30: a line there shows that the module was compiled for a TPU.",
        ),
        // Every line of a short excerpt proves: no room for an idle line.
        (
            (4, 6),
            &[4, 5, 6],
            &[],
            Claim::Fusion,
            &format!("4-6: Look for {}.", Claim::Fusion.look_for()),
        ),
    ]);
}

#[test]
fn every_claim_reads_well_in_every_sentence() {
    let mut got = String::new();
    for claim in Claim::ALL {
        got.push_str(&format!("{}:\n", claim.name()));
        let needs: &[usize] = match claim.select() {
            Select::Every => &[4],
            Select::Some => &[1, 2],
        };
        for &need in needs {
            got.push_str(&format!("  {}\n", instruction(claim, need)));
        }
        got.push_str(&format!("  {}\n", look_again(3, 9, claim).text));
        got.push_str(&format!("  {}\n", proof_note("m", claim)));
    }
    let expect = "\
jaxpr:
  Select a line that shows, by itself, that the text is a jaxpr.
  Select at least two lines, each showing by itself that the text is a jaxpr.
  Look again at lines 3\u{2013}9: a line there shows that the text is a jaxpr.
  `m`: this line shows on its own that the text is a jaxpr.
stablehlo:
  Select a line that shows, by itself, that the text is lowered StableHLO.
  Select at least two lines, each showing by itself that the text is lowered StableHLO.
  Look again at lines 3\u{2013}9: a line there shows that the text is lowered StableHLO.
  `m`: this line shows on its own that the text is lowered StableHLO.
hlo:
  Select a line that shows, by itself, that the text is HLO.
  Select at least two lines, each showing by itself that the text is HLO.
  Look again at lines 3\u{2013}9: a line there shows that the text is HLO.
  `m`: this line shows on its own that the text is HLO.
compiled:
  Select a line that shows, by itself, that XLA compiled this module.
  Select at least two lines, each showing by itself that XLA compiled this module.
  Look again at lines 3\u{2013}9: a line there shows that XLA compiled this module.
  `m`: this line shows on its own that XLA compiled this module.
not-compiled:
  Select a line that shows, by itself, that nobody has compiled this module yet.
  Select at least two lines, each showing by itself that nobody has compiled this module yet.
  Look again at lines 3\u{2013}9: a line there shows that nobody has compiled this module yet.
  `m`: this line shows on its own that nobody has compiled this module yet.
lowered-hlo:
  Select a line that shows, by itself, that the text is in the short style of `lower(...).as_text(dialect=\"hlo\")`.
  Select at least two lines, each showing by itself that the text is in the short style of `lower(...).as_text(dialect=\"hlo\")`.
  Look again at lines 3\u{2013}9: a line there shows that the text is in the short style of `lower(...).as_text(dialect=\"hlo\")`.
  `m`: this line shows on its own that the text is in the short style of `lower(...).as_text(dialect=\"hlo\")`.
cpu:
  Select a line that shows, by itself, that the module was compiled for a CPU.
  Select at least two lines, each showing by itself that the module was compiled for a CPU.
  Look again at lines 3\u{2013}9: a line there shows that the module was compiled for a CPU.
  `m`: this line shows on its own that the module was compiled for a CPU.
gpu:
  Select a line that shows, by itself, that the module was compiled for a GPU.
  Select at least two lines, each showing by itself that the module was compiled for a GPU.
  Look again at lines 3\u{2013}9: a line there shows that the module was compiled for a GPU.
  `m`: this line shows on its own that the module was compiled for a GPU.
tpu:
  Select a line that shows, by itself, that the module was compiled for a TPU.
  Select at least two lines, each showing by itself that the module was compiled for a TPU.
  Look again at lines 3\u{2013}9: a line there shows that the module was compiled for a TPU.
  `m`: this line shows on its own that the module was compiled for a TPU.
fusion:
  Select every line that launches a fused kernel.
  Look again at lines 3\u{2013}9: a line there launches a fused kernel.
  `m`: this line launches a fused kernel.
";
    assert_eq!(got, expect);
    for claim in Claim::ALL {
        let s = instruction(claim, 2);
        assert!(!s.contains("line where"), "{s}");
        assert_eq!(s.matches(" line").count(), 1, "one subject: {s}");
    }
}
