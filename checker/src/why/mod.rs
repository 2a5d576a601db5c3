//! "Why?": every reader that applies to what was pasted, and the findings
//! ranked by what they cost.
//!
//! A paste is read for what it holds: a whole compiled module, a fragment
//! of one (computations without `ENTRY`, a loop body alone, a few
//! instruction lines, a module whose end is cut), HLO before optimization,
//! and the memory texts people paste beside or instead of a dump
//! ([`memory`]: out-of-memory errors and reports, rematerialization and
//! donation messages). The HLO is read once, by the analysis, into the
//! program model; the detectors ([`detect`]) read the model, and the
//! catalogue ([`catalogue`]) is the one table of what each finding means
//! and what to try.
//!
//! Every output opens with its scope ([`Scope`]): what the text holds and
//! which figures need what it lacks (a fragment's run counts). Findings
//! are ranked by bytes: a kernel's bytes times its runs (where the runs
//! are unknown, once), or the bytes of memory a memory finding concerns.

pub mod catalogue;
pub(crate) mod detect;
pub mod json;
pub mod memory;
mod model;

pub use model::{Finding, Line, Runs, human};

use crate::analysis::{self, Analysis, Backend, Kind};
use crate::program::Module;
use catalogue::F;
use memory::{MemoryText, Text};

/// What a text holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A whole module: its header and its `ENTRY` computation.
    Module,
    /// Computations, none of them `ENTRY`.
    Computations,
    /// Instruction lines outside any computation header.
    Instructions,
    /// A module or computations whose end is cut.
    Cut,
    /// No HLO instruction.
    NoHlo,
}

impl Form {
    /// The name in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Module => "module",
            Form::Computations => "computations",
            Form::Instructions => "instructions",
            Form::Cut => "cut",
            Form::NoHlo => "no-hlo",
        }
    }
}

/// What a text holds and what that leaves unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    /// The form.
    pub form: Form,
    /// Computations read.
    pub computations: usize,
    /// Instructions read.
    pub instructions: usize,
    /// Loop bodies read without their `while`.
    pub loop_bodies: usize,
    /// One sentence: what the text is and which figures it cannot give.
    pub sentence: String,
}

/// How the backend is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendFrom {
    /// A line of the text names it.
    Evidence,
    /// The user gave it (`--backend`); the text does not show it.
    Given,
}

/// One input as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// The analysis' kind.
    pub kind: Kind,
    /// Whether the findings read it as compiled HLO.
    pub compiled: bool,
    /// The backend and how it is known.
    pub backend: Option<(Backend, BackendFrom)>,
    /// What the text holds.
    pub scope: Scope,
    /// The memory texts in it.
    pub memory: Vec<MemoryText>,
    /// What to paste or run for more, when the text lacks what the
    /// readers need.
    pub next: Option<String>,
}

/// The whole answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    /// Each input, in order.
    pub inputs: Vec<Input>,
    /// The findings, heaviest first.
    pub findings: Vec<Finding>,
}

/// An error: a backend given that the text contradicts.
pub fn parse_backend(name: &str) -> Result<Backend, String> {
    Backend::ALL
        .into_iter()
        .find(|b| b.as_str() == name)
        .ok_or_else(|| format!("unknown backend `{name}`: give cpu, gpu or tpu"))
}

/// Reads every text and ranks what it finds; `backend`: the backend the
/// user gave, used where a text names none.
pub fn why(texts: &[&str], backend: Option<Backend>) -> Result<Why, String> {
    let mut inputs = Vec::new();
    let mut findings = Vec::new();
    for (n, text) in texts.iter().enumerate() {
        let (input, mut found) = read_one(text, backend)?;
        for f in &mut found {
            f.input = n;
        }
        findings.extend(found);
        inputs.push(input);
    }
    if let [a, b] = texts {
        findings.extend(same_program(a, b, &inputs));
    }
    findings.sort_by(|x, y| {
        y.weight()
            .cmp(&x.weight())
            .then(x.input.cmp(&y.input))
            .then(x.what.cmp(&y.what))
            .then(
                x.evidence
                    .first()
                    .map(|l| l.line)
                    .cmp(&y.evidence.first().map(|l| l.line)),
            )
    });
    Ok(Why { inputs, findings })
}

