//! Undoing the damage a dump takes on its way into a paste.
//!
//! People paste dumps out of Python sessions, logs and issue threads. Four
//! kinds of damage are undone here, before the analysis reads the text:
//!
//! - a **log prefix** in front of lines: `2019-08-05 19:26:48.376350: E
//!   external/.../xla_util.cc:72] ` (TensorFlow) or glog's `I1130
//!   13:20:01.123456 12345 file.cc:123] `;
//! - **prompt characters**: `>>> `, `... `, `$ `;
//! - a **Python string repr** (or a JSON string): the whole module on one
//!   line with literal `\n`s, inside quotes (`'HloModule m\n\nENTRY ...'`),
//!   also of captured log lines (their prefixes go in the next round);
//! - **hard wrapping** at a fixed width (a terminal, an issue tracker): a
//!   line exactly as long as the longest line, continued on a line that
//!   cannot start a jaxpr, MLIR or HLO line.
//!
//! What was undone is listed ([`Undone`]); a [`LineMap`] gives, for each
//! line of the repaired text, the line of the text as pasted and the column
//! it starts at there, so evidence points at what the reader pasted.
//!
//! Clean text is never touched: every rule needs a shape no dump prints
//! (a log prefix, a prompt, two or more literal `\n` in one line, two or
//! more lines cut at one width and continued by a fragment). Damage is
//! looked for in the first 256 KiB (a constant cost on large dumps, which
//! are files, not pastes); a damaged text is repaired whole, one pass per
//! round, a round repeating only while it changed something (each change
//! shortens the text; eight rounds at most), so the cost is linear and the
//! result a fixed point: repairing repaired text changes nothing.

pub use super::pasted::{Damage, LineMap, Undone};
use super::scan;
use std::borrow::Cow;

/// A repaired text: the text, what was undone (empty for clean text, then
/// `text` borrows the input) and the line map (empty when nothing moved).
#[derive(Clone, Debug)]
pub struct Unwrapped<'a> {
    /// The repaired text.
    pub text: Cow<'a, str>,
    /// What was undone, one entry per kind of damage, in the order undone.
    pub undone: Vec<Undone>,
    /// Where each line of `text` starts in the paste.
    pub map: LineMap,
    /// Lines in the paste (counted only when something was undone; 0
    /// otherwise).
    pub pasted_lines: usize,
}

/// Rounds at most: each round shortens the text, and pastes are damaged
/// once or twice (a repr inside a log line), not eight times.
const MAX_ROUNDS: usize = 8;

/// Repairs a pasted dump (see the module docs). Never panics.
pub fn unwrap(text: &str) -> Unwrapped<'_> {
    let mut out = Unwrapped {
        text: Cow::Borrowed(text),
        undone: Vec::new(),
        map: LineMap::default(),
        pasted_lines: 0,
    };
    for _ in 0..MAX_ROUNDS {
        let Some((lines, undone)) = round(&out.text) else {
            break;
        };
        if out.map.is_empty() {
            out.pasted_lines = scan::lines(text).count();
        }
        let map = compose(&out.map, &lines);
        for u in undone {
            let first = if out.map.is_empty() {
                u.first_line
            } else {
                out.map.get(u.first_line).0
            };
            merge(
                &mut out.undone,
                Undone {
                    first_line: first,
                    ..u
                },
            );
        }
        let mut s = String::with_capacity(out.text.len());
        for l in &lines {
            s.push_str(&l.text);
            s.push('\n');
        }
        out.text = Cow::Owned(s);
        out.map = map;
    }
    out
}

