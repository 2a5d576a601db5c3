//! Where the time goes: the cost ledger and the roofline per kernel.
//!
//! [`chips`] is the one table of accelerator presets (short CLI names,
//! sourced peak figures, the per-kernel overhead assumption), and [`roof`]
//! the roofline of one kernel on one preset: its arithmetic intensity,
//! whether it is memory- or compute-bound under this model, and a lower
//! bound on its time. Both read numbers only, never the dump: the ledger
//! hands them a kernel's flops and bytes.

pub mod chips;
pub mod roof;