/// One text: its scope, memory texts and findings.
fn read_one(text: &str, given: Option<Backend>) -> Result<(Input, Vec<Finding>), String> {
    let memory = memory::read(text);
    analysis::analyze_with(text, |a, repaired, module| {
        let backend = backend_of(&a, given)?;
        let compiled = a.kind == Kind::HloOptimized;
        let moved = !repaired.undone.is_empty();
        let map = &repaired.map;
        let pasted = move |line: usize| if moved { map.get(line).0 } else { line };
        let cx = detect::Cx::new(module, compiled, backend.map(|b| b.0), &pasted);
        let mut scope = scope_of(module, &repaired.text, cx.loop_bodies());
        if scope.form == Form::NoHlo && !memory.is_empty() {
            let kinds: Vec<&str> = memory
                .iter()
                .map(|m| memory::text_row(m.kind).name)
                .collect();
            scope.sentence = format!(
                "no HLO instruction; memory text{} read: {}",
                plural(kinds.len()),
                kinds.join(", ")
            );
        }
        let mut found = if scope.form == Form::NoHlo {
            Vec::new()
        } else {
            detect::all(&cx)
        };
        found.extend(memory.iter().flat_map(memory_findings));
        let next = next_step(&a, &scope, &memory);
        let input = Input {
            kind: a.kind,
            compiled,
            backend,
            scope,
            memory,
            next,
        };
        Ok((input, found))
    })
}

/// The backend: the text's, else the one given; an error where the two
/// differ.
fn backend_of(
    a: &Analysis,
    given: Option<Backend>,
) -> Result<Option<(Backend, BackendFrom)>, String> {
    match (a.backend, given) {
        (Some(found), Some(g)) if found != g => Err(format!(
            "the text is compiled for {} (its clues name it), not {}: leave out --backend, or paste the dump compiled for {}",
            found.as_str(),
            g.as_str(),
            g.as_str()
        )),
        (Some(found), _) => Ok(Some((found, BackendFrom::Evidence))),
        (None, Some(g)) => Ok(Some((g, BackendFrom::Given))),
        (None, None) => Ok(None),
    }
}

