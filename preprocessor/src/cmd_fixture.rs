//! `mdbook-dumplab fixture`: creating fixture families and pre-filling their
//! annotations, so an instructor adds a family in minutes without writing
//! TOML from scratch.
//!
//! `fixture new` runs the generator (real JAX) and then `draft`; `fixture
//! draft` only writes the annotations from dumps already on disk, which is
//! what tests use (no JAX needed).

use crate::course::CourseConfig;
use anyhow::{Context as _, bail};
use dumplab::fixture::draft;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Fixture subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum FixtureCommand {
    /// Generates a new family from a Python function (runs fixtures/generate.py
    /// with real JAX), then pre-fills its annotations as `fixture draft` does.
    New {
        /// The family's name (its folder under `fixtures/`).
        name: String,
        /// The Python file defining `fn` and `args()`; it is copied in as `function.py`.
        #[arg(long)]
        from: PathBuf,
        /// The course root (holding `book.toml`).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Pre-fills the annotations of a family whose dumps already exist, from
    /// the checker's analysis, and marks it `status = "draft"`.
    Draft {
        /// The family's name (its folder under `fixtures/`).
        name: String,
        /// Replace annotations that are already there.
        #[arg(long)]
        force: bool,
        /// The course root (holding `book.toml`).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

pub(crate) fn run(command: FixtureCommand) -> anyhow::Result<ExitCode> {
    match command {
        FixtureCommand::New { name, from, root } => {
            check_name(&name)?;
            generate(&root, &name, &from)?;
            draft_family(&root, &name, false)
        }
        FixtureCommand::Draft { name, force, root } => {
            check_name(&name)?;
            draft_family(&root, &name, force)
        }
    }
}

fn check_name(name: &str) -> anyhow::Result<()> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if !ok {
        bail!("`{name}` is not a usable family name: use lowercase letters, digits, `_` and `-`");
    }
    Ok(())
}

/// The Python to run the generator with: `DUMPLAB_PYTHON`, else the
/// project's venv.
fn python(root: &Path) -> anyhow::Result<PathBuf> {
    if let Some(p) = std::env::var_os("DUMPLAB_PYTHON") {
        return Ok(PathBuf::from(p));
    }
    let venv = root.join(".tools/venv/bin/python");
    if venv.is_file() {
        return Ok(venv);
    }
    bail!(
        "no Python with JAX found at {}: set DUMPLAB_PYTHON to one (see fixtures/requirements.txt), or use `fixture draft` on dumps made elsewhere",
        venv.display()
    )
}

fn generate(root: &Path, name: &str, from: &Path) -> anyhow::Result<()> {
    if !from.is_file() {
        bail!(
            "{} does not exist: pass the Python file that defines `fn` and `args()`",
            from.display()
        );
    }
    let from =
        fs::canonicalize(from).with_context(|| format!("cannot resolve {}", from.display()))?;
    let python = python(root)?;
    let config = CourseConfig::from_book_toml(root);
    let script = config.fixtures.join("generate.py");
    eprintln!(
        "running {} {} --from {} --name {name}",
        python.display(),
        script.display(),
        from.display()
    );
    let status = Command::new(&python)
        .arg(&script)
        .arg("--from")
        .arg(&from)
        .arg("--name")
        .arg(name)
        .current_dir(root)
        .status()
        .with_context(|| format!("cannot run {}", python.display()))?;
    if !status.success() {
        bail!(
            "{} failed ({status}); its messages are above",
            script.display()
        );
    }
    Ok(())
}

fn draft_family(root: &Path, name: &str, force: bool) -> anyhow::Result<ExitCode> {
    let config = CourseConfig::from_book_toml(root);
    let dir = root.join(&config.fixtures).join(name);
    let toml_path = dir.join("fixture.toml");
    let current = fs::read_to_string(&toml_path).with_context(|| {
        format!("cannot read {}: generate the family first (`python fixtures/generate.py --from FILE --name {name}`)", toml_path.display())
    })?;
    if draft::has_annotations(&current) && !force {
        bail!(
            "{} already has annotations; pass --force to replace them with a fresh draft",
            toml_path.display()
        );
    }
    let mut files = BTreeMap::new();
    for entry in fs::read_dir(&dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let entry = entry?;
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if dumplab::fixture::is_dump_name(&file_name) && entry.path().is_file() {
            let text = fs::read_to_string(entry.path())
                .with_context(|| format!("cannot read {}", entry.path().display()))?;
            files.insert(file_name, text);
        }
    }
    if files.is_empty() {
        bail!(
            "{} holds no dumps (jaxpr.txt, *.mlir, *.hlo.txt): run the generator first",
            dir.display()
        );
    }
    let annotations = draft::draft(name, &files);
    let mut updated = draft::with_annotations(&current, &annotations)
        .map_err(|e| anyhow::anyhow!("{}: {e}", toml_path.display()))?;
    // A fresh draft is a draft, whatever the file said before.
    if let Some(first) = updated
        .lines()
        .next()
        .filter(|l| l.trim_start().starts_with("status"))
    {
        let rest = updated[first.len()..].to_owned();
        updated = format!("status = \"draft\"{rest}");
    }
    fs::write(&toml_path, updated)
        .with_context(|| format!("cannot write {}", toml_path.display()))?;
    println!(
        "wrote draft annotations for {} dumps to {}; review them, then run `mdbook-dumplab check`",
        files.len(),
        toml_path.display()
    );
    Ok(ExitCode::SUCCESS)
}
