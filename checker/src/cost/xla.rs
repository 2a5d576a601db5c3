//! XLA's generic cost model (`HloCostAnalysis`) on the program model: the
//! figures of each instruction, computation and module as
//! `hlo_module_cost_analysis` computes them (the oracle test checks every
//! compiled fixture and drift dump against the pinned jaxlib).
//!
//! How each opcode is costed is the rule table ([`super::rules`]); the
//! rules that need shapes or called computations are the methods here.
//! A computation's figures are the sum of its instructions', computed once
//! and kept; a called computation is followed at most [`MAX_DEPTH`] deep
//! and never around a cycle (an instruction past either is not costed and
//! counts as unread).

use super::conv;
use super::costs::Costs;
use super::figures::{Figure, Figures};
use super::rules::{self, Rule};
use super::size::{self, Size};
use crate::program::{Array, CallRole, CompId, InstrId, Instruction, Module, Shape};

/// How deep called computations are followed.
pub const MAX_DEPTH: usize = 64;

/// What is known of a computation's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Done {
    /// Not computed yet.
    No,
    /// Being computed (a cycle, if reached again).
    Busy,
    /// Computed: its figures and how many instructions could not be read.
    Yes(Figures, u64),
}

/// The cost model of one module.
pub struct Xla<'m, 'a> {
    m: &'m Module<'a>,
    sizes: Vec<Option<Size>>,
    comps: Vec<Done>,
    rules: rules::Index,
    depth: usize,
    /// Instructions whose figures could not be computed (an unread shape,
    /// an operand not found, a computation past the depth or in a cycle).
    pub unread: u64,
}

impl<'m, 'a> Xla<'m, 'a> {
    /// The model of a module.
    pub fn new(m: &'m Module<'a>) -> Self {
        Xla {
            m,
            sizes: vec![None; m.instructions.len()],
            comps: vec![Done::No; m.computations.len()],
            rules: rules::index(),
            depth: 0,
            unread: 0,
        }
    }

    /// The module's figures: its entry computation's (zero without one).
    pub fn totals(&mut self) -> Figures {
        match self.m.entry {
            Some(e) => self.computation(e).0,
            None => Figures::default(),
        }
    }

    /// A computation's figures and the instructions of it (and of what it
    /// calls) that could not be read.
    pub fn computation(&mut self, c: CompId) -> (Figures, u64) {
        match self.comps.get(c as usize).copied() {
            Some(Done::Yes(f, u)) => return (f, u),
            Some(Done::No) if self.depth < MAX_DEPTH => {}
            _ => {
                self.unread += 1;
                return (Figures::default(), 1);
            }
        }
        self.set(c, Done::Busy);
        self.depth += 1;
        let before = self.unread;
        let mut sum = Figures::default();
        let ids = self.m.computation(c).map_or(0..0, |c| c.instruction_ids());
        for id in ids {
            sum += self.instruction(id);
        }
        self.depth -= 1;
        let unread = self.unread - before;
        self.set(c, Done::Yes(sum, unread));
        (sum, unread)
    }

    fn set(&mut self, c: CompId, d: Done) {
        if let Some(s) = self.comps.get_mut(c as usize) {
            *s = d;
        }
    }

    /// One instruction's figures, as XLA's handler for its opcode gives them.
    pub fn instruction(&mut self, id: InstrId) -> Figures {
        let m = self.m;
        let Some(ins) = m.instruction(id) else {
            return Figures::default();
        };
        let rule = self.rule(ins.opcode);
        let before = self.unread;
        let f = self.apply(rule, ins);
        f.unwrap_or_else(|| {
            self.unread = before + 1;
            Figures::default()
        })
    }

