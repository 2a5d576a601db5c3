//! `{{#dumplab-playground}}`: the "Read your own dump" page's controls.
//!
//! The directive becomes a fixed block of HTML: two dump inputs (paste,
//! drop or pick a file), a button, a status line and an empty report; after
//! it, the course's example pairs for "What changed" ([`examples`]: each
//! code-change pair of fixture families, `NAME_before` and `NAME_after`, as
//! their dumps of one kind, and each `before` family on two backends), as
//! page JSON. `src/dumplab-playground.js` finds the block and does the rest in
//! the browser, with the wasm checker in a Web Worker; nothing leaves the
//! page. Without JavaScript the block says what it needs.
//!
//! The block links the playground's own script and style
//! (`src/dumplab-playground.js`, `src/dumplab-playground.css`: mdBook copies
//! `src/` beside the chapters), so only the page that holds it loads them;
//! every other page's DumpLab layer stays small (`cargo xtask bench`, page
//! weight). The live maps of the lessons need only `theme/livemap.{js,css}`.

use crate::directives::{Found, Name};
use std::collections::BTreeMap;

/// The dumps an example pair may be of, as (file, what it is), in the order
/// the picker lists them.
const EXAMPLE_FILES: &[(&str, &str)] = &[
    ("compiled.cpu.hlo.txt", "compiled for CPU"),
    ("compiled.gpu.hlo.txt", "compiled for H100"),
    ("compiled.tpu.hlo.txt", "compiled for TPU v5e"),
    ("lowered.stablehlo.mlir", "lowered"),
];

/// The example pairs as page JSON: `{"dumps": {"family/file": text},
/// "pairs": [{"label", "a", "b"}]}` (each dump once), or `None` for a
/// course without code-change pairs.
pub(crate) fn examples<'f>(
    families: impl Iterator<Item = (&'f str, &'f BTreeMap<String, String>)>,
) -> Option<String> {
    let families: BTreeMap<&str, &BTreeMap<String, String>> = families.collect();
    let mut dumps = serde_json::Map::new();
    let mut pairs = Vec::new();
    let mut add = |label: String, a: (&str, &str), b: (&str, &str)| {
        for (fam, file) in [a, b] {
            let text = families.get(fam).and_then(|f| f.get(file));
            if let Some(text) = text {
                dumps.insert(format!("{fam}/{file}"), text.clone().into());
            }
        }
        pairs.push(serde_json::json!({
            "label": label,
            "a": format!("{}/{}", a.0, a.1),
            "b": format!("{}/{}", b.0, b.1),
        }));
    };
    for (&name, files) in &families {
        let Some(stem) = name.strip_suffix("_before") else {
            continue;
        };
        let after = format!("{stem}_after");
        let Some(later) = families.get(after.as_str()) else {
            continue;
        };
        for (file, what) in EXAMPLE_FILES {
            if files.contains_key(*file) && later.contains_key(*file) {
                add(
                    format!("{stem}: before and after, {what}"),
                    (name, file),
                    (&after, file),
                );
            }
        }
        let (cpu, other) = (EXAMPLE_FILES[0], &EXAMPLE_FILES[1..3]);
        for (file, what) in other {
            if files.contains_key(cpu.0) && files.contains_key(*file) {
                add(
                    format!(
                        "{name}: CPU and {}",
                        what.trim_start_matches("compiled for ")
                    ),
                    (name, cpu.0),
                    (name, file),
                );
            }
        }
    }
    if pairs.is_empty() {
        return None;
    }
    let json = serde_json::json!({ "dumps": dumps, "pairs": pairs });
    Some(crate::html::json_for_script(&json.to_string()))
}

/// The block: one raw-HTML block, so no blank line inside and no `{{`.
pub(crate) const HTML: &str = r#"<div class="dumplab-playground" data-dumplab-playground="">
<noscript><p class="dlp-note">The playground runs the DumpLab checker in your browser: it needs JavaScript (and WebAssembly). On the command line, <code>mdbook-dumplab analyze</code> and <code>mdbook-dumplab map</code> give the same answers.</p></noscript>
<div class="dlp-inputs">
<div class="dlp-input" data-slot="0">
<label class="dlp-label" for="dlp-text-0">Dump 1</label>
<textarea id="dlp-text-0" class="dlp-text" rows="10" spellcheck="false" autocomplete="off" placeholder="Paste a jaxpr, StableHLO or HLO dump here, or drop a file on this box"></textarea>
<div class="dlp-row"><label class="dlp-pick">Or pick a file: <input type="file" class="dlp-file" accept=".txt,.mlir,.hlo,.log,text/plain"></label> <button type="button" class="dlp-clear">Clear</button></div>
</div>
<div class="dlp-input" data-slot="1">
<label class="dlp-label" for="dlp-text-1">Optional: dump 2, another dump of the same function (a lowered and a compiled dump together give the source map)</label>
<textarea id="dlp-text-1" class="dlp-text" rows="10" spellcheck="false" autocomplete="off" placeholder="Paste the other dump here, or drop a file on this box"></textarea>
<div class="dlp-row"><label class="dlp-pick">Or pick a file: <input type="file" class="dlp-file" accept=".txt,.mlir,.hlo,.log,text/plain"></label> <button type="button" class="dlp-clear">Clear</button></div>
</div>
</div>
<div class="dlp-row"><button type="button" class="dlp-run">Analyse</button> <span class="dlp-status" role="status" aria-live="polite"></span></div>
<div class="dlp-out"></div>
</div>"#;

