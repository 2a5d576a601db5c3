//! What differs between two matched rows, and between the two modules
//! outside their rows (the schedule, aliasing, the entry layout).

use super::item::Item;
use super::matching::Pair;
use crate::kernels::KernelKind;
use crate::program::Module;

/// What differs in one matched pair (empty lists and `None`s: nothing).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    /// The kind, when it changed (A's, B's).
    pub kind: Option<(KernelKind, KernelKind)>,
    /// The detail (fusion kind, custom-call target), when it changed.
    pub detail: Option<(Option<String>, Option<String>)>,
    /// Opcodes B runs inside and A does not.
    pub ops_in: Vec<String>,
    /// Opcodes A runs inside and B does not.
    pub ops_out: Vec<String>,
    /// `op_name`s B's row holds and A's does not (work that moved in).
    pub op_names_in: Vec<String>,
    /// `op_name`s A's row holds and B's does not (work that moved out).
    pub op_names_out: Vec<String>,
    /// Attributes and literals B's instructions carry and A's do not
    /// (`reduce dimensions={0}`, `constant 3`).
    pub details_in: Vec<String>,
    /// Attributes and literals A's instructions carry and B's do not.
    pub details_out: Vec<String>,
    /// The result shape, when it changed.
    pub shape: Option<(String, String)>,
    /// The operand shapes, when they changed.
    pub operand_shapes: Option<(Vec<String>, Vec<String>)>,
    /// The result as printed (layout, tiles, memory space), when only it
    /// changed.
    pub layout: Option<(String, String)>,
    /// How deep it runs, when it changed (moved into or out of a loop).
    pub depth: Option<(usize, usize)>,
}

impl Changes {
    /// Whether nothing differs.
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }
}

/// Items of `x` not in `y` (both sorted).
fn minus(x: &[String], y: &[String]) -> Vec<String> {
    x.iter()
        .filter(|v| y.binary_search(v).is_err())
        .cloned()
        .collect()
}

/// What differs between `a` and `b`; `details` gives each one's attribute
/// list ([`super::item::details`]), asked only when their fingerprints
/// differ.
pub fn changes(
    a: &Item<'_>,
    b: &Item<'_>,
    details: impl FnOnce() -> (Vec<String>, Vec<String>),
) -> Changes {
    let (details_in, details_out) = if a.details == b.details {
        (Vec::new(), Vec::new())
    } else {
        let (x, y) = details();
        (minus(&y, &x), minus(&x, &y))
    };
    let differ = |x: &str, y: &str| (x != y).then(|| (x.to_string(), y.to_string()));
    let shape = differ(&a.shape, &b.shape);
    Changes {
        kind: (a.kind != b.kind).then_some((a.kind, b.kind)),
        detail: (a.detail != b.detail).then(|| (a.detail.clone(), b.detail.clone())),
        ops_in: minus(&b.ops, &a.ops),
        ops_out: minus(&a.ops, &b.ops),
        op_names_in: minus(&b.op_names, &a.op_names),
        op_names_out: minus(&a.op_names, &b.op_names),
        details_in,
        details_out,
        layout: if shape.is_none() {
            differ(a.layout, b.layout)
        } else {
            None
        },
        shape,
        operand_shapes: (a.operand_shapes != b.operand_shapes)
            .then(|| (a.operand_shapes.clone(), b.operand_shapes.clone())),
        depth: (a.depth != b.depth).then_some((a.depth, b.depth)),
    }
}

/// What differs between the two modules outside their rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleChanges {
    /// `is_scheduled` (A's, B's), when it differs.
    pub scheduled: Option<(bool, bool)>,
    /// Matched rows that run in another order: how many would have to move
    /// (the pairs less the longest run in the same order).
    pub reordered: usize,
    /// `input_output_alias`, as printed, when it differs.
    pub aliasing: Option<(Option<String>, Option<String>)>,
    /// `entry_computation_layout`, as printed, when it differs.
    pub entry_layout: Option<(Option<String>, Option<String>)>,
}

impl ModuleChanges {
    /// Whether nothing differs.
    pub fn is_empty(&self) -> bool {
        *self == ModuleChanges::default()
    }
}

/// What differs between two modules outside their rows; `pairs` in A's
/// run order.
pub fn module_changes(a: &Module<'_>, b: &Module<'_>, pairs: &[Pair]) -> ModuleChanges {
    let ha = a.header.as_ref();
    let hb = b.header.as_ref();
    let field = |x: Option<&str>, y: Option<&str>| {
        let (x, y) = (x.map(str::to_string), y.map(str::to_string));
        (x != y).then_some((x, y))
    };
    let sa = ha.is_some_and(|h| h.is_scheduled);
    let sb = hb.is_some_and(|h| h.is_scheduled);
    let order: Vec<usize> = pairs.iter().map(|p| p.b).collect();
    ModuleChanges {
        scheduled: (sa != sb).then_some((sa, sb)),
        reordered: order.len() - longest_increasing(&order),
        aliasing: field(
            ha.and_then(|h| h.input_output_alias),
            hb.and_then(|h| h.input_output_alias),
        ),
        entry_layout: field(
            ha.and_then(|h| h.entry_computation_layout),
            hb.and_then(|h| h.entry_computation_layout),
        ),
    }
}

/// The length of the longest strictly increasing subsequence (n log n).
pub fn longest_increasing(xs: &[usize]) -> usize {
    let mut tails: Vec<usize> = Vec::new();
    for &x in xs {
        let at = tails.partition_point(|&t| t < x);
        if at == tails.len() {
            tails.push(x);
        } else {
            tails[at] = x;
        }
    }
    tails.len()
}

#[cfg(test)]
mod tests {
    use super::longest_increasing;

    #[test]
    fn longest_increasing_runs() {
        for (xs, n) in [
            (vec![], 0),
            (vec![0, 1, 2, 3], 4),
            (vec![3, 2, 1, 0], 1),
            (vec![0, 2, 1, 3], 3),
            (vec![1, 0, 3, 2, 4], 3),
        ] {
            assert_eq!(longest_increasing(&xs), n, "{xs:?}");
        }
    }
}
