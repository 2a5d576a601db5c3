//! The memory texts people paste: out-of-memory errors and reports,
//! rematerialization and donation messages, read for their figures.
//!
//! Each is found by its own phrase, wherever it stands on a line, so a log
//! prefix (glog's `W1207 12:00:00.000000 1234 file.cc:12] `, TensorFlow's
//! `2024-01-01 12:00:00: W ...`, Python's `WARNING:absl:`, a `> ` quote) is
//! no obstacle. One row per text kind in [`TEXTS`]. A figure keeps the
//! text it was printed as; its bytes are exact where the text prints a
//! byte count, and otherwise the printed value with two decimals (so
//! within 0.5% of the figure XLA had), which [`Bytes::exact`] says.

/// One kind of memory text: its name and what it is.
#[derive(Clone, Copy, Debug)]
pub struct TextRow {
    /// Its id.
    pub id: Text,
    /// Its name in JSON.
    pub name: &'static str,
    /// What prints it.
    pub what: &'static str,
    /// What to paste with it to learn more (none: it says all).
    pub more: Option<&'static str>,
}

/// The memory texts, in the order of [`TEXTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Text {
    /// XLA:TPU's short out-of-memory error (a compile without a device).
    TpuShort,
    /// XLA:TPU's out-of-memory report, with the largest allocations.
    TpuReport,
    /// An allocator on a GPU or the host could not allocate a buffer.
    DeviceOom,
    /// XLA's rematerialization could not reach its memory limit.
    Remat,
    /// JAX's warning that a donated buffer was not usable.
    Donation,
    /// The `*-memory-usage-report.txt` file of `--xla_dump_to`.
    UsageReport,
}

/// Every memory text kind, one row each, in the order of [`Text`].
pub const TEXTS: &[TextRow] = &[
    TextRow {
        id: Text::TpuShort,
        name: "tpu-out-of-memory",
        what: "XLA:TPU's RESOURCE_EXHAUSTED error: the memory the program needs and the HBM the chip has",
        more: Some(
            "the memory-usage report that `--xla_dump_to` writes for the same compile, or the compiled module (`jax.jit(f).lower(*args).compile().as_text()` at a size that fits)",
        ),
    },
    TextRow {
        id: Text::TpuReport,
        name: "tpu-out-of-memory-report",
        what: "XLA:TPU's out-of-memory report: usage by kind and the largest allocations, each with its shape, padding and HLO instruction",
        more: None,
    },
    TextRow {
        id: Text::DeviceOom,
        name: "allocator-out-of-memory",
        what: "an allocator's out-of-memory error (XLA:GPU, the BFC allocator, PJRT): the request that failed",
        more: Some(
            "`compiled.memory_analysis()` and the compiled module of the same function, to see which buffers make up the peak",
        ),
    },
    TextRow {
        id: Text::Remat,
        name: "rematerialization",
        what: "XLA's rematerialization pass: the memory limit it aimed for and the peak it reached",
        more: Some(
            "the compiled module, to see what is live at the peak, or the buffer-assignment file of `--xla_dump_to`",
        ),
    },
    TextRow {
        id: Text::Donation,
        name: "donation-warning",
        what: "JAX's warning that donated buffers were not usable, with the shapes of those buffers",
        more: Some(
            "the function's outputs: a donated input is reused only by an output of the same shape and dtype",
        ),
    },
    TextRow {
        id: Text::UsageReport,
        name: "memory-usage-report",
        what: "the memory-usage report of `--xla_dump_to` (`*-memory-usage-report.txt`): per memory space, the total bytes and each allocation's size and shapes",
        more: None,
    },
];

/// A text kind's row.
pub fn text_row(t: Text) -> &'static TextRow {
    // In the order of `Text` (a test checks).
    &TEXTS[t as usize]
}

/// A size as printed, and its bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Bytes {
    /// As printed (`22.50G`, `16.00GiB`, `17179869184 bytes`).
    pub printed: String,
    /// Its bytes (the printed value times its unit, rounded).
    pub bytes: u64,
    /// Whether the text printed the byte count itself.
    pub exact: bool,
}

/// One named figure of a memory text (`required`, `available`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// What it is.
    pub name: &'static str,
    /// The size.
    pub size: Bytes,
}

