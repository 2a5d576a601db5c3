//! Reads compiled HLO for the source map: every computation's provenance
//! and callees, the entry computation's instructions in run order, and the
//! `FileNames`/`FileLocations`/`StackFrames` tables that `stack_frame_id`s
//! point into.
//!
//! One pass over the lines, the instruction splitter of the analysis
//! (`analysis::hlo::parse_instruction`), no recursion on input nesting.

use crate::analysis::hlo::{parse_computation_header, parse_instruction};
use crate::analysis::scan::{self, Item, Sip, for_each_attr, strip_pct};
use std::collections::HashMap;

/// A provenance as an instruction prints it: op name, then either a source
/// file and line (older printers) or a stack frame id.
pub(crate) type RawKey<'a> = (&'a str, Option<&'a str>, Option<u32>, Option<u32>);

/// One instruction of the entry computation.
pub(crate) struct EntryIns<'a> {
    pub(crate) line: usize,
    pub(crate) name: &'a str,
    pub(crate) opcode: &'a str,
    pub(crate) shape: &'a str,
    pub(crate) operands: &'a str,
    /// `kind=` of a fusion.
    pub(crate) fusion_kind: Option<&'a str>,
    /// `"kind":"..."` inside `backend_config` (`__triton`, `__ynn_fusion`).
    pub(crate) config_kind: Option<&'a str>,
    pub(crate) target: Option<&'a str>,
    pub(crate) callees: Vec<&'a str>,
    /// Index into [`Compiled::keys`].
    pub(crate) key: Option<usize>,
}

/// One computation: the provenance keys and opcodes of its instructions,
/// and the computations they call.
#[derive(Default)]
pub(crate) struct Comp<'a> {
    pub(crate) keys: Vec<usize>,
    pub(crate) callees: Vec<&'a str>,
    pub(crate) ops: Vec<&'a str>,
}

/// Everything the source map needs from a compiled (or lowered) HLO text.
#[derive(Default)]
pub(crate) struct Compiled<'a> {
    pub(crate) comps: Vec<Comp<'a>>,
    pub(crate) comp_index: HashMap<&'a str, usize, Sip>,
    pub(crate) entry: Option<usize>,
    pub(crate) entry_name: Option<&'a str>,
    pub(crate) entry_ins: Vec<EntryIns<'a>>,
    /// Parameter shapes from a signed `ENTRY` header, when printed.
    pub(crate) header_params: Option<Vec<&'a str>>,
    /// Distinct provenance keys, as printed.
    pub(crate) keys: Vec<RawKey<'a>>,
    key_index: HashMap<RawKey<'a>, usize, Sip>,
    /// Every instruction with its line, name, opcode and key (for an HLO
    /// text used as the lowered side); filled only when asked.
    pub(crate) all: Vec<(usize, &'a str, &'a str, Option<usize>)>,
    /// Instruction and computation lines read: the size of the work.
    pub(crate) instructions: usize,
    file_names: HashMap<u32, &'a str, Sip>,
    file_locations: HashMap<u32, (u32, u32), Sip>,
    stack_frames: HashMap<u32, u32, Sip>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    FileNames,
    FileLocations,
    StackFrames,
    Other,
}

/// Distinct opcodes kept per computation (real ones have a handful).
const MAX_OPS: usize = 64;

/// The computations named by a `calls=`/`to_apply=`/`branch_computations=`
/// value: `%f`, `{%a, %b}`.
fn callee_names<'a>(v: &'a str, out: &mut Vec<&'a str>) {
    let inner = v.trim().trim_start_matches('{').trim_end_matches('}');
    for s in inner.split(',') {
        let s = strip_pct(s.trim());
        if !s.is_empty() && out.len() < MAX_OPS {
            out.push(s);
        }
    }
}

/// The `"kind":"..."` value inside a backend config.
fn config_kind(v: &str) -> Option<&str> {
    let at = v.find("\"kind\":\"")? + 8;
    let rest = v.get(at..)?;
    let end = rest.find('"')?;
    rest.get(..end).filter(|k| !k.is_empty())
}

