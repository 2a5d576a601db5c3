//! The catalogue of findings: one row per finding, the only place a
//! finding's name, meaning, evidence, advice and chapter are written.
//! Detectors ([`super::detect`]) say which row they found and fill in the
//! figures; the command line, the JSON and the page read the row.

/// The chapter that teaches reading what people paste.
pub const CHAPTER: &str = "pastes.html";

macro_rules! findings {
    ($($variant:ident { $($field:ident: $value:expr),* $(,)? }),* $(,)?) => {
        /// Finding ids, in table order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum F {
            $(
                /// See its row in [`FINDINGS`].
                $variant,
            )*
        }

        impl F {
            /// Every finding, in table order.
            pub const ALL: &'static [F] = &[$(F::$variant),*];
        }

        /// The catalogue, one row per finding, in the order of [`F`].
        pub const FINDINGS: &[Row] = &[$(Row { id: F::$variant, $($field: $value),* }),*];
    };
}

/// One finding of the catalogue.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// Its id.
    pub id: F,
    /// Its name in JSON and on the command line.
    pub name: &'static str,
    /// A title, a few words.
    pub title: &'static str,
    /// What it means for the program.
    pub means: &'static str,
    /// The evidence a detector needs before it reports it.
    pub needs: &'static str,
    /// What to try (the detector adds the specifics).
    pub try_this: &'static str,
    /// The anchor of its section in [`CHAPTER`].
    pub anchor: &'static str,
}

