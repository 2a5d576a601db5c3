//! The playground page's one question, "what is this dump?", answered as
//! JSON for the page: the analysis' verdict with the lines that decided it
//! (their text, note and the chapter that teaches the clue) and the source
//! map of the dump alone (kernels of compiled HLO, ops per source line of a
//! lowered dump), or of two dumps together.
//!
//! Written by hand (the wasm build has no serde). Requests are bytes, so a
//! file the page reads goes to the checker without being decoded first:
//!
//! - `inspect\n` then the dump;
//! - `map\n`, the lowered dump's length in bytes, `\n`, then the lowered
//!   dump immediately followed by the compiled one;
//! - `cost\n`, a chip preset name (or nothing, for the default), `\n`,
//!   then a compiled dump: the reply is the cost report, as
//!   `mdbook-dumplab cost --json` prints it, or `{"error": ...}` with the
//!   command line's sentence;
//! - `collectives\n`, a chip preset name (or nothing, for the default),
//!   `\n`, then a compiled dump: the reply is the collectives report, as
//!   `mdbook-dumplab collectives --json` prints it, or `{"error": ...}`.
//! - `diff\n`, a chip preset name (or nothing), `\n`, the first dump's
//!   length in bytes, `\n`, then the first dump immediately followed by the
//!   second: the reply is the diff, as `mdbook-dumplab diff --json` prints
//!   it, or `{"error": ..., "compiled_side": ...}` with the command line's
//!   sentence and, for a compiled dump beside a lowered one (the pair the
//!   source map reads), `"A"` or `"B"`: the compiled one (else null);
//! - `folder-index\n` then one line per file, `<size>\t<path>`: the dump
//!   folder's index, as `folder --json` prints it but with every `changed`,
//!   `delta` and `memory` null (names only, see [`crate::folder::json`]);
//! - `folder-module\n<module id>\n` then records `<path>\n<byte length>\n<text>`
//!   for that module's files: `{"module": {...}}`, the module's object as
//!   `folder --json` prints it (a text that is not UTF-8 is listed, not
//!   parsed);
//! - `folder-first\n<module id>\n<query>\n` then the same records: the
//!   first file of the module (`before_optimizations`, then the numbered
//!   files by step) where the query is an instruction's name, an opcode or
//!   a fusion kind: the object `folder --json --first` prints
//!   ([`crate::folder::json::first_json`]), `{"query", "module", "found":
//!   {"path", "step", "pipeline", "pass", "next", "matched", "count",
//!   "instructions": [{"name", "line"}], "previous", "unread_before":
//!   [path]} | null, "final", "unread": [path]}`: `unread_before` names the
//!   files sent that are not text and lie between the last file read
//!   without the query and the hit (the query may first be in one of
//!   them), `unread` every story file not read;
//! - `line-diff\n`, the first text's length in bytes, `\n`, then the first
//!   text immediately followed by the second: the bounded line diff of two
//!   files of a dump folder, [`crate::folder::linediff`]'s JSON.
//! - `why\n`, a backend name (`cpu`, `gpu`, `tpu`, or nothing: the text's
//!   own, if it names one), `\n`, then any text (a compiled module, a
//!   fragment, HLO before optimization, a memory text): the reply is
//!   [`crate::why::json::to_json`] of [`crate::why::why`] on that one text,
//!   as `mdbook-dumplab why --json` prints it, or `{"error": ...}` with the
//!   command line's sentence (a backend the text contradicts, an unknown
//!   backend name).
//!
//! Replies are one JSON object: `{"error": "..."}` for a request that is not
//! text, else for `inspect` `{kind, dialect, backend, backend_basis,
//! backend_reason, backend_guess, reason, kind_rule, kind_guess, kind_guess_rule, kind_likely,
//! unwrapped: [{what, lines, first_line,
//! note}], pasted_modules (the lines where a module starts, when there are
//! two or more), lines, repaired_lines, evidence: [{line, repaired_line, start,
//! end, marker, note, chapter, text}], map}` (the fields as `analyze --json`
//! has them; `map` as `mdbook-dumplab map --json` prints it, see
//! [`crate::analysis`], or null when the kind has none), and for compiled
//! HLO whose entry has control flow `control` (see [`push_control`]). A repaired paste is
//! shown as the analysis read it: `repaired_lines` counts the repaired text's
//! lines (`lines` the pasted ones; the two are equal for a clean paste), an
//! evidence's `text` is its repaired line (number `repaired_line`) with
//! `start..end` the clue's 1-based character columns on it, while `line`
//! stays the pasted line it starts on; the map's lines are the repaired
//! text's. For `map` the reply is the map object.

use crate::analysis::markers;
use crate::analysis::unwrap::LineMap;
use crate::analysis::{Evidence, Kind, analyze, unwrap};
use crate::kernels::{Kernel, KernelTree, Region, RegionRole};
use crate::sourcemap::{self, json::push_str};
use std::fmt::Write;

/// Deciding evidence lines sent to the page at most.
const MAX_EVIDENCE: usize = 48;
/// Characters of an evidence line's text sent to the page at most.
const MAX_LINE_CHARS: usize = 240;
/// Characters kept past a clue that lies further along its line.
const MARK_CONTEXT: usize = 40;

