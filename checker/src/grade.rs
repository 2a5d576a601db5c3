//! Grading answers to exercise questions.
//!
//! One function, [`grade`], serves the learner's browser (through the wasm
//! module) and `mdbook-dumplab grade` on the command line, so a question is
//! graded the same way wherever it is answered. It takes the question's
//! sealed key as the page carries it, so the browser never sees a plain key
//! and the command line tests exactly what ships.

use crate::exercise::key::{Hint, Key, Mode, push_record, records};
use crate::exercise::seal::unseal;

/// How an answer fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Entirely right.
    Correct,
    /// Some of the right lines, not all (or some wrong ones with them).
    Partial,
    /// Not right.
    Wrong,
    /// Not an answer this question accepts (for example `abc` for a count).
    Invalid,
    /// The learner asked to see the answer.
    Revealed,
}

impl Outcome {
    /// The spelling in the record format and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Correct => "correct",
            Outcome::Partial => "partial",
            Outcome::Wrong => "wrong",
            Outcome::Invalid => "invalid",
            Outcome::Revealed => "revealed",
        }
    }
}

/// What a note in a [`Verdict`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A chosen option or line that is right.
    Hit,
    /// A chosen option or line that is wrong.
    Extra,
    /// A right line that was not chosen.
    Missed,
}

impl Mark {
    /// The spelling in the record format and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::Hit => "hit",
            Mark::Extra => "extra",
            Mark::Missed => "missed",
        }
    }
}

/// Feedback on one option or line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The option id or line number it is about.
    pub target: String,
    /// Right, wrong or missed.
    pub mark: Mark,
    /// Why.
    pub text: String,
}

/// The result of grading one answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Right, partly right, wrong, not an answer, or revealed.
    pub outcome: Outcome,
    /// Points earned.
    pub score: u32,
    /// Points possible.
    pub out_of: u32,
    /// One sentence for the learner (and for screen readers).
    pub message: String,
    /// Per option or line feedback.
    pub notes: Vec<Note>,
    /// Lines that light up with their notes (only once right or revealed).
    pub lines: Vec<(usize, String)>,
    /// The right answer as a learner reads it (only once right or revealed).
    pub answer: String,
    /// The option ids or line numbers of the right answer (only once right or revealed).
    pub answer_ids: Vec<String>,
    /// The explanation (only once right or revealed).
    pub explanation: String,
    /// Where to look again (only after a wrong or partly right answer): a
    /// region of the dump and what to look for there, never the answer.
    pub hint: Option<Hint>,
}

impl Verdict {
    fn new(outcome: Outcome, score: u32, out_of: u32, message: impl Into<String>) -> Self {
        Verdict {
            outcome,
            score,
            out_of,
            message: message.into(),
            notes: Vec::new(),
            lines: Vec::new(),
            answer: String::new(),
            answer_ids: Vec::new(),
            explanation: String::new(),
            hint: None,
        }
    }

    /// Adds the solution: lit lines, the answer and the explanation, each
    /// said once. A note already shown on a lit line or as the pick's note
    /// is not repeated, and an explanation that only repeats a note is left
    /// out.
    fn with_solution(mut self, key: &Key) -> Self {
        self.lines = key.lines.clone();
        self.answer = key.answer_text.clone();
        self.answer_ids = key.answer.clone();
        for n in &mut self.notes {
            let lit = n
                .target
                .parse::<usize>()
                .is_ok_and(|t| key.lines.binary_search_by_key(&t, |(l, _)| *l).is_ok());
            if n.mark == Mark::Hit && lit {
                n.text.clear();
            }
        }
        let said = self.notes.iter().any(|n| n.text == key.explanation)
            || key.lines.iter().any(|(_, t)| *t == key.explanation);
        self.explanation = if said {
            String::new()
        } else {
            key.explanation.clone()
        };
        self
    }

