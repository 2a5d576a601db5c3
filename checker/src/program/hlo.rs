//! The HLO reader: one pass over the lines into a [`Module`].

use super::model::{
    Attr, CALL_ATTRS, Call, CompId, Computation, Header, InstrId, Instruction, MetaFields, Module,
    Span, Sub, Unread,
};
use super::sources::{SourceTables, Table};
use super::text::{depth_delta, looks_like_instruction, offset_in};
use crate::analysis::scan::{
    self, Item, Sip, for_each_attr, for_each_attr_balanced, skip_balanced, skip_ws, take_while,
};
use std::collections::HashMap;

/// Why a line could not be read, one row each.
pub(crate) const NOT_HLO: &str = "not an HLO line";
/// An instruction whose brackets never close (a cut line).
pub(crate) const CUT: &str = "cut: brackets not closed";
/// A line that starts like an instruction but is not one.
pub(crate) const NOT_INSTRUCTION: &str = "not an instruction: no opcode after the shape";
/// A shape this reader does not understand.
pub(crate) const BAD_SHAPE: &str = "shape not read";

/// A computation header: `[ENTRY ] [%]name (params) -> shape {` or
/// `[ENTRY ] name.N {`.
pub(crate) struct CompHeader<'a> {
    pub(crate) entry: bool,
    pub(crate) name: &'a str,
    pub(crate) signature: Option<&'a str>,
    /// A bare name without XLA's `.N` suffix (`fused_computation {`):
    /// a computation only in a module with an `HloModule` line.
    pub(crate) bare: bool,
}

/// Reads a trimmed computation header line.
pub(crate) fn computation_header(t: &str) -> Option<CompHeader<'_>> {
    if !t.ends_with('{') {
        return None;
    }
    let b = t.as_bytes();
    let mut i = 0usize;
    let entry = t.starts_with("ENTRY ");
    if entry {
        i = skip_ws(b, 6);
    }
    if b.get(i) == Some(&b'%') {
        i += 1;
    }
    let name_end = take_while(b, i, scan::is_name_byte);
    let name = t.get(i..name_end)?;
    if !b
        .get(i)
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    {
        return None;
    }
    let j = skip_ws(b, name_end);
    match b.get(j)? {
        b'{' if j + 1 == b.len() => {
            // Bare style: XLA's `.N` suffix (or ENTRY), so MLIR regions
            // like `cond {` do not count; after an `HloModule` line any
            // name does (XLA's dumps between passes print `fused_computation {`).
            let suffixed = name
                .rsplit_once('.')
                .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()));
            Some(CompHeader {
                entry,
                name,
                signature: None,
                bare: !(entry || suffixed),
            })
        }
        b'(' => {
            let close = skip_balanced(b, j)?;
            let k = skip_ws(b, close);
            t.get(k..)?.starts_with("->").then(|| CompHeader {
                entry,
                name,
                signature: t.get(j + 1..close - 1),
                bare: false,
            })
        }
        _ => None,
    }
}

/// The section titles and lines that never continue an instruction whose
/// brackets are open: a new instruction or computation, a table title.
pub(crate) fn starts_something(t: &str) -> bool {
    t.starts_with("HloModule ")
        || t.starts_with("ENTRY ")
        || t.starts_with("ROOT ")
        || SourceTables::title(t).is_some()
        || looks_like_instruction(t)
        || computation_header(t).is_some_and(|h| !h.bare)
}

/// The reader's state.
struct Reader<'a> {
    m: Module<'a>,
    /// The open computation.
    current: Option<CompId>,
    /// First instruction of the open scope (a computation, or a run of
    /// instructions outside any).
    scope: InstrId,
    /// An `HloModule` line came before the text read (a later part of a
    /// module cut in two): bare computation headers count.
    after_header: bool,
}

/// A run of lines read into a module whose calls are not resolved yet
/// ([`resolve_calls`]), and how many `\n` it held.
pub(crate) struct Part<'a> {
    pub(crate) module: Module<'a>,
    pub(crate) newlines: usize,
}

/// Reads `text` in one pass; see the module docs of [`super`].
pub(crate) fn read(text: &str) -> Module<'_> {
    resolve_calls(read_part(text, false, 0).module)
}

