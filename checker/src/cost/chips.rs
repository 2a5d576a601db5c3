//! The chip presets of the roofline: one row per accelerator in [`CHIPS`],
//! named on the command line by its short name (`v5e`, `v6e`, `h100`,
//! `h200`, `a100`).
//!
//! Every figure is a [`Figure`]: the value in base units (flop/s, op/s,
//! bytes/s, bytes, seconds), the vendor document it comes from, the line of
//! that document it reads, and how the value follows from that line when it
//! is not printed as is (NVIDIA prints most tensor-core peaks *with
//! sparsity*; the roofline uses dense figures, half of those). A figure a
//! vendor does not publish is `None`, never a guess: Google publishes no
//! vector-unit flop rate for its TPUs, no fp16 peak for v5e or v6e and no
//! fp8 peak for v5e.
//!
//! [`Doc::read`] says where the quoted text was read. The Google pages were
//! read as stored copies of the pages themselves; the NVIDIA documents were
//! not retrievable here, and their lines are quoted as copies of their
//! tables reproduce them (named in `read`), which agree with each other.

use crate::diagnostic::did_you_mean;

/// A vendor document a figure comes from.
#[derive(Debug)]
pub struct Doc {
    /// The document's title, as the vendor names it.
    pub title: &'static str,
    /// Where the vendor publishes it.
    pub url: &'static str,
    /// Where the quoted lines were read, when not from the document itself.
    pub read: &'static str,
}

/// One sourced figure.
#[derive(Debug)]
pub struct Figure {
    /// The value in base units: flop/s (op/s for int8), bytes/s, bytes or
    /// seconds.
    pub value: f64,
    /// The document that states it.
    pub doc: &'static Doc,
    /// The line of the document, as printed there.
    pub quote: &'static str,
    /// How `value` follows from `quote` when it is not printed as is;
    /// empty when it is.
    pub derived: &'static str,
}

/// The kind of accelerator: which rules its dots follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// An NVIDIA GPU (tensor cores and CUDA cores).
    Gpu,
    /// A Google TPU (MXUs and the vector unit).
    Tpu,
}

impl Platform {
    /// The lowercase name the output prints (`gpu`, `tpu`).
    pub fn name(self) -> &'static str {
        match self {
            Platform::Gpu => "gpu",
            Platform::Tpu => "tpu",
        }
    }
}

/// The fixed cost of one kernel beside its flops and bytes (a GPU kernel
/// launch, a TPU grid step), shown as an assumption, never folded into the
/// lower bound.
#[derive(Debug)]
pub struct Overhead {
    /// What is paid per kernel (`kernel launch`, `grid step`).
    pub what: &'static str,
    /// The assumed seconds and their basis; `None` where no figure is
    /// published.
    pub figure: Option<Figure>,
    /// What the assumption is and is not.
    pub note: &'static str,
}

/// One accelerator preset. Peaks are dense (no structured sparsity), per
/// chip (a TPU chip, one GPU).
#[derive(Debug)]
pub struct Chip {
    /// The short name the CLI takes (`--chip h100`).
    pub name: &'static str,
    /// The product's full name.
    pub full_name: &'static str,
    /// GPU or TPU: which dot rules apply.
    pub platform: Platform,
    /// Whether this preset is the default for its platform when a dump
    /// names that platform and no chip is asked for.
    pub default_for_platform: bool,
    /// Matrix-unit peak, bf16 inputs.
    pub bf16: Figure,
    /// Matrix-unit peak, fp16 inputs.
    pub fp16: Option<Figure>,
    /// Tensor-core peak, TF32 inputs (GPUs).
    pub tf32: Option<Figure>,
    /// Matrix-unit peak, fp8 inputs.
    pub fp8: Option<Figure>,
    /// Matrix-unit peak, int8 inputs (op/s).
    pub int8: Option<Figure>,
    /// Tensor-core peak, fp64 inputs.
    pub fp64: Option<Figure>,
    /// The vector (CUDA-core) f32 rate, which elementwise work and an f32
    /// dot at HIGHEST on a GPU run at.
    pub f32_vector: Option<Figure>,
    /// Why `f32_vector` is `None`, or what it covers.
    pub vector_note: &'static str,
    /// HBM bandwidth, bytes/s.
    pub hbm_bandwidth: Figure,
    /// HBM capacity, bytes (decimal GB as the vendor prints them).
    pub hbm_capacity: Figure,
    /// The chip's published interconnect bandwidth (ICI, NVLink), both
    /// directions together, as the vendors print it: what one chip's
    /// sends alone cannot exceed, so bytes over it bound a collective's
    /// time from below.
    pub interconnect: Interconnect,
    /// The per-kernel overhead assumption.
    pub overhead: Overhead,
}

