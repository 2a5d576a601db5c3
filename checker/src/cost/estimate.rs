//! DumpLab's estimate beside XLA's figures, where XLA's generic model is
//! known to be wrong or empty, each difference with its reason
//! ([`REASONS`], one row per reason):
//! - a cuBLAS GEMM (`__cublas$gemm`, `__cublas$lt$matmul`) costed from the
//!   dot dimensions of its `backend_config` and its shapes (2·M·N·K, plus
//!   the epilogue's elementwise work), a cuDNN convolution from its window
//!   and `dim_labels` as XLA counts a convolution; the workspace a library
//!   call returns is scratch, not counted;
//! - a Pallas kernel from the cost estimate the dump carries, else unknown;
//! - any other custom call unknown (never 0);
//! - on the TPU, bytes with tile padding (`T(8,128)(2,1)`) apart from the
//!   logical bytes, and arrays in an on-chip memory space (`S(n)`, n > 0)
//!   counted apart from HBM.
//!
//! A `while` body's kernels run once per trip: the ledger multiplies them
//! by the trip count the dump states (`known_trip_count`), where XLA counts
//! the body once.

use super::conv;
use super::costs::Costs;
use super::figures::{Figure, Figures};
use super::fusion;
use super::pallas;
use super::rules::Rule;
use super::size;
use super::xla::{Xla, slice_start_result};
use crate::program::{Array, Instruction, Shape};

/// Why an estimate differs from XLA's figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// A cuBLAS GEMM costed from its dot dimensions.
    LibraryGemm,
    /// A cuDNN convolution costed from its window.
    LibraryConv,
    /// A library call's epilogue (bias, ReLU) counted.
    Epilogue,
    /// A library call's workspace left out of the bytes.
    Workspace,
    /// A Pallas kernel's own cost estimate.
    PallasEstimate,
    /// A Pallas kernel without a cost estimate.
    PallasUnknown,
    /// A custom call nobody can cost from the dump.
    CustomCallUnknown,
    /// Kernels of a loop body times the stated trip count.
    TripCount,
    /// A loop whose trip count the dump does not state.
    TripCountUnknown,
    /// A counted loop's condition, which the backend does not run.
    ConditionNotRun,
    /// A trip count read from the loop's induction variable.
    TripCountDerived,
    /// Tile padding counted in the padded bytes.
    TilePadding,
    /// Arrays in an on-chip memory space counted apart from HBM.
    OnChip,
    /// A `copy-start` counted as one read and one write.
    CopyStart,
    /// Bytes XLA counts for instructions that launch nothing.
    NotAKernel,
    /// An `AllocateBuffer` custom call: no work.
    AllocateBuffer,
}

/// One row of [`REASONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReasonRow {
    /// The reason.
    pub reason: Reason,
    /// Its name in the JSON.
    pub id: &'static str,
    /// What it means, in a sentence.
    pub text: &'static str,
}

