//! The lowered side of the syntax layer: the ops of a StableHLO/MHLO
//! module and their `loc(...)` source locations, the equations of a jaxpr
//! and the `# file:line` comments `pretty_print(source_info=True)` adds, or
//! the instructions of an HLO module before optimization (through
//! [`super::parse`]), as one typed list of [`Op`]s with their
//! [`Location`]s.
//!
//! MLIR locations are read with a small parser over the location grammar
//! JAX prints: `#locN` aliases (defined before or after use), `unknown`,
//! file locations `"f.py":12:3 to :9`, named locations `"name"(child)`,
//! `callsite(callee at caller)` (the callee is the line that ran: the
//! innermost frame) and `fused[a, b]` / `fused<...>[a, b]` (every part
//! counts). Aliases are resolved once each; nesting is followed at most
//! [`MAX_DEPTH`] levels, so a cyclic or adversarial chain stays bounded.

use super::text::for_each_top;
use crate::analysis::jaxpr::parse_equation;
use crate::analysis::scan::{self, Sip};
use std::collections::HashMap;

/// How many levels of location nesting and alias hops are followed.
pub(crate) const MAX_DEPTH: usize = 32;
/// Source lines kept per location (a `fused` location may list many).
const MAX_LINES: usize = 16;

/// What one location resolves to: the outermost name (the JAX op path,
/// for example `jit(f)/mul`) and the file lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location<'a> {
    /// The outermost name: the JAX op path.
    pub name: Option<&'a str>,
    /// The (file, line)s it names, innermost frame first.
    pub lines: Vec<(&'a str, u32)>,
}

/// The `#locN = loc(...)` aliases of a module, and their resolutions.
#[derive(Default)]
pub(crate) struct Locs<'a> {
    aliases: HashMap<&'a str, &'a str, Sip>,
    memo: HashMap<&'a str, Location<'a>, Sip>,
}

fn alias_end(b: &[u8], from: usize) -> usize {
    scan::take_while(b, from, |c| {
        c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'$' || c == b'-'
    })
}

impl<'a> Locs<'a> {
    /// Records an alias line `#loc3 = loc(...)`; `true` when it was one.
    pub(crate) fn alias_line(&mut self, t: &'a str) -> bool {
        let b = t.as_bytes();
        if b.first() != Some(&b'#') {
            return false;
        }
        let e = alias_end(b, 1);
        let (Some(name), Some(rest)) = (t.get(..e), t.get(e..)) else {
            return false;
        };
        match rest.trim_start().strip_prefix('=').map(str::trim_start) {
            Some(r) => match r.strip_prefix("loc(") {
                Some(body) => {
                    self.aliases.entry(name).or_insert(body);
                    true
                }
                None => false,
            },
            None => false,
        }
    }

