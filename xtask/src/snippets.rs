//! Runs every Python snippet of the course with the pinned JAX on CPU, the
//! way the Rust Book's code blocks are tested: a snippet that raises fails.
//!
//! A fenced block whose info string is `python` runs; `python,ignore`
//! (for code that needs a TPU or GPU) is shown but not run. Each snippet runs
//! alone, in a fresh interpreter and an empty temporary directory.
//!
//! When a `text` (or `mlir`, `hlo`) block follows a snippet directly (nothing but blank lines
//! between), it is the snippet's printed output as the book shows it, and
//! every non-blank line of it must still appear in what the snippet prints
//! now: that catches a course whose excerpts drifted from the pinned JAX.
//! Authors trim long output with a line `...`, or a line ending in `...`
//! (the part before it must appear).

use crate::tools;
use anyhow::{Context, Result, bail};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One runnable snippet.
struct Snippet {
    file: PathBuf,
    line: usize,
    code: String,
    /// The output block right after it, if any: what it should print.
    output: Option<String>,
}

/// `cargo xtask snippets` and the snippet step of `cargo xtask test`.
pub(crate) fn run() -> Result<()> {
    let root = tools::root();
    let snippets = collect(&root.join("src"))?;
    if snippets.is_empty() {
        bail!("no ```python snippets found under src/: the course should have some");
    }
    let python = tools::python()?;
    let scratch = tools::target_dir().join("snippets");
    let mut failures = Vec::new();
    for (i, snippet) in snippets.iter().enumerate() {
        let where_ = format!(
            "{}:{}",
            snippet
                .file
                .strip_prefix(&root)
                .unwrap_or(&snippet.file)
                .display(),
            snippet.line
        );
        let dir = scratch.join(format!("{i:03}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        let script = dir.join("snippet.py");
        std::fs::write(&script, &snippet.code)?;
        let start = Instant::now();
        let out = tools::command(&python)
            .arg(&script)
            .current_dir(&dir)
            .env("JAX_PLATFORMS", "cpu")
            .env("PYTHONHASHSEED", "0")
            .output()
            .with_context(|| format!("could not run {}", python.display()))?;
        let secs = start.elapsed().as_secs_f64();
        let missing = snippet
            .output
            .as_deref()
            .map(|expected| missing_lines(expected, &String::from_utf8_lossy(&out.stdout)))
            .unwrap_or_default();
        if out.status.success() && missing.is_empty() {
            let checked = if snippet.output.is_some() {
                ", output checked"
            } else {
                ""
            };
            eprintln!("xtask:    ok   {where_} ({secs:.1}s{checked})");
        } else if out.status.success() {
            eprintln!(
                "xtask:    FAIL {where_}: the output shown after it is no longer printed; missing lines:"
            );
            for line in missing.iter().take(10) {
                eprintln!("xtask:         {line}");
            }
            failures.push(where_);
        } else {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = stderr.lines().rev().take(15).collect();
            eprintln!("xtask:    FAIL {where_} ({secs:.1}s)");
            for line in tail.iter().rev() {
                eprintln!("xtask:         {line}");
            }
            failures.push(where_);
        }
    }
    if !failures.is_empty() {
        bail!(
            "{} of {} Python snippets raised: {}",
            failures.len(),
            snippets.len(),
            failures.join(", ")
        );
    }
    eprintln!("xtask: {} Python snippets ran", snippets.len());
    Ok(())
}

/// Every runnable snippet of every Markdown file under `dir`, in path order.
fn collect(dir: &Path) -> Result<Vec<Snippet>> {
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    files.sort();
    let mut snippets = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("reading {}", file.display()))?;
        snippets.extend(
            extract(&text)
                .into_iter()
                .map(|(line, code, output)| Snippet {
                    file: file.clone(),
                    line,
                    code,
                    output,
                }),
        );
    }
    Ok(snippets)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
    Ok(())
}

