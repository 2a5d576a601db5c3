//! The folder's index from names and sizes alone, no text: its modules with
//! their files (sorted by kind, pass files by step), the files outside any
//! module, and the problems (a refused name, a duplicate, too many
//! entries, a file over the size limits).
//!
//! Refused names (absolute paths, `..`, `\`, control characters, empty
//! parts) are not indexed at all: one problem each. A file over
//! [`Limits::max_file_bytes`], or past [`Limits::max_total_bytes`] of the
//! files before it, is indexed but marked not to be read. Entries past
//! [`Limits::max_entries`] are left out with one problem for all of them.
//!
//! `O(n log n)` in the entries (one sort), each name read a bounded number
//! of times.

use super::names::{self, FileName, Kind, ModuleName};
use std::collections::{HashMap, HashSet};

/// The limits of one read; tests use small ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Entries indexed at most; the rest are left out with one problem.
    pub max_entries: usize,
    /// Bytes of one file read at most; a bigger one is listed, not read.
    pub max_file_bytes: u64,
    /// Bytes of all files read at most; past it, files are listed, not read.
    pub max_total_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_entries: 100_000,
            max_file_bytes: 256 << 20,
            max_total_bytes: 2 << 30,
        }
    }
}

/// Bytes a name may have.
pub const MAX_NAME_BYTES: usize = 4096;

/// One file of the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<'a> {
    /// Its path in the folder.
    pub path: &'a str,
    /// Its position in the list given to [`index`].
    pub input: usize,
    /// Its size in bytes, as given.
    pub size: u64,
    /// What its name says.
    pub name: FileName<'a>,
    /// Why it is not read, when it is not: over a size limit
    /// ([`OVER_FILE_LIMIT`], [`OVER_FOLDER_LIMIT`]) from the index, or,
    /// once the texts are known ([`super::read_inputs`]), not text
    /// ([`NOT_TEXT`]) or another reason the reader gave.
    pub skipped: Option<&'static str>,
}

/// One module and its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleFiles<'a> {
    /// Its id, name and `cl_NNN` part.
    pub module: ModuleName<'a>,
    /// Its files, indices into [`Index::entries`], by kind then step then
    /// path.
    pub files: Vec<usize>,
    /// Its numbered pass files, in step order (a subset of `files`).
    pub passes: Vec<usize>,
}

impl ModuleFiles<'_> {
    /// The first file of a kind, an index into [`Index::entries`].
    pub fn first_of(&self, index: &Index<'_>, kind: Kind) -> Option<usize> {
        self.files
            .iter()
            .copied()
            .find(|&i| index.entries.get(i).is_some_and(|e| e.name.kind == kind))
    }
}

/// Something wrong with one entry (or, for too many, the first left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The path, as given.
    pub path: String,
    /// One sentence.
    pub message: String,
}

/// The index of a folder; see the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Index<'a> {
    /// Every indexed file, in the order given.
    pub entries: Vec<Entry<'a>>,
    /// The modules, by number, name and `cl_NNN` part.
    pub modules: Vec<ModuleFiles<'a>>,
    /// Files outside any module, indices into `entries`, by path.
    pub unknown: Vec<usize>,
    /// What was refused, left out or not read, in the order met.
    pub problems: Vec<Problem>,
}

impl<'a> Index<'a> {
    /// The module of an id (`module_0000`) or a name (`jit_fn`).
    pub fn module(&self, id_or_name: &str) -> Option<&ModuleFiles<'a>> {
        self.modules
            .iter()
            .find(|m| m.module.id == id_or_name)
            .or_else(|| self.modules.iter().find(|m| m.module.name == id_or_name))
    }
}

/// Why a name is refused, or `None` for a name that may be indexed.
pub fn refusal(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return Some("an empty name: refused");
    }
    if path.len() > MAX_NAME_BYTES {
        return Some("a name over 4096 bytes: refused");
    }
    if path.chars().any(char::is_control) {
        return Some("a control character (NUL, newline, ...) in the name: refused");
    }
    if path.contains('\\') {
        return Some(
            "a backslash in the name: refused (paths in a dump folder are `/`-separated and relative)",
        );
    }
    let b = path.as_bytes();
    if path.starts_with('/')
        || (b.get(1) == Some(&b':') && b.first().is_some_and(u8::is_ascii_alphabetic))
    {
        return Some("an absolute path: refused (paths must be relative to the folder)");
    }
    if path.split('/').any(|p| p == "..") {
        return Some("a `..` part in the path: refused (it would point outside the folder)");
    }
    if path.split('/').any(|p| p.is_empty() || p == ".") {
        return Some("an empty or `.` part in the path: refused");
    }
    None
}

