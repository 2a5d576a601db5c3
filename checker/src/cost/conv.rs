//! Windows (`window={size=3x3 pad=1_1x1_1 stride=2x2}`) and the two rules
//! that read them: XLA's flop count of a `convolution`
//! (`HloCostAnalysis::GetConvolutionFlops`: two per multiply-add, counted
//! over the window positions that fall inside the input) and the number
//! of times a `reduce-window` applies its reducer.

use super::size::dim;
use crate::program::{Array, Instruction, Module, Shape};

/// One window dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowDim {
    /// `size`.
    pub size: u64,
    /// `stride` (1 when not printed).
    pub stride: u64,
    /// Low padding.
    pub pad_low: i64,
    /// High padding.
    pub pad_high: i64,
    /// `lhs_dilate`: the base (input) dilation.
    pub base_dilation: u64,
    /// `rhs_dilate`: the window dilation.
    pub window_dilation: u64,
}

/// A window, as printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Window {
    /// Its dimensions.
    pub dims: Vec<WindowDim>,
}

impl Window {
    /// Reads `{size=1x32 stride=1x32 pad=0_0x0_0 lhs_dilate=1x2 rhs_dilate=1x1}`.
    pub fn parse(v: &str) -> Option<Window> {
        let inner = v.trim().strip_prefix('{')?.strip_suffix('}')?.trim();
        let mut sizes: Vec<u64> = Vec::new();
        let mut fields: Vec<(&str, &str)> = Vec::new();
        for part in inner.split_whitespace() {
            let (k, v) = part.split_once('=')?;
            if k == "size" {
                sizes = v
                    .split('x')
                    .map(|n| n.parse().ok())
                    .collect::<Option<_>>()?;
            } else {
                fields.push((k, v));
            }
        }
        let mut dims: Vec<WindowDim> = sizes
            .iter()
            .map(|&size| WindowDim {
                size,
                stride: 1,
                pad_low: 0,
                pad_high: 0,
                base_dilation: 1,
                window_dilation: 1,
            })
            .collect();
        for (k, v) in fields {
            let parts: Vec<&str> = v.split('x').collect();
            if parts.len() != dims.len() {
                return None;
            }
            for (d, p) in dims.iter_mut().zip(parts) {
                match k {
                    "stride" => d.stride = p.parse().ok()?,
                    "lhs_dilate" => d.base_dilation = p.parse().ok()?,
                    "rhs_dilate" => d.window_dilation = p.parse().ok()?,
                    "pad" => {
                        let (lo, hi) = p.split_once('_')?;
                        d.pad_low = lo.parse().ok()?;
                        d.pad_high = hi.parse().ok()?;
                    }
                    _ => {}
                }
            }
        }
        Some(Window { dims })
    }
}

/// The dimensions a `dim_labels=b01f_01io->b01f` names.
struct Labels {
    input_batch: usize,
    input_feature: usize,
    output_feature: usize,
    input_spatial: Vec<usize>,
    kernel_spatial: Vec<usize>,
    output_spatial: Vec<usize>,
}

impl Labels {
    fn parse(v: &str) -> Option<Labels> {
        let (lhs, rest) = v.trim().split_once('_')?;
        let (rhs, out) = rest.split_once("->")?;
        let spatial = |s: &str| -> Option<Vec<usize>> {
            let mut d: Vec<(u32, usize)> = s
                .bytes()
                .enumerate()
                .filter(|(_, c)| c.is_ascii_digit())
                .map(|(i, c)| (u32::from(c - b'0'), i))
                .collect();
            d.sort_unstable();
            Some(d.into_iter().map(|(_, i)| i).collect())
        };
        Some(Labels {
            input_batch: lhs.find('b')?,
            input_feature: lhs.find('f')?,
            output_feature: out.find('f')?,
            input_spatial: spatial(lhs)?,
            kernel_spatial: spatial(rhs)?,
            output_spatial: spatial(out)?,
        })
    }
}

