//! The pass story of one module: its numbered files in step order, whether
//! each differs from the file written before it, and what changed, read
//! through the program model ([`crate::program::parse`]).
//!
//! A numbered file stands for the module's state after the pass its name
//! names (`after_<pass>`). XLA writes a file only for some pass runs, so a
//! file that differs from the one before it shows that some pass run
//! between the two changed the module, not which one; a file equal to the
//! one before it shows that the runs in between left no trace in the text,
//! and passes that wrote no file are invisible.
//!
//! `changed` is `None` when the file before it is missing (a step number
//! skipped, or no `before_optimizations` before step 0) or either text is
//! unreadable: never a guess, and [`Step::why`] says which
//! ([`NotCompared`]). The first file is compared with
//! `before_optimizations`.
//!
//! A file equal to the one before it does not show that its pass did
//! nothing: with `--xla_dump_hlo_pass_re=.*` XLA writes a file after a pass
//! only when the pass reported a change (a change may leave the printed
//! text the same), and it writes pipeline-start files and in-pass files
//! (copy-insertion's `after_adding_copies_to_resolve_interference`)
//! whatever happened; with any other regex it writes one after every
//! matching pass (`xla/hlo/pass/hlo_pass_pipeline.cc`).
//!
//! Linear: each file is compared with the one before it once and parsed at
//! most once; what a delta needs of a module ([`Facts`]) is read in one
//! walk over its instructions and the module dropped.

use crate::kernels::{COLLECTIVES, KernelTree};
use crate::program::{self, Module};
use std::collections::HashSet;

/// Names a delta lists at most in each list (the counts are exact).
pub const MAX_NAMES: usize = 50;

/// A group of opcodes a delta counts across all computations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Its name in the JSON (`copies`).
    pub name: &'static str,
    /// Its opcodes.
    pub opcodes: &'static [&'static str],
    /// Whether an opcode's `-start` form counts too (`copy-start`,
    /// `all-reduce-start`; the `-done` half never does).
    pub starts: bool,
}

/// The opcode groups, one row each.
pub const GROUPS: &[Group] = &[
    Group {
        name: "copies",
        opcodes: &["copy"],
        starts: true,
    },
    Group {
        name: "transposes",
        opcodes: &["transpose"],
        starts: false,
    },
    Group {
        name: "collectives",
        opcodes: COLLECTIVES,
        starts: true,
    },
];

impl Group {
    /// Whether an opcode belongs to the group.
    pub fn has(&self, opcode: &str) -> bool {
        self.opcodes.contains(&opcode)
            || (self.starts
                && opcode
                    .strip_suffix("-start")
                    .is_some_and(|o| self.opcodes.contains(&o)))
    }
}

/// Some names, and how many there are (the list stops at [`MAX_NAMES`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names<'a> {
    /// How many.
    pub count: usize,
    /// The first [`MAX_NAMES`] of them, in text order.
    pub names: Vec<&'a str>,
}

impl<'a> Names<'a> {
    fn push(&mut self, name: &'a str) {
        self.count += 1;
        if self.names.len() < MAX_NAMES {
            self.names.push(name);
        }
    }

    fn of<'i>(all: impl IntoIterator<Item = &'i &'a str>, keep: impl Fn(&str) -> bool) -> Names<'a>
    where
        'a: 'i,
    {
        let mut n = Names::default();
        for &s in all {
            if keep(s) {
                n.push(s);
            }
        }
        n
    }
}

/// What a delta needs of one module, read once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts<'a> {
    /// Every instruction's name, in text order.
    pub instructions: Vec<&'a str>,
    /// The same, as a set.
    names: HashSet<&'a str>,
    /// The kernel tree's rows that launch work, by instruction name.
    pub kernels: Vec<&'a str>,
    /// Per row of [`GROUPS`], the names of its instructions.
    pub groups: Vec<Vec<&'a str>>,
    /// Fusion instructions: name and `kind=`.
    pub fusions: Vec<(&'a str, Option<&'a str>)>,
}

