//! The detectors of the HLO findings: each reads the program model (what
//! the text holds, whole module or fragment) and says which catalogue row
//! it found, with its figures and lines. One function per finding; the
//! loops, callers and sizes they share are [`Cx`]'s.

use super::catalogue::F;
use super::model::{Finding, Line, Runs, human};
use crate::analysis::Backend;
use crate::cost::estimate::padded_bytes;
use crate::program::{Array, CallRole, CompId, Dim, InstrId, Instruction, Module, Shape};
use std::collections::HashMap;

/// A kernel output this large and this many times the largest parameter
/// of its computation is a huge intermediate.
const HUGE_BYTES: u64 = 16 << 20;
const HUGE_FACTOR: u64 = 8;
/// A copy in a loop body reported from this many bytes on (a counter's
/// or a key's copy costs a launch, not bandwidth).
const LOOP_COPY_BYTES: u64 = 64 << 10;
/// A layout change at least this large (and as large as a parameter).
const TRANSPOSE_BYTES: u64 = 1 << 20;
/// Padding reported from this many extra bytes on (smaller arrays pad
/// too, and cost nothing worth a finding).
pub(crate) const PADDING_EXTRA: u64 = 1 << 20;

/// What the detectors read: the module and what is known about it.
pub(crate) struct Cx<'m, 'a> {
    pub m: &'m Module<'a>,
    /// Whether the text is compiled HLO (its kind, or a fragment whose
    /// clues prove it).
    pub compiled: bool,
    /// The backend: found, or given.
    pub backend: Option<Backend>,
    /// The line in the paste of a line of the text read.
    pub pasted: &'m dyn Fn(usize) -> usize,
    /// The loops: per body computation, its `while` (when the text holds
    /// it) and trip count.
    loops: HashMap<CompId, (Option<InstrId>, Runs)>,
}

impl<'m, 'a> Cx<'m, 'a> {
    pub(crate) fn new(
        m: &'m Module<'a>,
        compiled: bool,
        backend: Option<Backend>,
        pasted: &'m dyn Fn(usize) -> usize,
    ) -> Self {
        let mut cx = Cx {
            m,
            compiled,
            backend,
            pasted,
            loops: HashMap::new(),
        };
        cx.loops = cx.find_loops();
        cx
    }

    /// Every loop body: of each `while` the text holds, and each
    /// computation that reads as a body whose `while` is not in the text.
    fn find_loops(&self) -> HashMap<CompId, (Option<InstrId>, Runs)> {
        let m = self.m;
        let mut out = HashMap::new();
        for w in m.instructions.iter().filter(|i| i.opcode == "while") {
            let Some(body) = m
                .calls(w)
                .iter()
                .find(|c| c.role == CallRole::Body)
                .and_then(|c| c.id)
            else {
                continue;
            };
            let trips = w
                .backend_config()
                .and_then(crate::kernels::trip_count)
                .map(Runs::Stated)
                .or_else(|| crate::cost::trips::derived(m, w).map(Runs::Derived))
                .unwrap_or(Runs::Unknown);
            out.insert(body, (Some(w.id), trips));
        }
        for (ci, c) in m.computations.iter().enumerate() {
            let Ok(id) = CompId::try_from(ci) else { break };
            if c.callers.is_empty() && !out.contains_key(&id) && self.reads_as_body(id) {
                out.insert(id, (None, Runs::Unknown));
            }
        }
        out
    }

    /// How many loop bodies the text holds without their loop.
    pub(crate) fn loop_bodies(&self) -> usize {
        self.loops.values().filter(|(w, _)| w.is_none()).count()
    }

    /// A computation whose one parameter is a tuple and whose root is a
    /// tuple of the same shape: what a `while` body looks like.
    fn reads_as_body(&self, id: CompId) -> bool {
        let m = self.m;
        let Some(c) = m.computation(id) else {
            return false;
        };
        let (Some(&p), Some(r)) = (c.params.first(), c.root) else {
            return false;
        };
        let (Some(p), Some(r)) = (m.instruction(p), m.instruction(r)) else {
            return false;
        };
        c.params.len() == 1
            && r.opcode == "tuple"
            && p.shape_text.starts_with('(')
            && p.shape().without_layout() == r.shape().without_layout()
    }

