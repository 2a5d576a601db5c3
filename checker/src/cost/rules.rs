//! The rule table: which of XLA's `HloCostAnalysis` handlers costs each
//! opcode, one row per opcode (`xla/service/hlo_cost_analysis.cc`, the
//! generic model `hlo_module_cost_analysis` runs). [`rule`] falls back to
//! [`Rule::Default`] only for opcodes outside the table, and
//! `cost::tests` fails on any opcode of the corpus that has no row.

/// How XLA costs one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// No flops; bytes are every operand plus the output (`Preprocess`'s
    /// default, kept by handlers that do nothing: copy, broadcast, iota,
    /// reshape, pad, concatenate, reverse, collectives but all-reduce, ...).
    Default,
    /// One flop per output element.
    Elementwise,
    /// One transcendental per output element (exp, log, tanh, ...).
    Transcendental,
    /// No bytes, no flops: it moves a pointer or nothing (parameter,
    /// constant, get-tuple-element, bitcast, after-all, ...).
    Free,
    /// Bytes of its index table only (`tuple`).
    Tuple,
    /// Reads only what it keeps: output twice (`slice`).
    Slice,
    /// Output twice plus the start indices (`dynamic-slice`).
    DynamicSlice,
    /// The update twice plus the indices; operand 0 is updated in place.
    DynamicUpdateSlice,
    /// `2 * elements(result) * product(lhs contracting dims)` flops.
    Dot,
    /// XLA's count of valid window positions, times 2 per FMA.
    Convolution,
    /// `2 * 4 * prod(log2 fft_length) * elements(input)` flops.
    Fft,
    /// `2 * last dim(a) * elements(b)` flops; half of `a` read.
    TriangularSolve,
    /// `n * elements(a) / 3` flops; half of `a` read and written.
    Cholesky,
    /// One flop per output element of every array; bytes of outputs and
    /// operands.
    AllReduce,
    /// One transcendental per element (`rng`).
    Rng,
    /// One transcendental per element of every output array.
    RngBitGenerator,
    /// `elements * ceil(log2 elements)` flops of operand 0.
    Sort,
    /// Its reducer's flops times (elements in - elements out).
    Reduce,
    /// Its reducer's flops times (window size - 1) per output element.
    ReduceWindow,
    /// Its function's flops times the output elements.
    Map,
    /// Select and scatter functions per source element.
    SelectAndScatter,
    /// Output twice plus the indices.
    Gather,
    /// Updates three times plus the indices; its combiner per update element.
    Scatter,
    /// Its fused computation's flops; bytes: parameter reads (a sliced
    /// parameter only its slice) plus the output.
    Fusion,
    /// Its callee's figures, bytes included (`call`).
    Call,
    /// The called computation's figures (`async-start`).
    AsyncStart,
    /// An asynchronous `slice` printed as `slice-start` (XLA:TPU's): XLA
    /// parses it as an `async-start` of the slice and costs that slice,
    /// whose result is the output tuple's second element, read and written
    /// once each.
    SliceStart,
    /// A collective printed as `X-start` whose shape is `((operands),
    /// result)` (`reduce-scatter-start`, `all-to-all-start`): XLA parses it
    /// as an `async-start` of `X` and costs that `X`: its operands and its
    /// result, the tuple's second element.
    AsyncCollective,
    /// Body and condition once each, bytes included.
    While,
    /// The largest of its branches' figures, per figure.
    Conditional,
    /// Unknown to XLA: it adds -1 flops and -1 bytes.
    CustomCall,
    /// Free when its layout makes it a bitcast, else [`Rule::Default`].
    Transpose,
}

