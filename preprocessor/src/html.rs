//! HTML escaping for everything user-authored that reaches a page.
//!
//! Our output is spliced into Markdown that mdBook parses again, so besides
//! the HTML specials some contexts must also neutralise characters that
//! Markdown or mdBook would act on. One loop serves all three levels.
//!
//! Two rules hold for everything we generate, whatever it holds:
//! - **no line ending from authored text** (`\n`, `\r` become character
//!   references), so a raw-HTML block never meets a blank line and ends
//!   early, letting the rest be read as Markdown;
//! - **no `{{`** ([`inert`], [`json_for_script`]), so no mdBook directive can
//!   be spelt by course data, even if a preprocessor ran after us.

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
            '\n' if level < Level::Inline => "&#10;",
            '\r' if level < Level::Inline => "&#13;",
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

/// Escapes text for HTML element content and attribute values. Line endings
/// become character references (whitespace to the browser, never a line to
/// Markdown).
pub(crate) fn escape(s: &str) -> String {
    escape_at(s, Level::Html)
}

/// Makes generated HTML unable to spell an mdBook directive: every `{{`
/// becomes `{&#123;`, which a browser shows the same. Apply it to whole
/// generated fragments (tokens escaped one by one can meet as `{` + `{`).
/// Not for the text of `<script>` elements: see [`json_for_script`].
pub(crate) fn inert(html: String) -> String {
    if html.contains("{{") {
        html.replace("{{", "{&#123;")
    } else {
        html
    }
}

/// Makes serialized JSON safe as the text of a `<script>` element: `<`, `>`
/// and `&` as `\u003c`, `\u003e`, `\u0026` (no `</script>`, no comment
/// opener), and no `{{` (no mdBook directive). `{{` can only occur inside a
/// JSON string, where `{\u007b` means the same.
pub(crate) fn json_for_script(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace("{{", "{\\u007b")
}

/// Whether a link target written by an author may become an `href`: an
/// absolute `http`/`https` URL, or a relative one (a path, `#fragment` or
/// `?query` with no scheme and no `//` host). `javascript:`, `data:`,
/// `vbscript:`, protocol-relative `//host` and anything with control
/// characters are refused.
pub(crate) fn safe_href(url: &str) -> bool {
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return false;
    }
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        return true;
    }
    // Browsers read `\` as `/` in URLs: `\\host` would be `//host`.
    if url.starts_with("//") || url.contains('\\') {
        return false;
    }
    // A scheme is letters, digits, `+`, `-`, `.` before the first `:` that
    // comes before any `/`, `?` or `#`.
    let head = url.split(['/', '?', '#']).next().unwrap_or("");
    !head.contains(':')
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
        let hostile = "<script>\"a\" & 'b'</script> {{#include x}} |*_`[]~\\$\r\n";
        for (f, expect) in [
            (
                escape as fn(&str) -> String,
                "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt; {{#include x}} |*_`[]~\\$&#13;&#10;",
            ),
            (
                escape_text,
                "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt; &#123;&#123;#include x&#125;&#125; |*_`[]~\\$&#13;&#10;",
            ),
            (
                escape_attr,
                "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt; &#123;&#123;#include x&#125;&#125; &#124;&#42;&#95;&#96;&#91;&#93;&#126;&#92;&#36;  ",
            ),
        ] {
            assert_eq!(f(hostile), expect);
        }
    }

    #[test]
    fn no_directive_survives() {
        for (input, expect) in [
            ("{{#include x}}", "{&#123;#include x}}"),
            ("{{{#title t}}}", "{&#123;{#title t}}}"),
            ("{{{{", "{&#123;{&#123;"),
            ("{ {", "{ {"),
        ] {
            let out = inert(input.to_owned());
            assert_eq!(out, expect);
            assert!(!out.contains("{{"));
        }
        let json = json_for_script(r#"{"a":"{{#include x}} </script><!-- & >"}"#);
        assert_eq!(
            json,
            r#"{"a":"{\u007b#include x}} \u003c/script\u003e\u003c!-- \u0026 \u003e"}"#
        );
        let back: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back["a"], "{{#include x}} </script><!-- & >");
    }

    #[test]
    fn only_web_and_relative_links() {
        for ok in [
            "https://example.invalid/a?b=1#c",
            "HTTP://example.invalid",
            "xla.md",
            "../fusion.html#kinds",
            "#anchor",
            "?q=1",
            "dir/file:with-colon",
        ] {
            assert!(safe_href(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "data:text/html,<script>",
            "vbscript:x",
            "//evil.invalid/x",
            "\\\\evil\\x",
            "java\tscript:alert(1)",
            " javascript:alert(1)",
            "file:///etc/passwd",
            "mailto:a@b",
        ] {
            assert!(!safe_href(bad), "{bad}");
        }
    }
}
