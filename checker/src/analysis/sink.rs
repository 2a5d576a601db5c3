//! The [`Sink`] the parsers report into while reading: evidence (capped per
//! marker), the markers of every line, the op histogram and the source ops,
//! interned.

use super::markers::{COUNT, Frequency, M};
use super::model::{Evidence, LineMarkers};
use super::pasted::LineMap;
use super::scan;
use std::collections::HashMap;

/// Evidence recorded per marker at most: the first clues of each sort are
/// what a reader needs, and a 100 MB dump must not produce a 100 MB report.
/// Markers that fire on nearly every line keep fewer.
const CAP: usize = 64;
const CAP_COMMON: usize = 3;

/// A source op while reading: op name, file, line, stack frame id.
pub(crate) type OpKey<'a> = (&'a str, Option<&'a str>, Option<u32>, Option<u32>);

/// Collects evidence and counts every clue (also those past the cap).
pub(crate) struct Sink<'a> {
    pub(crate) evidence: Vec<Evidence>,
    /// Distinct op names (HLO opcodes, MLIR op names, jaxpr primitives) and
    /// their counts, in first-seen order; an op's index is its id.
    pub(crate) hist: Vec<(&'a str, usize)>,
    hist_index: HashMap<&'a str, usize, scan::Fx>,
    /// A direct-mapped cache in front of `hist_index` (slot from
    /// [`op_slot`], holding id + 1, 0 when empty): a dump uses a few dozen
    /// opcodes, so nearly every lookup is one short compare, no hashing.
    hist_cache: [usize; 64],
    /// Distinct source ops, interned: (op name, file, line, stack frame id).
    pub(crate) ops: Vec<OpKey<'a>>,
    pub(crate) op_index: HashMap<OpKey<'a>, usize, scan::Fx>,
    /// Recently looked-up source ops, direct-mapped (slot from the op
    /// path's length, last byte and frame id): neighbouring instructions
    /// mostly come from a handful of JAX ops, and one compare is cheaper
    /// than hashing a long op path.
    op_cache: [Option<(OpKey<'a>, usize)>; 16],
    counts: [usize; COUNT],
    first_line: [usize; COUNT],
    /// Every marker seen on each line, capped or not (see [`LineMarkers`]).
    pub(crate) line_markers: LineMarkers,
    /// The repaired line being read (1-based) in the line map of a
    /// repaired paste, whose characters evidence columns count as pasted;
    /// `None` for text read as it came.
    pub(crate) at: Option<(&'a LineMap, usize)>,
    /// The text holds the `ENTRY` computation's header (see
    /// [`super::classify::When::EntryReached`]).
    pub(crate) entry_seen: bool,
}

/// The evidence kept of marker `m` at most.
fn cap(m: M) -> usize {
    match m.frequency() {
        Frequency::Common => CAP_COMMON,
        Frequency::Rare => CAP,
    }
}

/// How the ids of a sink [`Sink::absorb`]ed became the absorbing one's:
/// `ops[i]` is the op id [`Sink::op`] gave `i`, `source_ops[i]` the source
/// op id [`Sink::source_op`] did.
pub(crate) struct Renumbered {
    pub(crate) ops: Vec<usize>,
    pub(crate) source_ops: Vec<usize>,
}

/// The [`Sink::hist_cache`] slot of an op name: its length and three of
/// its bytes, enough to keep the opcodes of one dump apart.
fn op_slot(op: &str) -> usize {
    let b = op.as_bytes();
    let byte = |i: usize| usize::from(b.get(i).copied().unwrap_or(0));
    let h = b.len().wrapping_mul(7)
        ^ byte(0)
        ^ byte(b.len().wrapping_sub(1)).wrapping_mul(3)
        ^ byte(b.len() / 2).wrapping_mul(5);
    h & 63
}

impl<'a> Sink<'a> {
    /// An empty sink.
    pub(crate) fn new() -> Self {
        Sink {
            evidence: Vec::new(),
            hist: Vec::new(),
            hist_index: HashMap::default(),
            hist_cache: [0; 64],
            ops: Vec::new(),
            op_index: HashMap::default(),
            op_cache: [None; 16],
            counts: [0; COUNT],
            first_line: [0; COUNT],
            line_markers: LineMarkers::default(),
            at: None,
            entry_seen: false,
        }
    }

    /// Records a clue of marker `m` on line `n` (text `l`) at byte `at`,
    /// `len` bytes long.
    pub(crate) fn add(
        &mut self,
        m: M,
        n: usize,
        l: &str,
        at: usize,
        len: usize,
        note: impl FnOnce() -> String,
    ) {
        if self.hit(m, n) {
            self.push(m, n, l, at, len, note());
        }
    }

    /// Counts a clue of marker `m` on line `n`; `true` while the marker is
    /// under its cap, when the caller should [`Sink::push`] it. Lets hot
    /// paths skip working out a span once nothing more is recorded.
    pub(crate) fn hit(&mut self, m: M, n: usize) -> bool {
        let i = m as usize;
        let Some(count) = self.counts.get_mut(i) else {
            return false;
        };
        *count += 1;
        let count = *count;
        self.line_markers.set(n, m);
        if count == 1 {
            if let Some(f) = self.first_line.get_mut(i) {
                *f = n;
            }
        }
        count <= cap(m)
    }

    /// Records the evidence of a clue that [`Sink::hit`] counted.
    pub(crate) fn push(&mut self, m: M, n: usize, l: &str, at: usize, len: usize, note: String) {
        // 1-based columns, as pasted: the span's first character and the
        // one after it (so a last character written as an escape is
        // covered whole).
        let pasted = |c: usize| match self.at {
            Some((map, n)) => map.pasted_col(n, c - 1) + 1,
            None => c,
        };
        let start = pasted(scan::char_col(l, at));
        let end = pasted(scan::char_col(l, at.saturating_add(len))).max(start + 1);
        self.evidence.push(Evidence {
            line: n,
            columns: start..end,
            marker: m.name(),
            note,
        });
    }

    /// Counts one use of an op (HLO opcode, MLIR op name, jaxpr primitive)
    /// and returns its id (equal names, equal ids).
    pub(crate) fn op(&mut self, op: &'a str) -> usize {
        let slot = op_slot(op);
        let cached = self.hist_cache.get(slot).copied().unwrap_or(0);
        if let Some(id) = cached.checked_sub(1) {
            if let Some(e) = self.hist.get_mut(id) {
                if e.0 == op {
                    e.1 += 1;
                    return id;
                }
            }
        }
        let next = self.hist.len();
        let id = *self.hist_index.entry(op).or_insert(next);
        if id == next {
            self.hist.push((op, 0));
        }
        if let Some(e) = self.hist.get_mut(id) {
            e.1 += 1;
        }
        if let Some(c) = self.hist_cache.get_mut(slot) {
            *c = id + 1;
        }
        id
    }

    /// The op name of an id from [`Sink::op`].
    pub(crate) fn op_name(&self, id: usize) -> &'a str {
        self.hist.get(id).map_or("", |e| e.0)
    }

    /// The index of a source op, added when new.
    pub(crate) fn source_op(&mut self, key: OpKey<'a>) -> usize {
        let last = key.0.as_bytes().last().copied().unwrap_or(0);
        let slot = (key.0.len().wrapping_mul(31) ^ usize::from(last))
            .wrapping_add(key.3.unwrap_or(0) as usize)
            & 15;
        if let Some(Some((k, i))) = self.op_cache.get(slot) {
            if *k == key {
                return *i;
            }
        }
        let next = self.ops.len();
        let i = *self.op_index.entry(key).or_insert(next);
        if i == next {
            self.ops.push(key);
        }
        if let Some(c) = self.op_cache.get_mut(slot) {
            *c = Some((key, i));
        }
        i
    }

    /// How many clues of marker `m` were seen.
    pub(crate) fn count(&self, m: M) -> usize {
        self.counts.get(m as usize).copied().unwrap_or(0)
    }

    /// The first line where marker `m` was seen (0 when never).
    pub(crate) fn first(&self, m: M) -> usize {
        self.first_line.get(m as usize).copied().unwrap_or(0)
    }

    /// Takes in `later`, a sink that read the lines after this one's
    /// (every line it read comes after every line this one did), as if
    /// this sink had read them itself: counts add, each marker keeps
    /// evidence up to its cap in line order, ops and source ops keep their
    /// first-seen order. Returns how `later`'s ids were renumbered.
    pub(crate) fn absorb(&mut self, later: Sink<'a>) -> Renumbered {
        let Sink {
            evidence,
            hist,
            ops: sources,
            counts,
            first_line,
            line_markers,
            entry_seen,
            // Indexes and caches of `later`'s ids, and the line being read.
            hist_index: _,
            hist_cache: _,
            op_index: _,
            op_cache: _,
            at: _,
        } = later;
        let mut kept = [0usize; COUNT];
        for (k, m) in kept.iter_mut().zip(super::markers::all()) {
            *k = self.count(*m).min(cap(*m));
        }
        for e in evidence {
            let Some(m) = super::markers::by_name(e.marker) else {
                continue;
            };
            if let Some(k) = kept.get_mut(m as usize).filter(|k| **k < cap(m)) {
                *k += 1;
                self.evidence.push(e);
            }
        }
        for ((c, f), (lc, lf)) in self
            .counts
            .iter_mut()
            .zip(self.first_line.iter_mut())
            .zip(counts.into_iter().zip(first_line))
        {
            if *c == 0 {
                *f = lf;
            }
            *c += lc;
        }
        self.line_markers.absorb(line_markers);
        self.entry_seen |= entry_seen;
        let ops: Vec<usize> = hist
            .into_iter()
            .map(|(op, n)| {
                let next = self.hist.len();
                let id = *self.hist_index.entry(op).or_insert(next);
                if id == next {
                    self.hist.push((op, 0));
                }
                if let Some(e) = self.hist.get_mut(id) {
                    e.1 += n;
                }
                id
            })
            .collect();
        let source_ops = sources
            .into_iter()
            .map(|key| {
                let next = self.ops.len();
                let i = *self.op_index.entry(key).or_insert(next);
                if i == next {
                    self.ops.push(key);
                }
                i
            })
            .collect();
        Renumbered { ops, source_ops }
    }
}
