//! What one line shows: whether a single line of a dump shows a marker.
//!
//! A fixture says "line 12 shows `fusion-kind`"; the fixture validator checks
//! that with [`marker_matches`], which looks at that single line only. So each
//! marker is defined by what one line of text shows, and the analysis never
//! reports a marker on a line where [`marker_matches`] would say no. The
//! markers themselves, what they mean and where they are taught are the
//! marker table ([`super::markers`]); this module reads lines with the
//! parsers' syntax functions.

use super::markers::{M, by_name};
use super::scan::{has_layout, has_memory_space, has_param_name, has_tiling};
use super::{hlo, jaxpr, mlir, pallas};

/// Whether `line` (a single line of a dump) shows what `marker` says.
///
/// `None` when `marker` is not a marker name (see [`marker_names`](super::markers::marker_names)).
pub fn marker_matches(marker: &str, line: &str) -> Option<bool> {
    by_name(marker).map(|m| matches(m, line))
}

/// Whether line `l` shows marker `m`.
fn matches(m: M, l: &str) -> bool {
    match m {
        M::JaxprLambda => l.contains("{ lambda"),
        M::JaxprLet => l.split_whitespace().any(|w| w == "let"),
        M::JaxprEquation => jaxpr::parse_equation(l).is_some() || l.contains(". let "),
        M::JaxprIn => l.trim_start().starts_with("in ") || l.contains(" in ("),
        M::JaxprSubjaxpr => l.contains("{ lambda"),
        M::MlirModule => l.trim_start().starts_with("module"),
        M::FuncMain => l.trim_start().starts_with("func.func") && l.contains("@main"),
        M::FuncFunc => l.trim_start().starts_with("func.func"),
        M::StablehloOp => l.contains("stablehlo.") || l.contains("chlo."),
        M::MlirTensorType => l.contains("tensor<"),
        M::MlirLoc => l.contains("loc(") || l.trim_start().starts_with("#loc"),
        M::HloModuleHeader => l.trim_start().starts_with("HloModule"),
        M::IsScheduled => l.contains("is_scheduled=true"),
        M::NotScheduled => {
            l.trim_start().starts_with("HloModule") && !l.contains("is_scheduled=true")
        }
        M::EntryComputation => l.trim_start().starts_with("ENTRY"),
        M::HloInstruction => hlo::parse_instruction(l).is_some(),
        M::Layout => has_layout(l),
        M::FusionKind => {
            hlo::parse_instruction(l).is_some_and(|i| i.opcode == "fusion") && l.contains("kind")
        }
        M::FusedComputation => l.contains("calls=") || hlo::parse_computation_header(l).is_some(),
        M::FusedParameter => has_param_name(l),
        M::TpuTiledLayout => has_tiling(l),
        M::MemorySpace => has_memory_space(l),
        M::BackendConfig => l.contains("backend_config"),
        M::GpuBackendConfig => hlo::gpu_config_key(l).is_some(),
        M::CpuBackendConfig => hlo::cpu_config_key(l).is_some(),
        M::CustomCall => l.contains("custom_call_target"),
        M::GpuCustomCall => hlo::gpu_custom_call_target(l).is_some(),
        M::CpuCustomCall => hlo::cpu_custom_call_target(l).is_some(),
        M::TpuCustomCall => hlo::tpu_custom_call_target(l).is_some(),
        M::ShardingCustomCall => hlo::sharding_custom_call_target(l).is_some(),
        M::AsyncOp => hlo::parse_instruction(l)
            .is_some_and(|i| i.opcode.ends_with("-start") || i.opcode.ends_with("-done")),
        M::LayoutOp => {
            hlo::parse_instruction(l).is_some_and(|i| i.opcode == "bitcast" || i.opcode == "copy")
        }
        M::While => hlo::parse_instruction(l).is_some_and(|i| i.opcode == "while"),
        M::Conditional => hlo::parse_instruction(l).is_some_and(|i| i.opcode == "conditional"),
        M::Metadata => l.contains("metadata"),
        M::RewrittenOp => hlo::rewritten_op_line(l),
        M::ComputationHeader => hlo::parse_computation_header(l).is_some_and(|h| h.signed),
        M::UnsignedComputation => {
            hlo::parse_computation_header(l).is_some_and(|h| !h.signed) || bare_header(l)
        }
        M::BareNames => hlo::parse_instruction(l).is_some_and(|i| !i.percent),
        M::TpuBackendConfig => hlo::tpu_config_key(l).is_some(),
        M::SchedulingName => l.contains("scheduling_name="),
        M::LhsFingerprint => hlo::lhs_fingerprint(l).is_some(),
        M::MosaicTpuKernel | M::TritonKernel | M::MosaicGpuKernel => {
            pallas::kernel_call(l).is_some_and(|k| k.flavour.marker() == m)
        }
        M::StackFrames => matches!(
            l.trim(),
            "FileNames" | "FunctionNames" | "FileLocations" | "StackFrames"
        ),
        // The header's only layouts are its `entry_computation_layout`.
        M::EntryLayoutTiles => l.trim_start().starts_with("HloModule") && has_tiling(l),
        M::CopyInstruction => hlo::parse_instruction(l).is_some_and(|i| i.opcode == "copy"),
        M::MhloOp => l.contains("mhlo."),
        M::GpuFusionName => hlo::parse_instruction(l)
            .is_some_and(|i| i.opcode == "fusion" && hlo::gpu_fusion_name(l).is_some()),
        M::CompilerCustomCall => hlo::compiler_custom_call_target(l).is_some(),
        M::LapackCustomCall => mlir::cpu_lowering_target(l).is_some(),
        M::GpuLibraryCustomCall => mlir::gpu_library_target(l).is_some(),
        M::TpuLoweringCustomCall => mlir::tpu_lowering_target(l).is_some(),
    }
}

/// `name {` alone on a line: a computation printed without its signature
/// or XLA's `.N` suffix (`fused_computation {` in XLA's dumps between
/// passes), which the analysis reads as one in a module with an
/// `HloModule` line.
fn bare_header(l: &str) -> bool {
    let t = l.trim();
    t.strip_suffix('{').map(str::trim_end).is_some_and(|name| {
        name.bytes()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
            && name.bytes().all(super::scan::is_name_byte)
    })
}