    /// Resolves the location expression at the start of `s` (the text
    /// after `loc(`).
    pub(crate) fn resolve(&mut self, s: &'a str) -> Location<'a> {
        self.parse(s, 0).0
    }

    /// Parses one location at the start of `s`: what it resolves to and
    /// the text after it.
    fn parse(&mut self, s: &'a str, depth: usize) -> (Location<'a>, &'a str) {
        let s = s.trim_start();
        let b = s.as_bytes();
        if depth > MAX_DEPTH {
            return (Location::default(), "");
        }
        match b.first() {
            Some(b'#') => {
                let e = alias_end(b, 1);
                let key = s.get(..e).unwrap_or("");
                let rest = s.get(e..).unwrap_or("");
                if let Some(r) = self.memo.get(key) {
                    return (r.clone(), rest);
                }
                let r = match self.aliases.get(key).copied() {
                    Some(body) => self.parse(body, depth + 1).0,
                    None => Location::default(),
                };
                self.memo.insert(key, r.clone());
                (r, rest)
            }
            Some(b'"') => {
                let Some(close) = scan::string_end(b, 1) else {
                    return (Location::default(), "");
                };
                let text = s.get(1..close).unwrap_or("");
                let after = s.get(close + 1..).unwrap_or("");
                if let Some(pos) = after.strip_prefix(':') {
                    let d = pos.bytes().take_while(u8::is_ascii_digit).count();
                    let line = pos.get(..d).and_then(|x| x.parse::<u32>().ok());
                    let rest = skip_file_tail(pos);
                    let lines = line.map(|l| vec![(text, l)]).unwrap_or_default();
                    return (Location { name: None, lines }, rest);
                }
                if let Some(inner) = after.strip_prefix('(') {
                    let (child, rest) = self.parse(inner, depth + 1);
                    let rest = rest.trim_start();
                    let rest = rest.strip_prefix(')').unwrap_or(rest);
                    return (
                        Location {
                            name: Some(text),
                            lines: child.lines,
                        },
                        rest,
                    );
                }
                (
                    Location {
                        name: Some(text),
                        lines: Vec::new(),
                    },
                    after,
                )
            }
            _ => {
                if let Some(r) = s.strip_prefix("unknown") {
                    return (Location::default(), r);
                }
                if let Some(inner) = s.strip_prefix("callsite(") {
                    let (callee, rest) = self.parse(inner, depth + 1);
                    let rest = rest.trim_start();
                    let (caller, rest) = match rest.strip_prefix("at ") {
                        Some(r) => self.parse(r, depth + 1),
                        None => (Location::default(), rest),
                    };
                    let rest = rest.trim_start();
                    let rest = rest.strip_prefix(')').unwrap_or(rest);
                    let lines = if callee.lines.is_empty() {
                        caller.lines
                    } else {
                        callee.lines
                    };
                    return (
                        Location {
                            name: callee.name.or(caller.name),
                            lines,
                        },
                        rest,
                    );
                }
                if let Some(mut rest) = s.strip_prefix("fused") {
                    if rest.starts_with('<') {
                        // `fused<metadata>[...]`: skip the metadata.
                        let mut depth_angle = 0usize;
                        let mut end = rest.len();
                        for (i, c) in rest.bytes().enumerate() {
                            match c {
                                b'<' => depth_angle += 1,
                                b'>' => {
                                    depth_angle = depth_angle.saturating_sub(1);
                                    if depth_angle == 0 {
                                        end = i + 1;
                                        break;
                                    }
                                }
                                _ => {}
                            }
                        }
                        rest = rest.get(end..).unwrap_or("");
                    }
                    let Some(mut r) = rest.trim_start().strip_prefix('[') else {
                        return (Location::default(), rest);
                    };
                    let mut out = Location::default();
                    for _ in 0..MAX_LINES * 4 {
                        let (part, after) = self.parse(r, depth + 1);
                        out.name = out.name.or(part.name);
                        for l in part.lines {
                            if out.lines.len() < MAX_LINES && !out.lines.contains(&l) {
                                out.lines.push(l);
                            }
                        }
                        let after = after.trim_start();
                        match after.strip_prefix(',') {
                            Some(next) if next.len() < r.len() => r = next,
                            _ => {
                                r = after.strip_prefix(']').unwrap_or(after);
                                break;
                            }
                        }
                    }
                    return (out, r);
                }
                (Location::default(), "")
            }
        }
    }
}

/// After `"file":LINE`, skips `:col`, ` to :col`, ` to line:col`: up to a
/// `)`, `]`, `,` or ` at `.
fn skip_file_tail(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        if c == b')' || c == b']' || c == b',' {
            break;
        }
        if c == b' ' && s.get(i..).is_some_and(|r| r.starts_with(" at ")) {
            break;
        }
        i += 1;
    }
    s.get(i..).unwrap_or("")
}

/// Which lowered format a text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoweredFormat {
    /// An MLIR module (StableHLO), with `loc(...)` when printed with debug info.
    Stablehlo,
    /// A jaxpr.
    Jaxpr,
    /// HLO text (before optimization), with `metadata={...}`.
    Hlo,
}

