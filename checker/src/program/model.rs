//! The module's types: what [`super::parse`] gives (see the module docs of
//! [`super`]).

use super::shape::Shape;
use super::sources::{Frame, SourceTables};
use super::text;
use crate::analysis::scan::{self, Sip};
use std::collections::HashMap;
use std::sync::OnceLock;

/// An instruction: index into [`Module::instructions`].
pub type InstrId = u32;
/// A computation: index into [`Module::computations`].
pub type CompId = u32;

/// A run of a pool of the [`Module`] (its operands, users, calls or
/// attributes): `start..start + len`. Pools keep an instruction's small
/// lists without an allocation of their own each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// First index in the pool.
    pub start: u32,
    /// How many.
    pub len: u32,
}

impl Span {
    /// The run as a range.
    pub fn range(self) -> std::ops::Range<usize> {
        let s = self.start as usize;
        s..s.saturating_add(self.len as usize)
    }

    /// Whether it is empty.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// A raw `key=value` attribute, as printed (the value untrimmed of quotes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attr<'a> {
    /// The key (`dimensions`, `sharding`, ...).
    pub key: &'a str,
    /// The value as printed (`{1}`, `"foo"`, `kLoop`).
    pub value: &'a str,
}

/// The `HloModule` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header<'a> {
    /// 1-based line.
    pub line: usize,
    /// The module's name.
    pub name: &'a str,
    /// `is_scheduled=true`.
    pub is_scheduled: bool,
    /// `entry_computation_layout={...}`, as printed.
    pub entry_computation_layout: Option<&'a str>,
    /// `input_output_alias={...}`, as printed.
    pub input_output_alias: Option<&'a str>,
    /// `frontend_attributes={...}`, as printed.
    pub frontend_attributes: Option<&'a str>,
    /// Every other header attribute, as printed.
    pub attrs: Vec<Attr<'a>>,
}

impl Header<'_> {
    /// `num_partitions=N`: how many devices the SPMD program was
    /// partitioned for (XLA prints it only when it is not 1).
    pub fn num_partitions(&self) -> Option<u64> {
        self.number("num_partitions")
    }

    /// `replica_count=N`: how many replicas run the program (XLA prints
    /// it only when it is not 1).
    pub fn replica_count(&self) -> Option<u64> {
        self.number("replica_count")
    }

    /// A numeric header attribute.
    fn number(&self, key: &str) -> Option<u64> {
        self.attrs
            .iter()
            .find(|a| a.key == key)
            .and_then(|a| a.value.trim().parse().ok())
    }
}

/// One computation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Computation<'a> {
    /// Its name, without `%`.
    pub name: &'a str,
    /// 1-based line of its header.
    pub line: usize,
    /// Marked `ENTRY`.
    pub is_entry: bool,
    /// The parameter list of a signed header (`(p: f32[8]) -> f32[8] {`),
    /// without parentheses; `None` for a bare header (`name.N {`).
    pub signature: Option<&'a str>,
    /// Its instructions, in text order: `instructions[first..end]`.
    pub first: InstrId,
    /// One past its last instruction.
    pub end: InstrId,
    /// Its `parameter` instructions, by parameter number.
    pub params: Vec<InstrId>,
    /// The `ROOT` instruction (the last one when none is marked).
    pub root: Option<InstrId>,
    /// The instructions that call it (`calls=`, `to_apply=`, ...).
    pub callers: Vec<InstrId>,
}

impl Computation<'_> {
    /// Its instruction ids, in text order.
    pub fn instruction_ids(&self) -> std::ops::Range<InstrId> {
        self.first..self.end
    }
}

/// How an instruction calls a computation: the attribute naming it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallRole {
    /// `calls=` (fusions, custom calls, `call`, async starts).
    Calls,
    /// `to_apply=` (reducers, `call` in older printers).
    ToApply,
    /// A `while`'s `condition=`.
    Condition,
    /// A `while`'s `body=`.
    Body,
    /// One of a `conditional`'s `branch_computations={...}`.
    Branch,
    /// A `conditional`'s `true_computation=`.
    TrueBranch,
    /// A `conditional`'s `false_computation=`.
    FalseBranch,
    /// `called_computations={...}` (async ops, older printers).
    Called,
}

