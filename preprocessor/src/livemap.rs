//! `{{#dumplab-map FAMILY BACKEND}}`: a fixture family's source map,
//! rendered at build time from its `lowered.stablehlo.mlir` and
//! `compiled.BACKEND.hlo.txt` by `dumplab::sourcemap`, and made interactive
//! in the page by `theme/livemap.js` (focusing or hovering a row lights
//! up the kernels of a Python line, or the lines of a kernel).
//!
//! Every piece of text from the fixture is escaped; the block is one raw
//! HTML block (no blank line, no `{{`).

use crate::directives::{Directive, Found, Name};
use crate::exercises::Exercises;
use crate::html::{escape_text, inert};
use dumplab::sourcemap::{self, SourceMap};
use dumplab::{Backend, Diagnostic};
use std::fmt::Write as _;

/// The lowered dump a live map reads.
const LOWERED: &str = "lowered.stablehlo.mlir";
/// Lowered ops listed per source line at most.
const SHOWN_OPS: usize = 6;

/// The colour of the `i`-th source line: hues spread by the golden angle.
pub(crate) fn hue(i: usize) -> u32 {
    // 137.508° in thousandths, kept integral so the page is reproducible.
    ((i as u64 * 137_508 / 1000) % 360) as u32
}

/// Replaces the chapter's `{{#dumplab-map ...}}` directives with their maps.
pub(crate) fn expand(
    file: &str,
    content: &str,
    found: &Found,
    exercises: &Exercises,
    diags: &mut Vec<Diagnostic>,
) -> String {
    let mut out = content.to_owned();
    let ds: Vec<&Directive> = found
        .directives
        .iter()
        .filter(|d| d.name == Name::Map)
        .collect();
    // From the end, so earlier ranges stay valid.
    for (n, d) in ds.iter().enumerate().rev() {
        let html = match render(d, n, exercises) {
            Ok(h) => format!("\n\n{}\n\n", inert(h)),
            Err((msg, hint)) => {
                diags.push(Diagnostic::error_at(file, content, d.range.start, msg).with_hint(hint));
                String::new()
            }
        };
        out.replace_range(d.range.clone(), &html);
    }
    out
}

type Problem = (String, String);

fn render(d: &Directive, n: usize, exercises: &Exercises) -> Result<String, Problem> {
    let usage =
        "write `{{#dumplab-map FAMILY BACKEND}}`, for example `{{#dumplab-map softmax cpu}}`";
    let mut words = d.arg.split_whitespace();
    let (Some(family), Some(backend), None) = (words.next(), words.next(), words.next()) else {
        return Err((
            "`{{#dumplab-map}}` takes a fixture family and a backend".to_owned(),
            usage.to_owned(),
        ));
    };
    let Some(fam) = exercises.family(family) else {
        let hint = match dumplab::did_you_mean(family, exercises.family_names()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => "name a folder under `fixtures/`".to_owned(),
        };
        return Err((format!("no fixture family `{family}`"), hint));
    };
    let Ok(backend) = backend.parse::<Backend>() else {
        return Err((
            format!("`{backend}` is not a backend"),
            "use `cpu`, `gpu` or `tpu`".to_owned(),
        ));
    };
    let compiled_name = format!("compiled.{backend}.hlo.txt");
    let (Some(lowered), Some(compiled)) = (fam.dump_text(LOWERED), fam.dump_text(&compiled_name))
    else {
        return Err((
            format!("fixtures/{family} has no `{LOWERED}` and `{compiled_name}` to map"),
            "generate them with fixtures/generate.py, or pick another family or backend".to_owned(),
        ));
    };
    let m = sourcemap::map(lowered, compiled);
    if let Some(why) = &m.mismatch {
        return Err((
            format!("fixtures/{family}: {why}"),
            "regenerate the family's dumps together".to_owned(),
        ));
    }
    if m.kernels.is_empty() {
        return Err((
            format!("fixtures/{family}/{compiled_name} has no kernel"),
            "check that it is a compiled dump with an ENTRY computation".to_owned(),
        ));
    }
    let source = fam.dump_text("function.py").unwrap_or("");
    Ok(html(family, backend, n, &m, source))
}

fn chip(out: &mut String, i: usize, title: &str) {
    let _ = write!(
        out,
        r#"<span class="dlp-chip" style="background-color:hsl({},70%,50%)" title="{}"></span>"#,
        hue(i),
        escape_text(title)
    );
}