impl LoweredFormat {
    /// The name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            LoweredFormat::Stablehlo => "stablehlo",
            LoweredFormat::Jaxpr => "jaxpr",
            LoweredFormat::Hlo => "hlo",
        }
    }
}

/// One op of a lowered dump: its line, name, op and location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op<'a> {
    /// 1-based line.
    pub line: usize,
    /// Its result (`%3`), output variable (`c`) or instruction name.
    pub name: &'a str,
    /// The op (`stablehlo.add`, the primitive `add`, the opcode `add`).
    pub op: &'a str,
    /// Where it came from.
    pub at: Location<'a>,
}

/// A lowered dump, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lowered<'a> {
    /// Its format, `None` when empty or not recognised.
    pub format: Option<LoweredFormat>,
    /// Its ops, in text order.
    pub ops: Vec<Op<'a>>,
    /// Parameter shapes of its entry function, as HLO shapes, when printed.
    pub signature: Option<Vec<String>>,
}

/// Guesses the lowered format from the first line that decides it.
fn format_of(text: &str) -> Option<LoweredFormat> {
    for l in scan::lines(text).take(100_000) {
        let t = scan::trim(l);
        if t.starts_with("HloModule") || t.starts_with("ENTRY ") {
            return Some(LoweredFormat::Hlo);
        }
        if t.starts_with("module") || t.starts_with("func.func") || t.contains(" = stablehlo.") {
            return Some(LoweredFormat::Stablehlo);
        }
        if t.starts_with("{ lambda") {
            return Some(LoweredFormat::Jaxpr);
        }
    }
    None
}

/// Reads a lowered dump.
pub fn read(text: &str) -> Lowered<'_> {
    match format_of(text) {
        Some(LoweredFormat::Stablehlo) => read_mlir(text),
        Some(LoweredFormat::Jaxpr) => read_jaxpr(text),
        Some(LoweredFormat::Hlo) => {
            let m = super::parse(text);
            let ops = m
                .instructions
                .iter()
                .filter(|i| i.opcode != "parameter")
                .map(|i| {
                    // A location counts only beside an op name, as the
                    // kernels' provenance does.
                    let op_name = i.metadata().op_name;
                    Op {
                        line: i.line,
                        name: i.name,
                        op: i.opcode,
                        at: Location {
                            name: op_name,
                            lines: op_name
                                .and_then(|_| m.location(&i.metadata()))
                                .into_iter()
                                .collect(),
                        },
                    }
                })
                .collect();
            Lowered {
                format: Some(LoweredFormat::Hlo),
                ops,
                signature: m.entry_signature(),
            }
        }
        None => Lowered {
            format: None,
            ops: Vec::new(),
            signature: None,
        },
    }
}

/// The op of an MLIR op line: (result, op name), for ops that do work
/// (not `return`s or `func.func`; a `call` counts).
fn mlir_op(t: &str) -> Option<(&str, &str)> {
    let b = t.as_bytes();
    let mut result = "";
    let mut j = 0usize;
    if b.first() == Some(&b'%') {
        let e = scan::take_while(b, 1, |c| {
            c.is_ascii_alphanumeric() || c == b'_' || c == b'#'
        });
        result = t.get(..e).unwrap_or("");
        let mut k = scan::skip_ws(b, e);
        if b.get(k) == Some(&b':') {
            k = scan::skip_ws(b, scan::take_while(b, k + 1, |c| c.is_ascii_digit()));
        }
        while b.get(k) == Some(&b',') {
            k = scan::skip_ws(b, k + 1);
            k = scan::take_while(b, k, |c| c != b' ' && c != b'=');
            k = scan::skip_ws(b, k);
        }
        if b.get(k) != Some(&b'=') {
            return None;
        }
        j = scan::skip_ws(b, k + 1);
    }
    let quoted = b.get(j) == Some(&b'"');
    let s = if quoted { j + 1 } else { j };
    let e = scan::take_while(b, s, |c| {
        c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
    });
    let name = t.get(s..e)?;
    let dotted = (name.contains('.') || (name == "call" && !result.is_empty()))
        && b.get(s).is_some_and(u8::is_ascii_lowercase);
    if !dotted || matches!(name, "func.func" | "func.return" | "stablehlo.return") {
        return None;
    }
    Some((result, name))
}

