//! Which reasons are true of a boundary, from the compiled dump alone.
//!
//! Each rule is a check XLA's fusion pass makes, evaluated on what the dump
//! shows. The pass decides a producer while it is still one instruction
//! (it visits consumers before their producers), which is the producing
//! kernel's root in the dump; so the rules read a fused kernel's root.
//! Rules run in the order XLA makes its checks ([`RULES`]), so the first
//! reason found is the one XLA would log first where the dump still shows
//! what XLA saw. A rule that cannot be sure says nothing: no reason is
//! then `unknown`, never a guess.

use super::reasons::Reason;
use crate::analysis::Backend;
use crate::program::{CallRole, CompId, InstrId, Instruction, Module};

/// The two sides of a boundary.
pub struct Pair<'m, 'a> {
    /// The module.
    pub m: &'m Module<'a>,
    /// The backend the module is compiled for, when known.
    pub backend: Option<Backend>,
    /// The producing kernel.
    pub producer: &'m Instruction<'a>,
    /// The consuming kernel.
    pub consumer: &'m Instruction<'a>,
    /// Which operand of the consumer.
    pub operand: usize,
}

/// A reason found, with what in the dump shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The reason.
    pub reason: Reason,
    /// What shows it, in a sentence.
    pub detail: String,
}

/// Which backends a rule is checked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    /// Every backend, and a dump whose backend is unknown: a fact of the
    /// dump that needs no pass's logic.
    All,
    /// The CPU: a check of its instruction fusion, whose log agrees with it
    /// on every CPU fixture (`tests/explain.rs`).
    Cpu,
    /// XLA:TPU: only what a Pallas kernel's own configuration states.
    Tpu,
    /// XLA:GPU: a check of its priority fusion, whose log agrees with it on
    /// the H100 fixtures.
    Gpu,
}

impl On {
    fn holds(self, b: Option<Backend>) -> bool {
        match self {
            On::All => true,
            On::Cpu => b == Some(Backend::Cpu),
            On::Tpu => b == Some(Backend::Tpu),
            On::Gpu => b == Some(Backend::Gpu),
        }
    }
}

/// One rule: the reason it finds, and its check.
pub struct Rule {
    /// The reason.
    pub reason: Reason,
    /// Where it holds.
    pub on: On,
    /// The check: a sentence when true.
    pub check: fn(&Pair<'_, '_>) -> Option<String>,
}

/// The rules, in the order XLA checks (a reason may have two rows).
pub const RULES: &[Rule] = &[
    Rule {
        reason: Reason::LayoutChange,
        on: On::All,
        check: layout_change,
    },
    Rule {
        reason: Reason::MemorySpace,
        on: On::All,
        check: memory_space,
    },
    Rule {
        reason: Reason::ConsumerNotFusible,
        on: On::Cpu,
        check: consumer_never_fused,
    },
    Rule {
        reason: Reason::NotDuplicable,
        on: On::Cpu,
        check: not_duplicable,
    },
    Rule {
        reason: Reason::ConsumerCustom,
        on: On::Cpu,
        check: consumer_custom,
    },
    Rule {
        reason: Reason::ProducerNotFusible,
        on: On::Cpu,
        check: producer_not_fusible,
    },
    Rule {
        reason: Reason::ProducerNotFusible,
        on: On::Gpu,
        check: producer_gpu,
    },
    Rule {
        reason: Reason::Recompute,
        on: On::Cpu,
        check: recompute,
    },
    Rule {
        reason: Reason::Duplication,
        on: On::Cpu,
        check: expensive_duplicated,
    },
    Rule {
        reason: Reason::ConsumerNotFusible,
        on: On::Cpu,
        check: consumer_not_fusible,
    },
    Rule {
        reason: Reason::ConsumerNotFusible,
        on: On::Tpu,
        check: consumer_mosaic,
    },
    Rule {
        reason: Reason::ConsumerNotFusible,
        on: On::Gpu,
        check: consumer_gpu,
    },
    Rule {
        reason: Reason::OwnKernel,
        on: On::All,
        check: own_kernel,
    },
];

