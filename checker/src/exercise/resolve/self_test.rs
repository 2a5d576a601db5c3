//! The self-test every resolved question passes on every build.

use super::page::Resolved;
use crate::exercise::key::Mode;
use crate::grade::{Outcome, grade};

/// Grades a resolved question against its own sealed key, as the page
/// would: the key must grade right; every other option wrong; a count one
/// off wrong; for an evidence question, the key's lines right, too few of
/// them not right, and a line that proves nothing not right. Returns what
/// failed, one sentence each.
pub fn self_test(q: &Resolved, idle_line: Option<usize>) -> Vec<String> {
    let mut problems = Vec::new();
    let mut expect = |answer: &str, ok: &dyn Fn(Outcome) -> bool, what: &str| match grade(
        &q.id, &q.hash, &q.sealed, answer,
    ) {
        Ok(v) if ok(v.outcome) => {}
        Ok(v) => problems.push(format!("{what} (`{answer}`) grades {}", v.outcome.as_str())),
        Err(e) => problems.push(format!("{what}: {e}")),
    };
    let right = |o: Outcome| o == Outcome::Correct;
    let not_right = |o: Outcome| matches!(o, Outcome::Wrong | Outcome::Partial);
    let wrong = |o: Outcome| o == Outcome::Wrong;
    match q.mode {
        Mode::Single => {
            let key = q.key.answer.first().cloned().unwrap_or_default();
            expect(&key, &right, "the key");
            for (opt, _) in &q.options {
                if *opt != key {
                    expect(opt, &wrong, "a wrong option");
                }
            }
        }
        Mode::Number => {
            let key = q.key.answer.first().cloned().unwrap_or_default();
            expect(&key, &right, "the key");
            if let Ok(n) = key.parse::<u64>() {
                expect(&(n + 1).to_string(), &wrong, "a count one too high");
            }
            for (n, _) in &q.key.miscounts {
                expect(n, &wrong, "a likely miscount");
            }
        }
        Mode::Lines => {
            let all = q.key.answer.join(",");
            expect(&all, &right, "every right line");
            let enough = q.key.answer.get(..q.key.need).unwrap_or_default().join(",");
            expect(&enough, &right, "as many right lines as needed");
            if q.key.need > 1 {
                let fewer = q
                    .key
                    .answer
                    .get(..q.key.need - 1)
                    .unwrap_or_default()
                    .join(",");
                expect(&fewer, &not_right, "one right line too few");
            }
            if let Some(idle) = idle_line {
                expect(&idle.to_string(), &wrong, "a line that proves nothing");
                expect(
                    &format!("{all},{idle}"),
                    &not_right,
                    "the right lines and one that proves nothing",
                );
            }
        }
    }
    problems
}
