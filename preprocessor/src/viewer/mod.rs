//! The dump viewer: one markup for every dump on a page, in questions and in
//! the prose alike (and built the same way by `src/dumplab-playground.js` for a
//! pasted dump).
//!
//! ```text
//! <figure class="dumplab-dump dl-viewer" data-lang="hlo">
//!   <figcaption>Dump A</figcaption>
//!   <pre class="dumplab-code" data-lang="hlo" style="--dl-digits:3"
//!        tabindex="0" role="region" aria-label="Dump A">
//!     <span class="dl-line" data-line="12"><span class="dl-ln" aria-hidden="true"> 12</span><span class="dl-src">…</span>\n</span>
//!     <details class="dl-fold"><summary>9 lines of source-location tables</summary> lines… </details>
//!   </pre>
//! </figure>
//! ```
//!
//! Lines are highlighted at build time by syntect ([`highlight`]); runs of
//! source-location tables are folded behind a native `<details>`
//! ([`folds`]) while every line keeps its dump line number. A dump whose
//! lines are answers (`selectable`) is no region: `theme/exercises.js`
//! makes it a listbox, which may hold only options, so it has no folds. The box's behaviour (wrap toggle, marked lines
//! brought into view) is `theme/viewer.js`, its look `theme/viewer.css`.
//! No `<code>` element and no `language-*` class: mdBook's highlight.js
//! leaves the box alone.

pub(crate) mod folds;
pub(crate) mod highlight;
mod hlo_line;
pub(crate) mod prose;

use crate::html::escape;
use dumplab::exercise::resolve::Language;
use std::fmt::Write as _;

/// One dump to show.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dump<'a> {
    /// The lines, verbatim.
    pub(crate) text: &'a str,
    /// Its grammar.
    pub(crate) language: Language,
    /// The dump line number of the first line.
    pub(crate) first_line: usize,
    /// Shown above the box; also the box's accessible name unless `name`.
    pub(crate) caption: &'a str,
    /// The box's accessible name, when the caption alone is not unique.
    pub(crate) name: Option<&'a str>,
    /// The lines are answers to pick (a listbox, set up by exercises.js).
    pub(crate) selectable: bool,
}

/// The `data-lang` spelling of a grammar.
pub(crate) fn lang_name(language: Language) -> &'static str {
    match language {
        Language::Hlo => "hlo",
        Language::Mlir => "mlir",
        Language::Jaxpr => "jaxpr",
    }
}

/// The summary of a fold of `n` lines.
fn fold_summary(n: usize) -> String {
    format!("{n} lines of source-location tables")
}

/// A line that stands for lines left out of an excerpt (`...`, `…`).
fn is_elision(line: &str) -> bool {
    matches!(line.trim(), "..." | "\u{2026}")
}