/// The attributes that name called computations, one row each.
pub const CALL_ATTRS: &[(&str, CallRole)] = &[
    ("calls", CallRole::Calls),
    ("to_apply", CallRole::ToApply),
    ("condition", CallRole::Condition),
    ("body", CallRole::Body),
    ("branch_computations", CallRole::Branch),
    ("true_computation", CallRole::TrueBranch),
    ("false_computation", CallRole::FalseBranch),
    ("called_computations", CallRole::Called),
];

/// A computation an instruction calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call<'a> {
    /// Which attribute names it.
    pub role: CallRole,
    /// Its name, without `%`.
    pub name: &'a str,
    /// The computation, when the module has one of that name.
    pub id: Option<CompId>,
}

/// One operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand<'a> {
    /// Its name, without `%`.
    pub name: &'a str,
    /// Its shape when the printer writes it before the name
    /// (`f32[8]{0} %x`, older printers).
    pub shape: Option<&'a str>,
    /// The instruction of that name in the same computation.
    pub id: Option<InstrId>,
}

/// An instruction's `metadata={...}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Metadata<'a> {
    /// `op_name`, the JAX op path (`jit(f)/mul`).
    pub op_name: Option<&'a str>,
    /// `op_type`.
    pub op_type: Option<&'a str>,
    /// `source_file` (older printers).
    pub source_file: Option<&'a str>,
    /// `source_line` (older printers).
    pub source_line: Option<u32>,
    /// `stack_frame_id`, into [`Module::sources`].
    pub stack_frame_id: Option<u32>,
    /// `scheduling_name` (XLA:GPU's scheduling passes write it).
    pub scheduling_name: Option<&'a str>,
}

impl<'a> Metadata<'a> {
    /// The fields of a `metadata={...}` value (with its braces), as
    /// the attribute reader splits it; a field value cut over two lines
    /// (a hard-wrapped paste) is not the value.
    pub fn read(value: &'a str) -> Self {
        Metadata::read_fields(value, true)
    }

    /// [`Metadata::read`], with `cut` whether a value may hold a `\n`.
    fn read_fields(value: &'a str, cut: bool) -> Self {
        let mut md = Metadata::default();
        scan::for_each_field(value, |key, v, _| {
            if cut && v.contains('\n') {
                return;
            }
            match key {
                "op_name" => md.op_name = Some(v),
                "op_type" => md.op_type = Some(v),
                "stack_frame_id" => md.stack_frame_id = v.parse().ok(),
                "source_file" => md.source_file = Some(v),
                "source_line" => md.source_line = v.parse().ok(),
                "scheduling_name" => md.scheduling_name = Some(v),
                _ => {}
            }
        });
        md
    }
}

/// The fields of an instruction's `metadata` that the reader found while
/// walking its attributes (its op name and stack frame, nearly all a
/// compiled module prints), kept beside the instruction so that
/// [`Module::metadata`] does not read the value a second time. Anything
/// else (another field, a value over two lines) makes it [`MetaFields::rare`]:
/// then the value is read again, by [`Metadata::read`]. Twelve bytes per
/// instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MetaFields {
    /// `op_name`'s value, a run of the instruction's `rest`.
    op: Sub,
    /// `stack_frame_id`; [`MetaFields::NO_FRAME`] for none,
    /// [`MetaFields::RARE`] when the value must be read again.
    frame: u32,
}

impl MetaFields {
    /// No `metadata`, or one holding nothing read here.
    pub(crate) const NONE: MetaFields = MetaFields {
        op: Sub::NONE,
        frame: MetaFields::NO_FRAME,
    };
    const NO_FRAME: u32 = u32::MAX;
    const RARE: u32 = u32::MAX - 1;

    /// A field these do not hold was printed: read the value again.
    pub(crate) fn rare(self) -> bool {
        self.frame == MetaFields::RARE
    }