/// A chip's interconnect to the other chips of its slice or node.
#[derive(Debug)]
pub struct Interconnect {
    /// Its name (`ICI`, `NVLink`).
    pub name: &'static str,
    /// Its bandwidth, bytes/s, both directions together.
    pub bandwidth: Figure,
}

impl Chip {
    /// Every figure of the preset with its label, published or not, in a
    /// fixed order (the output's `peaks`, the source-list test).
    pub fn figures(&self) -> [(&'static str, Option<&Figure>); 11] {
        [
            ("bf16", Some(&self.bf16)),
            ("fp16", self.fp16.as_ref()),
            ("tf32", self.tf32.as_ref()),
            ("fp8", self.fp8.as_ref()),
            ("int8", self.int8.as_ref()),
            ("fp64", self.fp64.as_ref()),
            ("f32_vector", self.f32_vector.as_ref()),
            ("hbm_bandwidth", Some(&self.hbm_bandwidth)),
            ("hbm_capacity", Some(&self.hbm_capacity)),
            ("interconnect", Some(&self.interconnect.bandwidth)),
            ("overhead", self.overhead.figure.as_ref()),
        ]
    }
}

/// The preset a CLI name picks: exact, case ignored.
pub fn chip(name: &str) -> Option<&'static Chip> {
    CHIPS.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}

/// The preset name closest to a misspelt one, for "did you mean".
pub fn suggest(name: &str) -> Option<&'static str> {
    did_you_mean(name, CHIPS.iter().map(|c| c.name))
}

/// The default preset of a platform (v5e for TPU, h100 for GPU).
pub fn default_for(platform: Platform) -> Option<&'static Chip> {
    CHIPS
        .iter()
        .find(|c| c.platform == platform && c.default_for_platform)
}

/// The short names, in table order (for help text and messages).
pub fn names() -> impl Iterator<Item = &'static str> {
    CHIPS.iter().map(|c| c.name)
}

const V5E_PAGE: Doc = Doc {
    title: "Cloud TPU documentation: TPU v5e",
    url: "https://cloud.google.com/tpu/docs/v5e",
    read: "the page itself (stored copies of several versions; the older ones give \
           'HBM2 capacity and bandwidth | 16 GB, 819 GBps', a later one \
           'HBM bandwidth per chip | 800 GiBps'). The pinned JAX's TpuInfo \
           (jax/_src/pallas/mosaic/tpu_info.py) agrees within rounding: \
           'mem_bw_bytes_per_second=int(8.20e11)', 'bf16_ops_per_second=int(1.97e14)', \
           'int8_ops_per_second=int(3.94e14)', 'fp8_ops_per_second=0,  # Not Available'",
};

const V6E_PAGE: Doc = Doc {
    title: "Cloud TPU documentation: TPU v6e",
    url: "https://cloud.google.com/tpu/docs/v6e",
    read: "the page itself (stored copy of https://docs.cloud.google.com/tpu/docs/v6e.md.txt). \
           The pinned JAX's TpuInfo (jax/_src/pallas/mosaic/tpu_info.py) agrees within \
           rounding: 'mem_bw_bytes_per_second=int(1.64e12)', \
           'bf16_ops_per_second=int(9.20e14)', 'int8_ops_per_second=int(1.84e15)'",
};

