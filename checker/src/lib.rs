//! `dumplab`: reads XLA and JAX dumps (jaxpr, StableHLO, HLO) from their text
//! alone, models the course's annotated fixtures and exercises, and grades
//! learners' answers.
//!
//! The crate never touches the file system, the clock or the network: callers
//! hand it strings. That is what lets the same code run in the preprocessor,
//! on the command line and, compiled to `wasm32-unknown-unknown`, in the
//! learner's browser.
//!
//! [`analyze`] says what a dump is and why; the JSON that
//! `mdbook-dumplab analyze --json` prints is its [`Analysis`], whose stable
//! schema is documented in [`analysis`].

pub mod analysis;
pub mod collectives;
pub mod cost;
pub mod diagnostic;
pub mod diff;
pub mod exercise;
pub mod explain;
#[cfg(feature = "serde")]
pub mod fixture;
pub mod folder;
pub mod grade;
pub mod inspect;
pub mod kernels;
pub mod program;
pub mod sourcemap;
pub mod why;

pub use analysis::{Analysis, Backend, Evidence, Fusion, Kind, analyze};
pub use diagnostic::{Diagnostic, Severity, did_you_mean};

#[cfg(target_arch = "wasm32")]
pub mod wasm;