    /// Notes field `key` with value `v` (a run of `rest`), as
    /// [`Metadata::read`] would read it; `cut`: the value may hold a `\n`.
    pub(crate) fn field(&mut self, rest: &str, key: &str, v: &str, cut: bool) {
        if self.rare() {
            return;
        }
        match key {
            _ if cut => self.frame = MetaFields::RARE,
            "op_name" => self.op = Sub::of(rest, v),
            "stack_frame_id" => match v.parse::<u32>() {
                // A frame id these sentinels would hide.
                Ok(f) if f >= MetaFields::RARE => self.frame = MetaFields::RARE,
                Ok(f) => self.frame = f,
                Err(_) => self.frame = MetaFields::NO_FRAME,
            },
            "op_type" | "source_file" | "source_line" | "scheduling_name" => {
                self.frame = MetaFields::RARE;
            }
            _ => {}
        }
    }

    /// The op name and stack frame, as [`Metadata`] (of the instruction
    /// whose `rest` this is); `None` when [`MetaFields::rare`].
    fn read<'a>(self, rest: &'a str) -> Option<Metadata<'a>> {
        (!self.rare()).then(|| Metadata {
            op_name: self.op.get(rest),
            stack_frame_id: (self.frame != MetaFields::NO_FRAME).then_some(self.frame),
            ..Metadata::default()
        })
    }
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction<'a> {
    /// Its name, without `%`.
    pub name: &'a str,
    /// Its id (its index in [`Module::instructions`]).
    pub id: InstrId,
    /// 1-based line where it starts.
    pub line: usize,
    /// How many lines after `line` it ends on (more than 0 when brackets
    /// were open at the end of its first line): [`Instruction::end_line`].
    pub(crate) more_lines: u32,
    /// Marked `ROOT`.
    pub is_root: bool,
    /// Its name printed with `%` (compiled modules and XLA's dumps;
    /// `as_text(dialect="hlo")` and older printers print bare names).
    pub percent: bool,
    /// Its computation; `None` in a headerless excerpt.
    pub computation: Option<CompId>,
    /// Its shape, as printed (parsed by [`Instruction::shape`]).
    pub shape_text: &'a str,
    /// Whether [`Instruction::shape_text`] is a shape the reader knows
    /// (else it runs up to the next space, and the line is in
    /// [`Module::unread`]).
    pub shape_read: bool,
    /// Its operands hold no bracket nor quote (plain names, numbers): no
    /// layout is printed among them.
    pub(crate) ops_plain: bool,
    /// The opcode (`fusion`, `custom-call`, `all-reduce-start`).
    pub opcode: &'a str,
    /// What follows the opcode's `(`: the operands, their `)` and the
    /// attributes, as printed (the parts below are runs of it).
    pub(crate) rest: &'a str,
    /// [`Instruction::operands_text`]: `rest[..ops_len]`.
    pub(crate) ops_len: u32,
    /// The computations it calls: [`Module::calls`].
    pub calls: Span,
    /// [`Instruction::fusion_kind`]: a run of `rest` (eight bytes where
    /// an optional `&str` takes sixteen; so are the next three).
    pub(crate) kind_at: Sub,
    /// [`Instruction::custom_call_target`].
    pub(crate) target_at: Sub,
    /// [`Instruction::backend_config`].
    pub(crate) config_at: Sub,
    /// [`Instruction::metadata_text`].
    pub(crate) metadata_at: Sub,
    /// Every other attribute, as printed (not `metadata`, `kind`,
    /// `custom_call_target`, `backend_config` nor those naming called
    /// computations, which have their own readers): [`Module::attrs`].
    pub attrs: Span,
}

/// A run of an instruction's text after its opcode (`Instruction::rest`),
/// or none: an optional `&str` in half the space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sub {
    at: u32,
    /// `u32::MAX` for none.
    len: u32,
}

impl Sub {
    /// No run.
    pub(crate) const NONE: Sub = Sub {
        at: 0,
        len: u32::MAX,
    };

