//! Glossary tooltips: TODO(glossary helper).
