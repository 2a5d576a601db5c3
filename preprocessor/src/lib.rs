//! `mdbook-dumplab`: the mdBook glue and command line of the DumpLab course.
//!
//! Everything that touches the file system or mdBook lives here; the
//! analysis, fixture model and grading live in the `dumplab` crate, which
//! stays free of I/O so it can run in the browser.

pub mod cli;

mod cmd_analyze;
mod cmd_check;
mod cmd_collectives;
mod cmd_cost;
mod cmd_diff;
mod cmd_explain;
mod cmd_fixture;
mod cmd_folder;
mod cmd_grade;
mod cmd_map;
mod cmd_markers;
mod cmd_why;
mod confine;
mod course;
mod directives;
mod exercises;
mod glossary;
mod html;
mod input;
mod livemap;
mod markdown;
mod playground;
mod preprocess;
mod print;
mod progress;
mod settings;
mod templates;
mod viewer;