/// The chapter (page of the book) that teaches a marker: its row's in the
/// marker table ([`crate::analysis::markers`]); `hlo.html` for a name that is
/// no marker (the analysis reports none such).
pub fn chapter_of(marker: &str) -> &'static str {
    markers::marker_chapter(marker).map_or("hlo.html", markers::Chapter::page)
}

fn error(msg: &str) -> String {
    let mut s = String::from("{\"error\":");
    push_str(&mut s, msg);
    s.push('}');
    s
}

/// A request of a chip line, then a dump (`cost`, `collectives`): the chip
/// asked for (none on an empty line) and the dump's text, or the reply to
/// a malformed request.
fn chip_and_dump<'b>(body: &'b [u8], what: &str) -> Result<(Option<&'b str>, String), String> {
    let Some(nl) = body.iter().position(|&b| b == b'\n') else {
        return Err(error(&format!(
            "malformed request: `{what}` needs a chip line (empty for the default)"
        )));
    };
    let chip = std::str::from_utf8(body.get(..nl).unwrap_or(&[]))
        .unwrap_or("")
        .trim();
    let text = text_of(body.get(nl + 1..).unwrap_or(&[]), "This file")?;
    Ok(((!chip.is_empty()).then_some(chip), text))
}

fn text_of(bytes: &[u8], what: &str) -> Result<String, String> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_owned()),
        Err(e) => Err(error(&format!(
            "{what} is not UTF-8 text (byte {} is not): is it a binary file? Paste or pick a text dump: a jaxpr, StableHLO or HLO.",
            e.valid_up_to() + 1
        ))),
    }
}

/// Answers one request (see the module docs).
pub fn respond(request: &[u8]) -> String {
    let Some(nl) = request.iter().position(|&b| b == b'\n') else {
        return error("malformed request: expected `inspect` or `map` and a newline");
    };
    let (head, body) = request.split_at(nl);
    let body = body.get(1..).unwrap_or(&[]);
    match head {
        b"inspect" => match std::str::from_utf8(body) {
            Ok(text) => inspect(text),
            Err(_) => text_of(body, "This file").unwrap_or_else(|e| e),
        },
        b"map" => {
            let Some(nl) = body.iter().position(|&b| b == b'\n') else {
                return error("malformed request: `map` needs the lowered dump's length");
            };
            let rest = body.get(nl + 1..).unwrap_or(&[]);
            let Some((lowered, compiled)) = split_at_len(body.get(..nl).unwrap_or(&[]), rest)
            else {
                return error("malformed request: the lowered dump's length is wrong");
            };
            let lowered = match text_of(lowered, "The lowered dump") {
                Ok(s) => s,
                Err(e) => return e,
            };
            let compiled = match text_of(compiled, "The compiled dump") {
                Ok(s) => s,
                Err(e) => return e,
            };
            sourcemap::json::to_json(&sourcemap::map(&lowered, &compiled))
        }
        b"cost" => match chip_and_dump(body, "cost") {
            Ok((asked, text)) => {
                crate::cost::report::with_report(&text, asked, crate::cost::json::to_json)
                    .unwrap_or_else(|e| error(&e))
            }
            Err(reply) => reply,
        },
        b"collectives" => match chip_and_dump(body, "collectives") {
            Ok((asked, text)) => crate::collectives::report::with_report(
                &text,
                asked,
                crate::collectives::json::to_json,
            )
            .unwrap_or_else(|e| error(&e)),
            Err(reply) => reply,
        },
        b"diff" => diff(body),
        b"explain" => explain(body),
        b"folder-index" => folder_index(body),
        b"folder-module" => folder_module(body),
        b"folder-first" => folder_first(body),
        b"line-diff" => line_diff(body),
        b"why" => why(body),
        _ => error(
            "malformed request: expected `inspect`, `map`, `cost`, `collectives`, `diff`, `explain`, `folder-index`, `folder-module`, `folder-first`, `line-diff` or `why`",
        ),
    }
}

/// Two dumps sent one after the other: the first `len` (a decimal line)
/// bytes of `rest`, and the rest; `None` when `len` is no length of it.
fn split_at_len<'r>(len: &[u8], rest: &'r [u8]) -> Option<(&'r [u8], &'r [u8])> {
    let n = std::str::from_utf8(len).ok()?.parse::<usize>().ok()?;
    Some((rest.get(..n)?, rest.get(n..)?))
}

/// The `<path>\n<length>\n<text>` records of a module's files.
fn records(mut rest: &[u8]) -> Result<Vec<crate::folder::Input<'_>>, String> {
    let mut inputs = Vec::new();
    while !rest.is_empty() {
        let mut head = rest.splitn(3, |&b| b == b'\n');
        let (Some(path), Some(len), Some(tail)) = (head.next(), head.next(), head.next()) else {
            return Err(error(
                "malformed request: a file record needs its name and byte length lines",
            ));
        };
        let Ok(path) = std::str::from_utf8(path) else {
            return Err(error("malformed request: a file name is not UTF-8 text"));
        };
        let Some((text, after)) = split_at_len(len, tail) else {
            return Err(error(&format!(
                "malformed request: the byte length of {path} is wrong"
            )));
        };
        let size = text.len() as u64;
        let text = std::str::from_utf8(text).ok().filter(|t| !t.contains('\0'));
        inputs.push(crate::folder::Input {
            path,
            size,
            text,
            unread: None,
        });
        rest = after;
    }
    Ok(inputs)
}

