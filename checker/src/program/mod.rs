//! The syntax layer: HLO text read once into a typed [`Module`] that
//! borrows the text.
//!
//! [`parse`] walks the lines once and gives the module header, the
//! computations, their instructions (name, parsed [`Shape`], opcode,
//! operands resolved to ids within their computation, users, called
//! computations, fusion kind, custom-call target, raw `backend_config`,
//! [`Metadata`] (read from the raw value on demand, as the shape is: one
//! instruction's record stays at 144 bytes; its op name and stack frame,
//! noted in the attribute walk, by [`Module::metadata`] without a second
//! read), every other attribute as raw
//! `key=value` text), and the
//! source tables (`FileNames`, `FunctionNames`, `FileLocations`,
//! `StackFrames`) through which each `stack_frame_id` is resolved once
//! ([`Module::frames`]).
//!
//! Ids are indices ([`InstrId`], [`CompId`]) into the module's vectors,
//! never pointers. Reading is tolerant: a headerless excerpt gives
//! instructions outside any computation, a cut line gives what it holds,
//! and every line that could not be read is listed in [`Module::unread`]
//! with a short reason. An instruction whose brackets are still open at the
//! end of its line (a `backend_config={` printed over several lines, which
//! XLA's own parser accepts) continues on the next lines, so it neither
//! ends the instruction nor the computation. XLA's `/*index=5*/` comments
//! before every fifth operand are skipped.
//!
//! Linear in the text: every byte is looked at a bounded number of times
//! ([`Module::work`] counts the bytes the reader visits), nesting is kept
//! on explicit stacks, never in recursion on the input; no panics.
//!
//! Line numbers refer to the text given: a damaged paste is repaired first
//! (`analysis::unwrap`) and the module reads the repaired text.
//!
//! Sharded programs: the header's [`Header::num_partitions`] and
//! [`Header::replica_count`]; a collective's attributes
//! ([`Module::collective`], its start from its done
//! [`Module::collective_start`]; the opcodes in [`COLLECTIVE_OPS`]); an
//! instruction's `sharding=` ([`Module::sharding`]). Read on demand, from
//! the raw attributes, so a reader that never asks does not pay. `as_text()`
//! prints no device assignment, so the model has none.
//!
//! What each instruction runs, as one vocabulary of kernel kinds that
//! every output reads: [`kinds`].
//!
//! The lowered side (StableHLO/MHLO ops with their locations, jaxpr
//! equations) is read by [`lowered`].

mod collective;
mod cut;
mod hlo;
mod iota;
pub mod kinds;
pub mod lowered;
mod model;
mod shape;
mod sharding;
mod sources;
mod text;

#[cfg(test)]
pub(crate) mod tests;

pub use collective::{
    AxisRef, COLLECTIVE_OPS, Collective, CollectiveOp, GroupsForm, MeshGroups, Peers, Phase,
    ReplicaGroups, SourceTargetPairs, collective_op,
};
pub(crate) use hlo::{CUT, computation_header};
pub use iota::{Iota, MAX_DEVICES, MAX_RANK};
pub use kinds::{KernelKind, is_control_opcode, is_free_opcode};
pub use model::{
    Attr, CALL_ATTRS, Call, CallRole, CompId, Computation, Header, InstrId, Instruction, Metadata,
    Module, Operand, Span, Unread,
};
pub use shape::{Array, Dim, Layout, Shape, Summary, element_bits, summary};
pub use sharding::{Sharding, ShardingKind, TileDevices, Tiled};
pub use sources::{FileLocation, Frame, SourceTables};

/// The byte offset in `text` of `part`, a slice the [`Module`] of `text`
/// borrowed (a name, an opcode, an attribute's value): what a reader
/// needs to point at a column. `None` when `part` is not inside `text`.
pub fn offset_in(text: &str, part: &str) -> Option<usize> {
    let start = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    (start.checked_add(part.len())? <= text.len()).then_some(start)
}

/// Where [`parse`] cuts `text` to read it on two threads (the start of a
/// computation header's line near the middle of a large module), which a
/// reader of its lines may cut at too; `None` where it reads in one pass.
pub(crate) fn cut_point(text: &str) -> Option<usize> {
    cut::point(text)
}

/// Reads HLO text into a [`Module`]; never fails, never panics. A large
/// module is read on two threads where there are two ([`cut`]): the same
/// module.
pub fn parse(text: &str) -> Module<'_> {
    cut::read(text)
}