    fn apply(&mut self, rule: Rule, ins: &Instruction<'a>) -> Option<Figures> {
        let out = self.size(ins.id)?;
        Some(match rule {
            Rule::Free => Figures::default(),
            Rule::Default => self.default_bytes(ins)?,
            Rule::Elementwise => with_flops(self.default_bytes(ins)?, out.elements? as f64),
            Rule::Transcendental => Figures {
                transcendentals: Figure::of(out.elements? as f64),
                ..self.default_bytes(ins)?
            },
            Rule::Tuple => bytes(out.bytes? as f64),
            Rule::Slice => bytes(2.0 * out.bytes? as f64),
            Rule::SliceStart => bytes(2.0 * slice_start_result(&ins.shape())?.bytes()? as f64),
            Rule::AsyncCollective => {
                let mut total = async_result(&ins.shape())?.bytes()?;
                for i in 0..self.m.operands(ins).len() {
                    total += self.operand_size(ins, i)?.bytes?;
                }
                bytes(total as f64)
            }
            Rule::DynamicSlice => {
                bytes((2 * out.bytes? + self.operand_size(ins, 1)?.bytes?) as f64)
            }
            Rule::DynamicUpdateSlice => {
                let update = self.operand_size(ins, 1)?.bytes?;
                bytes((2 * update + self.operand_size(ins, 2)?.bytes?) as f64)
            }
            Rule::Transpose if self.transpose_is_bitcast(ins)? => Figures::default(),
            Rule::Transpose => self.default_bytes(ins)?,
            Rule::Dot => with_flops(self.default_bytes(ins)?, self.dot_flops(ins)?),
            Rule::Convolution => {
                let f = conv::flops(self.m, ins, |i| self.operand_shape(ins, i))?;
                with_flops(self.default_bytes(ins)?, f)
            }
            Rule::Fft => with_flops(self.default_bytes(ins)?, self.fft_flops(ins)?),
            Rule::TriangularSolve => self.triangular_solve(ins)?,
            Rule::Cholesky => self.cholesky(ins)?,
            Rule::AllReduce => self.all_reduce(ins)?,
            Rule::Rng => Figures {
                transcendentals: Figure::of(out.elements? as f64),
                ..self.default_bytes(ins)?
            },
            Rule::RngBitGenerator => Figures {
                transcendentals: Figure::of(size::elements_recursive(&ins.shape())? as f64),
                ..self.default_bytes(ins)?
            },
            Rule::Sort => {
                let n = self.operand_size(ins, 0)?.elements?;
                with_flops(self.default_bytes(ins)?, (n * log2_ceil(n)) as f64)
            }
            Rule::Reduce => self.reduce(ins)?,
            Rule::ReduceWindow => self.reduce_window(ins)?,
            Rule::Map => {
                let sub = self.called(ins, CallRole::ToApply)?;
                let n = out.elements? as f64;
                Figures {
                    bytes: self.default_bytes(ins)?.bytes,
                    ..sub.applied(n)
                }
            }
            Rule::SelectAndScatter => self.select_and_scatter(ins)?,
            Rule::Gather => self.gather(ins)?,
            Rule::Scatter => self.scatter(ins)?,
            Rule::Fusion => self.fusion(ins)?,
            Rule::Call => self.called_any(ins)?,
            Rule::AsyncStart => self.called_any(ins)?,
            Rule::While => {
                self.called(ins, CallRole::Body)? + self.called(ins, CallRole::Condition)?
            }
            Rule::Conditional => self.conditional(ins)?,
            Rule::CustomCall => Figures {
                flops: Figure::unknown(),
                transcendentals: Figure::default(),
                bytes: Figure::unknown(),
            },
        })
    }

    /// How XLA costs an opcode (its row of the rule table).
    pub fn rule(&self, opcode: &str) -> Rule {
        rules::lookup(&self.rules, opcode)
    }

    /// The size of an instruction's shape (kept once computed).
    pub fn size(&mut self, id: InstrId) -> Option<Size> {
        if let Some(s) = self.sizes.get(id as usize).copied().flatten() {
            return Some(s);
        }
        let s = size::of_text(self.m.instruction(id)?.shape_text);
        s.bytes?;
        if let Some(slot) = self.sizes.get_mut(id as usize) {
            *slot = Some(s);
        }
        Some(s)
    }

    /// Bytes of an instruction's output as XLA counts them by default: the
    /// arrays of a tuple (not its index table).
    fn output_bytes(&mut self, ins: &Instruction<'a>) -> Option<u64> {
        if ins.shape_text.trim_start().starts_with('(') {
            size::leaf_bytes(&ins.shape())
        } else {
            self.size(ins.id)?.bytes
        }
    }