/// The map of a round's lines composed with the map so far (empty after
/// no round): each line's start and jumps as pasted.
fn compose(old: &LineMap, lines: &[Out]) -> LineMap {
    let mut starts = Vec::with_capacity(lines.len());
    let mut jumps = Vec::new();
    for (l, r) in lines.iter().zip(1..) {
        if old.is_empty() {
            starts.push((l.line, l.col));
            jumps.extend(l.jumps.iter().map(|&(c, p)| (r, c, p)));
            continue;
        }
        let (p, s) = old.get(l.line);
        let before = old.jumps_of(l.line);
        if before.is_empty() {
            starts.push((p, s + l.col));
            jumps.extend(l.jumps.iter().map(|&(c, at)| (r, c, s + at)));
            continue;
        }
        // Both maps move characters on this line: follow each one, the
        // column on the round's input only growing (one pass over both).
        let mut next = l.jumps.iter().peekable();
        let (mut from, mut at) = (0usize, l.col);
        let mut k = 0usize;
        let mut prev = None;
        for c in 0..=l.text.chars().count() {
            if let Some(&&(jc, jp)) = next.peek().filter(|j| j.0 == c) {
                (from, at) = (jc, jp);
                next.next();
            }
            let x = at + (c - from);
            while before.get(k).is_some_and(|j| j.1 <= x) {
                k += 1;
            }
            let q = match k.checked_sub(1).and_then(|i| before.get(i)) {
                Some(&(_, rc, pc)) => pc + (x - rc),
                None => s + x,
            };
            match prev {
                None => starts.push((p, q)),
                Some(before) if q != before + 1 => jumps.push((r, c, q)),
                Some(_) => {}
            }
            prev = Some(q);
        }
    }
    LineMap::new(starts, jumps)
}

/// Adds `u` to the list, or its count to an entry of the same damage.
fn merge(list: &mut Vec<Undone>, u: Undone) {
    match list.iter_mut().find(|x| x.what == u.what) {
        Some(x) => {
            x.lines += u.lines;
            x.first_line = x.first_line.min(u.first_line);
        }
        None => list.push(u),
    }
}

/// A line of a round's output: its text, the line (1-based) and
/// character column of the round's input it starts at, and where its
/// characters stop following that one for one: (0-based column in `text`,
/// column on the input line of that character), columns increasing.
struct Out {
    text: String,
    line: usize,
    col: usize,
    jumps: Vec<(usize, usize)>,
}

/// One round: prefixes and prompts stripped, reprs split, then wrapped
/// lines joined. `None` when nothing was undone.
fn round(text: &str) -> Option<(Vec<Out>, Vec<Undone>)> {
    if !maybe_damaged(text) {
        return None;
    }
    let mut undone: Vec<Undone> = Vec::new();
    let mut outs: Vec<Out> = Vec::new();
    let count =
        |undone: &mut Vec<Undone>, what: Damage, n: usize, note: &dyn Fn() -> String| match undone
            .iter_mut()
            .find(|x| x.what == what)
        {
            Some(x) => x.lines += 1,
            None => undone.push(Undone {
                what,
                lines: 1,
                first_line: n,
                note: note(),
            }),
        };
    for (i, raw) in scan::lines(text).enumerate() {
        let n = i + 1;
        let mut l = raw;
        let mut col = 0usize;
        // Prefixes can stack (a prompt, then a log line): strip each kind
        // while one is there.
        loop {
            if let Some(p) = log_prefix_len(l) {
                let prefix = l.get(..p).unwrap_or("").trim_end().to_owned();
                count(&mut undone, Damage::LogPrefix, n, &|| {
                    format!("log prefixes removed (the first: `{prefix}`)")
                });
                col += l.get(..p).map_or(0, |s| s.chars().count());
                l = l.get(p..).unwrap_or("");
            } else if let Some(p) = prompt_len(l) {
                let prompt = l.get(..p).unwrap_or("").to_owned();
                count(&mut undone, Damage::Prompt, n, &|| {
                    format!("prompt characters removed (`{}`)", prompt.trim_end())
                });
                col += p;
                l = l.get(p..).unwrap_or("");
            } else {
                break;
            }
        }
        match repr_segments(l) {
            Some(segs) => {
                let k = segs.len();
                count(&mut undone, Damage::Repr, n, &|| {
                    format!(
                        "a Python string repr split at its {} literal `\\n`s, escapes and quotes undone",
                        k.saturating_sub(1)
                    )
                });
                for seg in segs {
                    outs.push(Out {
                        text: seg.text,
                        line: n,
                        col: col + seg.col,
                        jumps: seg.jumps.into_iter().map(|(c, p)| (c, col + p)).collect(),
                    });
                }
            }
            None => outs.push(Out {
                text: l.to_owned(),
                line: n,
                col,
                jumps: Vec::new(),
            }),
        }
    }
    if let Some((first, width, n)) = join_wrapped(&mut outs) {
        undone.push(Undone {
            what: Damage::Wrapped,
            lines: n,
            first_line: first,
            note: format!("{n} lines cut at {width} characters joined to the lines they continue"),
        });
    }
    (!undone.is_empty()).then_some((outs, undone))
}