impl<'a> Compiled<'a> {
    /// Reads `text`; with `keep_all`, also lists every instruction.
    pub(crate) fn read(text: &'a str, keep_all: bool) -> Self {
        let mut c = Compiled::default();
        let mut current: Option<usize> = None;
        let mut section = Section::None;
        for (i, l) in scan::lines(text).enumerate() {
            let n = i + 1;
            let t = scan::trim(l);
            if t.is_empty() {
                continue;
            }
            if section != Section::None {
                if t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                    c.section_line(section, t);
                    continue;
                }
                section = Section::None;
            }
            if let Some(ins) = parse_instruction(l) {
                c.instructions += 1;
                c.instruction(n, l, &ins, current, keep_all);
                continue;
            }
            match t {
                "}" => {
                    current = None;
                    continue;
                }
                "FileNames" => section = Section::FileNames,
                "FileLocations" => section = Section::FileLocations,
                "StackFrames" => section = Section::StackFrames,
                "FunctionNames" => section = Section::Other,
                _ => {}
            }
            if section != Section::None {
                continue;
            }
            if let Some(h) = parse_computation_header(l) {
                c.instructions += 1;
                let idx = c.comps.len();
                c.comps.push(Comp::default());
                c.comp_index.entry(h.name).or_insert(idx);
                current = Some(idx);
                if h.entry && c.entry.is_none() {
                    c.entry = Some(idx);
                    c.entry_name = Some(h.name);
                    if h.signed {
                        c.header_params = Some(
                            split_top(h.params)
                                .into_iter()
                                .map(|p| p.split_once(':').map_or(p, |(_, s)| s).trim())
                                .collect(),
                        );
                    }
                }
            }
        }
        for comp in &mut c.comps {
            comp.keys.sort_unstable();
            comp.keys.dedup();
        }
        c
    }

    fn section_line(&mut self, section: Section, t: &'a str) {
        let b = t.as_bytes();
        let id_end = scan::take_while(b, 0, |c| c.is_ascii_digit());
        let Some(id) = t.get(..id_end).and_then(|s| s.parse::<u32>().ok()) else {
            return;
        };
        let rest = t.get(id_end..).unwrap_or("").trim();
        let num = |k: &str| scan::field(rest, k).and_then(|v| v.parse::<u32>().ok());
        match section {
            Section::FileNames => {
                self.file_names.insert(id, rest.trim_matches('"'));
            }
            Section::FileLocations => {
                if let (Some(f), Some(line)) = (num("file_name_id"), num("line")) {
                    self.file_locations.insert(id, (f, line));
                }
            }
            Section::StackFrames => {
                if let Some(loc) = num("file_location_id") {
                    self.stack_frames.insert(id, loc);
                }
            }
            Section::Other | Section::None => {}
        }
    }

    fn instruction(
        &mut self,
        n: usize,
        l: &'a str,
        ins: &crate::analysis::hlo::Instr<'a>,
        current: Option<usize>,
        keep_all: bool,
    ) {
        let mut callees: Vec<&'a str> = Vec::new();
        let (mut op, mut file, mut line, mut frame) = (None, None, None, None);
        let mut fusion_kind = None;
        let mut ckind = None;
        for_each_attr(ins.attrs, "metadata", |item, k, v, _| match (item, k) {
            (Item::Field, "op_name") => op = Some(v),
            (Item::Field, "stack_frame_id") => frame = v.parse::<u32>().ok(),
            (Item::Field, "source_file") => file = Some(v),
            (Item::Field, "source_line") => line = v.parse::<u32>().ok(),
            (Item::Field, _) => {}
            (_, "metadata") => (op, file, line, frame) = (None, None, None, None),
            (
                _,
                "calls"
                | "to_apply"
                | "condition"
                | "body"
                | "true_computation"
                | "false_computation"
                | "branch_computations"
                | "called_computations",
            ) => callee_names(v, &mut callees),
            (_, "kind") => fusion_kind = Some(v),
            (_, "backend_config") => ckind = config_kind(v),
            _ => {}
        });
        let key = op.map(|op| {
            let raw = (op, file, line, frame);
            let next = self.keys.len();
            let k = *self.key_index.entry(raw).or_insert(next);
            if k == next {
                self.keys.push(raw);
            }
            k
        });
        if keep_all && ins.opcode != "parameter" {
            self.all.push((n, ins.name, ins.opcode, key));
        }
        let Some(ci) = current else { return };
        let is_entry = self.entry == Some(ci);
        if let Some(comp) = self.comps.get_mut(ci) {
            if let Some(k) = key {
                comp.keys.push(k);
            }
            if ins.opcode != "parameter"
                && comp.ops.len() < MAX_OPS
                && !comp.ops.contains(&ins.opcode)
            {
                comp.ops.push(ins.opcode);
            }
            if is_entry {
                // The entry's kernels keep their own callees.
            } else {
                for c in &callees {
                    if comp.callees.len() < 4 * MAX_OPS {
                        comp.callees.push(c);
                    }
                }
            }
        }
        if is_entry {
            let target = if ins.opcode == "custom-call" {
                crate::analysis::hlo::custom_call_target(l)
            } else {
                None
            };
            self.entry_ins.push(EntryIns {
                line: n,
                name: ins.name,
                opcode: ins.opcode,
                shape: ins.shape,
                operands: ins.operands,
                fusion_kind,
                config_kind: ckind,
                target,
                callees,
                key,
            });
        }
    }

    /// A raw key's file and line, through the stack frame tables when the
    /// instruction names a frame.
    pub(crate) fn location(&self, key: &RawKey<'a>) -> Option<(&'a str, u32)> {
        match key {
            (_, Some(f), Some(l), _) => Some((f, *l)),
            (_, _, _, Some(frame)) => {
                let loc = self.stack_frames.get(frame)?;
                let (file, line) = self.file_locations.get(loc)?;
                Some((self.file_names.get(file)?, *line))
            }
            _ => None,
        }
    }

    /// Shapes of the entry parameters: from the signed header, else from
    /// the `parameter(N)` instructions in number order.
    pub(crate) fn signature(&self) -> Option<Vec<String>> {
        if let Some(p) = &self.header_params {
            return Some(p.iter().map(|s| normalize_hlo_shape(s)).collect());
        }
        self.entry?;
        let mut ps: Vec<(usize, &str)> = self
            .entry_ins
            .iter()
            .filter(|i| i.opcode == "parameter")
            .map(|i| (i.operands.trim().parse().unwrap_or(usize::MAX), i.shape))
            .collect();
        ps.sort_by_key(|p| p.0);
        Some(
            ps.into_iter()
                .map(|(_, s)| normalize_hlo_shape(s))
                .collect(),
        )
    }
}