    fn line(&self, ins: &Instruction<'_>, note: String) -> Line {
        Line {
            line: (self.pasted)(ins.line),
            name: ins.name.to_owned(),
            note,
        }
    }

    /// The computation an instruction calls by `calls=` (a fusion's).
    fn callee(&self, ins: &Instruction<'_>) -> Option<CompId> {
        self.m
            .calls(ins)
            .iter()
            .find(|c| c.role == CallRole::Calls)
            .and_then(|c| c.id)
    }

    /// The instructions of a computation a kernel runs: its own, or its
    /// fused computation's (when the text holds it).
    fn body_of<'s>(&'s self, ins: &'s Instruction<'a>) -> &'s [Instruction<'a>] {
        match (ins.opcode, self.callee(ins)) {
            ("fusion", Some(c)) => self.m.instructions_of(c),
            _ => std::slice::from_ref(ins),
        }
    }

    /// Bytes of the largest parameter of a computation (`None` for none).
    fn largest_param(&self, comp: Option<CompId>) -> Option<u64> {
        let c = self.m.computation(comp?)?;
        c.params
            .iter()
            .filter_map(|&p| self.m.instruction(p))
            .filter_map(|p| p.shape().bytes())
            .max()
    }

    /// Whether a computation is one a kernel's fused computation or a
    /// reducer (its instructions are not kernels).
    fn is_called_inside(&self, comp: Option<CompId>) -> bool {
        let Some(c) = comp.and_then(|c| self.m.computation(c)) else {
            return false;
        };
        if c.is_entry {
            return false;
        }
        let called_by_kernel = c.callers.iter().any(|&k| {
            self.m
                .instruction(k)
                .is_some_and(|i| !matches!(i.opcode, "while" | "conditional" | "call"))
        });
        // In a module with its entry, a computation nobody calls is called
        // by a line the reader could not resolve (XLA prints only what
        // the entry reaches); in a fragment, one named as fused ones are.
        let uncalled =
            c.callers.is_empty() && (self.m.entry.is_some() || looks_fused(c.name, self.m, c));
        called_by_kernel || uncalled
    }

    /// The instruction an operand comes from, through bitcasts and
    /// get-tuple-elements, when it is a parameter of `comp` (or a
    /// get-tuple-element of one).
    fn carried_param(&self, id: InstrId, hops: usize) -> Option<&Instruction<'a>> {
        let ins = self.m.instruction(id)?;
        match ins.opcode {
            "parameter" => Some(ins),
            "bitcast" | "get-tuple-element" | "copy" | "reshape" if hops < 8 => {
                let op = self.m.operands(ins).first()?.id?;
                self.carried_param(op, hops + 1)
            }
            _ => None,
        }
    }
}

/// A fused computation whose caller is not in the text: named as XLA
/// names them, or with `param_N` parameters.
fn looks_fused(name: &str, m: &Module<'_>, c: &crate::program::Computation<'_>) -> bool {
    name.contains("fused_") || name.contains("fusion") || name.starts_with("wrapped_") || {
        c.params
            .first()
            .and_then(|&p| m.instruction(p))
            .is_some_and(|p| p.name.starts_with("param_"))
    }
}

/// Every HLO finding of the module.
pub(crate) fn all(cx: &Cx<'_, '_>) -> Vec<Finding> {
    let mut out = Vec::new();
    out.extend(scatter_loop(cx));
    out.extend(loop_copies(cx));
    out.extend(donation_copies(cx));
    out.extend(gather_before_dot(cx));
    out.extend(dot_no_library(cx));
    out.extend(tile_padding(cx));
    out.extend(huge_intermediates(cx));
    out.extend(layout_transposes(cx));
    out
}

fn finding(
    what: F,
    summary: String,
    bytes: Option<u64>,
    runs: Runs,
    evidence: Vec<Line>,
) -> Finding {
    Finding {
        what,
        input: 0,
        summary,
        bytes,
        runs,
        evidence,
        try_this: None,
    }
}