/// How much of a text the first look reads. Pastes are small; a dump of
/// many megabytes was written to a file, not pasted through a terminal or
/// a log, and a damaged one shows its damage from its first lines anyway.
/// So the first look costs a constant on large dumps.
const LOOK: usize = 256 * 1024;

/// A cheap first look at the start of `text` (see [`LOOK`]): could any
/// rule apply? One pass over line starts and lengths, and a byte search
/// for `\n`.
fn maybe_damaged(text: &str) -> bool {
    let mut end = text.len().min(LOOK);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let text = text.get(..end).unwrap_or("");
    let mut max = 0usize;
    let mut at_max = 0usize;
    for l in scan::lines(text) {
        if log_prefix_len(l).is_some() || prompt_len(l).is_some() {
            return true;
        }
        let len = l.len();
        if len > max {
            max = len;
            at_max = 1;
        } else if len == max {
            at_max += 1;
        }
    }
    if scan::find(text, "\\n").is_some()
        && scan::lines(text).any(|l| scan::find_all(l, "\\n").nth(1).is_some())
    {
        return true;
    }
    if max < MIN_WIDTH || at_max < 2 {
        return false;
    }
    let mut prev_full = false;
    let mut joins = 0usize;
    for l in scan::lines(text) {
        if prev_full && !can_start_line(l) {
            joins += 1;
            if joins >= 2 {
                return true;
            }
        }
        prev_full = l.len() == max;
    }
    false
}

/// Narrowest wrap width recognised: terminals and trackers wrap at 80 or
/// more; 40 leaves room for narrow panes. Widths count bytes (dumps are
/// ASCII but for the odd name in metadata).
const MIN_WIDTH: usize = 40;

/// Joins lines hard-wrapped at one width: the width is the longest line's
/// (in bytes), at least [`MIN_WIDTH`]; a line that long is joined
/// with the next when that cannot start a dump line; two or more such
/// joins are needed, or none is made. Returns the first continuation's
/// line, the width and how many lines were joined.
fn join_wrapped(outs: &mut Vec<Out>) -> Option<(usize, usize, usize)> {
    let width = outs.iter().map(|o| o.text.len()).max().unwrap_or(0);
    if width < MIN_WIDTH {
        return None;
    }
    let full: Vec<bool> = outs.iter().map(|o| o.text.len() == width).collect();
    let cont: Vec<bool> = (0..outs.len()).map(|i| continues(outs, i)).collect();
    let joins = (0..outs.len().saturating_sub(1))
        .filter(|&i| {
            full.get(i).copied().unwrap_or(false) && cont.get(i + 1).copied().unwrap_or(false)
        })
        .count();
    if joins < 2 {
        return None;
    }
    let mut merged: Vec<Out> = Vec::with_capacity(outs.len());
    let mut count = 0usize;
    let mut first = 0usize;
    // Whether the last merged line ends in a full-width piece.
    let mut open = false;
    for ((o, is_full), is_cont) in std::mem::take(outs).into_iter().zip(full).zip(cont) {
        match merged.last_mut() {
            Some(last) if open && is_cont => {
                // The continuation's characters are counted on from the
                // first piece's start (its own line is not kept).
                last.text.push_str(&o.text);
                count += 1;
                if first == 0 {
                    first = o.line;
                }
            }
            _ => merged.push(o),
        }
        open = is_full;
    }
    *outs = merged;
    (count > 0).then_some((first, width, count))
}

/// Whether line `i` continues the line before it (when that one is full
/// width): it cannot start a dump line, or it is a `}` at the margin with an
/// indented line after it. XLA closes a computation with a `}` at the margin
/// followed by a blank line or the end, never by an indented instruction, so
/// such a `}` is the tail of a cut `backend_config={...}`.
fn continues(outs: &[Out], i: usize) -> bool {
    let Some(o) = outs.get(i) else {
        return false;
    };
    if !can_start_line(&o.text) {
        return true;
    }
    o.text.trim_end() == "}"
        && outs.get(i + 1).is_some_and(|next| {
            let t = scan::trim_start(&next.text);
            !t.is_empty() && t.len() < next.text.len()
        })
}

