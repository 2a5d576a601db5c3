//! Follows the instructor chapter (`src/instructors.md`, "Adding fixtures and
//! exercises") step by step on a scratch copy of the course, and builds the
//! book with the pinned mdBook.
//!
//! No JAX: step 2's generator output is the checked-in
//! `tests/walkthrough/relu_scale/` (what `fixtures/generate.py --from ...
//! --name relu_scale --targets cpu` wrote), and the draft is made with
//! `fixture draft`, the half of `fixture new` that needs no Python. The
//! exercise and the directive are taken from the chapter's own code blocks,
//! so the chapter cannot drift from what works.
//!
//! mdBook: `DUMPLAB_MDBOOK`, else `.tools/mdbook-0.5.4/bin/mdbook` (installed
//! by `cargo xtask`); the test fails, saying so, when neither exists.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') || name == "__pycache__" {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        if src.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn tool(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

/// The contents of the fenced blocks of `lang` in `markdown`, in order.
fn fenced(markdown: &str, lang: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) if info.trim() == lang => current = Some(String::new()),
            (Some(_), Some("")) => blocks.push(current.take().unwrap()),
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn the_instructor_chapter_works_as_written() {
    let repo = repo();
    let chapter = std::fs::read_to_string(repo.join("src/instructors.md")).unwrap();
    let steps = chapter
        .lines()
        .filter(|l| l.starts_with("**") && l.contains(".** "))
        .count();
    assert!(
        (1..=5).contains(&steps),
        "the chapter must walk through at most five steps, found {steps}"
    );
    let console = fenced(&chapter, "console").join("");
    for command in [
        "mdbook-dumplab fixture new relu_scale --from path/to/relu_scale.py",
        "mdbook-dumplab check",
        "cargo xtask serve",
    ] {
        assert!(
            console.contains(command),
            "the chapter no longer shows `{command}`"
        );
    }
    assert!(
        chapter.contains("mdbook-dumplab fixture draft relu_scale"),
        "the chapter must name the no-JAX half"
    );

    // A scratch course: only what a book build reads.
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("instructor-walkthrough");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    std::fs::copy(repo.join("book.toml"), root.join("book.toml")).unwrap();
    for dir in ["src", "glossary", "fixtures", "exercises", "theme"] {
        if repo.join(dir).is_dir() {
            copy_tree(&repo.join(dir), &root.join(dir));
        }
    }

    // Steps 1 and 2: the function and its dumps, as the generator leaves them; then the draft.
    let family = root.join("fixtures/relu_scale");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/walkthrough/relu_scale"),
        &family,
    );
    let function = std::fs::read_to_string(family.join("function.py")).unwrap();
    let shown = fenced(&chapter, "python").join("");
    assert!(
        shown.contains("def fn(x):\n    return jnp.maximum(x, 0.0) * 3.0 + 1.0"),
        "step 1 shows another function"
    );
    assert!(
        function.contains("def fn(x):\n    return jnp.maximum(x, 0.0) * 3.0 + 1.0"),
        "the walkthrough dumps are of another function"
    );
    let draft = tool(&["fixture", "draft", "relu_scale"], &root);
    assert!(draft.status.success(), "{}", text(&draft));

    // Step 3: review: the chapter's [family] block replaces the placeholder; mark reviewed.
    let path = family.join("fixture.toml");
    let drafted = std::fs::read_to_string(&path).unwrap();
    let family_block = fenced(&chapter, "toml")
        .into_iter()
        .find(|b| b.starts_with("[family]"))
        .expect("step 3 shows a [family] block");
    let placeholder = drafted.find("[family]\n").unwrap();
    let after = drafted[placeholder..]
        .find("\n\n")
        .map_or(drafted.len(), |i| placeholder + i + 1);
    let reviewed = format!(
        "{}{}{}",
        &drafted[..placeholder],
        family_block,
        &drafted[after..]
    )
    .replacen("status = \"draft\"", "status = \"reviewed\"", 1);
    std::fs::write(&path, reviewed).unwrap();

    // Step 4: check passes, and the new family is neither an error nor a warning.
    let check = tool(&["check", "."], &root);
    let report = text(&check);
    assert!(check.status.success(), "{report}");
    assert!(
        !report.contains("fixtures/relu_scale/"),
        "the reviewed family still has problems:\n{report}"
    );

    // Step 5: the chapter's question and directive, in a chapter of the scratch book.
    let question = fenced(&chapter, "toml")
        .into_iter()
        .find(|b| b.contains("[[question]]"))
        .expect("step 5 shows a question");
    std::fs::write(root.join("exercises/walkthrough.toml"), &question).unwrap();
    let directive = fenced(&chapter, "markdown")
        .into_iter()
        .find(|b| b.contains("{{#exercise"))
        .expect("step 5 shows a directive");
    let intro = root.join("src/intro.md");
    let mut page = std::fs::read_to_string(&intro).unwrap();
    page.push('\n');
    page.push_str(&directive.replace("FILE", "walkthrough"));
    std::fs::write(&intro, page).unwrap();
    let check = tool(&["check", "."], &root);
    assert!(check.status.success(), "{}", text(&check));

    let build = support::mdbook_build(&root, &root.join("book"));
    assert!(
        build.status.success(),
        "mdbook build failed:\n{}",
        text(&build)
    );
    let html = std::fs::read_to_string(root.join("book/intro.html")).unwrap();
    assert!(
        html.contains("relu-scale-which-call"),
        "the question is not on the page"
    );
    assert!(
        html.contains("Which call printed this text?"),
        "the prompt is not on the page"
    );
    let chapter_html = std::fs::read_to_string(root.join("book/instructors.html")).unwrap();
    assert!(
        chapter_html.contains("Adding fixtures and exercises"),
        "the chapter is not in the book"
    );

    // Later: the course moves to another folder, a new dump arrives, and a
    // typo slips into the exercise; `check` finds the root cause at once,
    // and re-drafting keeps the review.
    let moved = root.with_file_name("instructor-walkthrough-moved");
    let _ = std::fs::remove_dir_all(&moved);
    std::fs::rename(&root, &moved).unwrap();
    let family = moved.join("fixtures/relu_scale");
    let reviewed = std::fs::read_to_string(family.join("fixture.toml")).unwrap();
    std::fs::copy(
        family.join("compiled.cpu.hlo.txt"),
        family.join("compiled.gpu.hlo.txt"),
    )
    .unwrap();
    let missing = tool(&["check", "."], &moved);
    assert!(
        text(&missing).contains("dump `compiled.gpu.hlo.txt` has no [[dump]] entry"),
        "{}",
        text(&missing)
    );
    let redraft = tool(&["fixture", "draft", "relu_scale"], &moved);
    assert!(redraft.status.success(), "{}", text(&redraft));
    let after = std::fs::read_to_string(family.join("fixture.toml")).unwrap();
    let kept = reviewed
        .trim_end()
        .replacen("status = \"reviewed\"", "status = \"draft\"", 1);
    assert!(
        after.starts_with(&kept),
        "the review was not kept:\n{after}"
    );
    assert!(after.contains("file = \"compiled.gpu.hlo.txt\""));
    std::fs::remove_file(family.join("compiled.gpu.hlo.txt")).unwrap();
    std::fs::write(family.join("fixture.toml"), &reviewed).unwrap();
    let exercise = moved.join("exercises/walkthrough.toml");
    let good = std::fs::read_to_string(&exercise).unwrap();
    std::fs::write(&exercise, good.replace("relu_scale/", "relu_scal/")).unwrap();
    let typo = tool(&["check", "."], &moved);
    let report = text(&typo);
    assert!(!typo.status.success());
    assert!(
        report.contains("no fixture family `relu_scal`")
            && report.contains("did you mean `relu_scale`?"),
        "{report}"
    );
    assert_eq!(
        report.matches(": error: ").count(),
        1,
        "one error, no cascade:\n{report}"
    );
    std::fs::write(&exercise, good).unwrap();
    let build = support::mdbook_build(&moved, &moved.join("book"));
    assert!(build.status.success(), "{}", text(&build));
    let _ = std::fs::remove_dir_all(&moved);
}