/// The opcodes, one row each.
pub const RULES: &[(&str, Rule)] = &[
    // Elementwise, one flop per output element.
    ("abs", Rule::Elementwise),
    ("add", Rule::Elementwise),
    ("and", Rule::Elementwise),
    ("bitcast-convert", Rule::Elementwise),
    ("ceil", Rule::Elementwise),
    ("clamp", Rule::Elementwise),
    ("count-leading-zeros", Rule::Elementwise),
    ("compare", Rule::Elementwise),
    ("complex", Rule::Elementwise),
    ("convert", Rule::Elementwise),
    ("divide", Rule::Elementwise),
    ("erf", Rule::Elementwise),
    ("floor", Rule::Elementwise),
    ("imag", Rule::Elementwise),
    ("is-finite", Rule::Elementwise),
    ("maximum", Rule::Elementwise),
    ("minimum", Rule::Elementwise),
    ("multiply", Rule::Elementwise),
    ("negate", Rule::Elementwise),
    ("not", Rule::Elementwise),
    ("or", Rule::Elementwise),
    ("popcnt", Rule::Elementwise),
    ("real", Rule::Elementwise),
    ("reduce-precision", Rule::Elementwise),
    ("remainder", Rule::Elementwise),
    ("round-nearest-afz", Rule::Elementwise),
    ("round-nearest-even", Rule::Elementwise),
    ("select", Rule::Elementwise),
    ("shift-left", Rule::Elementwise),
    ("shift-right-arithmetic", Rule::Elementwise),
    ("shift-right-logical", Rule::Elementwise),
    ("sign", Rule::Elementwise),
    ("stochastic-convert", Rule::Elementwise),
    ("subtract", Rule::Elementwise),
    ("xor", Rule::Elementwise),
    // Transcendentals (XLA's list in `HandleElementwiseOp`).
    ("atan2", Rule::Transcendental),
    ("cbrt", Rule::Transcendental),
    ("cosine", Rule::Transcendental),
    ("exponential", Rule::Transcendental),
    ("exponential-minus-one", Rule::Transcendental),
    ("log", Rule::Transcendental),
    ("log-plus-one", Rule::Transcendental),
    ("logistic", Rule::Transcendental),
    ("power", Rule::Transcendental),
    ("rsqrt", Rule::Transcendental),
    ("sine", Rule::Transcendental),
    ("sqrt", Rule::Transcendental),
    ("tan", Rule::Transcendental),
    ("tanh", Rule::Transcendental),
    // Free.
    ("add-dependency", Rule::Free),
    ("after-all", Rule::Free),
    ("bitcast", Rule::Free),
    ("constant", Rule::Free),
    ("domain", Rule::Free),
    ("get-tuple-element", Rule::Free),
    ("parameter", Rule::Free),
    // Handlers that keep the default bytes and count no flops.
    ("all-gather", Rule::Default),
    ("all-gather-done", Rule::Default),
    ("all-gather-start", Rule::Default),
    ("all-reduce-done", Rule::Default),
    ("all-to-all", Rule::Default),
    ("async-done", Rule::Default),
    ("async-update", Rule::Default),
    ("batch-norm-grad", Rule::Default),
    ("batch-norm-inference", Rule::Default),
    ("batch-norm-training", Rule::Default),
    ("broadcast", Rule::Default),
    ("collective-broadcast", Rule::Default),
    ("collective-permute", Rule::Default),
    ("collective-permute-done", Rule::Default),
    ("collective-permute-start", Rule::Default),
    ("concatenate", Rule::Default),
    ("copy", Rule::Default),
    ("copy-done", Rule::Default),
    ("copy-start", Rule::Default),
    ("dynamic-reshape", Rule::Default),
    ("get-dimension-size", Rule::Default),
    ("infeed", Rule::Default),
    ("iota", Rule::Default),
    ("opt-barrier", Rule::Default),
    ("outfeed", Rule::Default),
    ("pad", Rule::Default),
    ("partition-id", Rule::Default),
    ("ragged-all-to-all", Rule::Default),
    ("recv", Rule::Default),
    ("recv-done", Rule::Default),
    ("reduce-scatter", Rule::Default),
    ("replica-id", Rule::Default),
    ("reshape", Rule::Default),
    ("reverse", Rule::Default),
    ("rng-get-and-update-state", Rule::Default),
    ("send", Rule::Default),
    ("send-done", Rule::Default),
    ("set-dimension-size", Rule::Default),
    ("slice-done", Rule::Default),
    ("topk", Rule::Default),
    // Their own rules.
    ("all-reduce", Rule::AllReduce),
    ("all-reduce-start", Rule::AllReduce),
    ("async-start", Rule::AsyncStart),
    ("reduce-scatter-start", Rule::AsyncCollective),
    ("all-to-all-start", Rule::AsyncCollective),
    ("call", Rule::Call),
    ("cholesky", Rule::Cholesky),
    ("conditional", Rule::Conditional),
    ("convolution", Rule::Convolution),
    ("custom-call", Rule::CustomCall),
    ("dot", Rule::Dot),
    ("dynamic-slice", Rule::DynamicSlice),
    ("dynamic-update-slice", Rule::DynamicUpdateSlice),
    ("fft", Rule::Fft),
    ("fusion", Rule::Fusion),
    ("gather", Rule::Gather),
    ("map", Rule::Map),
    ("reduce", Rule::Reduce),
    ("reduce-window", Rule::ReduceWindow),
    ("rng", Rule::Rng),
    ("rng-bit-generator", Rule::RngBitGenerator),
    ("scatter", Rule::Scatter),
    ("select-and-scatter", Rule::SelectAndScatter),
    ("slice", Rule::Slice),
    ("slice-start", Rule::SliceStart),
    ("sort", Rule::Sort),
    ("transpose", Rule::Transpose),
    ("triangular-solve", Rule::TriangularSolve),
    ("tuple", Rule::Tuple),
    ("while", Rule::While),
];

/// The table as a map, for [`lookup`] (its keys are the table's own, never
/// the dump's: a fast hash cannot be flooded through it).
pub(crate) type Index = std::collections::HashMap<&'static str, Rule, crate::analysis::scan::Fx>;

/// The table indexed by opcode, for [`lookup`].
pub(crate) fn index() -> Index {
    RULES.iter().copied().collect()
}

/// The rule of an opcode in an [`index`] ([`Rule::Default`] outside it).
pub(crate) fn lookup(index: &Index, opcode: &str) -> Rule {
    index.get(opcode).copied().unwrap_or(Rule::Default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opcode_has_one_row_and_the_lookup_finds_it() {
        let index = index();
        assert_eq!(index.len(), RULES.len(), "an opcode has two rows");
        for &(op, r) in RULES {
            assert_eq!(lookup(&index, op), r, "{op}");
        }
        assert_eq!(lookup(&index, "no-such-op"), Rule::Default);
    }
}
