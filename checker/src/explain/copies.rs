//! Every copy and transpose: the layouts on each side, the bytes the ledger
//! counts for it, and the source lines it carries.

use super::rules::{layout_text, operand_shape};
use crate::cost::ledger::Ledger;
use crate::kernels::{Kernel, KernelKind, KernelTree};
use crate::program::Module;

/// What a copy or transpose does.
#[derive(Clone, Debug, PartialEq)]
pub struct CopyFacts {
    /// The opcode (`copy`, `copy-start`, `transpose`).
    pub opcode: String,
    /// Its operand's layout, as printed.
    pub from_layout: Option<String>,
    /// Its result's layout.
    pub to_layout: Option<String>,
    /// Its result's shape, without the layout.
    pub shape: String,
    /// The bytes it reads and writes, as the ledger's estimate counts them
    /// (a `copy-start` read once and written once, where XLA's own figure
    /// counts its whole output tuple); `None` when unknown.
    pub bytes: Option<f64>,
    /// Of [`CopyFacts::bytes`], those to and from HBM (on-chip `S(n)`
    /// arrays out, tile padding in), as the ledger's estimate counts them.
    pub hbm_bytes: Option<f64>,
    /// Its source lines (file, line).
    pub source_lines: Vec<(String, u32)>,
    /// With the compile's dump folder: the pass that added it.
    pub added: Option<super::added::Added>,
}

impl CopyFacts {
    /// Whether the layouts differ (both known), the memory space aside.
    pub fn changes_layout(&self) -> Option<bool> {
        let strip = super::rules::without_memory_space;
        Some(strip(self.from_layout.as_ref()?) != strip(self.to_layout.as_ref()?))
    }

    /// Whether the memory space differs (both layouts known; no `S(n)`
    /// is memory space 0).
    pub fn moves_memory_space(&self) -> Option<bool> {
        let space = |l: &str| -> String {
            match l.find("S(") {
                Some(at) => l[at..].split(')').next().unwrap_or("").to_owned(),
                None => "S(0".to_owned(),
            }
        };
        Some(space(self.from_layout.as_ref()?) != space(self.to_layout.as_ref()?))
    }
}

/// The facts of a copy or transpose row; `None` for any other row.
pub fn facts<'a>(
    m: &Module<'a>,
    tree: &KernelTree<'a>,
    ledger: &Ledger<'_>,
    k: &Kernel,
) -> Option<CopyFacts> {
    if !matches!(k.kind, KernelKind::Copy | KernelKind::Transpose) {
        return None;
    }
    let ins = m.instruction(k.instruction)?;
    let shape = ins.shape();
    let result = shape.first_part();
    let to_layout = match result {
        crate::program::Shape::Array(a) => a.layout.as_ref().map(|l| l.text.to_owned()),
        _ => None,
    };
    let from_layout = operand_shape(m, ins, 0)
        .and_then(layout_text)
        .map(str::to_owned);
    let entry = ledger.kernels.iter().find(|e| e.id == k.instruction);
    let known = |b: crate::cost::Figure| (b.unknown == 0).then_some(b.known);
    let bytes = entry.and_then(|e| known(e.estimate.figures.bytes));
    let hbm_bytes = entry.and_then(|e| known(e.estimate.hbm_bytes()));
    Some(CopyFacts {
        opcode: ins.opcode.to_owned(),
        from_layout,
        to_layout,
        shape: result.without_layout(),
        bytes,
        hbm_bytes,
        source_lines: tree
            .source_lines(m, k)
            .into_iter()
            .map(|(f, l)| (f.to_owned(), l))
            .collect(),
        added: None,
    })
}