/// Every reason true of a pair, in [`RULES`] order.
pub fn reasons(p: &Pair<'_, '_>) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    for r in RULES {
        if !r.on.holds(p.backend) || out.iter().any(|f| f.reason == r.reason) {
            continue;
        }
        if let Some(detail) = (r.check)(p) {
            out.push(Found {
                reason: r.reason,
                detail,
            });
        }
    }
    out
}

/// Elementwise opcodes (XLA's `IsElementwise` for plain ops).
pub const ELEMENTWISE: &[&str] = &[
    "abs",
    "add",
    "and",
    "atan2",
    "bitcast-convert",
    "cbrt",
    "ceil",
    "clamp",
    "clz",
    "compare",
    "complex",
    "convert",
    "copy",
    "cos",
    "divide",
    "erf",
    "exponential",
    "exponential-minus-one",
    "floor",
    "imag",
    "is-finite",
    "log",
    "log-plus-one",
    "logistic",
    "map",
    "maximum",
    "minimum",
    "multiply",
    "negate",
    "not",
    "or",
    "popcnt",
    "power",
    "real",
    "reduce-precision",
    "remainder",
    "round-nearest-afz",
    "round-nearest-even",
    "rsqrt",
    "select",
    "shift-left",
    "shift-right-arithmetic",
    "shift-right-logical",
    "sign",
    "sine",
    "sqrt",
    "stochastic-convert",
    "subtract",
    "tan",
    "tanh",
    "xor",
];

/// Ops the CPU's loop fusion takes besides elementwise ones
/// (`CanBeLoopFused` in `cpu_instruction_fusion.cc`).
pub const LOOP_FUSIBLE: &[&str] = &[
    "bitcast",
    "broadcast",
    "concatenate",
    "dynamic-slice",
    "dynamic-update-slice",
    "gather",
    "iota",
    "pad",
    "reduce",
    "reshape",
    "reverse",
    "slice",
    "transpose",
];

/// What XLA's `InstructionFusion::IsExpensive` (which XLA:CPU's fusion
/// uses unchanged) says of an opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expense {
    /// Expensive, or an op for which fusion is nonsensical.
    Always,
    /// Cheap for real numbers, expensive for complex ones.
    ComplexOnly,
    /// Expensive, unless an integer division by a constant scalar
    /// (compiled to multiplies and shifts).
    UnlessIntegerByConstant,
}

/// XLA's expensive opcodes, one row each (every opcode not listed is
/// cheap), as `IsExpensive` lists them.
pub const EXPENSIVE: &[(&str, Expense)] = &[
    ("abs", Expense::ComplexOnly),
    ("cosine", Expense::ComplexOnly),
    ("sign", Expense::ComplexOnly),
    ("sine", Expense::ComplexOnly),
    ("tan", Expense::ComplexOnly),
    ("divide", Expense::UnlessIntegerByConstant),
    ("remainder", Expense::UnlessIntegerByConstant),
    ("add-dependency", Expense::Always),
    ("after-all", Expense::Always),
    ("atan2", Expense::Always),
    ("async-start", Expense::Always),
    ("async-update", Expense::Always),
    ("async-done", Expense::Always),
    ("batch-norm-grad", Expense::Always),
    ("batch-norm-inference", Expense::Always),
    ("batch-norm-training", Expense::Always),
    ("call", Expense::Always),
    ("cholesky", Expense::Always),
    ("conditional", Expense::Always),
    ("convolution", Expense::Always),
    ("all-gather", Expense::Always),
    ("all-gather-start", Expense::Always),
    ("all-gather-done", Expense::Always),
    ("all-reduce", Expense::Always),
    ("reduce-scatter", Expense::Always),
    ("all-reduce-start", Expense::Always),
    ("all-reduce-done", Expense::Always),
    ("all-to-all", Expense::Always),
    ("collective-broadcast", Expense::Always),
    ("collective-permute", Expense::Always),
    ("collective-permute-done", Expense::Always),
    ("collective-permute-start", Expense::Always),
    ("custom-call", Expense::Always),
    ("domain", Expense::Always),
    ("dot", Expense::Always),
    ("erf", Expense::Always),
    ("exponential", Expense::Always),
    ("exponential-minus-one", Expense::Always),
    ("fft", Expense::Always),
    ("fusion", Expense::Always),
    ("gather", Expense::Always),
    ("log", Expense::Always),
    ("log-plus-one", Expense::Always),
    ("logistic", Expense::Always),
    ("map", Expense::Always),
    ("parameter", Expense::Always),
    ("power", Expense::Always),
    ("ragged-all-to-all", Expense::Always),
    ("ragged-dot", Expense::Always),
    ("recv", Expense::Always),
    ("recv-done", Expense::Always),
    ("reduce", Expense::Always),
    ("reduce-window", Expense::Always),
    ("rng", Expense::Always),
    ("rng-get-and-update-state", Expense::Always),
    ("rng-bit-generator", Expense::Always),
    ("rsqrt", Expense::Always),
    ("scatter", Expense::Always),
    ("select-and-scatter", Expense::Always),
    ("send", Expense::Always),
    ("send-done", Expense::Always),
    ("sort", Expense::Always),
    ("topk", Expense::Always),
    ("sqrt", Expense::Always),
    ("cbrt", Expense::Always),
    ("tanh", Expense::Always),
    ("triangular-solve", Expense::Always),
    ("while", Expense::Always),
    ("get-dimension-size", Expense::Always),
    ("set-dimension-size", Expense::Always),
];

