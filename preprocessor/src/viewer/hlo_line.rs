//! The HLO grammar (`preprocessor/syntaxes/hlo.sublime-syntax`) read by
//! hand, for lines of ASCII text: the colour role of every byte of one line,
//! equal to what syntect gives with that grammar, in a few passes over the
//! line instead of a regex search per pattern and position.
//!
//! Syntect takes, from the current position, the match that starts first
//! among the context's patterns, the earlier pattern on a tie; so does
//! [`roles`], trying each pattern anchored at each position in turn. Each
//! row of [`MAIN`] is one pattern of the grammar's `main` context, in the
//! grammar's order; the `string` context is [`string`]. A word boundary
//! is ASCII here, which is Unicode's on ASCII text: non-ASCII lines go to
//! syntect ([`super::highlight`]). `highlight::tests` proves the two equal on
//! every line of every dump in the course and the drift corpus.

/// A colour role: the class of [`super::highlight`]'s spans, or none.
pub(crate) type Role = Option<&'static str>;

/// One pattern of the grammar's `main` context: its scope's role and an
/// anchored matcher (`line`, position) → (end of the match, end of the part
/// that takes the role: a capture group, or the whole match).
type Pattern = (Role, fn(&[u8], usize) -> Option<(usize, usize)>);

/// The `main` context's patterns, in the grammar's order. The third, the
/// string's opening quote, pushes the `string` context ([`string`]).
const MAIN: [Pattern; 11] = [
    (Some("dl-hc"), comment),
    (Some("dl-hk"), keyword),
    (Some(STRING), string_start),
    (None, variable),
    (Some("dl-ht"), element_type),
    (Some("dl-hl"), layout),
    (Some("dl-hn"), fusion_kind),
    (Some("dl-hn"), boolean),
    (Some("dl-hf"), opcode),
    (Some("dl-ha"), attribute),
    (Some("dl-hn"), number),
];

/// The role of a string's quotes and text (`string.quoted.double.hlo`).
const STRING: &str = "dl-hs";

/// The role of each byte run of an ASCII `line`: consecutive
/// `(start, end, role)` covering the line, or `None` when the line is not
/// ASCII.
pub(crate) fn roles(line: &str) -> Option<Vec<(usize, usize, Role)>> {
    if !line.is_ascii() {
        return None;
    }
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut plain_from = 0;
    let mut at = 0;
    while at < b.len() {
        let Some((i, end, role_end)) = MAIN
            .iter()
            .enumerate()
            .find_map(|(i, (_, pattern))| pattern(b, at).map(|(e, r)| (i, e, r)))
        else {
            at += 1;
            continue;
        };
        if plain_from < at {
            out.push((plain_from, at, None));
        }
        if i == 2 {
            at = string(b, at, &mut out);
        } else {
            out.push((at, role_end, MAIN[i].0));
            if role_end < end {
                out.push((role_end, end, None));
            }
            at = end;
        }
        plain_from = at;
    }
    if plain_from < b.len() {
        out.push((plain_from, b.len(), None));
    }
    Some(out)
}

/// A string from its opening quote at `quote`: the `string` context's
/// `\\.` escapes (`constant.character.escape`: `dl-hn`), its closing
/// quote, or the line's end (`$`), which closes it. Pushes its runs; returns
/// where it ends.
fn string(b: &[u8], quote: usize, out: &mut Vec<(usize, usize, Role)>) -> usize {
    let mut run = quote;
    let mut at = quote + 1;
    while at < b.len() {
        match b[at] {
            // `.` takes any character but the line feed after the line.
            b'\\' if at + 1 < b.len() => {
                if run < at {
                    out.push((run, at, Some(STRING)));
                }
                out.push((at, at + 2, Some("dl-hn")));
                at += 2;
                run = at;
            }
            b'"' => {
                at += 1;
                break;
            }
            _ => at += 1,
        }
    }
    if run < at {
        out.push((run, at, Some(STRING)));
    }
    at
}

