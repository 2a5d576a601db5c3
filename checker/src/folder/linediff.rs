//! A bounded line diff of two texts: the page's before/after view of two
//! files of a dump folder (a pass file and the file before it).
//!
//! Lines are compared whole (a final `\r` dropped, as [`str::lines`] does).
//! Each line is interned to a number first, so comparing two lines is one
//! integer comparison. The common prefix and suffix of the two texts are
//! cut off, then Myers' O(ND) algorithm in its linear-space form finds a
//! shortest edit script: the middle of the script is found by searching
//! from both ends at once, and the halves on either side of it are diffed
//! the same way, each after cutting off its own common prefix and suffix
//! (an explicit stack, so no recursion depth). Memory is linear in the two
//! texts.
//!
//! The search counts its steps against a work budget ([`Limits::work`]).
//! Once the budget is spent, what is left of each part still being diffed
//! is reported as removed lines followed by added lines: a correct diff,
//! but no longer a shortest one there, and [`Diff::truncated`] says so.
//! Without a budget a diff of two texts of N lines D edits apart costs
//! O((N + D) D) steps; with it, the cost is bounded by the budget plus
//! a linear pass.
//!
//! [`write_json`] writes the `line-diff` request's reply (see
//! [`crate::inspect`]): `{"hunks": [{"a_start", "a_lines", "b_start",
//! "b_lines", "lines": [{"op": "=" | "-" | "+", "a": N | null, "b": N |
//! null, "text"}]}], "added", "removed", "a_lines", "b_lines", "truncated",
//! "cut"}`. Line numbers are 1-based; a hunk's `a_start` is the number of
//! its first line in A (for a hunk with no line of A, the line after which
//! it goes, as in a unified diff). `cut` says the hunks stop early because
//! they hold [`Limits::max_lines`] lines already; `added` and `removed`
//! still count the whole diff.

use crate::sourcemap::json::push_str;
use std::collections::HashMap;
use std::fmt::Write;

/// How much a diff may cost and show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Search steps (a diagonal visited or a line matched while searching)
    /// before the rest is reported as removed and added lines.
    pub work: usize,
    /// Unchanged lines shown around each change.
    pub context: usize,
    /// Lines of all hunks together, at most.
    pub max_lines: usize,
}

impl Default for Limits {
    /// 20 million steps (a fraction of a second), 3 lines of context (as
    /// `diff -u`), 20,000 lines shown.
    fn default() -> Self {
        Self {
            work: 20_000_000,
            context: 3,
            max_lines: 20_000,
        }
    }
}

/// What a line of a hunk is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// In both texts.
    Same,
    /// In A only.
    Removed,
    /// In B only.
    Added,
}

impl Op {
    /// The one-character name the JSON gives it (`=`, `-`, `+`).
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Same => "=",
            Op::Removed => "-",
            Op::Added => "+",
        }
    }
}

/// One line of a hunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'t> {
    /// Same, removed or added.
    pub op: Op,
    /// Its number in A (1-based), for a line of A.
    pub a: Option<usize>,
    /// Its number in B (1-based), for a line of B.
    pub b: Option<usize>,
    /// The line's text, without its line ending.
    pub text: &'t str,
}

/// A run of changes with the unchanged lines around them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk<'t> {
    /// The number of the hunk's first line in A (see the module docs).
    pub a_start: usize,
    /// Lines of A in the hunk.
    pub a_lines: usize,
    /// The number of the hunk's first line in B.
    pub b_start: usize,
    /// Lines of B in the hunk.
    pub b_lines: usize,
    /// The hunk's lines in order.
    pub lines: Vec<Line<'t>>,
}

/// The diff of two texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff<'t> {
    /// The hunks in order (none when the texts' lines are equal).
    pub hunks: Vec<Hunk<'t>>,
    /// Lines in B only.
    pub added: usize,
    /// Lines in A only.
    pub removed: usize,
    /// Lines of A.
    pub a_lines: usize,
    /// Lines of B.
    pub b_lines: usize,
    /// The work budget ran out: some parts are shown as removed and added
    /// whole, where a shorter script may exist.
    pub truncated: bool,
    /// The hunks stop at [`Limits::max_lines`] lines.
    pub cut: bool,
}

/// One run of the edit script: `len` lines from `a` in A and/or `b` in B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    op: Op,
    a: usize,
    b: usize,
    len: usize,
}