    /// The operand's shape: its instruction's, or as printed before its name.
    pub fn operand_shape(&self, ins: &Instruction<'a>, i: usize) -> Option<Shape<'a>> {
        let op = self.m.operands(ins).get(i)?;
        match op.id {
            Some(id) => Some(self.m.instruction(id)?.shape()),
            None => op.shape.map(Shape::parse),
        }
    }

    fn operand_size(&mut self, ins: &Instruction<'a>, i: usize) -> Option<Size> {
        let op = *self.m.operands(ins).get(i)?;
        match op.id {
            Some(id) => self.size(id),
            None => Some(size::of(&Shape::parse(op.shape?))).filter(|s| s.bytes.is_some()),
        }
    }

    /// XLA's default (`Preprocess`): every operand and the output.
    fn default_bytes(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let mut total = self.output_bytes(ins)?;
        for i in 0..self.m.operands(ins).len() {
            total += self.operand_size(ins, i)?.bytes?;
        }
        Some(bytes(total as f64))
    }

    /// The figures of the computation an instruction calls in a role.
    fn called(&mut self, ins: &Instruction<'a>, role: CallRole) -> Option<Figures> {
        let c = self.m.calls(ins).iter().find(|c| c.role == role)?.id?;
        let (f, unread) = self.computation(c);
        (unread == 0).then_some(f)
    }

    /// The figures of the first computation an instruction calls.
    fn called_any(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let c = self.m.calls(ins).first()?.id?;
        let (f, unread) = self.computation(c);
        (unread == 0).then_some(f)
    }

    fn transpose_is_bitcast(&mut self, ins: &Instruction<'a>) -> Option<bool> {
        let dims = size::int_list(self.m.attr(ins, "dimensions")?)?;
        let out = minor_to_major(&ins.shape())?;
        let input = minor_to_major(&self.operand_shape(ins, 0)?)?;
        let composed: Option<Vec<u64>> =
            out.iter().map(|&o| dims.get(o as usize).copied()).collect();
        Some(composed? == input)
    }

    fn dot_flops(&mut self, ins: &Instruction<'a>) -> Option<f64> {
        let lhs = self.operand_shape(ins, 0)?;
        let Shape::Array(a) = lhs else { return None };
        let mut width = 1u64;
        for d in size::int_list(self.m.attr(ins, "lhs_contracting_dims").unwrap_or("{}"))? {
            width = width.checked_mul(size::dim(&a, d)?)?;
        }
        let n = self.size(ins.id)?.elements?;
        Some(2.0 * n as f64 * width as f64)
    }

    fn fft_flops(&mut self, ins: &Instruction<'a>) -> Option<f64> {
        let input = self.operand_shape(ins, 0)?;
        let real = match &input {
            Shape::Tuple(parts, _) => parts.first()?.clone(),
            s => s.clone(),
        };
        let Shape::Array(a) = real else { return None };
        let mut logs = 1u64;
        for n in size::int_list(self.m.attr(ins, "fft_length")?)? {
            logs = logs.checked_mul(u64::from(n.checked_ilog2()?))?;
        }
        Some(2.0 * 4.0 * logs as f64 * size::elements(&a)? as f64)
    }

    fn triangular_solve(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let a = self.operand_size(ins, 0)?.bytes? as f64;
        let b = self.operand_size(ins, 1)?.bytes? as f64;
        let out = self.size(ins.id)?.bytes? as f64;
        let Shape::Array(sa) = self.operand_shape(ins, 0)? else {
            return None;
        };
        let last = *sa.dims.last()?;
        let last = match last {
            crate::program::Dim::Static(n) | crate::program::Dim::Bounded(n) => n,
            crate::program::Dim::Unknown => return None,
        };
        let nb = self.operand_size(ins, 1)?.elements?;
        Some(Figures {
            flops: Figure::of(2.0 * (last * nb) as f64),
            bytes: Figure::of(out + a / 2.0 + b),
            ..Figures::default()
        })
    }

    fn cholesky(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let a = self.operand_size(ins, 0)?;
        let Shape::Array(sa) = self.operand_shape(ins, 0)? else {
            return None;
        };
        let n = match sa.dims.last()? {
            crate::program::Dim::Static(n) | crate::program::Dim::Bounded(n) => *n,
            crate::program::Dim::Unknown => return None,
        };
        Some(Figures {
            flops: Figure::of((n * a.elements? / 3) as f64),
            bytes: Figure::of(a.bytes? as f64),
            ..Figures::default()
        })
    }

    fn all_reduce(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let shape = ins.shape();
        let mut flops = 0u64;
        let mut out = 0u64;
        for a in shape.arrays() {
            flops += size::elements(a)?;
            out += size::of(&Shape::Array(a.clone())).bytes?;
        }
        let mut total = out;
        for i in 0..self.m.operands(ins).len() {
            total += self.operand_size(ins, i)?.bytes?;
        }
        Some(with_flops(bytes(total as f64), flops as f64))
    }

    fn reduce(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let sub = self.called(ins, CallRole::ToApply)?;
        let input = self.operand_size(ins, 0)?.elements?;
        let shape = ins.shape();
        let Shape::Array(first) = shape.first_part() else {
            return None;
        };
        let output = size::elements(first)?;
        let n = input.checked_sub(output)? as f64;
        Some(Figures {
            bytes: self.default_bytes(ins)?.bytes,
            ..sub.applied(n)
        })
    }

    fn reduce_window(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let sub = self.called(ins, CallRole::ToApply)?;
        let window = conv::Window::parse(self.m.attr(ins, "window")?)?;
        let shape = ins.shape();
        let Shape::Array(first) = shape.first_part() else {
            return None;
        };
        let out = size::elements(first)?;
        let tuple = matches!(shape, Shape::Tuple(..));
        let n = conv::reduce_window_count(&window, first, out, tuple)? as f64;
        Some(Figures {
            bytes: self.default_bytes(ins)?.bytes,
            ..sub.applied(n)
        })
    }

    fn select_and_scatter(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let select = self.called(ins, CallRole::Calls).or_else(|| {
            let c = self.m.attr(ins, "select")?;
            self.named(c)
        })?;
        let scatter = self.named(self.m.attr(ins, "scatter")?)?;
        let window = conv::Window::parse(self.m.attr(ins, "window")?)?;
        let source = self.operand_size(ins, 1)?.elements? as f64;
        let size: u64 = window.dims.iter().map(|d| d.size).product();
        Some(Figures {
            bytes: self.default_bytes(ins)?.bytes,
            ..select.applied(source * (size as f64 - 1.0)) + scatter.applied(source)
        })
    }

    fn named(&mut self, name: &str) -> Option<Figures> {
        let c = self
            .m
            .computation_named(name.trim().trim_start_matches('%'))?;
        let (f, unread) = self.computation(c);
        (unread == 0).then_some(f)
    }

    fn gather(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let out = self.size(ins.id)?.bytes?;
        let indices = self.operand_size(ins, 1)?.bytes?;
        Some(bytes((2 * out + indices) as f64))
    }

    fn scatter(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let count = self.m.operands(ins).len();
        let n = count.checked_sub(1)? / 2;
        let mut updates = 0u64;
        for i in n + 1..count {
            updates += self.operand_size(ins, i)?.bytes?;
        }
        let indices = self.operand_size(ins, n)?.bytes?;
        let elements = self.operand_size(ins, n + 1)?.elements? as f64;
        let sub = self.called(ins, CallRole::ToApply)?;
        Some(Figures {
            bytes: Figure::of((3 * updates + indices) as f64),
            ..sub.applied(elements)
        })
    }

    fn conditional(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        let branches: Vec<Option<CompId>> = self
            .m
            .calls(ins)
            .iter()
            .filter(|c| {
                matches!(
                    c.role,
                    CallRole::Branch | CallRole::TrueBranch | CallRole::FalseBranch
                )
            })
            .map(|c| c.id)
            .collect();
        let mut best: Option<Figures> = None;
        for b in branches {
            let (f, unread) = self.computation(b?);
            if unread > 0 {
                return None;
            }
            best = Some(best.map_or(f, |x| x.max(f)));
        }
        best
    }

    fn fusion(&mut self, ins: &Instruction<'a>) -> Option<Figures> {
        super::fusion::fusion(self, ins)
    }
}

impl<'m, 'a> Costs<'m, 'a> for Xla<'m, 'a> {
    fn module(&self) -> &'m Module<'a> {
        self.m
    }
    fn computation(&mut self, c: CompId) -> (Figures, u64) {
        Xla::computation(self, c)
    }
    fn instruction(&mut self, id: InstrId) -> Figures {
        Xla::instruction(self, id)
    }
    fn size(&mut self, id: InstrId) -> Option<Size> {
        Xla::size(self, id)
    }
}

/// Bytes only.
pub fn bytes(b: f64) -> Figures {
    Figures {
        bytes: Figure::of(b),
        ..Figures::default()
    }
}

fn with_flops(f: Figures, flops: f64) -> Figures {
    Figures {
        flops: Figure::of(flops),
        ..f
    }
}

/// An array's minor-to-major order (descending without a printed layout).
fn minor_to_major(s: &Shape<'_>) -> Option<Vec<u64>> {
    let Shape::Array(a) = s else { return None };
    Some(match &a.layout {
        Some(l) => l.minor_to_major.iter().map(|&d| u64::from(d)).collect(),
        None => (0..a.dims.len() as u64).rev().collect(),
    })
}

/// `ceil(log2(n))` (0 for 0 and 1).
fn log2_ceil(n: u64) -> u64 {
    if n <= 1 {
        0
    } else {
        u64::from((n - 1).ilog2()) + 1
    }
}

/// The result of an asynchronous collective printed as `X-start`: the
/// second element of its `((operands), result)` shape.
pub fn async_result<'s, 'a>(s: &'s Shape<'a>) -> Option<&'s Shape<'a>> {
    match s {
        Shape::Tuple(parts, _) => parts.get(1),
        _ => None,
    }
}

/// The slice a `slice-start` makes: the second element of its output
/// tuple, `((operand), slice, context)`.
pub fn slice_start_result<'s, 'a>(s: &'s Shape<'a>) -> Option<&'s Array<'a>> {
    let Shape::Tuple(parts, _) = s else {
        return None;
    };
    match parts.get(1)? {
        Shape::Array(a) => Some(a),
        _ => None,
    }
}
