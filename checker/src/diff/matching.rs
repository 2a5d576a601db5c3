//! Which rows of one side are which rows of the other, by what they compute,
//! never by their names: a pass per kind of evidence, the strongest first,
//! each pairing only what the passes before it left.
//!
//! 1. **identical**: everything but the name equal (kind, detail, opcodes,
//!    shapes, layout, provenance, depth); a consistently renamed module
//!    matches itself entirely here.
//! 2. **provenance**: the same `op_name`s and source lines, of the same
//!    kind.
//! 3. **groups**: several rows of one side whose provenance together is one
//!    row's of the other (each a part of it, together all of it, and no
//!    other row of the whole's side could claim a part): where fusion
//!    boundaries moved. By source lines first (the parts must also hold
//!    every `op_name` of the whole), then by `op_name`s; then pass 2 again
//!    for rows of any kind (a fusion that became a library call).
//! 4. **similar**: the most similar provenance (Jaccard over `op_name`s and
//!    lines, at least one half; any share for rows of one kind and result
//!    shape), best pairs first.
//! 5. **shape**: no provenance to go on, the same kind and shapes, in run
//!    order; then **opcodes**: rows with no provenance at all, of one kind
//!    and the same opcodes, whatever their shapes (a kernel reblocked).
//!
//! Ties go to run order, so the result is deterministic. Every pass works
//! through hash maps or an index from each provenance atom to the rows that
//! carry it; passes 3 and 4 stop at a work budget linear in the rows
//! ([`Matching::truncated`]), so matching is never quadratic.

use super::item::Item;
use crate::kernels::KernelKind;
use std::collections::HashMap;

/// How a pair was matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Basis {
    /// Everything but the name equal.
    Identical,
    /// The same `op_name`s and source lines.
    Provenance,
    /// Part of a group (merged or split), by `op_name`s.
    OpNames,
    /// Part of a group, by source lines.
    SourceLines,
    /// The most similar provenance.
    Similar,
    /// No provenance; the same kind and shapes.
    Shape,
    /// No provenance on either row; the same kind and opcodes, other shapes.
    Opcodes,
}

impl Basis {
    /// The name in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Identical => "identical",
            Basis::Provenance => "provenance",
            Basis::OpNames => "op_name",
            Basis::SourceLines => "source_line",
            Basis::Similar => "similar",
            Basis::Shape => "shape",
            Basis::Opcodes => "opcodes",
        }
    }
}

/// One row of A paired with one of B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// Index into A's items.
    pub a: usize,
    /// Index into B's items.
    pub b: usize,
    /// How.
    pub basis: Basis,
}

/// One row of one side whose work several rows of the other side hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The one row (in A for a split, in B for a merge).
    pub whole: usize,
    /// The rows of the other side, in run order.
    pub parts: Vec<usize>,
    /// `OpNames` or `SourceLines`.
    pub basis: Basis,
}

/// What the matcher found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matching {
    /// Pairs, in A's run order.
    pub pairs: Vec<Pair>,
    /// One row of A, several of B.
    pub split: Vec<Group>,
    /// Several rows of A, one of B (`whole` indexes B).
    pub merged: Vec<Group>,
    /// Rows of A with no partner.
    pub removed: Vec<usize>,
    /// Rows of B with no partner.
    pub added: Vec<usize>,
    /// Whether passes 3 and 4 stopped at their work budget.
    pub truncated: bool,
    /// The units of work passes 3 and 4 spent (candidate rows looked at),
    /// at most the budget: linear in the rows.
    pub work: usize,
}

/// Work allowed per row for passes 3 and 4.
const WORK_PER_ROW: usize = 64;

/// Which rows are taken, per side, and the work left.
struct State {
    a: Vec<bool>,
    b: Vec<bool>,
    work: usize,
    truncated: bool,
}

impl State {
    /// Spends one unit of work; `false` once the budget is gone.
    fn spend(&mut self) -> bool {
        if self.work == 0 {
            self.truncated = true;
            return false;
        }
        self.work -= 1;
        true
    }
}

