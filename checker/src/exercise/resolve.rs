//! Validating an exercise file against the fixtures and resolving each
//! question into what the page shows plus its sealed key.
//!
//! Keys are never typed by hand: a `classify` key is the dump's annotated
//! kind, a `backend` key its annotated backend, a `count` key what
//! [`crate::analyze`] counts in the whole dump, a `pair` key the candidate
//! from the snippet's family. An `evidence` key is every line of the excerpt
//! that the analysis holds as proof of the question's claim (the claim
//! table, [`crate::analysis::claims`]); annotated lines can only add notes,
//! and an annotated line the analysis does not hold as proof is an error.
//!
//! Every resolved question then grades itself ([`self_test`]): its key must
//! grade right, every wrong option, candidate and choice wrong, a wrong count
//! wrong, a line that proves nothing not right. Every problem is collected
//! as a [`Diagnostic`] pointing at the offending key of the exercise file.
//! Each dump is analysed once per build ([`DumpInfo::analysis`]).

use super::key::{Hint, Key, Mode};
use super::model::{ExerciseFile, Question};
use super::seal::{hash_fields, seal};
use crate::analysis::claims::{Claim, Select, closest_claim};
use crate::analysis::{Analysis, Kernel, KernelKind, Kind, analyze};
use crate::diagnostic::Diagnostic;
use crate::grade::{Outcome, grade};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::sync::OnceLock;

/// One annotated line of a dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotatedLine {
    /// 1-based line in the dump.
    pub line: usize,
    /// The checker's marker name (`is-scheduled`, `fusion`, ...).
    pub marker: String,
    /// What a learner should notice.
    pub note: String,
}

/// What exercises need to know about one dump file of a fixture family.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DumpInfo {
    /// The dump's text, verbatim.
    pub text: String,
    /// The annotated kind (`hlo-optimized`, ...), if annotated.
    pub kind: Option<String>,
    /// The annotated backend (`cpu`, `gpu`, `tpu`), if annotated.
    pub backend: Option<String>,
    /// Named excerpts: name, first and last line (both included).
    pub excerpts: Vec<(String, usize, usize)>,
    /// Annotated evidence lines.
    pub evidence: Vec<AnnotatedLine>,
    /// Where it came from, from the fixture's generated provenance.
    pub provenance: Option<DumpSource>,
    /// The checker's analysis of `text`, computed on first use and kept:
    /// a build analyses each dump once, however many questions show it.
    pub analysis: OnceLock<Analysis>,
}

/// How a dump was made, as the fixture's provenance records it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DumpSource {
    /// The Python file of the function, as a learner finds it in the
    /// repository (`fixtures/elementwise_chain/function.py`).
    pub function: String,
    /// The exact call that printed the dump.
    pub call: String,
    /// The compilation target, for compiled dumps.
    pub target: Option<String>,
}

impl DumpInfo {
    /// The checker's analysis of the dump, computed once.
    pub fn analysis(&self) -> &Analysis {
        self.analysis.get_or_init(|| analyze(&self.text))
    }
}

/// The fixtures, keyed by `(family, file)`.
pub type Library = BTreeMap<(String, String), DumpInfo>;

/// The exercises' view of loaded fixture families: every dump with its
/// annotations, provenance and the analysis made when the family was loaded
/// (so a build analyses each dump once).
pub fn library_of(families: &BTreeMap<String, crate::fixture::Family>) -> Library {
    let mut lib = Library::new();
    for (name, family) in families {
        let prov = &family.annotation.provenance;
        let folder = family
            .dir
            .rsplit('/')
            .take(2)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("/");
        for (file, text) in &family.files {
            if !crate::fixture::is_dump_name(file) {
                continue;
            }
            let mut info = DumpInfo {
                text: text.clone(),
                ..DumpInfo::default()
            };
            // Analysed once, when the family was loaded.
            if let Some(a) = family.analyses.get(file) {
                let _ = info.analysis.set(a.clone());
            }
            info.provenance = prov.dumps.get(file).map(|d| DumpSource {
                function: format!("{folder}/{}", prov.function.get_ref()),
                call: d.call.clone(),
                target: d.target.clone(),
            });
            if let Some(ann) = family.dump(file) {
                info.kind = Some(ann.kind.get_ref().as_str().to_owned());
                info.backend = ann
                    .backend
                    .as_ref()
                    .map(|b| b.get_ref().as_str().to_owned());
                info.excerpts = ann
                    .excerpt
                    .iter()
                    .map(|e| {
                        (
                            e.name.get_ref().clone(),
                            e.lines.get_ref().0,
                            e.lines.get_ref().1,
                        )
                    })
                    .collect();
                info.evidence = ann
                    .evidence
                    .iter()
                    .map(|e| AnnotatedLine {
                        line: *e.line.get_ref(),
                        marker: e.marker.get_ref().clone(),
                        note: e.note.get_ref().clone(),
                    })
                    .collect();
            }
            lib.insert((name.clone(), file.clone()), info);
        }
    }
    lib
}

/// Which grammar highlights a snippet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// HLO text, before or after optimization.
    Hlo,
    /// MLIR (StableHLO).
    Mlir,
    /// A jaxpr.
    Jaxpr,
}

/// A piece of a dump shown in a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    /// Its grammar.
    pub language: Language,
    /// The dump line number of its first line.
    pub first_line: usize,
    /// The lines, verbatim, joined with `\n`.
    pub text: String,
    /// A caption that gives nothing away ("Dump A", "lines 12-30").
    pub caption: String,
}

/// A question ready to render.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The question id.
    pub id: String,
    /// The `type` spelling.
    pub type_name: &'static str,
    /// The prompt.
    pub prompt: String,
    /// What the shown dump is, from the fixture's provenance (function,
    /// shapes and, where it gives nothing away, backend and call).
    pub context: Option<String>,
    /// How to answer, generated from the key's rule ("Select at least two
    /// lines ..."), when the type needs one.
    pub instruction: Option<String>,
    /// How it is answered.
    pub mode: Mode,
    /// The dump shown above the answer, if any.
    pub snippet: Option<Snippet>,
    /// For `pair`: the candidates, each an option.
    pub candidates: Vec<Snippet>,
    /// Option ids and labels, for single-choice questions.
    pub options: Vec<(String, String)>,
    /// The content hash: keys progress and salts the seal.
    pub hash: String,
    /// The sealed key.
    pub sealed: String,
    /// The plain key (never rendered; for tests and `grade`).
    pub key: Key,
}