/// Whether XLA counts `ins` as expensive; `None` where the text cannot
/// tell (an integer division whose divisor is not visible as a constant).
pub fn is_expensive(m: &Module<'_>, ins: &Instruction<'_>) -> Option<bool> {
    let Some(&(_, expense)) = EXPENSIVE.iter().find(|(op, _)| *op == ins.opcode) else {
        return Some(false);
    };
    let element = || match crate::program::Shape::parse(ins.shape_text) {
        crate::program::Shape::Array(a) => Some(a.element),
        _ => None,
    };
    match expense {
        Expense::Always => Some(true),
        Expense::ComplexOnly => element().map(|e| e.starts_with('c')),
        Expense::UnlessIntegerByConstant => {
            let e = element()?;
            if !e.starts_with(['s', 'u']) {
                return Some(true);
            }
            // The divisor, through one broadcast, a constant scalar: cheap.
            let divisor = m
                .operands(ins)
                .get(1)?
                .id
                .and_then(|id| m.instruction(id))?;
            let scalar =
                |x: &Instruction<'_>| x.opcode == "constant" && true_rank(x.shape_text) == Some(0);
            let inner = (divisor.opcode == "broadcast")
                .then(|| {
                    m.operands(divisor)
                        .first()?
                        .id
                        .and_then(|id| m.instruction(id))
                })
                .flatten();
            if scalar(divisor) || inner.is_some_and(scalar) {
                Some(false)
            } else if divisor.opcode == "parameter" && in_fusion(m, divisor) {
                // Inside a fused computation: the divisor is outside.
                None
            } else {
                Some(true)
            }
        }
    }
}

/// Whether `ins` is in a computation a fusion calls.
fn in_fusion(m: &Module<'_>, ins: &Instruction<'_>) -> bool {
    let c = ins.computation.and_then(|c| m.computation(c));
    c.is_some_and(|c| {
        c.callers
            .iter()
            .any(|&id| m.instruction(id).is_some_and(|x| x.opcode == "fusion"))
    })
}

/// Ops XLA's instruction fusion never considers as a consumer: `Run`
/// skips an instruction that `IsFusible` rejects (a fusion aside) before
/// looking at any of its operands.
pub const NEVER_CONSUMERS: &[&str] = &["domain", "parameter", "while", "conditional", "call"];

