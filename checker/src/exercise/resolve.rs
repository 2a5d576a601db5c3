//! Validating an exercise file against the fixtures and resolving each
//! question into what the page shows plus its sealed key.
//!
//! Keys are never typed by hand: a `classify` key is the dump's annotated
//! kind, a `backend` key its annotated backend, an `evidence` key the
//! annotated evidence lines inside the excerpt, a `count` key what
//! [`crate::analyze`] counts in the whole dump, a `pair` key the candidate
//! from the snippet's family. Where a dump has no annotation yet, the
//! checker's own analysis stands in. Every problem is collected as a
//! [`Diagnostic`] pointing at the offending key of the exercise file.

use super::key::{Key, Mode};
use super::model::{ExerciseFile, Question};
use super::seal::{hash_fields, seal};
use crate::analysis::{Kind, analyze};
use crate::diagnostic::Diagnostic;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

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
}

/// The fixtures, keyed by `(family, file)`.
pub type Library = BTreeMap<(String, String), DumpInfo>;

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

/// The kinds a `classify` question can offer, with their labels and what
/// gives each away.
pub const KINDS: [(&str, &str, &str); 4] = [
    (
        "jaxpr",
        "jaxpr: `jax.make_jaxpr(f)(x)`",
        "A jaxpr reads `{ lambda ; a:f32[...]. let ... in (...) }`: short variable names, one primitive per equation, no `%` names and no `HloModule`.",
    ),
    (
        "stablehlo",
        "lowered StableHLO: `jax.jit(f).lower(x).as_text()`",
        "Lowered StableHLO is MLIR: a `module @jit_...` with `func.func public @main` and `stablehlo.` operations on `tensor<...>` types.",
    ),
    (
        "hlo-unoptimized",
        "lowered HLO: `lower(x).as_text(dialect=\"hlo\")`",
        "The lowered-HLO look-alike is HLO text with an `HloModule` header, but nothing is decided yet: no `is_scheduled=true`, no `fusion` instructions, only default layouts.",
    ),
    (
        "hlo-optimized",
        "compiled HLO: `lower(x).compile().as_text()`",
        "Compiled HLO shows the backend's decisions: `is_scheduled=true` in the header, `fusion` instructions and fused computations, backend configs and custom calls.",
    ),
];

/// The backends a `backend` question can offer, with labels and tells.
pub const BACKENDS: [(&str, &str, &str); 3] = [
    (
        "cpu",
        "CPU",
        "XLA:CPU dumps have no tiled layouts and no GPU `backend_config`s; library calls go to CPU runtimes such as oneDNN or Eigen.",
    ),
    (
        "gpu",
        "GPU",
        "XLA:GPU dumps carry GPU `backend_config`s (launch dimensions, `__cublas$gemm`, Triton fusions) on their fusions and custom calls.",
    ),
    (
        "tpu",
        "TPU",
        "XLA:TPU dumps show tiled layouts such as `{1,0:T(8,128)}` and memory-space annotations such as `S(1)`.",
    ),
];