/// Splits at top-level commas (not inside brackets, braces or parentheses).
pub(crate) fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0usize;
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                if let Some(p) = s.get(start..i) {
                    out.push(p.trim());
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if let Some(p) = s.get(start..) {
        if !p.trim().is_empty() {
            out.push(p.trim());
        }
    }
    out
}

/// `f32[8,128]{1,0:T(8,128)}` → `f32[8,128]`; tuples keep their parts,
/// each without layout.
pub(crate) fn normalize_hlo_shape(s: &str) -> String {
    normalize_at(s, 0)
}

/// Tuples nest at most this deep in what the source map reads; deeper
/// ones are kept as printed (and their bytes unknown).
const MAX_TUPLE_DEPTH: usize = 8;

fn normalize_at(s: &str, depth: usize) -> String {
    let s = s.trim();
    if depth > MAX_TUPLE_DEPTH {
        return s.to_owned();
    }
    if let Some(inner) = s.strip_prefix('(') {
        let inner = inner.strip_suffix(')').unwrap_or(inner);
        let parts: Vec<String> = split_top(inner)
            .into_iter()
            .map(|p| normalize_at(p, depth + 1))
            .collect();
        return format!("({})", parts.join(", "));
    }
    match s.find(']') {
        Some(p) => s.get(..=p).unwrap_or(s).to_owned(),
        None => s.to_owned(),
    }
}

/// Bytes of one element of an HLO element type; `None` when unknown.
fn element_bits(t: &str) -> Option<u64> {
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

/// Bytes an HLO shape holds (arrays and tuples of arrays, layouts and
/// dynamic `<=` bounds allowed); `None` when a part cannot be read.
pub(crate) fn shape_bytes(s: &str) -> Option<u64> {
    bytes_at(s, 0)
}

fn bytes_at(s: &str, depth: usize) -> Option<u64> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('(') {
        if depth >= MAX_TUPLE_DEPTH {
            return None;
        }
        let close = scan::skip_balanced(s.as_bytes(), 0)?;
        let inner = inner.get(..close.saturating_sub(2))?;
        let mut total = 0u64;
        for p in split_top(inner) {
            total = total.checked_add(bytes_at(p, depth + 1)?)?;
        }
        return Some(total);
    }
    let open = s.find('[')?;
    let close = open + s.get(open..)?.find(']')?;
    let bits = element_bits(s.get(..open)?)?;
    let mut elems = 1u64;
    let dims = s.get(open + 1..close)?;
    if !dims.trim().is_empty() {
        for d in dims.split(',') {
            let d = d.trim().trim_start_matches("<=");
            elems = elems.checked_mul(d.parse::<u64>().ok()?)?;
        }
    }
    elems.checked_mul(bits).map(|b| b.div_ceil(8))
}
