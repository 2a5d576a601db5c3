//! The ledger on a chip: which preset (asked for, or the one the dump's
//! platform names), each kernel's roof from its estimate ([`super::roof`]),
//! the kernels ranked by their lower bound, the module's lower bound, and
//! the per-kernel overhead as a stated assumption beside it.

use super::chips::{self, Chip, Platform};
use super::ledger::{Entry, Ledger};
use super::roof::{self, Bound, MatrixOp, Work};
use super::xla::Xla;
use crate::Backend;
use crate::kernels::KernelKind;
use crate::program::{Instruction, Module, Shape};

/// Which chip the ledger is read on, and why.
#[derive(Clone, Debug)]
pub struct ChipChoice {
    /// The preset; `None` when the dump names no accelerator and none was
    /// asked for.
    pub chip: Option<&'static Chip>,
    /// Why this one (`asked for with --chip`, `the dump is compiled for a GPU`).
    pub why: &'static str,
}

/// Picks the preset: the asked one, else the default of the platform the
/// analysis names (v5e for TPU, h100 for GPU), else none. A name that is
/// no preset is an error with the names there are, and the closest one.
pub fn choose(asked: Option<&str>, backend: Option<Backend>) -> Result<ChipChoice, String> {
    if let Some(name) = asked {
        return match chips::chip(name) {
            Some(chip) => Ok(ChipChoice {
                chip: Some(chip),
                why: match (backend, chip.platform) {
                    (Some(Backend::Cpu), _) => {
                        "asked for; the dump is compiled for a CPU: these are XLA:CPU's kernels on this chip's peaks, not the kernels its own compiler would make"
                    }
                    (Some(Backend::Gpu), Platform::Tpu) => {
                        "asked for; the dump is compiled for a GPU: these are XLA:GPU's kernels on a TPU's peaks, not the kernels XLA:TPU would make"
                    }
                    (Some(Backend::Tpu), Platform::Gpu) => {
                        "asked for; the dump is compiled for a TPU: these are XLA:TPU's kernels on a GPU's peaks, not the kernels XLA:GPU would make"
                    }
                    _ => "asked for",
                },
            }),
            None => {
                let all: Vec<&str> = chips::names().collect();
                let hint = chips::suggest(name)
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                Err(format!(
                    "no chip preset `{name}`{hint}: use one of {}",
                    all.join(", ")
                ))
            }
        };
    }
    let (platform, why) = match backend {
        Some(Backend::Gpu) => (
            Platform::Gpu,
            "the dump is compiled for a GPU; its default preset",
        ),
        Some(Backend::Tpu) => (
            Platform::Tpu,
            "the dump is compiled for a TPU; its default preset",
        ),
        _ => {
            return Ok(ChipChoice {
                chip: None,
                why: "the dump names no accelerator: pass --chip for a roofline",
            });
        }
    };
    Ok(ChipChoice {
        chip: chips::default_for(platform),
        why,
    })
}

/// One kernel's roof.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelRoof {
    /// Flops per byte of HBM traffic (`None` without bytes, or with flops
    /// unknown).
    pub intensity: Option<f64>,
    /// Memory- or compute-bound under this model (`None` when the flops
    /// are unknown, or some of them have no roof on the chip: then only
    /// the lower bound is known).
    pub bound: Option<Bound>,
    /// A lower bound on one run's time, seconds.
    pub lower_bound_s: f64,
    /// One run's compute time under the model, seconds.
    pub compute_s: f64,
    /// One run's HBM time under the model, seconds.
    pub memory_s: f64,
    /// A collective's time on the chip's interconnect: the bytes each
    /// device must at least move over its published bandwidth, seconds
    /// (`None` for any other kernel, or when its bytes are unknown).
    pub link: Option<Link>,
    /// The roof's notes (which peaks, what was left out).
    pub notes: Vec<&'static str>,
}