/// `folder-first\n<id>\n<query>\n` then records: where the query first
/// appears in the module's story.
fn folder_first(body: &[u8]) -> String {
    let mut parts = body.splitn(3, |&b| b == b'\n');
    let (Some(id), Some(query), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return error("malformed request: `folder-first` needs a module id line and a query line");
    };
    let (Ok(id), Ok(query)) = (std::str::from_utf8(id), std::str::from_utf8(query)) else {
        return error("malformed request: the module id or the query is not UTF-8 text");
    };
    let inputs = match records(rest) {
        Ok(i) => i,
        Err(e) => return e,
    };
    let folder = crate::folder::read_inputs(&inputs, &crate::folder::Limits::default());
    let Some(m) = folder.index.modules.iter().position(|m| m.module.id == id) else {
        return error(&format!(
            "no module {id} among the files sent: send that module's files with its id"
        ));
    };
    crate::folder::json::first_json(&folder, m, query.trim())
}

/// `line-diff\n` LEN `\n` A B: the line diff of two texts.
fn line_diff(body: &[u8]) -> String {
    use crate::folder::linediff;
    let Some(nl) = body.iter().position(|&b| b == b'\n') else {
        return error("malformed request: `line-diff` needs the first text's length");
    };
    let rest = body.get(nl + 1..).unwrap_or(&[]);
    let Some((a, b)) = split_at_len(body.get(..nl).unwrap_or(&[]), rest) else {
        return error("malformed request: the first text's length is wrong");
    };
    let (a, b) = match (text_of(a, "The file before"), text_of(b, "The file")) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    linediff::write_json(&linediff::diff(&a, &b, linediff::Limits::default()))
}

/// `why\n` BACKEND `\n` TEXT: the findings on one text, ranked (an empty
/// backend line: the text's own backend, if any).
fn why(body: &[u8]) -> String {
    if !body.contains(&b'\n') {
        return error("malformed request: `why` needs a backend line (empty for the text's own)");
    }
    let (backend, text) = match chip_and_dump(body, "why") {
        Ok(parts) => parts,
        Err(reply) => return reply,
    };
    let backend = match backend.map(crate::why::parse_backend).transpose() {
        Ok(b) => b,
        Err(e) => return error(&format!("--backend: {e}")),
    };
    match crate::why::why(&[&text], backend) {
        Ok(w) => crate::why::json::to_json(&w),
        Err(e) => error(&e),
    }
}

/// `diff\n` CHIP `\n` LEN `\n` A B: the diff of two dumps.
fn diff(body: &[u8]) -> String {
    let mut lines = body.splitn(3, |&b| b == b'\n');
    let (Some(chip), Some(len), Some(rest)) = (lines.next(), lines.next(), lines.next()) else {
        return error("malformed request: `diff` needs a chip line and the first dump's length");
    };
    let chip = std::str::from_utf8(chip).unwrap_or("").trim();
    let Some((a, b)) = split_at_len(len, rest) else {
        return error("malformed request: the first dump's length is wrong");
    };
    let a = match text_of(a, "The first dump") {
        Ok(s) => s,
        Err(e) => return e,
    };
    let b = match text_of(b, "The second dump") {
        Ok(s) => s,
        Err(e) => return e,
    };
    let asked = (!chip.is_empty()).then_some(chip);
    crate::diff::report::with_diff(&a, &b, asked, crate::diff::json::to_json)
        .unwrap_or_else(|e| diff_error(&e))
}

/// A diff's error: `{"error": ..., "compiled_side": "A" | "B" | null}`, the
/// side that is compiled when the other is lowered (the source map's pair).
fn diff_error(e: &crate::diff::report::DiffError) -> String {
    use crate::diff::report::Side;
    let mut s = String::from("{\"error\":");
    push_str(&mut s, &e.message);
    s.push_str(match e.compiled_side {
        Some(Side::A) => ",\"compiled_side\":\"A\"}",
        Some(Side::B) => ",\"compiled_side\":\"B\"}",
        None => ",\"compiled_side\":null}",
    });
    s
}