/// The lines of `a` and `b` as numbers, equal lines equal numbers.
fn intern<'t>(a: &[&'t str], b: &[&'t str]) -> (Vec<u32>, Vec<u32>) {
    let mut ids: HashMap<&'t str, u32> = HashMap::with_capacity(a.len() + b.len());
    let mut id = |l: &'t str| {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        *ids.entry(l).or_insert(next)
    };
    let ia = a.iter().map(|l| id(l)).collect();
    let ib = b.iter().map(|l| id(l)).collect();
    (ia, ib)
}

/// The diff of `a` and `b` within `limits`.
pub fn diff<'t>(a: &'t str, b: &'t str, limits: Limits) -> Diff<'t> {
    let la: Vec<&str> = a.lines().collect();
    let lb: Vec<&str> = b.lines().collect();
    let (ia, ib) = intern(&la, &lb);
    let mut budget = limits.work;
    let (runs, truncated) = script(&ia, &ib, &mut budget);
    let added = runs
        .iter()
        .filter(|r| r.op == Op::Added)
        .map(|r| r.len)
        .sum();
    let removed = runs
        .iter()
        .filter(|r| r.op == Op::Removed)
        .map(|r| r.len)
        .sum();
    let (hunks, cut) = hunks(&runs, &la, &lb, limits);
    Diff {
        hunks,
        added,
        removed,
        a_lines: la.len(),
        b_lines: lb.len(),
        truncated,
        cut,
    }
}

/// What is left to do, on the explicit stack.
enum Task {
    /// Diff `a[a0..a1]` against `b[b0..b1]`.
    Part(usize, usize, usize, usize),
    /// Lines equal on both sides: `len` from `a` and `b`.
    Same(usize, usize, usize),
}

/// Appends a run, merged with the last one when it continues it.
fn push(runs: &mut Vec<Run>, run: Run) {
    if run.len == 0 {
        return;
    }
    if let Some(last) = runs.last_mut() {
        let follows = match run.op {
            Op::Same => last.a + last.len == run.a && last.b + last.len == run.b,
            Op::Removed => last.a + last.len == run.a,
            Op::Added => last.b + last.len == run.b,
        };
        if last.op == run.op && follows {
            last.len += run.len;
            return;
        }
    }
    runs.push(run);
}

