//! The dump folder: what `--xla_dump_to` wrote, read from a list of
//! (path, text) pairs (the checker touches no file system; the command
//! line and the page read the files and hand them over).
//!
//! - [`names`]: one path into its module, kind and, for a numbered pass
//!   file, step, pipeline and passes (the kinds are one table);
//! - [`index`]: names and sizes only: modules with their files, files
//!   outside any module, problems (refused names, duplicates, limits);
//! - [`passes`]: the pass story of one module from its texts (`changed`,
//!   the delta of a changed file, the first file where something appears);
//! - [`json`]: `folder --json` and the page's requests; [`report`]: the
//!   text a person reads in a terminal;
//! - [`linediff`]: the bounded line diff of two files, for the page's
//!   before/after view of a pass file and the file before it;
//! - [`buffers`]: the buffer-assignment, memory-usage-report and
//!   live-range files, parsed; [`memory`]: the module's memory figures from
//!   them (XLA's own rules, checked against `compiled.memory_analysis()`),
//!   the largest buffers and the aliasing.
//!
//! [`read`] combines them; [`memory_of`] reads one module's memory.

pub mod buffers;
pub mod index;
pub mod json;
pub mod linediff;
pub mod memory;
pub mod names;
pub mod passes;
pub mod report;

use index::Index;
pub use index::Limits;
use names::Kind;
use passes::{Step, StepFile};

/// One file handed to [`read_inputs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input<'a> {
    /// Its path in the folder, `/`-separated.
    pub path: &'a str,
    /// Its size in bytes.
    pub size: u64,
    /// Its text; `None` for a file that is not text (binary, not UTF-8,
    /// NUL bytes) or was not read: listed, never parsed.
    pub text: Option<&'a str>,
    /// Why `text` is `None`, when the reader knows better than "not text"
    /// ([`index::NOT_TEXT`], the reason used when this is `None`): a link
    /// not followed, say.
    pub unread: Option<&'static str>,
}

/// One module's story: one [`Step`] per numbered file (as in
/// [`index::ModuleFiles::passes`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Story<'a> {
    /// One per numbered file, in step order.
    pub steps: Vec<Step<'a>>,
    /// How many texts were parsed to tell it (each at most once).
    pub parses: usize,
}

/// A folder read: its index, and per module (as in [`Index::modules`])
/// its story and texts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folder<'a> {
    /// The index.
    pub index: Index<'a>,
    /// Per entry of the index, its text (`None`: not text, or not read).
    pub texts: Vec<Option<&'a str>>,
    /// Per module of the index, its story.
    pub stories: Vec<Story<'a>>,
}

impl<'a> Folder<'a> {
    /// An entry's text.
    pub fn text(&self, entry: usize) -> Option<&'a str> {
        self.texts.get(entry).copied().flatten()
    }

    /// Whether DumpLab parses an entry: its kind is parsed and its text
    /// was read.
    pub fn parsed(&self, entry: usize) -> bool {
        self.index
            .entries
            .get(entry)
            .is_some_and(|e| e.name.kind.parsed() && e.skipped.is_none())
            && self.text(entry).is_some()
    }

    /// The texts of `before_optimizations` (first) and of the numbered
    /// files of module `m`, in step order: what [`passes::first`] reads,
    /// with the entry index of each.
    pub fn story_texts(&self, m: usize) -> Vec<(Option<usize>, Option<&'a str>)> {
        let Some(mf) = self.index.modules.get(m) else {
            return Vec::new();
        };
        let before = mf.first_of(&self.index, Kind::BeforeOptimizations);
        let mut out = vec![(before, before.and_then(|i| self.text(i)))];
        out.extend(mf.passes.iter().map(|&i| (Some(i), self.text(i))));
        out
    }
}

impl<'a> Folder<'a> {
    /// Where `query` first appears in module `m` ([`passes::first`] over
    /// [`Folder::story_texts`]); [`passes::Found::unread_before`] lists
    /// files of the folder only (an absent `before_optimizations` is no
    /// unread file).
    pub fn first(&self, m: usize, query: &str) -> Option<passes::Found<'a>> {
        let files = self.story_texts(m);
        let texts: Vec<Option<&'a str>> = files.iter().map(|(_, t)| *t).collect();
        let mut found = passes::first(&texts, query)?;
        found
            .unread_before
            .retain(|&k| files.get(k).is_some_and(|(e, _)| e.is_some()));
        Some(found)
    }

    /// The entries of module `m`'s story files (`before_optimizations`,
    /// then the numbered files) that were not read.
    pub fn unread_story(&self, m: usize) -> Vec<usize> {
        self.story_texts(m)
            .iter()
            .filter_map(|&(e, t)| e.filter(|_| t.is_none()))
            .collect()
    }

    /// Why an entry was not read, when it was not (see
    /// [`index::Entry::skipped`]).
    pub fn not_read(&self, entry: usize) -> Option<&'static str> {
        self.index.entries.get(entry).and_then(|e| e.skipped)
    }
}

