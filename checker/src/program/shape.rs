//! HLO shapes: arrays with element type, dimensions and layout (minor to
//! major, tiles `T(8,128)(2,1)`, memory space `S(1)`), and tuples of them,
//! read with an explicit stack (no recursion on input nesting).

use crate::analysis::scan::{skip_balanced, skip_ws, take_while};

/// Tuples nest at most this deep; a deeper shape is kept as printed
/// ([`Shape::Unread`]).
const MAX_DEPTH: usize = 64;

/// Tuples nest at most this deep in what the source map normalizes and
/// counts bytes of (deeper ones keep their text, their bytes unknown).
const MAX_TUPLE_DEPTH: usize = 8;

/// One dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    /// A static size.
    Static(u64),
    /// A dynamic size with its bound (`<=8`).
    Bounded(u64),
    /// An unbounded dynamic size (`?`), or one that could not be read.
    Unknown,
}

/// An array's layout: `{1,0:T(8,128)(2,1)S(1)}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout<'a> {
    /// Dimensions from minor to major.
    pub minor_to_major: Vec<u32>,
    /// Tiles, outermost first; `None` is a `*` (combined) dimension.
    pub tiles: Vec<Vec<Option<u64>>>,
    /// The memory space `S(n)`, when printed.
    pub memory_space: Option<u32>,
    /// The layout as printed, braces included.
    pub text: &'a str,
}

/// An array shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array<'a> {
    /// The element type (`f32`, `bf16`, `pred`, `token`).
    pub element: &'a str,
    /// The dimensions, as printed between the brackets.
    pub dims_text: &'a str,
    /// The dimensions.
    pub dims: Vec<Dim>,
    /// The layout, when printed.
    pub layout: Option<Layout<'a>>,
}

/// An HLO shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape<'a> {
    /// An array (or `token[]`).
    Array(Array<'a>),
    /// A tuple, with its text as printed.
    Tuple(Vec<Shape<'a>>, &'a str),
    /// Text that is not a shape this reader understands (cut, too deep).
    Unread(&'a str),
}

impl Default for Shape<'_> {
    fn default() -> Self {
        Shape::Unread("")
    }
}

/// Bits of one element of an HLO element type; `None` when unknown.
pub fn element_bits(t: &str) -> Option<u64> {
    Some(match t {
        "pred" | "s8" | "u8" => 8,
        "s2" | "u2" => 2,
        "s4" | "u4" | "f4e2m1fn" => 4,
        "s16" | "u16" | "f16" | "bf16" => 16,
        "s32" | "u32" | "f32" => 32,
        "s64" | "u64" | "f64" | "c64" => 64,
        "c128" => 128,
        "token" => 0,
        t if t.starts_with("f8") => 8,
        _ => return None,
    })
}

