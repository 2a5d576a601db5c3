//! The cost ledger: flops, transcendentals and bytes per instruction and
//! per kernel.

pub mod pallas;