/// A `while` body that updates a buffer with a dynamic-update-slice,
/// where the loop's (or the update's) metadata names a scatter: XLA's
/// scatter expander keeps the scatter's `op_name` on the loop it makes.
fn scatter_loop(cx: &Cx<'_, '_>) -> Vec<Finding> {
    let m = cx.m;
    let mut out = Vec::new();
    let mut bodies: Vec<_> = cx.loops.iter().collect();
    bodies.sort_unstable_by_key(|(b, _)| **b);
    for (&body, &(w, runs)) in bodies {
        let w = w.and_then(|w| m.instruction(w));
        let loop_says = w.is_some_and(|w| names_scatter(m, w));
        // Only the loop's own metadata: a scatter inside a loop the program
        // wrote is simplified to a dynamic-update-slice too.
        if !loop_says {
            continue;
        }
        let hit = m.instructions_of(body).iter().find(|ins| {
            cx.body_of(ins)
                .iter()
                .any(|i| i.opcode == "dynamic-update-slice")
        });
        let Some(ins) = hit else { continue };
        // Each trip writes the update, not the buffer it lands in.
        let update = cx
            .body_of(ins)
            .iter()
            .find(|i| i.opcode == "dynamic-update-slice")
            .and_then(|d| m.operands(d).get(1).and_then(|o| o.id))
            .and_then(|u| m.instruction(u))
            .and_then(|u| u.shape().bytes());
        let mut ev = Vec::new();
        if let Some(w) = w {
            ev.push(cx.line(
                w,
                format!("the loop the scatter became: {}", runs.sentence()),
            ));
        }
        ev.push(cx.line(ins, "one dynamic-update-slice per trip".to_owned()));
        let summary = format!(
            "`{}` updates `{}` one index per trip of a loop ({}), with three or more kernels per trip",
            ins.name,
            ins.shape().without_layout(),
            runs.sentence()
        );
        out.push(finding(F::ScatterLoop, summary, update, runs, ev));
    }
    out
}

/// Whether an instruction's op name ends in a scatter primitive
/// (`jit(f)/scatter-add`).
fn names_scatter<'a>(m: &Module<'a>, i: &Instruction<'a>) -> bool {
    m.metadata(i).op_name.is_some_and(|o| {
        o.rsplit('/')
            .next()
            .is_some_and(|last| last.starts_with("scatter"))
    })
}

/// A copy of a loop-carried value inside a loop body.
fn loop_copies(cx: &Cx<'_, '_>) -> Vec<Finding> {
    let m = cx.m;
    let mut out = Vec::new();
    let mut bodies: Vec<_> = cx.loops.iter().collect();
    bodies.sort_unstable_by_key(|(b, _)| **b);
    for (&body, &(w, runs)) in bodies {
        for ins in m.instructions_of(body) {
            let only_copies = cx
                .body_of(ins)
                .iter()
                .filter(|i| !matches!(i.opcode, "parameter" | "bitcast"))
                .all(|i| i.opcode == "copy");
            let is_copy = ins.opcode == "copy" || (ins.opcode == "fusion" && only_copies);
            if !is_copy || ins.shape().bytes().is_none_or(|b| b < LOOP_COPY_BYTES) {
                continue;
            }
            let carried = m
                .operands(ins)
                .iter()
                .filter_map(|o| o.id)
                .any(|o| cx.carried_param(o, 0).is_some());
            let root = m.computation(body).and_then(|c| c.root);
            let carried_on = m.users(ins).iter().any(|&u| Some(u) == root);
            if !carried && !carried_on {
                continue;
            }
            let mut ev = vec![cx.line(ins, "copies a value the loop carries".to_owned())];
            if let Some(w) = w.and_then(|w| m.instruction(w)) {
                ev.push(cx.line(w, format!("the loop: {}", runs.sentence())));
            }
            let summary = format!(
                "`{}` copies `{}` on every trip ({})",
                ins.name,
                ins.shape().without_layout(),
                runs.sentence()
            );
            out.push(finding(F::LoopCopy, summary, ins.shape().bytes(), runs, ev));
        }
    }
    out
}

/// Parameters of the entry that `input_output_alias` names.
fn aliased_params(m: &Module<'_>) -> Vec<u64> {
    let Some(alias) = m.header.as_ref().and_then(|h| h.input_output_alias) else {
        return Vec::new();
    };
    // `{ {0}: (0, {}, may-alias), {1}: (1, {}, must-alias) }`
    alias
        .split('(')
        .skip(1)
        .filter_map(|p| p.split(',').next()?.trim().parse().ok())
        .collect()
}