impl<'a> Shape<'a> {
    /// Reads a whole shape text; what is not a shape is [`Shape::Unread`].
    pub fn parse(s: &'a str) -> Shape<'a> {
        let t = s.trim();
        match read(t, 0) {
            Some((shape, end)) if end == t.len() => shape,
            _ => Shape::Unread(t),
        }
    }

    /// Its arrays, depth first, in print order.
    pub fn arrays(&self) -> Vec<&Array<'a>> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(s) = stack.pop() {
            match s {
                Shape::Array(a) => out.push(a),
                Shape::Tuple(parts, _) => stack.extend(parts.iter().rev()),
                Shape::Unread(_) => {}
            }
        }
        out
    }

    /// Bytes it holds (arrays and tuples of arrays; a dynamic dimension
    /// counts its bound); `None` when a part cannot be counted.
    pub fn bytes(&self) -> Option<u64> {
        self.bytes_at(0)
    }

    fn bytes_at(&self, depth: usize) -> Option<u64> {
        match self {
            Shape::Array(a) => a.bytes(),
            Shape::Tuple(parts, _) => {
                if depth >= MAX_TUPLE_DEPTH {
                    return None;
                }
                let mut total = 0u64;
                for p in parts {
                    total = total.checked_add(p.bytes_at(depth + 1)?)?;
                }
                Some(total)
            }
            Shape::Unread(_) => None,
        }
    }

    /// The shape without layouts: `f32[8,128]`, `(f32[8], s32[])`.
    pub fn without_layout(&self) -> String {
        let mut out = String::new();
        self.write_without_layout(&mut out, 0);
        out
    }

    fn write_without_layout(&self, out: &mut String, depth: usize) {
        match self {
            Shape::Array(a) => {
                out.push_str(a.element);
                out.push('[');
                out.push_str(a.dims_text);
                out.push(']');
            }
            Shape::Tuple(_, text) if depth > MAX_TUPLE_DEPTH => out.push_str(text),
            Shape::Tuple(parts, _) => {
                out.push('(');
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    p.write_without_layout(out, depth + 1);
                }
                out.push(')');
            }
            Shape::Unread(t) => out.push_str(match t.find(']') {
                Some(p) => t.get(..=p).unwrap_or(t),
                None => t,
            }),
        }
    }

    /// The first part of a tuple (a `copy-start`'s destination); the shape
    /// itself otherwise.
    pub fn first_part(&self) -> &Shape<'a> {
        match self {
            Shape::Tuple(parts, _) => parts.first().unwrap_or(self),
            _ => self,
        }
    }
}

impl Array<'_> {
    /// Bytes the array holds; `None` for an unknown element type or
    /// dimension.
    pub fn bytes(&self) -> Option<u64> {
        let bits = element_bits(self.element)?;
        let mut elems = 1u64;
        for d in &self.dims {
            elems = elems.checked_mul(match d {
                Dim::Static(n) | Dim::Bounded(n) => *n,
                Dim::Unknown => return None,
            })?;
        }
        elems.checked_mul(bits).map(|b| b.div_ceil(8))
    }

    /// Its tiles (empty without a tiled layout).
    pub fn tiles(&self) -> &[Vec<Option<u64>>] {
        self.layout.as_ref().map_or(&[], |l| &l.tiles)
    }

    /// Its memory space, when printed.
    pub fn memory_space(&self) -> Option<u32> {
        self.layout.as_ref().and_then(|l| l.memory_space)
    }
}