/// XLA's flop count of a convolution; `shape(i)` gives operand `i`'s shape.
pub fn flops<'a>(
    m: &Module<'a>,
    ins: &Instruction<'a>,
    shape: impl Fn(usize) -> Option<Shape<'a>>,
) -> Option<f64> {
    let (Shape::Array(lhs), Shape::Array(rhs)) = (shape(0)?, shape(1)?) else {
        return None;
    };
    // A cuDNN convolution returns (result, scratch): the result counts.
    let shape = ins.shape();
    let Shape::Array(out) = shape.first_part().clone() else {
        return None;
    };
    let labels = Labels::parse(m.attr(ins, "dim_labels")?)?;
    let mut window = match m.attr(ins, "window") {
        Some(w) => Window::parse(w)?,
        None => Window::default(),
    };
    let group =
        |k: &str| -> Option<u64> { m.attr(ins, k).map_or(Some(1), |v| v.trim().parse().ok()) };
    let d = |a: &Array<'_>, i: usize| dim(a, i as u64);
    let (mut kernel, mut output, mut input) = (Vec::new(), Vec::new(), Vec::new());
    if window.dims.is_empty() {
        window.dims.push(WindowDim {
            size: 1,
            stride: 1,
            pad_low: 0,
            pad_high: 0,
            base_dilation: 1,
            window_dilation: 1,
        });
        kernel.push(1);
        output.push(1);
        input.push(1);
    } else {
        for k in 0..window.dims.len() {
            kernel.push(d(&rhs, *labels.kernel_spatial.get(k)?)?);
            output.push(d(&out, *labels.output_spatial.get(k)?)?);
            input.push(d(&lhs, *labels.input_spatial.get(k)?)?);
        }
    }
    let mut positions = 1u64;
    for (k, w) in window.dims.iter().enumerate() {
        let n = valid_positions(w, *input.get(k)?, *kernel.get(k)?, *output.get(k)?);
        positions = positions.checked_mul(n)?;
    }
    let input_feature = d(&lhs, labels.input_feature)?;
    let output_feature = d(&out, labels.output_feature)?;
    let batch = d(&lhs, labels.input_batch)?;
    let fma = (input_feature / group("feature_group_count")?.max(1))
        .checked_mul(output_feature)?
        .checked_mul(batch / group("batch_group_count")?.max(1))?
        .checked_mul(positions)?;
    Some(2.0 * fma as f64)
}

/// Window positions of one spatial dimension that read the input, as XLA
/// counts them (its two shortcuts first).
fn valid_positions(w: &WindowDim, input: u64, kernel: u64, output: u64) -> u64 {
    let (input_i, output_i) = (input as i64, output as i64);
    if input == output
        && kernel == output
        && input == w.base_dilation
        && w.window_dilation == 1
        && input.saturating_sub(1).max(1) == w.stride
        && w.pad_low == 0
        && w.pad_high == 0
    {
        return input;
    }
    if input == 1
        && kernel == output
        && w.window_dilation == 1
        && w.base_dilation == 1
        && w.stride == 1
        && w.pad_high == output_i - 1
        && w.pad_low == output_i - 1
    {
        return output;
    }
    let mut count = 0i64;
    for k in 0..kernel as i64 {
        if w.stride == 1 && w.base_dilation == 1 {
            let base = w.pad_low - k * w.window_dilation as i64;
            count += ((input_i + base).min(output_i) - base.max(0)).max(0);
            continue;
        }
        for o in 0..output_i {
            let undilated = o * w.stride as i64 - w.pad_low + k * w.window_dilation as i64;
            let bd = w.base_dilation as i64;
            let index = if bd > 1 { undilated / bd } else { undilated };
            if undilated != index * bd || index < 0 || index >= input_i {
                continue;
            }
            count += 1;
        }
    }
    count.max(0) as u64
}

/// How many times a `reduce-window` applies its reducer (XLA's count, with
/// its shortcut for a window that reduces one dimension and broadcasts it
/// back).
pub fn reduce_window_count(
    w: &Window,
    out: &Array<'_>,
    out_elements: u64,
    tuple: bool,
) -> Option<u64> {
    let window_elements: u64 = w.dims.iter().map(|d| d.size).product();
    let mut count = window_elements.checked_sub(1)?.checked_mul(out_elements)?;
    let reducing = w.dims.iter().filter(|d| d.size != 1).count();
    let padded = w
        .dims
        .iter()
        .filter(|d| d.pad_low != 0 || d.pad_high != 0)
        .count();
    if reducing == 1 && padded == 1 && !tuple {
        let found = w.dims.iter().position(|d| {
            d.size != 1
                && d.pad_low != 0
                && d.pad_high != 0
                && d.pad_low == d.pad_high
                && d.size as i64 == 2 * d.pad_low + 1
        });
        if let Some(k) = found {
            let n = dim(out, k as u64)?;
            if w.dims.get(k)?.pad_low == n as i64 - 1 {
                count = out_elements / n + (n - 1);
            }
        }
    }
    Some(count)
}