/// Reads `text`, line numbers counted from its start; `after_header`:
/// an `HloModule` line came before it; `room`: the bytes of text that
/// will be appended to this part ([`Module::append`]), reserved for at
/// the same density of lines, so that the append need not move it.
pub(crate) fn read_part(text: &str, after_header: bool, room: usize) -> Part<'_> {
    // Nearly every line of a compiled module is an instruction: reserve
    // for them at once, instead of moving them on every growth.
    let newlines = scan::find_all(text, "\n").count();
    let mut m = Module::default();
    let lines = newlines + 1;
    let more = lines.saturating_mul(room) / text.len().max(1);
    let expected = lines.saturating_add(more).min((text.len() + room) / 16 + 1);
    m.instructions.reserve(expected);
    m.meta.reserve(expected);
    let mut r = Reader {
        m,
        current: None,
        scope: 0,
        after_header,
    };
    let mut table: Option<Table> = None;
    let mut lines = scan::lines(text).enumerate().peekable();
    while let Some((i, l)) = lines.next() {
        let n = i + 1;
        r.m.work = r.m.work.saturating_add(l.len() + 1);
        let t = scan::trim(l);
        if t.is_empty() {
            continue;
        }
        if let Some(tab) = table {
            if t.as_bytes().first().is_some_and(u8::is_ascii_digit) && r.m.sources.row(tab, t) {
                continue;
            }
            table = None;
        }
        if let Some(tab) = SourceTables::title(t) {
            table = Some(tab);
            continue;
        }
        if let Some(rest) = t.strip_prefix("HloModule ") {
            r.header(n, rest);
            continue;
        }
        if t.starts_with("ROOT ") || looks_like_instruction(t) {
            // Usually the line is the whole instruction: read whole and
            // balanced, its brackets need no second walk.
            if r.whole_line(n, t) {
                continue;
            }
            // Brackets still open: the instruction goes on (a multi-line
            // `backend_config`) until they close or a line starts
            // something else.
            let mut depth = depth_delta(t);
            let (mut last, mut end_line) = (l, n);
            while depth > 0 {
                let Some(&(_, next)) = lines.peek() else {
                    break;
                };
                let nt = scan::trim(next);
                if nt.is_empty() || starts_something(nt) {
                    break;
                }
                r.m.work = r.m.work.saturating_add(next.len() + 1);
                depth += depth_delta(nt);
                (last, end_line) = (next, end_line + 1);
                lines.next();
            }
            let from = offset_in(text, t);
            let logical = text
                .get(from..offset_in(text, last) + last.len())
                .unwrap_or(t);
            let logical = scan::trim(logical);
            if depth > 0 {
                r.unread(n, CUT);
            }
            if !r.instruction(n, end_line, logical) {
                r.unread(n, NOT_INSTRUCTION);
            }
            continue;
        }
        if t.starts_with('}') {
            r.close_scope();
            r.current = None;
            continue;
        }
        if let Some(h) =
            computation_header(t).filter(|h| !h.bare || r.after_header || r.m.header.is_some())
        {
            r.open(n, h);
            continue;
        }
        r.unread(n, NOT_HLO);
    }
    r.close_scope();
    Part {
        module: r.m,
        newlines,
    }
}

impl<'a> Reader<'a> {
    fn unread(&mut self, line: usize, reason: &'static str) {
        self.m.unread.push(Unread { line, reason });
    }

    fn next_id(&self) -> InstrId {
        InstrId::try_from(self.m.instructions.len()).unwrap_or(InstrId::MAX)
    }

    fn header(&mut self, line: usize, rest: &'a str) {
        let b = rest.as_bytes();
        let e = take_while(b, 0, |c| c != b',' && c != b' ');
        let mut h = Header {
            line,
            name: rest.get(..e).unwrap_or(""),
            ..Header::default()
        };
        for_each_attr(rest.get(e..).unwrap_or(""), "", |item, key, value, _| {
            if item != Item::Attr {
                return;
            }
            self.m.work = self.m.work.saturating_add(key.len() + value.len());
            match key {
                "is_scheduled" => h.is_scheduled = value == "true",
                "entry_computation_layout" => h.entry_computation_layout = Some(value),
                "input_output_alias" => h.input_output_alias = Some(value),
                "frontend_attributes" => h.frontend_attributes = Some(value),
                _ => h.attrs.push(Attr { key, value }),
            }
        });
        if self.m.header.is_none() {
            self.m.header = Some(h);
        }
    }

    fn open(&mut self, line: usize, h: CompHeader<'a>) {
        self.close_scope();
        let id = CompId::try_from(self.m.computations.len()).unwrap_or(CompId::MAX);
        let first = self.next_id();
        self.m.computations.push(Computation {
            name: h.name,
            line,
            is_entry: h.entry,
            signature: h.signature,
            first,
            end: first,
            ..Computation::default()
        });
        if h.entry && self.m.entry.is_none() {
            self.m.entry = Some(id);
        }
        self.current = Some(id);
        self.scope = first;
    }

