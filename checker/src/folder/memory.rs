//! A module's memory figures, from its buffer-assignment dump (read by
//! [`super::buffers`]), its memory-usage report, its live-range file and its
//! optimized module (for `input_output_alias` and each value's instruction
//! and source line).
//!
//! The four sizes follow XLA's `CompiledMemoryStats::
//! PopulateBufferStatsFromAllocations` (`xla/pjrt/compiled_memory_stats.cc`,
//! earlier `xla/pjrt/pjrt_executable.cc`), allocation by allocation:
//! - `argument_bytes`: the size of every entry-parameter allocation;
//! - `alias_bytes`: the size of every entry-parameter allocation that the
//!   module's `input_output_alias` names (XLA's
//!   `is_parameter_aliased_with_output`, set from that header);
//! - `output_bytes`: the size of every `maybe-live-out` allocation (a
//!   parameter that is also an output counts in both);
//! - `temp_bytes`: the size of every `preallocated-temp` allocation
//!   (`BufferAllocation::IsPreallocatedTempBuffer`: neither parameter,
//!   maybe-live-out, thread-local nor constant), whatever its color;
//! - an allocation whose values are in memory space `S(5)`
//!   (`Layout::kHostMemorySpace`) counts in the host figures instead.
//!
//! `peak_bytes` is XLA's `ComputePeakMemory` (`xla/service/
//! buffer_assignment.cc`; `ComputePeakMemorySizes` in newer trees, its
//! padded figure): the largest value of each parameter, constant and
//! maybe-live-out allocation that is not thread-local (`AllocateStaticBuffers`),
//! then a replay of the buffer assignment's heap-simulator traces (ALLOC,
//! FREE, SHARE_WITH events of the temporaries) on top, keeping the maximum.
//! No dump file holds those traces, so:
//! - on the CPU the peak is the first part: the CPU executable's buffer
//!   assignment carries no trace (`serialized_buffer_assignment_proto` of
//!   `memory_analysis()` has none in every CPU compile of the tests' data);
//! - on the GPU the replay is rebuilt from the dumps ([`heap_replay`]): at
//!   each step of the live-range file, the live values of the
//!   `preallocated-temp` allocations that are not tuples, each offset of an
//!   allocation counted once (the heap simulator gives values that share
//!   memory one chunk, so they sit at one offset); it equals
//!   `memory_analysis()` on every GPU test folder, and is unknown where a
//!   value has no live range;
//! - where the file name names no backend (XLA:TPU's), unknown: libtpu fills
//!   `memory_analysis()` itself, its source is not public, and its
//!   `temp_size_in_bytes` is not XLA's rule (0 beside `preallocated-temp`
//!   allocations of color 0), so `temp_bytes` is unknown there too.
//!
//! `live_range_peak_bytes` is the live-range file's own figure, shown apart:
//! it adds every live value's size, so values that share an allocation
//! count twice, and it is not `memory_analysis()`'s peak.

use super::buffers::{self, Allocation, BufferAssignment, TYPES, Type};
use crate::program::{self, Module, Shape};
use crate::sourcemap::json::push_str;
use std::collections::HashMap;
use std::fmt::Write;

/// How many of the largest allocations the JSON lists.
pub const LARGEST_JSON: usize = 10;
/// How many the terminal text lists.
pub const LARGEST_TEXT: usize = 5;
/// How many parameters without an alias the terminal text lists.
pub const UNALIASED_TEXT: usize = 10;
/// XLA's `Layout::kHostMemorySpace`.
pub const HOST_MEMORY_SPACE: u32 = 5;

/// Which backend wrote the buffer assignment, from its file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Producer {
    /// `*.cpu_after_optimizations-buffer-assignment.txt`.
    Cpu,
    /// `*.sm_9.0a_gpu_after_optimizations-buffer-assignment.txt` and other
    /// `*gpu_after_optimizations` names.
    Gpu,
    /// A name without a backend (XLA:TPU writes
    /// `*.after_optimizations-buffer-assignment.txt`).
    Unnamed,
}

impl Producer {
    /// From a buffer-assignment (or memory-usage-report, live-range) file
    /// name.
    pub fn from_file_name(name: &str) -> Producer {
        let stem = name.rsplit('/').next().unwrap_or(name);
        let stem = ["-buffer-assignment", "-memory-usage-report", "-live-range"]
            .iter()
            .find_map(|s| stem.split_once(s).map(|(a, _)| a))
            .unwrap_or(stem);
        if stem.ends_with("cpu_after_optimizations") {
            Producer::Cpu
        } else if stem.ends_with("gpu_after_optimizations") {
            Producer::Gpu
        } else {
            Producer::Unnamed
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Producer::Cpu => "cpu",
            Producer::Gpu => "gpu",
            Producer::Unnamed => "unnamed",
        }
    }
}

/// The texts one module's memory is read from.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    /// `*-buffer-assignment.txt`.
    pub buffer_assignment: &'a str,
    /// `*-memory-usage-report.txt`, when present.
    pub memory_usage_report: Option<&'a str>,
    /// `*-live-range.txt`, when present.
    pub live_range: Option<&'a str>,
    /// The optimized module (`*after_optimizations.txt`), when present.
    pub optimized: Option<&'a str>,
    /// The module before optimizations (`*before_optimizations.txt`), when
    /// present: its header says which donations JAX paired itself and
    /// which it handed to XLA (`buffer_donor`).
    pub before: Option<&'a str>,
    /// Who wrote the buffer assignment.
    pub producer: Producer,
}

