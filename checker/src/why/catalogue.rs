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
        means: "JAX was told an input may be overwritten, but no output has its shape and element type, so JAX does not donate it and both buffers stay.",
        needs: "JAX's `Some donated buffers were not usable` warning",
        try_this: "Donate only inputs that an output of the same shape and dtype replaces, or make the output match the input (same shape, same dtype).",
        anchor: "donation",
    },
    DonationCopy {
        name: "donation-copy",
        title: "A parameter is copied that donation could let XLA update in place",
        means: "The compiled module copies an input parameter into a new buffer because the caller may still read the original; the copy is updated in place and returned, so a donated parameter could have been that buffer.",
        needs: "a compiled module with its header (whose `input_output_alias` names no alias for the parameter) and its entry computation: a same-layout `copy` of a parameter that becomes an output of the same shape, carried through a loop or updated in place",
        try_this: "If the caller does not read the old array again, donate it: `jax.jit(f, donate_argnums=...)` (or `donate_argnames=`).",
        anchor: "donation",
    },
    ScatterLoop {
        name: "scatter-serial-loop",
        title: "A scatter runs as a serial loop",
        means: "XLA turned the scatter into a `while` loop that updates one index per trip with a dynamic-update-slice, so the updates run one after another, several kernels per trip.",
        needs: "a `while` whose own metadata names a scatter (XLA's scatter expander keeps it on the loop it makes) and whose body updates a buffer with a dynamic-update-slice",
        try_this: "XLA:GPU expands scatters it cannot run natively, such as those of elements wider than 64 bits (`c128`): scatter the real and imaginary parts as two `f64` arrays, or express the update as a dense op (a one-hot matmul, `segment_sum`) when the indices cover much of the array. Declaring the indices sorted or unique did not remove the loop in the corpus.",
        anchor: "scatter-loop",
    },
    LoopCopy {
        name: "loop-copy",
        title: "A copy is paid on every trip of a loop",
        means: "A `copy` of a value the loop carries runs inside the loop body (or a branch), once per trip: data moved without computing anything.",
        needs: "a `copy` of at least 64 KiB (or a fusion that only copies) in a `while` body whose operand is a loop-carried value or whose result the body carries on",
        try_this: "Keep the carried value in one layout and one buffer: avoid swapping or transposing loop-carried arrays each trip, and carry the array the body writes, not a view of it.",
        anchor: "loop-copy",
    },
    GatherBeforeDot {
        name: "all-gather-before-dot",
        title: "An operand is all-gathered before a dot",
        means: "The SPMD partitioner gathers a sharded operand across the devices of a replica group before a matrix multiply: each device holds the gathered, larger operand, and the gather's bytes cross the interconnect first.",
        needs: "a compiled SPMD module where an all-gather's result feeds a dot or convolution (directly, through copies, or through a fusion's parameter)",
        try_this: "Check which sharding asks for the gather: an `out_shardings` or `with_sharding_constraint` that wants the operand (or the result) replicated, or operands whose shardings disagree on the contracting dimension. Sharding both operands on the contracting dimension trades the all-gather for an all-reduce of the result; compare the two collectives' bytes (`mdbook-dumplab collectives`).",
        anchor: "all-gather",
    },
    DotNoLibrary {
        name: "dot-no-library",
        title: "A dot that no library call runs on the GPU",
        means: "XLA:GPU emitted the matrix multiply as a plain loop fusion, not a cuBLAS call (`__cublas$gemm`, `__cublas$lt$matmul`) or a Triton GEMM fusion (`__triton_gemm`, `__triton_nested_gemm_fusion`): XLA's loop emitter runs it on the CUDA cores, without the tensor cores or a tuned kernel.",
        needs: "a compiled GPU module with a `dot` inside a loop, input or output fusion, or alone, and no library call or Triton GEMM fusion around it",
        try_this: "Where the values allow it, cast to element types the libraries take before the dot (bf16, f16, f32, or s8 with s32 accumulation: an s32 dot is exact in f32 only below 2^24, and u8 values need a shift to fit s8); check `preferred_element_type`.",
        anchor: "dot-no-library",
    },
    TilePadding {
        name: "tile-padding",
        title: "TPU tiles pad an array to twice its size or more",
        means: "On a TPU, arrays are stored in tiles (`T(8,128)`): the two most minor dimensions of the physical layout are rounded up to a multiple of the tile, and the padded bytes take memory and bandwidth.",
        needs: "an array whose layout names a tile, padded to at least twice its size and by at least 1 MiB (smaller paddings are left out)",
        try_this: "Make the dimension that pads (the finding names it: the most minor one of the layout, or the second most minor) a multiple of its tile, 128 and 8 for `T(8,128)`, or keep a small dimension out of the two most minor positions (transpose, reshape, or fold it into a larger one); XLA picks such a layout itself where nothing forces one.",
        anchor: "padding",
    },
    HugeIntermediate {
        name: "huge-intermediate",
        title: "A materialised intermediate far larger than its inputs",
        means: "A kernel writes a result many times larger than its inputs to memory: a broadcast or outer product XLA did not fuse into its user.",
        needs: "a kernel of a compiled module whose result is at least 16 MiB and 8 times its largest input, and is not what the module returns",
        try_this: "If its user can take it in parts, keep the value inside one fused computation (reduce it where it is made, `jnp.einsum`, a fused reduction) or compute it in chunks (`jax.lax.map`); if the user needs it whole (a sort of all of it), the buffer is the algorithm's, and only a smaller problem or another algorithm shrinks it.",
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
        try_this: "Look below HLO: the backend's generated code in the dump folder (`*.ir-no-opt.ll`, `*.ir-with-opt.ll`, `*.ptx`), the autotuning results, or a profile of both runs (`jax.profiler.trace`); also check that the inputs and devices were the same.",
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
