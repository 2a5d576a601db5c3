//! The course reads only the course: every path the preprocessor opens must
//! resolve, symlinks followed, inside the course root (the folder holding
//! `book.toml`), and be a regular file or folder.
//!
//! Course data is published; a symlink in `fixtures/` to `/etc/passwd`, or
//! `fixtures = "../../home"` in `book.toml`, must not put a file of the build
//! machine on a page. Devices and pipes are refused too (reading
//! `/dev/zero` would never end).

use std::fs::FileType;
use std::path::{Path, PathBuf};

/// The course root, resolved once.
#[derive(Clone, Debug)]
pub(crate) struct Root {
    canonical: Option<PathBuf>,
}

/// What a checked path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expect {
    /// A regular file.
    File,
    /// A folder.
    Dir,
}

impl Root {
    /// The root at `path` (resolved; if it cannot be, nothing is inside it).
    pub(crate) fn new(path: &Path) -> Root {
        Root {
            canonical: std::fs::canonicalize(path).ok(),
        }
    }

    /// `Ok(())` when `path` exists, resolves inside the root and is what
    /// `expect` says; otherwise one sentence saying what is wrong. A path
    /// that does not exist is `Ok` (the caller reports missing files in its
    /// own words).
    pub(crate) fn check(&self, path: &Path, expect: Expect) -> Result<(), String> {
        let Ok(meta) = std::fs::metadata(path) else {
            if std::fs::symlink_metadata(path).is_ok() {
                return Err("is a symbolic link to nothing".to_owned());
            }
            return Ok(());
        };
        let resolved =
            std::fs::canonicalize(path).map_err(|e| format!("cannot be resolved: {e}"))?;
        let inside = self
            .canonical
            .as_ref()
            .is_some_and(|root| resolved.starts_with(root));
        if !inside {
            return Err(format!(
                "resolves to {}, outside the course",
                resolved.display()
            ));
        }
        match expect {
            Expect::File if !meta.is_file() => Err("is not a regular file".to_owned()),
            Expect::Dir if !meta.is_dir() => Err("is not a folder".to_owned()),
            _ => Ok(()),
        }
    }

    /// [`Root::check`] for an entry of a folder that passed it, with the
    /// entry's own type (`DirEntry::file_type`, which follows no link). An
    /// entry that is no symbolic link resolves to that folder's resolved
    /// path and its name, inside the root like the folder: only its type is
    /// left to check, with no system call. A link is resolved as
    /// [`Root::check`] resolves it.
    pub(crate) fn check_entry(
        &self,
        path: &Path,
        kind: FileType,
        expect: Expect,
    ) -> Result<(), String> {
        if kind.is_symlink() {
            return self.check(path, expect);
        }
        match expect {
            Expect::File if !kind.is_file() => Err("is not a regular file".to_owned()),
            Expect::Dir if !kind.is_dir() => Err("is not a folder".to_owned()),
            _ => Ok(()),
        }
    }
}

/// Whether a folder's entry of type `kind` at `path` is a folder, links
/// followed (as `Path::is_dir`), with no system call unless it is a link.
pub(crate) fn is_dir(path: &Path, kind: FileType) -> bool {
    if kind.is_symlink() {
        path.is_dir()
    } else {
        kind.is_dir()
    }
}

/// Whether a folder's entry of type `kind` at `path` is a regular file,
/// links followed (as `Path::is_file`), with no system call unless it is a
/// link.
pub(crate) fn is_file(path: &Path, kind: FileType) -> bool {
    if kind.is_symlink() {
        path.is_file()
    } else {
        kind.is_file()
    }
}

/// The hint that goes with an error of [`Root::check`].
pub(crate) const HINT: &str = "the course reads only files inside the folder holding book.toml: copy the file into the course instead of linking to it";

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn only_the_course_is_read() {
        let base = std::env::temp_dir().join(format!("dumplab-confine-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let course = base.join("course");
        std::fs::create_dir_all(course.join("fixtures")).unwrap_or_default();
        std::fs::write(base.join("secret.txt"), "s").unwrap_or_default();
        std::fs::write(course.join("fixtures/a.txt"), "a").unwrap_or_default();
        let root = Root::new(&course);
        assert_eq!(
            root.check(&course.join("fixtures/a.txt"), Expect::File),
            Ok(())
        );
        assert_eq!(root.check(&course.join("fixtures"), Expect::Dir), Ok(()));
        assert_eq!(root.check(&course.join("missing"), Expect::File), Ok(()));
        assert_eq!(
            root.check(&course.join("fixtures"), Expect::File),
            Err("is not a regular file".to_owned())
        );
        let outside = root.check(&course.join("../secret.txt"), Expect::File);
        assert!(outside.is_err_and(|e| e.contains("outside the course")));
        // An entry of a checked folder is judged as `check` judges it.
        let entry = |name: &str| {
            std::fs::read_dir(course.join("fixtures"))
                .unwrap()
                .flatten()
                .find(|e| e.file_name() == name)
                .map(|e| (e.path(), e.file_type().unwrap()))
                .unwrap()
        };
        let (a, kind) = entry("a.txt");
        for expect in [Expect::File, Expect::Dir] {
            assert_eq!(root.check_entry(&a, kind, expect), root.check(&a, expect));
        }
        assert!(is_file(&a, kind) && !is_dir(&a, kind));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(base.join("secret.txt"), course.join("fixtures/l.txt"))
                .unwrap_or_default();
            std::os::unix::fs::symlink("nowhere", course.join("fixtures/dangling"))
                .unwrap_or_default();
            let link = root.check(&course.join("fixtures/l.txt"), Expect::File);
            assert!(link.is_err_and(|e| e.contains("outside the course")));
            assert_eq!(
                root.check(&course.join("fixtures/dangling"), Expect::File),
                Err("is a symbolic link to nothing".to_owned())
            );
            assert!(root.check(Path::new("/dev/null"), Expect::File).is_err());
            for name in ["l.txt", "dangling"] {
                let (link, kind) = entry(name);
                assert_eq!(
                    root.check_entry(&link, kind, Expect::File),
                    root.check(&link, Expect::File),
                    "{name}"
                );
            }
            let (link, kind) = entry("l.txt");
            assert!(
                is_file(&link, kind),
                "a link to a file is a file, as Path::is_file"
            );
        }
        let _ = std::fs::remove_dir_all(&base);
    }
}