impl<'a> Facts<'a> {
    /// Reads a module's facts.
    pub fn of(m: &Module<'a>) -> Facts<'a> {
        let mut f = Facts {
            groups: vec![Vec::new(); GROUPS.len()],
            ..Facts::default()
        };
        for ins in &m.instructions {
            f.instructions.push(ins.name);
            f.names.insert(ins.name);
            for (g, names) in GROUPS.iter().zip(f.groups.iter_mut()) {
                if g.has(ins.opcode) {
                    names.push(ins.name);
                }
            }
            if ins.opcode == "fusion" {
                f.fusions.push((ins.name, ins.fusion_kind()));
            }
        }
        let tree = KernelTree::build(m);
        f.kernels = tree
            .walk()
            .into_iter()
            .filter(|(_, k)| k.launches)
            .filter_map(|(_, k)| m.instruction(k.instruction).map(|i| i.name))
            .collect();
        f
    }

    /// Reads a text's facts.
    pub fn of_text(text: &'a str) -> Facts<'a> {
        Facts::of(&program::parse(text))
    }
}

/// Before and after of one opcode group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupDelta<'a> {
    /// The group.
    pub group: &'static Group,
    /// How many in the file before.
    pub before: usize,
    /// How many in this file.
    pub after: usize,
    /// Those whose name is new in this file.
    pub new: Names<'a>,
}

/// What changed from one file to the next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delta<'a> {
    /// Instructions in the file before, and in this one.
    pub instructions: (usize, usize),
    /// Instruction names new in this file.
    pub added: Names<'a>,
    /// Instruction names gone from this file.
    pub removed: Names<'a>,
    /// Kernels (the kernel tree's rows that launch work) before and after.
    pub kernels: (usize, usize),
    /// Kernels whose name is new.
    pub kernels_added: Names<'a>,
    /// Kernels whose name is gone.
    pub kernels_removed: Names<'a>,
    /// One per row of [`GROUPS`].
    pub groups: Vec<GroupDelta<'a>>,
    /// Fusions whose name is not in the file before: name, `kind=`.
    pub fusions_formed: Vec<(&'a str, Option<&'a str>)>,
    /// How many fusions formed (the list stops at [`MAX_NAMES`]).
    pub fusions_formed_count: usize,
}

impl<'a> Delta<'a> {
    /// From the facts of the file before (`a`) to this one's (`b`).
    pub fn between(a: &Facts<'a>, b: &Facts<'a>) -> Delta<'a> {
        let a_kernels: HashSet<&str> = a.kernels.iter().copied().collect();
        let b_kernels: HashSet<&str> = b.kernels.iter().copied().collect();
        let groups = GROUPS
            .iter()
            .zip(a.groups.iter().zip(&b.groups))
            .map(|(g, (x, y))| GroupDelta {
                group: g,
                before: x.len(),
                after: y.len(),
                new: Names::of(y, |n| !a.names.contains(n)),
            })
            .collect();
        let mut formed = Vec::new();
        let mut count = 0;
        for &(name, kind) in &b.fusions {
            if !a.names.contains(name) {
                count += 1;
                if formed.len() < MAX_NAMES {
                    formed.push((name, kind));
                }
            }
        }
        Delta {
            instructions: (a.instructions.len(), b.instructions.len()),
            added: Names::of(&b.instructions, |n| !a.names.contains(n)),
            removed: Names::of(&a.instructions, |n| !b.names.contains(n)),
            kernels: (a.kernels.len(), b.kernels.len()),
            kernels_added: Names::of(&b.kernels, |n| !a_kernels.contains(n)),
            kernels_removed: Names::of(&a.kernels, |n| !b_kernels.contains(n)),
            groups,
            fusions_formed: formed,
            fusions_formed_count: count,
        }
    }
}

/// One numbered file given to [`story`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepFile<'a> {
    /// Its step number.
    pub step: u32,
    /// Its text, `None` when it could not be read.
    pub text: Option<&'a str>,
}

/// Why a numbered file was not compared with the file before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotCompared {
    /// It was not read itself (binary, over a size limit): the folder's
    /// entry says why.
    NotRead,
    /// The file before it was not read: its step, `None` for
    /// `before_optimizations`.
    BeforeNotRead(Option<u32>),
    /// The module's first file, with no `before_optimizations` file:
    /// nothing to compare with.
    FirstFile,
    /// The file of the step before it (this step) is not in the folder.
    BeforeMissing(u32),
    /// Another file of the same step comes before it.
    SameStep,
}

impl NotCompared {
    /// Its name in the JSON (`why`).
    pub fn code(self) -> &'static str {
        match self {
            NotCompared::NotRead => "not-read",
            NotCompared::BeforeNotRead(_) => "before-not-read",
            NotCompared::FirstFile => "first-file",
            NotCompared::BeforeMissing(_) => "before-missing",
            NotCompared::SameStep => "same-step",
        }
    }
}

/// What the story says of one numbered file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step<'a> {
    /// Whether its text differs from the file written before it; `None`
    /// when that file is missing or either is unreadable.
    pub changed: Option<bool>,
    /// What changed, for a changed file.
    pub delta: Option<Delta<'a>>,
    /// Why it was not compared, when `changed` is `None`.
    pub why: Option<NotCompared>,
}

/// The `before_optimizations` file given to [`story`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Before<'a> {
    /// The module has none in the folder.
    Absent,
    /// It is there but was not read.
    NotRead,
    /// Its text.
    Text(&'a str),
}

/// The file before the one being compared, as [`story`] walks.
#[derive(Clone, Copy)]
enum Prev<'a> {
    /// None yet (no `before_optimizations`).
    Nothing,
    /// A file of that step (`None`: `before_optimizations`), read or not.
    File(Option<u32>, Option<&'a str>),
}