/// The reasons, one row each.
pub const REASONS: &[ReasonRow] = &[
    ReasonRow {
        reason: Reason::LibraryGemm,
        id: "library-gemm",
        text: "a cuBLAS GEMM, which XLA's generic model cannot cost (it adds -1; XLA:GPU's own model counts it as 2*M*N*K, without the epilogue): 2*M*N*K flops from the dot dimensions in its backend_config, bytes of its operands and result",
    },
    ReasonRow {
        reason: Reason::LibraryConv,
        id: "library-conv",
        text: "a cuDNN convolution, which XLA's generic model cannot cost (it adds -1): flops counted from its window and dim_labels as XLA counts a convolution, bytes of its operands and result",
    },
    ReasonRow {
        reason: Reason::Epilogue,
        id: "epilogue",
        text: "the library call's epilogue (bias add, ReLU) adds one flop per output element each",
    },
    ReasonRow {
        reason: Reason::Workspace,
        id: "workspace",
        text: "the scratch workspace the library call returns is not counted as bytes moved",
    },
    ReasonRow {
        reason: Reason::PallasEstimate,
        id: "pallas-cost-estimate",
        text: "a Pallas kernel: its figures are the cost_estimate its author gave pallas_call, as the dump carries it",
    },
    ReasonRow {
        reason: Reason::PallasUnknown,
        id: "pallas-unknown",
        text: "a Pallas kernel without a cost estimate in the dump: its flops are unknown (pass cost_estimate= to pallas_call); bytes are its operands and result",
    },
    ReasonRow {
        reason: Reason::CustomCallUnknown,
        id: "custom-call-unknown",
        text: "a custom call whose work the dump does not state: its flops are unknown; bytes are its operands and result",
    },
    ReasonRow {
        reason: Reason::TripCount,
        id: "trip-count",
        text: "in the body of a while loop whose backend_config states its trip count: counted once per trip, where XLA counts a loop body once",
    },
    ReasonRow {
        reason: Reason::ConditionNotRun,
        id: "condition-not-run",
        text: "the condition of a while loop whose trip count its backend_config states: XLA:CPU and XLA:GPU run such a loop's body that many times without evaluating the condition, so it runs 0 times",
    },
    ReasonRow {
        reason: Reason::TripCountDerived,
        id: "trip-count-derived",
        text: "in the body of a while loop that states no trip count, counted once per trip of the one its text implies (where XLA counts a loop body once): an induction variable that starts at a constant, grows by a constant step in the body and is compared with a constant bound in the condition (the pattern XLA's own ComputeWhileLoopTripCount reads)",
    },
    ReasonRow {
        reason: Reason::TripCountUnknown,
        id: "trip-count-unknown",
        text: "inside a while loop whose trip count the dump does not state (or the condition of a counted loop on a TPU, whose loops the dump does not explain): counted once, as XLA counts it; each further trip costs as much again",
    },
    ReasonRow {
        reason: Reason::TilePadding,
        id: "tile-padding",
        text: "its arrays are tiled (T(8,128) and the like): bytes_padded counts the padding each tile adds",
    },
    ReasonRow {
        reason: Reason::OnChip,
        id: "on-chip-memory",
        text: "some of its arrays live in an on-chip memory space (S(n)): their bytes are counted in bytes_on_chip, not in HBM traffic",
    },
    ReasonRow {
        reason: Reason::CopyStart,
        id: "copy-start",
        text: "an asynchronous copy: XLA counts its whole output tuple (the destination, the source again and a context); a copy reads its source once and writes its destination once",
    },
    ReasonRow {
        reason: Reason::NotAKernel,
        id: "not-a-kernel",
        text: "XLA's total also counts bytes for instructions that launch nothing (a tuple's index table, 8 bytes per element; the -done half of an asynchronous copy; ...): totals.not_kernel_bytes; the estimate counts kernels only",
    },
    ReasonRow {
        reason: Reason::AllocateBuffer,
        id: "allocate-buffer",
        text: "an AllocateBuffer custom call: XLA's way of making an uninitialized buffer, which reads, writes and computes nothing",
    },
];

impl Reason {
    /// Its row of [`REASONS`].
    pub fn row(self) -> Option<&'static ReasonRow> {
        REASONS.iter().find(|r| r.reason == self)
    }

    /// Its name in the JSON.
    pub fn id(self) -> &'static str {
        self.row().map_or("unknown", |r| r.id)
    }
}

/// DumpLab's estimate of one kernel (one run of it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    /// Flops, transcendentals and all bytes accessed.
    pub figures: Figures,
    /// Bytes accessed with tile padding.
    pub bytes_padded: Figure,
    /// Of the bytes, those of arrays in on-chip memory spaces.
    pub bytes_on_chip: f64,
    /// Why it differs from XLA's figures.
    pub reasons: Vec<Reason>,
}

impl Estimate {
    /// Bytes that move to and from HBM (padded where tiles pad them).
    pub fn hbm_bytes(&self) -> Figure {
        let b = if self.bytes_padded.known > 0.0 {
            self.bytes_padded
        } else {
            self.figures.bytes
        };
        Figure {
            known: (b.known - self.bytes_on_chip).max(0.0),
            unknown: b.unknown,
        }
    }
}

/// One array an instruction reads or writes: the bytes XLA counts for it,
/// and its shape.
struct Part<'a> {
    bytes: u64,
    array: Option<Array<'a>>,
}

/// The estimate of one instruction, from XLA's figures of it.
pub fn estimate<'a>(x: &mut Xla<'_, 'a>, ins: &Instruction<'a>, xla: Figures) -> Estimate {
    let mut e = Estimate {
        figures: xla,
        ..Estimate::default()
    };
    if ins.opcode == "custom-call" {
        custom_call(x, ins, &mut e);
    }
    if ins.opcode == "fusion" {
        fused_calls(x, ins, &mut e);
    }
    let parts = if ins.opcode == "copy-start" {
        copy_parts(x, ins, &mut e)
    } else if e.reasons.contains(&Reason::AllocateBuffer) {
        None
    } else {
        parts(x, ins)
    };
    let parts = parts.unwrap_or_default();
    apply_memory(&parts, &mut e);
    e.reasons.sort_unstable();
    e.reasons.dedup();
    e
}

