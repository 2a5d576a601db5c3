//! `type = "classify"`: which call printed the snippet. The key is the
//! dump's annotated kind (or the analysis's); the options are the kinds
//! table's, labelled with the calls the family's provenance records.

use super::cx::Cx;
use super::library::{DumpInfo, Library, kind_of};
use super::lookup::{lookup, snippet_of};
use super::options::offered;
use super::parts::Parts;
use super::proof::{first_region_hint, proof_in};
use super::provenance::{Shown, context_of, function_name, option_call};
use super::text::merge_lines;
use crate::analysis::claims::Claim;
use crate::analysis::{Kind, analyze};
use crate::exercise::model::Classify;

/// The kinds a `classify` question can offer: the kind, what it is, the
/// call when the family's provenance has none, and what gives it away. One
/// row per kind a dump can be annotated with (a test checks every one).
pub const KINDS: [(Kind, &str, &str, &str); 4] = [
    (
        Kind::Jaxpr,
        "jaxpr",
        "jax.make_jaxpr(fn)(*args())",
        "A jaxpr reads `{ lambda ; a:f32[...]. let ... in (...) }`: short variable names, one primitive per equation, no `%` names and no `HloModule`.",
    ),
    (
        Kind::Stablehlo,
        "lowered StableHLO",
        "jax.jit(fn).lower(*args()).as_text()",
        "Lowered StableHLO is MLIR: a `module @jit_...` with `func.func public @main` and `stablehlo.` operations on `tensor<...>` types.",
    ),
    (
        Kind::HloUnoptimized,
        "lowered HLO",
        "jax.jit(fn).lower(*args()).as_text(dialect=\"hlo\")",
        "The lowered-HLO look-alike is HLO text with an `HloModule` header, but nothing is decided yet: no `is_scheduled=true`, no `fusion` instructions, computations printed without signatures and instructions without `%`.",
    ),
    (
        Kind::HloOptimized,
        "compiled HLO",
        "jax.jit(fn).lower(*args()).compile().as_text()",
        "Compiled HLO shows the backend's decisions: `is_scheduled=true` in the header, `fusion` instructions and fused computations, backend configs.",
    ),
];

/// The label of option `kind` for a `classify` question on a dump of
/// `family`: what it is and the call, as the family's provenance records it
/// (the generic call when the family has no dump of that kind).
pub(super) fn kind_label(kind: Kind, family: &str, library: &Library) -> String {
    let Some(&(_, what, generic, _)) = KINDS.iter().find(|(k, ..)| *k == kind) else {
        return kind.as_str().to_owned();
    };
    let mut of_family: Vec<(&String, &DumpInfo)> = library
        .iter()
        .filter(|((f, _), d)| f == family && d.kind == Some(kind))
        .map(|((_, file), d)| (file, d))
        .collect();
    // A family may have several (per target, per variant): the one that
    // names neither stands for them, so that no option's call says which
    // variant or target the shown dump came from.
    of_family.sort_by_key(|(file, d)| label_rank(file, d));
    let call = of_family
        .first()
        .and_then(|(_, d)| d.provenance.as_ref())
        .map_or_else(|| generic.to_owned(), |p| option_call(&p.call));
    format!("{what}: `{call}`")
}

/// Which of a family's dumps of one kind labels a `classify` option: first
/// one made by `fn` (not a per-target variant), then one printed on the
/// host (no ahead-of-time target), then the host CPU's compiled dump.
pub(super) fn label_rank(file: &str, d: &DumpInfo) -> (bool, bool, bool) {
    let src = d.provenance.as_ref();
    let variant = src.is_some_and(|p| function_name(&p.call) != "fn");
    let ahead = src.is_some_and(|p| p.call.contains("topo = "));
    (variant, ahead, !file.contains(".cpu."))
}

/// Resolves a `classify` question: the dump's kind is the key; the excerpt
/// must not read as another kind on its own, and must hold a line that
/// proves its kind.
pub(super) fn resolve(c: &Classify, library: &Library, cx: &mut Cx<'_>) -> Option<Parts> {
    let r = lookup(&c.snippet, library, "snippet", cx)?;
    let Some(kind) = kind_of(r.dump) else {
        cx.error(
            "snippet",
            format!(
                "the kind of `{}/{}` is neither annotated nor recognised by the checker",
                r.family, r.file
            ),
            "annotate its `kind` in the family's fixture.toml",
        );
        return None;
    };
    let shown = snippet_of(&r, None);
    let alone = analyze(&shown.text).kind;
    if alone != Kind::Unknown && alone != kind {
        cx.error(
            "snippet",
            format!("this excerpt reads as `{alone}` on its own, but the dump is `{kind}`"),
            "pick an excerpt whose lines show what the dump is",
        );
    }
    let table: Vec<(Kind, &str, &str)> = KINDS
        .iter()
        .map(|(k, what, _, why)| (*k, *what, *why))
        .collect();
    let label = |k: Kind, _: &str| kind_label(k, r.family, library);
    let (options, option_notes) = offered(c.choices.as_ref(), &table, kind, label, cx)?;
    let claims = Claim::deciding_kind(kind);
    let lines = merge_lines(claims.into_iter().flat_map(|c| proof_in(&r, c)).collect());
    if lines.is_empty() {
        cx.error(
            "snippet",
            format!("no line of this excerpt proves that the dump is `{kind}`, so the question cannot be answered from it"),
            "choose an excerpt that holds a clue (`mdbook-dumplab analyze` lists them with their lines)",
        );
        return None;
    }
    let mut p = Parts::single(
        kind.as_str().to_owned(),
        kind_label(kind, r.family, library),
        lines,
    );
    p.hints = first_region_hint(
        &r,
        &p.lines,
        "Look again at {lines}: they hold a clue that only one of these texts prints.",
    );
    p.context = context_of(&r, library, Shown::NoCall);
    p.snippet = Some(shown);
    p.options = options;
    p.option_notes = option_notes;
    Some(p)
}