/// A plain copy (same layout) of an entry parameter that an output of the
/// same shape could have replaced, with no alias for it.
fn donation_copies(cx: &Cx<'_, '_>) -> Vec<Finding> {
    let m = cx.m;
    // Without the header, `input_output_alias` is not in the text: whether
    // a parameter is already donated is unknown.
    let Some(entry) = m.entry.filter(|_| cx.compiled && m.header.is_some()) else {
        return Vec::new();
    };
    let aliased = aliased_params(m);
    let outputs: Vec<String> = m
        .computation(entry)
        .and_then(|c| c.root)
        .and_then(|r| m.instruction(r))
        .map(|r| r.shape().arrays().iter().map(|a| plain(a)).collect())
        .unwrap_or_default();
    let mut params: Vec<u32> = Vec::new();
    let mut ev = Vec::new();
    let mut total: u64 = 0;
    for ins in m
        .instructions_of(entry)
        .iter()
        .filter(|i| i.opcode == "copy")
    {
        let Some(op) = m.operands(ins).first().and_then(|o| o.id) else {
            continue;
        };
        let Some(p) = m.instruction(op).filter(|p| p.opcode == "parameter") else {
            continue;
        };
        let Some(n) = p.parameter_number() else {
            continue;
        };
        let same_layout = layout_of(&p.shape()) == layout_of(&ins.shape());
        let shape = ins.shape();
        let Some(a) = shape.arrays().first().map(|a| plain(a)) else {
            continue;
        };
        if !same_layout
            || aliased.contains(&u64::from(n))
            || !outputs.contains(&a)
            || params.contains(&n)
            || !reaches_output(m, ins.id)
        {
            continue;
        }
        params.push(n);
        total = total.saturating_add(shape.bytes().unwrap_or(0));
        ev.push(cx.line(
            p,
            format!("parameter {n} (`{a}`), not aliased to an output"),
        ));
        ev.push(cx.line(ins, "a copy of it, in the same layout".to_owned()));
    }
    if params.is_empty() {
        return Vec::new();
    }
    params.sort_unstable();
    let list: Vec<String> = params.iter().map(u32::to_string).collect();
    let (what, nums) = match params.as_slice() {
        [n] => (format!("parameter {n} is"), format!("({n},)")),
        _ => (
            format!("parameters {} are", list.join(", ")),
            format!("({})", list.join(", ")),
        ),
    };
    let summary = format!(
        "{what} copied into a new buffer before the update; outputs of the same shape and element type could reuse them"
    );
    let mut f = finding(F::DonationCopy, summary, Some(total), Runs::Once, ev);
    f.try_this = Some(format!(
        "if the caller does not read them again, donate them together: with one array per argument, `donate_argnums={nums}` (JAX numbers the flattened arguments; with pytrees, name the arguments with `donate_argnames`); saves {} of copies",
        human(total)
    ));
    vec![f]
}

/// Whether a buffer becomes the entry's output as it is updated in place:
/// carried through a `tuple` into a `while` and out at the same index, or
/// the buffer operand (operand 0) of an in-place update (a fusion, a
/// dynamic-update-slice, a scatter), up to the `ROOT` or a tuple the `ROOT`
/// is. Any other use (read by a kernel that writes a new buffer) ends it.
fn reaches_output(m: &Module<'_>, from: InstrId) -> bool {
    let Some(root) = m.entry_computation().and_then(|c| c.root) else {
        return false;
    };
    // (instruction, the tuple index it is carried at), depth first, on a
    // budget: every way the buffer goes on is tried.
    let mut stack: Vec<(InstrId, Option<u64>)> = vec![(from, None)];
    let mut budget = 256;
    while let Some((at, index)) = stack.pop() {
        if at == root {
            return true;
        }
        budget -= 1;
        let Some(ins) = m.instruction(at).filter(|_| budget > 0) else {
            return false;
        };
        for &u in m.users(ins) {
            let Some(user) = m.instruction(u) else {
                continue;
            };
            let Some(pos) = m.operands(user).iter().position(|o| o.id == Some(at)) else {
                continue;
            };
            let next = match (user.opcode, index) {
                // The ROOT tuple holds it: an output.
                ("tuple", None) if u == root => return true,
                ("tuple", None) => Some(Some(pos as u64)),
                ("while", Some(i)) => Some(Some(i)),
                ("get-tuple-element", Some(i)) => m
                    .attr(user, "index")
                    .and_then(|n| n.trim().parse::<u64>().ok())
                    .filter(|&n| n == i)
                    .map(|_| None),
                ("fusion" | "dynamic-update-slice" | "scatter", None) if pos == 0 => Some(None),
                ("bitcast", None) => Some(None),
                _ => None,
            };
            if let Some(i) = next {
                stack.push((u, i));
            }
        }
    }
    false
}