/// The length of a log prefix at the start of `l`: TensorFlow's
/// `2019-08-05 19:26:48.376350: E path/file.cc:72] ` (with a thread id
/// after the level in PyTorch/XLA's logs: `E     463 path/file.cc:98] `) or
/// glog's `I1130 13:20:01.123456 12345 file.cc:123] `.
pub(crate) fn log_prefix_len(l: &str) -> Option<usize> {
    let b = l.as_bytes();
    let first = *b.first()?;
    let head = if first.is_ascii_digit() {
        // `YYYY-MM-DD HH:MM:SS.ffffff: L `
        let date = b.get(..10)?;
        let ok = date.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            _ => c.is_ascii_digit(),
        });
        if !ok || b.get(10) != Some(&b' ') {
            return None;
        }
        let t = time_end(b, 11)?;
        if b.get(t) != Some(&b':') || b.get(t + 1) != Some(&b' ') {
            return None;
        }
        let lvl = t + 2;
        if !matches!(b.get(lvl), Some(b'I' | b'W' | b'E' | b'F')) || b.get(lvl + 1) != Some(&b' ') {
            return None;
        }
        // A thread id may follow the level, as PyTorch/XLA's TensorFlow
        // logging printed it: `E     463 tensorflow/...`.
        let s = scan::skip_ws(b, lvl + 1);
        let id = scan::take_while(b, s, |c| c.is_ascii_digit());
        if id > s && b.get(id) == Some(&b' ') {
            scan::skip_ws(b, id)
        } else {
            lvl + 2
        }
    } else if matches!(first, b'I' | b'W' | b'E' | b'F') {
        // `LMMDD HH:MM:SS.uuuuuu  12345 `
        let md = b.get(1..5)?;
        if !md.iter().all(u8::is_ascii_digit) || b.get(5) != Some(&b' ') {
            return None;
        }
        let t = time_end(b, 6)?;
        let s = scan::skip_ws(b, t);
        let id = scan::take_while(b, s, |c| c.is_ascii_digit());
        if id == s || b.get(id) != Some(&b' ') {
            return None;
        }
        scan::skip_ws(b, id)
    } else {
        return None;
    };
    // `path/file.cc:123] `
    let f = scan::take_while(b, head, |c| c != b' ' && c != b']' && c != b':');
    if f == head || b.get(f) != Some(&b':') {
        return None;
    }
    let ln = scan::take_while(b, f + 1, |c| c.is_ascii_digit());
    if ln == f + 1 || b.get(ln) != Some(&b']') {
        return None;
    }
    Some(if b.get(ln + 1) == Some(&b' ') {
        ln + 2
    } else {
        ln + 1
    })
}

/// After `HH:MM:SS` (optionally `.digits`) starting at `i`, the index past it.
fn time_end(b: &[u8], i: usize) -> Option<usize> {
    let t = b.get(i..i + 8)?;
    let ok = t.iter().enumerate().all(|(k, &c)| match k {
        2 | 5 => c == b':',
        _ => c.is_ascii_digit(),
    });
    if !ok {
        return None;
    }
    let mut j = i + 8;
    if b.get(j) == Some(&b'.') {
        j = scan::take_while(b, j + 1, |c| c.is_ascii_digit());
    }
    Some(j)
}

/// The length of a prompt at the start of `l`: `>>> `, `... ` or `$ `,
/// followed by something (a bare prompt line stays).
pub(crate) fn prompt_len(l: &str) -> Option<usize> {
    [">>> ", "... ", "$ "]
        .iter()
        .find(|p| l.starts_with(**p) && l.len() > p.len())
        .map(|p| p.len())
}