findings! {
    HbmExhausted {
        name: "out-of-memory",
        title: "The program does not fit in device memory",
        means: "XLA could not place the program's buffers in the chip's memory; the compile (or the allocation) failed.",
        needs: "an out-of-memory message or report that states what was needed and what the device has",
        try_this: "Shrink the largest buffers the report lists first: a smaller batch or sequence, rematerialisation (`jax.checkpoint`), sharding the array over more devices, or donating inputs that are overwritten.",
        anchor: "out-of-memory",
    },
    RematFailed {
        name: "rematerialization-failed",
        title: "Rematerialization could not bring memory under the limit",
        means: "XLA's rematerialization pass recomputed what it could and the peak still stays above the memory limit it aimed for.",
        needs: "XLA's `Can't reduce memory use below ...` message",
        try_this: "Reduce what is live at the peak (smaller batch, `jax.checkpoint` around large blocks, fewer values kept for the backward pass), or give the program more memory.",
        anchor: "rematerialization",
    },
    LargestAllocations {
        name: "largest-allocations",
        title: "Where the memory goes",
        means: "XLA's memory-usage report lists every allocation of a memory space, largest first: what to shrink first when memory runs out.",
        needs: "XLA's memory-usage report (`*-memory-usage-report.txt` of `--xla_dump_to`)",
        try_this: "Start with the largest allocations: find their shapes in the compiled module (`*after_optimizations.txt`) and shrink, shard, rematerialise or donate them.",
        anchor: "memory-usage-report",
    },
    DonationUnusable {
        name: "donation-unusable",
        title: "A donated buffer could not be reused",
        means: "JAX was told an input may be overwritten, but no output has its shape and element type, so XLA keeps both buffers.",
        needs: "JAX's `Some donated buffers were not usable` warning",
        try_this: "Donate only inputs that an output of the same shape and dtype replaces, or make the output match the input (same shape, same dtype).",
        anchor: "donation",
    },
    DonationCopy {
        name: "donation-copy",
        title: "A parameter is copied that donation could let XLA update in place",
        means: "The compiled module copies an input parameter into a new buffer because the caller may still read the original; an output of the same shape could have reused it.",
        needs: "a compiled module's entry computation: a `copy` of a parameter, an output of the same shape and element type, and no `input_output_alias` for that parameter",
        try_this: "If the caller does not read the old array again, donate it: `jax.jit(f, donate_argnums=...)` (or `donate_argnames=`).",
        anchor: "donation",
    },
    ScatterLoop {
        name: "scatter-serial-loop",
        title: "A scatter runs as a serial loop",
        means: "XLA turned the scatter into a `while` loop that updates one index per trip with a dynamic-update-slice, so the updates run one after another.",
        needs: "a `while` whose body updates a buffer with one dynamic-update-slice at an index read from the loop counter, where the metadata names a scatter",
        try_this: "Sort or deduplicate the indices and say so (`indices_are_sorted=True`, `unique_indices=True` on `.at[...]`), or express the update as a dense op (a one-hot matmul, `segment_sum`) when the indices cover much of the array.",
        anchor: "scatter-loop",
    },
    LoopCopy {
        name: "loop-copy",
        title: "A copy is paid on every trip of a loop",
        means: "A `copy` of a value the loop carries runs inside the loop body (or a branch), once per trip: data moved without computing anything.",
        needs: "a `copy` (or a fusion that only copies) in a `while` body or a branch whose operand is a loop-carried value",
        try_this: "Keep the carried value in one layout and one buffer: avoid swapping or transposing loop-carried arrays each trip, and carry the array the body writes, not a view of it.",
        anchor: "loop-copy",
    },
    GatherBeforeDot {
        name: "all-gather-before-dot",
        title: "An operand is all-gathered to full size before a dot",
        means: "The SPMD partitioner gathers a sharded operand whole on every device before a matrix multiply, so each device does the unsharded work and holds the whole array.",
        needs: "a compiled SPMD module where an all-gather's result feeds a dot or convolution (directly or through a fusion's parameter)",
        try_this: "Shard both operands of the dot so that the contracting dimensions agree (or the batch dimension), with `jax.sharding.NamedSharding` on the inputs or `jax.lax.with_sharding_constraint`; check `out_shardings` does not force a replicated result.",
        anchor: "all-gather",
    },
    DotNoLibrary {
        name: "dot-no-library",
        title: "A dot that no library call runs on the GPU",
        means: "XLA:GPU emitted the matrix multiply as a plain fusion, not a cuBLAS call or a Triton GEMM: it runs on the vector units, far from the matrix units' rate.",
        needs: "a compiled GPU module with a `dot` inside a loop or input fusion (not a `__cublas$gemm` custom call, not a `__triton_gemm` fusion)",
        try_this: "Use element types the matrix units take (bf16, f16, f32, f8, s8 with s32 accumulation) and cast before the dot; check `preferred_element_type`.",
        anchor: "dot-no-library",
    },
    TilePadding {
        name: "tile-padding",
        title: "TPU tiles pad an array to twice its size or more",
        means: "On a TPU, arrays are stored in tiles (`T(8,128)`): a minor dimension smaller than the tile is padded, and the padded bytes take memory and bandwidth.",
        needs: "an array whose layout names a tile, and whose padded size is at least twice its size",
        try_this: "Make the dimension that pads a multiple of the tile (128 for the last dimension, 8 for the second to last, 16 for bf16), or move a small dimension away from the last two (transpose, reshape, or batch it into a larger one).",
        anchor: "padding",
    },
    HugeIntermediate {
        name: "huge-intermediate",
        title: "A materialised intermediate far larger than every input",
        means: "A kernel writes a result many times larger than any input of its computation to memory: a broadcast or outer product XLA could not fuse into its user.",
        needs: "a kernel output of a compiled module at least 8 times the largest parameter of its computation and at least 16 MiB",
        try_this: "Keep the large value inside one fused computation: reduce it where it is made (`jnp.einsum`, a fused reduction), avoid passing it to an op XLA does not fuse (sort, a custom call, a dot of the broadcast), or compute it in chunks (`jax.lax.map`).",
        anchor: "huge-intermediate",
    },
    LayoutTranspose {
        name: "layout-transpose",
        title: "A layout change as large as a parameter",
        means: "A `copy` or `transpose` kernel rewrites a whole array in another physical layout: the bytes of a parameter moved without computing anything.",
        needs: "a compiled module's kernel that is a `copy` or `transpose` (or a fusion of only that) whose result is at least as large as the largest parameter of its computation and at least 1 MiB",
        try_this: "Look at the op that wants the other layout (a dot's contracting dimension, a reduction axis): transpose the data once outside the hot path, or change which axis the op reads.",
        anchor: "layout-transpose",
    },
    BelowHlo {
        name: "same-hlo",
        title: "The two dumps hold the same program",
        means: "The kernels, their operations and shapes are the same in both dumps: whatever differs between the two runs is below HLO.",
        needs: "two compiled dumps whose diff finds no change",
        try_this: "Look below HLO: the backend's generated code in the dump folder (`*.ptx`, `*.ll`, `*.llvm`), the autotuning results, or a profile of both runs (`jax.profiler.trace`); also check that the inputs and devices were the same.",
        anchor: "same-hlo",
    },
}

/// A finding's row.
pub fn row(f: F) -> &'static Row {
    // The table is in the order of `F` (a test checks).
    &FINDINGS[f as usize]
}

/// The finding of a name.
pub fn by_name(name: &str) -> Option<F> {
    FINDINGS.iter().find(|r| r.name == name).map(|r| r.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_per_finding_in_order() {
        assert_eq!(FINDINGS.len(), F::ALL.len());
        for (i, (r, f)) in FINDINGS.iter().zip(F::ALL).enumerate() {
            assert_eq!(r.id, *f, "row {i}");
            assert_eq!(row(*f).name, r.name);
            assert_eq!(by_name(r.name), Some(*f));
            for text in [r.title, r.means, r.needs, r.try_this, r.anchor] {
                assert!(!text.trim().is_empty(), "{}: an empty field", r.name);
            }
        }
        let mut names: Vec<_> = FINDINGS.iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FINDINGS.len(), "names are distinct");
    }
}