/// The kinds a `classify` question can offer: id, what it is, the call
/// when the family's provenance has none, and what gives it away.
pub const KINDS: [(&str, &str, &str, &str); 4] = [
    (
        "jaxpr",
        "jaxpr",
        "jax.make_jaxpr(fn)(*args())",
        "A jaxpr reads `{ lambda ; a:f32[...]. let ... in (...) }`: short variable names, one primitive per equation, no `%` names and no `HloModule`.",
    ),
    (
        "stablehlo",
        "lowered StableHLO",
        "jax.jit(fn).lower(*args()).as_text()",
        "Lowered StableHLO is MLIR: a `module @jit_...` with `func.func public @main` and `stablehlo.` operations on `tensor<...>` types.",
    ),
    (
        "hlo-unoptimized",
        "lowered HLO",
        "jax.jit(fn).lower(*args()).as_text(dialect=\"hlo\")",
        "The lowered-HLO look-alike is HLO text with an `HloModule` header, but nothing is decided yet: no `is_scheduled=true`, no `fusion` instructions, computations printed without signatures and instructions without `%`.",
    ),
    (
        "hlo-optimized",
        "compiled HLO",
        "jax.jit(fn).lower(*args()).compile().as_text()",
        "Compiled HLO shows the backend's decisions: `is_scheduled=true` in the header, `fusion` instructions and fused computations, backend configs.",
    ),
];

/// The backends a `backend` question can offer, with labels and tells.
pub const BACKENDS: [(&str, &str, &str); 3] = [
    (
        "cpu",
        "CPU",
        "XLA:CPU dumps have no tiled layouts; their `backend_config`s say `outer_dimension_partitions` or hand a fusion to the YNNPACK library (`__ynn_fusion`).",
    ),
    (
        "gpu",
        "GPU",
        "XLA:GPU dumps carry `operation_queue_id` in their `backend_config`s and `scheduling_name` in their metadata; library calls go to cuBLAS (`__cublas$lt$matmul`) or cuDNN (`__cudnn$convForward`), and Triton fusions say `\"kind\":\"__triton\"`.",
    ),
    (
        "tpu",
        "TPU",
        "XLA:TPU dumps show tiled layouts such as `{1,0:T(8,128)}` and TPU `backend_config`s with tiling and cycle estimates.",
    ),
];

/// The facts a `count` question can ask about, each with the dumps it
/// applies to and what it counts (`exercises/FORMAT.md` has the table).
pub const FACTS: [(&str, &str, &str); 9] = [
    (
        "entry_fusions",
        "HLO",
        "`fusion` instructions in the entry computation",
    ),
    (
        "entry_kernels",
        "HLO",
        "kernels the entry computation launches itself: fusions, custom calls, copies and other ops that work on their own",
    ),
    (
        "iteration_kernels",
        "HLO with a `while`",
        "kernels one trip round the loop runs: the condition's once and the body's once",
    ),
    (
        "fusions",
        "HLO",
        "`fusion` instructions anywhere, loop bodies and branches included",
    ),
    ("custom_calls", "HLO", "`custom-call` instructions"),
    ("while_loops", "HLO", "`while` instructions"),
    ("conditionals", "HLO", "`conditional` instructions"),
    (
        "computations",
        "HLO",
        "computations, the entry and fused ones included",
    ),
    (
        "equations",
        "jaxpr",
        "equations of the top-level jaxpr, not those inside sub-jaxprs",
    ),
];

/// Parses and validates exercise file `file` (text `source`) against
/// `library`; returns the questions that resolved and every problem found.
pub fn resolve_file(
    file: &str,
    source: &str,
    library: &Library,
) -> (Vec<Resolved>, Vec<Diagnostic>) {
    let parsed: ExerciseFile = match toml::from_str(source) {
        Ok(p) => p,
        Err(e) => {
            let mut offset = e.span().map_or(0, |s| s.start);
            let message = e.message().trim().to_owned();
            let mut hint = "exercises/FORMAT.md lists every key of a question (type, id, prompt, snippet, ...)".to_owned();
            // serde reports an unknown field at its value; point at the key,
            // which is what to change, and say which key was meant.
            if let Some(field) = message
                .strip_prefix("unknown field `")
                .and_then(|m| m.split('`').next())
            {
                if let Some(value) = key_offset(source, offset.min(source.len()), field) {
                    offset = source[..value].rfind(field).unwrap_or(value);
                }
                let expected: Vec<&str> = message
                    .split_once("expected")
                    .map(|(_, list)| list.split('`').skip(1).step_by(2).collect())
                    .unwrap_or_default();
                if let Some(near) = did_you_mean(field, expected.iter().copied()) {
                    hint = format!("did you mean `{near}`? {hint}");
                }
            }
            return (
                Vec::new(),
                vec![Diagnostic::error_at(file, source, offset, message).with_hint(hint)],
            );
        }
    };
    let mut out = Vec::new();
    let mut diags = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for q in &parsed.question {
        let span = q.span();
        let mut cx = Cx {
            file,
            source,
            span: span.clone(),
            diags: &mut diags,
        };
        let (id, _, _) = q.get_ref().common();
        if !valid_id(id) {
            cx.error(
                "id",
                format!("question id `{id}` is not a plain name"),
                "use lowercase letters, digits, `-` and `_`, starting with a letter or digit",
            );
        } else if let Some(first) = seen.get(id) {
            let (line, _) = crate::diagnostic::line_column(source, *first);
            cx.error(
                "id",
                format!("question id `{id}` is used twice (first on line {line})"),
                "give every question its own id",
            );
        } else {
            seen.insert(id.to_owned(), span.start);
        }
        if let Some(r) = resolve_question(q.get_ref(), library, &mut cx) {
            out.push(r);
        }
    }
    (out, diags)
}

