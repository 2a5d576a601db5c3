//! Source-location tables, found so the viewer can fold them.
//!
//! Compiled HLO dumps open with `FileNames`, `FunctionNames`,
//! `FileLocations` and `StackFrames` tables (a header line, rows, a blank
//! line); StableHLO carries `#loc` alias lines. Both matter to a source map
//! and to nobody reading the program, so the viewer folds each run of them
//! behind one summary line. Line numbers stay those of the dump.

use std::ops::Range;

/// Runs shorter than this stay open: folding one line hides more than it saves.
const MIN_FOLD: usize = 3;

/// The headers of the source-location tables of a compiled HLO dump.
const TABLES: [&str; 4] = ["FileNames", "FunctionNames", "FileLocations", "StackFrames"];

/// What kind of line `line` is, for folding.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A table header (`FileNames`) or a `#loc` alias line.
    Opens,
    /// A row of an open table, or a blank line between tables.
    Inside,
    /// Anything else: ends a run.
    Other,
}

fn kind(line: &str, in_table: bool) -> Kind {
    let t = line.trim_end();
    if TABLES.contains(&t) || t.starts_with("#loc") {
        Kind::Opens
    } else if in_table && (t.is_empty() || t.starts_with(|c: char| c.is_ascii_digit())) {
        Kind::Inside
    } else {
        Kind::Other
    }
}

/// The runs of source-location lines in `lines` (0-based, end exclusive),
/// each at least [`MIN_FOLD`] lines long, without trailing blank lines.
pub(crate) fn folds(lines: &[&str]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut run: Option<Range<usize>> = None;
    for (i, line) in lines.iter().enumerate() {
        let k = kind(line, run.is_some());
        match (k, &mut run) {
            (Kind::Opens | Kind::Inside, Some(r)) => r.end = i + 1,
            (Kind::Opens, None) => run = Some(i..i + 1),
            (Kind::Inside | Kind::Other, _) => {
                if let Some(r) = run.take() {
                    push(&mut out, r, lines);
                }
            }
        }
    }
    if let Some(r) = run {
        push(&mut out, r, lines);
    }
    out
}

fn push(out: &mut Vec<Range<usize>>, mut r: Range<usize>, lines: &[&str]) {
    while r.end > r.start && lines[r.end - 1].trim().is_empty() {
        r.end -= 1;
    }
    if r.len() >= MIN_FOLD {
        out.push(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expect: &[Range<usize>]) {
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(folds(&lines), expect, "{text}");
    }

    #[test]
    // One fold per case is the common case: `&[2..10]` is a list of one range.
    #[allow(clippy::single_range_in_vec_init)]
    fn table_runs_and_loc_lines() {
        let compiled = "HloModule m\n\nFileNames\n1 \"f.py\"\n\nFunctionNames\n1 \"fn\"\n\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n\n\n%c {\n}\n";
        let cases: &[(&str, &[Range<usize>])] = &[
            (compiled, &[2..10]),
            // One table of one row is folded too: three lines.
            ("FileNames\n1 \"a\"\n2 \"b\"\nENTRY %e {\n", &[0..3]),
            // Too short to fold.
            ("#loc1 = loc(\"x\")\nmodule {\n", &[]),
            (
                "#loc1 = loc(\"x\")\nmodule {\n}\n#loc = loc(unknown)\n#loc2 = loc(\"f.py\":1:2)\n#loc3 = loc(\"g\"(#loc2))\n",
                &[3..6],
            ),
            // A digit line outside any table is code, not a row.
            ("1 \"a\"\n2 \"b\"\n3 \"c\"\n", &[]),
            // A table at the very end, with trailing blank lines.
            ("x\nFileNames\n1 \"a\"\n2 \"b\"\n\n\n", &[1..4]),
        ];
        for (text, expect) in cases {
            check(text, expect);
        }
    }
}