/// One value of a listed allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueInfo {
    /// The instruction that defines it, with its shape index (`copy-start{0}`).
    pub instruction: String,
    /// Bytes.
    pub bytes: u64,
    /// Offset in the allocation.
    pub offset: u64,
    /// Shape with layout.
    pub shape: String,
    /// The instruction's `op_name`.
    pub op_name: Option<String>,
    /// Its innermost source line, `file:line`.
    pub source: Option<String>,
    /// Its line in the optimized module.
    pub module_line: Option<usize>,
}

/// One of the largest allocations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Largest {
    /// The allocation's index.
    pub allocation: u64,
    /// Its size.
    pub bytes: u64,
    /// Its color.
    pub color: u64,
    /// Its types (names from [`TYPES`]).
    pub types: Vec<&'static str>,
    /// Its values, largest first.
    pub values: Vec<ValueInfo>,
}

/// One `input_output_alias` entry, checked against the allocations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The output's shape index (`{}`, `{0}`).
    pub output_index: String,
    /// The parameter.
    pub parameter: u64,
    /// The shape index inside it.
    pub parameter_index: String,
    /// `may-alias` or `must-alias`, as printed.
    pub kind: String,
    /// The parameter's allocation, when the buffer assignment has it.
    pub allocation: Option<u64>,
    /// Whether that allocation is also `maybe-live-out`: the parameter's
    /// buffer is the output's.
    pub shares_allocation: bool,
    /// Whether XLA made this alias from a buffer donor: `Some(true)` when
    /// the module before optimizations had the parameter in `buffer_donor`
    /// and not in `input_output_alias` (JAX's own pairing), `Some(false)`
    /// when it was already aliased there, `None` without that file.
    pub via_donor: Option<bool>,
    /// The parameter's shape without layout and its allocation's size, when
    /// the buffer assignment has it.
    pub shape: Option<(String, u64)>,
}

/// Why a parameter may have no output alias: the usual causes, each with
/// the source it was checked against.
#[derive(Clone, Copy, Debug)]
pub struct Possibility {
    /// Its id in the JSON.
    pub id: &'static str,
    /// The sentence.
    pub text: &'static str,
}

/// The possibilities, one row each. They follow JAX 0.10.2's
/// `_set_up_aliases` (`jax/_src/interpreters/mlir.py`): a donated argument
/// is aliased to a free output of its shape and dtype (and memory kind,
/// where both are known) when their layouts agree; otherwise, or when only
/// an output's element count matches, it is handed to XLA as a buffer donor
/// (`buffer_donor` in the module's header); what is left is dropped with
/// the warning "Some donated buffers were not usable".
pub const POSSIBILITIES: &[Possibility] = &[
    Possibility {
        id: "not_donated",
        text: "it was not donated",
    },
    Possibility {
        id: "donor_unused",
        text: "it was donated: JAX handed it to XLA as a buffer donor (`buffer_donor` in the module's header), and XLA's buffer assignment gave no output its buffer",
    },
    Possibility {
        id: "memory_kind",
        text: "it was donated and JAX dropped it with its warning because its memory kind differs from that of the free output of its shape and dtype (or element count): any other donation of it would show as an alias or a `buffer_donor` (JAX compares memory kinds only when every argument's and result's is known; jax/_src/interpreters/mlir.py, _set_up_aliases)",
    },
    Possibility {
        id: "dropped_by_jax",
        text: "it was donated and JAX dropped it before XLA saw it, with the warning \"Some donated buffers were not usable\": no free output has its shape and dtype, nor its element count (jax/_src/interpreters/mlir.py, _set_up_aliases)",
    },
];

/// An entry parameter whose allocation no `input_output_alias` entry names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unaliased {
    /// The parameter.
    pub parameter: u64,
    /// Its shape index.
    pub parameter_index: String,
    /// Its shape without layout.
    pub shape: String,
    /// Its allocation's size.
    pub bytes: u64,
    /// Outputs of the same shape and element type: (index, the parameter
    /// already aliased to it).
    pub same_shape_outputs: Vec<(String, Option<u64>)>,
    /// Ids of [`POSSIBILITIES`] that fit what the folder shows.
    pub possibilities: Vec<&'static str>,
}

/// Allocations of one type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByType {
    /// The type's name ([`TYPES`]).
    pub name: &'static str,
    /// Allocations of that type.
    pub allocations: usize,
    /// Their bytes (`None` when the sum overflows).
    pub bytes: Option<u64>,
}

/// A module's memory figures. A figure the files cannot give is `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory {
    /// Who wrote the files.
    pub producer: Producer,
    /// `temp_size_in_bytes`.
    pub temp_bytes: Option<u64>,
    /// Why `temp_bytes` is what it is.
    pub temp_basis: &'static str,
    /// `argument_size_in_bytes`.
    pub argument_bytes: Option<u64>,
    /// `output_size_in_bytes`.
    pub output_bytes: Option<u64>,
    /// `alias_size_in_bytes` (unknown without the optimized module).
    pub alias_bytes: Option<u64>,
    /// `host_temp_size_in_bytes` and the other host figures, summed.
    pub host_bytes: Option<u64>,
    /// `peak_memory_in_bytes`.
    pub peak_bytes: Option<u64>,
    /// How `peak_bytes` was found, or why it is unknown.
    pub peak_basis: &'static str,
    /// The peak's static part (parameters, constants, outputs).
    pub static_bytes: Option<u64>,
    /// The live-range file's own peak.
    pub live_range_peak_bytes: Option<u64>,
    /// Allocations, all of them.
    pub allocations: usize,
    /// By type, one entry per row of [`TYPES`].
    pub by_type: Vec<ByType>,
    /// The largest allocations, largest first.
    pub largest: Vec<Largest>,
    /// The module's `input_output_alias`, checked.
    pub aliases: Vec<Alias>,
    /// Parameters no alias names.
    pub unaliased: Vec<Unaliased>,
    /// Memory spaces of the usage report: (name, color, total bytes).
    pub spaces: Vec<(String, u64, Option<u64>)>,
    /// Allocation clauses no row of [`TYPES`] knows.
    pub unknown_types: Vec<String>,
    /// Lines of the buffer assignment that could not be read.
    pub unread_lines: usize,
}