    /// The record form the wasm module hands to the page.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        push_record(&mut out, &["outcome", self.outcome.as_str()]);
        push_record(
            &mut out,
            &[
                "score",
                &num(self.score as usize),
                &num(self.out_of as usize),
            ],
        );
        push_record(&mut out, &["message", &self.message]);
        for n in &self.notes {
            push_record(&mut out, &["note", &n.target, n.mark.as_str(), &n.text]);
        }
        for (line, note) in &self.lines {
            push_record(&mut out, &["line", &num(*line), note]);
        }
        if !self.answer_ids.is_empty() {
            push_record(
                &mut out,
                &["answer", &self.answer, &self.answer_ids.join(",")],
            );
        }
        if !self.explanation.is_empty() {
            push_record(&mut out, &["explain", &self.explanation]);
        }
        if let Some(h) = &self.hint {
            push_record(&mut out, &["hint", &num(h.first), &num(h.last), &h.text]);
        }
        out
    }
}

/// Why a sealed key could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadKey;

impl BadKey {
    /// What went wrong, for the learner.
    pub const MESSAGE: &'static str =
        "the question's key does not unseal: the page is damaged or stale; rebuild the book";
}

impl std::fmt::Display for BadKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(Self::MESSAGE)
    }
}

impl std::error::Error for BadKey {}

/// Unseals a key sealed for question `id` with content hash `salt`.
pub fn open_key(id: &str, salt: &str, sealed: &str) -> Result<Key, BadKey> {
    unseal(id, salt, sealed)
        .and_then(|plain| Key::decode(&plain))
        .ok_or(BadKey)
}

/// Grades `answer` to question `id` whose page carries `sealed` and content hash `salt`.
pub fn grade(id: &str, salt: &str, sealed: &str, answer: &str) -> Result<Verdict, BadKey> {
    Ok(grade_key(&open_key(id, salt, sealed)?, answer))
}

/// The full answer of question `id`, for "Show answer".
pub fn reveal(id: &str, salt: &str, sealed: &str) -> Result<Verdict, BadKey> {
    let key = open_key(id, salt, sealed)?;
    let out_of = key_points(&key);
    Ok(Verdict::new(
        Outcome::Revealed,
        0,
        out_of,
        cat(&["The answer: ", &sentence(&key.answer_text)]),
    )
    .with_solution(&key))
}

fn key_points(key: &Key) -> u32 {
    match key.mode {
        Mode::Lines => u32::try_from(need_of(key)).unwrap_or(u32::MAX),
        Mode::Single | Mode::Number => 1,
    }
}

/// How many right lines a right answer needs: the key's `need`, at most
/// the number of right lines, at least one.
fn need_of(key: &Key) -> usize {
    let all = key.answer.len();
    if key.need == 0 {
        all
    } else {
        key.need.min(all)
    }
    .max(1)
}

/// Grades `answer` against a plain key.
///
/// Answers: an option id for single-choice questions; line numbers separated
/// by commas or spaces for `evidence`; a whole number for `count`.
pub fn grade_key(key: &Key, answer: &str) -> Verdict {
    let answer = answer.trim();
    match key.mode {
        Mode::Single => grade_single(key, answer),
        Mode::Lines => grade_lines(key, answer),
        Mode::Number => grade_number(key, answer),
    }
}

fn option_note(key: &Key, id: &str) -> String {
    key.options
        .iter()
        .find(|(o, _)| o == id)
        .map(|(_, why)| why.clone())
        .unwrap_or_default()
}

fn grade_single(key: &Key, answer: &str) -> Verdict {
    if answer.is_empty() {
        return Verdict::new(Outcome::Invalid, 0, 1, "Pick one of the options first.");
    }
    if !key.options.iter().any(|(id, _)| id == answer) && !key.answer.iter().any(|a| a == answer) {
        return Verdict::new(
            Outcome::Invalid,
            0,
            1,
            cat(&["`", answer, "` is not one of this question's options."]),
        );
    }
    let right = key.answer.iter().any(|a| a == answer);
    let note = Note {
        target: answer.to_owned(),
        mark: if right { Mark::Hit } else { Mark::Extra },
        text: option_note(key, answer),
    };
    if right {
        let mut v = Verdict::new(
            Outcome::Correct,
            1,
            1,
            cat(&["Correct: ", &sentence(&key.answer_text)]),
        );
        v.notes.push(note);
        v.with_solution(key)
    } else {
        let mut v = Verdict::new(
            Outcome::Wrong,
            0,
            1,
            "Not this one. Read the note, then try again.",
        );
        v.notes.push(note);
        v.hint = key.hints.first().cloned();
        v
    }
}