    /// Resolves the open scope's operands, users, parameters and root.
    fn close_scope(&mut self) {
        let end = self.next_id();
        let (from, to) = (self.scope as usize, end as usize);
        if to > from {
            self.m.scopes.push((self.scope, end));
        }
        if let Some(c) = self
            .current
            .and_then(|c| self.m.computations.get_mut(c as usize))
        {
            c.end = end;
            let ins = self.m.instructions.get(from..to).unwrap_or(&[]);
            let mut params: Vec<(u32, InstrId)> = ins
                .iter()
                .zip(self.scope..)
                .filter(|(i, _)| i.opcode == "parameter")
                .map(|(i, id)| (i.parameter_number().unwrap_or(u32::MAX), id))
                .collect();
            params.sort_unstable();
            c.params = params.into_iter().map(|p| p.1).collect();
            c.root = ins
                .iter()
                .position(|i| i.is_root)
                .map(|p| self.scope + InstrId::try_from(p).unwrap_or(0))
                .or_else(|| end.checked_sub(1).filter(|&e| e >= self.scope));
        }
        self.scope = end;
    }

    /// Reads the trimmed line `t` (line `n`) as an instruction when it is
    /// one whole: its shape read, its operands closed, its attributes'
    /// brackets balanced (so its net bracket depth is 0). Otherwise `false`,
    /// the module as before.
    fn whole_line(&mut self, n: usize, t: &'a str) -> bool {
        let marks = (self.m.call_pool.len(), self.m.attr_pool.len());
        match split(t, false, &mut self.m) {
            // (A tuple shape may hold `/*index=N*/` comments, which its
            // reader skips: their brackets count too.)
            Some((ins, md, true, true))
                if !ins.shape_text.starts_with('(') || depth_delta(ins.shape_text) == 0 =>
            {
                self.push(n, n, t, (ins, md), true);
                true
            }
            _ => {
                self.m.call_pool.truncate(marks.0);
                self.m.attr_pool.truncate(marks.1);
                self.m.work = self.m.work.saturating_add(t.len());
                false
            }
        }
    }

    /// Reads one (logical) instruction; `false` when it is not one.
    fn instruction(&mut self, line: usize, end_line: usize, s: &'a str) -> bool {
        let Some((ins, md, shape_read, _)) = split(s, end_line > line, &mut self.m) else {
            return false;
        };
        self.push(line, end_line, s, (ins, md), shape_read);
        true
    }

    /// Adds instruction `ins`, read from `s` (lines `line..=end_line`).
    fn push(
        &mut self,
        line: usize,
        end_line: usize,
        s: &'a str,
        (mut ins, md): (Instruction<'a>, MetaFields),
        shape_read: bool,
    ) {
        self.m.work = self.m.work.saturating_add(2 * s.len());
        if !shape_read {
            self.unread(line, BAD_SHAPE);
        }
        ins.line = line;
        ins.more_lines = u32::try_from(end_line.saturating_sub(line)).unwrap_or(u32::MAX);
        ins.computation = self.current;
        ins.id = self.next_id();
        self.m.instructions.push(ins);
        self.m.meta.push(md);
    }
}

/// Resolves calls between computations (a name to the first computation
/// of that name) and returns the module.
pub(crate) fn resolve_calls<'a>(mut m: Module<'a>) -> Module<'a> {
    let mut by_name: HashMap<&'a str, CompId, Sip> = HashMap::default();
    for (c, id) in m.computations.iter().zip(0..) {
        by_name.entry(c.name).or_insert(id);
    }
    let mut callers: Vec<(CompId, InstrId)> = Vec::new();
    for (ins, id) in m.instructions.iter().zip(0..) {
        for call in m.call_pool.get_mut(ins.calls.range()).unwrap_or(&mut []) {
            call.id = by_name.get(call.name).copied();
            if let Some(c) = call.id {
                callers.push((c, id));
            }
        }
    }
    for (c, id) in callers {
        if let Some(comp) = m.computations.get_mut(c as usize) {
            if comp.callers.last() != Some(&id) {
                comp.callers.push(id);
            }
        }
    }
    m
}

/// Bytes of an opcode (`add`, `custom-call`, `all-reduce-start`).
fn is_opcode_byte(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'_'
}

/// The length of a pool, as a pool index.
fn pool_len<T>(v: &[T]) -> u32 {
    u32::try_from(v.len()).unwrap_or(u32::MAX)
}

