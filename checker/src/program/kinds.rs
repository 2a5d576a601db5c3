//! The vocabulary of what an instruction runs: one table of kernel kinds
//! ([`KINDS`], one row per [`KernelKind`]), which opcodes launch no work
//! ([`is_free_opcode`]) or run other computations ([`is_control_opcode`]),
//! and the kind of one instruction ([`kind_of`]).
//!
//! Every output that names a kernel's kind reads it from [`KINDS`]: the
//! kernel tree and the readers on it by [`KindRow::name`], the source map by
//! [`KindRow::map_name`], and `analyze`'s flat kernel list (the counts the
//! exercises grade) by [`KindRow::analyze_name`].

use super::model::Instruction;

/// What a kernel row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelKind {
    /// A `fusion`: one generated kernel.
    Fusion,
    /// A `custom-call` into a library or hand-written code.
    CustomCall,
    /// A `custom-call` a `pallas_call` made (Mosaic TPU, Triton, Mosaic GPU).
    Pallas,
    /// A `copy` or `copy-start`.
    Copy,
    /// An unfused `transpose`.
    Transpose,
    /// A collective (`all-reduce`, `all-gather-start`, `send`, ...).
    Collective,
    /// A `while` loop.
    Loop,
    /// A `conditional`.
    Branch,
    /// A `call`.
    Call,
    /// An `async-start` of another op.
    Async,
    /// Any other op running on its own (an unfused `reduce`, `dot`, ...).
    Op,
}

/// One row of [`KINDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindRow {
    /// The kind.
    pub kind: KernelKind,
    /// Its name.
    pub name: &'static str,
    /// What the source map prints for it (`kernels[].kind`).
    pub map_name: &'static str,
    /// What `analyze` counts it as (its `kernels[].kind`, and the
    /// `kernels` exercises): `fusion`, `custom-call`, `copy` or `unfused`.
    pub analyze_name: &'static str,
    /// What it is, in a sentence.
    pub description: &'static str,
}

/// The kernel kinds, one row each.
pub const KINDS: &[KindRow] = &[
    KindRow {
        kind: KernelKind::Fusion,
        name: "fusion",
        map_name: "fusion",
        analyze_name: "fusion",
        description: "a fusion: one kernel XLA generated for several ops",
    },
    KindRow {
        kind: KernelKind::CustomCall,
        name: "custom-call",
        map_name: "custom-call",
        analyze_name: "custom-call",
        description: "a custom call: a library routine (cuBLAS, oneDNN, ...) or other code XLA did not generate",
    },
    KindRow {
        kind: KernelKind::Pallas,
        name: "pallas",
        map_name: "custom-call",
        analyze_name: "custom-call",
        description: "a Pallas kernel: a custom call a pallas_call lowered to",
    },
    KindRow {
        kind: KernelKind::Copy,
        name: "copy",
        map_name: "copy",
        analyze_name: "copy",
        description: "a copy: an array moved to another layout or memory",
    },
    KindRow {
        kind: KernelKind::Transpose,
        name: "transpose",
        map_name: "op",
        analyze_name: "unfused",
        description: "an unfused transpose",
    },
    KindRow {
        kind: KernelKind::Collective,
        name: "collective",
        map_name: "collective",
        analyze_name: "unfused",
        description: "a collective: data exchanged between devices",
    },
    KindRow {
        kind: KernelKind::Loop,
        name: "loop",
        map_name: "loop",
        analyze_name: "unfused",
        description: "a while loop: runs its condition and body kernels on each trip",
    },
    KindRow {
        kind: KernelKind::Branch,
        name: "conditional",
        map_name: "conditional",
        analyze_name: "unfused",
        description: "a conditional: runs the kernels of one branch",
    },
    KindRow {
        kind: KernelKind::Call,
        name: "call",
        map_name: "call",
        analyze_name: "unfused",
        description: "a call: runs the kernels of its callee",
    },
    KindRow {
        kind: KernelKind::Async,
        name: "async",
        map_name: "async",
        analyze_name: "unfused",
        description: "an asynchronous start of another op",
    },
    KindRow {
        kind: KernelKind::Op,
        name: "op",
        map_name: "op",
        analyze_name: "unfused",
        description: "an unfused op running on its own",
    },
];

impl KernelKind {
    /// Its row of [`KINDS`].
    pub fn row(self) -> Option<&'static KindRow> {
        KINDS.iter().find(|r| r.kind == self)
    }

    /// Its name.
    pub fn as_str(self) -> &'static str {
        self.row().map_or("op", |r| r.name)
    }

    /// What the source map prints for it.
    pub fn map_name(self) -> &'static str {
        self.row().map_or("op", |r| r.map_name)
    }

    /// What `analyze` counts it as.
    pub fn analyze_name(self) -> &'static str {
        self.row().map_or("unfused", |r| r.analyze_name)
    }
}

/// Collective opcodes (without `-start`), one row each.
pub const COLLECTIVES: &[&str] = &[
    "all-reduce",
    "all-gather",
    "reduce-scatter",
    "all-to-all",
    "collective-permute",
    "collective-broadcast",
    "ragged-all-to-all",
    "send",
    "recv",
];

