//! With the compile's dump folder: the pass that added each copy and
//! transpose.
//!
//! The folder's numbered files show the module after each pass
//! (`crate::folder`); the first file where an instruction of the copy's
//! name and opcode appears is the pass that added it, unless files that
//! could not be read come just before it (then it is that file or one of
//! them, and the answer says so). The folder must be of the same compile:
//! every kernel of the dump is in the folder's optimized module, with its
//! opcode.

use crate::folder::Folder;
use crate::folder::names::Kind;
use crate::program::{self, InstrId, Module};

/// Where a copy first appears in the folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Added {
    /// The file (path inside the folder).
    pub file: String,
    /// Its step, pipeline and the pass after which it was written, when
    /// the name says (`0022.copy-insertion.after_add-copies...`).
    pub step: Option<u32>,
    /// The pipeline.
    pub pipeline: Option<String>,
    /// The pass.
    pub pass: Option<String>,
    /// Files just before it that could not be read: it may come from one.
    pub unread_before: Vec<String>,
}

/// Checks that folder module `m` is the compile of `module`: its optimized
/// file holds every kernel row of the dump with the same opcode. The error
/// says what does not match.
pub fn same_compile(
    folder: &Folder<'_>,
    m: usize,
    module: &Module<'_>,
    kernels: &[InstrId],
) -> Result<(), String> {
    let mf = folder
        .index
        .modules
        .get(m)
        .ok_or("no such module in the folder")?;
    let i = mf
        .first_of(&folder.index, Kind::AfterOptimizations)
        .ok_or_else(|| {
            format!(
                "module {} of the folder has no optimized file (*_after_optimizations.txt)",
                mf.module.id
            )
        })?;
    let text = folder
        .text(i)
        .ok_or("the folder's optimized file could not be read")?;
    let fm = program::parse(text);
    for &k in kernels {
        let Some(ins) = module.instruction(k) else {
            continue;
        };
        let found = fm
            .instructions
            .iter()
            .any(|x| x.name == ins.name && x.opcode == ins.opcode);
        if !found {
            return Err(format!(
                "the folder's module {} is not this dump's compile: its optimized file has no {} `{}`",
                mf.module.id, ins.opcode, ins.name
            ));
        }
    }
    Ok(())
}

/// The first numbered file of folder module `m` where an instruction named
/// `name` with opcode `opcode` appears; `None` when none shows it.
pub fn added(folder: &Folder<'_>, m: usize, name: &str, opcode: &str) -> Option<Added> {
    let files = folder.story_texts(m);
    let texts: Vec<Option<&str>> = files.iter().map(|(_, t)| *t).collect();
    let mut from = 0;
    loop {
        let found = crate::folder::passes::first(texts.get(from..)?, name)?;
        let at = from + found.file;
        let is_copy = texts.get(at).copied().flatten().is_some_and(|t| {
            program::parse(t)
                .instructions
                .iter()
                .any(|x| x.name == name && x.opcode == opcode)
        });
        if is_copy {
            let entry = files.get(at).and_then(|(e, _)| *e)?;
            let e = folder.index.entries.get(entry)?;
            let path = |k: usize| {
                files
                    .get(from + k)
                    .and_then(|(e, _)| *e)
                    .and_then(|e| folder.index.entries.get(e))
                    .map(|e| e.path.to_owned())
            };
            return Some(Added {
                file: e.path.to_owned(),
                step: e.name.pass.as_ref().map(|p| p.step),
                pipeline: e.name.pass.as_ref().map(|p| p.pipeline.to_owned()),
                pass: e.name.pass.as_ref().and_then(|p| p.pass).map(str::to_owned),
                unread_before: found
                    .unread_before
                    .iter()
                    .filter_map(|&k| path(k))
                    .collect(),
            });
        }
        from = at + 1;
    }
}

/// The step of the first numbered file the fusion pass wrote in folder
/// module `m` (`...after_fusion...` on the CPU, `...after_priority-fusion...`
/// on XLA:GPU); `None` when no file names it.
pub fn fusion_step(folder: &Folder<'_>, m: usize) -> Option<u32> {
    let mf = folder.index.modules.get(m)?;
    mf.passes.iter().find_map(|&e| {
        let p = folder.index.entries.get(e)?.name.pass.as_ref()?;
        matches!(p.pass, Some("fusion" | "priority-fusion")).then_some(p.step)
    })
}
