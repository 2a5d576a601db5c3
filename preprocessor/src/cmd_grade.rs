//! `mdbook-dumplab grade`: grades an answer on the command line exactly as
//! the learner's browser does.
//!
//! It builds the question from the course as a book build would (same
//! fixtures, same sealed key, same content hash) and hands the sealed key to
//! [`dumplab::grade::grade`], the function the wasm module calls, so an
//! instructor can check a question's key without opening a browser.
//!
//! Answers: an option id for `classify` (`jaxpr`, `stablehlo`,
//! `hlo-unoptimized`, `hlo-optimized`), `backend` (`cpu`, `gpu`, `tpu`),
//! `pair` and `choice` (`a`, `b`, ...); line numbers such as `3,7` for
//! `evidence`; a whole number for `count`.
//!
//! Exit status: 0 when the answer is right (or with `--reveal`); 1 when it
//! was graded and is not right (wrong or partly right); 2 when nothing could
//! be graded: an answer the question does not accept (`abc` for a count), an
//! unknown file or question, or a course with errors. Everything printed
//! that comes from the course or the answer has its control characters
//! escaped, so a hostile string cannot drive the terminal.

use crate::exercises::Exercises;
use dumplab::diagnostic::printable;
use dumplab::grade::{Outcome, Verdict, grade, reveal};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `grade`.
#[derive(clap::Args, Debug)]
pub struct GradeArgs {
    /// The exercise file, relative to the course root (`exercises/two-dumps.toml`).
    #[arg(long, short = 'e')]
    pub exercise: String,
    /// The question id.
    #[arg(long, short = 'q')]
    pub question: String,
    /// The answer: an option id, line numbers like `3,7`, or a number.
    #[arg(long, short = 'a', required_unless_present = "reveal")]
    pub answer: Option<String>,
    /// Print the answer instead of grading one.
    #[arg(long)]
    pub reveal: bool,
    /// Print the verdict as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// The course root (holding `book.toml`); defaults to the current directory.
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
}

/// The answer was graded and is not right.
const EXIT_NOT_RIGHT: u8 = 1;
/// Nothing could be graded.
const EXIT_ERROR: u8 = 2;

pub(crate) fn run(args: &GradeArgs) -> anyhow::Result<ExitCode> {
    match grade_one(args) {
        Ok(code) => Ok(code),
        Err(err) => {
            eprintln!("mdbook-dumplab: error: {}", printable(&format!("{err:#}")));
            Ok(ExitCode::from(EXIT_ERROR))
        }
    }
}

fn grade_one(args: &GradeArgs) -> anyhow::Result<ExitCode> {
    let mut diags = Vec::new();
    let exercises = Exercises::load(&args.root, &mut diags);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    for d in &errors {
        eprintln!("{d}");
    }
    if !errors.is_empty() {
        anyhow::bail!(
            "the course has {} error(s) (listed above); fix them before grading",
            errors.len()
        );
    }
    let Some(questions) = exercises.files().get(&args.exercise) else {
        let known: Vec<&str> = exercises.files().keys().map(String::as_str).collect();
        anyhow::bail!(
            "no exercise file `{}` under {} (known: {})",
            args.exercise,
            args.root.display(),
            known.join(", ")
        );
    };
    let Some(q) = questions.iter().find(|q| q.id == args.question) else {
        let ids: Vec<&str> = questions.iter().map(|q| q.id.as_str()).collect();
        anyhow::bail!(
            "`{}` has no question `{}` (its questions: {})",
            args.exercise,
            args.question,
            ids.join(", ")
        );
    };
    let verdict = if args.reveal {
        reveal(&q.id, &q.hash, &q.sealed)?
    } else {
        grade(
            &q.id,
            &q.hash,
            &q.sealed,
            args.answer.as_deref().unwrap_or_default(),
        )?
    };
    if args.json {
        println!("{}", to_json(&q.id, q.type_name, &verdict));
    } else {
        print!("{}", human(&verdict));
    }
    Ok(match verdict.outcome {
        Outcome::Correct | Outcome::Revealed => ExitCode::SUCCESS,
        Outcome::Wrong | Outcome::Partial => ExitCode::from(EXIT_NOT_RIGHT),
        Outcome::Invalid => ExitCode::from(EXIT_ERROR),
    })
}

/// The verdict for a terminal: one line per item, course text escaped.
fn human(v: &Verdict) -> String {
    let mut out = format!(
        "{}: {} ({}/{})\n",
        v.outcome.as_str(),
        printable(&v.message),
        v.score,
        v.out_of
    );
    for n in &v.notes {
        if !n.text.is_empty() {
            out.push_str(&format!(
                "  {} {}: {}\n",
                n.mark.as_str(),
                printable(&n.target),
                printable(&n.text)
            ));
        }
    }
    for (line, note) in &v.lines {
        out.push_str(&format!("  line {line}: {}\n", printable(note)));
    }
    if let Some(h) = &v.hint {
        out.push_str(&format!(
            "  hint (lines {}-{}): {}\n",
            h.first,
            h.last,
            printable(&h.text)
        ));
    }
    if !v.explanation.is_empty() {
        out.push_str(&format!("  {}\n", printable(&v.explanation)));
    }
    out
}

fn to_json(id: &str, type_name: &str, v: &Verdict) -> serde_json::Value {
    serde_json::json!({
        "question": id,
        "type": type_name,
        "outcome": v.outcome.as_str(),
        "score": v.score,
        "out_of": v.out_of,
        "message": v.message,
        "notes": v.notes.iter().map(|n| serde_json::json!({"target": n.target, "mark": n.mark.as_str(), "text": n.text})).collect::<Vec<_>>(),
        "lines": v.lines.iter().map(|(l, n)| serde_json::json!({"line": l, "note": n})).collect::<Vec<_>>(),
        "answer": if v.answer_ids.is_empty() { serde_json::Value::Null } else { serde_json::json!(v.answer_ids) },
        "hint": v.hint.as_ref().map(|h| serde_json::json!({"first": h.first, "last": h.last, "text": h.text})),
        "explanation": v.explanation,
    })
}