/// A line holding a Python string repr of a dump: two or more literal
/// `\n`s, and at least two of the pieces they separate start a dump line.
/// Returns the pieces, unescaped, with the character column each starts
/// at and where an escape shortened it; the quotes around the repr (and a
/// `b`/`r` prefix) dropped.
fn repr_segments(l: &str) -> Option<Vec<Segment>> {
    let b = l.as_bytes();
    let mut breaks = 0usize;
    let mut i = 0usize;
    while let Some(at) = scan::find_byte(b, i, b'\\') {
        match b.get(at + 1) {
            Some(b'n') => breaks += 1,
            Some(_) => {}
            None => break,
        }
        i = at + 2;
    }
    if breaks < 2 {
        return None;
    }
    // Split at unescaped `\n`, unescaping as we go.
    let mut segs: Vec<Segment> = Vec::new();
    let mut cur = String::new();
    // Characters in `cur`, and where they stop following `cur_col`.
    let mut len = 0usize;
    let mut jumps: Vec<(usize, usize)> = Vec::new();
    let mut cur_col = 0usize;
    let mut col = 0usize;
    let mut chars = l.chars().peekable();
    // An opening quote (optionally after b/r/f prefixes) is dropped.
    let lead = l.len() - l.trim_start().len();
    let t = l.trim_start();
    let pre = t
        .bytes()
        .take_while(|c| matches!(c, b'b' | b'r' | b'f' | b'u' | b'B' | b'R'))
        .count();
    let quote = t
        .as_bytes()
        .get(pre)
        .copied()
        .filter(|c| *c == b'\'' || *c == b'"');
    let mut skip = if quote.is_some() { lead + pre + 1 } else { 0 };
    while skip > 0 {
        chars.next();
        col += 1;
        skip -= 1;
    }
    cur_col = cur_col.max(col);
    while let Some(c) = chars.next() {
        col += 1;
        if c != '\\' {
            cur.push(c);
            len += 1;
            continue;
        }
        let Some(e) = chars.next() else {
            cur.push('\\');
            break;
        };
        col += 1;
        match e {
            'n' => {
                segs.push(Segment {
                    text: std::mem::take(&mut cur),
                    col: cur_col,
                    jumps: std::mem::take(&mut jumps),
                });
                cur_col = col;
                len = 0;
            }
            // Two pasted characters become one (or none): the next
            // character sits one further on (two) in the paste.
            't' | '\'' | '"' | '\\' => {
                cur.push(if e == 't' { '\t' } else { e });
                len += 1;
                jump(&mut jumps, len, col);
            }
            'r' => jump(&mut jumps, len, col),
            // Kept as pasted (`\x41`, `\u202e`): one for one.
            other => {
                cur.push('\\');
                cur.push(other);
                len += 2;
            }
        }
    }
    // The closing quote (and what a print of a container adds after it).
    if let Some(q) = quote {
        let q = char::from(q);
        let t = cur.trim_end();
        let t = t.trim_end_matches([',', ')', ']', '}']);
        if let Some(s) = t.strip_suffix(q) {
            cur.truncate(s.len());
        }
    }
    segs.push(Segment {
        text: cur,
        col: cur_col,
        jumps,
    });
    // A piece may start with a log prefix (a repr of captured log lines):
    // the next round strips it.
    let starts = segs
        .iter()
        .map(|s| {
            let t = s.text.as_str();
            log_prefix_len(t).and_then(|p| t.get(p..)).unwrap_or(t)
        })
        .filter(|t| !scan::is_blank(t) && starts_dump_line(t))
        .count();
    (starts >= 2).then_some(segs)
}

/// A piece of a repr between literal `\n`s, unescaped: its text, the
/// column of the line it starts at, and where an escape shortened it
/// (see [`Out`]'s `jumps`, with columns of the line).
struct Segment {
    text: String,
    col: usize,
    jumps: Vec<(usize, usize)>,
}

/// Notes that character `at` of a piece sits at column `col` of its line:
/// a later note for the same character replaces the earlier (`\r\r`).
fn jump(jumps: &mut Vec<(usize, usize)>, at: usize, col: usize) {
    match jumps.last_mut() {
        Some(last) if last.0 == at => last.1 = col,
        _ => jumps.push((at, col)),
    }
}

/// Whether `l` looks like the start of a dump line (used by the repr
/// check): a jaxpr, MLIR or HLO line, or a closing bracket.
fn starts_dump_line(l: &str) -> bool {
    let t = scan::trim_start(l);
    const HEADS: [&str; 15] = [
        "HloModule",
        "ENTRY",
        "ROOT",
        "%",
        "}",
        "{ lambda",
        "let",
        "in ",
        "module",
        "func.func",
        "#loc",
        "stablehlo.",
        "mhlo.",
        "return",
        "\"",
    ];
    HEADS.iter().any(|h| t.starts_with(h))
        || super::hlo::parse_instruction(t).is_some()
        || super::hlo::parse_computation_header(t).is_some()
        || super::jaxpr::parse_equation(t).is_some()
}