/// One allocation of a report's largest allocations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Allocation {
    /// Its number in the report (1 is the largest).
    pub rank: u32,
    /// The line of its `Size:` (1-based, as pasted).
    pub line: usize,
    /// `Size:`.
    pub size: Option<Bytes>,
    /// `Unpadded size:`.
    pub unpadded: Option<Bytes>,
    /// `Extra memory due to padding:`.
    pub padding: Option<Bytes>,
    /// The `(N.Nx expansion)` the report prints with the padding.
    pub expansion: Option<f64>,
    /// `Shape:`.
    pub shape: Option<String>,
    /// `Operator:` (op name and source), as printed.
    pub operator: Option<String>,
    /// `XLA label:`: the HLO instruction, as printed.
    pub label: Option<String>,
    /// `Allocation type:`.
    pub kind: Option<String>,
}

/// One memory text found in a paste.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryText {
    /// What it is.
    pub kind: Text,
    /// Its first line (1-based).
    pub line: usize,
    /// That line, trimmed.
    pub text: String,
    /// Its figures, in the order printed.
    pub figures: Vec<Figure>,
    /// A report's largest allocations, in its order.
    pub allocations: Vec<Allocation>,
    /// The shapes a donation warning names.
    pub arrays: Vec<String>,
}

impl MemoryText {
    /// A figure by name.
    pub fn figure(&self, name: &str) -> Option<&Bytes> {
        self.figures
            .iter()
            .find(|f| f.name == name)
            .map(|f| &f.size)
    }
}

/// Allocations read from one report at most.
const MAX_ALLOCATIONS: usize = 256;

/// Every memory text in `text`, in line order.
pub fn read(text: &str) -> Vec<MemoryText> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<MemoryText> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let found = usage_report(&lines, i)
            .or_else(|| tpu_report(&lines, i))
            .or_else(|| tpu_short(line, i))
            .or_else(|| remat(line, i))
            .or_else(|| donation(line, i))
            .or_else(|| device_oom(line, i));
        match found {
            Some((m, used)) => {
                i += used.max(1);
                out.push(m);
            }
            None => i += 1,
        }
    }
    out
}

fn text_at(kind: Text, line: &str, i: usize) -> MemoryText {
    MemoryText {
        kind,
        line: i + 1,
        text: line.trim().chars().take(400).collect(),
        figures: Vec::new(),
        allocations: Vec::new(),
        arrays: Vec::new(),
    }
}

/// `16.00GiB`, `22.50G`, `530.00M`, `0B`, `4096`: a size as XLA, TSL and
/// libtpu print them (binary units), at the start of `s`; with what it
/// used of `s`.
pub fn size_at(s: &str) -> Option<(Bytes, usize)> {
    let t = s.trim_start();
    let lead = s.len() - t.len();
    let num = t
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b'.')
        .count();
    if num == 0 {
        return None;
    }
    let value: f64 = t.get(..num)?.parse().ok()?;
    let rest = t.get(num..)?;
    let unit_text = rest.trim_start();
    let gap = rest.len() - unit_text.len();
    let (scale, unit_len) = unit(unit_text);
    let used = if unit_len == 0 {
        num
    } else {
        num + gap + unit_len
    };
    let printed = t.get(..used)?.to_owned();
    let exact = scale == 1 && !printed.contains('.');
    let bytes = (value * scale as f64).round();
    if !bytes.is_finite() || bytes < 0.0 || bytes > u64::MAX as f64 {
        return None;
    }
    Some((
        Bytes {
            printed,
            bytes: bytes as u64,
            exact,
        },
        lead + used,
    ))
}

/// A unit's scale and length: `GiB`, `G`, `GB`, `B`, `bytes` (binary
/// multiples, as XLA's and TSL's printers use them).
fn unit(s: &str) -> (u64, usize) {
    if s.starts_with("bytes") {
        return (1, 5);
    }
    let Some(c) = s.chars().next() else {
        return (1, 0);
    };
    let power = match c {
        'K' | 'k' => 1,
        'M' => 2,
        'G' => 3,
        'T' => 4,
        'P' => 5,
        'B' => return (1, 1),
        _ => return (1, 0),
    };
    let scale = 1u64 << (10 * power);
    let tail = &s[1..];
    let len = if tail.starts_with("iB") {
        3
    } else if tail.starts_with('B') {
        2
    } else {
        1
    };
    // A letter after the unit makes it a word (`Mosaic`), not a unit.
    let next = s.get(len..).and_then(|r| r.chars().next());
    if next.is_some_and(|n| n.is_ascii_alphabetic()) {
        return (1, 0);
    }
    (scale, len)
}

/// The size right after `key` in `line`.
fn size_after(line: &str, key: &str) -> Option<Bytes> {
    let at = line.find(key)? + key.len();
    size_at(line.get(at..)?).map(|(b, _)| b)
}