/// A custom call: a library GEMM or convolution, a Pallas kernel, or
/// unknown flops; bytes of its operands and result.
fn custom_call<'a>(x: &mut Xla<'_, 'a>, ins: &Instruction<'a>, e: &mut Estimate) {
    let target = ins.custom_call_target().unwrap_or("");
    if target == "AllocateBuffer" {
        // XLA's `AllocateBuffer` custom call gives an uninitialized buffer:
        // it reads and computes nothing.
        e.figures.flops = Figure::of(0.0);
        e.figures.bytes = Figure::of(0.0);
        e.reasons.push(Reason::AllocateBuffer);
        return;
    }
    let (bytes, workspace) = call_bytes(x, ins, target);
    if workspace {
        e.reasons.push(Reason::Workspace);
    }
    e.figures.bytes = bytes.map_or(Figure::unknown(), |b| Figure::of(b as f64));
    e.figures.flops = Figure::unknown();
    if target.starts_with("__cublas$") {
        if let Some((f, epilogue)) = gemm_flops(x, ins) {
            e.figures.flops = Figure::of(f);
            e.reasons.push(Reason::LibraryGemm);
            if epilogue {
                e.reasons.push(Reason::Epilogue);
            }
            return;
        }
    }
    if target.starts_with("__cudnn$conv") {
        let m = x.module();
        if let Some(f) = conv::flops(m, ins, |i| x.operand_shape(ins, i)) {
            e.figures.flops = Figure::of(f);
            e.reasons.push(Reason::LibraryConv);
            return;
        }
    }
    if crate::kernels::kind_of(ins).0 == crate::kernels::KernelKind::Pallas {
        match pallas::cost_estimate(ins) {
            Some(p) => {
                e.figures.flops = Figure::of(p.flops);
                e.figures.transcendentals = Figure::of(p.transcendentals);
                e.figures.bytes = Figure::of(p.bytes_accessed);
                e.reasons.push(Reason::PallasEstimate);
            }
            None => e.reasons.push(Reason::PallasUnknown),
        }
        return;
    }
    e.reasons.push(Reason::CustomCallUnknown);
}

/// The custom calls inside a fusion (a `kCustom` fusion around a Pallas
/// kernel): each one's flops and transcendentals from its own estimate in
/// place of XLA's unknown; the fusion's bytes stay XLA's (what its
/// parameters and output move).
fn fused_calls<'a>(x: &mut Xla<'_, 'a>, ins: &Instruction<'a>, e: &mut Estimate) {
    let m = x.module();
    let Some(fused) = m.calls(ins).first().and_then(|c| c.id) else {
        return;
    };
    for inner in m.instructions_of(fused) {
        if inner.opcode != "custom-call" {
            continue;
        }
        let mut one = Estimate::default();
        custom_call(x, inner, &mut one);
        let known = |f: Figure| f.unknown == 0;
        e.reasons
            .extend(one.reasons.iter().filter(|r| **r != Reason::Workspace));
        if known(one.figures.flops) && e.figures.flops.unknown > 0 {
            e.figures.flops.unknown -= 1;
            e.figures.flops.known += one.figures.flops.known;
            e.figures.transcendentals.known += one.figures.transcendentals.known;
        }
    }
}

/// Bytes of a custom call's operands and result arrays; a cuBLAS or cuDNN
/// call's last result (its `s8`/`u8` workspace) left out. Also whether it
/// was.
fn call_bytes<'a>(x: &mut Xla<'_, 'a>, ins: &Instruction<'a>, target: &str) -> (Option<u64>, bool) {
    let shape = ins.shape();
    let mut arrays = shape.arrays();
    let library = target.starts_with("__cublas$") || target.starts_with("__cudnn$");
    let workspace = library
        && arrays.len() > 1
        && arrays
            .last()
            .is_some_and(|a| matches!(a.element, "s8" | "u8"));
    if workspace {
        arrays.pop();
    }
    let mut total = 0u64;
    for a in arrays {
        match size::of(&Shape::Array(a.clone())).bytes {
            Some(b) => total += b,
            None => return (None, workspace),
        }
    }
    for i in 0..x.module().operands(ins).len() {
        match x.operand_shape(ins, i).and_then(|s| size::of(&s).bytes) {
            Some(b) => total += b,
            None => return (None, workspace),
        }
    }
    (Some(total), workspace)
}