const TPU_INFO_V6E: Doc = Doc {
    title: "JAX 0.10.2, jax/_src/pallas/mosaic/tpu_info.py, TpuInfo of ChipVersion.TPU_V6E",
    url: "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/pallas/mosaic/tpu_info.py",
    read: "the file as the pinned JAX installs it (the Cloud TPU v6e page lists no fp8 peak)",
};

const XLA_GPU_MODEL: Doc = Doc {
    title: "XLA:GPU performance model, xla/service/gpu/model/gpu_performance_model_base.h",
    url: "https://github.com/openxla/xla/blob/main/xla/service/gpu/model/gpu_performance_model_base.h",
    read: "stored copies of the openxla/xla source (an older gpu_performance_model.cc \
           had Microseconds(5))",
};

const H100_WHITEPAPER: Doc = Doc {
    title: "NVIDIA H100 Tensor Core GPU Architecture (whitepaper), H100 SXM5 column",
    url: "https://resources.nvidia.com/en-us-tensor-core/gtc22-whitepaper-hopper",
    read: "not the PDF: its H100 SXM5 peaks as two copies give them \
           (https://glennklockwood.com/garden/processors/h100: 'TF32 | 494.7 | 989.4', \
           'BF16 | 133.8 | 989.4 | 1978.9', 'FP32 | 66.9'; a note on the whitepaper v1.04, \
           Tables 1 and 3: 'TF32 494.7/989.4 TFLOP/s, FP16 989.4/1,978.9, BF16 \
           989.4/1,978.9, FP8 1,978.9/3,957.8, INT8 1,978.9/3,957.8 TOPS, FP64 Tensor 66.9', \
           dense before the slash, sparse after); the quotes give those figures in that \
           form, not the PDF's row labels",
};

const H100_DATASHEET: Doc = Doc {
    title: "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column",
    url: "https://resources.nvidia.com/en-us-gpu-resources/h100-datasheet-24306",
    read: "not the PDF: copies of its table (a Spheron blog's 'NVIDIA H100 SXM' / 'NVIDIA \
           H200' table, from which the quotes are; \
           https://archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html: 'GPU \
           メモリ帯域幅 | 3,350 GB/sec', '* Shown with sparsity. Specifications 1/2 lower \
           without sparsity.')",
};

const H200_PAGE: Doc = Doc {
    title: "NVIDIA H200 Tensor Core GPU, Technical Specifications, H200 SXM column",
    url: "https://www.nvidia.com/en-us/data-center/h200/",
    read: "not the page: copies of its table (a Spheron blog's 'NVIDIA H100 SXM' / \
           'NVIDIA H200' table in the page's row names, from which the quotes are; \
           https://lzwjava.github.io/nvidia-h200-gpu-specs-en: '*Performance figures \
           include sparsity.')",
};

const A100_DATASHEET: Doc = Doc {
    title: "NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM column",
    url: "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    read: "not the PDF: copies of its table (https://glennklockwood.com/garden/processors/A100 \
           citing this PDF; https://www.thundercompute.com/blog/nvidia-a100-specs-full-guide \
           for the SXM 80GB bandwidth); dense before the bar, sparse (*) after",
};

const NO_TPU_VECTOR_RATE: &str = "Google publishes no vector-unit (VPU) flop rate: the v5e and v6e \
     pages list only the bf16 and Int8 peaks (the v6e page describes 'a 128x8 vector processing \
     unit (VPU) with 128 lanes x 8 sublanes' without a rate), and JAX's TpuInfo has matrix \
     peaks (bf16, int8, fp8, int4) but no vector rate";

const CUDA_CORE_F32: &str = "the FP32 (non-tensor, CUDA-core) rate the vendor publishes";

