//! `dumplab`: reads XLA and JAX dumps (jaxpr, StableHLO, HLO) from their text
//! alone, models the course's annotated fixtures and exercises, and grades
//! learners' answers.
//!
//! The crate never touches the file system, the clock or the network: callers
//! hand it strings. That is what lets the same code run in the preprocessor,
//! on the command line and, compiled to `wasm32-unknown-unknown`, in the
//! learner's browser.

pub mod diagnostic;

pub use diagnostic::{Diagnostic, Severity};
