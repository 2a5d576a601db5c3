//! Answer keys and the tiny line format that carries them (and verdicts)
//! between the build, the page and the wasm checker.
//!
//! The wasm build has no serde, so keys travel as records: one per line,
//! fields separated by tabs, with `\\`, `\t` and `\n` escaped. It is small to
//! parse in Rust and in the page's JavaScript alike.

/// How an answer is given, and so how it is graded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Pick one option by id (`classify`, `backend`, `pair`, `choice`).
    Single,
    /// Select a set of lines by number (`evidence`).
    Lines,
    /// Type a whole number (`count`).
    Number,
}

impl Mode {
    /// The spelling in the record format.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Single => "single",
            Mode::Lines => "lines",
            Mode::Number => "number",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        [Mode::Single, Mode::Lines, Mode::Number]
            .into_iter()
            .find(|m| m.as_str() == name)
    }
}

/// A question's answer key, with everything the feedback needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// How the answer is given.
    pub mode: Mode,
    /// The right answer: one option id, the line numbers, or one number.
    pub answer: Vec<String>,
    /// The right answer as a learner reads it ("Compiled HLO", "3").
    pub answer_text: String,
    /// For [`Mode::Single`]: option id → why it is right or wrong.
    pub options: Vec<(String, String)>,
    /// Lines of the shown snippet that prove the answer, with their notes;
    /// they light up once the question is answered right or revealed.
    pub lines: Vec<(usize, String)>,
    /// The explanation shown once the question is answered right or revealed.
    pub explanation: String,
    /// For [`Mode::Lines`]: how many of the right lines make a right answer
    /// (all of them for an inventory such as "every fusion").
    pub need: usize,
    /// For [`Mode::Number`]: a wrong count a learner is likely to give, and
    /// what it missed ("that is the fusions alone; the copy counts too").
    pub miscounts: Vec<(String, String)>,
    /// Where to look after a wrong answer: first and last line of a region
    /// of the shown dump, and a sentence that points there without giving
    /// the answer away. For [`Mode::Lines`], one per right line's region.
    pub hints: Vec<Hint>,
}

/// A region of the shown dump to look at again, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// First line of the region (a dump line number).
    pub first: usize,
    /// Last line of the region, included.
    pub last: usize,
    /// What to look for there.
    pub text: String,
}

/// Escapes one field of a record.
pub fn escape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    for c in field.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// Undoes [`escape`]; unknown escapes keep the character after the backslash.
pub fn unescape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes one record (a line) of escaped fields.
pub fn push_record(out: &mut String, fields: &[&str]) {
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push('\t');
        }
        out.push_str(&escape(f));
    }
    out.push('\n');
}

/// Splits text into records of unescaped fields; blank lines are skipped.
pub fn records(text: &str) -> impl Iterator<Item = Vec<String>> + '_ {
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').map(unescape).collect())
}

impl Key {
    /// The record form that gets sealed into the page.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        push_record(&mut out, &["mode", self.mode.as_str()]);
        for a in &self.answer {
            push_record(&mut out, &["answer", a]);
        }
        push_record(&mut out, &["answer-text", &self.answer_text]);
        for (id, why) in &self.options {
            push_record(&mut out, &["option", id, why]);
        }
        for (line, note) in &self.lines {
            push_record(&mut out, &["line", &line.to_string(), note]);
        }
        push_record(&mut out, &["explain", &self.explanation]);
        if self.mode == Mode::Lines {
            push_record(&mut out, &["need", &self.need.to_string()]);
        }
        for (n, why) in &self.miscounts {
            push_record(&mut out, &["miscount", n, why]);
        }
        for h in &self.hints {
            push_record(
                &mut out,
                &["hint", &h.first.to_string(), &h.last.to_string(), &h.text],
            );
        }
        out
    }

    /// Parses [`Key::encode`]'s output; `None` on anything else.
    pub fn decode(text: &str) -> Option<Key> {
        let mut key = Key {
            mode: Mode::Single,
            answer: Vec::new(),
            answer_text: String::new(),
            options: Vec::new(),
            lines: Vec::new(),
            explanation: String::new(),
            need: 0,
            miscounts: Vec::new(),
            hints: Vec::new(),
        };
        let mut has_mode = false;
        for rec in records(text) {
            match rec.as_slice() {
                [tag, mode] if tag == "mode" => {
                    key.mode = Mode::from_name(mode)?;
                    has_mode = true;
                }
                [tag, a] if tag == "answer" => key.answer.push(a.clone()),
                [tag, t] if tag == "answer-text" => key.answer_text = t.clone(),
                [tag, id, why] if tag == "option" => key.options.push((id.clone(), why.clone())),
                [tag, line, note] if tag == "line" => {
                    key.lines.push((line.parse().ok()?, note.clone()))
                }
                [tag, e] if tag == "explain" => key.explanation = e.clone(),
                [tag, n] if tag == "need" => key.need = n.parse().ok()?,
                [tag, n, why] if tag == "miscount" => key.miscounts.push((n.clone(), why.clone())),
                [tag, first, last, text] if tag == "hint" => key.hints.push(Hint {
                    first: first.parse().ok()?,
                    last: last.parse().ok()?,
                    text: text.clone(),
                }),
                _ => return None,
            }
        }
        (has_mode && !key.answer.is_empty()).then_some(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_round_trip() {
        for s in [
            "",
            "plain",
            "tab\there",
            "new\nline",
            "back\\slash\\t",
            "cr\r",
        ] {
            assert_eq!(unescape(&escape(s)), s);
            assert!(!escape(s).contains(['\t', '\n']));
        }
    }

    #[test]
    fn key_round_trips() {
        let key = Key {
            mode: Mode::Lines,
            answer: vec!["3".into(), "7".into()],
            answer_text: "lines 3 and 7".into(),
            options: vec![("a".into(), "why\tnot".into())],
            lines: vec![(3, "is_scheduled=true\nmeans compiled".into())],
            explanation: "<script>".into(),
            need: 1,
            miscounts: vec![("2".into(), "you\tmissed one".into())],
            hints: vec![Hint {
                first: 2,
                last: 4,
                text: "look here".into(),
            }],
        };
        assert_eq!(Key::decode(&key.encode()), Some(key));
        assert_eq!(Key::decode("mode\tsingle\n"), None, "no answer");
        assert_eq!(Key::decode("mode\tbogus\nanswer\tx\n"), None);
        assert_eq!(Key::decode("garbage"), None);
    }
}