impl Folder<'_> {
    /// The path of module `m`'s optimized module
    /// (`<backend>_after_optimizations.txt`) when `query` appears in it as
    /// an instruction name, an opcode or a fusion kind.
    pub fn in_final(&self, m: usize, query: &str) -> Option<&str> {
        let mf = self.index.modules.get(m)?;
        let i = mf.first_of(&self.index, Kind::AfterOptimizations)?;
        passes::find(self.text(i)?, query)?;
        self.index.entries.get(i).map(|e| e.path)
    }

    /// The `xla_dump_hlo_pass_re` of module `m`'s `debug_options` file
    /// (`xla_dump_hlo_pass_re: ".*"`), when it has one: which passes wrote
    /// files.
    pub fn pass_re(&self, m: usize) -> Option<&str> {
        let mf = self.index.modules.get(m)?;
        let text = self.text(mf.first_of(&self.index, Kind::DebugOptions)?)?;
        let line = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("xla_dump_hlo_pass_re:"))?;
        let v = line.trim();
        v.strip_prefix('"')?.strip_suffix('"')
    }
}

/// Reads a folder of (path, text) pairs (see the module docs).
pub fn read<'a>(files: &[(&'a str, &'a str)], limits: &Limits) -> Folder<'a> {
    let inputs: Vec<Input<'a>> = files
        .iter()
        .map(|&(path, text)| Input {
            path,
            size: text.len() as u64,
            text: Some(text),
            unread: None,
        })
        .collect();
    read_inputs(&inputs, limits)
}

/// Reads a folder of [`Input`]s: the index, then each module's story.
///
/// An entry within the limits whose text is `None` is marked not read
/// ([`index::Entry::skipped`], the input's reason or
/// [`index::NOT_TEXT`]) and, when its kind is one DumpLab parses, gets one
/// problem, of the same shape as a file over a limit: each file not read
/// is reported once. (A file of a kind never parsed, an object file, is
/// binary by nature: listed, not read, no problem.)
pub fn read_inputs<'a>(inputs: &[Input<'a>], limits: &Limits) -> Folder<'a> {
    let sizes: Vec<(&'a str, u64)> = inputs.iter().map(|i| (i.path, i.size)).collect();
    let mut index = index::index(&sizes, limits);
    let mut texts = Vec::with_capacity(index.entries.len());
    for e in &mut index.entries {
        let input = inputs.get(e.input);
        let text = input.and_then(|i| i.text).filter(|_| e.skipped.is_none());
        if text.is_none() && e.skipped.is_none() {
            let why = input.and_then(|i| i.unread).unwrap_or(index::NOT_TEXT);
            e.skipped = Some(why);
            if e.name.kind.parsed() {
                index.problems.push(index::not_read(e.path, e.size, why));
            }
        }
        texts.push(text);
    }
    let mut folder = Folder {
        index,
        texts,
        stories: Vec::new(),
    };
    folder.stories = (0..folder.index.modules.len())
        .map(|m| story_of(&folder, m))
        .collect();
    folder
}

/// The story of module `m` of a folder whose texts are known.
pub fn story_of<'a>(folder: &Folder<'a>, m: usize) -> Story<'a> {
    let Some(mf) = folder.index.modules.get(m) else {
        return Story::default();
    };
    let before = match mf.first_of(&folder.index, Kind::BeforeOptimizations) {
        None => passes::Before::Absent,
        Some(i) => folder
            .text(i)
            .map_or(passes::Before::NotRead, passes::Before::Text),
    };
    let files: Vec<StepFile<'a>> = mf
        .passes
        .iter()
        .map(|&i| StepFile {
            step: folder
                .index
                .entries
                .get(i)
                .and_then(|e| e.name.pass)
                .map_or(u32::MAX, |p| p.step),
            text: folder.text(i),
        })
        .collect();
    let (steps, parses) = passes::story(before, &files);
    Story { steps, parses }
}

/// Module `m`'s memory figures (see [`memory`]), when its folder holds a
/// buffer assignment with text: read from it, the memory-usage report,
/// the live-range file and the optimized module, whichever are present.
pub fn memory_of(folder: &Folder<'_>, m: usize) -> Option<memory::Memory> {
    let mf = folder.index.modules.get(m)?;
    let text_of = |k: Kind| mf.first_of(&folder.index, k).and_then(|i| folder.text(i));
    let ba = mf.first_of(&folder.index, Kind::BufferAssignment)?;
    let path = folder.index.entries.get(ba)?.path;
    Some(memory::figures(&memory::Inputs {
        buffer_assignment: folder.text(ba)?,
        memory_usage_report: text_of(Kind::MemoryUsageReport),
        live_range: text_of(Kind::LiveRange),
        optimized: text_of(Kind::AfterOptimizations),
        before: text_of(Kind::BeforeOptimizations),
        producer: memory::Producer::from_file_name(path),
    }))
}

/// The `memory` object of module `m` in `folder --json`
/// ([`memory::write_json`]), or `None` (printed `null`) when the folder
/// has no buffer assignment for it.
pub fn memory_json(folder: &Folder<'_>, m: usize) -> Option<String> {
    let mem = memory_of(folder, m)?;
    let mut out = String::new();
    memory::write_json(&mut out, &mem);
    Some(out)
}

/// The memory block of module `m` in the terminal report
/// ([`memory::write_text`]), or `None` (nothing printed) when the folder
/// has no buffer assignment for it.
pub fn memory_text(folder: &Folder<'_>, m: usize) -> Option<String> {
    let mem = memory_of(folder, m)?;
    let mut out = String::new();
    memory::write_text(&mut out, &mem);
    Some(out)
}
