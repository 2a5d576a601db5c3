//! The cost ledger: flops, transcendentals and bytes accessed per
//! instruction, per kernel and per module, as XLA's own generic cost model
//! computes them ([`xla`]), on the program model.

pub mod chips;
pub mod conv;
pub mod costs;
pub mod estimate;
pub mod figures;
mod fusion;
pub mod json;
pub mod ledger;
pub mod pallas;
pub mod report;
pub mod roof;
pub mod roofline;
pub mod rules;
pub mod size;
pub mod trips;
pub mod xla;

pub use figures::{Figure, Figures};

/// XLA's figures of a module's text, and how many instructions could not
/// be read.
pub fn module_figures(text: &str) -> (Figures, u64) {
    let m = crate::program::parse(text);
    let mut x = xla::Xla::new(&m);
    let f = x.totals();
    (f, x.unread)
}