/// Matches the rows of two modules.
pub fn match_items(a: &[Item<'_>], b: &[Item<'_>]) -> Matching {
    let budget = WORK_PER_ROW
        .saturating_mul(a.len() + b.len())
        .saturating_add(4096);
    let mut st = State {
        a: vec![false; a.len()],
        b: vec![false; b.len()],
        work: budget,
        truncated: false,
    };
    let mut pairs = Vec::new();
    by_key(a, b, &mut st, &mut pairs, Basis::Identical, identical_key);
    by_key(a, b, &mut st, &mut pairs, Basis::Provenance, |i| {
        i.has_provenance()
            .then_some((i.kind, i.op_names.as_slice(), i.lines.as_slice()))
    });
    let mut split = Vec::new();
    let mut merged = Vec::new();
    for basis in [Basis::SourceLines, Basis::OpNames] {
        let (s, m) = regroup(a, b, &mut st, basis);
        split.extend(s);
        merged.extend(m);
    }
    by_key(a, b, &mut st, &mut pairs, Basis::Provenance, |i| {
        i.has_provenance()
            .then_some((i.op_names.as_slice(), i.lines.as_slice()))
    });
    similar(a, b, &mut st, &mut pairs);
    by_key(a, b, &mut st, &mut pairs, Basis::Shape, |i| {
        Some((i.kind, i.shape.as_str(), i.operand_shapes.as_slice()))
    });
    by_key(a, b, &mut st, &mut pairs, Basis::Opcodes, |i| {
        (!i.has_provenance()).then_some((i.kind, i.ops.as_slice()))
    });
    pairs.sort_unstable_by_key(|p| (p.a, p.b));
    split.sort_unstable_by_key(|g| g.whole);
    merged.sort_unstable_by_key(|g| g.parts.first().copied());
    Matching {
        pairs,
        split,
        merged,
        removed: (0..a.len()).filter(|&i| !st.a[i]).collect(),
        added: (0..b.len()).filter(|&i| !st.b[i]).collect(),
        truncated: st.truncated,
        work: budget - st.work,
    }
}

/// Everything but the name and line, borrowed (a key of the map, never
/// built as a string).
type Whole<'i> = (
    KernelKind,
    Option<&'i str>,
    &'i [String],
    u64,
    &'i str,
    &'i str,
    &'i [String],
    &'i [String],
    &'i [String],
    usize,
);

/// Everything but the name and line.
fn identical_key<'i>(i: &'i Item<'_>) -> Option<Whole<'i>> {
    Some((
        i.kind,
        i.detail.as_deref(),
        &i.ops,
        i.details,
        &i.shape,
        i.layout,
        &i.operand_shapes,
        &i.op_names,
        &i.lines,
        i.depth,
    ))
}

/// Pairs the free rows of equal keys, in run order on both sides.
fn by_key<'i, 'a: 'i, K: std::hash::Hash + Eq>(
    a: &'i [Item<'a>],
    b: &'i [Item<'a>],
    st: &mut State,
    pairs: &mut Vec<Pair>,
    basis: Basis,
    key: impl Fn(&'i Item<'a>) -> Option<K>,
) {
    let mut free: HashMap<K, std::collections::VecDeque<usize>> = HashMap::new();
    for (j, item) in b.iter().enumerate() {
        if st.b[j] {
            continue;
        }
        if let Some(k) = key(item) {
            free.entry(k).or_default().push_back(j);
        }
    }
    for (i, item) in a.iter().enumerate() {
        if st.a[i] {
            continue;
        }
        let Some(k) = key(item) else { continue };
        if let Some(j) = free.get_mut(&k).and_then(|q| q.pop_front()) {
            st.a[i] = true;
            st.b[j] = true;
            pairs.push(Pair { a: i, b: j, basis });
        }
    }
}

/// Rows an atom may be carried by and still tell rows apart: one carried by
/// more (a source line every layer of a model runs) is left out of the
/// index, so that looking rows up through it is never quadratic.
const COMMON: usize = 64;