/// Sums, `None` on overflow.
fn sum(mut xs: impl Iterator<Item = u64>) -> Option<u64> {
    xs.try_fold(0u64, u64::checked_add)
}

/// The allocation's memory space as XLA reads it: that of its first value's
/// defining shape (`S(n)` of an array's layout; a tuple's is 0).
fn memory_space(a: &Allocation<'_>) -> u32 {
    a.values
        .first()
        .and_then(|v| match Shape::parse(v.shape) {
            Shape::Array(arr) => arr.layout.and_then(|l| l.memory_space),
            _ => None,
        })
        .unwrap_or(0)
}

/// The basis of every figure when the buffer assignment has no allocation.
const NO_ALLOCATION: &str = "unknown: no allocation line could be read in the buffer assignment";

/// Reads a module's memory figures.
pub fn figures(inputs: &Inputs<'_>) -> Memory {
    let ba = buffers::buffer_assignment(inputs.buffer_assignment);
    let module = inputs.optimized.map(program::parse);
    let header_aliases = module
        .as_ref()
        .and_then(|m| m.header.as_ref())
        .map(|h| h.input_output_alias.map(parse_aliases).unwrap_or_default());
    let (device, host): (Vec<_>, Vec<_>) = ba
        .allocations
        .iter()
        .partition(|a| memory_space(a) != HOST_MEMORY_SPACE);
    let is_aliased = |a: &Allocation<'_>, al: &[(String, u64, String, String)]| {
        a.param.as_ref().is_some_and(|p| {
            al.iter()
                .any(|(_, n, i, _)| *n == p.number && same_index(i, p.index))
        })
    };
    let argument_bytes = sum(device
        .iter()
        .filter(|a| a.is(Type::Parameter))
        .map(|a| a.size));
    let output_bytes = sum(device
        .iter()
        .filter(|a| a.is(Type::MaybeLiveOut))
        .map(|a| a.size));
    let alias_bytes = header_aliases.as_ref().and_then(|al| {
        sum(device
            .iter()
            .filter(|a| a.is(Type::Parameter) && is_aliased(a, al))
            .map(|a| a.size))
    });
    let (temp_bytes, temp_basis) = temp(inputs.producer, &device);
    let host_bytes = sum(host.iter().map(|a| a.size));
    let live = inputs.live_range.map(buffers::live_range);
    let (static_bytes, peak_bytes, peak_basis) = peak(inputs.producer, &ba, live.as_ref());
    let largest = largest(&ba, module.as_ref(), LARGEST_JSON);
    let (aliases, unaliased) = match (&header_aliases, &module) {
        (Some(al), Some(m)) => {
            let before = inputs.before.map(program::parse);
            aliasing(&ba, al, m, &Donation::read(Some(m), before.as_ref()))
        }
        _ => (Vec::new(), Vec::new()),
    };
    // A file with no allocation read gives no figure (not 0).
    let read = !ba.allocations.is_empty();
    let known = |v: Option<u64>| v.filter(|_| read);
    let (argument_bytes, output_bytes, alias_bytes, host_bytes) = (
        known(argument_bytes),
        known(output_bytes),
        known(alias_bytes),
        known(host_bytes),
    );
    let (temp_bytes, static_bytes, peak_bytes) =
        (known(temp_bytes), known(static_bytes), known(peak_bytes));
    let peak_basis = if read { peak_basis } else { NO_ALLOCATION };
    let temp_basis = if read { temp_basis } else { NO_ALLOCATION };
    Memory {
        producer: inputs.producer,
        temp_bytes,
        temp_basis,
        argument_bytes,
        output_bytes,
        alias_bytes,
        host_bytes,
        peak_bytes,
        peak_basis,
        static_bytes,
        live_range_peak_bytes: inputs
            .live_range
            .and_then(|t| buffers::live_range(t).peak_bytes),
        allocations: ba.allocations.len(),
        by_type: by_type(&ba),
        largest,
        aliases,
        unaliased,
        spaces: inputs
            .memory_usage_report
            .map(buffers::memory_usage_report)
            .unwrap_or_default()
            .into_iter()
            .map(|s| (s.name.to_string(), s.color, s.total_bytes))
            .collect(),
        unknown_types: ba
            .allocations
            .iter()
            .flat_map(|a| a.unknown.iter().map(|u| u.to_string()))
            .collect(),
        unread_lines: ba.unread,
    }
}