/// The facts a `count` question can ask about.
pub const FACTS: [&str; 7] = [
    "entry_fusions",
    "fusions",
    "custom_calls",
    "while_loops",
    "conditionals",
    "computations",
    "equations",
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
            // serde reports an unknown field at its table; point at the field.
            if let Some(field) = message
                .strip_prefix("unknown field `")
                .and_then(|m| m.split('`').next())
            {
                offset = key_offset(source, offset.min(source.len()), field).unwrap_or(offset);
            }
            return (
                Vec::new(),
                vec![
                    Diagnostic::error_at(file, source, offset, message)
                        .with_hint("see the exercise format in `checker/src/exercise/model.rs` (type, id, prompt, snippet, ...)"),
                ],
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
        if let Some(rest) = trimmed.strip_prefix(key) {
            if rest.trim_start().starts_with('=') {
                return Some(pos + (line.len() - trimmed.len()));
            }
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

    fn warning(&mut self, key: &str, message: impl Into<String>, hint: &str) {
        let (line, column) = crate::diagnostic::line_column(self.source, self.offset_of(key));
        self.diags
            .push(Diagnostic::warning(self.file, line, column, message).with_hint(hint));
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
        let hint = if families.contains(family) {
            let files: Vec<&str> = library
                .keys()
                .filter(|(f, _)| f == family)
                .map(|(_, d)| d.as_str())
                .collect();
            format!("family `{family}` has: {}", files.join(", "))
        } else {
            format!(
                "known families: {}",
                families.into_iter().collect::<Vec<_>>().join(", ")
            )
        };
        cx.error(
            key,
            format!("snippet `{reference}`: no dump `{file}` in fixture family `{family}`"),
            &hint,
        );
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
                let hint = if names.is_empty() {
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
    if lines.0 == 0 || lines.0 > lines.1 || lines.1 > total {
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

/// Annotated evidence inside the reference's range (or, without
/// annotations, the checker's own evidence there), filtered by `markers`.
fn evidence_in(r: &Ref<'_>, markers: Option<&[String]>) -> Vec<(usize, String)> {
    let keep = |m: &str| markers.is_none_or(|ms| ms.iter().any(|x| x == m));
    let inside = |l: usize| l >= r.lines.0 && l <= r.lines.1;
    let out: Vec<(usize, String)> = if r.dump.evidence.is_empty() {
        analyze(&r.dump.text)
            .evidence
            .into_iter()
            .filter(|e| inside(e.line) && keep(e.marker))
            .map(|e| (e.line, e.note))
            .collect()
    } else {
        r.dump
            .evidence
            .iter()
            .filter(|e| inside(e.line) && keep(&e.marker))
            .map(|e| (e.line, e.note.clone()))
            .collect()
    };
    merge_lines(out)
}

/// Sorts by line and joins the notes of one line (several markers may sit
/// on it) into one.
fn merge_lines(mut lines: Vec<(usize, String)>) -> Vec<(usize, String)> {
    lines.sort_by_key(|(l, _)| *l);
    let mut out: Vec<(usize, String)> = Vec::new();
    for (line, note) in lines {
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

fn kind_of(dump: &DumpInfo) -> Option<String> {
    dump.kind.clone().or_else(|| {
        let k = analyze(&dump.text).kind;
        (k != Kind::Unknown).then(|| k.as_str().to_owned())
    })
}

fn backend_of(dump: &DumpInfo) -> Option<String> {
    dump.backend
        .clone()
        .or_else(|| analyze(&dump.text).backend.map(|b| b.as_str().to_owned()))
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

fn resolve_question(q: &Question, library: &Library, cx: &mut Cx<'_>) -> Option<Resolved> {
    let (id, prompt, explanation) = q.common();
    let mut explanation = explanation.unwrap_or_default().to_owned();
    let mut snippet = None;
    let mut candidates = Vec::new();
    let mut options: Vec<(String, String)> = Vec::new();
    let mut option_notes: Vec<(String, String)> = Vec::new();
    let (mode, answer, answer_text, lines) = match q {
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
            (options, option_notes) = offered(c.choices.as_ref(), &KINDS, &kind, cx)?;
            let lines = evidence_in(&r, None);
            if lines.is_empty() {
                cx.warning(
                    "snippet",
                    "no evidence line falls inside this excerpt",
                    "choose an excerpt that holds a clue, or annotate one",
                );
            }
            snippet = Some(shown);
            (
                Mode::Single,
                vec![kind.clone()],
                label_of(&KINDS, &kind),
                lines,
            )
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
            let lines = evidence_in(&r, None);
            snippet = Some(snippet_of(&r, None));
            (
                Mode::Single,
                vec![backend.clone()],
                label_of(&BACKENDS, &backend),
                lines,
            )
        }
        Question::Evidence(e) => {
            let r = lookup(&e.snippet, library, "snippet", cx)?;
            let lines = evidence_in(&r, e.markers.as_deref());
            if lines.is_empty() {
                cx.error("snippet", "no annotated evidence line falls inside this excerpt, so there is nothing to select", "widen the excerpt, change `markers`, or annotate evidence lines in the fixture");
                return None;
            }
            // A line the checker sees with an asked-for marker, but the
            // annotations leave out, would be graded wrong: say so.
            if let Some(markers) = e.markers.as_deref().filter(|_| !r.dump.evidence.is_empty()) {
                let inside = |l: usize| l >= r.lines.0 && l <= r.lines.1;
                for ev in analyze(&r.dump.text).evidence {
                    if inside(ev.line)
                        && markers.iter().any(|m| m == ev.marker)
                        && !lines.iter().any(|(l, _)| *l == ev.line)
                    {
                        cx.warning(
                            "snippet",
                            format!("line {} of `{}/{}` shows `{}` but is not annotated, so a learner who selects it is told it is wrong", ev.line, r.family, r.file, ev.marker),
                            "annotate the line in the fixture, or pick an excerpt without it",
                        );
                    }
                }
            }
            snippet = Some(snippet_of(&r, None));
            let answer: Vec<String> = lines.iter().map(|(l, _)| l.to_string()).collect();
            let text = format!(
                "line{} {}",
                if answer.len() == 1 { "" } else { "s" },
                answer.join(", ")
            );
            (Mode::Lines, answer, text, lines)
        }
        Question::Count(c) => {
            let r = lookup(&c.snippet, library, "snippet", cx)?;
            let a = analyze(&r.dump.text);
            let value = match c.fact.as_str() {
                "entry_fusions" => a.entry_fusions,
                "fusions" => a.fusions.len(),
                "custom_calls" => a.custom_calls.len(),
                "while_loops" => a.while_loops.len(),
                "conditionals" => a.conditionals.len(),
                "computations" => a.computations.len(),
                "equations" => a.equations.iter().filter(|e| e.depth == 0).count(),
                other => {
                    cx.error(
                        "fact",
                        format!("`{other}` is not a fact the checker counts"),
                        &format!("use one of: {}", FACTS.join(", ")),
                    );
                    return None;
                }
            };
            snippet = Some(snippet_of(&r, None));
            // Light up what was counted, where the excerpt shows it.
            let inside = |l: usize| l >= r.lines.0 && l <= r.lines.1;
            let counted: Vec<(usize, String)> = match c.fact.as_str() {
                "entry_fusions" | "fusions" => a
                    .fusions
                    .iter()
                    .filter(|f| inside(f.line) && (f.in_entry || c.fact == "fusions"))
                    .map(|f| {
                        (
                            f.line,
                            format!("`{}`: one fusion of kind `{}`, one kernel.", f.name, f.kind),
                        )
                    })
                    .collect(),
                "custom_calls" => a
                    .custom_calls
                    .iter()
                    .filter(|x| inside(x.line))
                    .map(|x| {
                        (
                            x.line,
                            format!("`{}`: a custom call to `{}`.", x.name, x.target),
                        )
                    })
                    .collect(),
                "while_loops" => a
                    .while_loops
                    .iter()
                    .filter(|x| inside(x.line))
                    .map(|x| (x.line, format!("`{}`: a `while` loop.", x.name)))
                    .collect(),
                _ => Vec::new(),
            };
            (
                Mode::Number,
                vec![value.to_string()],
                value.to_string(),
                merge_lines(counted),
            )
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
            for (i, c) in p.candidates.iter().enumerate() {
                let c = lookup(c, library, "candidates", cx)?;
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
                    option_notes.push((opt.clone(), "Same function: the operations of the lowered module are all here, fused or not.".to_owned()));
                } else {
                    option_notes.push((opt.clone(), "Another function: compare the shapes and the operations with the lowered module.".to_owned()));
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
            snippet = Some(snippet_of(&r, None));
            (Mode::Single, answer, format!("Dump {letter}"), Vec::new())
        }
        Question::Choice(c) => {
            if let Some(s) = &c.snippet {
                let r = lookup(s, library, "snippet", cx)?;
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
                let opt = char::from(b'a' + i as u8).to_string();
                options.push((opt.clone(), o.text.clone()));
                option_notes.push((opt, o.why.clone()));
            }
            let i = right[0];
            let right_option = &c.option[i];
            if explanation.is_empty() {
                explanation = right_option.why.clone();
            }
            (
                Mode::Single,
                vec![char::from(b'a' + i as u8).to_string()],
                right_option.text.clone(),
                Vec::new(),
            )
        }
    };
    let key = Key {
        mode,
        answer,
        answer_text,
        options: option_notes,
        lines,
        explanation,
    };
    let mut fields: Vec<&str> = vec![id, q.type_name(), prompt];
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
    Some(Resolved {
        id: id.to_owned(),
        type_name: q.type_name(),
        prompt: prompt.to_owned(),
        mode,
        snippet,
        candidates,
        options,
        hash,
        sealed,
        key,
    })
}

#[cfg(test)]
mod tests;