/// Ops that run as their own kernel, never inside a fusion.
pub const OWN_KERNEL: &[&str] = &[
    "while",
    "conditional",
    "call",
    "sort",
    "all-reduce",
    "all-reduce-start",
    "all-gather",
    "all-gather-start",
    "reduce-scatter",
    "reduce-scatter-start",
    "all-to-all",
    "all-to-all-start",
    "ragged-all-to-all",
    "collective-broadcast",
    "collective-broadcast-start",
    "collective-permute",
    "collective-permute-start",
    "send",
    "recv",
    "infeed",
    "outfeed",
    "async-start",
    "rng",
    "rng-bit-generator",
];

/// A fusion's called computation.
fn fused_computation(m: &Module<'_>, ins: &Instruction<'_>) -> Option<CompId> {
    if ins.opcode != "fusion" {
        return None;
    }
    m.calls(ins)
        .iter()
        .find(|c| c.role == CallRole::Calls)
        .and_then(|c| c.id)
}

/// The op a kernel is decided as: a fusion's root op, or itself.
fn root_op<'a>(m: &Module<'a>, ins: &Instruction<'a>) -> Option<&'a str> {
    match fused_computation(m, ins) {
        Some(c) => {
            let root = m.computation(c)?.root?;
            Some(m.instruction(root)?.opcode)
        }
        None if ins.opcode == "fusion" => None,
        None => Some(ins.opcode),
    }
}

fn is_custom_fusion(ins: &Instruction<'_>) -> bool {
    ins.opcode == "fusion" && ins.fusion_kind() == Some("kCustom")
}

fn what(ins: &Instruction<'_>) -> String {
    match (
        ins.opcode,
        ins.fusion_kind(),
        ins.config_kind(),
        ins.custom_call_target(),
    ) {
        ("fusion", Some(k), Some(c), _) => format!("{} (a {k} {c} fusion)", ins.name),
        ("fusion", Some(k), None, _) => format!("{} (a {k} fusion)", ins.name),
        ("custom-call", _, _, Some(t)) => format!("{} (a custom call to {t})", ins.name),
        (op, ..) => format!("{} ({} {op})", ins.name, a(op)),
    }
}

fn layout_change(p: &Pair<'_, '_>) -> Option<String> {
    let side = [p.producer, p.consumer]
        .into_iter()
        .find(|i| matches!(i.opcode, "copy" | "transpose" | "copy-start"))?;
    let from = operand_shape(p.m, side, 0).and_then(layout_text);
    let to = layout_text(side.shape_text);
    match (side.opcode, from, to) {
        ("transpose", ..) => Some(format!("{} is a transpose", what(side))),
        (_, Some(a), Some(b)) if without_memory_space(a) != without_memory_space(b) => Some(
            format!("{} rewrites the array from layout {a} to {b}", side.name),
        ),
        _ => None,
    }
}

/// Operand `i`'s shape: as printed beside it, or its instruction's.
pub fn operand_shape<'a>(m: &Module<'a>, ins: &Instruction<'_>, i: usize) -> Option<&'a str> {
    let o = m.operands(ins).get(i)?;
    o.shape
        .or_else(|| o.id.and_then(|id| m.instruction(id)).map(|x| x.shape_text))
}

/// A layout without its memory space (`{1,0:T(8,128)S(1)}` -> `{1,0:T(8,128)}`).
pub fn without_memory_space(l: &str) -> String {
    match l.find("S(") {
        Some(at) => {
            let end = l[at..].find(')').map_or(l.len(), |e| at + e + 1);
            format!("{}{}", &l[..at], &l[end..])
        }
        None => l.to_owned(),
    }
}

/// An array shape's layout as printed (`{1,0}`).
pub fn layout_text(shape: &str) -> Option<&str> {
    match crate::program::Shape::parse(shape) {
        crate::program::Shape::Array(a) => a.layout.map(|l| l.text),
        _ => None,
    }
}

