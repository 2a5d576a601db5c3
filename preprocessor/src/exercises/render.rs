//! Question HTML.
//!
//! Each question is one raw-HTML block with no blank line inside (so
//! CommonMark keeps it one block and runs no Markdown in it), carrying
//! `data-dumplab-question`, `data-type`, its content hash and its sealed key.
//! Dumps are the viewer's markup ([`crate::viewer`]).
//! Everything authored is escaped; the page works without JavaScript as a
//! printed worksheet, and `theme/exercises.js` turns it interactive.

use crate::html::escape;
use dumplab::exercise::key::Mode;
use dumplab::exercise::resolve::{Resolved, Snippet};
use std::fmt::Write as _;

/// Escapes `text` and renders `` `code` `` spans as `<code>`.
pub(crate) fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            out.push_str(&escape(part));
        }
    }
    // An odd number of backticks leaves the last one literal: re-render plainly.
    if text.matches('`').count() % 2 == 1 {
        return escape(text);
    }
    out
}

fn type_label(type_name: &str) -> &'static str {
    match type_name {
        "classify" => "Which call?",
        "evidence" => "Find the evidence",
        "count" => "Count",
        "pair" => "Find the pair",
        "choice" => "Multiple choice",
        "backend" => "Which backend?",
        _ => "Question",
    }
}

fn snippet(out: &mut String, s: &Snippet, selectable: bool) {
    out.push_str(&crate::viewer::render(&crate::viewer::Dump {
        text: &s.text,
        language: s.language,
        first_line: s.first_line,
        caption: &s.caption,
        name: None,
        selectable,
    }));
}

/// The HTML of one question.
pub(crate) fn question(q: &Resolved) -> String {
    let mut out = String::new();
    let id = escape(&q.id);
    let _ = writeln!(
        out,
        "<div class=\"dumplab-q\" id=\"q-{id}\" data-dumplab-question=\"{id}\" data-type=\"{}\" data-mode=\"{}\" data-dumplab-hash=\"{}\" data-dumplab-key=\"{}\">",
        q.type_name,
        q.mode.as_str(),
        escape(&q.hash),
        escape(&q.sealed)
    );
    let _ = writeln!(
        out,
        "<p class=\"dumplab-q-type\">{}</p>",
        type_label(q.type_name)
    );
    let _ = writeln!(
        out,
        "<p class=\"dumplab-q-prompt\" id=\"q-{id}-prompt\">{}</p>",
        inline(&q.prompt)
    );
    if let Some(context) = &q.context {
        let _ = writeln!(
            out,
            "<p class=\"dumplab-q-context\">{}</p>",
            inline(context)
        );
    }
    if let Some(instruction) = &q.instruction {
        let _ = writeln!(
            out,
            "<p class=\"dumplab-q-instruction\">{}</p>",
            inline(instruction)
        );
    }
    if let Some(s) = &q.snippet {
        snippet(&mut out, s, q.mode == Mode::Lines);
    }
    if !q.candidates.is_empty() {
        out.push_str("<div class=\"dumplab-candidates\">\n");
        for c in &q.candidates {
            snippet(&mut out, c, false);
        }
        out.push_str("</div>\n");
    }
    match q.mode {
        Mode::Single => {
            let _ = writeln!(
                out,
                "<fieldset class=\"dumplab-options\"><legend>Your answer</legend>"
            );
            for (value, label) in &q.options {
                let value = escape(value);
                let _ = writeln!(
                    out,
                    "<label class=\"dumplab-option\" data-option=\"{value}\"><input type=\"radio\" name=\"dl-{id}\" value=\"{value}\"> <span>{}</span></label>",
                    inline(label)
                );
            }
            out.push_str("</fieldset>\n");
        }
        Mode::Lines => {
            out.push_str("<p class=\"dumplab-hint\">Click lines to select them, or Tab to the dump, move with the arrow keys, Home and End, and press Space; Tab leaves for Check.</p>\n");
        }
        Mode::Number => {
            let _ = writeln!(
                out,
                "<p class=\"dumplab-number\"><label for=\"q-{id}-n\">Your answer</label> <input id=\"q-{id}-n\" type=\"text\" inputmode=\"numeric\" autocomplete=\"off\" size=\"4\"></p>"
            );
        }
    }
    out.push_str("<div class=\"dumplab-actions\"></div>\n");
    out.push_str("<div class=\"dumplab-feedback\" role=\"status\" aria-live=\"polite\"></div>\n");
    out.push_str("</div>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_code_and_escaping() {
        assert_eq!(
            inline("use `a<b>` here"),
            "use <code>a&lt;b&gt;</code> here"
        );
        assert_eq!(inline("odd ` tick <"), "odd ` tick &lt;");
        assert_eq!(inline("\"q\" & 'a'"), "&quot;q&quot; &amp; &#39;a&#39;");
    }
}
