//! The roofline of one kernel on one chip preset: a lower bound on its time
//! from its flops and bytes alone, and which roof bounds it *under this
//! model*. Only a profile measures time.
//!
//! The rules, each with its note in [`Roof::notes`]:
//! - a dot's flops run at the matrix-unit peak for its operand type,
//!   precision and algorithm ([`matrix_peak`]): on these GPUs an f32 dot at
//!   DEFAULT or HIGH runs as TF32 on the tensor cores and at HIGHEST as f32
//!   on the CUDA cores; on a TPU an f32 dot at DEFAULT is one bf16 pass,
//!   HIGH three and HIGHEST six; a `_x3`/`_x6`/`_x9` algorithm is that many
//!   passes of its input type;
//! - the other flops (elementwise, reductions) run at the vector f32 rate
//!   where the vendor publishes one; where not (TPUs) they are left out of
//!   the compute time;
//! - transcendentals are not in the compute time;
//! - compute time is the sum of the two, memory time the bytes over the HBM
//!   bandwidth, the lower bound the larger of the two, and the bound the
//!   side that is larger (memory on a tie).
//!
//! Every vocabulary here is a table with one row per entry: the element
//! types of XLA ([`ELEMENTS`]), the precisions ([`PRECISIONS`]), the f32
//! rules per platform ([`F32_RULES`]) and the dot algorithms
//! ([`ALGORITHMS`]); a name outside them gives no peak and says so, never a
//! silent default.

use super::chips::{Chip, Figure, Platform};

/// One dot (or convolution) of a kernel, as the dump prints it.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixOp<'a> {
    /// The lhs element type, as HLO prints it (`f32`, `bf16`, `f8e4m3fn`).
    pub element: &'a str,
    /// The raw operand precision as printed: `{default,default}`,
    /// `{highest,highest}` (HLO's `operand_precision=`) or
    /// `["HIGHEST","HIGHEST"]` (a GEMM's `backend_config`); `None` when the
    /// line prints none (DEFAULT).
    pub precision: Option<&'a str>,
    /// The raw algorithm as printed: `dot_bf16_bf16_f32_x3` (HLO's
    /// `algorithm=`) or `ALG_DOT_TF32_TF32_F32` (a GEMM's
    /// `backend_config`); `None` or `ALG_UNSET` when unset.
    pub algorithm: Option<&'a str>,
    /// Its flops (2·M·N·K for a dot).
    pub flops: f64,
}

/// What one kernel does, from the ledger's estimate.
#[derive(Debug, Clone, PartialEq)]
pub struct Work<'a> {
    /// All flops, the dots' included.
    pub flops: f64,
    /// Transcendentals (exp, log, tanh, ...).
    pub transcendentals: f64,
    /// Bytes moved to and from HBM.
    pub bytes: f64,
    /// The kernel's dots, whose flops are part of `flops`.
    pub matrix: Vec<MatrixOp<'a>>,
}

/// Which roof bounds a kernel under this model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Bytes over bandwidth take at least as long as the flops.
    Memory,
    /// The flops take longer than the bytes.
    Compute,
    /// A collective's bytes over the chip's interconnect take longer than
    /// its HBM traffic.
    Interconnect,
}

impl Bound {
    /// The name the output prints (`memory`, `compute`, `link`: the
    /// interconnect).
    pub fn name(self) -> &'static str {
        match self {
            Bound::Memory => "memory",
            Bound::Compute => "compute",
            Bound::Interconnect => "link",
        }
    }
}

/// One kernel's roofline on one chip.
#[derive(Debug, Clone, PartialEq)]
pub struct Roof {
    /// Flops per byte; `None` when the kernel moves no bytes.
    pub intensity: Option<f64>,
    /// Which side is larger (memory on a tie).
    pub bound: Bound,
    /// The larger of `compute_s` and `memory_s`: a lower bound on the time.
    pub lower_bound_s: f64,
    /// Matrix flops over their peaks plus the other flops over the vector
    /// rate, seconds.
    pub compute_s: f64,
    /// Bytes over the HBM bandwidth, seconds.
    pub memory_s: f64,
    /// Which peaks were used and what was left out, each once.
    pub notes: Vec<&'static str>,
}

