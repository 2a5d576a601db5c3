//! The dump folder: what an `--xla_dump_to` folder holds, read from a list
//! of (path, text) pairs (the checker touches no file system).
//!
//! [`linediff`] is the bounded line diff of two files of a folder, for the
//! page's before/after view of a pass file and the file before it.

pub mod linediff;
