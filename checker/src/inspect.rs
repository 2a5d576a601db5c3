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
//!   dump immediately followed by the compiled one.
//!
//! Replies are one JSON object: `{"error": "..."}` for a request that is not
//! text, else for `inspect` `{kind, backend, reason, lines, evidence:
//! [{line, start, end, marker, note, chapter, text}], map}` (`map` as
//! `mdbook-dumplab map --json` prints it, see [`crate::analysis`], or null
//! when the kind has none), and for `map` the map object.

use crate::analysis::{Kind, analyze};
use crate::sourcemap::{self, json::push_str};
use std::fmt::Write;

/// Deciding evidence lines sent to the page at most.
const MAX_EVIDENCE: usize = 48;
/// Characters of an evidence line's text sent to the page at most.
const MAX_LINE_CHARS: usize = 240;

/// The chapter (page of the book) that teaches a marker.
pub fn chapter_of(marker: &str) -> &'static str {
    match marker {
        m if m.starts_with("jaxpr") => "jaxpr.html",
        "mlir-module"
        | "func-main"
        | "func-func"
        | "stablehlo-op"
        | "mlir-tensor-type"
        | "mlir-loc"
        | "sharding-custom-call" => "stablehlo.html",
        "fusion-kind" | "fused-computation" | "fused-parameter" | "custom-call"
        | "gpu-custom-call" | "cpu-custom-call" | "tpu-custom-call" => "fusion.html",
        "layout" | "tpu-tiled-layout" | "memory-space" | "layout-op" => "layouts.html",
        "is-scheduled" | "not-scheduled" | "async-op" | "scheduling-name" => {
            "buffer-assignment.html"
        }
        _ => "hlo.html",
    }
}

fn error(msg: &str) -> String {
    let mut s = String::from("{\"error\":");
    push_str(&mut s, msg);
    s.push('}');
    s
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
            let len = std::str::from_utf8(body.get(..nl).unwrap_or(&[]))
                .ok()
                .and_then(|s| s.parse::<usize>().ok());
            let rest = body.get(nl + 1..).unwrap_or(&[]);
            let Some((lowered, compiled)) =
                len.and_then(|n| Some((rest.get(..n)?, rest.get(n..)?)))
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
        _ => error("malformed request: expected `inspect` or `map`"),
    }
}

/// The page's report on one dump (see the module docs).
pub fn inspect(text: &str) -> String {
    let a = analyze(text);
    let mut s = String::with_capacity(4096);
    s.push_str("{\"kind\":");
    push_str(&mut s, a.kind.as_str());
    s.push_str(",\"backend\":");
    match a.backend {
        Some(b) => push_str(&mut s, b.as_str()),
        None => s.push_str("null"),
    }
    s.push_str(",\"reason\":");
    match &a.reason {
        Some(r) => push_str(&mut s, r),
        None => s.push_str("null"),
    }
    let _ = write!(s, ",\"lines\":{},\"evidence\":[", a.lines);
    let wanted: Vec<usize> = a
        .deciding_evidence()
        .take(MAX_EVIDENCE)
        .map(|e| e.line)
        .collect();
    // The text of each evidence line, found in one pass over the lines.
    let mut texts: Vec<(usize, &str)> = Vec::new();
    if let (Some(&first), Some(&last)) = (wanted.iter().min(), wanted.iter().max()) {
        for (i, l) in crate::analysis::scan::lines(text).enumerate() {
            let n = i + 1;
            if n > last {
                break;
            }
            if n >= first && wanted.contains(&n) {
                let end = l
                    .char_indices()
                    .nth(MAX_LINE_CHARS)
                    .map_or(l.len(), |(p, _)| p);
                texts.push((n, l.get(..end).unwrap_or("")));
            }
        }
    }
    for (i, e) in a.deciding_evidence().take(MAX_EVIDENCE).enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"line\":{},\"start\":{},\"end\":{},\"marker\":",
            e.line, e.columns.start, e.columns.end
        );
        push_str(&mut s, e.marker);
        s.push_str(",\"note\":");
        push_str(&mut s, &e.note);
        s.push_str(",\"chapter\":");
        push_str(&mut s, chapter_of(e.marker));
        s.push_str(",\"text\":");
        let t = texts
            .iter()
            .find(|(n, _)| *n == e.line)
            .map_or("", |(_, t)| t);
        push_str(&mut s, t);
        s.push('}');
    }
    s.push_str("],\"map\":");
    match a.kind {
        Kind::HloOptimized => s.push_str(&sourcemap::json::to_json(&sourcemap::map("", text))),
        Kind::Stablehlo | Kind::Jaxpr | Kind::HloUnoptimized => {
            s.push_str(&sourcemap::json::to_json(&sourcemap::map(text, "")))
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
            let m = sourcemap::map("", &text);
            if a.kind == Kind::HloOptimized {
                assert_eq!(
                    v["map"]["kernels"].as_array().unwrap().len(),
                    m.kernels.len()
                );
                assert!(!m.kernels.is_empty());
            }
            let ev = v["evidence"].as_array().unwrap();
            assert!(!ev.is_empty(), "{fam} {file}");
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
}