/// `explain\n<log length>\n<log><dump>`: the explanation (a log length
/// of 0: no log), as `explain --json` prints it, with the kernels' lines.
fn explain(body: &[u8]) -> String {
    let Some(nl) = body.iter().position(|&b| b == b'\n') else {
        return error("malformed request: `explain` needs the log's length");
    };
    let rest = body.get(nl + 1..).unwrap_or(&[]);
    let Some((log, dump)) = split_at_len(body.get(..nl).unwrap_or(&[]), rest) else {
        return error("malformed request: the log's length is wrong");
    };
    let dump = match text_of(dump, "This file") {
        Ok(s) => s,
        Err(e) => return e,
    };
    let log = match text_of(log, "The log") {
        Ok(s) => s,
        Err(e) => return e,
    };
    let log = (!log.is_empty()).then_some(log.as_str());
    crate::explain::report::with_report(&dump, log, |r| {
        let mut out = crate::explain::json::to_json(r);
        out.pop();
        out.push_str(",\"lines\":");
        let lines: Vec<usize> = r
            .explanation
            .kernels
            .iter()
            .filter_map(|k| r.module.instruction(k.kernel.instruction))
            .map(|i| r.pasted_line(i.line))
            .collect();
        push_lines(&mut out, &dump, &lines);
        out.push('}');
        out
    })
    .unwrap_or_else(|e| error(&e))
}

/// `[[line, text], ...]` for the given 1-based lines of a text.
fn push_lines(out: &mut String, text: &str, lines: &[usize]) {
    let mut want: Vec<usize> = lines.to_vec();
    want.sort_unstable();
    want.dedup();
    out.push('[');
    let mut first = true;
    let mut next = want.iter().peekable();
    for (i, l) in text.lines().enumerate() {
        let Some(&&w) = next.peek() else { break };
        if i + 1 == w {
            next.next();
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(&format!("[{w},"));
            crate::sourcemap::json::push_str(out, l);
            out.push(']');
        }
    }
    out.push(']');
}

/// `folder-index\n` then `<size>\t<path>` lines: the folder's index.
fn folder_index(body: &[u8]) -> String {
    let Ok(text) = std::str::from_utf8(body) else {
        return error("malformed request: the file names are not UTF-8 text");
    };
    let mut files = Vec::new();
    for (n, line) in text.split('\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        let Some((size, path)) = line.split_once('\t') else {
            return error(&format!(
                "malformed request: line {} of the file list has no tab between size and name",
                n + 2
            ));
        };
        let Ok(size) = size.parse::<u64>() else {
            return error(&format!(
                "malformed request: line {} of the file list has no size in bytes before its tab",
                n + 2
            ));
        };
        files.push((path, size));
    }
    let ix = crate::folder::index::index(&files, &crate::folder::Limits::default());
    crate::folder::json::to_json(&ix, None)
}

/// `folder-module\n<id>\n` then `<path>\n<length>\n<text>` records: one
/// module read whole.
fn folder_module(body: &[u8]) -> String {
    let mut parts = body.splitn(2, |&b| b == b'\n');
    let (Some(id), Some(rest)) = (parts.next(), parts.next()) else {
        return error("malformed request: `folder-module` needs a module id line");
    };
    let Ok(id) = std::str::from_utf8(id) else {
        return error("malformed request: the module id is not UTF-8 text");
    };
    let inputs = match records(rest) {
        Ok(i) => i,
        Err(e) => return e,
    };
    let folder = crate::folder::read_inputs(&inputs, &crate::folder::Limits::default());
    let Some(m) = folder.index.modules.iter().position(|m| m.module.id == id) else {
        return error(&format!(
            "no module {id} among the files sent: send that module's files with its id"
        ));
    };
    let mut s = String::from("{\"module\":");
    crate::folder::json::push_module(&mut s, &folder.index, Some(&folder), m);
    s.push('}');
    s
}

/// Where the page shows one clue: the line of the text the analysis read
/// (the repaired one for a repaired paste) and the clue's 1-based character
/// columns on it, end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shown {
    line: usize,
    start: usize,
    end: usize,
}

impl Shown {
    /// Evidence numbers lines and columns as pasted; a repaired paste's
    /// clue is shown on the repaired line that starts on its pasted line at
    /// or before its column, its columns those of its characters there (a
    /// repr's `\"` is one repaired character).
    fn of(e: &Evidence, map: Option<&LineMap>) -> Shown {
        let (cols, line) = (&e.columns, e.line);
        match map.and_then(|m| m.locate(line, cols.start.saturating_sub(1))) {
            Some((r, start)) => {
                // The span's last pasted character, on the same repaired line.
                let last = cols.end.saturating_sub(2).max(cols.start.saturating_sub(1));
                let end = map
                    .and_then(|m| m.locate(line, last))
                    .filter(|&(r2, _)| r2 == r)
                    .map_or(start + 2, |(_, c)| c + 2);
                Shown {
                    line: r,
                    start: start + 1,
                    end: end.max(start + 2),
                }
            }
            None => Shown {
                line,
                start: cols.start,
                end: cols.end,
            },
        }
    }
}

/// The text (cut to `MAX_LINE_CHARS` characters, or to `MARK_CONTEXT`
/// past its last clue) of each line of `text`
/// that `shown` names, found in one pass over the lines.
fn line_texts<'t>(text: &'t str, shown: &[Shown]) -> Vec<(usize, &'t str)> {
    let mut texts = Vec::new();
    let (Some(first), Some(last)) = (
        shown.iter().map(|s| s.line).min(),
        shown.iter().map(|s| s.line).max(),
    ) else {
        return texts;
    };
    for (i, l) in crate::analysis::scan::lines(text).enumerate() {
        let n = i + 1;
        if n > last {
            break;
        }
        let keep = shown
            .iter()
            .filter(|s| s.line == n)
            .map(|s| s.end + MARK_CONTEXT)
            .max();
        if let (true, Some(keep)) = (n >= first, keep) {
            let end = l
                .char_indices()
                .nth(keep.max(MAX_LINE_CHARS))
                .map_or(l.len(), |(p, _)| p);
            texts.push((n, l.get(..end).unwrap_or("")));
        }
    }
    texts
}