/// The size inside the first parenthesis after `key`.
fn size_in_parens_after(line: &str, key: &str) -> Option<Bytes> {
    let at = line.find(key)? + key.len();
    let rest = line.get(at..)?;
    let open = rest.find('(')?;
    size_at(rest.get(open + 1..)?).map(|(b, _)| b)
}

fn push(m: &mut MemoryText, name: &'static str, size: Option<Bytes>) {
    if let Some(size) = size {
        m.figures.push(Figure { name, size });
    }
}

/// `Ran out of memory on HBM, the total memory required for HLO
/// temporaries (22.50G) exceeds available HBM (15.75G).`
fn tpu_short(line: &str, i: usize) -> Option<(MemoryText, usize)> {
    let at = line.find("the total memory required for ")?;
    let mut m = text_at(Text::TpuShort, line, i);
    let rest = &line[at..];
    push(
        &mut m,
        "required",
        size_in_parens_after(rest, "required for "),
    );
    push(
        &mut m,
        "available",
        size_in_parens_after(rest, "available "),
    );
    (!m.figures.is_empty()).then_some((m, 1))
}

/// XLA:TPU's long report: `Ran out of memory in memory space hbm. Used
/// 20.09G of 15.48G hbm. Exceeded hbm capacity by 4.61G.` (the last
/// sentence may be on the next line), its usage tables and `Largest
/// program allocations in hbm:`.
fn tpu_report(lines: &[&str], i: usize) -> Option<(MemoryText, usize)> {
    let line = lines[i];
    let at = line.find("Ran out of memory in memory space ")?;
    let mut m = text_at(Text::TpuReport, line, i);
    let rest = &line[at..];
    push(&mut m, "used", size_after(rest, "Used "));
    let after_used = rest.find("Used ").map_or(rest, |u| &rest[u..]);
    push(&mut m, "capacity", size_after(after_used, " of "));
    let next = lines.get(i + 1).copied().unwrap_or("");
    let exceeded = size_after(rest, "capacity by ").or_else(|| size_after(next, "capacity by "));
    push(&mut m, "exceeded", exceeded);
    let mut table = Table::None;
    let mut j = i + 1;
    while j < lines.len() && j < i + 4096 {
        let l = lines[j];
        if l.contains("Ran out of memory in memory space ") || is_new_message(l) {
            break;
        }
        if l.trim_start().starts_with("Largest program allocations") {
            j = allocations(lines, j + 1, &mut m.allocations);
            break;
        }
        table = usage_line(&mut m, l, table);
        j += 1;
    }
    Some((m, j - i))
}

/// XLA's memory-usage report: `Memory Space: default (color=0)`, `Total
/// bytes: 25769804288 (24.00GiB)`, then rows `cumulative(pct); size;
/// offset; used_by_n_values; shapes_list` (the allocations, largest
/// first). One text per memory space; its rows are its allocations
/// (size and shapes, ranked in the report's order).
fn usage_report(lines: &[&str], i: usize) -> Option<(MemoryText, usize)> {
    let line = lines[i];
    let space = line.trim().strip_prefix("Memory Space: ")?;
    let mut m = text_at(Text::UsageReport, line, i);
    let total = lines
        .get(i + 1)
        .and_then(|l| l.trim().strip_prefix("Total bytes: "));
    push(
        &mut m,
        "total",
        total.and_then(|t| exact_or_printed(t, "")).map(|b| {
            // `25769804288 (24.00GiB)`: the count, printed as XLA rounds it.
            let shown = total
                .and_then(|t| t.split_once('('))
                .and_then(|(_, p)| p.split_once(')'))
                .map_or(b.printed.clone(), |(p, _)| p.to_owned());
            Bytes {
                printed: shown,
                ..b
            }
        }),
    );
    m.arrays
        .push(space.split(" (").next().unwrap_or(space).to_owned());
    let mut j = i + 2;
    while j < lines.len() && m.allocations.len() < MAX_ALLOCATIONS {
        let t = lines[j].trim();
        if t.starts_with("Memory Space: ") {
            break;
        }
        let parts: Vec<&str> = t.split(';').map(str::trim).collect();
        if let [_, size, _, _, shapes] = parts.as_slice() {
            if let Some((b, _)) = size_at(size) {
                m.allocations.push(Allocation {
                    rank: u32::try_from(m.allocations.len() + 1).unwrap_or(u32::MAX),
                    line: j + 1,
                    size: Some(b),
                    shape: Some((*shapes).to_owned()),
                    ..Allocation::default()
                });
            }
        }
        j += 1;
    }
    Some((m, j - i))
}

/// A line that starts another message (a Python traceback).
fn is_new_message(l: &str) -> bool {
    l.starts_with("Traceback (most recent call last)")
}