/// The playground's script, beside the chapters (`src/`).
pub(crate) const SCRIPT: &str = "dumplab-playground.js";
/// The ledger's script ("Where the time goes"), beside the chapters (`src/`):
/// loaded before [`SCRIPT`], which calls it.
pub(crate) const LEDGER: &str = "dumplab-playground-ledger.js";
/// The diff's script ("What changed"), beside the chapters (`src/`): loaded
/// after [`LEDGER`] (it reads the ledger's chip presets and number words)
/// and before [`SCRIPT`], which hands it the checker.
pub(crate) const DIFF: &str = "dumplab-playground-diff.js";
/// The dump folder's script ("The dump folder"), beside the chapters
/// (`src/`): loaded before [`SCRIPT`], which adds its worker operations to
/// the checker's worker and mounts it after "What changed".
pub(crate) const FOLDER: &str = "dumplab-playground-folder.js";
/// The explainer's script ("Why these kernels"), beside the chapters
/// (`src/`): loaded after [`LEDGER`] (it reads the ledger's number words)
/// and before [`SCRIPT`], which draws it after each compiled dump's ledger.
pub(crate) const EXPLAIN: &str = "dumplab-playground-explain.js";
/// The collectives' script ("Collectives"), beside the chapters (`src/`):
/// loaded after [`LEDGER`] (it reads the ledger's number words) and before
/// [`SCRIPT`], which draws it after each compiled dump's ledger.
pub(crate) const COLLECTIVES: &str = "dumplab-playground-collectives.js";
/// "Top suspects"' script (the findings on any paste, drawn above the
/// reports), beside the chapters (`src/`): loaded after [`LEDGER`] (it
/// reads the ledger's number words) and before [`SCRIPT`], which adds its
/// worker operation and draws it for each dump.
pub(crate) const WHY: &str = "dumplab-playground-why.js";
/// The invisible characters' script (zero-width and bidi controls shown
/// as ⟨U+202E⟩ and counted), beside the chapters (`src/`): loaded first,
/// since every other script of the block uses it.
pub(crate) const INVISIBLE: &str = "dumplab-playground-invisible.js";
/// The playground's style, beside the chapters (`src/`).
pub(crate) const STYLE: &str = "dumplab-playground.css";

/// The relative way from the chapter at `path` (`/`-separated, under `src/`)
/// to the book's root: `""` for `playground.md`, `"../"` for `a/p.md`.
pub(crate) fn to_root(path: &str) -> String {
    "../".repeat(path.matches('/').count())
}

/// [`HTML`] with the style linked before it and the scripts after it
/// (`defer`: they run in order once the page is parsed, after the theme's
/// scripts, `theme/viewer.js` and `theme/livemap.js` among them).
fn block(to_root: &str, examples: Option<&str>) -> String {
    let data = examples
        .map(|j| {
            format!("\n<script type=\"application/json\" class=\"dlp-diff-examples\">{j}</script>")
        })
        .unwrap_or_default();
    format!(
        "<link rel=\"stylesheet\" href=\"{to_root}{STYLE}\">\n{HTML}{data}\n<script defer src=\"{to_root}{INVISIBLE}\"></script>\n<script defer src=\"{to_root}{LEDGER}\"></script>\n<script defer src=\"{to_root}{DIFF}\"></script>\n<script defer src=\"{to_root}{FOLDER}\"></script>\n<script defer src=\"{to_root}{EXPLAIN}\"></script>\n<script defer src=\"{to_root}{COLLECTIVES}\"></script>\n<script defer src=\"{to_root}{WHY}\"></script>\n<script defer src=\"{to_root}{SCRIPT}\"></script>"
    )
}

