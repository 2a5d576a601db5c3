//! A large module's lines read on two threads, where [`parse`] read the
//! module on two ([`cut_point`]): the lines before the cut on this thread,
//! the rest on a second one into a [`Reading`] of its own, which the first
//! then absorbs ([`Sink::absorb`](super::sink::Sink::absorb),
//! [`HloReader::absorb`]): the analysis one pass over the lines gives.
//!
//! The cut is at a computation header, where a pass has closed whatever it
//! was in (see [`crate::program`]'s `cut`), so the second reader starts
//! from the state a pass has there, and what the first holds comes before
//! all it reads. The second reads only the module's lines: at a line the
//! module does not hold (one for the MLIR or jaxpr reader, which carry
//! state from line to line) it stops, and this thread reads the lines from
//! the cut on itself. Tests cut every fixture and drift dump at each of its
//! computation headers and compare the analysis with one pass's.
//!
//! [`parse`]: crate::program::parse
//! [`cut_point`]: crate::program::cut_point

use super::hlo_evidence::HloReader;
use super::model::Analysis;
use super::reading::Reading;
use super::{scan, unwrap};
use crate::program::Module;

/// Reads `repaired`'s lines into `r` on two threads when `module` is large
/// enough to have been read on two; `false`, nothing read, otherwise.
pub(super) fn read<'t>(
    r: &mut Reading<'t>,
    repaired: &'t unwrap::Unwrapped<'_>,
    module: &'t Module<'t>,
) -> bool {
    // A repaired paste's lines are its line map's: read in one pass.
    if !repaired.undone.is_empty() || !repaired.map.is_empty() {
        return false;
    }
    crate::program::cut_point(&repaired.text).is_some_and(|at| read_cut(r, repaired, module, at))
}

/// Reads `repaired`'s lines into `r`, those from byte `at` (the start of a
/// computation header's line) on on a second thread; `false`, nothing
/// read, when no computation of `module` starts there.
pub(crate) fn read_cut<'t>(
    r: &mut Reading<'t>,
    repaired: &'t unwrap::Unwrapped<'_>,
    module: &'t Module<'t>,
    at: usize,
) -> bool {
    let text: &'t str = &repaired.text;
    let (Some(head), Some(comp)) = (text.get(..at), computation_at(module, text, at)) else {
        return false;
    };
    let first = module
        .computations
        .get(comp)
        .map_or(0, |c| c.line.saturating_sub(1));
    let later = || {
        let mut b = Reading::new(HloReader::from_computation(
            module,
            text,
            &repaired.map,
            comp,
        ));
        b.read(repaired, scan::Lines::starting_at(text, at), first, true)
            .then_some(b)
    };
    let later = std::thread::scope(|s| {
        let h = std::thread::Builder::new().spawn_scoped(s, later);
        r.read(repaired, scan::Lines::new(head), 0, false);
        match h {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(_) => later(),
        }
    });
    // The second reader started from the state one pass has at the cut
    // only if this one reached the cut in that state.
    match later.filter(|_| r.hlo.is_at(comp)) {
        Some(b) => absorb(r, b),
        None => {
            r.read(repaired, scan::Lines::starting_at(text, at), first, false);
        }
    }
    true
}

/// The computation whose header line starts at byte `at` of `text`.
fn computation_at(m: &Module<'_>, text: &str, at: usize) -> Option<usize> {
    let start = |c: &crate::program::Computation<'_>| {
        crate::program::offset_in(text, c.name).unwrap_or(usize::MAX)
    };
    let i = m.computations.partition_point(|c| start(c) < at);
    let c = m.computations.get(i)?;
    let line_end = scan::find_byte(text.as_bytes(), at, b'\n').unwrap_or(text.len());
    (start(c) < line_end).then_some(i)
}

/// Takes `later`, the reading of the lines after `r`'s, into `r`.
fn absorb<'t>(r: &mut Reading<'t>, later: Reading<'t>) {
    let Reading {
        a,
        sink,
        hlo,
        // Never given a line: `later` read the module's lines only.
        mlir: _,
        jaxpr: _,
        lines,
        starts,
    } = later;
    let renumbered = r.sink.absorb(sink);
    r.hlo.absorb(hlo, &renumbered.ops);
    absorb_analysis(&mut r.a, a, &renumbered.source_ops);
    r.lines = r.lines.max(lines);
    r.starts.extend(starts);
}