/// Which usage table a report's line is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Table {
    None,
    /// `Total hbm usage >= ...:`
    Total,
    /// `Program hbm requirement ...:`
    Program,
}

/// Rows of the usage tables: (table, printed name, figure name).
const USAGE_ROWS: &[(Table, &str, &str)] = &[
    (Table::Total, "reserved", "reserved"),
    (Table::Total, "program", "program"),
    (Table::Total, "arguments", "arguments"),
    (Table::Program, "reserved", "program-reserved"),
    (Table::Program, "global", "global"),
    (Table::Program, "scoped", "scoped"),
    (Table::Program, "HLO temp", "hlo-temp"),
];

/// `Total hbm usage >= 20.61G:`, `    reserved        530.00M`, `Program
/// hbm requirement 20.09G:`, `    HLO temp 19.98G (100.0% utilization:
/// Unpadded (19.98G) Padded (19.98G), ...)`, `Output size 0B; shares 0B
/// with arguments.`; the table the next line is in.
fn usage_line(m: &mut MemoryText, l: &str, table: Table) -> Table {
    let t = l.trim();
    if t.starts_with("Total ") && t.contains(" usage >= ") {
        push(m, "total", size_after(t, " usage >= "));
        return Table::Total;
    }
    if t.starts_with("Program ") && t.contains(" requirement ") {
        push(m, "program-requirement", size_after(t, " requirement "));
        return Table::Program;
    }
    if let Some(s) = t.strip_prefix("Output size ") {
        push(m, "output", size_at(s).map(|b| b.0));
        push(m, "output-shared", size_after(s, "; shares "));
        return Table::None;
    }
    for &(in_table, key, name) in USAGE_ROWS {
        let Some(s) = t.strip_prefix(key) else {
            continue;
        };
        if in_table == table && s.starts_with(char::is_whitespace) {
            push(m, name, size_at(s).map(|b| b.0));
            if name == "hlo-temp" {
                push(m, "hlo-temp-unpadded", size_in_parens_after(s, "Unpadded"));
                push(m, "hlo-temp-padded", size_in_parens_after(s, " Padded"));
            }
        }
    }
    table
}

/// The numbered entries of `Largest program allocations in hbm:`, from
/// line `j`; the line after the last one read.
fn allocations(lines: &[&str], mut j: usize, out: &mut Vec<Allocation>) -> usize {
    let mut cur: Option<Allocation> = None;
    while j < lines.len() && out.len() < MAX_ALLOCATIONS {
        let t = lines[j].trim();
        if is_new_message(t) {
            break;
        }
        if let Some((rank, size)) = numbered_size(t) {
            if let Some(done) = cur.take() {
                out.push(done);
            }
            cur = Some(Allocation {
                rank,
                line: j + 1,
                size,
                ..Allocation::default()
            });
        } else if let Some(a) = cur.as_mut() {
            allocation_field(a, t);
        } else if !t.is_empty() {
            break;
        }
        j += 1;
    }
    out.extend(cur);
    j
}

/// `1. Size: 6.00G`.
fn numbered_size(t: &str) -> Option<(u32, Option<Bytes>)> {
    let (n, rest) = t.split_once(". Size:")?;
    let rank = n.trim().parse().ok()?;
    Some((rank, size_at(rest).map(|b| b.0)))
}

fn allocation_field(a: &mut Allocation, t: &str) {
    let value = |p: &str| t.strip_prefix(p).map(|v| v.trim().to_owned());
    if let Some(v) = t.strip_prefix("Unpadded size:") {
        a.unpadded = size_at(v).map(|b| b.0);
    } else if let Some(v) = t.strip_prefix("Extra memory due to padding:") {
        a.padding = size_at(v).map(|b| b.0);
        a.expansion = v
            .split_once('(')
            .and_then(|(_, e)| e.split_once('x'))
            .and_then(|(n, _)| n.trim().parse().ok());
    } else if let Some(v) = value("Shape:") {
        a.shape = Some(v);
    } else if let Some(v) = value("Operator:") {
        a.operator = Some(v);
    } else if let Some(v) = value("XLA label:") {
        a.label = Some(v);
    } else if let Some(v) = value("Allocation type:") {
        a.kind = Some(v);
    }
}

