//! The fixtures the course ships: all validate, and each meets the course's
//! bar for a usable family (enough families, every dump with an excerpt
//! exercises can show that holds evidence, reviewed families fully written).

#![allow(clippy::unwrap_used)]

use dumplab::fixture::{Status, is_dump_name, is_folder_name, load_family_with_folders};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// A family's dump folders (`folder.*`) with the number of files in each.
fn dump_folders(dir: &Path) -> BTreeMap<String, usize> {
    fn count(dir: &Path) -> usize {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| if p.is_dir() { count(&p) } else { 1 })
            .sum()
    }
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            is_folder_name(&name).then(|| (name, count(&p)))
        })
        .collect()
}

#[test]
fn check_passes_on_the_repository() {
    let output = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .args(["check", "."])
        .current_dir(repo())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "check failed:\n{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!stdout.contains(": error: "), "{stdout}");
    assert!(
        stdout
            .lines()
            .last()
            .unwrap_or_default()
            .starts_with("check ok: "),
        "{stdout}"
    );
}

#[test]
fn every_family_is_usable_by_exercises() {
    let fixtures = repo().join("fixtures");
    let mut families = 0;
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let dir = entry.unwrap().path();
        let toml_path = dir.join("fixture.toml");
        if !toml_path.is_file() {
            continue;
        }
        families += 1;
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files = BTreeMap::new();
        for f in std::fs::read_dir(&dir).unwrap() {
            let p = f.unwrap().path();
            let file = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_file() && file != "fixture.toml" {
                files.insert(file, std::fs::read_to_string(&p).unwrap());
            }
        }
        let text = std::fs::read_to_string(&toml_path).unwrap();
        let folders = dump_folders(&dir);
        let (family, diagnostics) =
            load_family_with_folders(&name, &format!("fixtures/{name}"), &text, files, folders);
        assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
        let family = family.unwrap();
        let reviewed = *family.annotation.status.get_ref() == Status::Reviewed;
        let teaches = family.teaches().unwrap_or_default();
        if reviewed && (teaches.contains("TODO") || teaches.len() < 40) {
            problems.push(format!(
                "{name}: reviewed, but `teaches` is not written: {teaches:?}"
            ));
        }
        for file in family.files.keys().filter(|f| is_dump_name(f)) {
            let dump = family.dump(file).unwrap();
            let shows_evidence = dump.excerpt.iter().any(|ex| {
                let (a, b) = *ex.lines.get_ref();
                let len = b + 1 - a;
                // An excerpt covers whole computations (`check` rejects one
                // that opens on the end of the computation before it), and
                // the `ENTRY` of a small function is four or five lines.
                (4..=30).contains(&len)
                    && family
                        .excerpt(file, ex.name.get_ref())
                        .is_some_and(|v| !v.evidence.is_empty())
            });
            let short = family.dump_text(file).unwrap().lines().count() < 8;
            if !shows_evidence && !short {
                problems.push(format!(
                    "{name}/{file}: no excerpt of 4-30 lines holding an evidence line"
                ));
            }
            if dump.evidence.is_empty() {
                problems.push(format!("{name}/{file}: no evidence lines"));
            }
        }
    }
    assert!(
        families >= 20,
        "the course needs at least 20 fixture families, found {families}"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