/// The edit script of `a` into `b` as runs in order, and whether the
/// budget ran out.
fn script(a: &[u32], b: &[u32], budget: &mut usize) -> (Vec<Run>, bool) {
    let mut runs = Vec::new();
    let mut truncated = false;
    let mut stack = vec![Task::Part(0, a.len(), 0, b.len())];
    while let Some(task) = stack.pop() {
        let (a0, a1, b0, b1) = match task {
            Task::Same(x, y, len) => {
                push(
                    &mut runs,
                    Run {
                        op: Op::Same,
                        a: x,
                        b: y,
                        len,
                    },
                );
                continue;
            }
            Task::Part(a0, a1, b0, b1) => (a0, a1, b0, b1),
        };
        let (xa, xb) = (&a[a0..a1], &b[b0..b1]);
        let pre = xa.iter().zip(xb).take_while(|(x, y)| x == y).count();
        let (ra, rb) = (&xa[pre..], &xb[pre..]);
        let suf = ra
            .iter()
            .rev()
            .zip(rb.iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        push(
            &mut runs,
            Run {
                op: Op::Same,
                a: a0,
                b: b0,
                len: pre,
            },
        );
        let (m0, m1, n0, n1) = (a0 + pre, a1 - suf, b0 + pre, b1 - suf);
        stack.push(Task::Same(m1, n1, suf));
        let mid = if m0 == m1 || n0 == n1 {
            None
        } else {
            // A split that does not split would loop: never, but refused.
            middle(&a[m0..m1], &b[n0..n1], budget)
                .filter(|&(x, y)| x + y > 0 && x + y < (m1 - m0) + (n1 - n0))
        };
        match mid {
            Some((x, y)) => {
                stack.push(Task::Part(m0 + x, m1, n0 + y, n1));
                stack.push(Task::Part(m0, m0 + x, n0, n0 + y));
            }
            None => {
                truncated |= m0 < m1 && n0 < n1;
                push(
                    &mut runs,
                    Run {
                        op: Op::Removed,
                        a: m0,
                        b: n0,
                        len: m1 - m0,
                    },
                );
                push(
                    &mut runs,
                    Run {
                        op: Op::Added,
                        a: m1,
                        b: n0,
                        len: n1 - n0,
                    },
                );
            }
        }
    }
    (runs, truncated)
}

/// Where a shortest edit script of `a` into `b` (both non-empty, first and
/// last lines differing) crosses its middle: a point `(x, y)` with
/// `0 < x + y < a.len() + b.len()` that splits it into two, or `None` once
/// the budget is spent. Myers' search from both ends: `fw[k]` is the
/// furthest `x` reached on diagonal `k = x - y` from the start, `bw[k]`
/// the furthest reached on diagonal `k` of the reversed texts.
fn middle(a: &[u32], b: &[u32], budget: &mut usize) -> Option<(usize, usize)> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max_d = (n + m + 1) / 2;
    let off = max_d + 1;
    let width = usize::try_from(2 * off + 1).ok()?;
    let mut fw = vec![-1isize; width];
    let mut bw = vec![-1isize; width];
    let at = |k: isize| usize::try_from(off + k).ok();
    let delta = n - m;
    let odd = delta % 2 != 0;
    *fw.get_mut(at(1)?)? = 0;
    *bw.get_mut(at(1)?)? = 0;
    // Diagonals known to run off the grid, trimmed from each end.
    let (mut f_lo, mut f_hi, mut b_lo, mut b_hi) = (0, 0, 0, 0);
    for d in 0..=max_d {
        for k in ((-d + f_lo)..=(d - f_hi)).step_by(2) {
            *budget = budget.checked_sub(1)?;
            let (left, right) = (*fw.get(at(k - 1)?)?, *fw.get(at(k + 1)?)?);
            let mut x = if k == -d || (k != d && left < right) {
                right
            } else {
                left + 1
            };
            let mut y = x - k;
            while x < n && y < m && a.get(x as usize) == b.get(y as usize) {
                *budget = budget.checked_sub(1)?;
                x += 1;
                y += 1;
            }
            *fw.get_mut(at(k)?)? = x;
            if x > n {
                f_hi += 2;
            } else if y > m {
                f_lo += 2;
            } else if odd {
                let c = delta - k;
                if let Some(&rx) = at(c).and_then(|i| bw.get(i)) {
                    if rx != -1 && x >= n - rx {
                        return Some((x as usize, y as usize));
                    }
                }
            }
        }
        for k in ((-d + b_lo)..=(d - b_hi)).step_by(2) {
            *budget = budget.checked_sub(1)?;
            let (left, right) = (*bw.get(at(k - 1)?)?, *bw.get(at(k + 1)?)?);
            let mut x = if k == -d || (k != d && left < right) {
                right
            } else {
                left + 1
            };
            let mut y = x - k;
            while x < n && y < m && a.get((n - x - 1) as usize) == b.get((m - y - 1) as usize) {
                *budget = budget.checked_sub(1)?;
                x += 1;
                y += 1;
            }
            *bw.get_mut(at(k)?)? = x;
            if x > n {
                b_hi += 2;
            } else if y > m {
                b_lo += 2;
            } else if !odd {
                let c = delta - k;
                if let Some(&fx) = at(c).and_then(|i| fw.get(i)) {
                    if fx != -1 && fx >= n - x {
                        return Some((fx as usize, (fx - c) as usize));
                    }
                }
            }
        }
    }
    None
}

/// Builds the hunks, counting the lines shown.
struct Hunks<'t, 'l> {
    la: &'l [&'t str],
    lb: &'l [&'t str],
    out: Vec<Hunk<'t>>,
    cur: Option<Hunk<'t>>,
    left: usize,
    cut: bool,
}