/// Evidence answers: a set of lines. Right when every chosen line proves the
/// claim and there are at least `need` of them; wrong when none proves it;
/// partly right otherwise. Linear in the answer: sets, no nested scans.
fn grade_lines(key: &Key, answer: &str) -> Verdict {
    let out_of = key_points(key);
    let mut chosen: Vec<usize> = Vec::new();
    for part in answer
        .split([',', ' ', '\n', '\t'])
        .filter(|p| !p.is_empty())
    {
        match part.parse::<usize>() {
            Ok(n) if n > 0 => chosen.push(n),
            _ => {
                return Verdict::new(
                    Outcome::Invalid,
                    0,
                    out_of,
                    cat(&["`", part, "` is not a line number."]),
                );
            }
        }
    }
    if chosen.is_empty() {
        return Verdict::new(
            Outcome::Invalid,
            0,
            out_of,
            "Select at least one line first.",
        );
    }
    chosen.sort_unstable();
    chosen.dedup();
    let right = Sorted::of(key.answer.iter().filter_map(|a| a.parse().ok()).collect());
    // The key's lines are in line order.
    let note_of = |n: usize| {
        key.lines
            .binary_search_by_key(&n, |(l, _)| *l)
            .ok()
            .and_then(|i| key.lines.get(i))
            .map_or("", |(_, t)| t.as_str())
    };
    let mut notes = Vec::new();
    let (mut hits, mut extras) = (0u32, 0u32);
    for &n in &chosen {
        if right.contains(&n) {
            hits += 1;
            notes.push(Note {
                target: num(n),
                mark: Mark::Hit,
                text: note_of(n).to_owned(),
            });
        } else {
            extras += 1;
            notes.push(Note {
                target: num(n),
                mark: Mark::Extra,
                text: "This line does not prove it on its own.".to_owned(),
            });
        }
    }
    let counted = hits.min(out_of);
    let score = counted.saturating_sub(extras);
    let missing = out_of.saturating_sub(hits);
    if missing == 0 && extras == 0 {
        return Verdict {
            notes,
            ..Verdict::new(
                Outcome::Correct,
                score,
                out_of,
                match hits {
                    1 => "Correct: that line proves it.".to_owned(),
                    2 => "Correct: both lines prove it.".to_owned(),
                    _ => cat(&["Correct: all ", &num(hits as usize), " lines prove it."]),
                },
            )
        }
        .with_solution(key);
    }
    let mut message = cat(&[
        if hits > 0 {
            "Partly right: "
        } else {
            "Not yet: "
        },
        &num(hits as usize),
        if hits == 1 {
            " line that proves it"
        } else {
            " lines that prove it"
        },
    ]);
    if extras > 0 {
        let what = if extras == 1 {
            " that does not"
        } else {
            " that do not"
        };
        message = cat(&[&message, ", ", &num(extras as usize), what]);
    }
    if missing > 0 {
        message = cat(&[&message, "; ", &num(missing as usize), " more needed"]);
    }
    let message = cat(&[&message, ". Try again, or show the answer."]);
    let outcome = if hits > 0 {
        Outcome::Partial
    } else {
        Outcome::Wrong
    };
    // Point at the region of a right line not chosen yet.
    let hint = key
        .hints
        .iter()
        .find(|h| {
            right
                .in_range(h.first, h.last)
                .iter()
                .any(|l| chosen.binary_search(l).is_err())
        })
        .or(key.hints.first())
        .cloned();
    Verdict {
        notes,
        hint,
        ..Verdict::new(outcome, score, out_of, message)
    }
}

/// A sorted set of line numbers: membership by binary search, so grading
/// is `O(n log n)` in the answer, never a scan per selected line.
struct Sorted(Vec<usize>);

impl Sorted {
    fn of(mut v: Vec<usize>) -> Sorted {
        v.sort_unstable();
        Sorted(v)
    }
    fn contains(&self, n: &usize) -> bool {
        self.0.binary_search(n).is_ok()
    }
    fn in_range(&self, first: usize, last: usize) -> &[usize] {
        let a = self.0.partition_point(|x| *x < first);
        let b = self.0.partition_point(|x| *x <= last);
        self.0.get(a..b).unwrap_or_default()
    }
}