fn temp(producer: Producer, device: &[&Allocation<'_>]) -> (Option<u64>, &'static str) {
    match producer {
        Producer::Cpu | Producer::Gpu => (
            sum(device
                .iter()
                .filter(|a| a.is(Type::PreallocatedTemp))
                .map(|a| a.size)),
            "the preallocated-temp allocations, every color but host memory (XLA's PopulateBufferStatsFromAllocations)",
        ),
        Producer::Unnamed => (
            None,
            "unknown: this is XLA:TPU's file name (no backend in it), and libtpu's temp_size_in_bytes does not follow XLA's rule (0 in every TPU compile checked, beside preallocated-temp allocations): compiled.memory_analysis() gives it",
        ),
    }
}

/// The peak's static part, the peak, and its basis.
fn peak(
    producer: Producer,
    ba: &BufferAssignment<'_>,
    live: Option<&buffers::LiveRange<'_>>,
) -> (Option<u64>, Option<u64>, &'static str) {
    let statics = sum(ba
        .allocations
        .iter()
        .filter(|a| {
            !a.is(Type::ThreadLocal)
                && (a.is(Type::Parameter) || a.is(Type::Constant) || a.is(Type::MaybeLiveOut))
        })
        .map(Allocation::largest_value));
    match producer {
        Producer::Cpu => (
            statics,
            statics,
            "XLA's ComputePeakMemory: each parameter, constant and maybe-live-out allocation counted once (its largest value); the CPU's buffer assignment carries no heap-simulator trace of the temporaries for it to add, so the temp is not in this peak",
        ),
        Producer::Gpu => match live.and_then(|l| heap_replay(ba, l)) {
            Some(heap) => (
                statics,
                statics.and_then(|s| s.checked_add(heap)),
                "XLA's ComputePeakMemory: the largest value of each parameter, constant and maybe-live-out allocation, plus the peak of the temporaries' heap, replayed from the live-range file (each offset of an allocation counted once)",
            ),
            None => (
                statics,
                None,
                "unknown: XLA adds the peak of its heap-simulator traces of the temporaries, and a temporary has no live range in the dumps to replay it from",
            ),
        },
        Producer::Unnamed => (
            statics,
            None,
            "unknown: this is XLA:TPU's file name (no backend in it); libtpu computes the peak itself and its source is not public: compiled.memory_analysis() gives it",
        ),
    }
}

/// A value's stay in a chunk: its first and last step, and its size.
type Span = (u64, u64, u64);

/// The peak of the temporaries' heap: at each step, the live non-tuple
/// values of the `preallocated-temp` allocations, one chunk per (allocation,
/// offset) at the size of its largest value; `None` when such a value has
/// no live range. Tuples are left out: `BufferAllocation::is_reusable`
/// keeps them off the heap. Sorting makes it O(n log n).
pub fn heap_replay(ba: &BufferAssignment<'_>, live: &buffers::LiveRange<'_>) -> Option<u64> {
    // `name{index}` -> (name, index), to look values up without building
    // their names.
    let ranges: HashMap<(&str, &str), (u64, u64)> = live
        .ranges
        .iter()
        .filter_map(|&(n, a, b)| n.find('{').map(|at| ((&n[..at], &n[at..]), (a, b))))
        .collect();
    // (allocation, offset) -> its values' (first, last, size).
    let mut chunks: HashMap<(u64, u64), Vec<Span>> = HashMap::new();
    for a in ba
        .allocations
        .iter()
        .filter(|a| a.is(Type::PreallocatedTemp))
    {
        for v in &a.values {
            // XLA prints a tuple shape in parentheses.
            if v.shape.starts_with('(') {
                continue;
            }
            let index = if v.index.is_empty() { "{}" } else { v.index };
            let &(first, last) = ranges.get(&(v.instruction, index))?;
            chunks
                .entry((a.index, v.offset))
                .or_default()
                .push((first, last, v.size));
        }
    }
    // Merge each chunk's overlapping ranges; each merged stretch holds the
    // chunk once. Then sweep the stretches' starts and ends.
    let mut events: Vec<(u64, bool, u64)> = Vec::new();
    for spans in chunks.values_mut() {
        spans.sort_unstable();
        let mut cur: Option<(u64, u64, u64)> = None;
        for &(a, b, size) in spans.iter() {
            cur = match cur {
                Some((s, e, z)) if a <= e => Some((s, e.max(b), z.max(size))),
                Some((s, e, z)) => {
                    events.push((s, true, z));
                    events.push((e.saturating_add(1), false, z));
                    Some((a, b, size))
                }
                None => Some((a, b, size)),
            };
        }
        if let Some((s, e, z)) = cur {
            events.push((s, true, z));
            events.push((e.saturating_add(1), false, z));
        }
    }
    // At one step, ends (false) before starts (true).
    events.sort_unstable();
    let (mut now, mut peak) = (0u64, 0u64);
    for (_, start, size) in events {
        if start {
            now = now.checked_add(size)?;
            peak = peak.max(now);
        } else {
            now = now.saturating_sub(size);
        }
    }
    Some(peak)
}

fn by_type(ba: &BufferAssignment<'_>) -> Vec<ByType> {
    TYPES
        .iter()
        .map(|r| {
            let of: Vec<&Allocation<'_>> = ba.allocations.iter().filter(|a| a.is(r.ty)).collect();
            ByType {
                name: r.name,
                allocations: of.len(),
                bytes: sum(of.iter().map(|a| a.size)),
            }
        })
        .collect()
}

/// The instructions of a module by name (the first of a name wins).
fn by_name<'m, 'a>(m: &'m Module<'a>) -> HashMap<&'a str, &'m program::Instruction<'a>> {
    let mut map = HashMap::with_capacity(m.instructions.len());
    for ins in &m.instructions {
        map.entry(ins.name).or_insert(ins);
    }
    map
}

