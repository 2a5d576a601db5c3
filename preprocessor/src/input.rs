//! Reading a dump the commands analyse: a file, or standard input for `-`.
//!
//! A regular file of at least [`MAP_AT_LEAST`] bytes is mapped into memory
//! (read-only, its pages faulted in at once) instead of copied: on a 56 MB
//! dump the copy into fresh memory took 28 ms on the development machine
//! and the mapping 3 ms, a fifth of `analyze`'s whole time. Smaller files
//! and standard input are read into a `String`. Either way the text is
//! checked to be UTF-8 once, here.
//!
//! A mapped file must not change while the command runs, as for any reader
//! of a mapped file (`ripgrep --mmap`, rustc's metadata files): another
//! process shortening it stops this one with `SIGBUS`, and one rewriting it
//! undoes the UTF-8 check the text was made on, so nothing then holds for the
//! report. Dumps are written once, by XLA or JAX, before they are read; a
//! file still being written (a dump folder of a compile in progress) is read
//! whole by `folder`, which does not map.

use anyhow::Context;
use std::io::Read;
use std::ops::Deref;
use std::path::Path;

/// Files at least this large are mapped rather than read.
pub(crate) const MAP_AT_LEAST: u64 = 1 << 20;

/// A dump's text, checked to be UTF-8: owned, or a mapped file.
pub(crate) struct Text(Inner);

enum Inner {
    Owned(String),
    /// Bytes that [`checked`] accepted when mapped.
    Mapped(memmap2::Mmap),
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        match &self.0 {
            Inner::Owned(s) => s,
            // SAFETY: `map` checked these bytes (`checked`) before making
            // the `Text`, and this process cannot write the mapping (the
            // module docs say what another writer does).
            Inner::Mapped(m) => unsafe { std::str::from_utf8_unchecked(m) },
        }
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text(Inner::Owned(s))
    }
}

/// The name to report and the text of `path` (`-`: standard input).
pub(crate) fn read_input(path: &Path) -> anyhow::Result<(String, Text)> {
    if path == Path::new("-") {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read standard input as UTF-8 text")?;
        return Ok(("-".to_owned(), s.into()));
    }
    let name = path.display().to_string();
    let unreadable =
        || format!("{name}: cannot read this file; check that the path exists and is readable");
    let file = std::fs::File::open(path).with_context(unreadable)?;
    let meta = file.metadata().with_context(unreadable)?;
    let mapped = (meta.is_file() && meta.len() >= MAP_AT_LEAST)
        .then(|| map(&file))
        .flatten();
    if let Some(text) = mapped {
        return text
            .map(|t| (name.clone(), t))
            .map_err(|at| not_utf8(&name, at));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    (&file).read_to_end(&mut bytes).with_context(unreadable)?;
    let text =
        String::from_utf8(bytes).map_err(|e| not_utf8(&name, e.utf8_error().valid_up_to()))?;
    Ok((name, text.into()))
}

/// `file` mapped and checked; `None` when it cannot be mapped (the caller
/// reads it instead), `Err` with the offset of the first byte that is not
/// UTF-8.
fn map(file: &std::fs::File) -> Option<Result<Text, usize>> {
    // SAFETY: the mapping is read-only (memmap2's `map`: shared, not
    // writable by this process); the bytes are checked below before any
    // `&str` is made of them. See the module docs for a
    // file changed by another process meanwhile.
    let m = unsafe { memmap2::MmapOptions::new().populate().map(file) }.ok()?;
    Some(checked(&m).map(|()| Text(Inner::Mapped(m))))
}

/// Whether `bytes` are UTF-8; else the offset of the first byte that is
/// not. The check runs with SIMD where the processor has it (`simdutf8`;
/// on the 56 MB TPU input std's check was 7% of `analyze`'s time); only a
/// text that fails it is checked again, by std, for the offset.
fn checked(bytes: &[u8]) -> Result<(), usize> {
    if simdutf8::basic::from_utf8(bytes).is_ok() {
        return Ok(());
    }
    std::str::from_utf8(bytes)
        .map(|_| ())
        .map_err(|e| e.valid_up_to())
}

fn not_utf8(name: &str, at: usize) -> anyhow::Error {
    anyhow::anyhow!(
        "{name}: not UTF-8 text (invalid byte at offset {at}); pass a text dump (jaxpr, StableHLO or HLO)"
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A file on either side of [`MAP_AT_LEAST`] reads the same text, and
    /// bytes that are not UTF-8 are named at the same offset either way.
    #[test]
    fn mapped_and_read_files_give_the_same_text_and_errors() {
        let dir = std::env::temp_dir().join(format!("dumplab-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let line = "  %add.1 = f32[8]{0} add(f32[8]{0} %p.0, f32[8]{0} %p.1) \u{e9}\n";
        let big = line.repeat(usize::try_from(MAP_AT_LEAST).unwrap() / line.len() + 1);
        for (file, text) in [("small.txt", line.to_owned()), ("big.txt", big)] {
            let path = dir.join(file);
            std::fs::write(&path, &text).unwrap();
            let (name, got) = read_input(&path).unwrap();
            assert_eq!(name, path.display().to_string());
            assert_eq!(&*got, text.as_str(), "{file}");
            let mut bad = text.into_bytes();
            let at = bad.len() - 3;
            bad[at] = 0xff;
            std::fs::write(&path, &bad).unwrap();
            let e = read_input(&path).err().unwrap().to_string();
            assert!(
                e.contains(&format!("invalid byte at offset {at}")),
                "{file}: {e}"
            );
        }
        let e = read_input(&dir.join("missing.txt")).err().unwrap();
        assert!(
            format!("{e:#}").contains("check that the path exists"),
            "{e:#}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