/// Items sent per control-flow row at most (a hostile module's loop body
/// of thousands of kernels is cut; `cut` says so).
const MAX_CONTROL_ITEMS: usize = 2000;

/// The name a region's role has in the page's JSON.
fn role_name(role: RegionRole) -> &'static str {
    match role {
        RegionRole::Condition => "condition",
        RegionRole::Body => "body",
        RegionRole::Branch(_) => "branch",
        RegionRole::Callee => "callee",
    }
}

/// What the entry's control-flow rows run, as the kernel tree
/// ([`KernelTree`]) gives it: `[{"name", "line", "trip_count", "cut",
/// "items": [item]}]`, one object per entry row that does not launch work
/// itself (a `while`, `conditional`, `call`, async start), in run order.
/// Its items are the rows under it, depth first in run order, flat: a
/// region `{"type": "region", "depth", "role": "condition" | "body" |
/// "branch" | "callee", "branch": index | null, "computation"}` followed by
/// its kernels `{"type": "kernel", "depth", "name", "line", "kind",
/// "detail", "ops", "kernel", "trip_count"}` (depth 1 under the entry row;
/// a nested loop's regions one deeper). `trip_count` is the
/// `known_trip_count` its `backend_config` states, else null; `cut` is
/// true when items past [`MAX_CONTROL_ITEMS`] were left out.
fn push_control(s: &mut String, text: &str) {
    let m = crate::program::parse(text);
    let tree = KernelTree::build(&m);
    s.push('[');
    let mut first = true;
    for k in tree.kernels.iter().filter(|k| !k.launches) {
        let Some(ins) = m.instruction(k.instruction) else {
            continue;
        };
        if !std::mem::take(&mut first) {
            s.push(',');
        }
        s.push_str("{\"name\":");
        push_str(s, ins.name);
        let _ = write!(s, ",\"line\":{},\"trip_count\":", ins.line);
        push_opt_u64(s, k.trip_count);
        s.push_str(",\"items\":[");
        // Depth first: a region, then its kernels, each kernel's own
        // regions right after it.
        let mut stack: Vec<(usize, Item<'_>)> = k
            .regions
            .iter()
            .rev()
            .map(|r| (1, Item::Region(r)))
            .collect();
        let mut items = 0usize;
        let mut cut = false;
        while let Some((d, item)) = stack.pop() {
            if items >= MAX_CONTROL_ITEMS {
                cut = true;
                break;
            }
            if items > 0 {
                s.push(',');
            }
            items += 1;
            match item {
                Item::Region(r) => {
                    push_region(s, &m, d, r);
                    stack.extend(r.kernels.iter().rev().map(|k| (d, Item::Row(k))));
                }
                Item::Row(k) => {
                    push_row(s, &m, d, k);
                    stack.extend(k.regions.iter().rev().map(|r| (d + 1, Item::Region(r))));
                }
            }
        }
        let _ = write!(s, "],\"cut\":{cut}}}");
    }
    s.push(']');
}

/// A row under a control-flow row: a region or one of its kernels.
#[derive(Clone, Copy)]
enum Item<'k> {
    /// A region (condition, body, branch, callee), before its kernels.
    Region(&'k Region),
    /// One of a region's kernel rows.
    Row(&'k Kernel),
}

/// `n`, or `null`.
fn push_opt_u64(s: &mut String, v: Option<u64>) {
    match v {
        Some(n) => {
            let _ = write!(s, "{n}");
        }
        None => s.push_str("null"),
    }
}

/// One region item of [`push_control`].
fn push_region(s: &mut String, m: &crate::program::Module<'_>, depth: usize, r: &Region) {
    let _ = write!(s, "{{\"type\":\"region\",\"depth\":{depth},\"role\":");
    push_str(s, role_name(r.role));
    s.push_str(",\"branch\":");
    match r.role {
        RegionRole::Branch(i) => {
            let _ = write!(s, "{i}");
        }
        _ => s.push_str("null"),
    }
    s.push_str(",\"computation\":");
    push_str(s, m.computation(r.computation).map_or("?", |c| c.name));
    s.push('}');
}

/// One kernel item of [`push_control`].
fn push_row(s: &mut String, m: &crate::program::Module<'_>, depth: usize, k: &Kernel) {
    let ins = m.instruction(k.instruction);
    let _ = write!(s, "{{\"type\":\"kernel\",\"depth\":{depth},\"name\":");
    push_str(s, ins.map_or("?", |i| i.name));
    let _ = write!(s, ",\"line\":{},\"kind\":", ins.map_or(0, |i| i.line));
    push_str(s, k.kind.map_name());
    s.push_str(",\"detail\":");
    match &k.detail {
        Some(d) => push_str(s, d),
        None => s.push_str("null"),
    }
    s.push_str(",\"ops\":[");
    for (i, o) in k.ops.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        push_str(s, o);
    }
    let _ = write!(s, "],\"kernel\":{},\"trip_count\":", k.launches);
    push_opt_u64(s, k.trip_count);
    s.push('}');
}

/// The page's report on one dump (see the module docs).
pub fn inspect(text: &str) -> String {
    let a = analyze(text);
    let mut s = String::with_capacity(4096);
    s.push_str("{\"kind\":");
    push_str(&mut s, a.kind.as_str());
    let opt = |s: &mut String, key: &str, v: Option<&str>| {
        let _ = write!(s, ",\"{key}\":");
        match v {
            Some(v) => push_str(s, v),
            None => s.push_str("null"),
        }
    };
    opt(&mut s, "dialect", a.dialect.map(|d| d.as_str()));
    opt(&mut s, "backend", a.backend.map(|b| b.as_str()));
    opt(&mut s, "backend_basis", a.backend_basis.map(|b| b.as_str()));
    opt(&mut s, "backend_reason", a.backend_reason.as_deref());
    opt(&mut s, "backend_guess", a.backend_guess.map(|b| b.as_str()));
    opt(&mut s, "reason", a.reason.as_deref());
    opt(&mut s, "kind_rule", a.kind_rule);
    opt(&mut s, "kind_guess", a.kind_guess.map(|k| k.as_str()));
    opt(&mut s, "kind_guess_rule", a.kind_guess_rule);
    opt(&mut s, "kind_likely", a.kind_likely.as_deref());
    s.push_str(",\"unwrapped\":[");
    for (i, u) in a.unwrapped.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str("{\"what\":");
        push_str(&mut s, u.what.as_str());
        let _ = write!(
            s,
            ",\"lines\":{},\"first_line\":{},\"note\":",
            u.lines, u.first_line
        );
        push_str(&mut s, &u.note);
        s.push('}');
    }
    s.push_str("],\"pasted_modules\":[");
    for (i, n) in a.pasted_modules.iter().enumerate() {
        let _ = write!(s, "{}{n}", if i > 0 { "," } else { "" });
    }
    s.push(']');
    // A repaired paste is shown and mapped as repaired (see `Shown`).
    let repaired = (!a.unwrapped.is_empty()).then(|| unwrap(text));
    let mapped: &str = repaired.as_ref().map_or(text, |r| &r.text);
    let _ = write!(
        s,
        ",\"lines\":{},\"repaired_lines\":{},\"evidence\":[",
        a.lines,
        match &repaired {
            // Blank lines at the end (a repr's last `\n`) are not counted.
            Some(_) => crate::analysis::scan::lines(mapped.trim_end()).count(),
            None => a.lines,
        }
    );
    let shown: Vec<Shown> = a
        .deciding_evidence()
        .take(MAX_EVIDENCE)
        .map(|e| Shown::of(e, repaired.as_ref().map(|r| &r.map)))
        .collect();
    let texts = line_texts(mapped, &shown);
    for (i, (e, sh)) in a.deciding_evidence().zip(&shown).enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"line\":{},\"repaired_line\":{},\"start\":{},\"end\":{},\"marker\":",
            e.line, sh.line, sh.start, sh.end
        );
        push_str(&mut s, e.marker);
        s.push_str(",\"note\":");
        push_str(&mut s, &e.note);
        s.push_str(",\"chapter\":");
        push_str(&mut s, chapter_of(e.marker));
        s.push_str(",\"text\":");
        let t = texts
            .iter()
            .find(|(n, _)| *n == sh.line)
            .map_or("", |(_, t)| t);
        push_str(&mut s, t);
        s.push('}');
    }
    s.push_str("],\"map\":");
    match a.kind {
        Kind::HloOptimized => {
            let map = sourcemap::map("", mapped);
            s.push_str(&sourcemap::json::to_json(&map));
            // Only a module with control flow in its entry is read again.
            if map.kernels.iter().any(|k| !k.kernel) {
                s.push_str(",\"control\":");
                push_control(&mut s, mapped);
            }
        }
        Kind::Stablehlo | Kind::Jaxpr | Kind::HloUnoptimized => {
            s.push_str(&sourcemap::json::to_json(&sourcemap::map(mapped, "")))
        }
        // HLO whose hints suggest a module before compilation, with no
        // proof either way: its source lines are the text's whatever it
        // is; the kind stays `unknown` and the page words the guess.
        Kind::Unknown if a.kind_guess == Some(Kind::HloUnoptimized) => {
            s.push_str(&sourcemap::json::to_json(&sourcemap::map(mapped, "")))
        }
        Kind::Unknown => s.push_str("null"),
    }
    s.push('}');
    s
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn parse(s: &str) -> serde_json::Value {
        serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
    }

    fn fixture(family: &str, file: &str) -> String {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures")
            .join(family)
            .join(file);
        std::fs::read_to_string(p).unwrap()
    }

    #[test]
    fn inspect_agrees_with_the_analysis_and_the_map() {
        for (fam, file) in [
            ("softmax", "compiled.cpu.hlo.txt"),
            ("softmax", "compiled.tpu.hlo.txt"),
            ("matmul", "compiled.gpu.hlo.txt"),
            ("softmax", "lowered.stablehlo.mlir"),
            ("softmax", "jaxpr.txt"),
            ("softmax", "lowered.hlo.txt"),
        ] {
            let text = fixture(fam, file);
            let mut req = b"inspect\n".to_vec();
            req.extend_from_slice(text.as_bytes());
            let v = parse(&respond(&req));
            let a = analyze(&text);
            assert_eq!(v["kind"], a.kind.as_str(), "{fam} {file}");
            assert_eq!(
                v["backend"].as_str(),
                a.backend.map(|b| b.as_str()),
                "{fam} {file}"
            );
            let json: serde_json::Value = serde_json::to_value(&a).unwrap();
            for key in [
                "dialect",
                "backend_basis",
                "backend_reason",
                "kind_rule",
                "kind_guess",
                "kind_guess_rule",
                "unwrapped",
            ] {
                assert_eq!(v[key], json[key], "{fam} {file}: {key}");
            }
            let m = sourcemap::map("", &text);
            if a.kind == Kind::HloOptimized {
                assert_eq!(
                    v["map"]["kernels"].as_array().unwrap().len(),
                    m.kernels.len()
                );
                assert!(!m.kernels.is_empty());
            }
            let ev = v["evidence"].as_array().unwrap();
            // Nothing proves a kind that rests on hints: a lowered HLO
            // text's hints are named in its `kind_likely` (or its reason,
            // with its guess kept apart), and no line is evidence.
            let hints_only = a.kind == Kind::Unknown || a.kind_likely.is_some();
            assert_eq!(ev.is_empty(), hints_only, "{fam} {file}");
            assert_eq!(
                v["kind_likely"].as_str(),
                a.kind_likely.as_deref(),
                "{fam} {file}"
            );
            if a.kind == Kind::Unknown {
                assert_eq!(v["kind_guess"], "hlo-unoptimized", "{fam} {file}");
            }
            if hints_only {
                assert!(v["map"].is_object(), "{fam} {file}");
            }
            let lines: Vec<&str> = text.lines().collect();
            for e in ev {
                let n = e["line"].as_u64().unwrap() as usize;
                let t = e["text"].as_str().unwrap();
                assert!(lines[n - 1].starts_with(t), "{fam} {file}: line {n}");
                assert!(e["chapter"].as_str().unwrap().ends_with(".html"));
            }
        }
    }

    #[test]
    fn a_repaired_paste_says_what_was_undone() {
        let clean = fixture("softmax", "compiled.cpu.hlo.txt");
        let logged: String = clean
            .lines()
            .map(|l| format!("I1130 13:20:01.123456 12345 hlo_pass_pipeline.cc:123] {l}\n"))
            .collect();
        let mut req = b"inspect\n".to_vec();
        req.extend_from_slice(logged.as_bytes());
        let v = parse(&respond(&req));
        assert_eq!(v["kind"], "hlo-optimized");
        assert_eq!(v["unwrapped"][0]["what"], "log-prefix");
        assert_eq!(v["unwrapped"][0]["lines"], clean.lines().count());
        // The map reads the repaired text: the same kernels as the clean dump.
        let clean_map = sourcemap::map("", &clean);
        assert_eq!(
            v["map"]["kernels"].as_array().unwrap().len(),
            clean_map.kernels.len()
        );
        // Evidence text is the repaired line, its prefix gone; the line
        // number is the pasted one (the same here: one line per line).
        let e = &v["evidence"][0];
        assert!(e["text"].as_str().unwrap().starts_with("HloModule "), "{e}");
        assert_eq!(e["line"], e["repaired_line"]);
        assert_eq!(v["repaired_lines"], clean.trim_end().lines().count());
    }

    /// A diff's error names the compiled side of a lowered-and-compiled
    /// pair (the page points at the source map then), else null.
    #[test]
    fn a_diff_error_names_the_compiled_side() {
        let lowered = fixture("softmax", "lowered.stablehlo.mlir");
        let compiled = fixture("softmax", "compiled.cpu.hlo.txt");
        let jaxpr = fixture("softmax", "jaxpr.txt");
        for (a, b, side) in [
            (&compiled, &lowered, serde_json::json!("A")),
            (&jaxpr, &compiled, serde_json::json!("B")),
            (&jaxpr, &lowered, serde_json::Value::Null),
        ] {
            let mut req = format!("diff\n\n{}\n", a.len()).into_bytes();
            req.extend_from_slice(a.as_bytes());
            req.extend_from_slice(b.as_bytes());
            let v = parse(&respond(&req));
            assert!(v["error"].as_str().unwrap().contains("one kind"), "{v}");
            assert_eq!(v["compiled_side"], side, "{v}");
        }
    }

    #[test]
    fn map_requests_and_bad_requests() {
        let lowered = fixture("softmax", "lowered.stablehlo.mlir");
        let compiled = fixture("softmax", "compiled.cpu.hlo.txt");
        let mut req = format!("map\n{}\n", lowered.len()).into_bytes();
        req.extend_from_slice(lowered.as_bytes());
        req.extend_from_slice(compiled.as_bytes());
        let v = parse(&respond(&req));
        assert_eq!(v["kernels"].as_array().unwrap().len(), 4);
        assert_eq!(v["source_lines"][0]["line"], 18);
        for (bad, needle) in [
            (&b"inspect\n\xff\xfeabc"[..], "not UTF-8 text (byte 1"),
            (b"inspect", "malformed"),
            (b"grade\nx", "malformed"),
            (b"map\n99\nabc", "length is wrong"),
            (b"map\nabc", "length"),
            (b"map\n1\n\xffx", "lowered dump is not UTF-8"),
        ] {
            let v = parse(&respond(bad));
            let e = v["error"].as_str().unwrap();
            assert!(e.contains(needle), "{e}");
        }
        // Unknown text: the kind says so with a reason, and no map.
        let v = parse(&respond(b"inspect\nhello <script>alert(1)</script>\n"));
        assert_eq!(v["kind"], "unknown");
        assert!(v["reason"].as_str().unwrap().len() > 10);
        assert!(v["map"].is_null());
    }

    /// `why`: the command line's object for any paste (a compiled
    /// module, a memory text), the backend given or the text's own, and
    /// the command line's sentence for a backend the text contradicts.
    #[test]
    fn why_answers_any_paste_as_the_command_line_does() {
        let paste = |p: &str| {
            let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/pastes")
                .join(p);
            std::fs::read_to_string(p).unwrap()
        };
        let ask = |backend: &str, text: &str| {
            let mut req = format!("why\n{backend}\n").into_bytes();
            req.extend_from_slice(text.as_bytes());
            parse(&respond(&req))
        };
        let scatter = paste("scatter_loop/compiled.gpu.set_c128.hlo.txt");
        let oom = paste("tpu_oom/error.tpu.matmul_chain.txt");
        for (backend, text) in [("", &scatter), ("", &oom), ("tpu", &oom)] {
            let given = (!backend.is_empty()).then(|| crate::why::parse_backend(backend).unwrap());
            let want = crate::why::json::to_json(&crate::why::why(&[text], given).unwrap());
            assert_eq!(ask(backend, text), parse(&want), "{backend}");
        }
        let v = ask("", &scatter);
        let names: Vec<&str> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["name"].as_str())
            .collect();
        assert!(names.contains(&"scatter-serial-loop"), "{names:?}");
        assert_eq!(v["inputs"][0]["backend_from"], "evidence");
        // A memory text is no HLO: its findings lead all the same.
        let v = ask("tpu", &oom);
        assert_eq!(v["inputs"][0]["scope"]["form"], "no-hlo");
        assert_eq!(v["inputs"][0]["backend_from"], "given");
        assert_eq!(v["findings"][0]["name"], "out-of-memory");
        // The text names GPU: TPU given is the command line's error.
        let e = crate::why::why(&[&scatter], Some(crate::why::parse_backend("tpu").unwrap()))
            .unwrap_err();
        assert_eq!(ask("tpu", &scatter)["error"], e.as_str());
        let v = ask("npu", &oom);
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("--backend: unknown backend `npu`"),
            "{v}"
        );
        let v = parse(&respond(b"why"));
        assert!(v["error"].as_str().unwrap().contains("malformed"), "{v}");
        let v = parse(&respond(b"why\n\n\xff"));
        assert!(v["error"].as_str().unwrap().contains("not UTF-8"), "{v}");
    }

    #[test]
    fn control_flow_rows_carry_what_they_run() {
        // A fori_loop: the while's condition and body, and its trip count.
        let v = parse(&inspect(&fixture(
            "fori_loop_static",
            "compiled.cpu.hlo.txt",
        )));
        let c = v["control"].as_array().unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0]["name"], "while.5");
        assert_eq!(c[0]["trip_count"], 4);
        let items = c[0]["items"].as_array().unwrap();
        let roles: Vec<&str> = items.iter().filter_map(|i| i["role"].as_str()).collect();
        assert_eq!(roles, ["condition", "body"]);
        let kernels: Vec<&str> = items
            .iter()
            .filter(|i| i["type"] == "kernel")
            .map(|i| i["name"].as_str().unwrap())
            .collect();
        assert!(kernels.contains(&"add_tanh_fusion"), "{kernels:?}");
        assert!(kernels.contains(&"wrapped_compare"), "{kernels:?}");
        // A cond: its two branches, numbered, no trip count.
        let v = parse(&inspect(&fixture("cond_branch", "compiled.cpu.hlo.txt")));
        let c = &v["control"][0];
        assert!(c["trip_count"].is_null());
        let branches: Vec<u64> = c["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["role"] == "branch")
            .map(|i| i["branch"].as_u64().unwrap())
            .collect();
        assert_eq!(branches, [0, 1]);
        // No control flow: no field.
        let v = parse(&inspect(&fixture("softmax", "compiled.cpu.hlo.txt")));
        assert!(v.get("control").is_none());
    }
}
