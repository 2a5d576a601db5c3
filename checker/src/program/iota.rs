//! XLA's iota device lists: `[2,2]<=[4]`, `[2,2]<=[2,2]T(1,0)`,
//! `[2,1,2]<=[4]`, as a sharding's `devices=` and a collective's
//! `replica_groups=` print them (XLA's `IotaTileAssignment`).
//!
//! `[dims]<=[reshape]T(perm)` means: the devices `0..n` in order, viewed
//! as an array of shape `reshape`, transposed by `perm` (none: not
//! transposed), then read row-major into an array of shape `dims`. So
//! `[2,2]<=[2,2]T(1,0)` is `0,2,1,3` and `[2,2]<=[4]` is `0,1,2,3`.

use crate::analysis::scan;

/// The most devices an iota list is expanded to (a hostile `[1000000000]`
/// is read, not expanded).
pub const MAX_DEVICES: u64 = 1 << 16;

/// The most axes a device array is expanded with (size-1 axes cost work
/// but no devices).
pub const MAX_RANK: usize = 64;

/// An iota device list as printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iota {
    /// The shape of the result (`[2,2]`).
    pub dims: Vec<u64>,
    /// The shape the device numbers are first viewed as (`<=[2,2]`).
    pub reshape: Vec<u64>,
    /// The transpose of that view (`T(1,0)`); empty when none is printed.
    pub transpose: Vec<usize>,
}

impl Iota {
    /// Reads an iota list at the start of `s` (leading spaces skipped);
    /// the list and the text after it. `None` when `s` does not start
    /// with one.
    pub fn parse_prefix(s: &str) -> Option<(Iota, &str)> {
        let s = s.trim_start();
        let (dims, rest) = bracketed(s)?;
        let rest = rest.trim_start().strip_prefix("<=")?;
        let (reshape, rest) = bracketed(rest.trim_start())?;
        let (transpose, rest) = match rest.strip_prefix("T(") {
            Some(t) => {
                let end = t.find(')')?;
                let perm = numbers(t.get(..end)?)?
                    .into_iter()
                    .map(|p| usize::try_from(p).ok())
                    .collect::<Option<Vec<_>>>()?;
                (perm, t.get(end + 1..)?)
            }
            None => (Vec::new(), rest),
        };
        Some((
            Iota {
                dims,
                reshape,
                transpose,
            },
            rest,
        ))
    }

    /// How many devices it lists (the product of `dims`), `None` on
    /// overflow.
    pub fn len(&self) -> Option<u64> {
        product(&self.dims)
    }

    /// Whether it lists no device.
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// The device numbers in row-major order of `dims`; `None` when the
    /// list is inconsistent (the shapes' sizes differ, the transpose is
    /// not a permutation of the reshape's axes) or longer than
    /// [`MAX_DEVICES`].
    pub fn devices(&self) -> Option<Vec<u64>> {
        let n = self.len()?;
        if product(&self.reshape)? != n {
            return None;
        }
        transpose_flat(&mut (0..n), &self.reshape, &self.transpose)
    }
}

/// The values `data` yields (`product(shape)` of them, row-major in
/// `shape`) read row-major after transposing by `perm` (empty: none);
/// `None` when `perm` is not a permutation of `shape`'s axes, `data` ends
/// early, or there are more than [`MAX_DEVICES`] values or [`MAX_RANK`]
/// axes.
pub(crate) fn transpose_flat(
    data: &mut dyn Iterator<Item = u64>,
    shape: &[u64],
    perm: &[usize],
) -> Option<Vec<u64>> {
    let n = product(shape)?;
    if n > MAX_DEVICES || shape.len() > MAX_RANK {
        return None;
    }
    let values: Vec<u64> = data.take(usize::try_from(n).ok()?).collect();
    if u64::try_from(values.len()).ok()? != n {
        return None;
    }
    let rank = shape.len();
    let perm: Vec<usize> = if perm.is_empty() {
        (0..rank).collect()
    } else {
        perm.to_vec()
    };
    let mut seen = vec![false; rank];
    for &p in &perm {
        let slot = seen.get_mut(p)?;
        if *slot {
            return None;
        }
        *slot = true;
    }
    if perm.len() != rank {
        return None;
    }
    // Row-major strides of `shape`.
    let mut strides = vec![1u64; rank];
    for k in (0..rank.saturating_sub(1)).rev() {
        strides[k] = strides[k + 1].checked_mul(shape[k + 1])?;
    }
    // Walk the transposed array row-major: its axis k is `shape`'s axis
    // perm[k].
    let dims: Vec<u64> = perm.iter().map(|&p| shape[p]).collect();
    let step: Vec<u64> = perm.iter().map(|&p| strides[p]).collect();
    let mut index = vec![0u64; rank];
    let mut out = Vec::with_capacity(values.len());
    for _ in 0..n {
        let at: u64 = index.iter().zip(&step).map(|(i, s)| i * s).sum();
        out.push(*values.get(usize::try_from(at).ok()?)?);
        for k in (0..rank).rev() {
            index[k] += 1;
            if index[k] < dims[k] {
                break;
            }
            index[k] = 0;
        }
    }
    Some(out)
}

/// The product of some sizes, `None` on overflow.
pub(crate) fn product(dims: &[u64]) -> Option<u64> {
    dims.iter().try_fold(1u64, |acc, &d| acc.checked_mul(d))
}

/// `[1,2,3]` at the start of `s`: the numbers and the text after `]`.
pub(crate) fn bracketed(s: &str) -> Option<(Vec<u64>, &str)> {
    let inner = s.strip_prefix('[')?;
    let end = inner.find(']')?;
    Some((numbers(inner.get(..end)?)?, inner.get(end + 1..)?))
}

/// Comma-separated numbers (spaces allowed); `None` if any part is not
/// one. An empty text is an empty list.
pub(crate) fn numbers(s: &str) -> Option<Vec<u64>> {
    let s = s.trim();
    if s.is_empty() {
        return Some(Vec::new());
    }
    s.split(',').map(|p| number(p.trim())).collect()
}

/// One decimal number, digits only.
fn number(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    (!b.is_empty() && scan::take_while(b, 0, |c| c.is_ascii_digit()) == b.len())
        .then(|| s.parse().ok())
        .flatten()
}