/// Adds to `a` what the module's lines after its own recorded in `later`
/// (`source_ops`: how `later`'s source op ids became `a`'s). Every field
/// is named: one the line readers come to fill must be added here.
fn absorb_analysis(a: &mut Analysis, later: Analysis, source_ops: &[usize]) {
    let Analysis {
        entry_fusions,
        fusions,
        module_name,
        entry_computation,
        custom_calls,
        while_loops,
        conditionals,
        entry_params,
        provenance,
        // Filled after the lines ([`Reading::finish`]), or only by the MLIR
        // and jaxpr readers, which `later` does not run.
        kind: _,
        dialect: _,
        backend: _,
        backend_basis: _,
        backend_reason: _,
        backend_guess: _,
        reason: _,
        kind_rule: _,
        kind_guess: _,
        kind_guess_rule: _,
        kind_likely: _,
        lines: _,
        unwrapped: _,
        evidence: _,
        pasted_modules: _,
        computations: _,
        op_histogram: _,
        functions: _,
        equations: _,
        source_ops: _,
        kernels: _,
        line_markers: _,
    } = later;
    a.entry_fusions += entry_fusions;
    a.fusions.extend(fusions);
    if a.module_name.is_none() {
        a.module_name = module_name;
    }
    // The last `ENTRY` header read names it, as in one pass.
    if entry_computation.is_some() {
        a.entry_computation = entry_computation;
    }
    a.custom_calls.extend(custom_calls);
    a.while_loops.extend(while_loops);
    a.conditionals.extend(conditionals);
    a.entry_params.extend(entry_params);
    a.provenance.absorb(&provenance, source_ops);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::tests::{cuts, module_texts};

    /// The analysis of `text` with its lines cut at byte `at`.
    fn cut_at(text: &str, at: usize) -> Analysis {
        let repaired = unwrap::unwrap(text);
        let module = crate::program::parse(&repaired.text);
        let hlo = HloReader::new(&module, &repaired.text, &repaired.map);
        let mut r = Reading::new(hlo);
        assert!(
            read_cut(&mut r, &repaired, &module, at),
            "no computation at {at}"
        );
        r.finish(&repaired)
    }

    /// Asserts that `text`'s lines cut at each of its computation headers
    /// (at most `most` of them) give one pass's analysis; how many cuts.
    fn check_cuts(name: &str, text: &str, most: usize) -> usize {
        let one = super::super::analyze(text);
        let cuts = cuts(text, most);
        for &at in &cuts {
            assert_eq!(cut_at(text, at), one, "{name} cut at byte {at}");
        }
        cuts.len()
    }

    #[test]
    fn halves_read_as_one_pass() {
        let mut tried = 0;
        let files = module_texts();
        for (p, text) in &files {
            let repaired = unwrap::unwrap(text);
            // A repaired paste is read in one pass (`read`).
            if repaired.undone.is_empty() && repaired.map.is_empty() {
                tried += check_cuts(&p.display().to_string(), text, 12);
            }
        }
        assert!(
            files.len() > 100 && tried > 500,
            "{} files, {tried} cuts",
            files.len()
        );
    }

    #[test]
    fn halves_read_as_one_pass_where_the_later_part_holds_other_lines() {
        let cases = [
            // A line the module does not hold after the cut: the second
            // reader stops, this thread reads from the cut.
            "HloModule m, is_scheduled=true\n\n%f.1 (p: f32[]) -> f32[] {\n  ROOT %c = f32[] call(%p), to_apply=%g.2\n}\n%g.2 (p: f32[]) -> f32[] {\n  ROOT %p = f32[] parameter(0)\n}\nnot hlo\nENTRY %main.3 () -> f32[] {\n  ROOT %k = f32[] constant(1)\n}\n",
            // MLIR after the module: its reader keeps its state over lines.
            "HloModule m\n\n%f.1 (p: f32[]) -> f32[] {\n  ROOT %p = f32[] parameter(0)\n}\nENTRY %main.2 (p: f32[]) -> f32[] {\n  ROOT %p = f32[] parameter(0)\n}\nmodule @jit_f {\n  func.func public @main(%arg0: tensor<f32>) -> tensor<f32> {\n    return %arg0 : tensor<f32>\n  }\n}\n",
            // A computation named like the module's header line before the
            // cut: one pass reads it as the header, and the headers after it
            // as no computation's; the second reader's part is not used.
            "HloModule m\n\nHloModule.1 (p: f32[]) -> f32[] {\n  ROOT %p = f32[] parameter(0)\n}\nENTRY %main.2 (p: f32[]) -> f32[] {\n  ROOT %p = f32[] parameter(0)\n}\n",
            // The same clue on both sides of the cut, over its cap (3 for a
            // common marker), and opcodes and source ops seen on both.
            "HloModule m\n\n%f.1 (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0), metadata={op_name=\"jit(f)/a\" source_file=\"f.py\" source_line=1}\n  ROOT %c = f32[8]{0} copy(%p), metadata={op_name=\"jit(f)/b\" source_file=\"f.py\" source_line=2}\n}\n%g.2 (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0), metadata={op_name=\"jit(f)/b\" source_file=\"f.py\" source_line=2}\n  %q = f32[8]{0} copy(%p), metadata={op_name=\"jit(f)/c\" source_file=\"f.py\" source_line=3}\n  ROOT %r = f32[8]{0} negate(%q)\n}\nENTRY %main.3 (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0)\n  %x = f32[8]{0} fusion(%p), kind=kLoop, calls=%f.1\n  ROOT %y = f32[8]{0} call(%x), to_apply=%g.2\n}\n",
        ];
        for (i, text) in cases.iter().enumerate() {
            assert!(check_cuts(&format!("case {i}"), text, usize::MAX) >= 2);
        }
    }
}