/// What a text holds, in one sentence.
fn scope_of(m: &Module<'_>, text: &str, loop_bodies: usize) -> Scope {
    let computations = m.computations.len();
    let instructions = m.instructions.len();
    let bare = m
        .instructions
        .iter()
        .filter(|i| i.computation.is_none())
        .count();
    let cut = m.unread.iter().any(|u| u.reason == crate::program::CUT)
        || (computations > 0 && !ends_closed(text));
    let form = if instructions == 0 {
        Form::NoHlo
    } else if cut {
        Form::Cut
    } else if m.entry.is_some() && m.header.is_some() {
        Form::Module
    } else if computations == 0 || bare > 0 && bare == instructions {
        Form::Instructions
    } else {
        Form::Computations
    };
    let sentence = match form {
        Form::Module => {
            format!("a whole module: {computations} computations, {instructions} instructions")
        }
        Form::Computations if m.entry.is_some() => format!(
            "a fragment: {computations} computation{} with the ENTRY computation, no module header; what the entry calls that the text lacks is not read",
            plural(computations)
        ),
        Form::Computations => format!(
            "a fragment: {computations} computation{}, no ENTRY{}; how often each runs is unknown, and totals and peak memory need the whole module",
            plural(computations),
            if loop_bodies > 0 {
                format!(
                    ", {loop_bodies} loop bod{} read without {}",
                    if loop_bodies == 1 { "y" } else { "ies" },
                    if loop_bodies == 1 {
                        "its loop"
                    } else {
                        "their loops"
                    }
                )
            } else {
                String::new()
            }
        ),
        Form::Instructions => format!(
            "a fragment: {instructions} instruction line{}, outside any computation; what calls them and how often they run are not in the text",
            plural(instructions)
        ),
        Form::Cut => format!(
            "a module whose end is cut: {computations} computation{}, {instructions} instructions read; what follows the cut is not counted",
            plural(computations)
        ),
        Form::NoHlo => "no HLO instruction".to_owned(),
    };
    Scope {
        form,
        computations,
        instructions,
        loop_bodies,
        sentence,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Whether the text's last non-blank line closes a computation.
fn ends_closed(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .is_some_and(|l| l == "}")
}

/// What to paste or run next, when the text lacks what the readers need.
fn next_step(a: &Analysis, scope: &Scope, memory: &[MemoryText]) -> Option<String> {
    if let Some(more) = memory.iter().find_map(|m| memory::text_row(m.kind).more) {
        return Some(format!("for more, paste {more}"));
    }
    match scope.form {
        Form::NoHlo if memory.is_empty() => Some(
            "no HLO instruction and no memory message here: paste the compiled module (`print(jax.jit(f).lower(*args).compile().as_text())`), a part of it, or the error XLA printed".to_owned(),
        ),
        Form::NoHlo => None,
        Form::Module if a.kind == Kind::HloOptimized => None,
        Form::Module => Some(
            "this is not compiled HLO, so no kernel is known yet: paste `jax.jit(f).lower(*args).compile().as_text()` for what the backend decided".to_owned(),
        ),
        _ => Some(
            "run counts, totals and peak memory need the whole module: paste all of `jax.jit(f).lower(*args).compile().as_text()` (or the `*after_optimizations.txt` file of `--xla_dump_to`)".to_owned(),
        ),
    }
}

/// The findings a memory text states.
fn memory_findings(m: &MemoryText) -> Vec<Finding> {
    let line = |note: String| Line {
        line: m.line,
        name: String::new(),
        note,
    };
    let one = |what: F, summary: String, bytes: Option<u64>, note: String| Finding {
        what,
        input: 0,
        summary,
        bytes,
        runs: Runs::Once,
        evidence: vec![line(note)],
        try_this: None,
    };
    let fig = |name: &str| m.figure(name);
    let mut out = Vec::new();
    match m.kind {
        Text::TpuShort => {
            let (need, have) = (fig("required"), fig("available"));
            let summary = format!(
                "XLA:TPU puts the memory required (its \"HLO temporaries\") at {} and the HBM it may use at {}",
                need.map_or("?", |b| b.printed.as_str()),
                have.map_or("?", |b| b.printed.as_str())
            );
            out.push(one(
                F::HbmExhausted,
                summary,
                need.map(|b| b.bytes),
                "XLA:TPU's out-of-memory error".to_owned(),
            ));
        }
        Text::TpuReport => {
            let (used, cap) = (fig("used"), fig("capacity"));
            let summary = format!(
                "the program uses {} of {} ({} over){}",
                used.map_or("?", |b| b.printed.as_str()),
                cap.map_or("?", |b| b.printed.as_str()),
                fig("exceeded").map_or("?", |b| b.printed.as_str()),
                m.allocations.first().map_or(String::new(), |a| format!(
                    "; the largest allocation is {} ({})",
                    a.size.as_ref().map_or("?", |b| b.printed.as_str()),
                    a.shape.as_deref().unwrap_or("shape not printed")
                ))
            );
            out.push(one(
                F::HbmExhausted,
                summary,
                used.map(|b| b.bytes),
                "XLA:TPU's out-of-memory report".to_owned(),
            ));
            out.extend(m.allocations.iter().filter_map(padded_allocation));
        }
        Text::DeviceOom => {
            let req = fig("requested");
            let summary = format!(
                "an allocation of {} failed",
                req.map_or("?", |b| b.printed.as_str())
            );
            out.push(one(
                F::HbmExhausted,
                summary,
                req.map(|b| b.bytes),
                "the allocator's error".to_owned(),
            ));
        }
        Text::Remat => {
            let summary = format!(
                "rematerialization aimed for {} and reached {} (from {})",
                fig("limit").map_or("?", |b| b.printed.as_str()),
                fig("reached").map_or("?", |b| b.printed.as_str()),
                fig("original").map_or("?", |b| b.printed.as_str())
            );
            out.push(one(
                F::RematFailed,
                summary,
                fig("reached").map(|b| b.bytes),
                "XLA's rematerialization message".to_owned(),
            ));
        }
        Text::UsageReport => {
            if let (Some(total), Some(a)) = (fig("total"), m.allocations.first()) {
                if total.bytes > 0 {
                    let summary = format!(
                        "memory space {}: {} in all; its largest row is {} ({})",
                        m.arrays.first().map_or("?", String::as_str),
                        total.printed,
                        a.size.as_ref().map_or("?", |b| b.printed.as_str()),
                        a.shape.as_deref().unwrap_or("?")
                    );
                    out.push(one(
                        F::LargestAllocations,
                        summary,
                        Some(total.bytes),
                        "XLA's memory-usage report".to_owned(),
                    ));
                }
            }
            out.extend(m.allocations.iter().filter_map(padded_allocation));
        }
        Text::Donation => {
            let bytes: Option<u64> = m.arrays.iter().map(|a| aval_bytes(a)).sum();
            let summary = format!(
                "{} donated buffer{} could not be reused: {}",
                m.arrays.len(),
                plural(m.arrays.len()),
                m.arrays.join(", ")
            );
            out.push(one(
                F::DonationUnusable,
                summary,
                bytes,
                "JAX's donation warning".to_owned(),
            ));
        }
    }
    out
}

/// A report's allocation padded to twice its size or more (XLA's own
/// figures: `Size:` against `Unpadded size:`).
fn padded_allocation(a: &memory::Allocation) -> Option<Finding> {
    let size = a.size.as_ref()?;
    // The report's unpadded size, else the data of its one array's shape.
    let unpadded = a.unpadded.clone().or_else(|| {
        let shape = crate::program::Shape::parse(a.shape.as_deref()?);
        match shape {
            crate::program::Shape::Array(arr) => arr.bytes().map(|b| memory::Bytes {
                printed: human(b),
                bytes: b,
                exact: true,
            }),
            _ => None,
        }
    })?;
    let unpadded = &unpadded;
    if unpadded.bytes == 0
        || size.bytes < 2 * unpadded.bytes
        || size.bytes - unpadded.bytes < detect::PADDING_EXTRA
    {
        return None;
    }
    let shape = a.shape.as_deref().unwrap_or("an array");
    let dim = a
        .shape
        .as_deref()
        .and_then(|s| match crate::program::Shape::parse(s) {
            crate::program::Shape::Array(arr) => detect::padding_dim(&arr)
                .map(|(d, n, p)| format!(": dimension {d} ({n}) is padded to {p}")),
            _ => None,
        })
        .unwrap_or_default();
    Some(Finding {
        what: F::TilePadding,
        input: 0,
        summary: format!(
            "`{shape}` takes {} for {} of data{dim}",
            size.printed, unpadded.printed
        ),
        bytes: Some(size.bytes - unpadded.bytes),
        runs: Runs::Once,
        evidence: vec![Line {
            line: a.line,
            name: String::new(),
            note: format!(
                "the report: {} padded, {} unpadded{}",
                size.printed,
                unpadded.printed,
                a.expansion.map_or(String::new(), |e| format!(" ({e:.1}x)"))
            ),
        }],
        try_this: None,
    })
}

/// Bytes of a JAX aval as printed (`float32[1024,1024]`, `int32[]`).
fn aval_bytes(a: &str) -> Option<u64> {
    let (dtype, rest) = a.split_once('[')?;
    let dims = rest.split(']').next()?;
    let bits: u64 = match dtype.trim_start_matches('~') {
        "float64" | "int64" | "uint64" | "complex64" => 64,
        "float32" | "int32" | "uint32" => 32,
        "float16" | "bfloat16" | "int16" | "uint16" => 16,
        "int8" | "uint8" | "bool" => 8,
        "complex128" => 128,
        t if t.starts_with("float8") => 8,
        _ => return None,
    };
    let mut n: u64 = 1;
    for d in dims.split(',').map(str::trim).filter(|d| !d.is_empty()) {
        n = n.checked_mul(d.split('@').next()?.parse().ok()?)?;
    }
    n.checked_mul(bits / 8)
}

/// Two compiled dumps whose diff finds nothing: the difference is below
/// HLO.
fn same_program(a: &str, b: &str, inputs: &[Input]) -> Option<Finding> {
    if !inputs
        .iter()
        .all(|i| i.compiled && i.scope.form == Form::Module)
    {
        return None;
    }
    let empty = crate::diff::report::with_diff(a, b, None, |r| match &r.body {
        crate::diff::report::Body::Compiled(c) => c.is_empty(),
        crate::diff::report::Body::Lowered(_) => false,
    })
    .ok()?;
    empty.then(|| Finding {
        what: F::BelowHlo,
        input: 1,
        summary: "the diff of the two compiled modules finds no change: the same kernels, operations and shapes".to_owned(),
        bytes: None,
        runs: Runs::Once,
        evidence: Vec::new(),
        try_this: None,
    })
}