    /// The run of `part`, a slice of `rest` (none when it is not one, or
    /// too long to count in a `u32`).
    pub(crate) fn of(rest: &str, part: &str) -> Sub {
        let at = (part.as_ptr() as usize).wrapping_sub(rest.as_ptr() as usize);
        match (u32::try_from(at), u32::try_from(part.len())) {
            (Ok(at), Ok(len))
                if len < u32::MAX && (at as usize).saturating_add(part.len()) <= rest.len() =>
            {
                Sub { at, len }
            }
            _ => Sub::NONE,
        }
    }

    /// The run in `rest`.
    fn get(self, rest: &str) -> Option<&str> {
        if self.len == u32::MAX {
            return None;
        }
        let at = self.at as usize;
        rest.get(at..at.saturating_add(self.len as usize))
    }
}

impl<'a> Instruction<'a> {
    /// What the parentheses after the opcode hold, as printed (a
    /// constant's literal, a parameter's number).
    pub fn operands_text(&self) -> &'a str {
        self.rest.get(..self.ops_len as usize).unwrap_or("")
    }

    /// A fusion's `kind=` (`kLoop`, `kCustom`).
    pub fn fusion_kind(&self) -> Option<&'a str> {
        self.kind_at.get(self.rest)
    }

    /// A custom call's `custom_call_target=`, without quotes.
    pub fn custom_call_target(&self) -> Option<&'a str> {
        self.target_at.get(self.rest)
    }

    /// `backend_config=`, raw (may span lines).
    pub fn backend_config(&self) -> Option<&'a str> {
        self.config_at.get(self.rest)
    }

    /// The last `metadata={...}`'s value, raw (the one
    /// [`Instruction::metadata`] reads).
    pub fn metadata_text(&self) -> Option<&'a str> {
        self.metadata_at.get(self.rest)
    }

    /// 1-based line where it ends (later than [`Instruction::line`] when
    /// brackets were open at the end of its first line).
    pub fn end_line(&self) -> usize {
        self.line.saturating_add(self.more_lines as usize)
    }

    /// A `parameter`'s number.
    pub fn parameter_number(&self) -> Option<u32> {
        if self.opcode != "parameter" {
            return None;
        }
        self.operands_text().trim().parse().ok()
    }

    /// Its metadata, read from [`Instruction::metadata_text`] on demand (a
    /// module keeps the value only: the fields would make every
    /// instruction 80 bytes larger).
    pub fn metadata(&self) -> Metadata<'a> {
        // On one line, no field value can be cut over two.
        let one_line = self.more_lines == 0;
        self.metadata_text()
            .map(|v| Metadata::read_fields(v, !one_line))
            .unwrap_or_default()
    }

    /// Its shape, parsed from [`Instruction::shape_text`] (on demand: a
    /// reader that never looks at shapes does not pay for them).
    pub fn shape(&self) -> Shape<'a> {
        Shape::parse(self.shape_text)
    }

    /// The `"kind":"..."` inside its backend config (`__triton`,
    /// `__ynn_fusion`).
    pub fn config_kind(&self) -> Option<&'a str> {
        let v = self.backend_config()?;
        let at = v.find("\"kind\":\"")? + 8;
        let rest = v.get(at..)?;
        let end = rest.find('"')?;
        rest.get(..end).filter(|k| !k.is_empty())
    }
}

/// A line the reader could not read, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unread {
    /// 1-based line.
    pub line: usize,
    /// A short reason.
    pub reason: &'static str,
}