/// The index from each atom to the free rows that carry it; an atom on more
/// than [`COMMON`] rows maps to no rows.
fn index(
    items: &[Item<'_>],
    taken: &[bool],
    atoms: &dyn Fn(&Item<'_>) -> Vec<String>,
) -> HashMap<String, Vec<usize>> {
    let mut ix: HashMap<String, Vec<usize>> = HashMap::new();
    for (j, item) in items.iter().enumerate() {
        if taken[j] {
            continue;
        }
        for atom in atoms(item) {
            ix.entry(atom).or_default().push(j);
        }
    }
    for rows in ix.values_mut() {
        if rows.len() > COMMON {
            *rows = Vec::new();
        }
    }
    ix
}

/// Whether sorted `part` is a subset of sorted `whole`.
fn subset(part: &[String], whole: &[String]) -> bool {
    let mut w = whole.iter();
    part.iter().all(|p| w.any(|x| x == p))
}

/// The atoms a group is made of: `op_name`s, or source lines.
fn group_atoms(basis: Basis) -> fn(&Item<'_>) -> Vec<String> {
    match basis {
        Basis::SourceLines => |i| i.lines.clone(),
        _ => |i| i.op_names.clone(),
    }
}

/// The splits and merges of one basis, found from the same free rows, so
/// that swapping A and B swaps them: where a split and a merge claim a row
/// alike, the one holding more rows is kept, and neither when they hold as
/// many.
fn regroup(
    a: &[Item<'_>],
    b: &[Item<'_>],
    st: &mut State,
    basis: Basis,
) -> (Vec<Group>, Vec<Group>) {
    let free = (st.a.clone(), st.b.clone());
    let splits = groups(a, b, st, false, basis);
    st.a.clone_from(&free.0);
    st.b.clone_from(&free.1);
    let merges = groups(b, a, st, true, basis);
    st.a = free.0;
    st.b = free.1;
    let (splits, merges) = (
        keep(&splits, true, &merges, (a.len(), b.len())),
        keep(&merges, false, &splits, (a.len(), b.len())),
    );
    for g in &splits {
        st.a[g.whole] = true;
        g.parts.iter().for_each(|&j| st.b[j] = true);
    }
    for g in &merges {
        st.b[g.whole] = true;
        g.parts.iter().for_each(|&i| st.a[i] = true);
    }
    (splits, merges)
}

/// The rows of A and of B a group holds (`split`: its whole is in A).
fn rows_of(g: &Group, split: bool) -> (&[usize], &[usize]) {
    let whole = std::slice::from_ref(&g.whole);
    if split {
        (whole, &g.parts)
    } else {
        (&g.parts, whole)
    }
}

/// The groups of `mine` (splits when `split`) that no group of `theirs`
/// (found from the same free rows, the other way) holding as many rows or
/// more claims a row of. Each row is in at most one group of each way, so
/// every row is looked up once.
fn keep(mine: &[Group], split: bool, theirs: &[Group], sides: (usize, usize)) -> Vec<Group> {
    let mut owner_a = vec![usize::MAX; sides.0];
    let mut owner_b = vec![usize::MAX; sides.1];
    for (n, h) in theirs.iter().enumerate() {
        let (ra, rb) = rows_of(h, !split);
        ra.iter().for_each(|&i| owner_a[i] = n);
        rb.iter().for_each(|&j| owner_b[j] = n);
    }
    let size = |g: &Group| g.parts.len() + 1;
    mine.iter()
        .filter(|g| {
            let (ra, rb) = rows_of(g, split);
            let owners = ra
                .iter()
                .map(|&i| owner_a[i])
                .chain(rb.iter().map(|&j| owner_b[j]));
            !owners
                .filter_map(|n| theirs.get(n))
                .any(|h| size(h) >= size(g))
        })
        .cloned()
        .collect()
}

/// Groups: each free row of `wholes` whose atoms the free rows of `parts`
/// hold together (two or more of them); by source lines, the parts must
/// also hold all of the whole's `op_name`s. `flipped`: `wholes` is B.
fn groups(
    wholes: &[Item<'_>],
    parts: &[Item<'_>],
    st: &mut State,
    flipped: bool,
    basis: Basis,
) -> Vec<Group> {
    let atoms = &group_atoms(basis);
    let (wt, pt) = if flipped {
        (&st.b, &st.a)
    } else {
        (&st.a, &st.b)
    };
    let part_ix = index(parts, pt, atoms);
    let whole_ix = index(wholes, wt, atoms);
    let mut out = Vec::new();
    for w in 0..wholes.len() {
        let taken_w = if flipped { st.b[w] } else { st.a[w] };
        let whole = atoms(&wholes[w]);
        if taken_w || whole.is_empty() {
            continue;
        }
        let Some(members) = members(&whole, parts, &part_ix, st, flipped, atoms) else {
            continue;
        };
        if members.len() < 2
            || (basis == Basis::SourceLines && !holds_op_names(&wholes[w], &members, parts))
            || !unclaimed(w, &members, parts, wholes, &whole_ix, st, atoms)
        {
            continue;
        }
        let (wt, pt) = if flipped {
            (&mut st.b, &mut st.a)
        } else {
            (&mut st.a, &mut st.b)
        };
        wt[w] = true;
        for &p in &members {
            pt[p] = true;
        }
        out.push(Group {
            whole: w,
            parts: members,
            basis,
        });
    }
    out
}

/// The free rows of `parts` whose atoms are a part of `whole`, when
/// together they are all of it.
fn members(
    whole: &[String],
    parts: &[Item<'_>],
    part_ix: &HashMap<String, Vec<usize>>,
    st: &mut State,
    flipped: bool,
    atoms: &dyn Fn(&Item<'_>) -> Vec<String>,
) -> Option<Vec<usize>> {
    let mut found: Vec<usize> = Vec::new();
    for atom in whole {
        for &p in part_ix.get(atom).map(Vec::as_slice).unwrap_or(&[]) {
            if !st.spend() {
                return None;
            }
            let taken = if flipped { st.a[p] } else { st.b[p] };
            if !taken && subset(&atoms(&parts[p]), whole) {
                found.push(p);
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    let mut union: Vec<String> = found.iter().flat_map(|&p| atoms(&parts[p])).collect();
    union.sort_unstable();
    union.dedup();
    (union.as_slice() == whole).then_some(found)
}

/// Whether the members together hold every `op_name` of the whole.
fn holds_op_names(whole: &Item<'_>, members: &[usize], parts: &[Item<'_>]) -> bool {
    whole.op_names.iter().all(|n| {
        members
            .iter()
            .any(|&p| parts[p].op_names.binary_search(n).is_ok())
    })
}

/// Whether no other free row of the whole's side could claim one of the
/// members (a member's atoms a part of its atoms too).
fn unclaimed(
    w: usize,
    members: &[usize],
    parts: &[Item<'_>],
    wholes: &[Item<'_>],
    whole_ix: &HashMap<String, Vec<usize>>,
    st: &mut State,
    atoms: &dyn Fn(&Item<'_>) -> Vec<String>,
) -> bool {
    for &p in members {
        let pa = atoms(&parts[p]);
        let Some(first) = pa.first() else { continue };
        let others = whole_ix.get(first).map(Vec::as_slice).unwrap_or(&[]);
        if others.is_empty() {
            // An atom too common to index: many rows could claim it.
            return false;
        }
        for &o in others {
            if !st.spend() {
                return false;
            }
            if o != w && subset(&pa, &atoms(&wholes[o])) {
                return false;
            }
        }
    }
    true
}

/// The provenance atoms Jaccard compares: `op_name`s and lines.
fn all_atoms(i: &Item<'_>) -> Vec<String> {
    let mut v: Vec<String> = i.op_names.iter().chain(&i.lines).cloned().collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// |A ∩ B| / |A ∪ B| of two sorted, deduplicated lists.
fn jaccard(x: &[String], y: &[String]) -> f64 {
    let (mut i, mut j, mut both) = (0, 0, 0usize);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                both += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = x.len() + y.len() - both;
    if union == 0 {
        0.0
    } else {
        both as f64 / union as f64
    }
}

/// Pass 4: the most similar free pairs, best first: at least half their
/// provenance shared, or some of it with the same kind and result shape.
fn similar(a: &[Item<'_>], b: &[Item<'_>], st: &mut State, pairs: &mut Vec<Pair>) {
    let atoms_b: Vec<Vec<String>> = b.iter().map(all_atoms).collect();
    let ix = index(b, &st.b, &|i| all_atoms(i));
    let mut cands: Vec<(u64, usize, usize)> = Vec::new();
    'rows: for (i, item) in a.iter().enumerate() {
        if st.a[i] {
            continue;
        }
        let mine = all_atoms(item);
        let mut seen: Vec<usize> = Vec::new();
        for atom in &mine {
            for &j in ix.get(atom).map(Vec::as_slice).unwrap_or(&[]) {
                if !st.spend() {
                    break 'rows;
                }
                seen.push(j);
            }
        }
        seen.sort_unstable();
        seen.dedup();
        for j in seen {
            let s = jaccard(&mine, &atoms_b[j]);
            let same_shape = item.shape == b[j].shape;
            let alike = item.kind == b[j].kind && same_shape;
            if s >= 0.5 || (alike && s > 0.0) {
                // Shared provenance first, the result shape to break near
                // ties (the gradient of one bias against another's); as
                // integers, so that sorting is total.
                let score = s + if same_shape { 0.25 } else { 0.0 };
                cands.push(((score * 1e9) as u64, i, j));
            }
        }
    }
    cands.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    for (_, i, j) in cands {
        if !st.a[i] && !st.b[j] {
            st.a[i] = true;
            st.b[j] = true;
            pairs.push(Pair {
                a: i,
                b: j,
                basis: Basis::Similar,
            });
        }
    }
}