/// Replaces the chapter's `{{#dumplab-playground}}` with [`HTML`] and the
/// links to its script and style, relative to the chapter at `path`
/// (an argument or a second directive is an error of
/// [`crate::directives::report`]).
pub(crate) fn expand(content: &str, found: &Found, path: &str, examples: Option<&str>) -> String {
    let ds: Vec<_> = found
        .directives
        .iter()
        .filter(|d| d.name == Name::Playground)
        .collect();
    if ds.is_empty() {
        return content.to_owned();
    }
    let mut out = content.to_owned();
    if let Some(d) = ds.first() {
        // On its own lines, so Markdown sees one raw-HTML block.
        let block = block(&to_root(path), examples);
        out.replace_range(d.range.clone(), &format!("\n\n{block}\n\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_is_one_raw_html_block_without_directives() {
        assert!(!HTML.contains("\n\n"));
        assert!(!HTML.contains("{{"));
        assert!(HTML.starts_with("<div") && HTML.ends_with("</div>"));
        assert_eq!(HTML.matches("<div").count(), HTML.matches("</div>").count());
    }

    #[test]
    fn expands_once_and_refuses_arguments_and_seconds() {
        let content = "# P\n\n{{#dumplab-playground}}\n\nText {{#dumplab-playground x}}\n";
        let found = crate::directives::find(content);
        let out = expand(content, &found, "p.md", None);
        assert_eq!(out.matches("data-dumplab-playground").count(), 1);
        assert_eq!(out.matches(r#"src="dumplab-playground.js""#).count(), 1);
        assert_eq!(out.matches(r#"href="dumplab-playground.css""#).count(), 1);
        assert_eq!(
            out.matches(r#"src="dumplab-playground-ledger.js""#).count(),
            1
        );
        assert_eq!(
            out.matches(r#"src="dumplab-playground-diff.js""#).count(),
            1
        );
        assert_eq!(
            out.matches(r#"src="dumplab-playground-folder.js""#).count(),
            1
        );
        assert_eq!(
            out.matches(r#"src="dumplab-playground-explain.js""#)
                .count(),
            1
        );
        assert_eq!(
            out.matches(r#"src="dumplab-playground-collectives.js""#)
                .count(),
            1
        );
        assert_eq!(out.matches(r#"src="dumplab-playground-why.js""#).count(), 1);
        let mut diags = Vec::new();
        crate::directives::report("src/p.md", content, &found, &mut diags);
        let msgs: Vec<_> = diags.iter().map(|d| d.message.clone()).collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("takes no argument")));
        assert!(msgs.iter().any(|m| m.contains("a second")));
        let plain = "# P\n\nno directive\n";
        assert_eq!(
            expand(plain, &crate::directives::find(plain), "p.md", None),
            plain
        );
    }

    #[test]
    fn examples_are_the_code_change_pairs_as_inert_page_json() {
        let f = |files: &[(&str, &str)]| -> BTreeMap<String, String> {
            files
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let before = f(&[
            ("compiled.cpu.hlo.txt", "A </script><b>{{x}}</b>"),
            ("compiled.gpu.hlo.txt", "A gpu"),
        ]);
        let after = f(&[("compiled.cpu.hlo.txt", "B & more")]);
        let lone = f(&[("compiled.cpu.hlo.txt", "C")]);
        let fams = [
            ("t_before", &before),
            ("t_after", &after),
            ("u_before", &lone),
        ];
        let json = examples(fams.into_iter()).expect("a pair");
        assert!(
            !json.contains('<') && !json.contains('&') && !json.contains("{{"),
            "{json}"
        );
        let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        let labels: Vec<&str> = v["pairs"]
            .as_array()
            .expect("pairs")
            .iter()
            .filter_map(|p| p["label"].as_str())
            .collect();
        assert_eq!(
            labels,
            [
                "t: before and after, compiled for CPU",
                "t_before: CPU and H100"
            ]
        );
        assert_eq!(
            v["dumps"]["t_before/compiled.cpu.hlo.txt"],
            "A </script><b>{{x}}</b>"
        );
        assert_eq!(v["dumps"].as_object().map(|o| o.len()), Some(3));
        assert!(examples(std::iter::empty()).is_none());
    }

    #[test]
    fn links_its_script_and_style_from_any_chapter_depth() {
        for (path, expect) in [
            ("playground.md", ""),
            ("a/p.md", "../"),
            ("a/b/p.md", "../../"),
        ] {
            assert_eq!(to_root(path), expect, "{path}");
            let b = block(expect, None);
            assert!(b.starts_with(&format!(
                r#"<link rel="stylesheet" href="{expect}dumplab-playground.css">"#
            )));
            assert!(b.ends_with(&format!(
                "<script defer src=\"{expect}dumplab-playground-ledger.js\"></script>\n<script defer src=\"{expect}dumplab-playground-diff.js\"></script>\n<script defer src=\"{expect}dumplab-playground-folder.js\"></script>\n<script defer src=\"{expect}dumplab-playground-explain.js\"></script>\n<script defer src=\"{expect}dumplab-playground-collectives.js\"></script>\n<script defer src=\"{expect}dumplab-playground-why.js\"></script>\n<script defer src=\"{expect}dumplab-playground.js\"></script>"
            )));
            // Still one raw-HTML block without directives.
            assert!(!b.contains("\n\n") && !b.contains("{{"));
        }
    }
}
