//! The fixtures as the resolver sees them: every dump of a loaded family
//! with its annotated kind and backend (typed), excerpts, evidence notes,
//! provenance and the analysis made when the family was loaded.

use crate::analysis::{Analysis, Backend, Kind, analyze};
use crate::fixture::Family;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One annotated line of a dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotatedLine {
    /// 1-based line in the dump.
    pub line: usize,
    /// The checker's marker name (`is-scheduled`, `fusion`, ...).
    pub marker: String,
    /// What a learner should notice.
    pub note: String,
}

/// What exercises need to know about one dump file of a fixture family.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DumpInfo {
    /// The dump's text, verbatim.
    pub text: String,
    /// The annotated kind, if annotated.
    pub kind: Option<Kind>,
    /// The annotated backend, if annotated.
    pub backend: Option<Backend>,
    /// Named excerpts: name, first and last line (both included).
    pub excerpts: Vec<(String, usize, usize)>,
    /// Annotated evidence lines.
    pub evidence: Vec<AnnotatedLine>,
    /// Where it came from, from the fixture's generated provenance.
    pub provenance: Option<DumpSource>,
    /// The checker's analysis of `text`, computed on first use and kept:
    /// a build analyses each dump once, however many questions show it.
    pub analysis: OnceLock<Analysis>,
}

/// How a dump was made, as the fixture's provenance records it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DumpSource {
    /// The Python file of the function, as a learner finds it in the
    /// repository (`fixtures/elementwise_chain/function.py`).
    pub function: String,
    /// The exact call that printed the dump.
    pub call: String,
    /// The compilation target, for compiled dumps.
    pub target: Option<String>,
}

impl DumpInfo {
    /// The checker's analysis of the dump, computed once.
    pub fn analysis(&self) -> &Analysis {
        self.analysis.get_or_init(|| analyze(&self.text))
    }
}

/// The fixtures, keyed by `(family, file)`; the text files of a family's
/// dump folders are there too, keyed `(family, "folder.cpu/<path>")`.
pub type Library = BTreeMap<(String, String), DumpInfo>;

/// The exercises' view of loaded fixture families: every dump with its
/// annotations, provenance and the analysis made when the family was loaded
/// (so a build analyses each dump once).
pub fn library_of(families: &BTreeMap<String, Family>) -> Library {
    let mut lib = dumps_of(families);
    for (name, family) in families {
        add_folders(&mut lib, name, family, family.folder_texts.clone());
    }
    lib
}

/// [`library_of`], with the texts of the dump folders moved into the
/// library instead of copied (megabytes per folder): each family's
/// `folder_texts` is left empty, since nothing but the library reads them.
pub fn library_taking_folders(families: &mut BTreeMap<String, Family>) -> Library {
    let mut lib = dumps_of(families);
    for (name, family) in families.iter_mut() {
        let texts = std::mem::take(&mut family.folder_texts);
        add_folders(&mut lib, name, family, texts);
    }
    lib
}

/// The family's folder as a learner finds it (`fixtures/softmax`).
fn shown_folder(family: &Family) -> String {
    family
        .dir
        .rsplit('/')
        .take(2)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("/")
}

/// The library's dump files (and logs) of every family, no folder texts.
fn dumps_of(families: &BTreeMap<String, Family>) -> Library {
    let mut lib = Library::new();
    for (name, family) in families {
        let prov = &family.annotation.provenance;
        let folder = shown_folder(family);
        for (file, text) in &family.files {
            if crate::fixture::is_log_name(file) {
                let info = DumpInfo {
                    text: text.clone(),
                    ..DumpInfo::default()
                };
                lib.insert((name.clone(), file.clone()), info);
                continue;
            }
            if !crate::fixture::is_dump_name(file) {
                continue;
            }
            let mut info = DumpInfo {
                text: text.clone(),
                ..DumpInfo::default()
            };
            // Analysed once, when the family was loaded.
            if let Some(a) = family.analyses.get(file) {
                let _ = info.analysis.set(a.clone());
            }
            info.provenance = prov.dumps.get(file).map(|d| DumpSource {
                function: format!("{folder}/{}", prov.function.get_ref()),
                call: d.call.clone(),
                target: d.target.clone(),
            });
            if let Some(ann) = family.dump(file) {
                info.kind = Some(*ann.kind.get_ref());
                info.backend = ann.backend.as_ref().map(|b| *b.get_ref());
                info.excerpts = ann
                    .excerpt
                    .iter()
                    .map(|e| {
                        (
                            e.name.get_ref().clone(),
                            e.lines.get_ref().0,
                            e.lines.get_ref().1,
                        )
                    })
                    .collect();
                info.evidence = ann
                    .evidence
                    .iter()
                    .map(|e| AnnotatedLine {
                        line: *e.line.get_ref(),
                        marker: e.marker.get_ref().clone(),
                        note: e.note.get_ref().clone(),
                    })
                    .collect();
            }
            lib.insert((name.clone(), file.clone()), info);
        }
    }
    lib
}

/// The text files of `family`'s dump folders (`texts`: folder → (path,
/// text)) into `lib`, keyed `(family, "folder.cpu/<path>")`.
fn add_folders(
    lib: &mut Library,
    name: &str,
    family: &Family,
    texts: BTreeMap<String, Vec<(String, String)>>,
) {
    let prov = &family.annotation.provenance;
    let folder = shown_folder(family);
    for (dir, files) in texts {
        let made = prov.folders.get(&dir);
        for (path, text) in files {
            let info = DumpInfo {
                text,
                provenance: made.map(|f| DumpSource {
                    function: format!("{folder}/{}", prov.function.get_ref()),
                    call: f.call.clone(),
                    target: Some(f.target.clone()),
                }),
                ..DumpInfo::default()
            };
            lib.insert((name.to_owned(), format!("{dir}/{path}")), info);
        }
    }
}

/// The text files of dump folder `dir` (`folder.cpu`) of `family`, as
/// (path inside the folder, text), in path order: the library keeps them
/// under `dir/path`.
pub(super) fn folder_files<'a>(
    library: &'a Library,
    family: &str,
    dir: &str,
) -> Vec<(&'a str, &'a str)> {
    let prefix = format!("{dir}/");
    library
        .range((family.to_owned(), prefix.clone())..)
        .take_while(|((f, file), _)| f == family && file.starts_with(&prefix))
        .map(|((_, file), d)| (&file[prefix.len()..], d.text.as_str()))
        .collect()
}

/// The dump's kind: annotated, else what the analysis reads (never
/// `unknown`).
pub(super) fn kind_of(dump: &DumpInfo) -> Option<Kind> {
    dump.kind
        .filter(|k| *k != Kind::Unknown)
        .or_else(|| Some(dump.analysis().kind).filter(|k| *k != Kind::Unknown))
}

/// The dump's backend: annotated, else what the analysis reads.
pub(super) fn backend_of(dump: &DumpInfo) -> Option<Backend> {
    dump.backend.or(dump.analysis().backend)
}
