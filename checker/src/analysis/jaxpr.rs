//! A tolerant, line-based reader of jaxprs as `str(jax.make_jaxpr(f)(...))`
//! prints them.
//!
//! A jaxpr is `{ lambda consts ; inputs. let equations in (outputs) }`, with
//! one equation per line and sub-jaxprs (of `pjit`, `scan`, `while`, `cond`,
//! `custom_jvp_call`, ...) printed inline inside an equation's parameters.
//! The reader tracks how many `{ lambda` are open with a counter, so nesting
//! depth costs nothing and a truncated excerpt is fine.
//!
//! The state primitives of a Pallas kernel's jaxpr (reads and writes of
//! refs) print without `=`: `e:f32[8] <- c[...]` is a `get`,
//! `h:f32[8], d[...] <- d[...], g` (or `d[...] <- g`) a `swap` and
//! `d[...] += g` an `addupdate`; each is one equation.

use super::markers::M;
use super::model::{Analysis, Equation};
use super::scan::{skip_ws, take_while};
use super::sink::Sink;

/// One equation line, split into parts.
pub(crate) struct Eqn<'a> {
    pub(crate) outputs: Vec<&'a str>,
    pub(crate) primitive: &'a str,
    pub(crate) primitive_at: usize,
    /// The length of the primitive's text on the line (`<-` for a `get`).
    pub(crate) primitive_len: usize,
}

/// Parses `a:f32[8] b:i32[] = prim[params] args` (also from `start`, for the
/// equation after `. let` of a one-line sub-jaxpr).
pub(crate) fn parse_equation(l: &str) -> Option<Eqn<'_>> {
    parse_equation_from(l, 0)
}

fn parse_equation_from(l: &str, start: usize) -> Option<Eqn<'_>> {
    let b = l.as_bytes();
    let mut i = skip_ws(b, start);
    let mut outputs = Vec::new();
    loop {
        let v0 = i;
        let v1 = take_while(b, i, |c| c.is_ascii_alphanumeric() || c == b'_');
        if v1 == v0 || b.get(v1) != Some(&b':') {
            break;
        }
        let d0 = v1 + 1;
        let d1 = take_while(b, d0, |c| {
            c.is_ascii_alphanumeric() || c == b'<' || c == b'>' || c == b'_'
        });
        if d1 == d0 || b.get(d1) != Some(&b'[') {
            return None;
        }
        let e = super::scan::skip_balanced(b, d1)?;
        // Sharded or weak types print suffixes like `{...}`; skip a brace group.
        let e = if b.get(e) == Some(&b'{') {
            super::scan::skip_balanced(b, e)?
        } else {
            e
        };
        outputs.push(l.get(v0..e)?);
        i = skip_ws(b, e);
    }
    if b.get(i) != Some(&b'=') || b.get(i + 1) == Some(&b'=') {
        return ref_equation(l, i, outputs);
    }
    if outputs.is_empty() {
        return None;
    }
    let p0 = skip_ws(b, i + 1);
    let p1 = take_while(b, p0, |c| c.is_ascii_alphanumeric() || c == b'_');
    if p1 == p0
        || !b
            .get(p0)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    {
        return None;
    }
    match b.get(p1) {
        None | Some(b' ') | Some(b'[') | Some(b'\r') => {}
        _ => return None,
    }
    Some(Eqn {
        outputs,
        primitive: l.get(p0..p1)?,
        primitive_at: p0,
        primitive_len: p1 - p0,
    })
}

/// A state primitive on a ref, at `i` after the typed `outputs`:
/// `y <- r[idx]` (get), `y, r[idx] <- r[idx], v` or `r[idx] <- v` (swap),
/// `r[idx] += v` (addupdate). The primitive's span is the arrow.
fn ref_equation<'a>(l: &'a str, i: usize, outputs: Vec<&'a str>) -> Option<Eqn<'a>> {
    let b = l.as_bytes();
    // An arrow with something after it.
    let arrow = |at: usize| -> Option<&'static str> {
        if b.get(at + 3).is_none_or(|c| c.is_ascii_whitespace()) {
            return None;
        }
        match (b.get(at), b.get(at + 1), b.get(at + 2)) {
            (Some(b'<'), Some(b'-'), Some(b' ')) => Some("<-"),
            (Some(b'+'), Some(b'='), Some(b' ')) => Some("+="),
            _ => None,
        }
    };
    let eqn = |primitive: &'static str, at: usize| Eqn {
        outputs: outputs.clone(),
        primitive,
        primitive_at: at,
        primitive_len: 2,
    };
    match (outputs.len(), arrow(i)) {
        // `y <- r[idx]`
        (1, Some("<-")) => return ref_place(b, skip_ws(b, i + 2)).map(|_| eqn("get", i)),
        (1, None) if b.get(i) == Some(&b',') => {
            // `y, r[idx] <- r[idx], v`
            let at = skip_ws(b, ref_place(b, skip_ws(b, i + 1))?);
            return (arrow(at) == Some("<-")).then(|| eqn("swap", at));
        }
        (0, _) => {}
        _ => return None,
    }
    // `r[idx] <- v` or `r[idx] += v`
    let at = skip_ws(b, ref_place(b, i)?);
    match arrow(at)? {
        "<-" => Some(eqn("swap", at)),
        _ => Some(eqn("addupdate", at)),
    }
}

