//! What a question says its dump is, from the fixture's provenance: the
//! function's file and signature, the call and the target, each only where
//! it gives the answer away.

use super::library::Library;
use super::lookup::Ref;

/// The function's name in a provenance call (`jax.jit(fn)` → `fn`).
pub(super) fn function_name(call: &str) -> &str {
    for open in ["jax.jit(", "make_jaxpr("] {
        if let Some(rest) = call.split(open).nth(1) {
            let name = rest.split([')', ',']).next().unwrap_or("").trim();
            if !name.is_empty() {
                return name;
            }
        }
    }
    "fn"
}

/// The call that printed a dump, as short as it can be while staying the
/// call: the last statement of the provenance, without a trailing comment
/// or a `str(...)` wrapper, and a long argument list of `lower(...)`
/// (ahead-of-time shapes) written `*args`.
pub fn short_call(call: &str) -> String {
    let last = call.rsplit("; ").next().unwrap_or(call);
    let mut c = last.split("  #").next().unwrap_or(last).trim().to_owned();
    if let Some(inner) = c.strip_prefix("str(").and_then(|x| x.strip_suffix(')')) {
        c = inner.to_owned();
    }
    if let Some(at) = c.find(".lower(") {
        let open = at + ".lower(".len();
        let mut depth = 1usize;
        let mut close = None;
        for (i, ch) in c[open..].char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        if let Some(close) = close {
            if close - open > 12 {
                c = format!("{}*args{}", &c[..open], &c[close..]);
            }
        }
    }
    c
}

/// "compiled for the host CPU", "compiled ahead of time for the NVIDIA
/// H100 80GB HBM3", from a provenance target.
pub(super) fn target_phrase(target: &str) -> String {
    let short = target
        .split([',', '('])
        .next()
        .unwrap_or(target)
        .trim()
        .to_owned();
    if target.contains("AOT") || target.contains("ahead of time") {
        format!("compiled ahead of time for the {short}")
    } else {
        format!("compiled for the {short}")
    }
}

/// Whether a module's header says it was partitioned over more than one
/// device (`num_partitions=N`, N > 1).
fn partitioned(text: &str) -> bool {
    let head = text.lines().next().unwrap_or("");
    head.split([',', ' '])
        .filter_map(|a| a.trim().strip_prefix("num_partitions="))
        .any(|n| n.parse::<u64>().is_ok_and(|n| n > 1))
}

/// The entry parameters of the family's function, in order, read from the
/// dump itself or, where it prints none (MLIR, a jaxpr), from one of the
/// family's HLO dumps.
pub(super) fn params_of<'a>(r: &Ref<'_>, library: &'a Library) -> Vec<&'a crate::analysis::Param> {
    let own = (r.family.to_owned(), r.file.to_owned());
    // A compiled SPMD module's parameters are one device's shards: the
    // function's own shapes are the lowered module's.
    let lowered = (r.family.to_owned(), "lowered.hlo.txt".to_owned());
    let first = if partitioned(&r.dump.text) && library.get(&lowered).is_some() {
        &lowered
    } else {
        &own
    };
    let found = std::iter::once(first)
        .chain(std::iter::once(&own))
        .chain(
            library
                .keys()
                .filter(|(f, d)| f == r.family && d.ends_with(".hlo.txt")),
        )
        .filter_map(|k| library.get(k))
        .map(|d| &d.analysis().entry_params)
        .find(|p| !p.is_empty());
    let mut params: Vec<&crate::analysis::Param> =
        found.map(|p| p.iter().collect()).unwrap_or_default();
    params.sort_by_key(|p| p.number);
    params
}

/// The signature of the family's function with the shapes it was traced
/// for, read from the entry parameters of one of its HLO dumps.
pub(super) fn signature(r: &Ref<'_>, library: &Library, name: &str) -> Option<String> {
    let params = params_of(r, library);
    if params.is_empty() {
        return None;
    }
    let args: Vec<String> = params
        .iter()
        .map(|p| {
            let base = match p.name.rsplit_once('.') {
                Some((b, n)) if n.bytes().all(|c| c.is_ascii_digit()) => b,
                _ => p.name.as_str(),
            };
            format!("{base}: {}", p.shape)
        })
        .collect();
    Some(format!("{name}({})", args.join(", ")))
}

/// How much of a dump's provenance a question may show: whatever would
/// name the answer is left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shown {
    /// The function's file, its signature, the call and the target.
    All,
    /// No call and no target: they name a dump's kind and backend
    /// (`classify`, `backend`).
    NoCall,
    /// No function file: its folder names the family (`pair`).
    NoFile,
}

/// What the shown dump is, from provenance: the function's signature with
/// its shapes, and what `shown` allows of its file, call and target.
pub(super) fn context_of(r: &Ref<'_>, library: &Library, shown: Shown) -> Option<String> {
    let src = r.dump.provenance.as_ref()?;
    let name = function_name(&src.call);
    // A per-target variant's name (`fn_mosaic_tpu`) says the target: where
    // the target is hidden, so is the variant.
    let hide_variant = shown == Shown::NoCall && name != "fn";
    let sig = if hide_variant {
        signature(r, library, "fn").unwrap_or_else(|| "fn".to_owned())
    } else {
        signature(r, library, name).unwrap_or_else(|| name.to_owned())
    };
    let mut out = match shown {
        Shown::NoFile => format!("From `{sig}`"),
        _ if hide_variant => format!("From `{}`: a per-target variant of `{sig}`", src.function),
        _ => format!("From `{}`: `{sig}`", src.function),
    };
    if shown != Shown::NoCall {
        let call = short_call(&src.call);
        match &src.target {
            // A lowered dump of a target's variant is lowered for it, not
            // compiled.
            Some(t) if r.dump.kind.is_some_and(|k| k != crate::Kind::HloOptimized) => {
                let short = target_phrase(t);
                let short = short.rsplit(" for the ").next().unwrap_or(&short);
                out.push_str(&format!(", lowered for the {short} with `{call}`"))
            }
            Some(t) => out.push_str(&format!(", {} with `{call}`", target_phrase(t))),
            None => out.push_str(&format!(", printed with `{call}`")),
        }
    }
    out.push('.');
    Some(out)
}

/// A call as a `classify` option quotes it: the short call, with any
/// variant's name written `fn` and the example arguments written `*args()`,
/// so that every option reads alike and none names the shown dump's
/// variant or target.
pub fn option_call(call: &str) -> String {
    let short = short_call(call);
    let name = function_name(call);
    let mut out = short.replacen(&format!("({name})"), "(fn)", 1);
    out = out.replacen(&format!("({name}, "), "(fn, ", 1);
    if let Some(at) = out.find("(*args)") {
        out.replace_range(at..at + "(*args)".len(), "(*args())");
    }
    out
}
