//! Finding or installing the tools the course needs, and running them.
//!
//! Pinned versions live here, in one place.

use anyhow::{Context, Result, bail};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The mdBook the course is built and tested with.
pub(crate) const MDBOOK_VERSION: &str = "0.5.4";

/// The repository root, found at run time: the nearest folder, from the
/// current one up, that holds `book.toml` and `xtask/Cargo.toml`.
/// `cargo xtask` runs from inside the checkout, so a binary built for
/// another checkout (a shared `CARGO_TARGET_DIR`, a moved clone) still works
/// on this one. Outside any checkout: cargo's `CARGO_MANIFEST_DIR` for this
/// run, else the current folder.
pub(crate) fn root() -> PathBuf {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        find_root(&cwd)
            .or_else(|| {
                std::env::var_os("CARGO_MANIFEST_DIR")
                    .map(PathBuf::from)
                    .and_then(|d| d.parent().map(Path::to_path_buf))
            })
            .unwrap_or(cwd)
    })
    .clone()
}

/// The nearest folder from `start` up that holds `book.toml` and
/// `xtask/Cargo.toml`: a DumpLab checkout, wherever it was cloned or moved.
fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join("book.toml").is_file() && d.join("xtask/Cargo.toml").is_file())
        .map(Path::to_path_buf)
}

/// The `cargo` that runs us.
pub(crate) fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// Cargo's target directory (respects `CARGO_TARGET_DIR`).
pub(crate) fn target_dir() -> PathBuf {
    // A relative CARGO_TARGET_DIR is relative to where cargo ran: the root.
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root().join("target"), |dir| root().join(dir))
}

/// A command whose failure messages name the program.
pub(crate) fn command(program: impl AsRef<OsStr>) -> Command {
    Command::new(program)
}

/// Runs `cmd`, failing with the command line when it fails.
pub(crate) fn run(cmd: &mut Command) -> Result<()> {
    let shown = format!("{cmd:?}");
    let status = cmd
        .status()
        .with_context(|| format!("could not start {shown}"))?;
    if !status.success() {
        bail!("{shown} failed ({status})");
    }
    Ok(())
}

/// Runs `cmd` and returns its stdout, failing when it fails.
pub(crate) fn output(cmd: &mut Command) -> Result<String> {
    let shown = format!("{cmd:?}");
    let out = cmd
        .output()
        .with_context(|| format!("could not start {shown}"))?;
    if !out.status.success() {
        bail!(
            "{shown} failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Runs one named step of a longer command and reports its duration.
pub(crate) fn step<T>(name: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    eprintln!("xtask: ── {name}");
    let start = Instant::now();
    let value = f().with_context(|| format!("step `{name}` failed"))?;
    eprintln!(
        "xtask: ── {name}: ok ({:.1}s)",
        start.elapsed().as_secs_f64()
    );
    Ok(value)
}

/// The pinned mdBook, installed into `.tools/` on first use.
pub(crate) fn mdbook() -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("DUMPLAB_MDBOOK") {
        return Ok(PathBuf::from(path));
    }
    let prefix = root()
        .join(".tools")
        .join(format!("mdbook-{MDBOOK_VERSION}"));
    let bin = prefix.join("bin").join("mdbook");
    if !bin.exists() {
        eprintln!(
            "xtask: installing mdBook {MDBOOK_VERSION} into {} (once)",
            prefix.display()
        );
        run(command(cargo())
            .args([
                "install",
                "mdbook",
                "--locked",
                "--version",
                MDBOOK_VERSION,
                "--root",
            ])
            .arg(&prefix))
        .context(
            "could not install mdBook; install it yourself and set DUMPLAB_MDBOOK=/path/to/mdbook",
        )?;
    }
    let version = output(command(&bin).arg("--version"))?;
    if !version.contains(MDBOOK_VERSION) {
        bail!(
            "{} is `{}`, expected mdBook {MDBOOK_VERSION}: delete .tools/ and rerun",
            bin.display(),
            version.trim()
        );
    }
    Ok(bin)
}

/// Builds the preprocessor binary (debug: quick to build, what
/// `mdbook serve` from a clone runs too) and returns its path.
pub(crate) fn build_preprocessor() -> Result<PathBuf> {
    build_preprocessor_as("dev")
}

/// Builds the preprocessor with cargo `profile` and returns its path.
pub(crate) fn build_preprocessor_as(profile: &str) -> Result<PathBuf> {
    run(command(cargo())
        .args([
            "build",
            "--locked",
            "--quiet",
            "--package",
            "mdbook-dumplab",
            "--profile",
            profile,
        ])
        .current_dir(root()))?;
    let dir = if profile == "dev" { "debug" } else { profile };
    Ok(target_dir()
        .join(dir)
        .join(format!("mdbook-dumplab{}", std::env::consts::EXE_SUFFIX)))
}

/// Makes mdBook run `preprocessor` instead of book.toml's `cargo run` command.
pub(crate) fn point_mdbook_at(cmd: &mut Command, preprocessor: &Path) {
    cmd.env("MDBOOK_PREPROCESSOR__DUMPLAB__COMMAND", preprocessor);
}

/// The Python venv with the pinned JAX, created in `.tools/venv` on first use.
pub(crate) fn python() -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("DUMPLAB_PYTHON") {
        return Ok(PathBuf::from(path));
    }
    let venv = root().join(".tools").join("venv");
    let python = venv.join("bin").join("python");
    let requirements = root().join("xtask").join("python-requirements.txt");
    let stamp = venv.join(".dumplab-requirements");
    let wanted = std::fs::read_to_string(&requirements)
        .with_context(|| format!("reading {}", requirements.display()))?;
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) && python.exists() {
        return Ok(python);
    }
    if !python.exists() {
        eprintln!("xtask: creating the Python venv {} (once)", venv.display());
        run(command("python3").args(["-m", "venv"]).arg(&venv))
            .context("could not create a venv: install Python 3.11+ with venv (Debian: apt-get install python3-venv)")?;
    }
    eprintln!("xtask: installing the pinned JAX into {}", venv.display());
    run(command(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
        ])
        .arg(&requirements))
    .context("could not install JAX; check that the Python package index is reachable")?;
    std::fs::write(&stamp, wanted)?;
    Ok(python)
}

