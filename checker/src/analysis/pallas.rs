//! Pallas kernels in dumps: the custom calls a `pallas_call` lowers to.
//!
//! A Pallas kernel compiled for an accelerator reaches XLA as one
//! `custom-call` whose target says which kernel compiler made it and whose
//! `backend_config` carries the kernel (serialized MLIR; lowered for a GPU,
//! JAX writes it into `mhlo.backend_config` and leaves `backend_config = ""`):
//!
//! | target | kernel compiler | the kernel's name on the line |
//! |---|---|---|
//! | `tpu_custom_call` | Mosaic (TPU) | `kernel_name = "..."` in the lowered text only |
//! | `__gpu$xla.gpu.triton` | Triton (GPU) | `name = "..."` in the backend config, lowered and compiled |
//! | `mosaic_gpu_v2` (`mosaic_gpu...`) | Mosaic GPU | none outside the serialized module |
//!
//! The same line shape holds in compiled HLO
//! (`custom_call_target="tpu_custom_call"`) and in lowered StableHLO
//! (`stablehlo.custom_call @tpu_custom_call(`), so one reader serves both.
//!
//! Not every such call is the reader's own kernel: XLA:TPU writes Mosaic
//! kernels of its own (the attention fixture's TPU dump has a
//! `tpu_custom_call` named `online-softmax`). A compiled line is a Pallas
//! kernel when its `metadata` `op_name` ends in `pallas_call`; a lowered
//! line always is (JAX's lowering emits these calls only for `pallas_call`,
//! and XLA has not run yet).

use super::markers::M;
use super::sink::Sink;

/// Which kernel compiler made a Pallas custom call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavour {
    /// Mosaic, for TPUs: `tpu_custom_call`.
    MosaicTpu,
    /// Triton, for GPUs: `__gpu$xla.gpu.triton`.
    Triton,
    /// Mosaic GPU: `mosaic_gpu_v2`.
    MosaicGpu,
}

impl Flavour {
    /// The marker a line with this kind of kernel shows.
    pub(crate) fn marker(self) -> M {
        match self {
            Flavour::MosaicTpu => M::MosaicTpuKernel,
            Flavour::Triton => M::TritonKernel,
            Flavour::MosaicGpu => M::MosaicGpuKernel,
        }
    }

    fn compiler(self) -> &'static str {
        match self {
            Flavour::MosaicTpu => "Mosaic TPU",
            Flavour::Triton => "Triton",
            Flavour::MosaicGpu => "Mosaic GPU",
        }
    }

    /// What the custom call's `backend_config` carries.
    fn payload(self) -> &'static str {
        match self {
            Flavour::MosaicTpu => "the kernel as serialized Mosaic MLIR (`body`)",
            Flavour::Triton => {
                "the grid, `num_warps`, `num_stages` and the kernel as serialized Triton IR (`ir`)"
            }
            Flavour::MosaicGpu => "the kernel as a serialized MLIR module (`module`)",
        }
    }
}

/// A Pallas kernel's custom call on one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KernelCall<'a> {
    pub(crate) flavour: Flavour,
    /// The custom call target, as written.
    pub(crate) target: &'a str,
    /// Byte offset and length of the target on the line.
    pub(crate) at: usize,
    pub(crate) len: usize,
    /// The kernel's name, where the line carries it.
    pub(crate) name: Option<&'a str>,
    /// Whether the line shows that a `pallas_call` made it.
    pub(crate) from_pallas: bool,
    /// The `op_name` of the line's `metadata`, on a compiled line.
    pub(crate) op_name: Option<&'a str>,
}

/// The Pallas kernel call on line `l`, if it holds one.
pub(crate) fn kernel_call(l: &str) -> Option<KernelCall<'_>> {
    // Compiled: the metadata must say so. Lowered: always a `pallas_call`.
    let (target, at, op_name, from_pallas) = match hlo_target(l) {
        Some((t, at)) => {
            let o = op_name(l);
            (t, at, o, o.is_some_and(|o| o.ends_with("pallas_call")))
        }
        None => mlir_target(l).map(|(t, at)| (t, at, None, true))?,
    };
    let flavour = match target {
        "tpu_custom_call" => Flavour::MosaicTpu,
        "__gpu$xla.gpu.triton" => Flavour::Triton,
        t if t.starts_with("mosaic_gpu") => Flavour::MosaicGpu,
        _ => return None,
    };
    let name = match flavour {
        Flavour::MosaicTpu => quoted_after(l, "kernel_name = \""),
        Flavour::Triton => quoted_after(l, ", name = \""),
        Flavour::MosaicGpu => None,
    };
    Some(KernelCall {
        flavour,
        target,
        at,
        len: target.len(),
        name: name.filter(|n| !n.is_empty()),
        from_pallas,
        op_name,
    })
}