fn memory_space(p: &Pair<'_, '_>) -> Option<String> {
    let side = [p.producer, p.consumer]
        .into_iter()
        .find(|i| matches!(i.opcode, "copy" | "copy-start"))?;
    let space = |s: &str| match crate::program::Shape::parse(s).first_part() {
        crate::program::Shape::Array(a) => Some(a.memory_space().unwrap_or(0)),
        _ => None,
    };
    let from = space(operand_shape(p.m, side, 0)?)?;
    let to = space(side.shape_text)?;
    (from != to).then(|| {
        format!(
            "{} moves the array from memory space S({from}) to S({to}) (S(0) is the device's main memory)",
            what(side)
        )
    })
}

/// Ops XLA:GPU's priority fusion may fuse besides elementwise ones and
/// fusions that are not custom (`IsFusible` in `priority_fusion.cc`).
pub const GPU_FUSIBLE: &[&str] = &[
    "copy",
    "iota",
    "constant",
    "reduce",
    "bitcast",
    "broadcast",
    "concatenate",
    "dynamic-slice",
    "dynamic-update-slice",
    "gather",
    "pad",
    "reduce-window",
    "reshape",
    "reverse",
    "scatter",
    "slice",
    "transpose",
];

/// Why priority fusion's `IsFusible` is false for a kernel, if it is.
fn gpu_not_fusible(ins: &Instruction<'_>) -> Option<String> {
    if ins.opcode == "fusion" {
        // A Triton block-level fusion (`__triton`) is made after priority
        // fusion from a fusion it could fuse: nothing to say of it.
        let made_before = is_custom_fusion(ins) && ins.config_kind() != Some("__triton");
        return made_before.then(|| format!("{} is a custom fusion", what(ins)));
    }
    let fusible = ELEMENTWISE.contains(&ins.opcode) || GPU_FUSIBLE.contains(&ins.opcode);
    (!fusible).then(|| format!("{} is no op priority fusion fuses", what(ins)))
}

fn producer_gpu(p: &Pair<'_, '_>) -> Option<String> {
    gpu_not_fusible(p.producer)
        .map(|w| format!("the producer {w}: priority fusion does not fuse it into a consumer"))
}

fn consumer_gpu(p: &Pair<'_, '_>) -> Option<String> {
    gpu_not_fusible(p.consumer)
        .map(|w| format!("the consumer {w}: priority fusion fuses no producer into it"))
}

fn consumer_mosaic(p: &Pair<'_, '_>) -> Option<String> {
    // A Pallas TPU kernel (`tpu_custom_call`) takes a producer in only
    // where its `allow_input_fusion` names the operand.
    let c = p.consumer;
    if c.opcode != "custom-call" || c.custom_call_target() != Some("tpu_custom_call") {
        return None;
    }
    match c.backend_config().and_then(|b| input_fusion(b, p.operand)) {
        Some(false) => Some(format!(
            "the consumer {} is a Pallas TPU kernel whose allow_input_fusion does not name operand {}: XLA fuses nothing into it there",
            what(c),
            p.operand
        )),
        _ => None,
    }
}

/// Whether a Mosaic kernel's `"allow_input_fusion":[...]` lets XLA fuse
/// into operand `i` (`None`: the list cannot be read).
pub fn input_fusion(config: &str, i: usize) -> Option<bool> {
    let key = "\"allow_input_fusion\":[";
    let at = config.find(key)? + key.len();
    let end = at + config.get(at..)?.find(']')?;
    let list = config.get(at..end)?.trim();
    if list.is_empty() {
        return Some(false);
    }
    Some(list.split(',').nth(i).is_some_and(|v| v.trim() == "true"))
}

fn own_kernel(p: &Pair<'_, '_>) -> Option<String> {
    let side = [p.producer, p.consumer]
        .into_iter()
        .find(|i| OWN_KERNEL.contains(&i.opcode))?;
    Some(format!("{} runs on its own", what(side)))
}

fn consumer_custom(p: &Pair<'_, '_>) -> Option<String> {
    is_custom_fusion(p.consumer)
        .then(|| format!("the consumer {} is a custom fusion", what(p.consumer)))
}

