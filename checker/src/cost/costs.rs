//! What a rule that follows other instructions needs of the cost model
//! (the fusion rule reads its fused computation's figures and its
//! parameters' users): a trait the model ([`super::xla::Xla`]) implements,
//! so that rules in files of their own import it, not the model.

use super::figures::Figures;
use super::size::Size;
use crate::program::{CompId, InstrId, Module};

/// The cost model as the rules see it.
pub trait Costs<'m, 'a: 'm> {
    /// The module.
    fn module(&self) -> &'m Module<'a>;
    /// A computation's figures and its unread instructions.
    fn computation(&mut self, c: CompId) -> (Figures, u64);
    /// An instruction's figures.
    fn instruction(&mut self, id: InstrId) -> Figures;
    /// The size of an instruction's shape.
    fn size(&mut self, id: InstrId) -> Option<Size>;
}
