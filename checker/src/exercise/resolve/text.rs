//! Small pieces of the sentences questions say: full stops, line spans,
//! number words, the region a hint points at.

/// `text` ending in a full stop unless it ends in punctuation already.
pub(super) fn sentence(text: &str) -> String {
    if text.is_empty() || text.ends_with(['.', '!', '?', ':']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// Sorts by line and joins the notes of one line (several markers may sit
/// on it) into one, each note a sentence of its own.
pub(super) fn merge_lines(mut lines: Vec<(usize, String)>) -> Vec<(usize, String)> {
    lines.sort_by_key(|(l, _)| *l);
    let mut out: Vec<(usize, String)> = Vec::new();
    for (line, note) in lines {
        let note = sentence(note.trim());
        match out.last_mut() {
            Some((l, n)) if *l == line => {
                if !n.contains(note.as_str()) {
                    n.push(' ');
                    n.push_str(&note);
                }
            }
            _ => out.push((line, note)),
        }
    }
    out
}

/// The region around `line` to point a hint at: the paragraph (run of
/// non-blank lines) holding it inside `range`, widened to four lines when
/// shorter and cut to eight either side when longer.
pub(super) fn region(text: &str, line: usize, range: (usize, usize)) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let blank = |n: usize| lines.get(n - 1).is_none_or(|l| l.trim().is_empty());
    let (mut first, mut last) = (line, line);
    while first > range.0 && !blank(first - 1) && line - first < 8 {
        first -= 1;
    }
    while last < range.1 && !blank(last + 1) && last - line < 8 {
        last += 1;
    }
    // At least four lines, so that the region never points at one line.
    while last - first < 3 {
        if last < range.1 {
            last += 1;
        } else if first > range.0 {
            first -= 1;
        } else {
            break;
        }
    }
    (first, last)
}

/// "line 3" or "lines 3–7".
pub(super) fn span_words(first: usize, last: usize) -> String {
    if first == last {
        format!("line {first}")
    } else {
        format!("lines {first}\u{2013}{last}")
    }
}

/// Small counts in words ("two"), larger ones in digits.
pub(super) fn number_words(n: usize) -> String {
    match n {
        1 => "one".to_owned(),
        2 => "two".to_owned(),
        3 => "three".to_owned(),
        4 => "four".to_owned(),
        n => n.to_string(),
    }
}