/// Net `{`/`}` count of a line, outside double-quoted strings.
fn brace_delta(t: &str) -> isize {
    let b = t.as_bytes();
    let mut d = 0isize;
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => match scan::string_end(b, i + 1) {
                Some(e) => i = e,
                None => break,
            },
            b'{' => d += 1,
            b'}' => d -= 1,
            _ => {}
        }
        i += 1;
    }
    d
}

fn read_mlir(text: &str) -> Lowered<'_> {
    let mut locs = Locs::default();
    let mut ops: Vec<(usize, &str, &str, Option<&str>)> = Vec::new();
    // Ops whose location comes on the line that closes their regions:
    // (index in `ops`, brace depth before the op's line).
    let mut open: Vec<(usize, isize)> = Vec::new();
    let mut depth = 0isize;
    let mut signature = None;
    for (i, l) in scan::lines(text).enumerate() {
        let n = i + 1;
        let t = scan::trim(l);
        if t.is_empty() || locs.alias_line(t) {
            continue;
        }
        let before = depth;
        depth += brace_delta(t);
        let loc = t.rfind("loc(").and_then(|p| t.get(p + 4..));
        if signature.is_none() && t.contains("func.func") && t.contains("@main(") {
            signature = Some(mlir_signature(t));
        }
        if let Some((result, op)) = mlir_op(t) {
            ops.push((n, result, op, loc));
            if loc.is_none() {
                open.push((ops.len() - 1, before));
            }
            continue;
        }
        if t.starts_with('}') {
            while let Some(&(idx, d)) = open.last() {
                if depth > d {
                    break;
                }
                open.pop();
                if depth == d {
                    if let Some(o) = ops.get_mut(idx) {
                        o.3 = loc;
                    }
                    break;
                }
            }
        }
    }
    let ops = ops
        .into_iter()
        .map(|(line, name, op, loc)| Op {
            line,
            name,
            op,
            at: loc.map(|s| locs.resolve(s)).unwrap_or_default(),
        })
        .collect();
    Lowered {
        format: Some(LoweredFormat::Stablehlo),
        ops,
        signature,
    }
}

/// The argument types of `func.func public @main(...)`, as HLO shapes.
fn mlir_signature(t: &str) -> Vec<String> {
    let Some(p) = t.find("@main(") else {
        return Vec::new();
    };
    let open = p + 5;
    let close = scan::skip_balanced(t.as_bytes(), open).unwrap_or(t.len());
    let args = t.get(open + 1..close.saturating_sub(1)).unwrap_or("");
    let mut out = Vec::new();
    for_each_top(args, |a| {
        let ty = a.split_once(':').map_or(a, |(_, ty)| ty).trim();
        out.push(mlir_type_to_hlo(ty));
    });
    out
}