/// 2·M·N·K of a cuBLAS call from its `dot_dimension_numbers` (and one flop
/// per output element per epilogue step); whether an epilogue was counted.
fn gemm_flops<'a>(x: &mut Xla<'_, 'a>, ins: &Instruction<'a>) -> Option<(f64, bool)> {
    let config = ins.backend_config()?;
    let at = config.find("\"lhs_contracting_dimensions\"")?;
    let list = config.get(at..)?;
    let open = list.find('[')?;
    let close = list.find(']')?;
    let dims: Vec<u64> = list
        .get(open + 1..close)?
        .split(',')
        .map(|d| d.trim().trim_matches('"'))
        .filter(|d| !d.is_empty())
        .map(|d| d.parse().ok())
        .collect::<Option<_>>()?;
    let Shape::Array(lhs) = x.operand_shape(ins, 0)? else {
        return None;
    };
    let mut k = 1u64;
    for d in dims {
        k = k.checked_mul(size::dim(&lhs, d)?)?;
    }
    let shape = ins.shape();
    let Shape::Array(out) = shape.first_part() else {
        return None;
    };
    let mn = size::elements(out)? as f64;
    let steps = epilogue_steps(config);
    Some((2.0 * mn * k as f64 + steps as f64 * mn, steps > 0))
}

/// Elementwise steps of a cuBLAS epilogue (`"epilogue":"BIAS_RELU"`).
fn epilogue_steps(config: &str) -> u64 {
    let Some(at) = config.find("\"epilogue\":\"") else {
        return 0;
    };
    let rest = config.get(at + 12..).unwrap_or("");
    let name = rest.split('"').next().unwrap_or("");
    name.split('_')
        .filter(|s| matches!(*s, "BIAS" | "RELU"))
        .count() as u64
}

/// The arrays an instruction reads and writes, with the bytes XLA counts
/// for each: a fusion's parameter reads and output, or the default rule's
/// operands and output; `None` for rules whose bytes are not per array.
fn parts<'a>(x: &mut Xla<'_, 'a>, ins: &Instruction<'a>) -> Option<Vec<Part<'a>>> {
    let m = x.module();
    let rule = x.rule(ins.opcode);
    let mut out = Vec::new();
    let shape = ins.shape();
    let whole = |s: &Shape<'a>| -> Option<Vec<Part<'a>>> {
        s.arrays()
            .into_iter()
            .map(|a| {
                Some(Part {
                    bytes: size::of(&Shape::Array(a.clone())).bytes?,
                    array: Some(a.clone()),
                })
            })
            .collect()
    };
    match rule {
        Rule::Fusion => {
            let fused = m.calls(ins).first()?.id?;
            let params = m.computation(fused)?.params.clone();
            for (k, p) in params.into_iter().enumerate() {
                let bytes = fusion::parameter_bytes(x, p)?;
                let array = match x.operand_shape(ins, k)? {
                    Shape::Array(a) => Some(a),
                    _ => None,
                };
                out.push(Part { bytes, array });
            }
            let bytes = fusion::output_bytes(x, ins, fused)?;
            let array = match shape {
                Shape::Array(a) => Some(a),
                _ => None,
            };
            out.push(Part { bytes, array });
        }
        Rule::Default
        | Rule::Elementwise
        | Rule::Transcendental
        | Rule::Dot
        | Rule::Convolution
        | Rule::Reduce
        | Rule::ReduceWindow
        | Rule::CustomCall => {
            out.extend(whole(&shape)?);
            for i in 0..m.operands(ins).len() {
                out.extend(whole(&x.operand_shape(ins, i)?)?);
            }
        }
        Rule::AsyncCollective => {
            out.extend(whole(super::xla::async_result(&shape)?)?);
            for i in 0..m.operands(ins).len() {
                out.extend(whole(&x.operand_shape(ins, i)?)?);
            }
        }
        Rule::SliceStart => {
            // The slice's bytes, read where the operand lies and written
            // where the slice goes (on chip, on XLA:TPU).
            let slice = slice_start_result(&shape)?.clone();
            let bytes = size::of(&Shape::Array(slice.clone())).bytes?;
            let source = match x.operand_shape(ins, 0)? {
                Shape::Array(a) => Some(a),
                _ => None,
            };
            out.push(Part {
                bytes,
                array: source,
            });
            out.push(Part {
                bytes,
                array: Some(slice),
            });
        }
        _ => return None,
    }
    Some(out)
}