/// A peak of the chip a dot can run at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// bf16 inputs on the matrix units.
    Bf16,
    /// fp16 inputs on the matrix units.
    Fp16,
    /// TF32 on the tensor cores.
    Tf32,
    /// fp8 inputs on the matrix units.
    Fp8,
    /// int8 inputs on the matrix units.
    Int8,
    /// fp64 on the tensor cores.
    Fp64,
    /// f32 on the vector (CUDA) cores.
    F32Vector,
}

impl Unit {
    /// The chip's figure for this unit, if published.
    pub fn peak(self, chip: &Chip) -> Option<&Figure> {
        match self {
            Unit::Bf16 => Some(&chip.bf16),
            Unit::Fp16 => chip.fp16.as_ref(),
            Unit::Tf32 => chip.tf32.as_ref(),
            Unit::Fp8 => chip.fp8.as_ref(),
            Unit::Int8 => chip.int8.as_ref(),
            Unit::Fp64 => chip.fp64.as_ref(),
            Unit::F32Vector => chip.f32_vector.as_ref(),
        }
    }

    /// The note when the chip publishes no figure for this unit.
    fn missing(self) -> &'static str {
        match self {
            Unit::Bf16 => {
                "no bf16 peak for this chip: the dot's flops are left out of the compute time"
            }
            Unit::Fp16 => {
                "no published fp16 matrix peak for this chip: the dot's flops are left out of the compute time"
            }
            Unit::Tf32 => {
                "no TF32 peak for this chip: the dot's flops are left out of the compute time"
            }
            Unit::Fp8 => {
                "no published fp8 matrix peak for this chip: the dot's flops are left out of the compute time"
            }
            Unit::Int8 => {
                "no published int8 matrix peak for this chip: the dot's flops are left out of the compute time"
            }
            Unit::Fp64 => {
                "no published fp64 matrix peak for this chip: the dot's flops are left out of the compute time"
            }
            Unit::F32Vector => {
                "no published vector f32 rate for this chip: the dot's flops are left out of the compute time"
            }
        }
    }
}

