//! The source tables of a compiled HLO module (`FileNames`,
//! `FunctionNames`, `FileLocations`, `StackFrames`), read once, and the
//! frames a `stack_frame_id` stands for.

use crate::analysis::scan::{self, Sip};
use std::collections::HashMap;

/// Which table a run of numbered lines belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Table {
    /// `FileNames`: `1 "path.py"`.
    FileNames,
    /// `FunctionNames`: `1 "fn"`.
    FunctionNames,
    /// `FileLocations`: `1 {file_name_id=1 function_name_id=1 line=20 ...}`.
    FileLocations,
    /// `StackFrames`: `1 {file_location_id=1 parent_frame_id=1}`.
    StackFrames,
}

/// The table titles, one row each.
pub(crate) const TABLES: &[(&str, Table)] = &[
    ("FileNames", Table::FileNames),
    ("FunctionNames", Table::FunctionNames),
    ("FileLocations", Table::FileLocations),
    ("StackFrames", Table::StackFrames),
];

/// One `FileLocations` row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileLocation {
    /// Into `FileNames`.
    pub file: u32,
    /// Into `FunctionNames`, when printed.
    pub function: Option<u32>,
    /// 1-based source line.
    pub line: u32,
}

/// One resolved source frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    /// The file, as printed.
    pub file: &'a str,
    /// 1-based line.
    pub line: u32,
    /// The function, when the tables name it.
    pub function: Option<&'a str>,
}

/// The four tables, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceTables<'a> {
    /// `FileNames`.
    pub file_names: HashMap<u32, &'a str, Sip>,
    /// `FunctionNames`.
    pub function_names: HashMap<u32, &'a str, Sip>,
    /// `FileLocations`.
    pub file_locations: HashMap<u32, FileLocation, Sip>,
    /// `StackFrames`: (file location, parent frame id, when it has one).
    pub stack_frames: HashMap<u32, (u32, Option<u32>), Sip>,
}

/// Frames followed from one `stack_frame_id` at most.
const MAX_FRAMES: usize = 64;

impl<'a> SourceTables<'a> {
    /// The table a title line starts, if it is one.
    pub(crate) fn title(t: &str) -> Option<Table> {
        TABLES.iter().find(|(n, _)| *n == t).map(|&(_, k)| k)
    }

    /// Adds the rows of `later`, read after these: a row of an id
    /// already here overwrites it, as a later row does in one pass.
    pub(crate) fn append(&mut self, later: SourceTables<'a>) {
        let SourceTables {
            file_names,
            function_names,
            file_locations,
            stack_frames,
        } = later;
        self.file_names.extend(file_names);
        self.function_names.extend(function_names);
        self.file_locations.extend(file_locations);
        self.stack_frames.extend(stack_frames);
    }

    /// Reads one numbered row of `table`; `false` when it is not one.
    pub(crate) fn row(&mut self, table: Table, t: &'a str) -> bool {
        let b = t.as_bytes();
        let id_end = scan::take_while(b, 0, |c| c.is_ascii_digit());
        let Some(id) = t.get(..id_end).and_then(|s| s.parse::<u32>().ok()) else {
            return false;
        };
        let rest = t.get(id_end..).unwrap_or("").trim();
        let num = |k: &str| scan::field(rest, k).and_then(|v| v.parse::<u32>().ok());
        match table {
            Table::FileNames => {
                self.file_names.insert(id, rest.trim_matches('"'));
            }
            Table::FunctionNames => {
                self.function_names.insert(id, rest.trim_matches('"'));
            }
            Table::FileLocations => {
                if let (Some(file), Some(line)) = (num("file_name_id"), num("line")) {
                    let function = num("function_name_id");
                    self.file_locations.insert(
                        id,
                        FileLocation {
                            file,
                            function,
                            line,
                        },
                    );
                }
            }
            Table::StackFrames => {
                if let Some(loc) = num("file_location_id") {
                    // XLA prints the parent one above its frame id, `1`
                    // for none: in every fixture the outermost frame (the
                    // jitted function's line) says `parent_frame_id=1`,
                    // and a callee's frame names its caller's id plus one.
                    let parent = num("parent_frame_id")
                        .and_then(|p| p.checked_sub(1))
                        .filter(|&p| p != 0);
                    self.stack_frames.insert(id, (loc, parent));
                }
            }
        }
        true
    }

    /// The (file, line) of one frame.
    pub fn location(&self, frame: u32) -> Option<(&'a str, u32)> {
        let f = self.frame(frame)?;
        Some((f.file, f.line))
    }

    /// One frame, resolved.
    pub fn frame(&self, frame: u32) -> Option<Frame<'a>> {
        let (loc, _) = self.stack_frames.get(&frame)?;
        let l = self.file_locations.get(loc)?;
        Some(Frame {
            file: self.file_names.get(&l.file)?,
            line: l.line,
            function: l
                .function
                .and_then(|f| self.function_names.get(&f).copied()),
        })
    }

    /// A frame and its callers, innermost first (a parent that repeats a
    /// frame already seen, or a missing row, ends the chain).
    pub fn frames(&self, frame: u32) -> Vec<Frame<'a>> {
        let mut out = Vec::new();
        let mut seen: Vec<u32> = Vec::new();
        let mut at = Some(frame);
        while let Some(f) = at {
            if seen.contains(&f) || seen.len() >= MAX_FRAMES {
                break;
            }
            seen.push(f);
            if let Some(r) = self.frame(f) {
                out.push(r);
            }
            at = self.stack_frames.get(&f).and_then(|&(_, p)| p);
        }
        out
    }
}