/// Reads the shape starting at byte `i` of `s`: the shape and the index
/// after it; `None` when it is not one.
pub(crate) fn read(s: &str, i: usize) -> Option<(Shape<'_>, usize)> {
    let b = s.as_bytes();
    // Open tuples: their start and the parts read so far.
    let mut stack: Vec<(usize, Vec<Shape<'_>>)> = Vec::new();
    let mut i = i;
    loop {
        i = skip_comment(b, skip_ws(b, i));
        let mut cur = if b.get(i) == Some(&b'(') {
            if stack.len() >= MAX_DEPTH {
                let start = stack.first().map_or(i, |t| t.0);
                let end = skip_balanced(b, start)?;
                return Some((Shape::Unread(s.get(start..end)?), end));
            }
            stack.push((i, Vec::new()));
            let j = skip_ws(b, i + 1);
            if b.get(j) != Some(&b')') {
                i = j;
                continue;
            }
            // `()`: the empty tuple.
            let (start, parts) = stack.pop()?;
            i = j + 1;
            Shape::Tuple(parts, s.get(start..i)?)
        } else {
            let (a, e) = array(s, i)?;
            i = e;
            Shape::Array(a)
        };
        loop {
            let Some(top) = stack.last_mut() else {
                return Some((cur, i));
            };
            top.1.push(cur);
            i = skip_ws(b, i);
            match b.get(i)? {
                b',' => {
                    i += 1;
                    break;
                }
                b')' => {
                    i += 1;
                    let (start, parts) = stack.pop()?;
                    cur = Shape::Tuple(parts, s.get(start..i)?);
                }
                _ => return None,
            }
        }
    }
}

/// The end of the shape starting at byte `i` of `s`, as [`read`] would
/// find it, without building it (no allocation); `None` when it is not one.
pub(crate) fn skip(s: &str, i: usize) -> Option<usize> {
    let b = s.as_bytes();
    let start = i;
    let mut depth = 0usize;
    let mut i = i;
    loop {
        i = skip_comment(b, skip_ws(b, i));
        if b.get(i) == Some(&b'(') {
            if depth >= MAX_DEPTH {
                return skip_balanced(b, start);
            }
            depth += 1;
            let j = skip_ws(b, i + 1);
            if b.get(j) != Some(&b')') {
                i = j;
                continue;
            }
            depth -= 1;
            i = j + 1;
        } else {
            i = array_end(b, i)?;
        }
        loop {
            if depth == 0 {
                return Some(i);
            }
            i = skip_ws(b, i);
            match b.get(i)? {
                b',' => {
                    i += 1;
                    break;
                }
                b')' => {
                    i += 1;
                    depth -= 1;
                }
                _ => return None,
            }
        }
    }
}

/// The end of the array shape at `i`, as [`array`] reads it.
fn array_end(b: &[u8], i: usize) -> Option<usize> {
    let t = take_while(b, i, |c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if t == i || b.get(t) != Some(&b'[') {
        return None;
    }
    let close = take_while(b, t + 1, is_dims_byte);
    if b.get(close) != Some(&b']') {
        return None;
    }
    match b.get(close + 1) {
        Some(b'{') => skip_balanced(b, close + 1),
        _ => Some(close + 1),
    }
}

/// Past a `/*index=5*/` comment at `i` (XLA prints one before every fifth
/// tuple element), and the spaces after it.
fn skip_comment(b: &[u8], i: usize) -> usize {
    if b.get(i..i + 2) != Some(b"/*") {
        return i;
    }
    let mut j = i + 2;
    while j + 1 < b.len() {
        if b.get(j..j + 2) == Some(b"*/") {
            return skip_ws(b, j + 2);
        }
        j += 1;
    }
    i
}

/// A byte of an array's dimensions (`8,<=4,?`): no bracket, quote or line end.
fn is_dims_byte(c: u8) -> bool {
    !matches!(c, b']' | b'[' | b'(' | b')' | b'{' | b'}' | b'"' | b'\n')
}

/// An array shape at `i`: `f32[8,<=4,?]{1,0:T(8,128)S(1)}`.
fn array(s: &str, i: usize) -> Option<(Array<'_>, usize)> {
    let b = s.as_bytes();
    let t = take_while(b, i, |c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if t == i || b.get(t) != Some(&b'[') {
        return None;
    }
    let close = take_while(b, t + 1, is_dims_byte);
    if b.get(close) != Some(&b']') {
        return None;
    }
    let dims_text = s.get(t + 1..close)?;
    let dims = if dims_text.trim().is_empty() {
        Vec::new()
    } else {
        let mut v = Vec::with_capacity(1 + dims_text.bytes().filter(|&c| c == b',').count());
        v.extend(dims_text.split(',').map(dim));
        v
    };
    let mut end = close + 1;
    let layout = if b.get(end) == Some(&b'{') {
        let e = skip_balanced(b, end)?;
        let l = layout(s.get(end..e)?);
        end = e;
        Some(l)
    } else {
        None
    };
    Some((
        Array {
            element: s.get(i..t)?,
            dims_text,
            dims,
            layout,
        },
        end,
    ))
}

fn dim(d: &str) -> Dim {
    let d = d.trim();
    match d.strip_prefix("<=") {
        Some(n) => n.trim().parse().map_or(Dim::Unknown, Dim::Bounded),
        None => d.parse().map_or(Dim::Unknown, Dim::Static),
    }
}

/// Reads a layout `{1,0:T(8,128)(2,1)S(1)}` (braces included).
fn layout(text: &str) -> Layout<'_> {
    let inner = text
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or("");
    let (m2m, rest) = inner.split_once(':').unwrap_or((inner, ""));
    let mut minor_to_major = Vec::with_capacity(1 + m2m.bytes().filter(|&c| c == b',').count());
    minor_to_major.extend(m2m.split(',').filter_map(|d| d.trim().parse::<u32>().ok()));
    let mut l = Layout {
        minor_to_major,
        text,
        ..Layout::default()
    };
    let b = rest.as_bytes();
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        let open = i + 1;
        if b.get(open) != Some(&b'(') {
            i += 1;
            continue;
        }
        match c {
            b'T' => {
                // `T(8,128)(2,1)`: one tile per parenthesized group.
                let mut j = open;
                while b.get(j) == Some(&b'(') {
                    let Some(e) = skip_balanced(b, j) else {
                        return l;
                    };
                    let group = rest.get(j + 1..e - 1).unwrap_or("");
                    l.tiles.push(
                        group
                            .split(',')
                            .map(|d| d.trim().parse::<u64>().ok())
                            .collect(),
                    );
                    j = e;
                }
                i = j;
            }
            _ => {
                let Some(e) = skip_balanced(b, open) else {
                    return l;
                };
                if c == b'S' && l.memory_space.is_none() {
                    l.memory_space = rest.get(open + 1..e - 1).and_then(|n| n.parse().ok());
                }
                i = e;
            }
        }
    }
    l
}

/// What a shape's size needs, read without building the shape (no
/// allocation): see [`summary`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Summary<'a> {
    /// An array: its element type, its dimensions' product (`None` when
    /// one is unknown; a bounded one counts its bound), its rank, and
    /// whether a dimension is dynamic.
    Array {
        /// The element type.
        element: &'a str,
        /// The product of the dimensions.
        elements: Option<u64>,
        /// How many dimensions.
        rank: usize,
        /// Whether a dimension is dynamic (`<=N` or `?`).
        dynamic: bool,
    },
    /// A tuple of this many top-level parts.
    Tuple(usize),
}

