//! `dumplab`: reads XLA and JAX dumps (jaxpr, StableHLO, HLO) from their text
//! alone, models the course's annotated fixtures and exercises, and grades
//! learners' answers.
//!
//! The crate never touches the file system, the clock or the network: callers
//! hand it strings. That is what lets the same code run in the preprocessor,
//! on the command line and, compiled to `wasm32-unknown-unknown`, in the
//! learner's browser.

pub mod analysis;
pub mod diagnostic;
pub mod exercise;
pub mod grade;
#[cfg(feature = "serde")]
pub mod fixture;

pub use analysis::{Analysis, Backend, Evidence, Fusion, Kind, analyze};
pub use diagnostic::{Diagnostic, Severity};

#[cfg(target_arch = "wasm32")]
pub mod wasm;
