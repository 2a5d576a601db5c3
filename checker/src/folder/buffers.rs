//! XLA's buffer-assignment dumps, read line by line: `*-buffer-assignment.txt`
//! (`BufferAllocation::ToString` in `xla/service/buffer_assignment.cc`: one
//! `allocation N: size S, <types>:` line per allocation, then one
//! ` value: <id name{index} (phi) @color> (size=N,offset=M): shape` line per
//! value in it), `*-memory-usage-report.txt` (per memory space, its name,
//! color and total bytes) and `*-live-range.txt` (`HloLiveRange`: the
//! instruction sequence, each value's live range, the values live at its
//! peak). The same printers run on the CPU, the GPU and the TPU.
//!
//! Every reader is one pass over the lines; a line it cannot read is counted
//! in `unread`, never a panic; a number that does not fit in a `u64` makes
//! its line unread.

/// An allocation type, as `BufferAllocation::ToShortString` prints it after
/// the size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `parameter N, shape |...| at ShapeIndex {...}`.
    Parameter,
    /// `output shape is |...|`.
    Output,
    /// `constant`.
    Constant,
    /// `thread-local`.
    ThreadLocal,
    /// `maybe-live-out`.
    MaybeLiveOut,
    /// `preallocated-temp`.
    PreallocatedTemp,
}

/// One row of [`TYPES`].
#[derive(Clone, Copy, Debug)]
pub struct TypeRow {
    /// The type.
    pub ty: Type,
    /// Its name in DumpLab's JSON (XLA's word).
    pub name: &'static str,
    /// How the clause starts, as XLA prints it.
    pub printed: &'static str,
    /// Whether the clause goes on past `printed` (a number, a shape).
    pub prefix: bool,
    /// What XLA means by it (from `xla/service/buffer_assignment.h`).
    pub description: &'static str,
}

/// The allocation types, one row each, in the order XLA prints them.
pub const TYPES: &[TypeRow] = &[
    TypeRow {
        ty: Type::Parameter,
        name: "parameter",
        printed: "parameter ",
        prefix: true,
        description: "holds a parameter of the entry computation (or one part of it, at the shape index)",
    },
    TypeRow {
        ty: Type::Output,
        name: "output",
        printed: "output shape is |",
        prefix: true,
        description: "holds the entry computation's result (its top-level buffer)",
    },
    TypeRow {
        ty: Type::Constant,
        name: "constant",
        printed: "constant",
        prefix: false,
        description: "holds a constant (on the CPU and GPU a global of the binary, not allocated at run time)",
    },
    TypeRow {
        ty: Type::ThreadLocal,
        name: "thread-local",
        printed: "thread-local",
        prefix: false,
        description: "used inside a called computation such as a reduce's or map's (allocated on the stack, not from the heap)",
    },
    TypeRow {
        ty: Type::MaybeLiveOut,
        name: "maybe-live-out",
        printed: "maybe-live-out",
        prefix: false,
        description: "holds a value that may be part of the entry computation's result (XLA marks it conservatively)",
    },
    TypeRow {
        ty: Type::PreallocatedTemp,
        name: "preallocated-temp",
        printed: "preallocated-temp",
        prefix: false,
        description: "temporary memory allocated before the run: neither parameter, output, thread-local nor constant",
    },
];

/// The [`TYPES`] row of a type.
pub fn row(ty: Type) -> &'static TypeRow {
    TYPES.iter().find(|r| r.ty == ty).unwrap_or(&TYPES[0])
}

/// One value in an allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value<'a> {
    /// XLA's value id.
    pub id: u64,
    /// The instruction that defines it.
    pub instruction: &'a str,
    /// Its shape index (`{1}`), printed for a tuple-shaped instruction;
    /// empty otherwise.
    pub index: &'a str,
    /// A phi value (of a `while` or a `conditional`).
    pub phi: bool,
    /// `@N`: the value's color.
    pub color: Option<u64>,
    /// Bytes.
    pub size: u64,
    /// Offset in the allocation.
    pub offset: u64,
    /// Its shape with layout, as printed.
    pub shape: &'a str,
    /// 1-based line.
    pub line: usize,
}

