//! Compiles the course's `.sublime-syntax` grammars (HLO, MLIR, jaxpr) once,
//! at build time, into a binary syntax set the preprocessor embeds, so no
//! book build re-parses YAML grammars.

use syntect::parsing::SyntaxSetBuilder;

fn main() {
    println!("cargo::rerun-if-changed=syntaxes");
    let mut builder = SyntaxSetBuilder::new();
    if let Err(e) = builder.add_from_folder("syntaxes", true) {
        panic!("preprocessor/syntaxes: a grammar does not load: {e}");
    }
    let set = builder.build();
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("syntaxes.packdump");
    if let Err(e) = syntect::dumps::dump_to_uncompressed_file(&set, &out) {
        panic!("cannot write {}: {e}", out.display());
    }
}