/// An HLO module as printed; see the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Module<'a> {
    /// The `HloModule` line, when printed.
    pub header: Option<Header<'a>>,
    /// Computations, in text order.
    pub computations: Vec<Computation<'a>>,
    /// Instructions, in text order.
    pub instructions: Vec<Instruction<'a>>,
    /// The `ENTRY` computation (the first, when several are marked).
    pub entry: Option<CompId>,
    /// The source tables.
    pub sources: SourceTables<'a>,
    /// Lines that could not be read.
    pub unread: Vec<Unread>,
    /// The instruction runs whose names operands resolve to (each
    /// computation's, and those outside any), in text order.
    pub(crate) scopes: Vec<(InstrId, InstrId)>,
    /// Operands and users, built on first use (the analysis never reads
    /// them): [`Module::operands`], [`Module::users`].
    links: OnceLock<Links<'a>>,
    /// Every instruction's calls, by [`Instruction::calls`].
    pub call_pool: Vec<Call<'a>>,
    /// Every instruction's attributes, by [`Instruction::attrs`].
    pub attr_pool: Vec<Attr<'a>>,
    /// Each instruction's [`MetaFields`], by id.
    pub(crate) meta: Vec<MetaFields>,
    /// Bytes the reader visited (each byte a bounded number of times): the
    /// size of the work, for linear-time tests.
    pub work: usize,
}

impl<'a> Module<'a> {
    /// Appends `tail`, read from the text right after the text of `self`
    /// (which held `newlines` line ends), its calls not yet resolved:
    /// its ids, pool runs and lines moved on past `self`'s. The header and
    /// the entry stay the first ones, as one pass over both keeps them;
    /// later source table rows overwrite earlier ones, as in one pass.
    pub(crate) fn append(&mut self, tail: Module<'a>, newlines: usize) {
        let Module {
            header,
            computations,
            instructions,
            entry,
            sources,
            unread,
            scopes,
            links: _,
            call_pool,
            attr_pool,
            meta,
            work,
        } = tail;
        let ins_at = InstrId::try_from(self.instructions.len()).unwrap_or(InstrId::MAX);
        let comp_at = CompId::try_from(self.computations.len()).unwrap_or(CompId::MAX);
        let (calls_at, attrs_at) = (pool_len(&self.call_pool), pool_len(&self.attr_pool));
        let id = |i: InstrId| i.saturating_add(ins_at);
        self.instructions
            .extend(instructions.into_iter().map(|mut i| {
                i.id = id(i.id);
                i.line = i.line.saturating_add(newlines);
                i.computation = i.computation.map(|c| c.saturating_add(comp_at));
                i.calls.start = i.calls.start.saturating_add(calls_at);
                i.attrs.start = i.attrs.start.saturating_add(attrs_at);
                i
            }));
        self.computations
            .extend(computations.into_iter().map(|mut c| {
                c.line = c.line.saturating_add(newlines);
                (c.first, c.end) = (id(c.first), id(c.end));
                c.params.iter_mut().for_each(|p| *p = id(*p));
                c.root = c.root.map(id);
                c.callers.iter_mut().for_each(|p| *p = id(*p));
                c
            }));
        if self.header.is_none() {
            self.header = header.map(|mut h| {
                h.line = h.line.saturating_add(newlines);
                h
            });
        }
        if self.entry.is_none() {
            self.entry = entry.map(|e| e.saturating_add(comp_at));
        }
        self.sources.append(sources);
        self.unread.extend(unread.into_iter().map(|u| Unread {
            line: u.line.saturating_add(newlines),
            ..u
        }));
        self.scopes
            .extend(scopes.into_iter().map(|(s, e)| (id(s), id(e))));
        self.call_pool.extend(call_pool);
        self.attr_pool.extend(attr_pool);
        self.meta.extend(meta);
        self.work = self.work.saturating_add(work);
    }