/// The offset of the line setting `key` in the `[[question]]` table that
/// starts at `start` (searching up to the next `[[question]]` header).
fn key_offset(source: &str, start: usize, key: &str) -> Option<usize> {
    let mut pos = start;
    for (i, line) in source[start..].split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if i > 0 && trimmed.trim_end() == "[[question]]" {
            return None;
        }
        if let Some(rest) = trimmed.strip_prefix(key)
            && let Some(after_eq) = rest.trim_start().strip_prefix('=')
        {
            // The value, which is what an author changes.
            let value = after_eq.trim_start();
            return Some(pos + line.len() - trimmed.len() + key.len() + rest.len() - value.len());
        }
        pos += line.len();
    }
    None
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        && id.as_bytes()[0].is_ascii_alphanumeric()
}

struct Cx<'a> {
    file: &'a str,
    source: &'a str,
    span: Range<usize>,
    diags: &'a mut Vec<Diagnostic>,
}

impl Cx<'_> {
    /// The offset of `key = ` inside the question's table (which runs to
    /// the next `[[question]]`), or the table's start.
    fn offset_of(&self, key: &str) -> usize {
        let start = self.span.start.min(self.source.len());
        key_offset(self.source, start, key).unwrap_or(start)
    }

    fn error(&mut self, key: &str, message: impl Into<String>, hint: &str) {
        let d = Diagnostic::error_at(self.file, self.source, self.offset_of(key), message)
            .with_hint(hint);
        self.diags.push(d);
    }
}

/// A parsed `family/file#part` reference.
struct Ref<'a> {
    family: &'a str,
    file: &'a str,
    dump: &'a DumpInfo,
    lines: (usize, usize),
}

fn lookup<'a>(
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
            let files: Vec<&str> = library
                .keys()
                .filter(|(f, _)| f == family)
                .map(|(_, d)| d.as_str())
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

