//! The `mdbook-dumplab` binary: mdBook preprocessor and course CLI.

fn main() -> std::process::ExitCode {
    mdbook_dumplab::cli::main()
}
