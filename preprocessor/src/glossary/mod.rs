//! Glossary tooltips: the one place where the course explains its own words.
//!
//! Instructors edit a single TOML file (`glossary/terms.toml`); this module
//! loads and validates it ([`config`], rendering each definition once with
//! [`definition`]) into the [`model`], finds occurrences of its terms in the
//! plain prose of every chapter ([`matcher`]), wraps them in tooltip markup
//! and fills the generated glossary chapter ([`render`]). Layers one way:
//! `model` imports none of the others; `config` uses `model` and
//! `definition`; `matcher` uses `model`; `render` uses `model` and `matcher`.
//!
//! The split matters for one invariant: a definition never becomes part of
//! the prose. Marked terms carry the definition only in attributes and in a
//! `<script type="application/json">` block, both of which mdBook's search
//! indexer, text selection and reader modes ignore; `theme/glossary.js` turns
//! them into a tooltip at run time.

pub(crate) mod config;
pub(crate) mod definition;
pub(crate) mod matcher;
pub(crate) mod model;
pub(crate) mod render;

pub(crate) use config::load;
pub(crate) use matcher::{Density, find_marks};
pub(crate) use model::Glossary;