/// The `op_name="..."` inside the line's `metadata={...}`.
fn op_name(l: &str) -> Option<&str> {
    let m = l.find("metadata={")?;
    super::scan::field(l.get(m..)?, "op_name")
}

/// `custom_call_target="T"`: the target and where it starts.
fn hlo_target(l: &str) -> Option<(&str, usize)> {
    let t = super::hlo::custom_call_target(l)?;
    let at = l.find("custom_call_target=\"")? + "custom_call_target=\"".len();
    Some((t, at))
}

/// `stablehlo.custom_call @T(` (or `@"T"(`): the target and where it starts.
fn mlir_target(l: &str) -> Option<(&str, usize)> {
    const OP: &str = "stablehlo.custom_call @";
    let from = l.find(OP)? + OP.len();
    let rest = l.get(from..)?;
    if let Some(q) = rest.strip_prefix('"') {
        let end = q.find('"')?;
        return Some((q.get(..end)?, from + 1));
    }
    let end = rest.find('(')?;
    Some((rest.get(..end)?, from))
}

/// The text between `key` (which ends in `"`) and the next `"`: names are
/// plain identifiers, so no escapes to handle.
fn quoted_after<'a>(l: &'a str, key: &str) -> Option<&'a str> {
    let from = l.rfind(key)? + key.len();
    let rest = l.get(from..)?;
    rest.get(..rest.find('"')?)
}

/// Reports the Pallas kernel on line `n`, if there is one.
pub(crate) fn add_evidence<'a>(n: usize, l: &'a str, sink: &mut Sink<'a>) {
    let Some(k) = kernel_call(l) else {
        return;
    };
    sink.add(k.flavour.marker(), n, l, k.at, k.len, || note(&k));
}

/// The evidence note: what a learner should see on the line.
fn note(k: &KernelCall<'_>) -> String {
    let compiler = k.flavour.compiler();
    let target = k.target;
    if !k.from_pallas {
        let what = k
            .op_name
            .map_or_else(String::new, |o| format!(" (its `op_name` is `{o}`)"));
        return format!(
            "A {compiler} kernel (`{target}`) that no `pallas_call` made{what}: XLA wrote this one itself. A kernel of yours says `pallas_call` in its `metadata` `op_name`."
        );
    }
    let who = match k.name {
        Some(name) => format!("Your Pallas kernel `{name}`"),
        None => "Your Pallas kernel".to_owned(),
    };
    let unnamed = match (k.name, k.flavour) {
        (Some(_), _) => "",
        (None, Flavour::MosaicTpu) => {
            " The line does not name the kernel (the lowered text's `kernel_name` does); its `metadata` names the `pallas_call`."
        }
        (None, _) => {
            " The line names the kernel only inside the serialized module; its `metadata` names the `pallas_call`."
        }
    };
    format!(
        "{who}, for {compiler}: one `{target}` custom call whose `{}` carries {}. XLA schedules it and never opens the kernel's body; by default nothing is fused into it (a Mosaic TPU kernel can opt in with `allow_input_fusion`).{unnamed}",
        config_field(k),
        k.flavour.payload()
    )
}

/// Where the line keeps the kernel: lowered for a GPU, JAX leaves
/// `backend_config = ""` and writes the kernel into `mhlo.backend_config`;
/// lowered for a TPU and in compiled HLO it is `backend_config` itself.
fn config_field(k: &KernelCall<'_>) -> &'static str {
    let lowered = k.op_name.is_none() && k.from_pallas;
    if lowered && k.flavour != Flavour::MosaicTpu {
        "mhlo.backend_config"
    } else {
        "backend_config"
    }
}

#[cfg(test)]
mod tests;
