//! HTML escaping for everything user-authored that reaches a page.
//!
//! Our output is spliced into Markdown that mdBook parses again, so besides
//! the HTML specials some contexts must also neutralise characters that
//! Markdown or mdBook would act on. One loop serves all three levels.

/// How much a piece of text must be neutralised.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    /// HTML element content and attribute values.
    Html,
    /// Plus `{` and `}`: text inside an HTML block that mdBook's directive
    /// syntax could act on.
    Braces,
    /// Plus every character Markdown's inline parser or a table row could act
    /// on; newlines become spaces. For attribute values and text spliced into
    /// Markdown prose.
    Inline,
}

fn escape_at(s: &str, level: Level) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let replacement = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&#39;",
            '{' if level >= Level::Braces => "&#123;",
            '}' if level >= Level::Braces => "&#125;",
            '|' if level >= Level::Inline => "&#124;",
            '`' if level >= Level::Inline => "&#96;",
            '[' if level >= Level::Inline => "&#91;",
            ']' if level >= Level::Inline => "&#93;",
            '*' if level >= Level::Inline => "&#42;",
            '_' if level >= Level::Inline => "&#95;",
            '~' if level >= Level::Inline => "&#126;",
            '\\' if level >= Level::Inline => "&#92;",
            '$' if level >= Level::Inline => "&#36;",
            '\n' | '\r' | '\t' if level >= Level::Inline => " ",
            c => {
                out.push(c);
                continue;
            }
        };
        out.push_str(replacement);
    }
    out
}

/// Escapes text for HTML element content and attribute values.
pub(crate) fn escape(s: &str) -> String {
    escape_at(s, Level::Html)
}

/// Escapes a text node that mdBook will parse as Markdown again inside an
/// HTML block: HTML specials plus `{` and `}` (mdBook directives).
pub(crate) fn escape_text(s: &str) -> String {
    escape_at(s, Level::Braces)
}

/// Escapes an attribute value or inline text spliced into Markdown prose:
/// HTML specials, mdBook's braces and every character that Markdown's inline
/// parser or a table row could act on. Newlines become spaces.
pub(crate) fn escape_attr(s: &str) -> String {
    escape_at(s, Level::Inline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        let hostile = "<script>\"a\" & 'b'</script> {{#include x}} |*_`[]~\\$\n";
        for (f, expect) in [
            (
                escape as fn(&str) -> String,
                "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt; {{#include x}} |*_`[]~\\$\n",
            ),
            (
                escape_text,
                "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt; &#123;&#123;#include x&#125;&#125; |*_`[]~\\$\n",
            ),
            (
                escape_attr,
                "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt; &#123;&#123;#include x&#125;&#125; &#124;&#42;&#95;&#96;&#91;&#93;&#126;&#92;&#36; ",
            ),
        ] {
            assert_eq!(f(hostile), expect);
        }
    }
}