/// How a dot's operand element type reaches a peak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    /// Always this unit, one pass, whatever the precision.
    Direct(Unit, &'static str),
    /// f32: the precision and the platform decide ([`F32_RULES`]).
    F32,
    /// No matrix peak is published for this type.
    NoPeak(&'static str),
}

const WHY_BF16: &str = "dot: bf16 operands at the dense bf16 matrix peak";
const WHY_F16: &str = "dot: f16 operands at the dense fp16 matrix peak";
const WHY_F8: &str = "dot: fp8 operands at the dense fp8 matrix peak";
const WHY_INT8: &str = "dot: 8-bit integer operands at the dense int8 matrix peak";
const WHY_F64: &str = "dot: f64 operands at the fp64 tensor-core peak";
const NO_PEAK_INT: &str = "dot: integer operands wider than 8 bits have no published matrix peak: left out of the compute time";
const NO_PEAK_NARROW: &str = "dot: sub-byte operands have no published matrix peak on these chips: left out of the compute time";
const NO_PEAK_OTHER: &str =
    "dot: this element type has no published matrix peak: left out of the compute time";

/// XLA's element types (`xla_data.proto` PrimitiveType, as HLO text prints
/// them) and the peak a dot of each runs at. A dump's type outside this
/// table gives no peak and a note.
pub const ELEMENTS: &[(&str, Elem)] = &[
    ("pred", Elem::NoPeak(NO_PEAK_OTHER)),
    ("s1", Elem::NoPeak(NO_PEAK_NARROW)),
    ("s2", Elem::NoPeak(NO_PEAK_NARROW)),
    ("s4", Elem::NoPeak(NO_PEAK_NARROW)),
    ("s8", Elem::Direct(Unit::Int8, WHY_INT8)),
    ("s16", Elem::NoPeak(NO_PEAK_INT)),
    ("s32", Elem::NoPeak(NO_PEAK_INT)),
    ("s64", Elem::NoPeak(NO_PEAK_INT)),
    ("u1", Elem::NoPeak(NO_PEAK_NARROW)),
    ("u2", Elem::NoPeak(NO_PEAK_NARROW)),
    ("u4", Elem::NoPeak(NO_PEAK_NARROW)),
    ("u8", Elem::Direct(Unit::Int8, WHY_INT8)),
    ("u16", Elem::NoPeak(NO_PEAK_INT)),
    ("u32", Elem::NoPeak(NO_PEAK_INT)),
    ("u64", Elem::NoPeak(NO_PEAK_INT)),
    ("f16", Elem::Direct(Unit::Fp16, WHY_F16)),
    ("bf16", Elem::Direct(Unit::Bf16, WHY_BF16)),
    ("f32", Elem::F32),
    ("f64", Elem::Direct(Unit::Fp64, WHY_F64)),
    ("f8e5m2", Elem::Direct(Unit::Fp8, WHY_F8)),
    ("f8e4m3", Elem::Direct(Unit::Fp8, WHY_F8)),
    ("f8e4m3fn", Elem::Direct(Unit::Fp8, WHY_F8)),
    ("f8e4m3b11fnuz", Elem::Direct(Unit::Fp8, WHY_F8)),
    ("f8e5m2fnuz", Elem::Direct(Unit::Fp8, WHY_F8)),
    ("f8e4m3fnuz", Elem::Direct(Unit::Fp8, WHY_F8)),
    ("f8e3m4", Elem::Direct(Unit::Fp8, WHY_F8)),
    ("f8e8m0fnu", Elem::NoPeak(NO_PEAK_OTHER)),
    ("f4e2m1fn", Elem::NoPeak(NO_PEAK_NARROW)),
    ("c64", Elem::NoPeak(NO_PEAK_OTHER)),
    ("c128", Elem::NoPeak(NO_PEAK_OTHER)),
];

/// An operand precision (`PrecisionConfig.Precision`), lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prec {
    /// DEFAULT, also what a line without a precision means.
    Default,
    /// HIGH.
    High,
    /// HIGHEST.
    Highest,
}

/// The precision names a dump prints, case ignored.
pub const PRECISIONS: &[(&str, Prec)] = &[
    ("default", Prec::Default),
    ("high", Prec::High),
    ("highest", Prec::Highest),
];

/// How an f32 dot runs at one precision on one platform.
#[derive(Debug)]
pub struct F32Rule {
    /// The platform.
    pub platform: Platform,
    /// The (lowest operand) precision.
    pub precision: Prec,
    /// The peak it runs at.
    pub unit: Unit,
    /// How many passes of that unit one dot takes.
    pub passes: u32,
    /// The note, with its basis.
    pub why: &'static str,
}