const GPU_LAUNCH: Overhead = Overhead {
    what: "kernel launch",
    figure: Some(Figure {
        value: 1e-6,
        doc: &XLA_GPU_MODEL,
        quote: "// Estimated values in the absence of easy ways to query them. \
                static constexpr absl::Duration kKernelLaunchOverhead = absl::Microseconds(1);",
        derived: "",
    }),
    note: "an assumption: the launch cost XLA:GPU's own cost model uses when it weighs a \
           fusion, an estimate, not a measurement of this chip",
};

const TPU_GRID_STEP: Overhead = Overhead {
    what: "grid step",
    figure: None,
    note: "unknown: no published per-kernel or per-grid-step figure was found (Cloud TPU \
           pages, JAX's Pallas TPU guides); only a profile measures it",
};

/// The presets, one row each. Tests fail when a row lacks a source.
pub const CHIPS: &[Chip] = &[
    Chip {
        name: "v5e",
        full_name: "Google Cloud TPU v5e",
        platform: Platform::Tpu,
        default_for_platform: true,
        bf16: Figure {
            value: 197e12,
            doc: &V5E_PAGE,
            quote: "Peak compute per chip (bf16) | 197 TFLOPs",
            derived: "",
        },
        fp16: None,
        tf32: None,
        fp8: None,
        int8: Some(Figure {
            value: 393e12,
            doc: &V5E_PAGE,
            quote: "Peak compute per chip (Int8) | 393 TOPs",
            derived: "",
        }),
        fp64: None,
        f32_vector: None,
        vector_note: NO_TPU_VECTOR_RATE,
        hbm_bandwidth: Figure {
            value: 819e9,
            doc: &V5E_PAGE,
            quote: "HBM2 capacity and bandwidth | 16 GB, 819 GBps",
            derived: "819 GB/s, as JAX's Pallas TPU matmul guide also takes it ('197 TFLOP/s of \
                      bf16/f32 compute and 819 GB/s of memory bandwidth'); a later version of \
                      the page prints 'HBM bandwidth per chip | 800 GiBps' (859 GB/s)",
        },
        hbm_capacity: Figure {
            value: 16e9,
            doc: &V5E_PAGE,
            quote: "HBM2 capacity and bandwidth | 16 GB, 819 GBps",
            derived: "",
        },
        interconnect: Interconnect {
            name: "ICI",
            bandwidth: Figure {
                value: 400e9,
                doc: &V5E_PAGE,
                quote: "Bidirectional inter-chip interconnect (ICI) bandwidth (per chip) | 400 GBps",
                derived: "both directions together; an earlier version of the page prints 'Interchip Interconnect BW | 1600 Gbps' (200 GB/s)",
            },
        },
        overhead: TPU_GRID_STEP,
    },
    Chip {
        name: "v6e",
        full_name: "Google Cloud TPU v6e (Trillium)",
        platform: Platform::Tpu,
        default_for_platform: false,
        bf16: Figure {
            value: 918e12,
            doc: &V6E_PAGE,
            quote: "Peak compute per chip (bf16) | 918 TFLOPs",
            derived: "",
        },
        fp16: None,
        tf32: None,
        fp8: Some(Figure {
            value: 920e12,
            doc: &TPU_INFO_V6E,
            quote: "fp8_ops_per_second=int(9.20e14),",
            derived: "",
        }),
        int8: Some(Figure {
            value: 1836e12,
            doc: &V6E_PAGE,
            quote: "Peak compute per chip (Int8) | 1836 TOPs",
            derived: "",
        }),
        fp64: None,
        f32_vector: None,
        vector_note: NO_TPU_VECTOR_RATE,
        hbm_bandwidth: Figure {
            value: 1638e9,
            doc: &V6E_PAGE,
            quote: "HBM bandwidth per chip | 1638 GBps",
            derived: "",
        },
        hbm_capacity: Figure {
            value: 32e9,
            doc: &V6E_PAGE,
            quote: "HBM capacity per chip | 32 GB",
            derived: "",
        },
        interconnect: Interconnect {
            name: "ICI",
            bandwidth: Figure {
                value: 800e9,
                doc: &V6E_PAGE,
                quote: "Bidirectional inter-chip interconnect (ICI) bandwidth (per chip) | 800 GBps",
                derived: "both directions together; an earlier version of the page prints 'Inter-chip interconnect (ICI) bandwidth | 3584 Gbps' (448 GB/s)",
            },
        },
        overhead: TPU_GRID_STEP,
    },
    Chip {
        name: "h100",
        full_name: "NVIDIA H100 SXM5 80GB",
        platform: Platform::Gpu,
        default_for_platform: true,
        bf16: Figure {
            value: 989.4e12,
            doc: &H100_WHITEPAPER,
            quote: "BF16 Tensor: 989.4/1978.9 TFLOPS",
            derived: "dense: the figure before the slash",
        },
        fp16: Some(Figure {
            value: 989.4e12,
            doc: &H100_WHITEPAPER,
            quote: "FP16 Tensor: 989.4/1978.9 TFLOPS",
            derived: "dense: the figure before the slash",
        }),
        tf32: Some(Figure {
            value: 494.7e12,
            doc: &H100_WHITEPAPER,
            quote: "TF32 Tensor: 494.7/989.4 TFLOPS",
            derived: "dense: the figure before the slash",
        }),
        fp8: Some(Figure {
            value: 1978.9e12,
            doc: &H100_WHITEPAPER,
            quote: "FP8 Tensor: 1978.9/3957.8 TFLOPS",
            derived: "dense: the figure before the slash",
        }),
        int8: Some(Figure {
            value: 1978.9e12,
            doc: &H100_WHITEPAPER,
            quote: "INT8 Tensor: 1978.9/3957.8 TOPS",
            derived: "dense: the figure before the slash",
        }),
        fp64: Some(Figure {
            value: 66.9e12,
            doc: &H100_WHITEPAPER,
            quote: "FP64 Tensor: 66.9 TFLOPS",
            derived: "",
        }),
        f32_vector: Some(Figure {
            value: 66.9e12,
            doc: &H100_WHITEPAPER,
            quote: "FP32 (non-Tensor): 66.9 TFLOPS",
            derived: "",
        }),
        vector_note: CUDA_CORE_F32,
        hbm_bandwidth: Figure {
            value: 3.35e12,
            doc: &H100_DATASHEET,
            quote: "GPU Memory Bandwidth | 3.35TB/s",
            derived: "",
        },
        hbm_capacity: Figure {
            value: 80e9,
            doc: &H100_DATASHEET,
            quote: "GPU Memory | 80GB",
            derived: "",
        },
        interconnect: Interconnect {
            name: "NVLink",
            bandwidth: Figure {
                value: 900e9,
                doc: &H100_DATASHEET,
                quote: "Interconnect | NVIDIA NVLink: 900GB/s PCIe Gen5: 128GB/s",
                derived: "NVLink's total over all its links, both directions together",
            },
        },
        overhead: GPU_LAUNCH,
    },
    Chip {
        name: "h200",
        full_name: "NVIDIA H200 SXM 141GB",
        platform: Platform::Gpu,
        default_for_platform: false,
        bf16: Figure {
            value: 989.5e12,
            doc: &H200_PAGE,
            quote: "BFLOAT16 Tensor Core | 1,979 TFLOPS",
            derived: "printed with sparsity; dense is half: 989.5 TFLOPS",
        },
        fp16: Some(Figure {
            value: 989.5e12,
            doc: &H200_PAGE,
            quote: "FP16 Tensor Core | 1,979 TFLOPS",
            derived: "printed with sparsity; dense is half: 989.5 TFLOPS",
        }),
        tf32: Some(Figure {
            value: 494.5e12,
            doc: &H200_PAGE,
            quote: "TF32 Tensor Core | 989 TFLOPS",
            derived: "printed with sparsity; dense is half: 494.5 TFLOPS",
        }),
        fp8: Some(Figure {
            value: 1979e12,
            doc: &H200_PAGE,
            quote: "FP8 Tensor Core | 3,958 TFLOPS",
            derived: "printed with sparsity; dense is half: 1,979 TFLOPS",
        }),
        int8: Some(Figure {
            value: 1979e12,
            doc: &H200_PAGE,
            quote: "INT8 Tensor Core | 3,958 TOPS",
            derived: "printed with sparsity; dense is half: 1,979 TOPS",
        }),
        fp64: Some(Figure {
            value: 67e12,
            doc: &H200_PAGE,
            quote: "FP64 Tensor Core | 67 TFLOPS",
            derived: "",
        }),
        f32_vector: Some(Figure {
            value: 67e12,
            doc: &H200_PAGE,
            quote: "FP32 | 67 TFLOPS",
            derived: "",
        }),
        vector_note: CUDA_CORE_F32,
        hbm_bandwidth: Figure {
            value: 4.8e12,
            doc: &H200_PAGE,
            quote: "GPU Memory Bandwidth | 4.8 TB/s",
            derived: "",
        },
        hbm_capacity: Figure {
            value: 141e9,
            doc: &H200_PAGE,
            quote: "GPU Memory | 141GB",
            derived: "",
        },
        interconnect: Interconnect {
            name: "NVLink",
            bandwidth: Figure {
                value: 900e9,
                doc: &H200_PAGE,
                quote: "Interconnect | NVIDIA NVLink: 900GB/s PCIe Gen5: 128GB/s",
                derived: "NVLink's total over all its links, both directions together",
            },
        },
        overhead: GPU_LAUNCH,
    },
    Chip {
        name: "a100",
        full_name: "NVIDIA A100 SXM4 80GB",
        platform: Platform::Gpu,
        default_for_platform: false,
        bf16: Figure {
            value: 312e12,
            doc: &A100_DATASHEET,
            quote: "BFLOAT16 Tensor Core | 312 TFLOPS | 624 TFLOPS*",
            derived: "dense: the figure before the bar (* with sparsity)",
        },
        fp16: Some(Figure {
            value: 312e12,
            doc: &A100_DATASHEET,
            quote: "FP16 Tensor Core | 312 TFLOPS | 624 TFLOPS*",
            derived: "dense: the figure before the bar (* with sparsity)",
        }),
        tf32: Some(Figure {
            value: 156e12,
            doc: &A100_DATASHEET,
            quote: "Tensor Float 32 (TF32) | 156 TFLOPS | 312 TFLOPS*",
            derived: "dense: the figure before the bar (* with sparsity)",
        }),
        fp8: None,
        int8: Some(Figure {
            value: 624e12,
            doc: &A100_DATASHEET,
            quote: "INT8 Tensor Core | 624 TOPS | 1248 TOPS*",
            derived: "dense: the figure before the bar (* with sparsity)",
        }),
        fp64: Some(Figure {
            value: 19.5e12,
            doc: &A100_DATASHEET,
            quote: "FP64 Tensor Core | 19.5 TFLOPS",
            derived: "",
        }),
        f32_vector: Some(Figure {
            value: 19.5e12,
            doc: &A100_DATASHEET,
            quote: "FP32 | 19.5 TFLOPS",
            derived: "",
        }),
        vector_note: CUDA_CORE_F32,
        hbm_bandwidth: Figure {
            value: 2039e9,
            doc: &A100_DATASHEET,
            quote: "GPU Memory Bandwidth | 2,039GB/s",
            derived: "",
        },
        hbm_capacity: Figure {
            value: 80e9,
            doc: &A100_DATASHEET,
            quote: "GPU Memory | 80GB HBM2e",
            derived: "",
        },
        interconnect: Interconnect {
            name: "NVLink",
            bandwidth: Figure {
                value: 600e9,
                doc: &A100_DATASHEET,
                quote: "Interconnect | NVLink: 600GB/s PCIe Gen4: 64GB/s",
                derived: "NVLink's total over all its links, both directions together",
            },
        },
        overhead: GPU_LAUNCH,
    },
];
