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
        /// Compile for these targets only (`cpu`, `gpu`, `tpu`, comma separated).
        #[arg(long, value_delimiter = ',')]
        targets: Vec<String>,
        /// The course root (holding `book.toml`).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Pre-fills the annotations of a family whose dumps already exist, from
    /// the checker's analysis. A family with annotations keeps every one of
    /// them: only dumps without a `[[dump]]` entry get a drafted one.
    Draft {
        /// The family's name (its folder under `fixtures/`).
        name: String,
        /// Throw every annotation away, reviewed ones included, and draft
        /// the family afresh.
        #[arg(long)]
        discard_review: bool,
        /// The course root (holding `book.toml`).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

pub(crate) fn run(command: FixtureCommand) -> anyhow::Result<ExitCode> {
    match command {
        FixtureCommand::New {
            name,
            from,
            targets,
            root,
        } => {
            check_name(&name)?;
            let dir = root
                .join(CourseConfig::from_book_toml(&root).fixtures)
                .join(&name);
            if dir.exists() {
                bail!(
                    "{} already exists: pick another name, or regenerate it with `python fixtures/generate.py {name}`",
                    dir.display()
                );
            }
            // A failed `new` leaves nothing behind.
            let made = generate(&root, &name, &from, &targets)
                .and_then(|()| draft_family(&root, &name, false));
            if made.is_err() {
                let _ = fs::remove_dir_all(&dir);
            }
            made
        }
        FixtureCommand::Draft {
            name,
            discard_review,
            root,
        } => {
            check_name(&name)?;
            draft_family(&root, &name, discard_review)
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

fn generate(root: &Path, name: &str, from: &Path, targets: &[String]) -> anyhow::Result<()> {
    for t in targets {
        if t.parse::<dumplab::Backend>().is_err() {
            bail!("unknown target `{t}`: use cpu, gpu or tpu (comma separated)");
        }
    }
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
    let mut cmd = Command::new(&python);
    cmd.arg(&script)
        .arg("--from")
        .arg(&from)
        .arg("--name")
        .arg(name);
    if !targets.is_empty() {
        cmd.arg("--targets").arg(targets.join(","));
    }
    let status = cmd
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

fn draft_family(root: &Path, name: &str, discard_review: bool) -> anyhow::Result<ExitCode> {
    let config = CourseConfig::from_book_toml(root);
    let dir = root.join(&config.fixtures).join(name);
    let toml_path = dir.join("fixture.toml");
    let current = fs::read_to_string(&toml_path).with_context(|| {
        format!("cannot read {}: generate the family first (`python fixtures/generate.py --from FILE --name {name}`)", toml_path.display())
    })?;
    let files = dumps_of(&dir)?;
    let (updated, what) = if draft::has_annotations(&current) && !discard_review {
        let Some((updated, added)) = add_new_dumps(&current, &files) else {
            println!(
                "{}: every dump already has its [[dump]] entry; nothing changed (`--discard-review` drafts the family afresh, throwing its annotations away)",
                toml_path.display()
            );
            return Ok(ExitCode::SUCCESS);
        };
        let what = format!(
            "added draft entries for {} new {} ({}), keeping every other annotation,",
            added.len(),
            if added.len() == 1 { "dump" } else { "dumps" },
            added.join(", ")
        );
        (updated, what)
    } else {
        let annotations = draft::draft(name, &files);
        let updated = draft::with_annotations(&current, &annotations)
            .map_err(|e| anyhow::anyhow!("{}: {e}", toml_path.display()))?;
        (
            updated,
            format!("wrote draft annotations for {} dumps", files.len()),
        )
    };
    // New drafted entries need a review, whatever the file said before.
    let updated = as_draft(&updated);
    fs::write(&toml_path, &updated)
        .with_context(|| format!("cannot write {}", toml_path.display()))?;
    println!(
        "{what} to {}; review them, set status = \"reviewed\", then run `mdbook-dumplab check`",
        toml_path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The dumps of a family folder, by name.
fn dumps_of(dir: &Path) -> anyhow::Result<BTreeMap<String, String>> {
    let mut files = BTreeMap::new();
    for entry in fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
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
    Ok(files)
}

/// `current` with drafted entries appended for the dumps it has none for,
/// and their names; `None` when every dump has one. Every existing byte is
/// kept.
fn add_new_dumps(current: &str, files: &BTreeMap<String, String>) -> Option<(String, Vec<String>)> {
    let annotated = draft::annotated_dumps(current);
    let new: BTreeMap<String, String> = files
        .iter()
        .filter(|(f, _)| !annotated.contains(f))
        .map(|(f, t)| (f.clone(), t.clone()))
        .collect();
    if new.is_empty() {
        return None;
    }
    let mut out = current.trim_end().to_owned();
    out.push_str("\n\n# Drafted by `mdbook-dumplab fixture draft` for new dumps: review them.\n");
    out.push_str(&draft::draft_dumps(&new));
    Some((out, new.into_keys().collect()))
}

/// `text` with its first line `status = "draft"` when it sets a status.
fn as_draft(text: &str) -> String {
    match text
        .lines()
        .next()
        .filter(|l| l.trim_start().starts_with("status"))
    {
        Some(first) => format!("status = \"draft\"{}", &text[first.len()..]),
        None => text.to_owned(),
    }
}