/// An entry parameter's part of an allocation line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param<'a> {
    /// The parameter number.
    pub number: u64,
    /// Its shape without layout, as printed between the bars.
    pub shape: &'a str,
    /// The shape index inside the parameter (`{}`).
    pub index: &'a str,
}

/// One allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation<'a> {
    /// Its index.
    pub index: u64,
    /// Bytes.
    pub size: u64,
    /// `color N` (0 when not printed).
    pub color: u64,
    /// Its types, in print order.
    pub types: Vec<Type>,
    /// The parameter it holds.
    pub param: Option<Param<'a>>,
    /// `output shape is |...|`: the result's shape.
    pub output_shape: Option<&'a str>,
    /// Clauses no row of [`TYPES`] knows, as printed.
    pub unknown: Vec<&'a str>,
    /// Its values, in print order (XLA sorts them by id).
    pub values: Vec<Value<'a>>,
    /// 1-based line.
    pub line: usize,
}

impl Allocation<'_> {
    /// Whether it has a type.
    pub fn is(&self, ty: Type) -> bool {
        self.types.contains(&ty)
    }

    /// Its largest value's size (the first of the largest), 0 without values.
    pub fn largest_value(&self) -> u64 {
        self.values.iter().map(|v| v.size).max().unwrap_or(0)
    }
}

/// A `*-buffer-assignment.txt` file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BufferAssignment<'a> {
    /// The allocations, in print order.
    pub allocations: Vec<Allocation<'a>>,
    /// Lines neither an allocation, a value nor a known heading.
    pub unread: usize,
    /// The first unread line (1-based).
    pub first_unread: Option<usize>,
}

/// Reads a `*-buffer-assignment.txt` file.
pub fn buffer_assignment(text: &str) -> BufferAssignment<'_> {
    let mut out = BufferAssignment::default();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let t = line.trim_end();
        if t.is_empty() || t == "BufferAssignment:" {
            continue;
        }
        if let Some(a) = allocation_line(t, n) {
            out.allocations.push(a);
            continue;
        }
        match (value_line(t, n), out.allocations.last_mut()) {
            (Some(v), Some(a)) => a.values.push(v),
            _ => {
                out.unread += 1;
                out.first_unread.get_or_insert(n);
            }
        }
    }
    out
}

/// `allocation 0: size 2097152, output shape is |f32[512,1024]|, maybe-live-out:`.
pub fn allocation_line(line: &str, n: usize) -> Option<Allocation<'_>> {
    let rest = line.strip_prefix("allocation ")?;
    let (index, rest) = rest.split_once(": size ")?;
    let index = index.parse::<u64>().ok()?;
    let rest = rest.strip_suffix(':')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let size = rest.get(..digits)?.parse::<u64>().ok()?;
    let mut a = Allocation {
        index,
        size,
        color: 0,
        types: Vec::new(),
        param: None,
        output_shape: None,
        unknown: Vec::new(),
        values: Vec::new(),
        line: n,
    };
    let clauses = rest.get(digits..)?;
    // A human-readable size may follow the number: `size 2048 (2.0KiB)`.
    let clauses = match clauses.trim_start().strip_prefix('(') {
        Some(r) => r.split_once(')').map_or("", |(_, r)| r),
        None => clauses,
    };
    for clause in split_clauses(clauses) {
        clause_into(&mut a, clause);
    }
    Some(a)
}