/// Splits `[ROOT ] [%]name = shape opcode(operands)[, attrs]` (trimmed,
/// possibly over several lines) into an instruction (line fields unset),
/// its operands, calls and attributes pushed into the module's pools; and
/// its metadata's fields; whether its shape was read; and whether it is
/// whole (its operands closed, its attributes' brackets balanced). `multi`:
/// `s` goes on over several lines.
fn split<'a>(
    s: &'a str,
    multi: bool,
    m: &mut Module<'a>,
) -> Option<(Instruction<'a>, MetaFields, bool, bool)> {
    let b = s.as_bytes();
    let mut i = 0usize;
    let is_root = s.starts_with("ROOT ");
    if is_root {
        i = skip_ws(b, 5);
    }
    let percent = b.get(i) == Some(&b'%');
    if percent {
        i += 1;
    }
    let name_end = take_while(b, i, scan::is_name_byte);
    let name = s.get(i..name_end).filter(|n| !n.is_empty())?;
    i = skip_ws(b, name_end);
    if b.get(i) != Some(&b'=') {
        return None;
    }
    let shape_at = skip_ws(b, i + 1);
    let (shape_end, shape_read) = match super::shape::skip(s, shape_at) {
        Some(e) => (e, true),
        // Not a shape this reader knows: up to the next space.
        None => (take_while(b, shape_at, |c| c != b' ' && c != b'\n'), false),
    };
    let shape_text = s.get(shape_at..shape_end)?;
    let op_at = skip_ws(b, shape_end);
    let op_end = take_while(b, op_at, is_opcode_byte);
    if op_end == op_at
        || b.get(op_end) != Some(&b'(')
        || !b.get(op_at).is_some_and(u8::is_ascii_lowercase)
    {
        return None;
    }
    let opcode = s.get(op_at..op_end)?;
    let (closed, ops_plain) = scan::close_paren(b, op_end);
    let ops_end = closed.unwrap_or(b.len());
    let operands_text = s
        .get(op_end + 1..ops_end.saturating_sub(1).max(op_end + 1))
        .unwrap_or("");
    let rest = s.get(op_end + 1..).unwrap_or("");
    let mut ins = Instruction {
        name,
        id: 0,
        line: 0,
        more_lines: 0,
        is_root,
        percent,
        computation: None,
        shape_text,
        shape_read,
        ops_plain,
        opcode,
        rest,
        ops_len: u32::try_from(operands_text.len()).unwrap_or(u32::MAX),
        calls: Span::default(),
        kind_at: Sub::NONE,
        target_at: Sub::NONE,
        config_at: Sub::NONE,
        metadata_at: Sub::NONE,
        attrs: Span::default(),
    };
    let mut md = MetaFields::NONE;
    let balanced = attributes(s.get(ops_end..).unwrap_or(""), multi, &mut ins, &mut md, m);
    Some((ins, md, shape_read, closed.is_some() && balanced))
}

/// Reads an instruction's attributes (`, kind=kLoop, calls=%f, ...`) and
/// the fields of its (last) `metadata` into `md` (`multi`: over several
/// lines); whether their brackets balance.
fn attributes<'a>(
    attrs: &'a str,
    multi: bool,
    ins: &mut Instruction<'a>,
    md: &mut MetaFields,
    m: &mut Module<'a>,
) -> bool {
    let (first_attr, first_call) = (pool_len(&m.attr_pool), pool_len(&m.call_pool));
    // The metadata's fields come in the same walk, after its value: read
    // here once, they need no second pass (`Module::metadata`).
    let balanced = for_each_attr_balanced(attrs, "metadata", |item, key, value, _| match item {
        Item::Field => md.field(ins.rest, key, value, multi),
        Item::Attr => match key {
            "metadata" => {
                ins.metadata_at = Sub::of(ins.rest, value);
                *md = MetaFields::NONE;
            }
            "kind" => ins.kind_at = Sub::of(ins.rest, value),
            "custom_call_target" => {
                ins.target_at = Sub::of(ins.rest, value.trim_matches('"'));
            }
            "backend_config" => ins.config_at = Sub::of(ins.rest, value),
            _ => match CALL_ATTRS.iter().find(|(k, _)| *k == key) {
                None => m.attr_pool.push(Attr { key, value }),
                Some(&(_, role)) => {
                    let inner = value.trim().trim_start_matches('{').trim_end_matches('}');
                    for n in inner.split(',') {
                        let n = scan::strip_pct(n.trim());
                        if !n.is_empty() {
                            m.call_pool.push(Call {
                                role,
                                name: n,
                                id: None,
                            });
                        }
                    }
                }
            },
        },
    });
    ins.attrs = Span {
        start: first_attr,
        len: pool_len(&m.attr_pool) - first_attr,
    };
    ins.calls = Span {
        start: first_call,
        len: pool_len(&m.call_pool) - first_call,
    };
    balanced
}