fn largest(ba: &BufferAssignment<'_>, module: Option<&Module<'_>>, n: usize) -> Vec<Largest> {
    let names = module.map(by_name).unwrap_or_default();
    let mut order: Vec<&Allocation<'_>> = ba.allocations.iter().collect();
    order.sort_by(|a, b| b.size.cmp(&a.size).then(a.index.cmp(&b.index)));
    order
        .into_iter()
        .take(n)
        .map(|a| {
            let mut values: Vec<_> = a.values.iter().collect();
            values.sort_by(|x, y| y.size.cmp(&x.size).then(x.id.cmp(&y.id)));
            Largest {
                allocation: a.index,
                bytes: a.size,
                color: a.color,
                types: a.types.iter().map(|&t| buffers::row(t).name).collect(),
                values: values
                    .into_iter()
                    .map(|v| {
                        let ins = names.get(v.instruction);
                        let m = module.zip(ins);
                        ValueInfo {
                            instruction: format!("{}{}", v.instruction, v.index),
                            bytes: v.size,
                            offset: v.offset,
                            shape: v.shape.to_string(),
                            op_name: ins.and_then(|i| i.metadata().op_name).map(str::to_string),
                            source: m
                                .and_then(|(m, i)| m.location(&i.metadata()))
                                .map(|(f, l)| format!("{f}:{l}")),
                            module_line: ins.map(|i| i.line),
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Whether two shape indices are the same (`{}` and `{ }`, `{0,1}` and
/// `{0, 1}`).
fn same_index(a: &str, b: &str) -> bool {
    let strip = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    strip(a) == strip(b)
}

/// `{ {0}: (1, {}, may-alias), {1}: (0, {}, must-alias) }` into (output
/// index, parameter, parameter index, kind).
pub fn parse_aliases(text: &str) -> Vec<(String, u64, String, String)> {
    let inner = text
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or("");
    let mut out = Vec::new();
    let mut rest = inner;
    while let Some((out_index, tail)) = rest.split_once(": (") {
        let Some((body, after)) = tail.split_once(')') else {
            break;
        };
        rest = after;
        let (param, more) = body.split_once(", ").unwrap_or((body, ""));
        let Ok(param) = param.trim().parse::<u64>() else {
            continue;
        };
        let (pindex, kind) = match more.rfind("}, ") {
            Some(at) => (&more[..=at], more[at + 3..].trim()),
            None => (more.trim(), ""),
        };
        let out_index = out_index.trim_start_matches([',', ' ']).trim();
        out.push((
            out_index.to_string(),
            param,
            pindex.trim().to_string(),
            kind.to_string(),
        ));
    }
    out
}

/// The result's leaves (array outputs) as (index, shape without layout),
/// from the header's `entry_computation_layout`; a nested tuple's parts
/// are not listed.
fn output_leaves(m: &Module<'_>) -> Vec<(String, String)> {
    let Some(layout) = m.header.as_ref().and_then(|h| h.entry_computation_layout) else {
        return Vec::new();
    };
    // One brace each side: `trim_end_matches` would also eat the result's
    // own layout braces (`{(f32[8]{0})->f32[8]{0}}`).
    let t = layout.trim();
    let body = t.strip_prefix('{').unwrap_or(t);
    let body = body.strip_suffix('}').unwrap_or(body);
    let Some((_, result)) = body.rsplit_once(")->") else {
        return Vec::new();
    };
    match Shape::parse(result) {
        s @ Shape::Array(_) => vec![("{}".to_string(), s.without_layout())],
        Shape::Tuple(parts, _) => parts
            .iter()
            .enumerate()
            .filter(|(_, p)| matches!(p, Shape::Array(_)))
            .map(|(i, p)| (format!("{{{i}}}"), p.without_layout()))
            .collect(),
        Shape::Unread(_) => Vec::new(),
    }
}

type AliasEntry = (String, u64, String, String);

/// What the headers say about donation: the optimized module's and the
/// module's before optimizations (when its file is there).
#[derive(Clone, Debug, Default)]
pub struct Donation {
    /// `buffer_donor={ (1, {}) }` of either header: (parameter, index).
    pub donors: Vec<(u64, String)>,
    /// The `input_output_alias` before optimizations, when that file is
    /// there.
    pub before_aliases: Option<Vec<AliasEntry>>,
}

impl Donation {
    /// From the optimized module and the module before optimizations.
    pub fn read<'a>(optimized: Option<&Module<'a>>, before: Option<&Module<'a>>) -> Donation {
        fn attr<'a>(m: Option<&Module<'a>>, key: &str) -> Option<&'a str> {
            let h = m?.header.as_ref()?;
            h.attrs.iter().find(|a| a.key == key).map(|a| a.value)
        }
        let mut donors = Vec::new();
        for m in [optimized, before] {
            for d in attr(m, "buffer_donor")
                .map(parse_donors)
                .unwrap_or_default()
            {
                if !donors
                    .iter()
                    .any(|(n, i): &(u64, String)| *n == d.0 && same_index(i, &d.1))
                {
                    donors.push(d);
                }
            }
        }
        let before_aliases = before
            .and_then(|m| m.header.as_ref())
            .map(|h| h.input_output_alias.map(parse_aliases).unwrap_or_default());
        Donation {
            donors,
            before_aliases,
        }
    }

    fn is_donor(&self, n: u64, i: &str) -> bool {
        self.donors
            .iter()
            .any(|(d, di)| *d == n && same_index(di, i))
    }
}

/// `{ (0, {}), (1, {}) }` into (parameter, index).
pub fn parse_donors(text: &str) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some((_, tail)) = rest.split_once('(') {
        let Some((body, after)) = tail.split_once(')') else {
            break;
        };
        rest = after;
        let (param, index) = body.split_once(',').unwrap_or((body, "{}"));
        if let Ok(n) = param.trim().parse::<u64>() {
            out.push((n, index.trim().to_string()));
        }
    }
    out
}

/// The number of elements of a shape without layout (`f32[64,64]`: 4096),
/// when every dimension is a number.
fn elements(shape: &str) -> Option<u64> {
    let dims = shape.split_once('[')?.1.split_once(']')?.0;
    if dims.trim().is_empty() {
        return Some(1);
    }
    dims.split(',').try_fold(1u64, |acc, d| {
        acc.checked_mul(d.trim().parse::<u64>().ok()?)
    })
}

/// The aliases checked against the allocations, and the parameters none
/// names, each with what the folder shows of a donation.
fn aliasing(
    ba: &BufferAssignment<'_>,
    al: &[AliasEntry],
    m: &Module<'_>,
    donation: &Donation,
) -> (Vec<Alias>, Vec<Unaliased>) {
    let params: Vec<&Allocation<'_>> = ba
        .allocations
        .iter()
        .filter(|a| a.param.is_some())
        .collect();
    let find = |n: u64, i: &str| {
        params.iter().find(|a| {
            a.param
                .as_ref()
                .is_some_and(|p| p.number == n && same_index(p.index, i))
        })
    };
    let aliases = al
        .iter()
        .map(|(o, n, i, k)| {
            let a = find(*n, i);
            let before = donation
                .before_aliases
                .as_ref()
                .map(|b| b.iter().any(|(_, bn, bi, _)| bn == n && same_index(bi, i)));
            Alias {
                output_index: o.clone(),
                parameter: *n,
                parameter_index: i.clone(),
                kind: k.clone(),
                allocation: a.map(|a| a.index),
                shares_allocation: a.is_some_and(|a| a.is(Type::MaybeLiveOut)),
                via_donor: before.map(|was| !was && donation.is_donor(*n, i)),
                shape: a.and_then(|a| Some((a.param.as_ref()?.shape.to_string(), a.size))),
            }
        })
        .collect();
    let leaves = output_leaves(m);
    let free = |o: &str| !al.iter().any(|(ao, ..)| same_index(ao, o));
    let mut unaliased = Vec::new();
    for a in &params {
        let Some(p) = &a.param else { continue };
        if al
            .iter()
            .any(|(_, n, i, _)| *n == p.number && same_index(i, p.index))
        {
            continue;
        }
        let same: Vec<(String, Option<u64>)> = leaves
            .iter()
            .filter(|(_, s)| s == p.shape)
            .map(|(o, _)| {
                let to = al
                    .iter()
                    .find(|(ao, ..)| same_index(ao, o))
                    .map(|(_, n, ..)| *n);
                (o.clone(), to)
            })
            .collect();
        let count = elements(p.shape);
        let takeable = leaves
            .iter()
            .any(|(o, s)| free(o) && (s == p.shape || (count.is_some() && elements(s) == count)));
        let why = if donation.is_donor(p.number, p.index) {
            vec!["donor_unused"]
        } else if takeable {
            vec!["not_donated", "memory_kind"]
        } else {
            vec!["not_donated", "dropped_by_jax"]
        };
        unaliased.push(Unaliased {
            parameter: p.number,
            parameter_index: p.index.to_string(),
            shape: p.shape.to_string(),
            bytes: a.size,
            same_shape_outputs: same,
            possibilities: why,
        });
    }
    unaliased.sort_by_key(|u| u.parameter);
    (aliases, unaliased)
}

fn opt_num(out: &mut String, v: Option<u64>) {
    match v {
        Some(v) => {
            let _ = write!(out, "{v}");
        }
        None => out.push_str("null"),
    }
}

fn opt_str(out: &mut String, v: Option<&str>) {
    match v {
        Some(v) => push_str(out, v),
        None => out.push_str("null"),
    }
}

fn key(out: &mut String, k: &str) {
    push_str(out, k);
    out.push(':');
}

/// The `memory` object of `folder --json` (fields in [`Memory`]'s order;
/// unknown figures are `null`, never 0).
pub fn write_json(out: &mut String, m: &Memory) {
    out.push('{');
    key(out, "producer");
    push_str(out, m.producer.as_str());
    for (k, v) in [
        ("temp_bytes", m.temp_bytes),
        ("argument_bytes", m.argument_bytes),
        ("output_bytes", m.output_bytes),
        ("alias_bytes", m.alias_bytes),
        ("host_bytes", m.host_bytes),
        ("peak_bytes", m.peak_bytes),
        ("static_bytes", m.static_bytes),
        ("live_range_peak_bytes", m.live_range_peak_bytes),
    ] {
        out.push(',');
        key(out, k);
        opt_num(out, v);
    }
    out.push(',');
    key(out, "temp_basis");
    push_str(out, m.temp_basis);
    out.push(',');
    key(out, "peak_basis");
    push_str(out, m.peak_basis);
    let _ = write!(out, ",\"allocations\":{},\"by_type\":[", m.allocations);
    for (i, t) in m.by_type.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"type\":\"{}\",\"allocations\":{},\"bytes\":",
            t.name, t.allocations
        );
        opt_num(out, t.bytes);
        out.push('}');
    }
    out.push_str("],\"largest\":[");
    for (i, l) in m.largest.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_largest(out, l);
    }
    out.push_str("],\"aliases\":[");
    for (i, a) in m.aliases.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        key(out, "output_index");
        push_str(out, &a.output_index);
        let _ = write!(out, ",\"parameter\":{},", a.parameter);
        key(out, "parameter_index");
        push_str(out, &a.parameter_index);
        out.push(',');
        key(out, "kind");
        push_str(out, &a.kind);
        out.push(',');
        key(out, "allocation");
        opt_num(out, a.allocation);
        let _ = write!(out, ",\"shares_allocation\":{}", a.shares_allocation);
        out.push_str(",\"via_donor\":");
        out.push_str(match a.via_donor {
            Some(true) => "true",
            Some(false) => "false",
            None => "null",
        });
        out.push('}');
    }
    out.push_str("],\"unaliased_parameters\":[");
    for (i, u) in m.unaliased.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_unaliased(out, u);
    }
    out.push_str("],\"memory_spaces\":[");
    for (i, (name, color, total)) in m.spaces.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        key(out, "name");
        push_str(out, name);
        let _ = write!(out, ",\"color\":{color},\"total_bytes\":");
        opt_num(out, *total);
        out.push('}');
    }
    out.push_str("],\"unknown_types\":[");
    for (i, u) in m.unknown_types.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, u);
    }
    let _ = write!(out, "],\"unread_lines\":{}}}", m.unread_lines);
}