/// Joins pieces; `format!` would pull Rust's formatting machinery into the
/// wasm module and double its size.
fn cat(parts: &[&str]) -> String {
    parts.concat()
}

/// A number in decimal, without `core::fmt` (see [`cat`]).
fn num(mut n: usize) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(b'0' + (n % 10) as u8);
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits.reverse();
    String::from_utf8(digits).unwrap_or_default()
}

/// `text` ending in a full stop, unless it already ends in punctuation.
fn sentence(text: &str) -> String {
    if text.ends_with(['.', '!', '?']) {
        text.to_owned()
    } else {
        cat(&[text, "."])
    }
}

fn answer_of(key: &Key) -> String {
    key.answer.first().cloned().unwrap_or_default()
}

/// A whole number as a learner types it: `93348`, or with its digits
/// grouped by three as the course prints figures (`93,348`, `93 348`,
/// `93_348`); anything else (`93,34`, `9,3348`, `3.0`) is not one.
fn whole_number(answer: &str) -> Option<i64> {
    if let Ok(n) = answer.parse::<i64>() {
        return Some(n);
    }
    let sep = answer
        .chars()
        .find(|c| matches!(c, ',' | ' ' | '_' | '\u{2009}' | '\u{202f}'))?;
    let groups: Vec<&str> = answer.split(sep).collect();
    let digits = |g: &str| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit());
    let first_ok = groups.first().is_some_and(|g| digits(g) && g.len() <= 3);
    let rest_ok = groups.iter().skip(1).all(|g| digits(g) && g.len() == 3);
    if groups.len() < 2 || !first_ok || !rest_ok {
        return None;
    }
    groups.concat().parse().ok()
}

fn grade_number(key: &Key, answer: &str) -> Verdict {
    let Some(given) = whole_number(answer) else {
        return Verdict::new(
            Outcome::Invalid,
            0,
            1,
            "Type a whole number, for example 3.",
        );
    };
    let right: i64 = key
        .answer
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or(i64::MIN);
    let answer = answer.trim_start_matches('+');
    if given == right {
        return Verdict::new(
            Outcome::Correct,
            1,
            1,
            cat(&["Correct: ", &answer_of(key), "."]),
        )
        .with_solution(key);
    }
    let dir = if given > right { "Too many" } else { "Too few" };
    let miscount = key
        .miscounts
        .iter()
        .find(|(n, _)| n.parse::<i64>().ok() == Some(given))
        .map(|(_, why)| why.as_str());
    let message = match miscount {
        Some(why) => cat(&[dir, ": ", answer, " is not it. ", why]),
        None => cat(&[dir, ": ", answer, " is not it. Count again."]),
    };
    let mut v = Verdict::new(Outcome::Wrong, 0, 1, message);
    v.hint = key.hints.first().cloned();
    v
}

