//! Why these kernels: every kernel boundary and every copy explained.
//!
//! For every input of every kernel row that comes from another kernel, the
//! explainer says why the two are separate: the reasons its rules find true
//! in the dump ([`rules`], in the order XLA makes the same checks), and,
//! with XLA's fusion-decision log of the same compile ([`log`], tied to the
//! kernels by [`resolve`]), what XLA itself said, which comes first. A
//! boundary no rule is sure of is `unknown`, with the flags that make XLA
//! log its reason. Every copy and transpose gets its layouts, the bytes the
//! ledger counts for it and its source lines ([`copies`]).
//!
//! One way: `log` → `resolve`; `reasons` → `rules`; `boundaries`; `copies`;
//! this module over them; [`report`] reads a paste; [`json`] writes
//! `explain --json`. Nothing below this module imports it.

pub mod added;
pub mod boundaries;
pub mod copies;
pub mod json;
pub mod log;
pub mod reasons;
pub mod report;
pub mod resolve;
pub mod rules;

use crate::kernels::{Kernel, KernelTree};
use crate::program::{InstrId, Module};
use boundaries::From;
use reasons::Reason;
use std::collections::HashMap;

/// A reason XLA logged for a pair, tied to the kernels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logged<'l> {
    /// Its line in the log.
    pub line: usize,
    /// XLA's words.
    pub message: &'l str,
    /// The reason they are, or `None` when DumpLab has no row for them.
    pub reason: Option<Reason>,
}

/// One input of a kernel, explained.
#[derive(Clone, Debug)]
pub struct InputExplained<'l> {
    /// The operand's index.
    pub operand: usize,
    /// Where it comes from.
    pub from: From,
    /// The free ops it passed through.
    pub via: Vec<InstrId>,
    /// The reasons true in the dump, in XLA's order of checks.
    pub rules: Vec<rules::Found>,
    /// What XLA logged for this pair, each message once, in log order.
    pub xla: Vec<Logged<'l>>,
    /// With a complete log that decides nothing on this pair and never
    /// names one side, a copy: the copy a later pass added.
    pub after_fusion: Option<InstrId>,
    /// With the compile's dump folder, a copy on one side that first
    /// appears in a numbered file after the fusion pass's: the copy.
    pub folder_after_fusion: Option<InstrId>,
}

/// What decides an input's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// XLA's log.
    XlaLog,
    /// DumpLab's rules.
    Rule,
    /// What a complete log does not say: a copy it never names was made
    /// after the fusion pass (an inference from the log, not its words).
    NotInLog,
    /// The compile's dump folder: a copy first appears after the file the
    /// fusion pass wrote.
    DumpFolder,
}

impl Basis {
    /// Its name in the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::XlaLog => "xla-log",
            Basis::Rule => "rule",
            Basis::NotInLog => "not-in-log",
            Basis::DumpFolder => "dump-folder",
        }
    }
}

impl InputExplained<'_> {
    /// Whether it joins two kernels.
    pub fn is_boundary(&self) -> bool {
        matches!(self.from, From::Kernel(_))
    }

    /// The answer: XLA's first logged reason, else the first rule's;
    /// `None` (unknown) when neither says.
    pub fn answer(&self) -> Option<(Reason, Basis)> {
        if let Some(l) = self.xla.first() {
            return Some((l.reason.unwrap_or(Reason::XlaOther), Basis::XlaLog));
        }
        if self.after_fusion.is_some() {
            return Some((Reason::AfterFusion, Basis::NotInLog));
        }
        if self.folder_after_fusion.is_some() {
            return Some((Reason::AfterFusion, Basis::DumpFolder));
        }
        self.rules.first().map(|f| (f.reason, Basis::Rule))
    }
}

/// A kernel row, explained.
#[derive(Clone, Debug)]
pub struct KernelExplained<'t, 'l> {
    /// The row.
    pub kernel: &'t Kernel,
    /// Its depth in the tree.
    pub depth: usize,
    /// Its inputs.
    pub inputs: Vec<InputExplained<'l>>,
    /// A copy's or transpose's facts.
    pub copy: Option<copies::CopyFacts>,
}