fn write_largest(out: &mut String, l: &Largest) {
    let first = l.values.first();
    let _ = write!(
        out,
        "{{\"allocation\":{},\"bytes\":{},\"color\":{},",
        l.allocation, l.bytes, l.color
    );
    key(out, "instruction");
    opt_str(out, first.map(|v| v.instruction.as_str()));
    out.push(',');
    key(out, "op_name");
    opt_str(out, first.and_then(|v| v.op_name.as_deref()));
    out.push(',');
    key(out, "source");
    opt_str(out, first.and_then(|v| v.source.as_deref()));
    out.push_str(",\"types\":[");
    for (i, t) in l.types.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, t);
    }
    out.push_str("],\"values\":[");
    for (i, v) in l.values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        key(out, "instruction");
        push_str(out, &v.instruction);
        let _ = write!(out, ",\"bytes\":{},\"offset\":{},", v.bytes, v.offset);
        key(out, "shape");
        push_str(out, &v.shape);
        out.push(',');
        key(out, "op_name");
        opt_str(out, v.op_name.as_deref());
        out.push(',');
        key(out, "source");
        opt_str(out, v.source.as_deref());
        out.push(',');
        key(out, "module_line");
        opt_num(out, v.module_line.map(|l| l as u64));
        out.push('}');
    }
    out.push_str("]}");
}

