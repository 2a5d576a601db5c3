//! A counted fact's result, and what a kernel count says about each kernel
//! and about the likely miscounts.

use crate::analysis::Kernel;

/// One counted fact: its value, the instructions counted (line and a note),
/// and likely miscounts.
pub(super) struct Counted {
    /// The count in the whole dump.
    pub(super) value: usize,
    /// The counted instructions inside the shown range, with a note each.
    pub(super) lines: Vec<(usize, String)>,
    /// Likely wrong counts, each with what it missed.
    pub(super) miscounts: Vec<(usize, String)>,
}

/// What one counted kernel is, in a sentence.
pub(super) fn kernel_note(k: &Kernel) -> String {
    match k.kind.analyze_name() {
        "fusion" => format!("`{}`: a fusion, one kernel.", k.name),
        "custom-call" => format!("`{}`: a custom call, one kernel.", k.name),
        "copy" => format!(
            "`{}`: a `{}` moves an array through memory, one kernel.",
            k.name, k.opcode
        ),
        _ => format!(
            "`{}`: a `{}` standing on its own, one kernel.",
            k.name, k.opcode
        ),
    }
}

/// Likely miscounts of a kernel count: the fusions alone, the fusions and
/// custom calls without the copies, the `-done` halves of async pairs
/// counted as kernels.
pub(super) fn kernel_miscounts(kernels: &[&Kernel]) -> Vec<(usize, String)> {
    // Counted as `analyze` counts them (a column of the kinds table).
    let of = |name: &str| {
        kernels
            .iter()
            .filter(|x| x.kind.analyze_name() == name)
            .count()
    };
    let (f, c, copies, other) = (of("fusion"), of("custom-call"), of("copy"), of("unfused"));
    let mut missed = Vec::new();
    if copies > 0 {
        missed.push(format!(
            "the {}",
            if copies == 1 { "copy" } else { "copies" }
        ));
    }
    if c > 0 {
        missed.push(format!("the custom call{}", if c == 1 { "" } else { "s" }));
    }
    if other > 0 {
        missed.push(format!(
            "the unfused op{} standing on {} own",
            if other == 1 { "" } else { "s" },
            if other == 1 { "its" } else { "their" }
        ));
    }
    let mut out = Vec::new();
    if !missed.is_empty() {
        // One missed kernel takes a singular verb: "the copy launches".
        let one = copies + c + other == 1;
        out.push((
            f,
            format!(
                "That counts the fusions alone: {} {} work too.",
                missed.join(" and "),
                if one { "launches" } else { "launch" }
            ),
        ));
    }
    if copies > 0 {
        out.push((
            f + c + other,
            if copies == 1 {
                "That leaves out the copy: a `copy` reads and writes a whole array, one kernel."
            } else {
                "That leaves out the copies: a `copy` reads and writes a whole array, one kernel each."
            }
            .to_owned(),
        ));
    }
    // Each `-start` has a `-done` half that only waits for it.
    let starts = kernels
        .iter()
        .filter(|k| k.opcode.ends_with("-start"))
        .count();
    if starts > 0 {
        out.push((
            kernels.len() + starts,
            if starts == 1 {
                "That counts the `-done` half of the async pair too: it only waits for its `-start`, which is the kernel."
            } else {
                "That counts the `-done` halves of the async pairs too: each only waits for its `-start`, which is the kernel."
            }
            .to_owned(),
        ));
    }
    out
}