/// Custom-call targets a `pallas_call` lowers to (a prefix each).
pub const PALLAS_TARGETS: &[&str] = &["tpu_custom_call", "__gpu$xla.gpu.triton", "mosaic_gpu"];

/// Entry instructions that get a row: kernels, and control flow.
pub fn has_row(opcode: &str) -> bool {
    !is_free_opcode(opcode) || is_control_opcode(opcode)
}

/// The opcodes (without `-start`) that decide a kind on their own, one
/// row each; [`COLLECTIVES`] are collectives, any other opcode an op.
pub const OPCODE_KINDS: &[(&str, KernelKind)] = &[
    ("fusion", KernelKind::Fusion),
    ("custom-call", KernelKind::CustomCall),
    ("copy", KernelKind::Copy),
    ("transpose", KernelKind::Transpose),
    ("while", KernelKind::Loop),
    ("conditional", KernelKind::Branch),
    ("call", KernelKind::Call),
    ("async", KernelKind::Async),
];

/// What an instruction is: its opcode (without `-start`) in
/// [`OPCODE_KINDS`] or [`COLLECTIVES`], and a custom call a `pallas_call`
/// made (a [`PALLAS_TARGETS`] target under an `op_name` ending in
/// `pallas_call`) a [`KernelKind::Pallas`]. Allocates nothing.
pub fn kind(ins: &Instruction<'_>) -> KernelKind {
    let base = ins.opcode.strip_suffix("-start").unwrap_or(ins.opcode);
    match OPCODE_KINDS.iter().find(|(op, _)| *op == base) {
        Some(&(_, KernelKind::CustomCall)) if is_pallas(ins) => KernelKind::Pallas,
        Some(&(_, k)) => k,
        None if COLLECTIVES.contains(&base) => KernelKind::Collective,
        None => KernelKind::Op,
    }
}

fn is_pallas(ins: &Instruction<'_>) -> bool {
    ins.custom_call_target()
        .is_some_and(|t| PALLAS_TARGETS.iter().any(|p| t.starts_with(p)))
        && ins
            .metadata()
            .op_name
            .is_some_and(|o| o.ends_with("pallas_call"))
}

/// What an instruction is ([`kind`]), and its detail: a fusion's kind
/// (with the `"kind"` of its backend config), a custom call's target, a
/// collective's opcode.
pub fn kind_of(ins: &Instruction<'_>) -> (KernelKind, Option<String>) {
    let kind = kind(ins);
    let detail = match kind {
        KernelKind::Fusion => {
            let k = ins.fusion_kind().unwrap_or("");
            let d = match ins.config_kind() {
                Some(c) => format!("{k} {c}").trim().to_owned(),
                None => k.to_owned(),
            };
            (!d.is_empty()).then_some(d)
        }
        KernelKind::CustomCall | KernelKind::Pallas => ins.custom_call_target().map(str::to_owned),
        KernelKind::Collective => Some(
            ins.opcode
                .strip_suffix("-start")
                .unwrap_or(ins.opcode)
                .to_owned(),
        ),
        _ => None,
    };
    (kind, detail)
}

/// Opcodes that launch no work of their own.
pub fn is_free_opcode(op: &str) -> bool {
    matches!(
        op,
        "parameter"
            | "constant"
            | "tuple"
            | "get-tuple-element"
            | "bitcast"
            | "after-all"
            | "add-dependency"
            | "opt-barrier"
            | "partition-id"
            | "replica-id"
            | "domain"
            | "while"
            | "conditional"
            | "call"
    ) || op.ends_with("-done")
        || op.ends_with("-update")
}

/// Control flow: not a kernel, but it runs the kernels of what it calls.
pub fn is_control_opcode(op: &str) -> bool {
    matches!(op, "while" | "conditional" | "call")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind, listed by a match that fails to compile when a variant
    /// is added, so that a kind without a row cannot fall back silently.
    fn every_kind() -> Vec<KernelKind> {
        use KernelKind as K;
        let all = [
            K::Fusion,
            K::CustomCall,
            K::Pallas,
            K::Copy,
            K::Transpose,
            K::Collective,
            K::Loop,
            K::Branch,
            K::Call,
            K::Async,
            K::Op,
        ];
        for k in all {
            match k {
                K::Fusion | K::CustomCall | K::Pallas | K::Copy | K::Transpose => {}
                K::Collective | K::Loop | K::Branch | K::Call | K::Async | K::Op => {}
            }
        }
        all.to_vec()
    }

    #[test]
    fn every_kind_has_one_row_and_an_analyze_class() {
        for k in every_kind() {
            let rows = KINDS.iter().filter(|r| r.kind == k).count();
            assert_eq!(rows, 1, "{k:?} needs one row of KINDS");
            assert!(
                ["fusion", "custom-call", "copy", "unfused"].contains(&k.analyze_name()),
                "{k:?}: {}",
                k.analyze_name()
            );
        }
        assert_eq!(KINDS.len(), every_kind().len());
    }
}
