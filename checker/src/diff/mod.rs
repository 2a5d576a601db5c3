//! What changed between two dumps: a semantic diff on the program model.
//!
//! Two compiled modules are compared kernel by kernel: every row of each
//! side's kernel tree ([`item`]) is matched by what it computes, never by
//! its name ([`matching`]: provenance, opcodes, shapes), what differs in
//! each matched pair and outside the rows is listed ([`changes`]), and the
//! cost of the change comes from the ledger ([`compiled`]). Two lowered
//! programs or two jaxprs are compared as the operations each source line
//! lowered to ([`lowered`]). [`report`] reads two pastes and picks the diff
//! their kind has; [`json`] writes `diff --json`.
//!
//! One way: `item` → `matching` → `changes` → `compiled`; `lowered` on its
//! own; `report` over both; `json` over `report`. Nothing below this module
//! imports it.

pub mod changes;
pub mod compiled;
pub mod item;
pub mod json;
pub mod lowered;
pub mod matching;
pub mod report;