/// A collective's bytes over the chip's interconnect.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The bytes each device must at least send or receive.
    pub bytes: u64,
    /// Those bytes over the interconnect's bandwidth, seconds.
    pub seconds: f64,
}

/// The module on a chip.
#[derive(Clone, Debug, PartialEq)]
pub struct ModuleRoof {
    /// Per kernel of the ledger, in its order.
    pub kernels: Vec<KernelRoof>,
    /// Ledger indices by lower bound over all runs, largest first.
    pub ranked: Vec<usize>,
    /// The sum of the kernels' lower bounds over all their runs.
    pub lower_bound_s: f64,
    /// Kernel launches per module run (a loop's body kernels once per
    /// stated trip; on a GPU, copies are memcpys, not launches).
    pub kernel_runs: u64,
    /// Whether every launch's runs are known (else `kernel_runs` counts a
    /// loop's kernels once where the loop states no trip count: at least).
    pub runs_known: bool,
    /// The per-kernel overhead assumed, seconds, when the preset states one.
    pub overhead_per_kernel_s: Option<f64>,
    /// Collective start/done pairs with kernels scheduled between: where
    /// there is one, the sum may overlap as scheduled, and is no lower
    /// bound on the module.
    pub overlapping_pairs: usize,
}

/// The roofline of a ledger on a chip.
pub fn on_chip<'a>(m: &Module<'a>, ledger: &Ledger<'a>, chip: &Chip) -> ModuleRoof {
    let mut x = Xla::new(m);
    let kernels: Vec<KernelRoof> = ledger
        .kernels
        .iter()
        .map(|e| kernel(&mut x, m, e, chip))
        .collect();
    let runs = |e: &Entry<'_>| e.runs.unwrap_or(1);
    let total = |i: usize| -> f64 {
        let e = &ledger.kernels[i];
        kernels[i].lower_bound_s * runs(e) as f64
    };
    let mut ranked: Vec<usize> = (0..kernels.len()).collect();
    ranked.sort_by(|&a, &b| total(b).total_cmp(&total(a)).then(a.cmp(&b)));
    // What launches: not an async start's wrapper, and on a GPU not a
    // `copy` (XLA:GPU runs one as a device-to-device memcpy, no kernel).
    let gpu = chip.platform == Platform::Gpu;
    let launching =
        |e: &Entry<'_>| !(e.kind == KernelKind::Async || gpu && e.kind == KernelKind::Copy);
    ModuleRoof {
        lower_bound_s: (0..kernels.len()).map(total).fold(0.0, |a, b| a + b),
        kernel_runs: ledger
            .kernels
            .iter()
            .filter(|e| launching(e))
            .map(runs)
            .sum(),
        runs_known: ledger
            .kernels
            .iter()
            .filter(|e| launching(e))
            .all(|e| e.runs.is_some()),
        overhead_per_kernel_s: chip.overhead.figure.as_ref().map(|f| f.value),
        overlapping_pairs: overlapping_pairs(m, ledger),
        kernels,
        ranked,
    }
}

/// How many of the ledger's collectives are start/done pairs with kernels
/// scheduled between.
fn overlapping_pairs(m: &Module<'_>, ledger: &Ledger<'_>) -> usize {
    use crate::collectives::schedule::{Rows, Schedule, place};
    let starts: Vec<&Instruction<'_>> = ledger
        .kernels
        .iter()
        .filter(|e| e.kind == KernelKind::Collective)
        .filter_map(|e| m.instruction(e.id))
        .collect();
    if starts.is_empty() {
        return 0;
    }
    let rows = Rows::of(m);
    starts
        .into_iter()
        .filter(|i| place(m, i, &rows).schedule == Schedule::PairOverlap)
        .count()
}

