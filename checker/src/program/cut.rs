//! A large module read on two threads: the text is cut at a computation
//! header near its middle, each half read by its own [`hlo::read_part`],
//! and the second half appended to the first ([`Module::append`]: ids,
//! pool runs and lines moved on), then the calls resolved over both.
//!
//! The result is the module one pass gives: a computation header at the
//! start of a line ends whatever the pass was in (an open computation, a
//! source table, an instruction going on over several lines: see
//! [`hlo::starts_something`]), so the second half starts from the state a
//! pass has there. The only state that carries over is whether an
//! `HloModule` line came before, which is why only a text that starts
//! with one is cut. `tests::cut_reads_as_one_pass` compares both at
//! every computation header of every fixture and drift dump.
//!
//! Small texts, a machine with one thread, and the page (wasm has no
//! threads) read in one pass.

use super::hlo;
use super::model::Module;
use crate::analysis::scan;

/// Texts under this size are read in one pass. Measured with the release
/// binary (`analyze`, medians of 9 runs, one thread against two on the
/// 2-core machine of `checker/benches/README.md`): on the 11.7 MB input of
/// `cargo xtask bench --cli` the second thread saved nothing measurable
/// and raised the peak memory by 0.9 MB (2.98x to 3.04x the input); on
/// the 59 MB one it saved 12% of the wall time.
pub(crate) const MIN_CUT: usize = 32 << 20;

/// How far past the middle a computation header is looked for before
/// the text is read in one pass instead.
const LOOK_AHEAD: usize = 4 << 20;

/// Reads `text`: on two threads when it is large and can be cut.
pub(crate) fn read(text: &str) -> Module<'_> {
    match point(text) {
        Some(at) => read_cut(text, at),
        None => hlo::read(text),
    }
}

/// Where [`read`] cuts `text`: [`cut`], where a second thread can run.
pub(crate) fn point(text: &str) -> Option<usize> {
    cut(text).filter(|_| two_threads())
}

/// Whether a second thread can run beside this one.
fn two_threads() -> bool {
    cfg!(not(target_arch = "wasm32"))
        && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

/// Where to cut `text`: the start of the first line at or after its
/// middle that is a computation header (not a bare `name {`, which only
/// counts after an `HloModule` line); `None` for a small text, one that
/// does not start with an `HloModule` line, or no header near the middle.
pub(crate) fn cut(text: &str) -> Option<usize> {
    cut_from(text, MIN_CUT)
}

/// [`cut`] for texts of at least `min` bytes.
pub(crate) fn cut_from(text: &str, min: usize) -> Option<usize> {
    if text.len() < min || !scan::trim_start(text).starts_with("HloModule ") {
        return None;
    }
    let b = text.as_bytes();
    let mut at = scan::find_byte(b, text.len() / 2, b'\n')? + 1;
    let stop = at.saturating_add(LOOK_AHEAD).min(b.len());
    while at < stop {
        let end = scan::find_byte(b, at, b'\n').unwrap_or(b.len());
        let line = scan::trim(text.get(at..end)?);
        if hlo::computation_header(line).is_some_and(|h| !h.bare) {
            return Some(at);
        }
        at = end + 1;
    }
    None
}

/// Reads `text` cut at `at`, the start of a computation header's line in
/// a text that starts with an `HloModule` line: the part after it on a
/// second thread (on this one when no thread can be started).
pub(crate) fn read_cut(text: &str, at: usize) -> Module<'_> {
    let (Some(head), Some(tail)) = (text.get(..at), text.get(at..)) else {
        return hlo::read(text);
    };
    let (first, second) = std::thread::scope(|s| {
        let later = std::thread::Builder::new().spawn_scoped(s, || hlo::read_part(tail, true, 0));
        let first = hlo::read_part(head, false, tail.len());
        let second = match later {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(_) => hlo::read_part(tail, true, 0),
        };
        (first, second)
    });
    let mut m = first.module;
    m.append(second.module, first.newlines);
    hlo::resolve_calls(m)
}