/// A `copy-start`'s source and destination (the first element of its
/// output tuple), and its bytes as one read and one write.
fn copy_parts<'a>(
    x: &mut Xla<'_, 'a>,
    ins: &Instruction<'a>,
    e: &mut Estimate,
) -> Option<Vec<Part<'a>>> {
    let Shape::Array(source) = x.operand_shape(ins, 0)? else {
        return None;
    };
    let shape = ins.shape();
    let Shape::Array(dest) = shape.first_part().clone() else {
        return None;
    };
    let read = size::of(&Shape::Array(source.clone())).bytes?;
    let write = size::of(&Shape::Array(dest.clone())).bytes?;
    e.figures.bytes = Figure::of((read + write) as f64);
    e.reasons.push(Reason::CopyStart);
    Some(vec![
        Part {
            bytes: read,
            array: Some(source),
        },
        Part {
            bytes: write,
            array: Some(dest),
        },
    ])
}

/// Tile padding and on-chip bytes, from the arrays' layouts.
fn apply_memory(parts: &[Part<'_>], e: &mut Estimate) {
    let (mut padded, mut on_chip, mut tiled) = (0.0, 0.0, false);
    for p in parts {
        let Some(a) = &p.array else {
            padded += p.bytes as f64;
            continue;
        };
        let plain = size::of(&Shape::Array(a.clone())).bytes.unwrap_or(0);
        let counted = match padded_bytes(a) {
            Some(t) if plain > 0 && t != plain => {
                tiled = true;
                p.bytes as f64 * t as f64 / plain as f64
            }
            _ => p.bytes as f64,
        };
        padded += counted;
        if a.memory_space().is_some_and(|s| s > 0) {
            on_chip += counted;
        }
    }
    if tiled {
        let scale = if e.figures.bytes.unknown > 0 { 0 } else { 1 };
        e.bytes_padded = Figure {
            known: padded * f64::from(scale),
            unknown: e.figures.bytes.unknown,
        };
        e.reasons.push(Reason::TilePadding);
    } else {
        e.bytes_padded = e.figures.bytes;
    }
    if on_chip > 0.0 {
        e.bytes_on_chip = on_chip;
        e.reasons.push(Reason::OnChip);
    }
}

/// Bytes of an array with its first tile's padding (`T(8,128)`: the two
/// most minor dimensions rounded up to 8 and 128); `None` without a tile,
/// or with a tile this reader does not apply (a `*` dimension, a sub-tile
/// that does not divide it).
pub fn padded_bytes(a: &Array<'_>) -> Option<u64> {
    let layout = a.layout.as_ref()?;
    let tile: Vec<u64> = layout
        .tiles
        .first()?
        .iter()
        .copied()
        .collect::<Option<_>>()?;
    for sub in layout.tiles.iter().skip(1) {
        let sub: Vec<u64> = sub.iter().copied().collect::<Option<_>>()?;
        let n = sub.len().min(tile.len());
        let fits = tile[tile.len() - n..]
            .iter()
            .zip(&sub[sub.len() - n..])
            .all(|(t, s)| *s > 0 && t % s == 0);
        if !fits {
            return None;
        }
    }
    let mut physical: Vec<u64> = Vec::new();
    for &d in layout.minor_to_major.iter().rev() {
        physical.push(size::dim(a, u64::from(d))?);
    }
    if physical.len() != a.dims.len() {
        return None;
    }
    while physical.len() < tile.len() {
        physical.insert(0, 1);
    }
    let n = physical.len();
    for (p, t) in physical[n - tile.len()..].iter_mut().zip(&tile) {
        if *t == 0 {
            return None;
        }
        *p = p.div_ceil(*t).checked_mul(*t)?;
    }
    let elements = physical
        .iter()
        .try_fold(1u64, |acc, d| acc.checked_mul(*d))?;
    let bits = crate::program::element_bits(a.element)?;
    elements.checked_mul(bits.div_ceil(8))
}
