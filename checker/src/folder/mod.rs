//! The dump folder: what a `--xla_dump_to` folder holds, read from a list of
//! (path, text) pairs (no file system here).

pub mod buffers;
pub mod memory;