    /// An instruction by id.
    pub fn instruction(&self, id: InstrId) -> Option<&Instruction<'a>> {
        self.instructions.get(id as usize)
    }

    /// [`Instruction::metadata`], from the fields the reader kept where
    /// they are all it printed (the value is not read again).
    pub fn metadata(&self, ins: &Instruction<'a>) -> Metadata<'a> {
        match self.meta.get(ins.id as usize) {
            Some(f) if ins.metadata_at != Sub::NONE => {
                f.read(ins.rest).unwrap_or_else(|| ins.metadata())
            }
            _ => ins.metadata(),
        }
    }

    /// An instruction's operands (none for `constant` and `parameter`),
    /// each resolved to the instruction of its name in the same
    /// computation.
    pub fn operands(&self, ins: &Instruction<'_>) -> &[Operand<'a>] {
        let l = self.links();
        l.operands
            .get(ins.id as usize)
            .and_then(|s| l.operand_pool.get(s.range()))
            .unwrap_or(&[])
    }

    /// The instructions that use an instruction (derived from their
    /// operands), each once, in text order.
    pub fn users(&self, ins: &Instruction<'_>) -> &[InstrId] {
        let l = self.links();
        l.users
            .get(ins.id as usize)
            .and_then(|s| l.user_pool.get(s.range()))
            .unwrap_or(&[])
    }

    fn links(&self) -> &Links<'a> {
        self.links.get_or_init(|| Links::build(self))
    }

    /// The computations an instruction calls.
    pub fn calls(&self, ins: &Instruction<'_>) -> &[Call<'a>] {
        self.call_pool.get(ins.calls.range()).unwrap_or(&[])
    }

    /// An instruction's other attributes, as printed.
    pub fn attrs(&self, ins: &Instruction<'_>) -> &[Attr<'a>] {
        self.attr_pool.get(ins.attrs.range()).unwrap_or(&[])
    }

    /// The raw value of one of an instruction's attributes.
    pub fn attr(&self, ins: &Instruction<'_>, key: &str) -> Option<&'a str> {
        self.attrs(ins)
            .iter()
            .find(|a| a.key == key)
            .map(|a| a.value)
    }

    /// A computation by id.
    pub fn computation(&self, id: CompId) -> Option<&Computation<'a>> {
        self.computations.get(id as usize)
    }

    /// The instructions of a computation, in text order.
    pub fn instructions_of(&self, id: CompId) -> &[Instruction<'a>] {
        self.computation(id)
            .and_then(|c| self.instructions.get(c.first as usize..c.end as usize))
            .unwrap_or(&[])
    }

    /// The computation of a name (the first one, when repeated).
    pub fn computation_named(&self, name: &str) -> Option<CompId> {
        self.computations
            .iter()
            .position(|c| c.name == name)
            .and_then(|i| CompId::try_from(i).ok())
    }

    /// The entry computation.
    pub fn entry_computation(&self) -> Option<&Computation<'a>> {
        self.entry.and_then(|e| self.computation(e))
    }

    /// An instruction's source frames, innermost first: (file, line,
    /// function) through the tables, or its `source_file`/`source_line`.
    pub fn frames(&self, ins: &Instruction<'a>) -> Vec<Frame<'a>> {
        let md = ins.metadata();
        match (md.source_file, md.source_line) {
            (Some(file), Some(line)) => vec![Frame {
                file,
                line,
                function: None,
            }],
            _ => md
                .stack_frame_id
                .map(|f| self.sources.frames(f))
                .unwrap_or_default(),
        }
    }

    /// An instruction's innermost source line (file, line).
    pub fn location(&self, m: &Metadata<'a>) -> Option<(&'a str, u32)> {
        match (m.source_file, m.source_line, m.stack_frame_id) {
            (Some(f), Some(l), _) => Some((f, l)),
            (_, _, Some(frame)) => self.sources.location(frame),
            _ => None,
        }
    }
}

impl Module<'_> {
    /// Shapes of the entry parameters, without layout: from a signed
    /// `ENTRY` header, else from its `parameter(N)` instructions in number
    /// order; `None` without an entry computation.
    pub fn entry_signature(&self) -> Option<Vec<String>> {
        let entry = self.entry_computation()?;
        if let Some(sig) = entry.signature {
            let mut out = Vec::new();
            text::for_each_top(sig, |p| {
                let s = p.split_once(':').map_or(p, |(_, s)| s).trim();
                out.push(Shape::parse(s).without_layout());
            });
            return Some(out);
        }
        Some(
            entry
                .params
                .iter()
                .filter_map(|&p| self.instruction(p))
                .map(|i| i.shape().without_layout())
                .collect(),
        )
    }
}