/// `tensor<8x128xf32>` → `f32[8,128]`; `tensor<i1>` → `pred[]`.
pub(crate) fn mlir_type_to_hlo(ty: &str) -> String {
    let Some(inner) = ty.strip_prefix("tensor<") else {
        let word = ty.split([' ', '{']).next().unwrap_or(ty);
        return if word.ends_with("token") {
            "token[]".to_owned()
        } else {
            word.to_owned()
        };
    };
    // Up to the `>` that closes `tensor<`, skipping an encoding after `,`.
    let mut level = 1usize;
    let mut end = inner.len();
    for (i, c) in inner.bytes().enumerate() {
        match c {
            b'<' => level += 1,
            b'>' => {
                level -= 1;
                if level == 0 {
                    end = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let body = inner.get(..end).unwrap_or(inner);
    let mut first = None;
    for_each_top(body, |p| {
        first = first.or(Some(p));
    });
    let mut rest = first.unwrap_or(body);
    let mut dims: Vec<&str> = Vec::new();
    loop {
        let d = rest
            .bytes()
            .take_while(|c| c.is_ascii_digit() || *c == b'?')
            .count();
        match (
            rest.get(..d),
            rest.get(d..).and_then(|r| r.strip_prefix('x')),
        ) {
            (Some(dim), Some(r)) if d > 0 => {
                dims.push(dim);
                rest = r;
            }
            _ => break,
        }
    }
    let (dims, elem) = (dims.join(","), rest);
    format!("{}[{dims}]", element_to_hlo(elem))
}

fn element_to_hlo(e: &str) -> String {
    match e {
        "i1" => "pred".to_owned(),
        "complex<f32>" => "c64".to_owned(),
        "complex<f64>" => "c128".to_owned(),
        _ => {
            if let Some(bits) = e.strip_prefix("ui") {
                format!("u{bits}")
            } else if let Some(bits) = e.strip_prefix('i') {
                format!("s{bits}")
            } else {
                e.to_ascii_lowercase()
            }
        }
    }
}

/// A jaxpr type `f32[8,128]` / `i32[]` / `bool[4]` as an HLO shape.
fn jaxpr_type_to_hlo(ty: &str) -> String {
    let ty = ty.split('{').next().unwrap_or(ty);
    let (elem, dims) = ty.split_once('[').unwrap_or((ty, "]"));
    let elem = match elem {
        "bool" => "pred".to_owned(),
        e => match e.strip_prefix('i') {
            Some(bits) => format!("s{bits}"),
            None => e.to_owned(),
        },
    };
    format!("{elem}[{dims}")
}

/// A `# path.py:LINE[:COL] (fn)` comment at the end of a jaxpr equation.
fn jaxpr_source(l: &str) -> Option<(&str, u32)> {
    let p = l.rfind(" # ")?;
    let c = l.get(p + 3..)?.trim();
    let token = c.split(" (").next().unwrap_or(c).trim();
    let (head, last) = token.rsplit_once(':')?;
    let last = last.parse::<u32>().ok()?;
    if let Some((file, line)) = head.rsplit_once(':') {
        if let Ok(n) = line.parse::<u32>() {
            return Some((file, n));
        }
    }
    Some((head, last))
}

fn read_jaxpr(text: &str) -> Lowered<'_> {
    let mut ops = Vec::new();
    let mut signature = None;
    for (i, l) in scan::lines(text).enumerate() {
        if signature.is_none() {
            if let Some(p) = l.find("{ lambda") {
                let rest = l.get(p + 8..).unwrap_or("");
                let after = rest.split_once(';').map_or(rest, |(_, r)| r);
                let vars = after.split(". let").next().unwrap_or(after);
                let vars = vars.trim().trim_end_matches('.');
                signature = Some(
                    vars.split_whitespace()
                        .filter_map(|v| v.split_once(':').map(|(_, t)| jaxpr_type_to_hlo(t)))
                        .collect(),
                );
                continue;
            }
        }
        if let Some(eq) = parse_equation(l) {
            let name = eq
                .outputs
                .first()
                .map_or("", |o| o.split(':').next().unwrap_or(o));
            ops.push(Op {
                line: i + 1,
                name,
                op: eq.primitive,
                at: Location {
                    name: Some(eq.primitive),
                    lines: jaxpr_source(l).into_iter().collect(),
                },
            });
        }
    }
    Lowered {
        format: Some(LoweredFormat::Jaxpr),
        ops,
        signature,
    }
}
