//! Shape sizes as XLA's cost analysis sees them: the bytes of a shape under
//! the CPU client's shape-size function (`CpuExecutable::ShapeSizeBytes`,
//! which `hlo_module_cost_analysis` runs with for every backend's text), and
//! element counts (`ShapeUtil::ElementsIn`).
//!
//! - an array: its elements times the bytes of one element (`pred` is one
//!   byte; a sub-byte type rounds up to one byte per element, as
//!   `ByteSizeOfPrimitiveType` does); a bounded dynamic dimension counts its
//!   bound, plus 4 bytes of size metadata per dimension;
//! - a tuple: its index table only, one 8-byte pointer per element (XLA's
//!   `ByteSizeOf(shape, sizeof(void*))`): a tuple's arrays are counted where
//!   they are made;
//! - a token: nothing.
//!
//! Tile padding and memory spaces are not part of it: XLA's figure ignores
//! them, and DumpLab's estimate counts them apart.

use crate::program::{Array, Dim, Shape, Summary, element_bits, summary};

/// Bytes of one tuple element's pointer in a tuple's index table.
pub const POINTER_BYTES: u64 = 8;

/// Bytes of one dimension's size metadata of a dynamic array.
const DYNAMIC_METADATA_BYTES: u64 = 4;

/// What the cost analysis needs of a shape: its size in bytes and, for an
/// array, its element count; `None` where a part cannot be read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Bytes under XLA's CPU shape-size function.
    pub bytes: Option<u64>,
    /// Elements of an array (`None` for a tuple or an unread shape).
    pub elements: Option<u64>,
}

/// The size of a shape.
pub fn of(shape: &Shape<'_>) -> Size {
    match shape {
        Shape::Array(a) => Size {
            bytes: array_bytes(a),
            elements: elements(a),
        },
        Shape::Tuple(parts, _) => Size {
            bytes: (parts.len() as u64).checked_mul(POINTER_BYTES),
            elements: None,
        },
        Shape::Unread(_) => Size::default(),
    }
}

/// The size of a shape as printed, read without building the shape (the
/// same as [`of`] on the parsed shape: a test checks every instruction of
/// the corpus).
pub fn of_text(text: &str) -> Size {
    match summary(text) {
        Some(Summary::Tuple(parts)) => Size {
            bytes: (parts as u64).checked_mul(POINTER_BYTES),
            elements: None,
        },
        Some(Summary::Array {
            element,
            elements,
            rank,
            dynamic,
        }) => Size {
            bytes: bytes_of(element, elements, rank, dynamic),
            elements,
        },
        None => Size::default(),
    }
}

/// An array's element count (a bounded dimension counts its bound).
pub fn elements(a: &Array<'_>) -> Option<u64> {
    a.dims.iter().try_fold(1u64, |n, d| match d {
        Dim::Static(k) | Dim::Bounded(k) => n.checked_mul(*k),
        Dim::Unknown => None,
    })
}

/// An array's bytes under the CPU shape-size function.
fn array_bytes(a: &Array<'_>) -> Option<u64> {
    let dynamic = a.dims.iter().any(|d| !matches!(d, Dim::Static(_)));
    bytes_of(a.element, elements(a), a.dims.len(), dynamic)
}

/// The bytes of an array of `elements` of `element` (a token is none; a
/// dynamic array adds its size metadata).
fn bytes_of(element: &str, elements: Option<u64>, rank: usize, dynamic: bool) -> Option<u64> {
    if element == "token" {
        return Some(0);
    }
    let data = elements?.checked_mul(element_bits(element)?.div_ceil(8))?;
    if dynamic {
        data.checked_add(DYNAMIC_METADATA_BYTES * rank as u64)
    } else {
        Some(data)
    }
}

/// Elements of every array of a shape, tuples followed to their leaves
/// (`ShapeUtil::ElementsInRecursive`).
pub fn elements_recursive(shape: &Shape<'_>) -> Option<u64> {
    shape
        .arrays()
        .into_iter()
        .try_fold(0u64, |n, a| n.checked_add(elements(a)?))
}

/// Bytes of a shape's arrays (a tuple's leaves, nested tuples followed).
pub fn leaf_bytes(s: &Shape<'_>) -> Option<u64> {
    s.arrays().into_iter().try_fold(0u64, |n, a| {
        n.checked_add(of(&Shape::Array(a.clone())).bytes?)
    })
}

/// `{1,0}` as numbers.
pub fn int_list(v: &str) -> Option<Vec<u64>> {
    let inner = v.trim().strip_prefix('{')?.strip_suffix('}')?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().ok())
        .collect()
}

/// Dimension `d` of an array.
pub fn dim(a: &Array<'_>, d: u64) -> Option<u64> {
    match a.dims.get(usize::try_from(d).ok()?)? {
        Dim::Static(n) | Dim::Bounded(n) => Some(*n),
        Dim::Unknown => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(shape: &str, expect: (Option<u64>, Option<u64>)) {
        let s = of(&Shape::parse(shape));
        assert_eq!((s.bytes, s.elements), expect, "{shape}");
    }

    #[test]
    fn sizes_follow_xla_cpu_shape_size() {
        // Shapes as real compiled dumps print them.
        check("f32[8,128]{1,0}", (Some(4096), Some(1024)));
        check(
            "bf16[1024,1024]{1,0:T(8,128)(2,1)}",
            (Some(2 << 20), Some(1 << 20)),
        );
        check("pred[8]{0}", (Some(8), Some(8)));
        check("s4[16]{0}", (Some(16), Some(16)));
        check("f32[]", (Some(4), Some(1)));
        check("(f32[8]{0}, s32[]) ", (Some(16), None));
        check("(f32[8]{0}, f32[8]{0}, u32[])", (Some(24), None));
        check("token[]", (Some(0), Some(1)));
        check("f32[<=8,4]{1,0}", (Some(8 * 4 * 4 + 8), Some(32)));
        check("f32[?]{0}", (None, None));
    }

    #[test]
    fn text_sizes_equal_parsed_sizes_on_odd_shapes() {
        for t in [
            "(f32[8]{0}, /*index=1*/s32[])",
            "((f32[2]{0}, u8[4]{0}), f32[])",
            "()",
            "( )",
            "f32[8",
            "",
            "f32[8]{0} trailing",
            "token[]",
            "pred[<=3,?]",
            "bf16[4,0]{1,0:T(8,128)(2,1)S(1)}",
            "f32[18446744073709551615,2]",
            "(f32[8]{0},)",
        ] {
            assert_eq!(of_text(t), of(&Shape::parse(t)), "`{t}`");
        }
    }

    #[test]
    fn recursive_elements_cross_tuples() {
        let s = Shape::parse("(u64[2]{0}, u32[8,4]{1,0})");
        assert_eq!(elements_recursive(&s), Some(34));
    }
}