/// Every instruction's operands and users: pools and one [`Span`] per
/// instruction into each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Links<'a> {
    operands: Vec<Span>,
    operand_pool: Vec<Operand<'a>>,
    users: Vec<Span>,
    user_pool: Vec<InstrId>,
}

/// The length of a pool, as a pool index.
fn pool_len<T>(v: &[T]) -> u32 {
    u32::try_from(v.len()).unwrap_or(u32::MAX)
}

impl<'a> Links<'a> {
    /// Splits every operand list and resolves each name within its scope
    /// (the first instruction of that name), then derives the users.
    fn build(m: &Module<'a>) -> Self {
        let n = m.instructions.len();
        let mut l = Links {
            operands: vec![Span::default(); n],
            users: vec![Span::default(); n],
            ..Links::default()
        };
        let mut names: HashMap<&'a str, InstrId, Sip> = HashMap::default();
        for &(from, to) in &m.scopes {
            let ins = m
                .instructions
                .get(from as usize..to as usize)
                .unwrap_or(&[]);
            names.clear();
            for (i, id) in ins.iter().zip(from..) {
                names.entry(i.name).or_insert(id);
            }
            for (i, id) in ins.iter().zip(from..) {
                let start = pool_len(&l.operand_pool);
                if !matches!(i.opcode, "constant" | "parameter") {
                    text::for_each_top(i.operands_text(), |p| {
                        let (shape, name) = text::operand(p);
                        if !name.is_empty() {
                            l.operand_pool.push(Operand {
                                name,
                                shape,
                                id: names.get(name).copied(),
                            });
                        }
                    });
                }
                if let Some(s) = l.operands.get_mut(id as usize) {
                    *s = Span {
                        start,
                        len: pool_len(&l.operand_pool) - start,
                    };
                }
            }
            l.fill_users(from as usize, to as usize);
        }
        l
    }

    /// The users of the scope's instructions `from..to`, into the user
    /// pool: counted, then placed (each user once per instruction it uses,
    /// however many times it names it in a row).
    fn fill_users(&mut self, from: usize, to: usize) {
        let n = to.saturating_sub(from);
        let mut count = vec![0u32; n];
        let mut last = vec![InstrId::MAX; n];
        let (spans, pool) = (&self.operands, &self.operand_pool);
        let each = |f: &mut dyn FnMut(usize, InstrId)| {
            for (k, s) in spans.get(from..to).unwrap_or(&[]).iter().enumerate() {
                let me = InstrId::try_from(from + k).unwrap_or(InstrId::MAX);
                for op in pool.get(s.range()).unwrap_or(&[]) {
                    if let Some(t) = op.id.and_then(|t| (t as usize).checked_sub(from)) {
                        f(t, me);
                    }
                }
            }
        };
        each(&mut |t, u| {
            if let (Some(c), Some(l)) = (count.get_mut(t), last.get_mut(t)) {
                if *l != u {
                    *l = u;
                    *c += 1;
                }
            }
        });
        let base = self.user_pool.len();
        let mut at = Vec::with_capacity(n);
        let mut total = 0u32;
        for &c in &count {
            at.push(total);
            total = total.saturating_add(c);
        }
        let mut placed = vec![InstrId::MAX; total as usize];
        last.fill(InstrId::MAX);
        each(&mut |t, u| {
            if let (Some(p), Some(l)) = (at.get_mut(t), last.get_mut(t)) {
                if *l != u {
                    *l = u;
                    if let Some(slot) = placed.get_mut(*p as usize) {
                        *slot = u;
                    }
                    *p += 1;
                }
            }
        });
        self.user_pool.extend(placed);
        let mut start = u32::try_from(base).unwrap_or(u32::MAX);
        for (s, c) in self
            .users
            .get_mut(from..to)
            .unwrap_or(&mut [])
            .iter_mut()
            .zip(count)
        {
            *s = Span { start, len: c };
            start = start.saturating_add(c);
        }
    }
}