/// What a log added, counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogCounts {
    /// Lines of a fusion pass read.
    pub lines: usize,
    /// Decisions read.
    pub decisions: usize,
    /// Of them, pairs fused.
    pub fused: usize,
    /// Pairs not fused.
    pub not_fused: usize,
    /// Pairs not fused whose two sides ended in one kernel (fused later,
    /// through another operand or another run of the pass).
    pub same_kernel: usize,
    /// Pairs not fused tied to two kernels of the dump.
    pub between: usize,
    /// Pairs not fused that are not two kernels of the dump: a parameter,
    /// a tuple element or a constant on one side, or a name the dump no
    /// longer has (a later pass changed it, or the log is of another compile).
    pub unresolved: usize,
    /// Lines of a fusion pass DumpLab did not understand.
    pub unread: usize,
    /// Why the log is of another compile, when an instruction it prints
    /// whole has another shape in the dump.
    pub other_compile: Option<String>,
}

/// The explanation of a module.
pub struct Explanation<'t, 'l> {
    /// Every kernel row, in run order.
    pub kernels: Vec<KernelExplained<'t, 'l>>,
    /// The log's pass and counts, when a log was given.
    pub log: Option<(Option<log::Pass>, LogCounts)>,
    /// The dump folder's module read for the copies, when one was given.
    pub folder_module: Option<String>,
    /// The backend the rules were checked for: the analysis', else the one
    /// the log's pass names.
    pub backend: Option<crate::analysis::Backend>,
    /// Whether [`Explanation::backend`] comes from the log.
    pub backend_from_log: bool,
}

impl Explanation<'_, '_> {
    /// Reads the pass that added each copy and transpose from module `m` of
    /// the compile's dump folder; an error when the folder is of another
    /// compile.
    pub fn with_folder(
        &mut self,
        module: &Module<'_>,
        folder: &crate::folder::Folder<'_>,
        m: usize,
    ) -> Result<(), String> {
        let ids: Vec<InstrId> = self.kernels.iter().map(|k| k.kernel.instruction).collect();
        added::same_compile(folder, m, module, &ids)?;
        for k in &mut self.kernels {
            let (Some(c), Some(ins)) = (k.copy.as_mut(), module.instruction(k.kernel.instruction))
            else {
                continue;
            };
            c.added = added::added(folder, m, ins.name, ins.opcode);
        }
        self.mark_after_fusion(added::fusion_step(folder, m));
        self.folder_module = folder.index.modules.get(m).map(|x| x.module.id.to_owned());
        Ok(())
    }

    /// Marks the inputs from or into a copy that first appears after the
    /// fusion pass's file (step `fusion`), where nothing else answers.
    fn mark_after_fusion(&mut self, fusion: Option<u32>) {
        let Some(fusion) = fusion else { return };
        let late: Vec<(InstrId, bool)> = self
            .kernels
            .iter()
            .filter_map(|k| {
                let step = k.copy.as_ref()?.added.as_ref()?.step?;
                Some((k.kernel.instruction, step > fusion))
            })
            .collect();
        let is_late = |id: InstrId| late.iter().any(|&(i, l)| i == id && l);
        for k in &mut self.kernels {
            let consumer_late = is_late(k.kernel.instruction);
            for inp in &mut k.inputs {
                if !inp.xla.is_empty() || inp.after_fusion.is_some() {
                    continue;
                }
                if let From::Kernel(p) = inp.from {
                    if is_late(p) {
                        inp.folder_after_fusion = Some(p);
                    } else if consumer_late {
                        inp.folder_after_fusion = Some(k.kernel.instruction);
                    }
                }
            }
        }
    }

    /// Boundaries, those with an answer, those unknown.
    pub fn summary(&self) -> (usize, usize, usize) {
        let b: Vec<_> = self
            .kernels
            .iter()
            .flat_map(|k| &k.inputs)
            .filter(|i| i.is_boundary())
            .collect();
        let known = b.iter().filter(|i| i.answer().is_some()).count();
        (b.len(), known, b.len() - known)
    }
}