/// Headless Chromium: CHROMIUM_PATH, /usr/bin/chromium, or Debian's package.
pub(crate) fn chromium() -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM_PATH") {
        return Ok(PathBuf::from(path));
    }
    let debian = PathBuf::from("/usr/bin/chromium");
    if debian.exists() {
        return Ok(debian);
    }
    let is_root = output(command("id").arg("-u"))
        .map(|u| u.trim() == "0")
        .unwrap_or(false);
    if Path::new("/etc/debian_version").exists() && is_root {
        eprintln!("xtask: installing Debian's chromium for the browser tests (once)");
        run(command("apt-get")
            .args(["install", "-y", "--no-install-recommends", "chromium"])
            .env("DEBIAN_FRONTEND", "noninteractive"))
        .or_else(|_| {
            run(command("apt-get").arg("update"))?;
            run(command("apt-get")
                .args(["install", "-y", "--no-install-recommends", "chromium"])
                .env("DEBIAN_FRONTEND", "noninteractive"))
        })?;
        return Ok(debian);
    }
    bail!(
        "no Chromium found: install it (Debian: `sudo apt-get install chromium`) or set CHROMIUM_PATH=/path/to/chrome"
    )
}

/// `npm ci` when node_modules is missing or older than package-lock.json.
pub(crate) fn npm_ci() -> Result<()> {
    let root = root();
    let marker = root.join("node_modules").join(".package-lock.json");
    let lock = root.join("package-lock.json");
    let fresh = match (
        std::fs::metadata(&marker).and_then(|m| m.modified()),
        std::fs::metadata(&lock).and_then(|m| m.modified()),
    ) {
        (Ok(installed), Ok(locked)) => installed >= locked,
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    run(command("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&root))
    .context("`npm ci` failed: install Node.js 20+ and npm (Debian: apt-get install nodejs npm)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_is_found_from_inside_a_moved_checkout() {
        let base = std::env::temp_dir().join(format!("dumplab-xtask-root-{}", std::process::id()));
        let moved = base.join("somewhere/else/clone");
        std::fs::create_dir_all(moved.join("xtask/src")).unwrap_or_default();
        std::fs::create_dir_all(moved.join("src/deep")).unwrap_or_default();
        std::fs::write(moved.join("book.toml"), "").unwrap_or_default();
        std::fs::write(moved.join("xtask/Cargo.toml"), "").unwrap_or_default();
        assert_eq!(find_root(&moved.join("src/deep")), Some(moved.clone()));
        assert_eq!(find_root(&moved), Some(moved.clone()));
        assert_eq!(find_root(&base), None);
        let _ = std::fs::remove_dir_all(&base);
    }
}
