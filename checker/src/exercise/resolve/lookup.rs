//! `family/file#part` references: looked up in the library (with "did you
//! mean" for every part of the reference) and cut into the snippet shown.

use super::cx::{Cx, did_you_mean};
use super::library::{DumpInfo, Library};
use super::page::{Language, Snippet};
use std::collections::BTreeSet;

/// A parsed `family/file#part` reference.
pub(super) struct Ref<'a> {
    /// The fixture family.
    pub(super) family: &'a str,
    /// The dump's file name in it.
    pub(super) file: &'a str,
    /// The dump.
    pub(super) dump: &'a DumpInfo,
    /// The lines shown, first and last (both included).
    pub(super) lines: (usize, usize),
}

/// The dump and lines `reference` names, or an error at `key` saying
/// which part is wrong and what was meant.
pub(super) fn lookup<'a>(
    reference: &'a str,
    library: &'a Library,
    key: &str,
    cx: &mut Cx<'_>,
) -> Option<Ref<'a>> {
    let (path, part) = match reference.split_once('#') {
        Some((p, part)) => (p, Some(part)),
        None => (reference, None),
    };
    let Some((family, file)) = path.split_once('/') else {
        cx.error(
            key,
            format!("snippet `{reference}` is not `family/file#excerpt`"),
            "write it like `elementwise_chain/compiled.cpu.hlo.txt#entry`",
        );
        return None;
    };
    let Some(dump) = library.get(&(family.to_owned(), file.to_owned())) else {
        let families: BTreeSet<&str> = library.keys().map(|(f, _)| f.as_str()).collect();
        if families.contains(family) {
            // A dump folder's files are offered only for a name in that
            // folder; the family's own dumps otherwise.
            let dir = file.split_once('/').map(|(d, _)| d);
            let files: Vec<&str> = library
                .keys()
                .filter(|(f, _)| f == family)
                .map(|(_, d)| d.as_str())
                .filter(|d| d.split_once('/').map(|(x, _)| x) == dir)
                .collect();
            let hint = match did_you_mean(file, files.iter().copied()) {
                Some(near) => format!(
                    "did you mean `{family}/{near}`? family `{family}` has: {}",
                    files.join(", ")
                ),
                None => format!("family `{family}` has: {}", files.join(", ")),
            };
            cx.error(
                key,
                format!("snippet `{reference}`: no dump `{file}` in fixture family `{family}`"),
                &hint,
            );
        } else {
            let hint = match did_you_mean(family, families.iter().copied()) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!(
                    "known families: {}",
                    families.into_iter().collect::<Vec<_>>().join(", ")
                ),
            };
            cx.error(
                key,
                format!("snippet `{reference}`: no fixture family `{family}`"),
                &hint,
            );
        }
        return None;
    };
    let total = dump.text.lines().count().max(1);
    let lines = match part {
        None => (1, total),
        Some(part) => {
            if let Some(&(_, a, b)) = dump.excerpts.iter().find(|(n, _, _)| n == part) {
                (a, b)
            } else if let Some((a, b)) = part
                .split_once('-')
                .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
            {
                (a, b)
            } else {
                let names: Vec<&str> = dump.excerpts.iter().map(|(n, _, _)| n.as_str()).collect();
                let near = did_you_mean(part, names.iter().copied());
                let hint = if let Some(near) = near {
                    format!(
                        "did you mean `#{near}`? named excerpts of this dump: {}",
                        names.join(", ")
                    )
                } else if names.is_empty() {
                    "this dump has no named excerpts yet; use a line range like `#12-30`".to_owned()
                } else {
                    format!(
                        "named excerpts of this dump: {}; or a line range like `#12-30`",
                        names.join(", ")
                    )
                };
                cx.error(
                    key,
                    format!("snippet `{reference}`: no excerpt `{part}`"),
                    &hint,
                );
                return None;
            }
        }
    };
    if lines.0 > lines.1 {
        cx.error(
            key,
            format!(
                "snippet `{reference}`: the range {}-{} runs backwards",
                lines.0, lines.1
            ),
            &format!("write the first line first: `#{}-{}`", lines.1, lines.0),
        );
        return None;
    }
    if lines.0 == 0 || lines.1 > total {
        cx.error(
            key,
            format!(
                "snippet `{reference}`: lines {}-{} are outside the dump's {total} lines",
                lines.0, lines.1
            ),
            "pick a range inside the file",
        );
        return None;
    }
    Some(Ref {
        family,
        file,
        dump,
        lines,
    })
}

/// The grammar of a dump, from its file name.
pub(super) fn language_of(file: &str) -> Language {
    if file.ends_with(".mlir") {
        Language::Mlir
    } else if file.starts_with("jaxpr") {
        Language::Jaxpr
    } else {
        Language::Hlo
    }
}

/// The lines of `r` (trailing blank lines dropped); `caption` of `None`
/// says which lines they are, which gives nothing away.
pub(super) fn snippet_of(r: &Ref<'_>, caption: Option<String>) -> Snippet {
    let mut lines: Vec<&str> = r
        .dump
        .text
        .lines()
        .skip(r.lines.0 - 1)
        .take(r.lines.1 - r.lines.0 + 1)
        .collect();
    while lines.len() > 1 && lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let last = r.lines.0 + lines.len() - 1;
    let caption = caption.unwrap_or_else(|| format!("lines {}\u{2013}{last}", r.lines.0));
    Snippet {
        language: language_of(r.file),
        first_line: r.lines.0,
        text: lines.join("\n"),
        caption,
    }
}