/// The [`Summary`] of a whole shape text; `None` where [`Shape::parse`]
/// would give [`Shape::Unread`].
pub fn summary(s: &str) -> Option<Summary<'_>> {
    let t = s.trim();
    let b = t.as_bytes();
    if skip(t, 0)? != t.len() {
        return None;
    }
    if b.first() == Some(&b'(') {
        let mut i = skip_comment(b, skip_ws(b, 1));
        if b.get(i) == Some(&b')') {
            return Some(Summary::Tuple(0));
        }
        let mut parts = 0usize;
        loop {
            i = skip(t, i)?;
            parts += 1;
            i = skip_ws(b, i);
            match b.get(i)? {
                b',' => i = skip_comment(b, skip_ws(b, i + 1)),
                b')' => return Some(Summary::Tuple(parts)),
                _ => return None,
            }
        }
    }
    let e = take_while(b, 0, |c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let close = take_while(b, e + 1, is_dims_byte);
    let dims = t.get(e + 1..close)?;
    let (mut elements, mut rank, mut dynamic) = (Some(1u64), 0usize, false);
    if !dims.trim().is_empty() {
        for d in dims.split(',') {
            rank += 1;
            let n = match dim(d) {
                Dim::Static(n) => Some(n),
                Dim::Bounded(n) => {
                    dynamic = true;
                    Some(n)
                }
                Dim::Unknown => {
                    dynamic = true;
                    None
                }
            };
            elements = elements.zip(n).and_then(|(a, n)| a.checked_mul(n));
        }
    }
    Some(Summary::Array {
        element: t.get(..e)?,
        elements,
        rank,
        dynamic,
    })
}
