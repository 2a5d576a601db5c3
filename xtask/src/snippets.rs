//! Runs every Python snippet of the course with the pinned JAX on CPU, the
//! way the Rust Book's code blocks are tested: a snippet that raises fails.
//!
//! A fenced block whose info string is `python` runs; `python,ignore`
//! (for code that needs a TPU or GPU) is shown but not run. Each snippet runs
//! alone, in a fresh interpreter and an empty temporary directory.

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
        if out.status.success() {
            eprintln!("xtask:    ok   {where_} ({secs:.1}s)");
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
        snippets.extend(extract(&text).into_iter().map(|(line, code)| Snippet {
            file: file.clone(),
            line,
            code,
        }));
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

/// The runnable Python blocks of one Markdown text, with the 1-based line of
/// their opening fence.
fn extract(markdown: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (event, range) in Parser::new(markdown).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if runs(&info) => {
                let line = markdown[..range.start].matches('\n').count() + 1;
                current = Some((line, String::new()));
            }
            Event::Text(text) => {
                if let Some((_, code)) = current.as_mut() {
                    code.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => found.extend(current.take()),
            _ => {}
        }
    }
    found
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
        assert_eq!(
            extract(md),
            vec![(3, "print(1)\n".to_owned()), (17, "print(2)\n".to_owned())]
        );
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