/// The viewer's HTML for `dump`: generated markup, every dump character
/// escaped. One HTML block with no blank line inside; the caller makes it
/// inert ([`crate::html::inert`]) with the rest of its output.
pub(crate) fn render(dump: &Dump<'_>) -> String {
    let lang = lang_name(dump.language);
    let caption = escape(dump.caption);
    let mut out = format!(
        "<figure class=\"dumplab-dump dl-viewer\" data-lang=\"{lang}\"><figcaption>{caption}</figcaption>"
    );
    let lines: Vec<&str> = dump.text.lines().collect();
    // A trimmed excerpt (a prose block with `...` lines) is not numbered:
    // its lines are not the dump's, and numbering the elisions would say
    // they were. Its `...` lines are marked as gaps.
    let trimmed = lines.iter().any(|l| is_elision(l));
    let last = dump.first_line + lines.len().saturating_sub(1);
    let digits = if trimmed { 0 } else { last.to_string().len() };
    // A dump to pick lines from becomes a listbox (its lines take focus);
    // any other is a named region that a keyboard can focus to scroll.
    let role = if dump.selectable {
        " data-selectable=\"true\"".to_owned()
    } else {
        let name = dump.name.map_or_else(|| caption.clone(), escape);
        format!(" tabindex=\"0\" role=\"region\" aria-label=\"{name}\"")
    };
    let _ = write!(
        out,
        "<pre class=\"dumplab-code\" data-lang=\"{lang}\" style=\"--dl-digits:{digits}\"{role}>"
    );
    let html = highlight::highlight_lines(dump.text, dump.language);
    // A listbox (lines to pick) holds only options: no `<summary>` in it,
    // so a dump whose lines are answers shows its tables unfolded.
    let folds = if dump.selectable {
        Vec::new()
    } else {
        folds::folds(&lines)
    };
    let mut next_fold = folds.iter().peekable();
    for (i, line_html) in html.iter().enumerate() {
        if let Some(f) = next_fold.peek()
            && f.start == i
        {
            let _ = write!(
                out,
                "<details class=\"dl-fold\"><summary>{}</summary>",
                fold_summary(f.len())
            );
        }
        let n = dump.first_line + i;
        let gap = if lines.get(i).is_some_and(|l| is_elision(l)) {
            " dl-gap"
        } else {
            ""
        };
        let shown = if trimmed {
            String::new()
        } else {
            format!("{n:>digits$}")
        };
        // Lines are blocks in CSS; the newline inside each keeps copy-paste
        // and CSS-less rendering whole without adding a blank line.
        let _ = write!(
            out,
            "<span class=\"dl-line{gap}\" data-line=\"{n}\"><span class=\"dl-ln\" aria-hidden=\"true\">{shown}</span><span class=\"dl-src\">{line_html}</span>\n</span>"
        );
        if next_fold.peek().is_some_and(|f| f.end == i + 1) {
            out.push_str("</details>");
            next_fold.next();
        }
    }
    out.push_str("</pre></figure>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dump(text: &str, first_line: usize, selectable: bool) -> String {
        render(&Dump {
            text,
            language: Language::Hlo,
            first_line,
            caption: "Dump <A>",
            name: None,
            selectable,
        })
    }

    #[test]
    fn a_trimmed_excerpt_is_not_numbered_and_marks_its_gaps() {
        let html = dump(
            "%a = f32[] parameter(0)\n  ...\nROOT %b = f32[] negate(%a)",
            1,
            false,
        );
        assert!(html.contains("--dl-digits:0"), "{html}");
        assert_eq!(
            html.matches("<span class=\"dl-ln\" aria-hidden=\"true\"></span>")
                .count(),
            3,
            "{html}"
        );
        assert_eq!(html.matches("dl-line dl-gap").count(), 1, "{html}");
        // An excerpt without elisions keeps the dump's numbers.
        let html = dump("%a = f32[] parameter(0)", 7, false);
        assert!(html.contains(">7</span>"), "{html}");
    }

    #[test]
    fn lines_are_numbered_and_padded_to_the_widest() {
        let html = dump("a\nb", 99, false);
        assert!(html.contains("style=\"--dl-digits:3\""), "{html}");
        assert!(
            html.contains("data-line=\"99\"><span class=\"dl-ln\" aria-hidden=\"true\"> 99</span>"),
            "{html}"
        );
        assert!(
            html.contains(
                "data-line=\"100\"><span class=\"dl-ln\" aria-hidden=\"true\">100</span>"
            ),
            "{html}"
        );
        assert!(
            html.contains("tabindex=\"0\" role=\"region\" aria-label=\"Dump &lt;A&gt;\""),
            "{html}"
        );
        assert!(!html.contains("\n\n") && !html.contains("<code"), "{html}");
    }

    #[test]
    fn a_selectable_dump_is_no_region_and_has_no_folds() {
        let html = dump("FileNames\n1 \"a\"\n2 \"b\"", 1, true);
        assert!(html.contains(" data-selectable=\"true\">"), "{html}");
        assert!(!html.contains("role=\"region\""), "{html}");
        assert!(!html.contains("<details"), "{html}");
    }

    #[test]
    fn tables_fold_and_keep_their_line_numbers() {
        let html = dump("HloModule m\nFileNames\n1 \"a\"\n2 \"b\"\n%x {", 1, false);
        let open = html.find("<details class=\"dl-fold\"><summary>3 lines of source-location tables</summary><span class=\"dl-line\" data-line=\"2\">").expect(&html);
        let close = html
            .find("</details><span class=\"dl-line\" data-line=\"5\">")
            .expect(&html);
        assert!(open < close);
        assert_eq!(html.matches("class=\"dl-line\"").count(), 5);
    }
}
