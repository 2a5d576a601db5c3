//! `cargo xtask`: set-up and automation for DumpLab.

fn main() {}