/// `Can't reduce memory use below 17.50GiB (18790481920 bytes) by
/// rematerialization; only reduced to 20.00GiB (21474836480 bytes), down
/// from 20.00GiB (21474836480 bytes) originally`.
fn remat(line: &str, i: usize) -> Option<(MemoryText, usize)> {
    let at = line.find("reduce memory use below ")?;
    let rest = &line[at..];
    let mut m = text_at(Text::Remat, line, i);
    push(&mut m, "limit", exact_or_printed(rest, "below "));
    push(
        &mut m,
        "reached",
        exact_or_printed(rest, "only reduced to "),
    );
    push(&mut m, "original", exact_or_printed(rest, "down from "));
    (!m.figures.is_empty()).then_some((m, 1))
}

/// The size after `key`, or the byte count in parentheses right after it
/// (`17.50GiB (18790481920 bytes)`) when there is one.
fn exact_or_printed(line: &str, key: &str) -> Option<Bytes> {
    let at = line.find(key)? + key.len();
    let rest = line.get(at..)?;
    let (printed, used) = size_at(rest)?;
    let after = rest.get(used..)?.trim_start();
    if let Some(inner) = after.strip_prefix('(') {
        if let Some((b, _)) = size_at(inner) {
            if b.exact {
                return Some(Bytes {
                    printed: printed.printed,
                    ..b
                });
            }
        }
    }
    Some(printed)
}

/// `Some donated buffers were not usable: ShapedArray(float32[1024]),
/// ShapedArray(int32[]).` (JAX up to 0.6.0) or `... usable: float32[1024],
/// int32[].` (later): the shapes, split at top-level commas.
fn donation(line: &str, i: usize) -> Option<(MemoryText, usize)> {
    let key = "donated buffers were not usable:";
    let at = line.find(key)? + key.len();
    let mut m = text_at(Text::Donation, line, i);
    let list = line[at..].trim();
    let list = list.split(".\\n").next().unwrap_or(list);
    let list = list.strip_suffix('.').unwrap_or(list);
    let mut depth = 0i32;
    let mut start = 0;
    let mut parts = Vec::new();
    for (k, c) in list.char_indices() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&list[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[start..]);
    for p in parts.into_iter().take(64) {
        let p = p.trim();
        let p = p
            .strip_prefix("ShapedArray(")
            .and_then(|q| q.strip_suffix(')'))
            .unwrap_or(p);
        if p.contains('[') {
            m.arrays.push(p.to_owned());
        }
    }
    // The line of the warning's source (`warnings.warn("Some donated
    // buffers were not usable:"`) names no array: not a warning.
    (!m.arrays.is_empty()).then_some((m, 1))
}

/// An allocator's failed request: `Out of memory while trying to allocate
/// 17179869184 bytes.`, `... ran out of memory trying to allocate
/// 16.00GiB (rounded to 17179869184)`, `Failed to allocate request for
/// 16.00GiB (17179869184B) on device ordinal 0`, `Out of memory
/// allocating 17179869184 bytes`.
fn device_oom(line: &str, i: usize) -> Option<(MemoryText, usize)> {
    const KEYS: &[&str] = &[
        "memory while trying to allocate ",
        "out of memory trying to allocate ",
        "Failed to allocate request for ",
        "Out of memory allocating ",
        "Attempting to allocate ",
    ];
    let (key, at) = KEYS.iter().find_map(|k| line.find(k).map(|at| (*k, at)))?;
    let mut m = text_at(Text::DeviceOom, line, i);
    let rest = &line[at..];
    let requested = exact_or_printed(rest, key).map(|b| rounded(rest, b));
    push(&mut m, "requested", requested);
    if let Some(free) = size_after(rest, "There are ") {
        push(&mut m, "free", Some(free));
    }
    (!m.figures.is_empty()).then_some((m, 1))
}

/// The BFC allocator's `(rounded to N)`: the exact request.
fn rounded(rest: &str, b: Bytes) -> Bytes {
    match size_after(rest, "(rounded to ") {
        Some(r) if r.exact => Bytes {
            printed: b.printed,
            ..r
        },
        _ => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_in_order() {
        for (i, r) in TEXTS.iter().enumerate() {
            assert_eq!(r.id as usize, i, "{}", r.name);
        }
    }

    #[test]
    fn sizes() {
        let s = |t: &str| size_at(t).map(|(b, _)| (b.bytes, b.exact));
        assert_eq!(s("22.50G"), Some((24_159_191_040, false)));
        assert_eq!(s("16.00GiB (rounded"), Some((17_179_869_184, false)));
        assert_eq!(s("0B"), Some((0, true)));
        assert_eq!(s("4096 bytes"), Some((4096, true)));
        assert_eq!(s("530.00M"), Some((555_745_280, false)));
        assert_eq!(s("12 Mosaic"), Some((12, true)));
        assert_eq!(s("x"), None);
    }
}