/// The instruction the pass decided on: a custom fusion (made before the
/// pass) or an unfused op is itself; a fusion the pass made is its root.
pub(super) fn decided<'m, 'a>(
    m: &'m Module<'a>,
    ins: &'m Instruction<'a>,
) -> Option<&'m Instruction<'a>> {
    if ins.opcode != "fusion" || is_custom_fusion(ins) {
        return Some(ins);
    }
    let c = fused_computation(m, ins)?;
    m.instruction(m.computation(c)?.root?)
}

/// Dimensions of more than one element (XLA's `TrueRank`).
fn true_rank(shape: &str) -> Option<usize> {
    match crate::program::Shape::parse(shape) {
        crate::program::Shape::Array(a) => Some(
            a.dims
                .iter()
                .filter(|d| !matches!(d, crate::program::Dim::Static(1)))
                .count(),
        ),
        _ => None,
    }
}

/// For `operand`, a parameter of the fused computation whose root is
/// `root`, the fusion `fusion`'s operand it stands for, and its shape.
fn outer_of_param<'a>(
    m: &Module<'a>,
    fusion: &Instruction<'a>,
    root: &Instruction<'a>,
    operand: Option<InstrId>,
) -> Option<(Option<InstrId>, &'a str)> {
    if root.id == fusion.id {
        return None;
    }
    let param = m.instruction(operand?)?;
    let n = param
        .parameter_number()
        .filter(|_| param.opcode == "parameter")?;
    let outer = m.operands(fusion).get(n as usize)?;
    Some((outer.id, operand_shape(m, fusion, n as usize)?))
}

fn not_duplicable(p: &Pair<'_, '_>) -> Option<String> {
    // XLA's `ComputeGloballyUnfusible`: a producer that is more than unary
    // (two operands at least of its own rank, broadcasts, iotas and scalar
    // constants aside) and reads more elements than it writes is kept whole
    // unless it can go into every user, and it could not go into this one.
    let m = p.m;
    let d = decided(m, p.producer)?;
    let out_rank = true_rank(d.shape_text)?;
    let mut wide = 0;
    let mut read = 0u64;
    let mut seen: Vec<Option<InstrId>> = Vec::new();
    for (i, o) in m.operands(d).iter().enumerate() {
        // A fused parameter stands for the fusion's operand: the
        // instruction the pass saw (a scalar constant there counts for
        // nothing, as XLA's `EffectivelyAtMostUnary` has it).
        let (o, shape) = match outer_of_param(m, p.producer, d, o.id) {
            Some((id, shape)) => (id, shape),
            None => (o.id, operand_shape(m, d, i)?),
        };
        // XLA counts each distinct operand's elements once.
        if !seen.contains(&o) {
            seen.push(o);
            read = read.saturating_add(elements(shape)?);
        }
        let op = o.and_then(|id| m.instruction(id)).map(|x| x.opcode);
        let scalar_constant = op == Some("constant") && true_rank(shape) == Some(0);
        if !matches!(op, Some("broadcast" | "iota"))
            && !scalar_constant
            && true_rank(shape)? >= out_rank
        {
            wide += 1;
        }
    }
    let written = elements(d.shape_text)?;
    let inside = if d.id == p.producer.id {
        String::new()
    } else {
        format!(" (the root of {})", p.producer.name)
    };
    (wide >= 2 && read > written).then(|| {
        format!(
            "{}{inside} reads {wide} arrays of its rank ({read} elements) to write {written}: XLA does not duplicate such a producer and fuses it only where it can go into every user",
            d.name
        )
    })
}

/// The elements of a shape (a tuple's arrays summed; a bounded dimension
/// at its bound).
fn elements(shape: &str) -> Option<u64> {
    let parsed = crate::program::Shape::parse(shape);
    let mut total = 0u64;
    for a in parsed.arrays() {
        let mut n = 1u64;
        for d in &a.dims {
            n = n.checked_mul(match d {
                crate::program::Dim::Static(k) | crate::program::Dim::Bounded(k) => *k,
                crate::program::Dim::Unknown => return None,
            })?;
        }
        total = total.checked_add(n)?;
    }
    Some(total)
}