fn plain(a: &Array<'_>) -> String {
    format!("{}[{}]", a.element, a.dims_text)
}

fn layout_of(s: &Shape<'_>) -> Option<Vec<u32>> {
    s.arrays()
        .first()
        .and_then(|a| a.layout.as_ref())
        .map(|l| l.minor_to_major.clone())
}

/// An all-gather whose result a dot or convolution reads.
fn gather_before_dot(cx: &Cx<'_, '_>) -> Vec<Finding> {
    let m = cx.m;
    let mut out = Vec::new();
    if !cx.compiled {
        return out;
    }
    for g in m
        .instructions
        .iter()
        .filter(|i| matches!(i.opcode, "all-gather" | "all-gather-done"))
    {
        let mut frontier: Vec<InstrId> = m.users(g).to_vec();
        let mut seen = 0;
        while let Some(u) = frontier.pop() {
            seen += 1;
            if seen > 64 {
                break;
            }
            let Some(ui) = m.instruction(u) else { continue };
            let copies_only = ui.opcode == "fusion"
                && cx
                    .body_of(ui)
                    .iter()
                    .all(|i| matches!(i.opcode, "parameter" | "copy" | "bitcast" | "transpose"));
            if copies_only || matches!(ui.opcode, "bitcast" | "copy" | "reshape" | "transpose") {
                frontier.extend_from_slice(m.users(ui));
                continue;
            }
            let runs_dot = cx
                .body_of(ui)
                .iter()
                .any(|i| matches!(i.opcode, "dot" | "convolution"))
                || ui
                    .custom_call_target()
                    .is_some_and(|t| t.contains("gemm") || t.contains("matmul"));
            if !runs_dot {
                continue;
            }
            let ev = vec![
                cx.line(g, gathered(m, g)),
                cx.line(ui, "a dot reads the gathered array".to_owned()),
            ];
            let summary = format!(
                "`{}` gathers `{}` on every device of its group before `{}` multiplies it",
                g.name,
                g.shape().without_layout(),
                ui.name
            );
            out.push(finding(
                F::GatherBeforeDot,
                summary,
                g.shape().bytes(),
                Runs::Once,
                ev,
            ));
            break;
        }
    }
    out
}

/// What an all-gather's line shows: over how many devices it gathers,
/// and of how many the module is partitioned for.
fn gathered<'a>(m: &Module<'a>, g: &Instruction<'a>) -> String {
    let group = m
        .collective(g)
        .and_then(|c| c.replica_groups)
        .and_then(|r| r.shape())
        .map(|s| s.1);
    let parts = m.header.as_ref().and_then(|h| h.num_partitions());
    match (group, parts) {
        (Some(n), Some(p)) if n == p => {
            format!("gathers over all {p} devices: each holds the whole operand")
        }
        (Some(n), Some(p)) => format!(
            "gathers over groups of {n} of the {p} devices: each holds {n} shards of the operand"
        ),
        _ => "gathers the operand's shards on every device of its group".to_owned(),
    }
}