fn list(ids: &[usize]) -> String {
    ids.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The map as one raw HTML block.
fn html(family: &str, backend: Backend, n: usize, m: &SourceMap, source: &str) -> String {
    let src_lines: Vec<&str> = source.lines().collect();
    let mut h = String::new();
    let _ = write!(
        h,
        r#"<figure class="dumplab-livemap" data-dumplab-livemap="" id="dumplab-map-{n}-{}"><figcaption>Source map of <code>fixtures/{}</code>: Python lines, the lowered StableHLO ops they became, and the {} they landed in compiled for {}. Focus or hover a row to light up the other side.</figcaption>"#,
        escape_text(family),
        escape_text(family),
        if m.kernels.len() == 1 {
            "1 kernel".to_owned()
        } else {
            format!("{} kernels", m.kernels.len())
        },
        backend.as_str().to_uppercase()
    );
    h.push_str(r#"<table class="dlp-table dlp-map-lines"><caption>Python lines</caption><thead><tr><th>line</th><th>source</th><th>lowered ops</th><th>kernels</th></tr></thead><tbody>"#);
    for (i, e) in m.source_lines.iter().enumerate() {
        let _ = write!(
            h,
            r#"<tr tabindex="0" data-line="{i}" data-kernels="{}"><td>"#,
            list(&e.kernels)
        );
        let file = e.source.file.rsplit('/').next().unwrap_or(&e.source.file);
        let place = format!("{file}:{}", e.source.line);
        chip(&mut h, i, &place);
        let _ = write!(h, " {}</td>", escape_text(&place));
        let code = src_lines
            .get((e.source.line as usize).wrapping_sub(1))
            .filter(|_| e.source.file.ends_with(&format!("{family}/function.py")))
            .map_or("", |l| l.trim());
        let _ = write!(h, "<td><code>{}</code></td>", escape_text(code));
        let ops: Vec<String> = e
            .lowered_ops
            .iter()
            .filter_map(|&o| m.lowered_ops.get(o))
            .map(|o| o.op.strip_prefix("stablehlo.").unwrap_or(&o.op).to_owned())
            .collect();
        let more = if ops.len() > SHOWN_OPS { ", …" } else { "" };
        let shown: Vec<&str> = ops.iter().take(SHOWN_OPS).map(String::as_str).collect();
        let _ = write!(
            h,
            "<td>{}: {}{more}</td>",
            ops.len(),
            escape_text(&shown.join(", "))
        );
        let ks: Vec<&str> = e
            .kernels
            .iter()
            .filter_map(|&k| m.kernels.get(k))
            .map(|k| k.name.as_str())
            .collect();
        let _ = write!(h, "<td>{}</td></tr>", escape_text(&ks.join(", ")));
    }
    h.push_str("</tbody></table>");
    h.push_str(r#"<table class="dlp-table dlp-map-kernels"><caption>Kernels, in run order</caption><thead><tr><th>kernel</th><th>what it is</th><th>reads</th><th>writes</th><th>from lines</th></tr></thead><tbody>"#);
    for (k, kernel) in m.kernels.iter().enumerate() {
        let _ = write!(
            h,
            r#"<tr tabindex="0" data-kernel="{k}" data-lines="{}"><td><code>{}</code></td>"#,
            list(&kernel.source_lines),
            escape_text(&kernel.name)
        );
        let what = match &kernel.detail {
            Some(d) => format!("{} {d}", kernel.kind.map_name()),
            None => kernel.kind.map_name().to_owned(),
        };
        let _ = write!(
            h,
            "<td>{}</td><td>{}</td><td>{}</td><td>",
            escape_text(&what),
            bytes(kernel.bytes_read),
            bytes(kernel.bytes_written)
        );
        if kernel.source_lines.is_empty() {
            h.push_str("provenance lost");
        }
        for &l in &kernel.source_lines {
            if let Some(s) = m.line(l) {
                chip(&mut h, l, &format!("line {}", s.line));
                let _ = write!(h, "{} ", s.line);
            }
        }
        h.push_str("</td></tr>");
    }
    h.push_str("</tbody></table></figure>");
    h
}

/// `4.0 MiB`, `2.0 KiB`, `512 B`, `?`.
fn bytes(b: Option<u64>) -> String {
    match b {
        None => "?".to_owned(),
        Some(b) if b < 1024 => format!("{b} B"),
        Some(b) if b < 1024 * 1024 => format!("{:.1} KiB", b as f64 / 1024.0),
        Some(b) => format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn course() -> Exercises {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut diags = Vec::new();
        let ex = Exercises::load(&root, &mut diags);
        assert!(!diags.iter().any(Diagnostic::is_error), "{diags:?}");
        ex
    }

    #[test]
    fn maps_render_from_fixtures_and_bad_directives_are_errors() {
        let ex = course();
        let content =
            "# F\n\n{{#dumplab-map softmax cpu}}\n\n{{#dumplab-map elementwise_chain tpu}}\n";
        let found = crate::directives::find(content);
        let mut diags = Vec::new();
        let out = expand("src/f.md", content, &found, &ex, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(out.matches("data-dumplab-livemap").count(), 2);
        for k in [
            "ynn_fusion.1",
            "broadcast_multiply_fusion",
            "maximum_add_fusion",
        ] {
            assert!(out.contains(&format!("<code>{k}</code>")), "{k}");
        }
        // The softmax's one line, with its Python text, lands in four kernels.
        assert!(
            out.contains(r#"data-line="0" data-kernels="0 1 2 3""#),
            "{out}"
        );
        assert!(out.contains("<code>return jax.nn.softmax(x, axis=-1)</code>"));
        assert!(!out.contains("{{"));
        for block in out.split("\n\n").filter(|b| b.contains("<figure")) {
            assert!(!block.contains('\n'), "one line, one raw HTML block");
        }
        for (arg, needle) in [
            ("", "takes a fixture family and a backend"),
            ("softmax", "takes a fixture family and a backend"),
            ("softmax cpu extra", "takes a fixture family and a backend"),
            ("sofmax cpu", "no fixture family `sofmax`"),
            ("softmax arm", "not a backend"),
            ("../etc cpu", "no fixture family"),
        ] {
            let content = format!("{{{{#dumplab-map {arg}}}}}\n");
            let found = crate::directives::find(&content);
            let mut diags = Vec::new();
            let out = expand("src/f.md", &content, &found, &ex, &mut diags);
            assert_eq!(diags.len(), 1, "{arg}: {diags:?}");
            assert!(
                diags[0].message.contains(needle),
                "{arg}: {}",
                diags[0].message
            );
            assert!(!out.contains("dumplab-map"), "{arg}");
        }
    }

    #[test]
    fn hues_differ_for_neighbouring_lines() {
        let hs: Vec<u32> = (0..6).map(hue).collect();
        for (i, a) in hs.iter().enumerate() {
            assert!(*a < 360);
            for b in hs.iter().skip(i + 1) {
                assert_ne!(a, b);
            }
        }
    }
}