/// `a` or `an` before a word.
fn a(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn expensive_duplicated(p: &Pair<'_, '_>) -> Option<String> {
    // XLA:CPU returns "not loop-fusible" before this check.
    if producer_not_fusible(p).is_some() {
        return None;
    }
    let d = decided(p.m, p.producer)?;
    let root = d.opcode;
    let users = p.m.users(p.producer).len();
    (is_expensive(p.m, d)? && users >= 2).then(|| {
        format!(
            "{}'s result comes from {} {root} and is read by {users} instructions: fusing it would compute it again in each",
            p.producer.name,
            a(root)
        )
    })
}

fn producer_not_fusible(p: &Pair<'_, '_>) -> Option<String> {
    let ins = p.producer;
    if is_custom_fusion(ins) {
        return Some(format!("the producer {} is a custom fusion", what(ins)));
    }
    if ins.opcode == "custom-call" {
        return Some(format!("the producer {} is a custom call", what(ins)));
    }
    let root = root_op(p.m, ins)?;
    if ELEMENTWISE.contains(&root) || LOOP_FUSIBLE.contains(&root) {
        return None;
    }
    Some(match ins.opcode {
        "fusion" => format!("the producer {}'s root is {} {root}", ins.name, a(root)),
        _ => format!("the producer {} is {} {root}", ins.name, a(root)),
    })
}

fn recompute(p: &Pair<'_, '_>) -> Option<String> {
    // XLA:CPU returns "not loop-fusible" before this check.
    if producer_not_fusible(p).is_some() {
        return None;
    }
    let d = decided(p.m, p.producer)?;
    let root = d.opcode;
    if !is_expensive(p.m, d)? {
        return None;
    }
    let reuse = reused_by(p.m, p.consumer, p.operand)?;
    if crate::program::collective_op(reuse).is_some() {
        // A collective reads each element once; XLA still counts it as
        // reusing them, as it counts every op not elementwise.
        return Some(format!(
            "{}'s result comes from {} {root}, and XLA counts {} ({} {reuse}, not elementwise) as reusing its elements",
            p.producer.name,
            a(root),
            p.consumer.name,
            a(reuse)
        ));
    }
    Some(format!(
        "{}'s result comes from {} {root}, and {} reads each element many times ({} {reuse})",
        p.producer.name,
        a(root),
        p.consumer.name,
        a(reuse)
    ))
}

/// The op in a consumer that reads operand `i`'s elements many times.
fn reused_by<'a>(m: &Module<'a>, consumer: &Instruction<'a>, i: usize) -> Option<&'a str> {
    // XLA's `OperandElementUse` gives `kReuse` to every op it does not
    // list as elementwise or permuting, collectives included: an expensive
    // producer of an all-gather is "not profitable" to fuse on the CPU
    // (sharded_reshard's fusion log).
    let reuses = |op: &str| {
        matches!(
            op,
            "broadcast" | "gather" | "dot" | "convolution" | "reduce-window"
        ) || crate::program::collective_op(op).is_some()
    };
    let Some(c) = fused_computation(m, consumer) else {
        return reuses(consumer.opcode).then_some(consumer.opcode);
    };
    let param = m
        .instructions_of(c)
        .iter()
        .find(|x| x.opcode == "parameter" && x.parameter_number() == u32::try_from(i).ok())?;
    m.users(param)
        .iter()
        .filter_map(|&u| m.instruction(u))
        .find(|u| reuses(u.opcode) && !scalar(u, m))
        .map(|u| u.opcode)
}

/// A broadcast of a scalar reuses nothing worth a kernel.
fn scalar(u: &Instruction<'_>, m: &Module<'_>) -> bool {
    u.opcode == "broadcast" && operand_shape(m, u, 0).is_some_and(|s| s.contains("[]"))
}

fn consumer_never_fused(p: &Pair<'_, '_>) -> Option<String> {
    let ins = p.consumer;
    NEVER_CONSUMERS.contains(&ins.opcode).then(|| {
        format!(
            "the consumer {} is never fused: XLA's instruction fusion skips it before looking at its operands",
            what(ins)
        )
    })
}

fn consumer_not_fusible(p: &Pair<'_, '_>) -> Option<String> {
    let ins = p.consumer;
    if ins.opcode == "fusion" {
        return (ins.fusion_kind() != Some("kLoop") && !is_custom_fusion(ins))
            .then(|| format!("the consumer {} is no loop fusion", what(ins)));
    }
    (!ELEMENTWISE.contains(&ins.opcode) && !LOOP_FUSIBLE.contains(&ins.opcode))
        .then(|| format!("the consumer {} is not loop-fusible", what(ins)))
}

/// An instruction by id, for the callers that hold ids.
pub fn pair<'m, 'a>(
    m: &'m Module<'a>,
    backend: Option<Backend>,
    producer: InstrId,
    consumer: InstrId,
    operand: usize,
) -> Option<Pair<'m, 'a>> {
    Some(Pair {
        m,
        backend,
        producer: m.instruction(producer)?,
        consumer: m.instruction(consumer)?,
        operand,
    })
}

#[cfg(test)]
mod tests {
    /// `is_expensive` as XLA's `IsExpensive` answers, on real lines:
    /// python_loop_unrolled's CPU `sine` (cheap for reals), sharded_callback's
    /// CPU `reduce`, and an integer division by a broadcast constant
    /// (compiled to multiplies and shifts) against one by a variable.
    #[test]
    fn expensive_as_xla_counts() {
        let text = r#"ENTRY %main (p: f32[256,256], q: f32[2,4], i: s32[8], j: s32[8]) -> f32[256,256] {
  %param_0.4 = f32[256,256]{1,0} parameter(0)
  %sin.3 = f32[256,256]{1,0} sine(%param_0.4), metadata={op_name="jit(fn)/sin" stack_frame_id=1}
  %param = f32[2,4]{1,0} parameter(1)
  %constant.0.clone = f32[] constant(0)
  %reduce = f32[2]{0} reduce(%param, %constant.0.clone), dimensions={1}, to_apply=%region_0.0, metadata={op_name="jit(fn)/reduce_sum" stack_frame_id=1}
  %i = s32[8]{0} parameter(2)
  %j = s32[8]{0} parameter(3)
  %c = s32[] constant(3)
  %b = s32[8]{0} broadcast(%c), dimensions={}
  %by_constant = s32[8]{0} divide(%i, %b)
  %by_variable = s32[8]{0} divide(%i, %j)
  %float = f32[256,256]{1,0} divide(%sin.3, %sin.3)
  ROOT %t = f32[256,256]{1,0} add(%sin.3, %float)
}
"#;
        let m = crate::program::parse(text);
        let check = |name: &str, expect: Option<bool>| {
            let ins = m.instructions.iter().find(|i| i.name == name);
            assert_eq!(
                ins.map(|i| super::is_expensive(&m, i)),
                Some(expect),
                "{name}"
            );
        };
        check("sin.3", Some(false));
        check("reduce", Some(true));
        check("by_constant", Some(false));
        check("by_variable", Some(true));
        check("float", Some(true));
        check("t", Some(false));
    }

    /// Every collective that starts work (a synchronous one, a pair's
    /// start, `send`, `recv`) is in [`super::OWN_KERNEL`]: one missing would
    /// silently get no reason.
    #[test]
    fn every_collective_runs_on_its_own() {
        for op in crate::program::COLLECTIVE_OPS {
            // XLA prints no `ragged-all-to-all-start`: an asynchronous one
            // is wrapped in `async-start`.
            let forms = if op.split || op.opcode == "ragged-all-to-all" {
                vec![op.opcode.to_owned()]
            } else {
                vec![op.opcode.to_owned(), format!("{}-start", op.opcode)]
            };
            for f in forms {
                assert!(
                    super::OWN_KERNEL.contains(&f.as_str()),
                    "OWN_KERNEL lacks `{f}`"
                );
            }
        }
    }
}