/// The f32 rules. Basis: `jax.lax.Precision` in the pinned JAX 0.10.2
/// ("DEFAULT: ... On TPU: performs float32 computations in bfloat16. On
/// GPU: uses tensorfloat32 if available (e.g. on A100 and H100 GPUs)";
/// "HIGH: ... On TPU: performs float32 computations in 3 bfloat16 passes.
/// On GPU: uses tensorfloat32 where available"; "HIGHEST: ... On TPU:
/// performs float32 computations in 6 bfloat16. ... On GPU: uses
/// float32"), and the pinned libtpu, which compiles an f32 dot with
/// `BF16_BF16_F32_X3` to `operand_precision={high,high}` and with
/// `BF16_BF16_F32_X6` to `operand_precision={highest,highest}` (v5e,
/// deviceless).
pub const F32_RULES: &[F32Rule] = &[
    F32Rule {
        platform: Platform::Gpu,
        precision: Prec::Default,
        unit: Unit::Tf32,
        passes: 1,
        why: "dot: f32 at DEFAULT runs as TF32 on the tensor cores (jax.lax.Precision: \
              'uses tensorfloat32 if available (e.g. on A100 and H100 GPUs)')",
    },
    F32Rule {
        platform: Platform::Gpu,
        precision: Prec::High,
        unit: Unit::Tf32,
        passes: 1,
        why: "dot: f32 at HIGH runs as TF32 on the tensor cores (jax.lax.Precision: \
              'uses tensorfloat32 where available')",
    },
    F32Rule {
        platform: Platform::Gpu,
        precision: Prec::Highest,
        unit: Unit::F32Vector,
        passes: 1,
        why: "dot: f32 at HIGHEST runs in full f32 (jax.lax.Precision: 'uses float32'), at the \
              FP32 CUDA-core rate: the datasheets list no f32 tensor-core rate",
    },
    F32Rule {
        platform: Platform::Tpu,
        precision: Prec::Default,
        unit: Unit::Bf16,
        passes: 1,
        why: "dot: f32 at DEFAULT is one bf16 pass on the MXUs (jax.lax.Precision: \
              'performs float32 computations in bfloat16')",
    },
    F32Rule {
        platform: Platform::Tpu,
        precision: Prec::High,
        unit: Unit::Bf16,
        passes: 3,
        why: "dot: f32 at HIGH is three bf16 passes on the MXUs (jax.lax.Precision: \
              '3 bfloat16 passes'): the bf16 peak over 3",
    },
    F32Rule {
        platform: Platform::Tpu,
        precision: Prec::Highest,
        unit: Unit::Bf16,
        passes: 6,
        why: "dot: f32 at HIGHEST is six bf16 passes on the MXUs (jax.lax.Precision: \
              'in 6 bfloat16'): the bf16 peak over 6",
    },
];

/// A dot algorithm (`PrecisionConfig.Algorithm`, the `DotAlgorithmPreset`s
/// of `jax.lax`), as HLO text prints it (`algorithm=dot_bf16_bf16_f32_x3`;
/// a GEMM's `backend_config` prints `ALG_DOT_BF16_BF16_F32_X3`).
#[derive(Debug)]
pub struct Algorithm {
    /// The HLO text name.
    pub name: &'static str,
    /// On a GPU: the peak and the number of passes.
    pub gpu: Option<(Unit, u32)>,
    /// On a TPU: the peak and the number of passes.
    pub tpu: Option<(Unit, u32)>,
    /// The note when it has a peak.
    pub why: &'static str,
    /// The note where a platform has none.
    pub unsupported: &'static str,
}

const REJECTED: &str = "dot: the pinned compiler rejects this algorithm on this platform \
     (UNIMPLEMENTED), so no dump of it should carry it: no peak";