/// The `, `-separated clauses after the size, bars (`|...|`) kept whole.
fn split_clauses(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut in_bar = false;
    let mut start = 0;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'|' => in_bar = !in_bar,
            b',' if !in_bar && b.get(i + 1) == Some(&b' ') => {
                out.push(&s[start..i]);
                start = i + 2;
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&s[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

fn clause_into<'a>(a: &mut Allocation<'a>, clause: &'a str) {
    // `parameter 0, shape |f32[8]| at ShapeIndex {}`: the second clause is
    // the parameter's.
    if let (Some(r), Some(p)) = (clause.strip_prefix("shape |"), a.param.as_mut()) {
        if let Some((shape, rest)) = r.split_once('|') {
            p.shape = shape;
            if let Some(i) = rest.trim().strip_prefix("at ShapeIndex ") {
                p.index = i.trim();
            }
            return;
        }
    }
    if let Some(c) = clause.strip_prefix("color ") {
        match c.parse::<u64>() {
            Ok(c) => a.color = c,
            Err(_) => a.unknown.push(clause),
        }
        return;
    }
    let Some(r) = TYPES.iter().find(|r| {
        if r.prefix {
            clause.starts_with(r.printed)
        } else {
            clause == r.printed
        }
    }) else {
        a.unknown.push(clause);
        return;
    };
    a.types.push(r.ty);
    let rest = &clause[r.printed.len()..];
    match r.ty {
        Type::Parameter => a.param = param_clause(rest),
        Type::Output => a.output_shape = rest.strip_suffix('|'),
        _ => {}
    }
}

/// `0, shape |f32[512,1024]| at ShapeIndex {}` (older printers: `0 at
/// ShapeIndex {}`, or just `0`).
fn param_clause(rest: &str) -> Option<Param<'_>> {
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let number = rest.get(..digits)?.parse::<u64>().ok()?;
    let tail = &rest[digits..];
    let shape = tail
        .split_once('|')
        .and_then(|(_, r)| r.split_once('|'))
        .map_or("", |(s, _)| s);
    let index = tail
        .rsplit_once("at ShapeIndex ")
        .map_or("{}", |(_, i)| i.trim());
    Some(Param {
        number,
        shape,
        index,
    })
}

/// ` value: <24 ynn_fusion.1 @0> (size=2097152,offset=0): f32[512,1024]{1,0}`.
pub fn value_line(line: &str, n: usize) -> Option<Value<'_>> {
    let rest = line.trim_start().strip_prefix("value: <")?;
    let (inner, rest) = rest.split_once("> (size=")?;
    let (id, name) = inner.split_once(' ')?;
    let id = id.parse::<u64>().ok()?;
    let (name, color) = match name.rsplit_once(" @") {
        Some((nm, c)) if c.bytes().all(|b| b.is_ascii_digit()) => (nm, Some(c.parse().ok()?)),
        _ => (name, None),
    };
    let (name, phi) = match name.strip_suffix(" (phi)") {
        Some(nm) => (nm, true),
        None => (name, false),
    };
    let (instruction, index) = match name.find('{') {
        Some(at) if name.ends_with('}') => (&name[..at], &name[at..]),
        _ => (name, ""),
    };
    let (size, rest) = rest.split_once(",offset=")?;
    let (offset, shape) = rest.split_once("): ")?;
    Some(Value {
        id,
        instruction,
        index,
        phi,
        color,
        size: size.parse().ok()?,
        offset: offset.parse().ok()?,
        shape: shape.trim(),
        line: n,
    })
}

/// One memory space of a `*-memory-usage-report.txt` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Space<'a> {
    /// Its name (`default`, `vmem`, `smem`).
    pub name: &'a str,
    /// Its color.
    pub color: u64,
    /// `Total bytes:` (the sum of its allocations' sizes).
    pub total_bytes: Option<u64>,
    /// 1-based line of its heading.
    pub line: usize,
}

