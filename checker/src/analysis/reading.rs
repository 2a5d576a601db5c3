//! The line readers of an analysis ([`Reading`]): each line of the
//! repaired text goes to the HLO reader, and the lines the module does not
//! hold to the MLIR and then the jaxpr reader, all reporting into one sink;
//! then what needs every line read (the readers' conclusions, the kind and
//! backend, the owned parts of the analysis).

use super::markers::M;
use super::model::{Analysis, Evidence, Kind, SourceOp};
use super::sink::Sink;
use super::{classify, hlo_evidence, jaxpr, mlir, scan, unwrap};
use std::collections::HashMap;

/// Whether a line starts a module: `HloModule name`, or an MLIR `module`
/// at the start of its line. (Not a jaxpr's `{ lambda`: one jaxpr prints
/// its shared sub-jaxprs as `let name = { lambda ...` and then its own.)
fn starts_module(l: &str) -> bool {
    l.starts_with("HloModule ")
        || l.starts_with("module @")
        || l.starts_with("module {")
        || l.starts_with("module attributes")
}

/// The readers of a text's lines, and what they report into.
pub(crate) struct Reading<'t> {
    pub(crate) a: Analysis,
    pub(crate) sink: Sink<'t>,
    pub(crate) hlo: hlo_evidence::HloReader<'t, 't>,
    pub(crate) mlir: mlir::MlirState<'t>,
    pub(crate) jaxpr: jaxpr::JaxprState,
    /// Lines read (the last one's number), and the lines that start a
    /// module ([`starts_module`]), as pasted.
    pub(crate) lines: usize,
    pub(crate) starts: Vec<usize>,
}

impl<'t> Reading<'t> {
    pub(crate) fn new(hlo: hlo_evidence::HloReader<'t, 't>) -> Self {
        Reading {
            a: Analysis::empty(0),
            sink: Sink::new(),
            hlo,
            mlir: mlir::MlirState::new(),
            jaxpr: jaxpr::JaxprState::new(),
            lines: 0,
            starts: Vec::new(),
        }
    }

    /// Reads the lines of `cursor`, the first one line `first + 1` of
    /// `repaired`. `module_only`: every line not blank is the module's
    /// (the later part of a text cut in two: [`super::halves`]); `false` at the
    /// first that is not, the rest unread.
    pub(crate) fn read(
        &mut self,
        repaired: &'t unwrap::Unwrapped<'_>,
        mut cursor: scan::Lines<'t>,
        first: usize,
        module_only: bool,
    ) -> bool {
        let moved = !repaired.undone.is_empty();
        for i in first.. {
            // An instruction the module read whole on this line ends where
            // its text does: its `\n` is searched from there.
            let Some(l) = cursor.next_from(self.hlo.known_end(i + 1).unwrap_or(0)) else {
                break;
            };
            self.lines = i + 1;
            if scan::is_blank(l) {
                continue;
            }
            let n = if moved {
                self.sink.at = Some((&repaired.map, i + 1));
                repaired.map.get(i + 1).0
            } else {
                i + 1
            };
            if starts_module(l) {
                self.starts.push(n);
            }
            if self.hlo.line(i + 1, n, l, &mut self.a, &mut self.sink) {
                continue;
            }
            if module_only {
                return false;
            }
            if self.mlir.line(n, l, &mut self.a, &mut self.sink) {
                continue;
            }
            self.jaxpr.line(n, l, &mut self.a, &mut self.sink);
        }
        true
    }

    /// What needs every line read: the readers' conclusions, the kind and
    /// backend, the owned parts of the analysis.
    pub(crate) fn finish(self, repaired: &unwrap::Unwrapped<'_>) -> Analysis {
        let Reading {
            mut a,
            mut sink,
            hlo,
            mlir,
            jaxpr: _,
            lines,
            starts,
        } = self;
        let moved = !repaired.undone.is_empty();
        a.lines = if moved { repaired.pasted_lines } else { lines };
        if starts.len() > 1 {
            a.pasted_modules = starts;
        }
        a.unwrapped = repaired.undone.clone();
        sink.at = None;
        hlo.finish(&mut a, &mut sink);
        mlir.finish(&mut a, &mut sink);
        classify::decide(&mut a, &sink);
        if a.kind == Kind::HloOptimized && sink.count(M::CopyInstruction) > 0 {
            copies_of_a_compiled_module(&mut sink);
        }
        // The index is not needed any more: free it before the owned copies
        // of the source ops are made (the end of an analysis is its peak
        // memory).
        sink.op_index = HashMap::default();
        a.source_ops = sink
            .ops
            .iter()
            .map(|&(op, file, line, _)| SourceOp {
                op_name: op.to_owned(),
                source_file: file.map(str::to_owned),
                source_line: line,
            })
            .collect();
        a.op_histogram = sink.hist.iter().map(|&(k, v)| (k.to_owned(), v)).collect();
        let mut ev = sink.evidence;
        ev.sort_by_key(|e| (e.line, e.columns.start));
        a.evidence = ev;
        a.line_markers = sink.line_markers;
        a
    }
}

/// In a module that other clues show compiled, its `copy`s are ones XLA
/// inserted (rule `front-end-copy`: a copy says so only when something else
/// does): each copy line is also `layout-op`, as in the claim table.
fn copies_of_a_compiled_module(sink: &mut Sink<'_>) {
    let promoted: Vec<Evidence> = sink
        .evidence
        .iter()
        .filter(|e| e.marker == M::CopyInstruction.name())
        .map(|e| Evidence {
            marker: M::LayoutOp.name(),
            note: "A `copy` in a module that other lines show compiled: XLA inserted it (layout assignment, copy insertion or memory-space assignment).".to_owned(),
            ..e.clone()
        })
        .collect();
    sink.evidence.extend(promoted);
    sink.line_markers.also(M::CopyInstruction, M::LayoutOp);
}