/// The algorithms of XLA's `PrecisionConfig.Algorithm` (the names the pinned
/// jaxlib carries), one row each; `ALG_UNSET` is no algorithm. Support per
/// platform is what the pinned JAX 0.10.2 compiles deviceless for an H100
/// and a TPU v5e: `x3`/`x6`/`x9` are that many passes ("The ``_X3`` suffix
/// indicates that the algorithm uses 3 operations to emulate higher
/// precision", `jax.lax.DotAlgorithmPreset`).
pub const ALGORITHMS: &[Algorithm] = &[
    Algorithm {
        name: "dot_any_f8_any_f8_f32",
        gpu: Some((Unit::Fp8, 1)),
        tpu: None,
        why: "dot: algorithm dot_any_f8_any_f8_f32, fp8 operands at the dense fp8 peak",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_any_f8_any_f8_f32_fast_accum",
        gpu: Some((Unit::Fp8, 1)),
        tpu: None,
        why: "dot: algorithm dot_any_f8_any_f8_f32_fast_accum, fp8 operands at the dense fp8 peak",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_f16_f16_f16",
        gpu: None,
        tpu: None,
        why: "",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_f16_f16_f32",
        gpu: Some((Unit::Fp16, 1)),
        tpu: None,
        why: "dot: algorithm dot_f16_f16_f32, one pass at the dense fp16 peak",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_bf16_bf16_bf16",
        gpu: None,
        tpu: None,
        why: "",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_bf16_bf16_f32",
        gpu: Some((Unit::Bf16, 1)),
        tpu: Some((Unit::Bf16, 1)),
        why: "dot: algorithm dot_bf16_bf16_f32, one pass at the dense bf16 peak",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_bf16_bf16_f32_x3",
        gpu: Some((Unit::Bf16, 3)),
        tpu: Some((Unit::Bf16, 3)),
        why: "dot: algorithm dot_bf16_bf16_f32_x3, three bf16 passes: the bf16 peak over 3",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_bf16_bf16_f32_x6",
        gpu: Some((Unit::Bf16, 6)),
        tpu: Some((Unit::Bf16, 6)),
        why: "dot: algorithm dot_bf16_bf16_f32_x6, six bf16 passes: the bf16 peak over 6",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_bf16_bf16_f32_x9",
        gpu: Some((Unit::Bf16, 9)),
        tpu: None,
        why: "dot: algorithm dot_bf16_bf16_f32_x9, nine bf16 passes: the bf16 peak over 9",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_tf32_tf32_f32",
        gpu: Some((Unit::Tf32, 1)),
        tpu: None,
        why: "dot: algorithm dot_tf32_tf32_f32, one pass at the dense TF32 peak",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_tf32_tf32_f32_x3",
        gpu: Some((Unit::Tf32, 3)),
        tpu: None,
        why: "dot: algorithm dot_tf32_tf32_f32_x3, three TF32 passes: the TF32 peak over 3",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_f32_f32_f32",
        gpu: Some((Unit::F32Vector, 1)),
        tpu: None,
        why: "dot: algorithm dot_f32_f32_f32, full f32 at the FP32 CUDA-core rate",
        unsupported: REJECTED,
    },
    Algorithm {
        name: "dot_f64_f64_f64",
        gpu: Some((Unit::Fp64, 1)),
        tpu: None,
        why: "dot: algorithm dot_f64_f64_f64, at the fp64 tensor-core peak",
        unsupported: "dot: algorithm dot_f64_f64_f64 has no published TPU peak",
    },
];

const UNKNOWN_ELEMENT: &str =
    "dot: element type unknown to this model: no peak, left out of the compute time";
const UNKNOWN_PRECISION: &str =
    "dot: precision unknown to this model: no peak, left out of the compute time";
const UNKNOWN_ALGORITHM: &str =
    "dot: algorithm unknown to this model: no peak, left out of the compute time";
const NOTE_VECTOR: &str = "elementwise: flops outside dots at the vector f32 rate, whatever their \
     element type (packed 16-bit math can run faster: the H100 whitepaper's non-tensor BF16 \
     peak is 133.8 TFLOPS, twice its FP32 rate)";
const NOTE_NO_VECTOR: &str = "elementwise: flops outside dots are left out of the compute time: \
     the chip publishes no vector-unit rate";
const NOTE_TRANSCENDENTALS: &str = "transcendentals are not in the compute time";
const NOTE_MEMORY: &str = "memory: bytes over the HBM bandwidth";

/// The peak one dot runs at on `chip` (flop/s), and why; `None` where no
/// figure applies (the note says what is missing). The algorithm, when
/// set, decides; else the element type, and for f32 the precision and
/// the platform. Operands at different precisions take the lower one, so
/// the bound stays a lower bound.
pub fn matrix_peak(chip: &Chip, op: &MatrixOp) -> (Option<f64>, &'static str) {
    let (unit, passes, why) = match choose(chip.platform, op) {
        Ok(choice) => choice,
        Err(why) => return (None, why),
    };
    match unit.peak(chip) {
        Some(figure) => (Some(figure.value / f64::from(passes.max(1))), why),
        None => (None, unit.missing()),
    }
}