/// Reads the memory spaces of a `*-memory-usage-report.txt` file
/// (`Memory Space: vmem (color=1)` then `Total bytes: 2103296 (2.01MiB)`).
pub fn memory_usage_report(text: &str) -> Vec<Space<'_>> {
    let mut out: Vec<Space<'_>> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(r) = t.strip_prefix("Memory Space: ") {
            let Some((name, c)) = r.split_once(" (color=") else {
                continue;
            };
            let Some(Ok(color)) = c.strip_suffix(')').map(str::parse::<u64>) else {
                continue;
            };
            out.push(Space {
                name,
                color,
                total_bytes: None,
                line: i + 1,
            });
        } else if let Some(r) = t.strip_prefix("Total bytes: ") {
            let digits = r.bytes().take_while(u8::is_ascii_digit).count();
            if let (Some(s), Ok(v)) = (out.last_mut(), r[..digits].parse::<u64>()) {
                s.total_bytes.get_or_insert(v);
            }
        }
    }
    out
}

/// What a `*-live-range.txt` file says of its peak.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveRange<'a> {
    /// `HloLiveRange (max N)`.
    pub max_time: Option<u64>,
    /// Instructions in the sequence.
    pub sequence: usize,
    /// Each value's live range, `name{index}` and its first and last
    /// step (both live), in print order.
    pub ranges: Vec<(&'a str, u64, u64)>,
    /// `Live ranges at T (peak)`.
    pub peak_time: Option<u64>,
    /// The values live at the peak, with their bytes, in print order.
    pub peak_values: Vec<(&'a str, u64)>,
    /// The file's own peak: the last `cumulative` figure at the peak, else
    /// the `Stack trace breakdown for peak usage` figure.
    pub peak_bytes: Option<u64>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Sequence,
    Ranges,
    Peak,
    Other,
}

/// Reads a `*-live-range.txt` file.
pub fn live_range(text: &str) -> LiveRange<'_> {
    let mut out = LiveRange::default();
    let mut section = Section::None;
    let mut cumulative = None;
    let mut breakdown = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(r) = t.strip_prefix("HloLiveRange (max ") {
            out.max_time = r.strip_suffix("):").and_then(|m| m.parse().ok());
        } else if t == "InstructionSequence:" {
            section = Section::Sequence;
        } else if t == "BufferLiveRange:" {
            section = Section::Ranges;
        } else if let Some(r) = t.strip_prefix("Live ranges at ") {
            section = Section::Peak;
            out.peak_time = r.strip_suffix(" (peak):").and_then(|m| m.parse().ok());
        } else if let Some(r) = t.strip_prefix("Stack trace breakdown for peak usage: ") {
            section = Section::Other;
            let digits: String = r.chars().filter(char::is_ascii_digit).collect();
            breakdown = digits.parse::<u64>().ok();
        } else {
            match section {
                Section::Sequence if t.contains(':') => out.sequence += 1,
                Section::Ranges => {
                    if let Some(r) = range_line(t) {
                        out.ranges.push(r);
                    }
                }
                Section::Peak => {
                    if let Some((name, bytes, cum)) = peak_line(t) {
                        out.peak_values.push((name, bytes));
                        cumulative = Some(cum);
                    }
                }
                _ => {}
            }
        }
    }
    out.peak_bytes = cumulative.or(breakdown);
    out
}

/// `ynn_fusion.1{}:1-4`.
pub fn range_line(t: &str) -> Option<(&str, u64, u64)> {
    let (name, span) = t.rsplit_once(':')?;
    let (a, b) = span.split_once('-')?;
    let (a, b) = (a.parse::<u64>().ok()?, b.parse::<u64>().ok()?);
    (a <= b && name.ends_with('}')).then_some((name, a, b))
}

/// `x.1{}: 2097152 bytes (cumulative: 4194304 bytes)`.
pub fn peak_line(t: &str) -> Option<(&str, u64, u64)> {
    let at = t.find("}: ")?;
    let (name, rest) = (&t[..=at], &t[at + 3..]);
    let (bytes, rest) = rest.split_once(" bytes (cumulative: ")?;
    let cum = rest.strip_suffix(" bytes)")?;
    Some((name, bytes.parse().ok()?, cum.parse().ok()?))
}