fn language_of(file: &str) -> Language {
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
fn snippet_of(r: &Ref<'_>, caption: Option<String>) -> Snippet {
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

/// Sorts by line and joins the notes of one line (several markers may sit
/// on it) into one, each note a sentence of its own.
fn merge_lines(mut lines: Vec<(usize, String)>) -> Vec<(usize, String)> {
    lines.sort_by_key(|(l, _)| *l);
    let mut out: Vec<(usize, String)> = Vec::new();
    for (line, note) in lines {
        let note = sentence(note.trim());
        match out.last_mut() {
            Some((l, n)) if *l == line => {
                if !n.contains(note.as_str()) {
                    n.push(' ');
                    n.push_str(&note);
                }
            }
            _ => out.push((line, note)),
        }
    }
    out
}

/// `text` ending in a full stop unless it ends in punctuation already.
fn sentence(text: &str) -> String {
    if text.is_empty() || text.ends_with(['.', '!', '?', ':']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

fn kind_of(dump: &DumpInfo) -> Option<String> {
    dump.kind.clone().or_else(|| {
        let k = dump.analysis().kind;
        (k != Kind::Unknown).then(|| k.as_str().to_owned())
    })
}

fn backend_of(dump: &DumpInfo) -> Option<String> {
    dump.backend
        .clone()
        .or_else(|| dump.analysis().backend.map(|b| b.as_str().to_owned()))
}

/// The lines of `r`'s range that prove `claim`, with a note each: the
/// annotation's notes for the claim's markers on that line, else the
/// analysis's own notes, else a sentence naming the marker.
fn proof_in(r: &Ref<'_>, claim: Claim) -> Vec<(usize, String)> {
    let a = r.dump.analysis();
    let mut out = Vec::new();
    for (line, markers) in a.proof_lines(claim, r.lines.0, r.lines.1) {
        let annotated: Vec<String> = r
            .dump
            .evidence
            .iter()
            .filter(|e| e.line == line && claim.proven_by(&e.marker))
            .map(|e| sentence(e.note.trim()))
            .collect();
        let notes = if annotated.is_empty() {
            let found: Vec<String> = a
                .evidence
                .iter()
                .filter(|e| e.line == line && markers.contains(&e.marker))
                .map(|e| sentence(&e.note))
                .collect();
            // Past the analysis's evidence cap: what the line shows alone.
            let found = if found.is_empty() {
                let text = r.dump.text.lines().nth(line - 1).unwrap_or_default();
                analyze(text)
                    .evidence
                    .iter()
                    .filter(|e| markers.contains(&e.marker))
                    .map(|e| sentence(&e.note))
                    .collect()
            } else {
                found
            };
            if found.is_empty() {
                vec![evidence_text::proof_note(
                    markers.first().copied().unwrap_or_default(),
                    claim,
                )]
            } else {
                found
            }
        } else {
            annotated
        };
        for n in notes {
            out.push((line, n));
        }
    }
    // A note already said on an earlier line is not said again.
    let mut first_said: BTreeMap<String, usize> = BTreeMap::new();
    merge_lines(out)
        .into_iter()
        .map(|(line, note)| match first_said.get(&note) {
            Some(&earlier) => (
                line,
                format!("Line {line}: the same clue as line {earlier}."),
            ),
            None => {
                first_said.insert(note.clone(), line);
                (line, note)
            }
        })
        .collect()
}

/// The region around `line` to point a hint at: the paragraph (run of
/// non-blank lines) holding it inside `range`, widened to four lines when
/// shorter and cut to eight either side when longer.
fn region(text: &str, line: usize, range: (usize, usize)) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let blank = |n: usize| lines.get(n - 1).is_none_or(|l| l.trim().is_empty());
    let (mut first, mut last) = (line, line);
    while first > range.0 && !blank(first - 1) && line - first < 8 {
        first -= 1;
    }
    while last < range.1 && !blank(last + 1) && last - line < 8 {
        last += 1;
    }
    // At least four lines, so that the region never points at one line.
    while last - first < 3 {
        if last < range.1 {
            last += 1;
        } else if first > range.0 {
            first -= 1;
        } else {
            break;
        }
    }
    (first, last)
}

/// The function's name in a provenance call (`jax.jit(fn)` → `fn`).
fn function_name(call: &str) -> &str {
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
fn target_phrase(target: &str) -> String {
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

/// The entry parameters of the family's function, in order, read from the
/// dump itself or, where it prints none (MLIR, a jaxpr), from one of the
/// family's HLO dumps.
fn params_of<'a>(r: &Ref<'_>, library: &'a Library) -> Vec<&'a crate::analysis::Param> {
    let own = (r.family.to_owned(), r.file.to_owned());
    let found = std::iter::once(&own)
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
fn signature(r: &Ref<'_>, library: &Library, name: &str) -> Option<String> {
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
enum Shown {
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
fn context_of(r: &Ref<'_>, library: &Library, shown: Shown) -> Option<String> {
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
            Some(t) => out.push_str(&format!(", {} with `{call}`", target_phrase(t))),
            None => out.push_str(&format!(", printed with `{call}`")),
        }
    }
    out.push('.');
    Some(out)
}

/// The label of option `kind` for a `classify` question on a dump of
/// `family`: what it is and the call, as the family's provenance records it
/// (the generic call when the family has no dump of that kind).
fn kind_label(kind: &str, family: &str, library: &Library) -> String {
    let Some(&(_, what, generic, _)) = KINDS.iter().find(|(k, ..)| *k == kind) else {
        return kind.to_owned();
    };
    let mut of_family: Vec<(&String, &DumpInfo)> = library
        .iter()
        .filter(|((f, _), d)| f == family && d.kind.as_deref() == Some(kind))
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
fn label_rank(file: &str, d: &DumpInfo) -> (bool, bool, bool) {
    let src = d.provenance.as_ref();
    let variant = src.is_some_and(|p| function_name(&p.call) != "fn");
    let ahead = src.is_some_and(|p| p.call.contains("topo = "));
    (variant, ahead, !file.contains(".cpu."))
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

/// `(id, text)` pairs: option labels or option notes.
type Pairs = Vec<(String, String)>;

fn offered(
    choices: Option<&Vec<String>>,
    table: &[(&str, &str, &str)],
    right: &str,
    cx: &mut Cx<'_>,
) -> Option<(Pairs, Pairs)> {
    let names: Vec<String> = match choices {
        Some(c) => c.clone(),
        None => table.iter().map(|(n, _, _)| (*n).to_owned()).collect(),
    };
    let all: Vec<&str> = table.iter().map(|(n, _, _)| *n).collect();
    let mut ok = true;
    for n in &names {
        if !all.contains(&n.as_str()) {
            cx.error(
                "choices",
                format!("`{n}` is not a choice this question type knows"),
                &format!("use some of: {}", all.join(", ")),
            );
            ok = false;
        }
    }
    if ok && names.len() < 2 {
        cx.error(
            "choices",
            "a question needs at least two choices",
            "add another choice or leave `choices` out for all of them",
        );
        ok = false;
    }
    if ok && !names.iter().any(|n| n == right) {
        cx.error(
            "choices",
            format!("the right answer, `{right}`, is not among the choices"),
            "add it to `choices`",
        );
        ok = false;
    }
    if !ok {
        return None;
    }
    let options = table
        .iter()
        .filter(|(n, _, _)| names.iter().any(|x| x == n))
        .map(|(n, l, _)| ((*n).to_owned(), (*l).to_owned()))
        .collect();
    let notes = table
        .iter()
        .filter(|(n, _, _)| names.iter().any(|x| x == n))
        .map(|(n, _, why)| ((*n).to_owned(), (*why).to_owned()))
        .collect();
    Some((options, notes))
}

fn label_of(table: &[(&str, &str, &str)], name: &str) -> String {
    table
        .iter()
        .find(|(n, _, _)| *n == name)
        .map_or_else(|| name.to_owned(), |(_, l, _)| (*l).to_owned())
}

/// The closest of `names` to `name`, for "did you mean".
fn did_you_mean<'n>(name: &str, names: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    crate::diagnostic::did_you_mean(name, names)
}

/// One counted fact: its value, the instructions counted (line and a note),
/// and likely miscounts.
struct Counted {
    value: usize,
    lines: Vec<(usize, String)>,
    miscounts: Vec<(usize, String)>,
}

fn kernel_note(k: &Kernel) -> String {
    match k.kind {
        KernelKind::Fusion => format!("`{}`: a fusion, one kernel.", k.name),
        KernelKind::CustomCall => format!("`{}`: a custom call, one kernel.", k.name),
        KernelKind::Copy => format!(
            "`{}`: a `{}` moves an array through memory, one kernel.",
            k.name, k.opcode
        ),
        KernelKind::Unfused => format!(
            "`{}`: a `{}` standing on its own, one kernel.",
            k.name, k.opcode
        ),
    }
}

/// Likely miscounts of a kernel count: the fusions alone, the fusions and
/// custom calls without the copies, the `-done` halves of async pairs
/// counted as kernels.
fn kernel_miscounts(kernels: &[&Kernel]) -> Vec<(usize, String)> {
    let of = |k: KernelKind| kernels.iter().filter(|x| x.kind == k).count();
    let (f, c, copies, other) = (
        of(KernelKind::Fusion),
        of(KernelKind::CustomCall),
        of(KernelKind::Copy),
        of(KernelKind::Unfused),
    );
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

fn count_fact(fact: &str, a: &Analysis, range: (usize, usize)) -> Option<Counted> {
    let inside = |l: usize| l >= range.0 && l <= range.1;
    let none = Vec::new;
    // A count of listed items: each one inside the snippet, with its note.
    let listed = |items: Vec<(usize, String)>| Counted {
        value: items.len(),
        lines: items.into_iter().filter(|(l, _)| inside(*l)).collect(),
        miscounts: Vec::new(),
    };
    Some(match fact {
        "entry_fusions" => Counted {
            value: a.entry_fusions,
            lines: a
                .fusions
                .iter()
                .filter(|f| f.in_entry && inside(f.line))
                .map(|f| {
                    (
                        f.line,
                        format!("`{}`: one fusion of kind `{}`.", f.name, f.kind),
                    )
                })
                .collect(),
            miscounts: {
                let k = a.entry_kernels().count();
                if k == a.entry_fusions {
                    none()
                } else {
                    vec![(
                        k,
                        "That counts every kernel of the entry computation; the question asks for `fusion` instructions only.".to_owned(),
                    )]
                }
            },
        },
        "fusions" => Counted {
            value: a.fusions.len(),
            lines: a
                .fusions
                .iter()
                .filter(|f| inside(f.line))
                .map(|f| {
                    (
                        f.line,
                        format!("`{}`: one fusion of kind `{}`.", f.name, f.kind),
                    )
                })
                .collect(),
            miscounts: if a.entry_fusions == a.fusions.len() {
                none()
            } else {
                vec![(
                    a.entry_fusions,
                    "That is the entry computation's fusions; count those in loop bodies and branches too.".to_owned(),
                )]
            },
        },
        "entry_kernels" => {
            let ks: Vec<&Kernel> = a.entry_kernels().collect();
            Counted {
                value: ks.len(),
                lines: ks
                    .iter()
                    .filter(|k| inside(k.line))
                    .map(|k| (k.line, kernel_note(k)))
                    .collect(),
                miscounts: kernel_miscounts(&ks),
            }
        }
        "iteration_kernels" => {
            let ks = a.iteration_kernels();
            let mut miscounts = kernel_miscounts(&ks);
            let bodies: BTreeSet<&str> = a
                .while_loops
                .iter()
                .filter_map(|w| w.body.as_deref())
                .collect();
            let in_body = ks
                .iter()
                .filter(|k| bodies.contains(k.computation.as_str()))
                .count();
            if in_body != ks.len() {
                miscounts.insert(
                    0,
                    (
                        in_body,
                        "That is the body alone: the condition runs each time round too, once more than the body.".to_owned(),
                    ),
                );
            }
            Counted {
                value: ks.len(),
                lines: ks
                    .iter()
                    .filter(|k| inside(k.line))
                    .map(|k| (k.line, kernel_note(k)))
                    .collect(),
                miscounts,
            }
        }
        "custom_calls" => listed(
            a.custom_calls
                .iter()
                .map(|x| {
                    (
                        x.line,
                        format!("`{}`: a custom call to `{}`.", x.name, x.target),
                    )
                })
                .collect(),
        ),
        "while_loops" => listed(
            a.while_loops
                .iter()
                .map(|x| (x.line, format!("`{}`: a `while` loop.", x.name)))
                .collect(),
        ),
        "conditionals" => listed(
            a.conditionals
                .iter()
                .map(|x| (x.line, format!("`{}`: a `conditional`.", x.name)))
                .collect(),
        ),
        "computations" => listed(
            a.computations
                .iter()
                .map(|x| (x.line, format!("`{}`: one computation.", x.name)))
                .collect(),
        ),
        "equations" => Counted {
            value: a.equations.iter().filter(|e| e.depth == 0).count(),
            lines: a
                .equations
                .iter()
                .filter(|e| e.depth == 0 && inside(e.line))
                .map(|e| (e.line, format!("One `{}` equation.", e.primitive)))
                .collect(),
            miscounts: {
                let all = a.equations.len();
                let top = a.equations.iter().filter(|e| e.depth == 0).count();
                if all == top {
                    none()
                } else {
                    vec![(
                        all,
                        "That counts the equations inside sub-jaxprs too; only the top-level ones count.".to_owned(),
                    )]
                }
            },
        },
        _ => return None,
    })
}

/// Whether `fact` applies to a dump of `kind` (with analysis `a`): why not.
fn fact_mismatch(fact: &str, kind: &str, a: &Analysis) -> Option<String> {
    let (_, applies, _) = FACTS.iter().find(|(f, ..)| *f == fact)?;
    let hlo = kind.starts_with("hlo-");
    let ok = match *applies {
        "jaxpr" => kind == "jaxpr",
        "HLO" => hlo,
        _ => hlo && !a.while_loops.is_empty(),
    };
    (!ok).then(|| format!("fact `{fact}` applies to {applies} dumps, and this one is {kind}"))
}

fn number_words(n: usize) -> String {
    match n {
        1 => "one".to_owned(),
        2 => "two".to_owned(),
        3 => "three".to_owned(),
        4 => "four".to_owned(),
        n => n.to_string(),
    }
}

/// What a `(mode, answer, answer text, lit lines)` question resolves to,
/// plus what only some types have.
struct Parts {
    mode: Mode,
    answer: Vec<String>,
    answer_text: String,
    lines: Vec<(usize, String)>,
    need: usize,
    miscounts: Vec<(String, String)>,
    hints: Vec<Hint>,
    /// A line of the shown snippet that proves nothing (for the self-test).
    idle_line: Option<usize>,
}

impl Parts {
    fn single(answer: String, answer_text: String, lines: Vec<(usize, String)>) -> Parts {
        Parts {
            mode: Mode::Single,
            answer: vec![answer],
            answer_text,
            lines,
            need: 0,
            miscounts: Vec::new(),
            hints: Vec::new(),
            idle_line: None,
        }
    }
}

/// The hint of a single-answer question on a dump: the region of its
/// first lit line, with `text`.
fn first_region_hint(r: &Ref<'_>, lines: &[(usize, String)], text: &str) -> Vec<Hint> {
    lines
        .first()
        .map(|(l, _)| {
            let (first, last) = region(&r.dump.text, *l, r.lines);
            Hint {
                first,
                last,
                text: text.replace("{lines}", &span_words(first, last)),
            }
        })
        .into_iter()
        .collect()
}

fn span_words(first: usize, last: usize) -> String {
    if first == last {
        format!("line {first}")
    } else {
        format!("lines {first}\u{2013}{last}")
    }
}

/// The first line of `r`'s range that is not blank and proves nothing of
/// `claim`.
fn idle_line(r: &Ref<'_>, proving: &[(usize, String)]) -> Option<usize> {
    let proving: BTreeSet<usize> = proving.iter().map(|(l, _)| *l).collect();
    r.dump
        .text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .skip(r.lines.0 - 1)
        .take(r.lines.1 - r.lines.0 + 1)
        .find(|(n, l)| !l.trim().is_empty() && !proving.contains(n))
        .map(|(n, _)| n)
}

fn resolve_question(q: &Question, library: &Library, cx: &mut Cx<'_>) -> Option<Resolved> {
    let (id, prompt, explanation) = q.common();
    let mut explanation = explanation.unwrap_or_default().to_owned();
    let mut snippet = None;
    let mut context = None;
    let mut instruction = None;
    let mut candidates = Vec::new();
    let mut options: Vec<(String, String)> = Vec::new();
    let mut option_notes: Vec<(String, String)> = Vec::new();
    let parts = match q {
        Question::Classify(c) => {
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
            if alone != Kind::Unknown && alone.as_str() != kind {
                cx.error(
                    "snippet",
                    format!("this excerpt reads as `{alone}` on its own, but the dump is `{kind}`"),
                    "pick an excerpt whose lines show what the dump is",
                );
            }
            let table: Vec<(&str, &str, &str)> = KINDS
                .iter()
                .map(|(k, what, _, why)| (*k, *what, *why))
                .collect();
            (options, option_notes) = offered(c.choices.as_ref(), &table, &kind, cx)?;
            for (k, label) in &mut options {
                *label = kind_label(k, r.family, library);
            }
            let claims = Kind::ALL
                .into_iter()
                .find(|k| k.as_str() == kind)
                .map(Claim::deciding_kind)
                .unwrap_or_default();
            let lines = merge_lines(claims.into_iter().flat_map(|c| proof_in(&r, c)).collect());
            if lines.is_empty() {
                cx.error(
                    "snippet",
                    format!("no line of this excerpt proves that the dump is `{kind}`, so the question cannot be answered from it"),
                    "choose an excerpt that holds a clue (`mdbook-dumplab analyze` lists them with their lines)",
                );
                return None;
            }
            context = context_of(&r, library, Shown::NoCall);
            snippet = Some(shown);
            let mut p = Parts::single(kind.clone(), kind_label(&kind, r.family, library), lines);
            p.hints = first_region_hint(
                &r,
                &p.lines,
                "Look again at {lines}: they hold a clue that only one of these texts prints.",
            );
            p
        }
        Question::Backend(b) => {
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
            (options, option_notes) = offered(b.choices.as_ref(), &BACKENDS, &backend, cx)?;
            let claim = crate::analysis::Backend::ALL
                .into_iter()
                .find(|x| x.as_str() == backend)
                .map(Claim::of_backend);
            let lines = claim.map(|c| proof_in(&r, c)).unwrap_or_default();
            if lines.is_empty() {
                cx.error(
                    "snippet",
                    format!("no line of this excerpt shows that the dump was compiled for {backend}, so the question cannot be answered from it"),
                    "choose an excerpt that holds a backend clue (`mdbook-dumplab analyze` lists them with their lines)",
                );
                return None;
            }
            context = context_of(&r, library, Shown::NoCall);
            snippet = Some(snippet_of(&r, None));
            let mut p = Parts::single(backend.clone(), label_of(&BACKENDS, &backend), lines);
            p.hints = first_region_hint(
                &r,
                &p.lines,
                "Look again at {lines}: one of them carries something only one backend writes.",
            );
            p
        }
        Question::Evidence(e) => {
            let r = lookup(&e.snippet, library, "snippet", cx)?;
            let claim = match &e.claim {
                Some(name) => match Claim::from_name(name) {
                    Some(c) => c,
                    None => {
                        let hint = match closest_claim(name) {
                            Some(n) => format!(
                                "did you mean `{n}`? The claims: {}",
                                Claim::names().collect::<Vec<_>>().join(", ")
                            ),
                            None => format!(
                                "use one of: {}",
                                Claim::names().collect::<Vec<_>>().join(", ")
                            ),
                        };
                        cx.error(
                            "claim",
                            format!("`{name}` is not a claim the checker knows"),
                            &hint,
                        );
                        return None;
                    }
                },
                None => {
                    let kind = kind_of(r.dump);
                    let Some(c) = Kind::ALL
                        .into_iter()
                        .find(|k| Some(k.as_str()) == kind.as_deref())
                        .and_then(Claim::of_kind)
                    else {
                        cx.error(
                            "snippet",
                            "the dump's kind is unknown, so the question has no claim to prove",
                            "set `claim = \"...\"`",
                        );
                        return None;
                    };
                    c
                }
            };
            let a = r.dump.analysis();
            let inside = |l: usize| l >= r.lines.0 && l <= r.lines.1;
            // An annotation that says its line proves the claim, where the
            // analysis does not see it, would teach a wrong key.
            for ev in &r.dump.evidence {
                if inside(ev.line)
                    && claim.proven_by(&ev.marker)
                    && !a.line_markers.contains(ev.line, &ev.marker)
                {
                    cx.error(
                        "snippet",
                        format!(
                            "line {} of `{}/{}` is annotated `{}`, which proves `{}`, but the checker's analysis does not see `{}` there",
                            ev.line, r.family, r.file, ev.marker, claim.name(), ev.marker
                        ),
                        "fix the annotation's line or marker in the family's fixture.toml (`mdbook-dumplab analyze` lists what each line shows)",
                    );
                }
            }
            let lines = proof_in(&r, claim);
            if lines.is_empty() {
                cx.error(
                    "snippet",
                    format!(
                        "no line of this excerpt proves `{}` ({}), so there is nothing to select",
                        claim.name(),
                        claim.phrase()
                    ),
                    "widen the excerpt, or pick the claim the excerpt shows",
                );
                return None;
            }
            let need = match (claim.select(), e.need) {
                (Select::Every, None) => lines.len(),
                (Select::Every, Some(n)) if n == lines.len() => n,
                (Select::Every, Some(n)) => {
                    cx.error(
                        "need",
                        format!(
                            "claim `{}` asks for every proving line ({} here), not {n}",
                            claim.name(),
                            lines.len()
                        ),
                        "remove `need`: the claim asks for all of them",
                    );
                    return None;
                }
                (Select::Some, None) => lines.len().min(2),
                (Select::Some, Some(n)) if (1..=lines.len()).contains(&n) => n,
                (Select::Some, Some(n)) => {
                    cx.error(
                        "need",
                        format!(
                            "`need = {n}`, but {} line{} of this excerpt prove{} `{}`",
                            lines.len(),
                            if lines.len() == 1 { "" } else { "s" },
                            if lines.len() == 1 { "s" } else { "" },
                            claim.name()
                        ),
                        &if lines.len() == 1 {
                            "remove `need`, or widen the excerpt: one line can only need one"
                                .to_owned()
                        } else {
                            format!("set `need` between 1 and {}", lines.len())
                        },
                    );
                    return None;
                }
            };
            instruction = Some(evidence_text::instruction(claim, need));
            context = context_of(&r, library, Shown::All);
            snippet = Some(snippet_of(&r, None));
            let answer: Vec<String> = lines.iter().map(|(l, _)| l.to_string()).collect();
            let text = if need < answer.len() {
                format!("any {} of lines {}", number_words(need), answer.join(", "))
            } else {
                format!(
                    "line{} {}",
                    if answer.len() == 1 { "" } else { "s" },
                    answer.join(", ")
                )
            };
            let proving: Vec<usize> = lines.iter().map(|(l, _)| *l).collect();
            let hints = evidence_text::hints(&r.dump.text, r.lines, &proving, claim);
            let idle = idle_line(&r, &lines);
            Parts {
                mode: Mode::Lines,
                answer,
                answer_text: text,
                lines,
                need,
                miscounts: Vec::new(),
                hints,
                idle_line: idle,
            }
        }
        Question::Count(c) => {
            let r = lookup(&c.snippet, library, "snippet", cx)?;
            let a = r.dump.analysis();
            let Some(counted) = count_fact(&c.fact, a, r.lines) else {
                let names = FACTS.iter().map(|(f, ..)| *f);
                let hint = match did_you_mean(&c.fact, names.clone()) {
                    Some(n) => format!(
                        "did you mean `{n}`? The facts: {}",
                        names.collect::<Vec<_>>().join(", ")
                    ),
                    None => format!("use one of: {}", names.collect::<Vec<_>>().join(", ")),
                };
                cx.error(
                    "fact",
                    format!("`{}` is not a fact the checker counts", c.fact),
                    &hint,
                );
                return None;
            };
            let kind = kind_of(r.dump).unwrap_or_else(|| "unknown".to_owned());
            if let Some(why) = fact_mismatch(&c.fact, &kind, a) {
                let fitting: Vec<&str> = FACTS
                    .iter()
                    .filter(|(f, ..)| fact_mismatch(f, &kind, a).is_none())
                    .map(|(f, ..)| *f)
                    .collect();
                cx.error(
                    "fact",
                    why,
                    &format!(
                        "ask for a fact of this dump ({}), or show a dump the fact applies to",
                        if fitting.is_empty() {
                            "none applies".to_owned()
                        } else {
                            fitting.join(", ")
                        }
                    ),
                );
                return None;
            }
            context = context_of(&r, library, Shown::All);
            snippet = Some(snippet_of(&r, None));
            let lines = merge_lines(counted.lines);
            let what = FACTS
                .iter()
                .find(|(f, ..)| *f == c.fact)
                .map_or("", |(_, _, w)| *w);
            let hints = if lines.is_empty() {
                Vec::new()
            } else {
                let first = lines.first().map_or(r.lines.0, |(l, _)| *l);
                let last = lines.last().map_or(r.lines.1, |(l, _)| *l);
                vec![Hint {
                    first,
                    last,
                    text: format!(
                        "Everything counted is in {}. The count is of {what}.",
                        span_words(first, last)
                    ),
                }]
            };
            let mut miscounts: Vec<(String, String)> = Vec::new();
            for (n, why) in counted.miscounts {
                let n = n.to_string();
                if n != counted.value.to_string() && !miscounts.iter().any(|(m, _)| *m == n) {
                    miscounts.push((n, why));
                }
            }
            Parts {
                mode: Mode::Number,
                answer: vec![counted.value.to_string()],
                answer_text: counted.value.to_string(),
                lines,
                need: 0,
                miscounts,
                hints,
                idle_line: None,
            }
        }
        Question::Pair(p) => {
            let r = lookup(&p.snippet, library, "snippet", cx)?;
            if !(2..=4).contains(&p.candidates.len()) {
                cx.error(
                    "candidates",
                    format!(
                        "a pair question needs 2 to 4 candidates, not {}",
                        p.candidates.len()
                    ),
                    "list two to four compiled snippets",
                );
                return None;
            }
            let mut right = None;
            let mut families = BTreeSet::new();
            let mut answer = Vec::new();
            let shapes = |r: &Ref<'_>| -> Vec<String> {
                params_of(r, library)
                    .iter()
                    .map(|p| p.shape.clone())
                    .collect()
            };
            let mut refs = Vec::new();
            for c in &p.candidates {
                refs.push(lookup(c, library, "candidates", cx)?);
            }
            // Where every candidate takes the lowered module's shapes, only
            // the operations can tell them apart: the notes say so.
            let same_shapes = refs.iter().all(|c| shapes(c) == shapes(&r));
            let (same, other, compare) = if same_shapes {
                (
                    "Same function: the operations of the lowered module are all here, fused or not.",
                    "Another function with the same shapes: compare its operations with the lowered module's.",
                    "Every dump takes the lowered module's shapes: compare the operations each one computes (reductions, opcodes inside the fused computations) with the lowered module's.",
                )
            } else {
                (
                    "Same function: the parameter shapes and the operations of the lowered module are all here, fused or not.",
                    "Another function: compare its parameter shapes and operations with the lowered module's.",
                    "Compare the parameter and result shapes of the lowered module with each dump's `ENTRY` signature first.",
                )
            };
            for (i, c) in refs.into_iter().enumerate() {
                let letter = char::from(b'A' + i as u8);
                let opt = letter.to_ascii_lowercase().to_string();
                if !families.insert(c.family) {
                    cx.error(
                        "candidates",
                        format!("two candidates come from family `{}`", c.family),
                        "take each candidate from a different family",
                    );
                    return None;
                }
                if c.family == r.family {
                    right = Some(letter);
                    answer.push(opt.clone());
                    option_notes.push((opt.clone(), same.to_owned()));
                } else {
                    option_notes.push((opt.clone(), other.to_owned()));
                }
                options.push((opt, format!("Dump {letter}")));
                candidates.push(snippet_of(&c, Some(format!("Dump {letter}"))));
            }
            let Some(letter) = right else {
                cx.error(
                    "candidates",
                    format!(
                        "no candidate comes from the snippet's family `{}`",
                        r.family
                    ),
                    "add the compiled dump of the same family",
                );
                return None;
            };
            context = context_of(&r, library, Shown::NoFile);
            snippet = Some(snippet_of(&r, None));
            let mut p = Parts::single(answer.remove(0), format!("Dump {letter}"), Vec::new());
            p.hints = vec![Hint {
                first: r.lines.0,
                last: r.lines.1,
                text: compare.to_owned(),
            }];
            p
        }
        Question::Choice(c) => {
            if let Some(s) = &c.snippet {
                let r = lookup(s, library, "snippet", cx)?;
                context = context_of(&r, library, Shown::All);
                snippet = Some(snippet_of(&r, None));
            }
            if !(2..=6).contains(&c.option.len()) {
                cx.error(
                    "option",
                    format!(
                        "a choice question needs 2 to 6 options, not {}",
                        c.option.len()
                    ),
                    "add or remove `[[question.option]]` tables",
                );
                return None;
            }
            let right: Vec<usize> = c
                .option
                .iter()
                .enumerate()
                .filter(|(_, o)| o.correct)
                .map(|(i, _)| i)
                .collect();
            if right.len() != 1 {
                cx.error(
                    "option",
                    format!(
                        "a choice question needs exactly one option with `correct = true`, not {}",
                        right.len()
                    ),
                    "mark the one right option `correct = true`",
                );
                return None;
            }
            for (i, o) in c.option.iter().enumerate() {
                // The verdict already says right or wrong: a note that says
                // it again reads "Correct: ... Right: ...".
                let first = o.why.split([':', ',', '.', ' ']).next().unwrap_or("");
                if ["Right", "Correct", "Wrong", "Incorrect", "Yes", "No"].contains(&first) {
                    let start = cx.span.start.min(cx.source.len());
                    let rest = &cx.source[start..];
                    let end = rest[1.min(rest.len())..]
                        .find("\n[[question]]")
                        .map_or(rest.len(), |e| e + 1);
                    let at = rest[..end]
                        .find(o.why.as_str())
                        .map_or(start, |p| start + p);
                    let d = Diagnostic::error_at(
                        cx.file,
                        cx.source,
                        at,
                        format!("option {}'s `why` starts with \"{first}\", which the verdict already says", i + 1),
                    )
                    .with_hint("start with the reason itself; the page prints \"Correct\" or \"Not this one\" before it");
                    cx.diags.push(d);
                }
                let opt = char::from(b'a' + i as u8).to_string();
                options.push((opt.clone(), o.text.clone()));
                option_notes.push((opt, o.why.clone()));
            }
            let i = right[0];
            let right_option = &c.option[i];
            if explanation.is_empty() {
                explanation = right_option.why.clone();
            }
            Parts::single(
                char::from(b'a' + i as u8).to_string(),
                right_option.text.clone(),
                Vec::new(),
            )
        }
    };
    let key = Key {
        mode: parts.mode,
        answer: parts.answer,
        answer_text: parts.answer_text,
        options: option_notes,
        lines: parts.lines,
        explanation,
        need: parts.need,
        miscounts: parts.miscounts,
        hints: parts.hints,
    };
    let mut fields: Vec<&str> = vec![id, q.type_name(), prompt];
    fields.extend(context.as_deref());
    fields.extend(instruction.as_deref());
    let snippet_texts: Vec<&str> = snippet
        .iter()
        .chain(candidates.iter())
        .map(|s| s.text.as_str())
        .collect();
    fields.extend(snippet_texts);
    let option_labels: Vec<&str> = options.iter().map(|(_, l)| l.as_str()).collect();
    fields.extend(option_labels);
    let encoded = key.encode();
    fields.push(&encoded);
    let hash = hash_fields(&fields);
    let sealed = seal(id, &hash, &encoded);
    let resolved = Resolved {
        id: id.to_owned(),
        type_name: q.type_name(),
        prompt: prompt.to_owned(),
        context,
        instruction,
        mode: parts.mode,
        snippet,
        candidates,
        options,
        hash,
        sealed,
        key,
    };
    for problem in self_test(&resolved, parts.idle_line) {
        cx.error(
            "id",
            format!("self-test of `{id}`: {problem}"),
            "the key and the grader disagree; fix the question (or report the checker bug this shows)",
        );
    }
    Some(resolved)
}

/// Grades a resolved question against its own sealed key, as the page
/// would: the key must grade right; every other option wrong; a count one
/// off wrong; for an evidence question, the key's lines right, too few of
/// them not right, and a line that proves nothing not right. Returns what
/// failed, one sentence each.
pub fn self_test(q: &Resolved, idle_line: Option<usize>) -> Vec<String> {
    let mut problems = Vec::new();
    let mut expect = |answer: &str, ok: &dyn Fn(Outcome) -> bool, what: &str| match grade(
        &q.id, &q.hash, &q.sealed, answer,
    ) {
        Ok(v) if ok(v.outcome) => {}
        Ok(v) => problems.push(format!("{what} (`{answer}`) grades {}", v.outcome.as_str())),
        Err(e) => problems.push(format!("{what}: {e}")),
    };
    let right = |o: Outcome| o == Outcome::Correct;
    let not_right = |o: Outcome| matches!(o, Outcome::Wrong | Outcome::Partial);
    let wrong = |o: Outcome| o == Outcome::Wrong;
    match q.mode {
        Mode::Single => {
            let key = q.key.answer.first().cloned().unwrap_or_default();
            expect(&key, &right, "the key");
            for (opt, _) in &q.options {
                if *opt != key {
                    expect(opt, &wrong, "a wrong option");
                }
            }
        }
        Mode::Number => {
            let key = q.key.answer.first().cloned().unwrap_or_default();
            expect(&key, &right, "the key");
            if let Ok(n) = key.parse::<u64>() {
                expect(&(n + 1).to_string(), &wrong, "a count one too high");
            }
            for (n, _) in &q.key.miscounts {
                expect(n, &wrong, "a likely miscount");
            }
        }
        Mode::Lines => {
            let all = q.key.answer.join(",");
            expect(&all, &right, "every right line");
            let enough = q.key.answer.get(..q.key.need).unwrap_or_default().join(",");
            expect(&enough, &right, "as many right lines as needed");
            if q.key.need > 1 {
                let fewer = q
                    .key
                    .answer
                    .get(..q.key.need - 1)
                    .unwrap_or_default()
                    .join(",");
                expect(&fewer, &not_right, "one right line too few");
            }
            if let Some(idle) = idle_line {
                expect(&idle.to_string(), &wrong, "a line that proves nothing");
                expect(
                    &format!("{all},{idle}"),
                    &not_right,
                    "the right lines and one that proves nothing",
                );
            }
        }
    }
    problems
}

mod evidence_text;

#[cfg(test)]
mod tests;