/// A dot in a plain fusion (or alone) of a GPU module.
fn dot_no_library(cx: &Cx<'_, '_>) -> Vec<Finding> {
    let m = cx.m;
    let mut out = Vec::new();
    if cx.backend != Some(Backend::Gpu) || !cx.compiled {
        return out;
    }
    for ins in &m.instructions {
        if cx.is_called_inside(ins.computation) {
            continue;
        }
        let plain_fusion = ins.opcode == "fusion"
            && matches!(ins.fusion_kind(), Some("kLoop" | "kInput" | "kOutput"));
        if !(plain_fusion || ins.opcode == "dot") {
            continue;
        }
        let Some(dot) = cx.body_of(ins).iter().find(|i| i.opcode == "dot") else {
            continue;
        };
        let types: Vec<String> = m
            .operands(dot)
            .iter()
            .filter_map(|o| o.id.and_then(|i| m.instruction(i)))
            .filter_map(|o| o.shape().arrays().first().map(|a| a.element.to_owned()))
            .collect();
        let result = dot.shape().arrays().first().map(|a| a.element.to_owned());
        let ev = vec![
            cx.line(
                ins,
                "a kernel XLA emitted itself, not a library call".to_owned(),
            ),
            cx.line(
                dot,
                format!(
                    "the dot: {} x {} -> {}",
                    types.first().map_or("?", String::as_str),
                    types.get(1).map_or("?", String::as_str),
                    result.as_deref().unwrap_or("?")
                ),
            ),
        ];
        let summary = format!(
            "`{}` runs the dot `{}` without cuBLAS or a Triton GEMM (element types {} -> {})",
            ins.name,
            dot.name,
            types.join(" x "),
            result.as_deref().unwrap_or("?")
        );
        out.push(finding(
            F::DotNoLibrary,
            summary,
            ins.shape().bytes(),
            Runs::Once,
            ev,
        ));
    }
    out
}

/// The dimension whose tile pads most, and by how much: (logical
/// dimension, size, padded size).
pub(crate) fn padding_dim(a: &Array<'_>) -> Option<(usize, u64, u64)> {
    let layout = a.layout.as_ref()?;
    let tile: Vec<u64> = layout
        .tiles
        .first()?
        .iter()
        .copied()
        .collect::<Option<_>>()?;
    let physical: Vec<u32> = layout.minor_to_major.iter().rev().copied().collect();
    let n = physical.len();
    let mut best: Option<(usize, u64, u64)> = None;
    for (k, &t) in tile.iter().rev().enumerate() {
        let Some(&logical) = physical.get(n.checked_sub(k + 1)?) else {
            break;
        };
        let Some(Dim::Static(d)) = a.dims.get(logical as usize).copied() else {
            continue;
        };
        if t == 0 || d == 0 {
            continue;
        }
        let padded = d.div_ceil(t) * t;
        let better = best.is_none_or(|(_, bd, bp)| padded * bd > bp * d);
        if padded > d && better {
            best = Some((logical as usize, d, padded));
        }
    }
    best
}

/// Arrays whose tiles pad them to twice their size or more (each shape
/// and layout once, with the first instruction that holds it).
fn tile_padding(cx: &Cx<'_, '_>) -> Vec<Finding> {
    let m = cx.m;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out: Vec<Finding> = Vec::new();
    for ins in &m.instructions {
        if cx.is_called_inside(ins.computation) && ins.opcode != "parameter" {
            continue;
        }
        let shape = ins.shape();
        for a in shape.arrays() {
            let (Some(padded), Some(bytes)) = (padded_bytes(a), a.bytes()) else {
                continue;
            };
            if bytes == 0 || padded < 2 * bytes || padded - bytes < PADDING_EXTRA {
                continue;
            }
            let key = format!(
                "{}[{}]{}",
                a.element,
                a.dims_text,
                a.layout.as_ref().map_or("", |l| l.text)
            );
            if let Some(&k) = seen.get(&key) {
                if let Some(f) = out.get_mut(k) {
                    if f.evidence.len() < 4 {
                        f.evidence.push(cx.line(ins, "the same array".to_owned()));
                    }
                }
                continue;
            }
            let Some((dim, d, p)) = padding_dim(a) else {
                continue;
            };
            let factor = padded as f64 / bytes as f64;
            let summary = format!(
                "`{key}` takes {} padded, {factor:.1}x its {}: dimension {dim} ({d}) is padded to {p}",
                human(padded),
                human(bytes),
            );
            let ev = vec![cx.line(
                ins,
                format!("{factor:.1}x: dimension {dim} of size {d} is stored as {p}"),
            )];
            seen.insert(key, out.len());
            out.push(finding(
                F::TilePadding,
                summary,
                Some(padded - bytes),
                Runs::Once,
                ev,
            ));
        }
    }
    out
}