/// Explains a module's kernels, with XLA's log of the same compile when given.
pub fn explain<'t, 'a, 'l>(
    m: &Module<'a>,
    tree: &'t KernelTree<'a>,
    ledger: &crate::cost::ledger::Ledger<'_>,
    backend: Option<crate::analysis::Backend>,
    log_text: Option<&'l str>,
) -> Explanation<'t, 'l> {
    let read = log_text.map(log::read);
    // A fusion log names its backend by the pass that wrote it.
    let from_log = read.as_ref().and_then(|l| l.pass).map(|p| match p {
        log::Pass::CpuFusion => crate::analysis::Backend::Cpu,
        log::Pass::PriorityFusion => crate::analysis::Backend::Gpu,
    });
    let backend_from_log = backend.is_none() && from_log.is_some();
    let backend = backend.or(from_log);
    let (logged, counts) = match &read {
        Some(l) => logged_pairs(m, l),
        None => (HashMap::new(), LogCounts::default()),
    };
    let unseen = |id: InstrId| {
        read.as_ref().is_some_and(|l| {
            l.complete
                && m.instruction(id).is_some_and(|i| {
                    matches!(i.opcode, "copy" | "copy-start") && !l.names.contains(i.name)
                })
        })
    };
    let kernels = boundaries::of(m, tree)
        .into_iter()
        .map(|k| {
            let id = k.kernel.instruction;
            let inputs = k
                .inputs
                .into_iter()
                .map(|inp| explain_input(m, backend, id, inp, &logged, &unseen))
                .collect();
            KernelExplained {
                kernel: k.kernel,
                depth: k.depth,
                inputs,
                copy: copies::facts(m, tree, ledger, k.kernel),
            }
        })
        .collect();
    Explanation {
        kernels,
        log: read.map(|l| (l.pass, counts)),
        folder_module: None,
        backend,
        backend_from_log,
    }
}

fn explain_input<'l>(
    m: &Module<'_>,
    backend: Option<crate::analysis::Backend>,
    consumer: InstrId,
    inp: boundaries::Input,
    logged: &HashMap<(InstrId, InstrId), Vec<Logged<'l>>>,
    unseen: &dyn Fn(InstrId) -> bool,
) -> InputExplained<'l> {
    let (rules, xla) = match inp.from {
        From::Kernel(p) => (
            rules::pair(m, backend, p, consumer, inp.operand)
                .map(|pair| rules::reasons(&pair))
                .unwrap_or_default(),
            logged.get(&(p, consumer)).cloned().unwrap_or_default(),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let after_fusion = match inp.from {
        From::Kernel(p) if xla.is_empty() => [p, consumer].into_iter().find(|&id| unseen(id)),
        _ => None,
    };
    InputExplained {
        operand: inp.operand,
        from: inp.from,
        via: inp.via,
        rules,
        xla,
        after_fusion,
        folder_after_fusion: None,
    }
}

fn is_kernel(m: &Module<'_>, id: InstrId) -> bool {
    m.instruction(id)
        .is_some_and(|i| crate::kernels::has_row(i.opcode))
}

/// The log's not-fused decisions by (producer, consumer) kernel.
fn logged_pairs<'l>(
    m: &Module<'_>,
    l: &log::Log<'l>,
) -> (HashMap<(InstrId, InstrId), Vec<Logged<'l>>>, LogCounts) {
    let r = resolve::Resolver::new(m, l);
    let other_compile = l.shapes.iter().find_map(|&(line, name, shape)| {
        let ins = r.live(name)?;
        (ins.shape_text != shape).then(|| {
            format!(
                "the log is not of this dump's compile: its line {line} prints `%{name}` as {shape}, the dump as {}",
                ins.shape_text
            )
        })
    });
    let mut out: HashMap<(InstrId, InstrId), Vec<Logged<'l>>> = HashMap::new();
    let mut c = LogCounts {
        lines: l.lines,
        decisions: l.decisions.len(),
        unread: l.unread.len(),
        ..LogCounts::default()
    };
    for d in &l.decisions {
        if d.verdict == log::Verdict::Fused {
            c.fused += 1;
            continue;
        }
        c.not_fused += 1;
        let row = reasons::message_row(d.message);
        if row.is_some_and(|r| !r.boundary) {
            c.unresolved += 1;
            continue;
        }
        match (r.resolve(d.producer, d.line), r.resolve(d.consumer, d.line)) {
            (Some(p), Some(k)) if p != k && is_kernel(m, p) && is_kernel(m, k) => {
                c.between += 1;
                let list = out.entry((p, k)).or_default();
                if !list.iter().any(|x| x.message == d.message) {
                    list.push(Logged {
                        line: d.line,
                        message: d.message,
                        reason: row.map(|r| r.reason),
                    });
                }
            }
            (Some(p), Some(k)) if p == k => c.same_kernel += 1,
            _ => c.unresolved += 1,
        }
    }
    c.other_compile = other_compile;
    (out, c)
}
