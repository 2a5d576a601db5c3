//! Command-line parsing and dispatch. Each subcommand lives in its own
//! `cmd_*` module; with no subcommand the binary speaks mdBook's
//! preprocessor protocol on stdin/stdout.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// mdBook preprocessor and command line of the DumpLab course.
#[derive(Parser, Debug)]
#[command(name = "mdbook-dumplab", version, about)]
pub struct Cli {
    /// What to do; without one, read mdBook's preprocessor input on stdin.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Answers mdBook: exit 0 when the renderer is supported.
    Supports {
        /// The renderer mdBook asks about (`html`, ...).
        renderer: String,
    },
    /// Says what kind of dump each file is (jaxpr, StableHLO, HLO) and why.
    Analyze {
        /// One JSON object per input, one per line.
        #[arg(long)]
        json: bool,
        /// Files to read; `-` reads standard input.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Maps Python source lines to the lowered ops and compiled kernels they became.
    Map {
        /// Print one JSON object (schema in the `dumplab` crate, module `sourcemap::json`).
        #[arg(long)]
        json: bool,
        /// The lowered dump: StableHLO printed with debug info, a jaxpr, or HLO before optimization (`-` for standard input).
        lowered: PathBuf,
        /// The compiled HLO dump of the same function (`-` for standard input).
        compiled: PathBuf,
    },
    /// Where the time goes: per kernel of a compiled dump, XLA's cost figures,
    /// DumpLab's estimate and a roofline on a chip preset.
    Cost {
        /// Print one JSON object (schema in the `dumplab` crate, module `analysis`, "JSON of `cost`").
        #[arg(long)]
        json: bool,
        /// The chip preset for the roofline: v5e, v6e, h100, h200, a100 (default: the one the dump's platform names; none for a CPU dump).
        #[arg(long)]
        chip: Option<String>,
        /// The compiled HLO dump (`-` for standard input).
        dump: PathBuf,
    },
    /// What changed between two dumps of one kind: kernels matched by what
    /// they compute, changed, split, merged, added and removed, and the cost.
    Diff {
        /// Print one JSON object (schema in the `dumplab` crate, module `analysis`, "JSON of `diff`").
        #[arg(long)]
        json: bool,
        /// A chip preset for each module's lower bound (v5e, v6e, h100, h200, a100).
        #[arg(long)]
        chip: Option<String>,
        /// The first dump (`-` for standard input).
        a: PathBuf,
        /// The second dump, of the same kind.
        b: PathBuf,
    },
    /// Why these kernels: for every kernel input that comes from another
    /// kernel, why the two are separate, and every copy and transpose.
    Explain {
        /// Print one JSON object (schema in the `dumplab` crate, module `analysis`, "JSON of `explain`").
        #[arg(long)]
        json: bool,
        /// XLA's fusion-decision log of the same compile (stderr of a compile run with TF_CPP_MIN_LOG_LEVEL=0 TF_CPP_VMODULE=instruction_fusion=5,cpu_instruction_fusion=5 on the CPU).
        #[arg(long)]
        log: Option<PathBuf>,
        /// The compile's `--xla_dump_to` folder: says which pass added each copy.
        #[arg(long)]
        folder: Option<PathBuf>,
        /// With --folder: the module of the folder (its id, module_0001, or name), when it holds several.
        #[arg(long, requires = "folder")]
        module: Option<String>,
        /// The compiled HLO dump (`-` for standard input).
        dump: PathBuf,
    },
    /// The collectives of a compiled sharded dump: each one's devices, the
    /// bytes it moves per device and at least over the interconnect, its
    /// schedule (synchronous, or start/done and what runs between) and
    /// which sharding made it.
    Collectives {
        /// Print one JSON object (schema in the `dumplab` crate, module `analysis`, "JSON of `collectives`").
        #[arg(long)]
        json: bool,
        /// A chip preset for the interconnect time bounds (v5e, v6e, h100, h200, a100); the dump's platform's default otherwise.
        #[arg(long)]
        chip: Option<String>,
        /// The compiled HLO dump (`-` for standard input).
        dump: PathBuf,
    },
    /// A whole `--xla_dump_to` folder: its modules and files, each module's
    /// pass story (which numbered files changed, and what), and where
    /// something first appears.
    Folder {
        /// Print one JSON object (schema in the `dumplab` crate, module `folder::json`).
        #[arg(long)]
        json: bool,
        /// Only this module: its id (`module_0000`) or its name (`jit_fn`).
        #[arg(long)]
        module: Option<String>,
        /// The first file where this appears: an instruction name (`copy.3`), an opcode (`transpose`) or a fusion kind (`kLoop`).
        #[arg(long)]
        first: Option<String>,
        /// The folder XLA wrote (`--xla_dump_to`).
        dir: PathBuf,
    },
    /// Why: every reader that applies to what was pasted (a compiled
    /// module, a fragment of one, HLO before optimization, an
    /// out-of-memory report, a log line), and the findings ranked by what
    /// they cost.
    Why {
        /// Print one JSON object (schema in the `dumplab` crate, module `why::json`).
        #[arg(long)]
        json: bool,
        /// The backend, where the text does not show it: cpu, gpu or tpu.
        #[arg(long)]
        backend: Option<String>,
        /// Texts to read (`-` reads standard input); two compiled dumps are also compared.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Validates the course's fixtures and exercises.
    Check {
        /// The course root (holding `book.toml`); defaults to the current directory.
        dir: Option<PathBuf>,
    },
    /// Prints the marker reference for instructors (Markdown): every marker,
    /// what its line shows, what it proves, and a real line from the fixtures.
    Markers {
        /// The course root (holding `book.toml`).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Grades an answer to an exercise question, as the browser does.
    Grade(crate::cmd_grade::GradeArgs),
    /// Creates and maintains fixture families.
    Fixture {
        /// What to do with fixtures.
        #[command(subcommand)]
        command: crate::cmd_fixture::FixtureCommand,
    },
}

/// Runs the command line and returns the process exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => crate::preprocess::run_from_stdin(),
        Some(Command::Supports { renderer }) => {
            return if crate::preprocess::supports_renderer(&renderer) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            };
        }
        Some(Command::Analyze { json, files }) => crate::cmd_analyze::run(json, &files),
        Some(Command::Map {
            json,
            lowered,
            compiled,
        }) => crate::cmd_map::run(json, &lowered, &compiled),
        Some(Command::Cost { json, chip, dump }) => {
            crate::cmd_cost::run(json, chip.as_deref(), &dump)
        }
        Some(Command::Diff { json, chip, a, b }) => {
            crate::cmd_diff::run(json, chip.as_deref(), &a, &b)
        }
        Some(Command::Explain {
            json,
            log,
            folder,
            module,
            dump,
        }) => crate::cmd_explain::run(
            json,
            log.as_deref(),
            folder.as_deref(),
            module.as_deref(),
            &dump,
        ),
        Some(Command::Collectives { json, chip, dump }) => {
            crate::cmd_collectives::run(json, chip.as_deref(), &dump)
        }
        Some(Command::Folder {
            json,
            module,
            first,
            dir,
        }) => crate::cmd_folder::run(json, module.as_deref(), first.as_deref(), &dir),
        Some(Command::Why {
            json,
            backend,
            files,
        }) => crate::cmd_why::run(json, backend.as_deref(), &files),
        Some(Command::Check { dir }) => crate::cmd_check::run(dir.as_deref()),
        Some(Command::Grade(args)) => crate::cmd_grade::run(&args),
        Some(Command::Markers { root }) => crate::cmd_markers::run(&root),
        Some(Command::Fixture { command }) => crate::cmd_fixture::run(command),
    };
    match result {
        Ok(code) => code,
        // The reader went away (`analyze ... | head`): stop quietly, as
        // Unix tools do.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("mdbook-dumplab: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
