//! Exercises: the file model instructors write, its validation against the
//! fixtures, and the sealed answer keys the pages carry.
//!
//! Split so the wasm build stays small: [`key`] and [`seal`] have no
//! dependencies and ship to the browser; [`model`] and [`resolve`] need serde
//! and run only at build time, in the preprocessor.

pub mod key;
pub mod seal;

#[cfg(feature = "serde")]
pub mod model;
#[cfg(feature = "serde")]
pub mod resolve;