/// A ref with its indexers, `r[...]` or `r[:,o:o+128]`, from `i`; the end.
fn ref_place(b: &[u8], i: usize) -> Option<usize> {
    let e = take_while(b, i, |c| c.is_ascii_alphanumeric() || c == b'_');
    if e == i
        || !b
            .get(i)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    {
        return None;
    }
    if b.get(e) == Some(&b'[') {
        super::scan::skip_balanced(b, e)
    } else {
        Some(e)
    }
}

/// Per-text jaxpr state.
pub(crate) struct JaxprState {
    open: usize,
}

impl JaxprState {
    pub(crate) fn new() -> Self {
        JaxprState { open: 0 }
    }

    /// Reads one line; `true` when it was jaxpr.
    pub(crate) fn line<'a>(
        &mut self,
        n: usize,
        l: &'a str,
        a: &mut Analysis,
        sink: &mut Sink<'a>,
    ) -> bool {
        let t = l.trim_start();
        let at = l.len() - t.len();
        let mut hit = false;
        let mut eq_from: Option<usize> = None;
        if let Some(p) = l.find("{ lambda") {
            hit = true;
            let lambdas = l.matches("{ lambda").count();
            let nested = self.open > 0 || l.contains("={ lambda");
            // `let name = { lambda ...`: a shared sub-jaxpr printed before the
            // top-level one; its equations are nested, so count one level more
            // until its closing `} in`.
            let shared = t.starts_with("let ") && t.contains("= { lambda");
            self.open += lambdas + usize::from(shared);
            sink.add(M::JaxprLambda, n, l, p, "{ lambda".len(), || {
                "`{ lambda ... let`: a jaxpr opens with its input variables, then `let` and its equations.".to_owned()
            });
            if nested {
                sink.add(M::JaxprSubjaxpr, n, l, p, "{ lambda".len(), || {
                    "A jaxpr nested inside an equation's parameters, as `pjit`, `scan`, `while` and `cond` carry them.".to_owned()
                });
            }
            if let Some(q) = l.find(". let ") {
                eq_from = Some(q + ". let ".len());
            }
        }
        let te = t.trim_end();
        if te == "let" || te.ends_with(". let") {
            hit = true;
            let p = at + te.len() - 3;
            sink.add(M::JaxprLet, n, l, p, 3, || {
                "`let` opens the equations of a jaxpr.".to_owned()
            });
        }
        let eqn = match eq_from {
            Some(from) => parse_equation_from(l, from),
            None if !hit => parse_equation(l),
            None => None,
        };
        if let Some(e) = eqn {
            hit = true;
            let depth = self.open.saturating_sub(1);
            sink.op(e.primitive);
            sink.add(M::JaxprEquation, n, l, e.primitive_at, e.primitive_len, || {
                format!("A jaxpr equation: `{}` binds typed variables to the result of the primitive `{}`.", e.outputs.join(" "), e.primitive)
            });
            a.equations.push(Equation {
                line: n,
                primitive: e.primitive.to_owned(),
                outputs: e.outputs.iter().map(|s| (*s).to_owned()).collect(),
                depth,
            });
        }
        let in_at = if t.starts_with("in ") {
            Some(at)
        } else if eq_from.is_some() {
            l.find(" in (").map(|p| p + 1)
        } else {
            None
        };
        if let Some(p) = in_at {
            hit = true;
            sink.add(M::JaxprIn, n, l, p, 2, || {
                "`in (...)` names the values a jaxpr returns.".to_owned()
            });
            if te.contains('}') {
                let shared_end = te.ends_with("} in");
                self.open = self.open.saturating_sub(1 + usize::from(shared_end));
            }
        }
        hit
    }
}

#[cfg(test)]
mod tests;