/// Kernel outputs far larger than every parameter of their computation.
fn huge_intermediates(cx: &Cx<'_, '_>) -> Vec<Finding> {
    let m = cx.m;
    let mut out = Vec::new();
    if !cx.compiled {
        return out;
    }
    for ins in &m.instructions {
        if !crate::kernels::has_row(ins.opcode)
            || crate::program::kinds::is_control_opcode(ins.opcode)
            || cx.is_called_inside(ins.computation)
        {
            continue;
        }
        let Some(bytes) = ins.shape().bytes() else {
            continue;
        };
        // Against the kernel's own inputs (none: an iota, a constant, is
        // made, not blown up).
        let Some(largest) = m
            .operands(ins)
            .iter()
            .filter_map(|o| o.id.and_then(|i| m.instruction(i)))
            .filter_map(|o| o.shape().bytes())
            .max()
        else {
            continue;
        };
        // A value the entry returns is what the caller asked for.
        if is_output(m, ins.id)
            || bytes < HUGE_BYTES
            || bytes < HUGE_FACTOR.saturating_mul(largest.max(1))
        {
            continue;
        }
        let ev = vec![cx.line(
            ins,
            format!(
                "writes {}, {}x its largest input ({})",
                human(bytes),
                bytes / largest.max(1),
                human(largest)
            ),
        )];
        let summary = format!(
            "`{}` writes `{}` ({}) to memory, {}x its largest input",
            ins.name,
            ins.shape().without_layout(),
            human(bytes),
            bytes / largest.max(1)
        );
        out.push(finding(
            F::HugeIntermediate,
            summary,
            Some(bytes),
            Runs::Once,
            ev,
        ));
    }
    out
}

/// Whether an instruction of the entry is (part of) what it returns:
/// the ROOT, or through get-tuple-element, bitcast and tuple up to it.
fn is_output(m: &Module<'_>, id: InstrId) -> bool {
    let Some(root) = m.entry_computation().and_then(|c| c.root) else {
        return false;
    };
    let mut stack = vec![id];
    let mut budget = 64;
    while let Some(at) = stack.pop() {
        if at == root {
            return true;
        }
        budget -= 1;
        let Some(ins) = m.instruction(at).filter(|_| budget > 0) else {
            return false;
        };
        for &u in m.users(ins) {
            if m.instruction(u)
                .is_some_and(|u| matches!(u.opcode, "get-tuple-element" | "bitcast" | "tuple"))
            {
                stack.push(u);
            }
        }
    }
    false
}

/// Copies and transposes that change a layout, as large as a parameter.
fn layout_transposes(cx: &Cx<'_, '_>) -> Vec<Finding> {
    let m = cx.m;
    let mut out = Vec::new();
    if !cx.compiled {
        return out;
    }
    for ins in &m.instructions {
        if cx.is_called_inside(ins.computation)
            || cx
                .loops
                .contains_key(&ins.computation.unwrap_or(CompId::MAX))
        {
            continue;
        }
        let inner = cx.body_of(ins);
        let moves: Vec<&Instruction<'_>> = inner
            .iter()
            .filter(|i| !matches!(i.opcode, "parameter" | "bitcast"))
            .collect();
        let only_moves = !moves.is_empty()
            && moves
                .iter()
                .all(|i| matches!(i.opcode, "copy" | "transpose"));
        if !(matches!(ins.opcode, "copy" | "transpose") || (ins.opcode == "fusion" && only_moves)) {
            continue;
        }
        let changes = moves.iter().any(|i| {
            i.opcode == "transpose"
                || m.operands(i)
                    .first()
                    .and_then(|o| o.id)
                    .and_then(|o| m.instruction(o))
                    .is_some_and(|o| layout_of(&o.shape()) != layout_of(&i.shape()))
        });
        let Some(bytes) = ins.shape().bytes() else {
            continue;
        };
        let Some(largest) = cx.largest_param(ins.computation) else {
            continue;
        };
        if !changes || bytes < TRANSPOSE_BYTES || bytes < largest {
            continue;
        }
        let ev = vec![cx.line(ins, format!("rewrites {} in another layout", human(bytes)))];
        let summary = format!(
            "`{}` rewrites `{}` ({}) in another layout",
            ins.name,
            ins.shape().without_layout(),
            human(bytes)
        );
        out.push(finding(
            F::LayoutTranspose,
            summary,
            Some(bytes),
            Runs::Once,
            ev,
        ));
    }
    out
}