/// The runnable Python blocks of one Markdown text: the 1-based line of
/// their opening fence, their code, and the `text` block right after them.
fn extract(markdown: &str) -> Vec<(usize, String, Option<String>)> {
    let mut found: Vec<(usize, String, Option<String>)> = Vec::new();
    // The code block being read: is it a snippet (true) or a text block (false)?
    let mut current: Option<(bool, usize, String)> = None;
    // Where the last snippet's closing fence ended, to spot an adjacent block.
    let mut last_snippet_end: Option<usize> = None;
    for (event, range) in Parser::new(markdown).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let line = markdown[..range.start].matches('\n').count() + 1;
                let adjacent = last_snippet_end.is_some_and(|end| {
                    markdown
                        .get(end..range.start)
                        .is_some_and(|gap| gap.trim().is_empty())
                });
                if runs(&info) {
                    current = Some((true, line, String::new()));
                } else if adjacent
                    && matches!(info.split([',', ' ']).next(), Some("text" | "mlir" | "hlo"))
                {
                    current = Some((false, line, String::new()));
                }
                last_snippet_end = None;
            }
            Event::Text(text) => {
                if let Some((_, _, code)) = current.as_mut() {
                    code.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => match current.take() {
                Some((true, line, code)) => {
                    found.push((line, code, None));
                    last_snippet_end = Some(range.end);
                }
                Some((false, _, output)) => {
                    if let Some(last) = found.last_mut() {
                        last.2 = Some(output);
                    }
                }
                None => last_snippet_end = None,
            },
            _ => last_snippet_end = None,
        }
    }
    found
}

/// The lines of `expected` that `actual` no longer contains. Blank lines and
/// `...` are skipped; a line ending in `...` needs only its part before that.
fn missing_lines(expected: &str, actual: &str) -> Vec<String> {
    expected
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && *line != "...")
        .filter(|line| {
            let wanted = line
                .strip_suffix("...")
                .map_or(*line, |head| head.trim_end_matches([',', ' ']));
            !actual.contains(wanted)
        })
        .map(str::to_owned)
        .collect()
}

/// Whether a fence's info string asks for the snippet to run.
fn runs(info: &str) -> bool {
    let mut words = info.split([',', ' ']).filter(|w| !w.is_empty());
    words.next() == Some("python") && !words.any(|w| w == "ignore")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracts_only_runnable_python_blocks() {
        let md = "# t\n\n```python\nprint(1)\n```\n\ntext `python`\n\n```python,ignore\nboom()\n```\n\n```text\nx\n```\n\n~~~python\nprint(2)\n~~~\n";
        let found: Vec<(usize, String)> = extract(md)
            .into_iter()
            .map(|(line, code, _)| (line, code))
            .collect();
        assert_eq!(
            found,
            vec![(3, "print(1)\n".to_owned()), (17, "print(2)\n".to_owned())]
        );
    }

    #[test]
    fn a_text_block_right_after_a_snippet_is_its_output() {
        let md = "```python\nprint(1)\n```\n\n```text\n1\n```\n\n```python\nprint(2)\n```\n\nprose\n\n```text\nnot output\n```\n";
        let outputs: Vec<Option<String>> = extract(md).into_iter().map(|(_, _, out)| out).collect();
        assert_eq!(outputs, vec![Some("1\n".to_owned()), None]);
    }

    #[test]
    fn output_lines_must_still_be_printed() {
        let actual = "HloModule jit_f, is_scheduled=true\n  %fusion = f32[8] fusion(%p), kind=kLoop, calls=%fused\n";
        for (expected, missing) in [
            ("HloModule jit_f, is_scheduled=true\n", vec![]),
            (
                "\n...\n  %fusion = f32[8] fusion(%p), kind=kLoop, ...\n",
                vec![],
            ),
            (
                "%fusion = f32[8] fusion(%p), kind=kInput\n",
                vec!["%fusion = f32[8] fusion(%p), kind=kInput"],
            ),
        ] {
            assert_eq!(missing_lines(expected, actual), missing, "{expected:?}");
        }
    }

    #[test]
    fn info_strings() {
        for (info, expect) in [
            ("python", true),
            ("python,ignore", false),
            ("python ignore", false),
            ("py", false),
            ("text", false),
            ("pythonic", false),
        ] {
            assert_eq!(runs(info), expect, "{info}");
        }
    }
}