impl<'t> Hunks<'t, '_> {
    /// Adds line `a` of A / `b` of B as `op` to the open hunk (opening one
    /// there); false once [`Limits::max_lines`] lines are shown.
    fn add(&mut self, op: Op, a: usize, b: usize) -> bool {
        if self.left == 0 {
            self.cut = true;
            return false;
        }
        self.left -= 1;
        let h = self.cur.get_or_insert_with(|| Hunk {
            a_start: a + 1,
            a_lines: 0,
            b_start: b + 1,
            b_lines: 0,
            lines: Vec::new(),
        });
        let (text, na, nb) = match op {
            Op::Same => (self.la.get(a), Some(a + 1), Some(b + 1)),
            Op::Removed => (self.la.get(a), Some(a + 1), None),
            Op::Added => (self.lb.get(b), None, Some(b + 1)),
        };
        h.a_lines += usize::from(na.is_some());
        h.b_lines += usize::from(nb.is_some());
        let text = text.copied().unwrap_or("");
        h.lines.push(Line {
            op,
            a: na,
            b: nb,
            text,
        });
        true
    }

    /// Closes the open hunk, if any.
    fn close(&mut self) {
        self.out.extend(self.cur.take());
    }
}

/// The script's changes as hunks with `limits.context` lines around each,
/// at most `limits.max_lines` lines in all (and whether that cut them).
fn hunks<'t>(
    runs: &[Run],
    la: &[&'t str],
    lb: &[&'t str],
    limits: Limits,
) -> (Vec<Hunk<'t>>, bool) {
    let ctx = limits.context;
    let mut hs = Hunks {
        la,
        lb,
        out: Vec::new(),
        cur: None,
        left: limits.max_lines,
        cut: false,
    };
    'runs: for (i, r) in runs.iter().enumerate() {
        if r.op == Op::Same {
            if hs.cur.is_none() {
                continue;
            }
            // All of it when the next change is near enough to join this
            // hunk, else its first lines and the hunk ends.
            let last = i + 1 == runs.len();
            let keep = if last || r.len > 2 * ctx {
                ctx.min(r.len)
            } else {
                r.len
            };
            for j in 0..keep {
                if !hs.add(Op::Same, r.a + j, r.b + j) {
                    break 'runs;
                }
            }
            if keep < r.len || last {
                hs.close();
            }
            continue;
        }
        if hs.cur.is_none() {
            // The lines before it: the end of the run of equal lines before
            // (the first run, or one longer than twice the context).
            let lead = match i.checked_sub(1).and_then(|p| runs.get(p)) {
                Some(p) if p.op == Op::Same => ctx.min(p.len),
                _ => 0,
            };
            for j in (1..=lead).rev() {
                if !hs.add(Op::Same, r.a - j, r.b - j) {
                    break 'runs;
                }
            }
        }
        for j in 0..r.len {
            let (x, y) = match r.op {
                Op::Removed => (r.a + j, r.b),
                _ => (r.a, r.b + j),
            };
            if !hs.add(r.op, x, y) {
                break 'runs;
            }
        }
    }
    hs.close();
    let mut out = hs.out;
    for h in &mut out {
        // A side with no line in the hunk: the line after which it goes.
        if h.a_lines == 0 {
            h.a_start -= 1;
        }
        if h.b_lines == 0 {
            h.b_start -= 1;
        }
    }
    (out, hs.cut)
}

/// The `line-diff` reply (see the module docs).
pub fn write_json(d: &Diff<'_>) -> String {
    let mut s =
        String::with_capacity(64 + d.hunks.iter().map(|h| h.lines.len() * 48).sum::<usize>());
    s.push_str("{\"hunks\":[");
    let num = |s: &mut String, n: Option<usize>| match n {
        Some(n) => {
            let _ = write!(s, "{n}");
        }
        None => s.push_str("null"),
    };
    for (i, h) in d.hunks.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"a_start\":{},\"a_lines\":{},\"b_start\":{},\"b_lines\":{},\"lines\":[",
            h.a_start, h.a_lines, h.b_start, h.b_lines
        );
        for (j, l) in h.lines.iter().enumerate() {
            if j > 0 {
                s.push(',');
            }
            s.push_str("{\"op\":\"");
            s.push_str(l.op.symbol());
            s.push_str("\",\"a\":");
            num(&mut s, l.a);
            s.push_str(",\"b\":");
            num(&mut s, l.b);
            s.push_str(",\"text\":");
            push_str(&mut s, l.text);
            s.push('}');
        }
        s.push_str("]}");
    }
    let _ = write!(
        s,
        "],\"added\":{},\"removed\":{},\"a_lines\":{},\"b_lines\":{},\"truncated\":{},\"cut\":{}}}",
        d.added, d.removed, d.a_lines, d.b_lines, d.truncated, d.cut
    );
    s
}