fn is_word(b: &[u8], at: usize) -> bool {
    b.get(at)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// `\b` at `at`: a word character on one side only.
fn boundary(b: &[u8], at: usize) -> bool {
    let before = at > 0 && is_word(b, at - 1);
    before != is_word(b, at)
}

/// The end of the run of bytes from `at` that `class` accepts.
fn run_of(b: &[u8], mut at: usize, class: fn(u8) -> bool) -> usize {
    while b.get(at).is_some_and(|c| class(*c)) {
        at += 1;
    }
    at
}

/// `//.*$`
fn comment(b: &[u8], at: usize) -> Option<(usize, usize)> {
    b[at..].starts_with(b"//").then_some((b.len(), b.len()))
}

/// `\b(HloModule|ENTRY|ROOT|FileNames|FunctionNames|FileLocations|StackFrames)\b`
fn keyword(b: &[u8], at: usize) -> Option<(usize, usize)> {
    const WORDS: [&[u8]; 7] = [
        b"HloModule",
        b"ENTRY",
        b"ROOT",
        b"FileNames",
        b"FunctionNames",
        b"FileLocations",
        b"StackFrames",
    ];
    if !boundary(b, at) {
        return None;
    }
    whole_word(b, at, &WORDS)
}

/// The first of `words` at `at` that ends at a `\b` (the caller checked the
/// one before it): the end of the match, twice.
fn whole_word(b: &[u8], at: usize, words: &[&[u8]]) -> Option<(usize, usize)> {
    let w = words
        .iter()
        .find(|w| b[at..].starts_with(w) && boundary(b, at + w.len()))?;
    Some((at + w.len(), at + w.len()))
}

/// `"` (pushes the string context)
fn string_start(b: &[u8], at: usize) -> Option<(usize, usize)> {
    (b[at] == b'"').then_some((at + 1, at + 1))
}

/// `%[A-Za-z0-9_.\-]+`
fn variable(b: &[u8], at: usize) -> Option<(usize, usize)> {
    if b[at] != b'%' {
        return None;
    }
    let end = run_of(b, at + 1, |c| {
        c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-')
    });
    (end > at + 1).then_some((end, end))
}

/// `\b(pred|token|bf16|f8e[0-9a-z]+|[suf](?:4|8|16|32|64)|c64|c128)\[`,
/// group 1 scoped.
fn element_type(b: &[u8], at: usize) -> Option<(usize, usize)> {
    if !boundary(b, at) {
        return None;
    }
    let rest = &b[at..];
    let mut ends: Vec<usize> = Vec::new();
    for w in [&b"pred"[..], b"token", b"bf16"] {
        if rest.starts_with(w) {
            ends.push(at + w.len());
        }
    }
    if rest.starts_with(b"f8e") {
        let end = run_of(b, at + 3, |c| c.is_ascii_digit() || c.is_ascii_lowercase());
        if end > at + 3 {
            ends.push(end);
        }
    }
    if matches!(rest.first(), Some(b's' | b'u' | b'f')) {
        for w in [&b"4"[..], b"8", b"16", b"32", b"64"] {
            if rest[1..].starts_with(w) {
                ends.push(at + 1 + w.len());
            }
        }
    }
    for w in [&b"c64"[..], b"c128"] {
        if rest.starts_with(w) {
            ends.push(at + w.len());
        }
    }
    let end = ends.into_iter().find(|&e| b.get(e) == Some(&b'['))?;
    Some((end + 1, end))
}

/// `\{[0-9,]*(?::[^{}]*(?:\{[^{}]*\}[^{}]*)*)?\}`
fn layout(b: &[u8], at: usize) -> Option<(usize, usize)> {
    if b[at] != b'{' {
        return None;
    }
    let not_brace = |c: u8| c != b'{' && c != b'}';
    let mut i = run_of(b, at + 1, |c| c.is_ascii_digit() || c == b',');
    if b.get(i) == Some(&b':') {
        // `[^{}]*` then `{...}` groups of no braces, then the closing `}`;
        // a nested or unclosed brace fails the group and so the match.
        i = run_of(b, i + 1, not_brace);
        while b.get(i) == Some(&b'{') {
            let inner = run_of(b, i + 1, not_brace);
            if b.get(inner) != Some(&b'}') {
                return None;
            }
            i = run_of(b, inner + 1, not_brace);
        }
    }
    (b.get(i) == Some(&b'}')).then_some((i + 1, i + 1))
}

/// `\bk[A-Z][A-Za-z]+\b`
fn fusion_kind(b: &[u8], at: usize) -> Option<(usize, usize)> {
    if !boundary(b, at) || b[at] != b'k' || !b.get(at + 1).is_some_and(u8::is_ascii_uppercase) {
        return None;
    }
    let end = run_of(b, at + 2, |c| c.is_ascii_alphabetic());
    (end > at + 2 && boundary(b, end)).then_some((end, end))
}

/// `\b(true|false)\b`
fn boolean(b: &[u8], at: usize) -> Option<(usize, usize)> {
    if !boundary(b, at) {
        return None;
    }
    whole_word(b, at, &[b"true", b"false"])
}

/// `\b([a-z][a-z0-9_\-]*)\(`, group 1 scoped.
fn opcode(b: &[u8], at: usize) -> Option<(usize, usize)> {
    if !boundary(b, at) || !b[at].is_ascii_lowercase() {
        return None;
    }
    let end = run_of(b, at + 1, |c| {
        c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'-'
    });
    (b.get(end) == Some(&b'(')).then_some((end + 1, end))
}

/// `\b([a-z_][a-z0-9_]*)=`, group 1 scoped.
fn attribute(b: &[u8], at: usize) -> Option<(usize, usize)> {
    if !boundary(b, at) || !(b[at].is_ascii_lowercase() || b[at] == b'_') {
        return None;
    }
    let end = run_of(b, at + 1, |c| {
        c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_'
    });
    (b.get(end) == Some(&b'=')).then_some((end + 1, end))
}

/// `-?\b[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?\b`: the ends the regex tries,
/// in its order (greedy parts first), the first followed by a boundary.
fn number(b: &[u8], at: usize) -> Option<(usize, usize)> {
    let start = if b[at] == b'-' { at + 1 } else { at };
    if !boundary(b, start) || !b.get(start).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let digits = |from: usize| {
        let end = run_of(b, from, |c| c.is_ascii_digit());
        (end > from).then_some(end)
    };
    let exponent = |from: usize| {
        if b.get(from) != Some(&b'e') {
            return None;
        }
        let sign = usize::from(matches!(b.get(from + 1), Some(b'+' | b'-')));
        digits(from + 1 + sign)
    };
    let whole_part = digits(start)?;
    let fraction = (b.get(whole_part) == Some(&b'.'))
        .then(|| digits(whole_part + 1))
        .flatten();
    let mut ends = Vec::with_capacity(4);
    if let Some(f) = fraction {
        ends.extend(exponent(f));
        ends.push(f);
    }
    ends.extend(exponent(whole_part));
    ends.push(whole_part);
    ends.into_iter().find(|&e| boundary(b, e)).map(|e| (e, e))
}