/// Answers one request in the record format, as the wasm module does.
///
/// A request is one record (see [`crate::exercise::key`]):
/// `grade <id> <salt> <sealed> <answer>` or `reveal <id> <salt> <sealed>`.
/// The reply is a verdict ([`Verdict::encode`]) or `error <message>`.
pub fn respond(request: &str) -> String {
    let rec = records(request).next().unwrap_or_default();
    let result = match rec.as_slice() {
        [op, id, salt, sealed, answer] if op == "grade" => grade(id, salt, sealed, answer),
        [op, id, salt, sealed] if op == "reveal" => reveal(id, salt, sealed),
        _ => {
            let mut out = String::new();
            push_record(
                &mut out,
                &[
                    "error",
                    "malformed request: expected `grade` or `reveal` and its fields",
                ],
            );
            return out;
        }
    };
    match result {
        Ok(v) => v.encode(),
        Err(BadKey) => {
            let mut out = String::new();
            push_record(&mut out, &["error", BadKey::MESSAGE]);
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::seal::seal;

    fn key(mode: Mode, answer: &[&str]) -> Key {
        Key {
            mode,
            answer: answer.iter().map(|s| s.to_string()).collect(),
            answer_text: "the answer".into(),
            options: vec![
                ("a".into(), "why a".into()),
                ("b".into(), "why b".into()),
                ("c".into(), "why c".into()),
            ],
            lines: vec![(3, "note 3".into()), (5, "note 5".into())],
            explanation: "because".into(),
            need: answer.len(),
            miscounts: vec![("2".into(), "That is the fusions alone.".into())],
            hints: vec![Hint {
                first: 2,
                last: 4,
                text: "Look at lines 2-4.".into(),
            }],
        }
    }

    /// (answer, outcome, score, message prefix)
    fn check(key: &Key, cases: &[(&str, Outcome, u32, &str)]) {
        for (answer, outcome, score, message) in cases {
            let v = grade_key(key, answer);
            assert_eq!(
                (v.outcome, v.score),
                (*outcome, *score),
                "answer {answer:?}: {v:?}"
            );
            assert!(
                v.message.starts_with(message),
                "answer {answer:?}: message {:?}",
                v.message
            );
            let solved = matches!(v.outcome, Outcome::Correct);
            assert_eq!(
                !v.explanation.is_empty(),
                solved,
                "explanation only once solved: {v:?}"
            );
            assert_eq!(
                !v.lines.is_empty(),
                solved,
                "lines light up only once solved: {v:?}"
            );
        }
    }

    #[test]
    fn single_choice() {
        let k = key(Mode::Single, &["b"]);
        check(
            &k,
            &[
                ("b", Outcome::Correct, 1, "Correct: the answer."),
                (" b ", Outcome::Correct, 1, "Correct"),
                ("a", Outcome::Wrong, 0, "Not this one"),
                ("", Outcome::Invalid, 0, "Pick one"),
                ("z", Outcome::Invalid, 0, "`z` is not one"),
            ],
        );
        let wrong = grade_key(&k, "a");
        assert_eq!(
            wrong.notes,
            vec![Note {
                target: "a".into(),
                mark: Mark::Extra,
                text: "why a".into()
            }]
        );
        assert!(
            wrong.answer_ids.is_empty(),
            "a wrong answer must not reveal the key"
        );
    }

    #[test]
    fn evidence_lines_as_sets_with_partial_credit() {
        let k = key(Mode::Lines, &["3", "5"]);
        check(
            &k,
            &[
                ("3,5", Outcome::Correct, 2, "Correct: both lines prove it."),
                ("5 3 3", Outcome::Correct, 2, "Correct"),
                (
                    "3",
                    Outcome::Partial,
                    1,
                    "Partly right: 1 line that proves it; 1 more needed.",
                ),
                (
                    "3,4",
                    Outcome::Partial,
                    0,
                    "Partly right: 1 line that proves it, 1 that does not; 1 more needed.",
                ),
                (
                    "3,5,9",
                    Outcome::Partial,
                    1,
                    "Partly right: 2 lines that prove it, 1 that does not.",
                ),
                (
                    "1,2",
                    Outcome::Wrong,
                    0,
                    "Not yet: 0 lines that prove it, 2 that do not; 2 more needed.",
                ),
                ("", Outcome::Invalid, 0, "Select at least one line"),
                ("3,x", Outcome::Invalid, 0, "`x` is not a line number"),
                ("0", Outcome::Invalid, 0, "`0` is not a line number"),
            ],
        );
        let v = grade_key(&k, "3,4");
        assert_eq!(
            v.notes[0],
            Note {
                target: "3".into(),
                mark: Mark::Hit,
                text: "note 3".into()
            }
        );
        assert_eq!(v.notes[1].mark, Mark::Extra);
        assert_eq!(
            v.hint.as_ref().map(|h| (h.first, h.last)),
            Some((2, 4)),
            "a partly right answer points at the region of the line it missed"
        );
        assert!(
            v.answer_ids.is_empty() && v.lines.is_empty(),
            "and gives nothing away"
        );
        // A need below the number of right lines: any `need` of them do.
        let some = Key {
            need: 1,
            ..key(Mode::Lines, &["3", "5"])
        };
        check(
            &some,
            &[
                ("5", Outcome::Correct, 1, "Correct: that line proves it."),
                ("3,5", Outcome::Correct, 1, "Correct: both lines prove it."),
                (
                    "3,4",
                    Outcome::Partial,
                    0,
                    "Partly right: 1 line that proves it, 1 that does not.",
                ),
            ],
        );
    }

    #[test]
    fn feedback_says_each_thing_once() {
        // A right pick whose note is also the explanation: said once.
        let mut k = key(Mode::Single, &["b"]);
        k.explanation = "why b".into();
        let v = grade_key(&k, "b");
        assert_eq!(v.notes[0].text, "why b");
        assert_eq!(v.explanation, "", "the explanation only repeated the note");
        // Right lines: their notes light up on the lines, not again in the list.
        let v = grade_key(&key(Mode::Lines, &["3", "5"]), "3,5");
        assert!(v.notes.iter().all(|n| n.text.is_empty()), "{:?}", v.notes);
        assert_eq!(v.lines.len(), 2);
        let encoded = v.encode();
        assert_eq!(encoded.matches("note 3").count(), 1, "{encoded}");
    }

    #[test]
    fn a_wrong_count_says_what_was_miscounted() {
        let k = key(Mode::Number, &["3"]);
        let v = grade_key(&k, "2");
        assert_eq!(
            v.message,
            "Too few: 2 is not it. That is the fusions alone."
        );
        assert!(v.hint.is_some());
        assert_eq!(
            grade_key(&k, "1").message,
            "Too few: 1 is not it. Count again."
        );
    }

    /// Figures typed the way the course prints them, digits grouped by
    /// three, grade as the number; a misplaced separator is not a number.
    #[test]
    fn grouped_figures() {
        let k = key(Mode::Number, &["93348"]);
        check(
            &k,
            &[
                ("93,348", Outcome::Correct, 1, "Correct: 93348."),
                ("93 348", Outcome::Correct, 1, "Correct"),
                ("93_348", Outcome::Correct, 1, "Correct"),
                ("93,347", Outcome::Wrong, 0, "Too few: 93,347 is not it"),
                ("9,3348", Outcome::Invalid, 0, "Type a whole number"),
                ("93,34,8", Outcome::Invalid, 0, "Type a whole number"),
                ("93,348.0", Outcome::Invalid, 0, "Type a whole number"),
            ],
        );
    }

    #[test]
    fn counts() {
        let k = key(Mode::Number, &["3"]);
        check(
            &k,
            &[
                ("3", Outcome::Correct, 1, "Correct: 3."),
                (" 3\n", Outcome::Correct, 1, "Correct"),
                ("4", Outcome::Wrong, 0, "Too many"),
                ("1", Outcome::Wrong, 0, "Too few"),
                ("three", Outcome::Invalid, 0, "Type a whole number"),
                ("0,003", Outcome::Correct, 1, "Correct"),
                ("3,0", Outcome::Invalid, 0, "Type a whole number"),
                ("3,", Outcome::Invalid, 0, "Type a whole number"),
                ("3.0", Outcome::Invalid, 0, "Type a whole number"),
            ],
        );
    }

    #[test]
    fn sealed_keys_grade_and_reveal_and_reject_tampering() {
        let k = key(Mode::Single, &["c"]);
        let sealed = seal("q", "salt", &k.encode());
        assert_eq!(
            grade("q", "salt", &sealed, "c").map(|v| v.outcome),
            Ok(Outcome::Correct)
        );
        let shown = reveal("q", "salt", &sealed).expect("reveals");
        assert_eq!(
            (shown.outcome, shown.answer_ids.clone()),
            (Outcome::Revealed, vec!["c".to_string()])
        );
        assert!(shown.encode().contains("answer\tthe answer\tc\n"));
        assert_eq!(grade("other", "salt", &sealed, "c"), Err(BadKey));
        assert_eq!(grade("q", "salt", "%%%", "c"), Err(BadKey));
    }

    #[test]
    fn requests_in_the_record_format() {
        let k = key(Mode::Number, &["2"]);
        let sealed = seal("q", "s", &k.encode());
        let reply = respond(&format!("grade\tq\ts\t{sealed}\t2\n"));
        assert!(
            reply.starts_with("outcome\tcorrect\nscore\t1\t1\n"),
            "{reply}"
        );
        assert!(respond(&format!("reveal\tq\ts\t{sealed}")).starts_with("outcome\trevealed\n"));
        assert!(respond("grade\tq").starts_with("error\tmalformed request"));
        assert!(respond("").starts_with("error\t"));
        assert!(
            respond("grade\tq\ts\tAAAA\t1")
                .starts_with("error\tthe question's key does not unseal")
        );
    }
}