/// One kernel's roof from its estimate.
fn kernel<'a>(x: &mut Xla<'_, 'a>, m: &Module<'a>, e: &Entry<'a>, chip: &Chip) -> KernelRoof {
    let est = &e.estimate;
    let flops_known = est.figures.flops.unknown == 0;
    let hbm = est.hbm_bytes();
    let matrix = m
        .instruction(e.id)
        .map(|ins| matrix_ops(x, m, ins, est.figures.flops))
        .unwrap_or_default();
    let work = Work {
        flops: if flops_known {
            est.figures.flops.known
        } else {
            0.0
        },
        transcendentals: est.figures.transcendentals.known,
        bytes: hbm.known,
        matrix,
    };
    let r = roof::roof(chip, &work);
    // A verdict needs both roofs: flops with no roof on this chip (a
    // vector rate the vendor does not publish, a dot type without a peak)
    // leave the compute side unknown.
    let matrix_flops: f64 = work.matrix.iter().map(|o| o.flops).sum();
    let vector_roof = chip.f32_vector.is_some() || work.flops - matrix_flops <= 0.0;
    let matrix_roof = work
        .matrix
        .iter()
        .all(|o| roof::matrix_peak(chip, o).0.is_some());
    let both = flops_known && vector_roof && matrix_roof;
    let link = m
        .instruction(e.id)
        .and_then(|ins| crate::collectives::at_least_of(m, ins))
        .map(|bytes| Link {
            bytes,
            seconds: bytes as f64 / chip.interconnect.bandwidth.value,
        });
    let (bound, lower_bound_s) = match &link {
        Some(l) if l.seconds > r.lower_bound_s => (Bound::Interconnect, l.seconds),
        _ => (r.bound, r.lower_bound_s),
    };
    KernelRoof {
        intensity: r.intensity.filter(|_| flops_known && hbm.unknown == 0),
        bound: both.then_some(bound),
        lower_bound_s,
        link,
        compute_s: r.compute_s,
        memory_s: r.memory_s,
        notes: r.notes,
    }
}

/// The matrix work of a kernel: a dot or convolution itself, those of a
/// fusion's computation, or a cuBLAS / cuDNN call's.
fn matrix_ops<'a>(
    x: &mut Xla<'_, 'a>,
    m: &Module<'a>,
    ins: &Instruction<'a>,
    flops: super::figures::Figure,
) -> Vec<MatrixOp<'a>> {
    let mut out = Vec::new();
    let mut one = |x: &mut Xla<'_, 'a>, i: &Instruction<'a>| {
        if matches!(i.opcode, "dot" | "convolution") {
            let flops = x.instruction(i.id).flops.known;
            out.push(MatrixOp {
                element: lhs_element(x, i).unwrap_or("f32"),
                precision: m.attr(i, "operand_precision"),
                algorithm: m.attr(i, "algorithm"),
                flops,
            });
        }
    };
    match ins.opcode {
        "fusion" => {
            if let Some(c) = m.calls(ins).first().and_then(|c| c.id) {
                for i in m.instructions_of(c) {
                    one(x, i);
                }
            }
        }
        "custom-call" => {
            let t = ins.custom_call_target().unwrap_or("");
            if (t.starts_with("__cublas$") || t.starts_with("__cudnn$conv")) && flops.unknown == 0 {
                out.push(MatrixOp {
                    element: lhs_element(x, ins).unwrap_or("f32"),
                    precision: None,
                    algorithm: None,
                    flops: flops.known,
                });
            }
        }
        _ => one(x, ins),
    }
    out
}

/// The element type a dot runs at: the wider of its two operands' (a
/// bf16 x f32 dot is not a bf16 dot).
fn lhs_element<'a>(x: &Xla<'_, 'a>, ins: &Instruction<'a>) -> Option<&'a str> {
    let element = |i: usize| match x.operand_shape(ins, i)? {
        Shape::Array(a) => Some(a.element),
        _ => None,
    };
    let bits = |e: &str| crate::program::element_bits(e).unwrap_or(0);
    match (element(0), element(1)) {
        (Some(a), Some(b)) if bits(b) > bits(a) => Some(b),
        (Some(a), _) => Some(a),
        (None, b) => b,
    }
}