/// Indexes `(path, size)` pairs (see the module docs).
pub fn index<'a>(files: &[(&'a str, u64)], limits: &Limits) -> Index<'a> {
    let mut ix = Index::default();
    let mut seen: HashSet<&str> = HashSet::with_capacity(files.len().min(limits.max_entries));
    let mut modules: HashMap<ModuleName<'a>, usize> = HashMap::new();
    let mut total: u64 = 0;
    for (n, &(path, size)) in files.iter().enumerate() {
        if n >= limits.max_entries {
            let rest = files.len() - n - 1;
            let after = match rest {
                0 => String::new(),
                1 => ", nor the entry after it in the list".to_owned(),
                r => format!(", nor the {r} entries after it in the list"),
            };
            ix.problems.push(Problem {
                path: path.to_owned(),
                message: format!(
                    "not indexed{after}: a folder is indexed up to {} entries (the limit)",
                    limits.max_entries
                ),
            });
            break;
        }
        if let Some(why) = refusal(path) {
            ix.problems.push(problem(path, why));
            continue;
        }
        if !seen.insert(path) {
            ix.problems.push(problem(
                path,
                "a second file of the same name: the first one is kept",
            ));
            continue;
        }
        let skipped = if size > limits.max_file_bytes {
            Some(OVER_FILE_LIMIT)
        } else if total.saturating_add(size) > limits.max_total_bytes {
            Some(OVER_FOLDER_LIMIT)
        } else {
            total = total.saturating_add(size);
            None
        };
        if let Some(why) = skipped {
            ix.problems.push(not_read(path, size, why));
        }
        let name = names::parse(path);
        let at = ix.entries.len();
        ix.entries.push(Entry {
            path,
            input: n,
            size,
            name,
            skipped,
        });
        match name.module {
            Some(m) => {
                let k = *modules.entry(m).or_insert_with(|| {
                    ix.modules.push(ModuleFiles {
                        module: m,
                        files: Vec::new(),
                        passes: Vec::new(),
                    });
                    ix.modules.len() - 1
                });
                if let Some(mf) = ix.modules.get_mut(k) {
                    mf.files.push(at);
                    if name.kind == Kind::Pass {
                        mf.passes.push(at);
                    }
                }
            }
            None => ix.unknown.push(at),
        }
    }
    sort(&mut ix);
    ix
}

/// Why a file over [`Limits::max_file_bytes`] is not read.
pub const OVER_FILE_LIMIT: &str = "over the limit for one file";
/// Why a file past [`Limits::max_total_bytes`] is not read.
pub const OVER_FOLDER_LIMIT: &str =
    "over the limit for the whole folder (with the files before it)";
/// Why a file that is not text is not read.
pub const NOT_TEXT: &str = "not text (NUL bytes, or not UTF-8)";

/// The problem of a file listed, not read: `1234 bytes, <why>: listed, not
/// read`, one shape for every reason.
pub fn not_read(path: &str, size: u64, why: &str) -> Problem {
    Problem {
        path: path.to_owned(),
        message: format!("{size} bytes, {why}: listed, not read"),
    }
}

fn problem(path: &str, message: &str) -> Problem {
    Problem {
        path: path.to_owned(),
        message: message.to_owned(),
    }
}

/// Modules by number, name, `cl`; files by kind, step, path; pass files by
/// step, path; unknown ones by path.
fn sort<'a>(ix: &mut Index<'a>) {
    let entries = &ix.entries;
    let step = |i: usize| entries.get(i).and_then(|e| e.name.pass).map(|p| p.step);
    let path = |i: usize| entries.get(i).map_or("", |e| e.path);
    let kind = |i: usize| entries.get(i).map_or(Kind::Unknown, |e| e.name.kind);
    for m in &mut ix.modules {
        m.files
            .sort_by(|&a, &b| (kind(a), step(a), path(a)).cmp(&(kind(b), step(b), path(b))));
        m.passes
            .sort_by(|&a, &b| (step(a), path(a)).cmp(&(step(b), path(b))));
    }
    ix.modules.sort_by(|a, b| {
        let key = |m: &ModuleFiles<'a>| (m.module.number, m.module.name, m.module.cl, m.module.id);
        key(a).cmp(&key(b))
    });
    ix.unknown.sort_by(|&a, &b| path(a).cmp(path(b)));
}