/// A line that closes a bracket: `}`, `)` or `]` alone or before a space
/// (`} loc(#loc3)`, `] b`), and MLIR's `})` alone or before ` :`, ` {` or
/// ` loc` (`}) : (tensor<f32>) -> tensor<f32>`).
fn closer_line(t: &str) -> bool {
    if let Some(rest) = t.strip_prefix("})") {
        return rest.is_empty()
            || rest.starts_with(" :")
            || rest.starts_with(" {")
            || rest.starts_with(" loc");
    }
    let b = t.as_bytes();
    matches!(b.first(), Some(b'}' | b')' | b']')) && matches!(b.get(1), None | Some(b' '))
}

/// Whether `l` could be a line of its own in a dump (so it is not the
/// continuation of a wrapped line): blank, a line the parsers read (an HLO
/// instruction or computation header, an MLIR op, a jaxpr equation), a
/// keyword that opens one, a closing bracket, a row of a `FileNames`/
/// `StackFrames` table, an indented `name=value` parameter of a jaxpr
/// equation, or a log line. A piece cut out of a line mostly starts mid-token, or with
/// the one space the cut fell on, and is none of these.
fn can_start_line(l: &str) -> bool {
    // A log line (a repr of captured log lines, split this round, keeps
    // its prefixes until the next).
    if log_prefix_len(l).is_some() {
        return true;
    }
    let t = scan::trim_start(l);
    let indent = l.len() - t.len();
    let Some(&first) = t.as_bytes().first() else {
        return true;
    };
    if first.is_ascii_digit() {
        // `12 "file.py"`, `3 {file_name_id=1 ...}`: a table row.
        let d = scan::take_while(t.as_bytes(), 0, |c| c.is_ascii_digit());
        return t.as_bytes().get(d) == Some(&b' ');
    }
    // A closing bracket alone, or before a space (`} loc(...)`, `] b`,
    // `}) : (...)`); a cut piece starts `}}`, `),` and the like.
    if closer_line(t.trim_end()) {
        return true;
    }
    const HEADS: [&str; 10] = [
        "HloModule",
        "ENTRY ",
        "ROOT ",
        "{ lambda",
        "let",
        "in (",
        "module",
        "func.func",
        "#loc",
        "^bb",
    ];
    if HEADS.iter().any(|h| t.starts_with(h))
        || matches!(
            t.trim_end(),
            "FileNames" | "FunctionNames" | "FileLocations" | "StackFrames"
        )
    {
        return true;
    }
    if indent >= 2 {
        let k = scan::take_while(t.as_bytes(), 0, scan::is_name_byte);
        if k > 0 && t.as_bytes().get(k) == Some(&b'=') {
            return true;
        }
    }
    super::hlo::parse_instruction(l).is_some()
        || super::hlo::parse_computation_header(l).is_some()
        || super::jaxpr::parse_equation(t).is_some()
        || super::mlir::op_of(l).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_prefixes_and_prompts() {
        for (l, want) in [
            (
                "2019-08-05 19:26:48.376350: E external/org_tensorflow/tensorflow/compiler/xla/xla_util.cc:72] HloModule m",
                Some("HloModule m"),
            ),
            (
                "I1130 13:20:01.123456 12345 file.cc:123] ENTRY %main {",
                Some("ENTRY %main {"),
            ),
            (
                "I0000 00:00:1700000000.123456   12345 service.cc:145] x",
                None,
            ),
            // Real lines: PyTorch/XLA's TensorFlow logging, with a thread
            // id (https://github.com/pytorch/xla/pull/2771, a comment of
            // 2021-02-10), and XLA's glog of a fusion log made here
            // (fixtures/argmax/fusion-log.gpu.txt:1).
            (
                "2021-02-10 03:53:38.327068: E     463 tensorflow/compiler/xla/xla_client/xla_util.cc:98] >>> Dumping Computation 0",
                Some(">>> Dumping Computation 0"),
            ),
            (
                "I1201 19:30:01.234090   17861 priority_fusion.cc:172] Running full HLO cost analysis for main.3",
                Some("Running full HLO cost analysis for main.3"),
            ),
            ("  %x = f32[8]{0} parameter(0)", None),
            ("2019-08-05 not a log", None),
        ] {
            let got = log_prefix_len(l).and_then(|p| l.get(p..));
            assert_eq!(got, want, "{l}");
        }
        assert_eq!(prompt_len(">>> print(x)"), Some(4));
        assert_eq!(prompt_len(">>> "), None);
    }
}