fn write_unaliased(out: &mut String, u: &Unaliased) {
    let _ = write!(out, "{{\"parameter\":{},", u.parameter);
    key(out, "parameter_index");
    push_str(out, &u.parameter_index);
    out.push(',');
    key(out, "shape");
    push_str(out, &u.shape);
    let _ = write!(out, ",\"bytes\":{},\"same_shape_outputs\":[", u.bytes);
    for (i, (o, to)) in u.same_shape_outputs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        key(out, "output_index");
        push_str(out, o);
        out.push(',');
        key(out, "aliased_to_parameter");
        opt_num(out, *to);
        out.push('}');
    }
    out.push_str("],\"possibilities\":[");
    for (i, id) in u.possibilities.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, id);
    }
    // The same, with the sentence of each, so that no reader keeps its own
    // copy of the table.
    out.push_str("],\"causes\":[");
    let rows = u
        .possibilities
        .iter()
        .filter_map(|id| POSSIBILITIES.iter().find(|p| p.id == *id));
    for (i, p) in rows.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        key(out, "id");
        push_str(out, p.id);
        out.push(',');
        key(out, "text");
        push_str(out, p.text);
        out.push('}');
    }
    out.push_str("]}");
}

/// `1234567` as `1,234,567`.
pub fn thousands(v: u64) -> String {
    let d = v.to_string();
    let mut out = String::with_capacity(d.len() + d.len() / 3);
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A figure as `2,097,152 B (2.00 MiB)`, `16,384 B (16.0 KiB)`, `132 B`,
/// or `unknown`.
pub fn bytes_text(v: Option<u64>) -> String {
    match v {
        Some(v) if v >= 1 << 20 => {
            format!("{} B ({:.2} MiB)", thousands(v), v as f64 / 1048576.0)
        }
        Some(v) if v >= 1 << 10 => format!("{} B ({:.1} KiB)", thousands(v), v as f64 / 1024.0),
        Some(v) => format!("{v} B"),
        None => "unknown".to_string(),
    }
}

/// The terminal block: the figures, the largest five buffers, the aliasing.
pub fn write_text(out: &mut String, m: &Memory) {
    let by = match m.producer {
        Producer::Cpu => "the CPU's buffer assignment",
        Producer::Gpu => "the GPU's buffer assignment",
        Producer::Unnamed => {
            "a buffer assignment whose file name names no backend, as XLA:TPU's does"
        }
    };
    let _ = writeln!(out, "Memory (from {by})");
    for (label, v) in [
        ("arguments", m.argument_bytes),
        ("outputs", m.output_bytes),
        ("aliased", m.alias_bytes),
        ("temp", m.temp_bytes),
    ] {
        let _ = writeln!(out, "  {label:<16}{}", bytes_text(v));
    }
    if m.temp_bytes.is_none() {
        let _ = writeln!(out, "  {:<16}{}", "", m.temp_basis);
    }
    if m.host_bytes.is_some_and(|h| h > 0) {
        let _ = writeln!(out, "  {:<16}{}", "host memory", bytes_text(m.host_bytes));
    }
    let _ = writeln!(out, "  {:<16}{}", "peak", bytes_text(m.peak_bytes));
    let _ = writeln!(out, "  {:<16}{}", "", m.peak_basis);
    if m.live_range_peak_bytes.is_some() {
        let _ = writeln!(
            out,
            "  {:<16}{}  (the live-range file's own figure: the values live at its peak step, added up; not memory_analysis()'s peak)",
            "live-range peak",
            bytes_text(m.live_range_peak_bytes)
        );
    }
    let _ = write!(out, "  {:<16}{}", "allocations", m.allocations);
    for t in m.by_type.iter().filter(|t| t.allocations > 0) {
        let bytes = t.bytes.map_or("unknown".to_string(), thousands);
        let _ = write!(out, "; {} {} ({bytes} B)", t.name, t.allocations);
    }
    out.push('\n');
    let _ = writeln!(out, "Largest buffers");
    for l in m.largest.iter().take(LARGEST_TEXT) {
        let _ = write!(
            out,
            "  allocation {:<4} {:>16}  [{}]",
            l.allocation,
            bytes_text(Some(l.bytes)),
            l.types.join(", ")
        );
        if let Some(v) = l.values.first() {
            let _ = write!(out, "  {}", v.instruction);
            if let Some(s) = &v.source {
                let _ = write!(out, " at {s}");
            }
            match l.values.len() {
                0 | 1 => {}
                2 => out.push_str(" (+1 more value)"),
                n => {
                    let _ = write!(out, " (+{} more values)", n - 1);
                }
            }
        }
        out.push('\n');
    }
    write_aliasing_text(out, m);
}

fn write_aliasing_text(out: &mut String, m: &Memory) {
    let _ = writeln!(out, "Aliasing (the module's input_output_alias)");
    if m.aliases.is_empty() {
        let _ = writeln!(out, "  no parameter is aliased to an output");
    }
    for a in &m.aliases {
        let _ = write!(
            out,
            "  parameter {}{} -> output {} ({})",
            a.parameter,
            if a.parameter_index == "{}" {
                String::new()
            } else {
                format!(" {}", a.parameter_index)
            },
            a.output_index,
            a.kind
        );
        let how = match a.via_donor {
            Some(true) => {
                "; XLA made this alias from a buffer donor (`buffer_donor` before optimizations)"
            }
            Some(false) => "; JAX paired them (the alias is there before optimizations)",
            None => "",
        };
        match (a.allocation, a.shares_allocation) {
            (Some(al), true) => {
                let _ = writeln!(out, ": both in allocation {al}{how}");
            }
            (Some(al), false) => {
                let _ = writeln!(out, ": allocation {al} is not marked maybe-live-out");
            }
            (None, _) => {
                let _ = writeln!(out, ": no allocation holds that parameter");
            }
        }
    }
    if m.unaliased.is_empty() {
        return;
    }
    let _ = writeln!(out, "  parameters without an output alias:");
    for u in m.unaliased.iter().take(UNALIASED_TEXT) {
        let free = u
            .same_shape_outputs
            .iter()
            .filter(|(_, to)| to.is_none())
            .count();
        let shows = match (u.same_shape_outputs.len(), free) {
            _ if u.possibilities.contains(&"donor_unused") => {
                "donated (`buffer_donor` in the header), but no output shares its buffer"
                    .to_string()
            }
            (0, _) => "no output has its shape and dtype".to_string(),
            (n, 0) => {
                format!("the {n} output(s) of its shape and dtype are aliased to other parameters")
            }
            (_, f) => format!("{f} output(s) of its shape and dtype have no alias"),
        };
        let _ = writeln!(
            out,
            "    parameter {}{} {} ({} B): {shows}",
            u.parameter,
            if u.parameter_index == "{}" {
                String::new()
            } else {
                format!(" {}", u.parameter_index)
            },
            u.shape,
            thousands(u.bytes)
        );
        let rows = u
            .possibilities
            .iter()
            .filter_map(|&id| POSSIBILITIES.iter().find(|p| p.id == id));
        let texts: Vec<&str> = rows.map(|p| p.text).collect();
        if !u.possibilities.contains(&"donor_unused") {
            let _ = writeln!(out, "      the folder shows: {}", texts.join("; or "));
        }
    }
    if m.unaliased.len() > UNALIASED_TEXT {
        let _ = writeln!(
            out,
            "    ... and {} more",
            m.unaliased.len() - UNALIASED_TEXT
        );
    }
    let _ = writeln!(
        out,
        "  a donation JAX could not use leaves no trace in the folder (only its warning \"Some donated buffers were not usable\" does); one it handed to XLA shows as `buffer_donor` in the header"
    );
}