/// Whether `f` compares with `prev`, or why not.
fn compare<'a>(prev: Prev<'a>, f: &StepFile<'a>) -> Result<(&'a str, &'a str), NotCompared> {
    let Some(b) = f.text else {
        return Err(NotCompared::NotRead);
    };
    let (step, text) = match prev {
        Prev::Nothing if f.step == 0 => return Err(NotCompared::FirstFile),
        Prev::Nothing => return Err(NotCompared::BeforeMissing(f.step.saturating_sub(1))),
        Prev::File(step, text) => (step, text),
    };
    let follows = match step {
        None => f.step == 0,
        Some(s) => s.checked_add(1) == Some(f.step),
    };
    if !follows {
        return Err(if step == Some(f.step) {
            NotCompared::SameStep
        } else {
            NotCompared::BeforeMissing(f.step.saturating_sub(1))
        });
    }
    match text {
        Some(a) => Ok((a, b)),
        None => Err(NotCompared::BeforeNotRead(step)),
    }
}

/// The story of a module's numbered files, given in step order, after
/// `before` (the `before_optimizations` file): one [`Step`] per file, and
/// how many texts were parsed (at most one more than the files: each text
/// once).
pub fn story<'a>(before: Before<'a>, files: &[StepFile<'a>]) -> (Vec<Step<'a>>, usize) {
    let mut out = Vec::with_capacity(files.len());
    let mut parses = 0;
    // The file before, and its facts once read.
    let mut prev = match before {
        Before::Absent => Prev::Nothing,
        Before::NotRead => Prev::File(None, None),
        Before::Text(t) => Prev::File(None, Some(t)),
    };
    let mut prev_facts: Option<Facts<'a>> = None;
    for f in files {
        let pair = compare(prev, f);
        let changed = pair.ok().map(|(a, b)| a != b);
        let why = pair.err();
        let mut delta = None;
        if let (Some(true), Ok((a, b))) = (changed, pair) {
            let fa = prev_facts.take().unwrap_or_else(|| {
                parses += 1;
                Facts::of_text(a)
            });
            parses += 1;
            let fb = Facts::of_text(b);
            delta = Some(Delta::between(&fa, &fb));
            prev_facts = Some(fb);
        } else if changed != Some(false) {
            // Unchanged keeps the facts (same text); anything else drops them.
            prev_facts = None;
        }
        out.push(Step {
            changed,
            delta,
            why,
        });
        prev = Prev::File(Some(f.step), f.text);
    }
    (out, parses)
}

/// What a query matched in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matched {
    /// An instruction of that name.
    Instruction,
    /// Instructions of that opcode.
    Opcode,
    /// Fusions of that kind (`kLoop`, or a backend config's `"kind"`).
    FusionKind,
}

impl Matched {
    /// As words.
    pub fn as_str(self) -> &'static str {
        match self {
            Matched::Instruction => "instruction",
            Matched::Opcode => "opcode",
            Matched::FusionKind => "fusion kind",
        }
    }
}

/// Where a query first appears: the index of the file in the list given to
/// [`first`], what it matched, and the instructions (names, 1-based lines)
/// it matched there (the first [`MAX_NAMES`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    /// Index into the files given.
    pub file: usize,
    /// The files not read (`None`) between the last file read without the
    /// query and this one, indices into the files given: the query may
    /// first appear in one of them.
    pub unread_before: Vec<usize>,
    /// What it matched.
    pub matched: Matched,
    /// The instructions it matched: name and line.
    pub instructions: Vec<(&'a str, usize)>,
    /// How many it matched.
    pub count: usize,
}

/// What a query matches in one text, if anything (`file` 0).
pub fn find<'a>(text: &'a str, query: &str) -> Option<Found<'a>> {
    if query.is_empty() || !text.contains(query) {
        return None;
    }
    let m = program::parse(text);
    for how in [Matched::Instruction, Matched::Opcode, Matched::FusionKind] {
        let mut hits = Vec::new();
        let mut count = 0;
        for ins in &m.instructions {
            let hit = match how {
                Matched::Instruction => ins.name == query,
                Matched::Opcode => ins.opcode == query,
                Matched::FusionKind => {
                    ins.fusion_kind() == Some(query) || ins.config_kind() == Some(query)
                }
            };
            if hit {
                count += 1;
                if hits.len() < MAX_NAMES {
                    hits.push((ins.name, ins.line));
                }
            }
        }
        if count > 0 {
            return Some(Found {
                file: 0,
                unread_before: Vec::new(),
                matched: how,
                instructions: hits,
                count,
            });
        }
    }
    None
}

/// The first of `texts` (in the order given: `before_optimizations`, then
/// the numbered files by step) where `query` appears as an instruction's
/// name, an opcode or a fusion kind. Unreadable files (`None`) are
/// skipped, and those between the last file read without the query and
/// the hit are [`Found::unread_before`]: the query may be in one of them.
/// Each file is parsed only when its text holds the query.
pub fn first<'a>(texts: &[Option<&'a str>], query: &str) -> Option<Found<'a>> {
    let mut unread = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        let Some(t) = t else {
            unread.push(i);
            continue;
        };
        if let Some(found) = find(t, query) {
            return Some(Found {
                file: i,
                unread_before: unread,
                ..found
            });
        }
        unread.clear();
    }
    None
}
