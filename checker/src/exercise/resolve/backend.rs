//! `type = "backend"`: CPU, GPU or TPU, from a compiled snippet. The key is
//! the dump's annotated backend (or the analysis's).

use super::cx::Cx;
use super::library::{Library, backend_of};
use super::lookup::{lookup, snippet_of};
use super::options::{label_of, offered};
use super::parts::Parts;
use super::proof::{first_region_hint, proof_in};
use super::provenance::{Shown, context_of};
use crate::analysis::Backend;
use crate::analysis::claims::Claim;
use crate::exercise::model::BackendQuestion;

/// The backends a `backend` question can offer, with labels and tells: one
/// row per backend (a test checks every one).
pub const BACKENDS: [(Backend, &str, &str); 3] = [
    (
        Backend::Cpu,
        "CPU",
        "XLA:CPU dumps have no tiled layouts; their `backend_config`s say `outer_dimension_partitions` or hand a fusion to the YNNPACK library (`__ynn_fusion`).",
    ),
    (
        Backend::Gpu,
        "GPU",
        "XLA:GPU dumps carry `operation_queue_id` in their `backend_config`s and `scheduling_name` in their metadata; library calls go to cuBLAS (`__cublas$lt$matmul`) or cuDNN (`__cudnn$convForward`), and Triton fusions say `\"kind\":\"__triton\"`.",
    ),
    (
        Backend::Tpu,
        "TPU",
        "XLA:TPU dumps show tiled layouts such as `{1,0:T(8,128)}` and TPU `backend_config`s with tiling and cycle estimates.",
    ),
];

/// Resolves a `backend` question: the dump's backend is the key; the
/// excerpt must hold a line that proves it.
pub(super) fn resolve(b: &BackendQuestion, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let r = lookup(&b.snippet, library, "snippet", cx)?;
    let Some(backend) = backend_of(r.dump) else {
        cx.error(
            "snippet",
            format!(
                "the backend of `{}/{}` is neither annotated nor recognised by the checker",
                r.family, r.file
            ),
            "pick a compiled dump, or annotate its `backend`",
        );
        return None;
    };
    let label = |_: Backend, l: &str| l.to_owned();
    let (options, option_notes) = offered(b.choices.as_ref(), &BACKENDS, backend, label, cx)?;
    let lines = proof_in(&r, Claim::of_backend(backend));
    if lines.is_empty() {
        cx.error(
            "snippet",
            format!("no line of this excerpt shows that the dump was compiled for {backend}, so the question cannot be answered from it"),
            "choose an excerpt that holds a backend clue (`mdbook-dumplab analyze` lists them with their lines)",
        );
        return None;
    }
    let mut p = Parts::single(
        backend.as_str().to_owned(),
        label_of(&BACKENDS, backend).to_owned(),
        lines,
    );
    p.hints = first_region_hint(
        &r,
        &p.lines,
        "Look again at {lines}: one of them carries something only one backend writes.",
    );
    p.context = context_of(&r, library, Shown::NoCall);
    p.snippet = Some(snippet_of(&r, None));
    p.options = options;
    p.option_notes = option_notes;
    Some(p)
}
