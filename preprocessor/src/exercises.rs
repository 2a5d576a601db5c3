//! Expanding `{{#exercise ...}}` directives into question HTML: TODO(exercises helper).

/// Expands every exercise directive in one chapter's Markdown.
/// Until the exercises land this leaves the chapter as it is.
#[allow(dead_code)]
pub(crate) fn expand_chapter(content: &str) -> String {
    content.to_owned()
}