/// The unit, passes and note of one dot, or the note of why none applies.
fn choose(platform: Platform, op: &MatrixOp) -> Result<(Unit, u32, &'static str), &'static str> {
    if let Some(alg) = algorithm(op.algorithm)? {
        let entry = match platform {
            Platform::Gpu => alg.gpu,
            Platform::Tpu => alg.tpu,
        };
        return entry
            .map(|(unit, passes)| (unit, passes, alg.why))
            .ok_or(alg.unsupported);
    }
    let element = op.element.trim();
    let elem = ELEMENTS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(element))
        .map(|(_, elem)| *elem)
        .ok_or(UNKNOWN_ELEMENT)?;
    match elem {
        Elem::Direct(unit, why) => Ok((unit, 1, why)),
        Elem::NoPeak(why) => Err(why),
        Elem::F32 => {
            let precision = precision(op.precision)?;
            F32_RULES
                .iter()
                .find(|r| r.platform == platform && r.precision == precision)
                .map(|r| (r.unit, r.passes, r.why))
                .ok_or(UNKNOWN_PRECISION)
        }
    }
}

/// The algorithm row of a raw `algorithm=` value; `Ok(None)` when unset.
fn algorithm(raw: Option<&str>) -> Result<Option<&'static Algorithm>, &'static str> {
    let Some(raw) = raw else { return Ok(None) };
    let name = raw.trim().trim_matches('"').to_ascii_lowercase();
    let name = name.strip_prefix("alg_").unwrap_or(&name);
    if name.is_empty() || name == "unset" {
        return Ok(None);
    }
    ALGORITHMS
        .iter()
        .find(|a| a.name == name)
        .map(Some)
        .ok_or(UNKNOWN_ALGORITHM)
}

/// The lowest operand precision of a raw precision value; DEFAULT when
/// absent or empty.
fn precision(raw: Option<&str>) -> Result<Prec, &'static str> {
    let Some(raw) = raw else {
        return Ok(Prec::Default);
    };
    let mut lowest: Option<Prec> = None;
    for token in raw
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
    {
        let p = PRECISIONS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(token))
            .map(|(_, p)| *p)
            .ok_or(UNKNOWN_PRECISION)?;
        lowest = Some(lowest.map_or(p, |l| l.min(p)));
    }
    Ok(lowest.unwrap_or(Prec::Default))
}

/// A count as the model takes it: negative, NaN or infinite counts are 0.
fn clean(x: f64) -> f64 {
    if x.is_finite() && x > 0.0 { x } else { 0.0 }
}

/// Adds a note once.
fn note(notes: &mut Vec<&'static str>, n: &'static str) {
    if !notes.contains(&n) {
        notes.push(n);
    }
}

/// The roofline of one kernel on `chip` (see the module's rules).
pub fn roof(chip: &Chip, w: &Work) -> Roof {
    let mut notes = Vec::new();
    let mut matrix_flops = 0.0;
    let mut matrix_s = 0.0;
    for op in &w.matrix {
        let flops = clean(op.flops);
        matrix_flops += flops;
        let (rate, why) = matrix_peak(chip, op);
        note(&mut notes, why);
        if let Some(rate) = rate.filter(|r| *r > 0.0) {
            matrix_s += flops / rate;
        }
    }
    let flops = clean(w.flops);
    let other_flops = (flops - matrix_flops).max(0.0);
    let mut vector_s = 0.0;
    if other_flops > 0.0 {
        match chip.f32_vector.as_ref().filter(|f| f.value > 0.0) {
            Some(rate) => {
                note(&mut notes, NOTE_VECTOR);
                vector_s = other_flops / rate.value;
            }
            None => {
                note(&mut notes, NOTE_NO_VECTOR);
                note(&mut notes, chip.vector_note);
            }
        }
    }
    if clean(w.transcendentals) > 0.0 {
        note(&mut notes, NOTE_TRANSCENDENTALS);
    }
    let bytes = clean(w.bytes);
    let bandwidth = chip.hbm_bandwidth.value;
    let memory_s = if bandwidth > 0.0 {
        bytes / bandwidth
    } else {
        0.0
    };
    note(&mut notes, NOTE_MEMORY);
    let compute_s = matrix_s + vector_s;
    Roof {
        intensity: (bytes > 0.0).then(|| flops / bytes),
        bound: if compute_s > memory_s {
            Bound::Compute
        } else {
            Bound::Memory
        },
        lower_bound_s: compute_s.max(memory_s),
        compute_s,
        memory_s,
        notes,
    }
}
