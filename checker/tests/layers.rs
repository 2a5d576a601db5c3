//! Dependencies run one way: the `use`s (and `crate::`/`super::` paths)
//! between the files of `checker/src` and `preprocessor/src` form no circle.
//! A module is a file; an inline `#[cfg(test)] mod` counts as its file.
//!
//! The reader is deliberately small (comments and strings blanked, use
//! trees expanded, each path resolved to the longest module prefix), enough
//! for this codebase's style: paths start with `crate::`, `super::`,
//! `self::` or a child module's name.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Circles known to exist while work that removes them is under way: each
/// must still exist (delete the row when it is gone), every other circle
/// fails. Empty: the code has none.
const KNOWN: &[&[&str]] = &[];

type Module = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file under `src` (`analysis/mod.rs` → `analysis`).
fn module_of(rel: &Path) -> Module {
    let mut parts: Module = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
    {
        parts.pop();
    }
    parts
}

/// The text with comments and string literals blanked.
fn code_only(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'"' && (i == 0 || b[i - 1] != b'\'') {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            let c = s[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Inline `#[cfg(test)] mod name { ... }` bodies get `super::` read as
/// `self::` (their parent is this file).
fn inline_tests_as_self(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("#[cfg(test)]") {
        let (before, after) = rest.split_at(at);
        out.push_str(before);
        let Some(open) = after.find('{').filter(|&o| after[..o].contains("mod ")) else {
            out.push_str(after);
            return out;
        };
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after.char_indices().skip_while(|&(i, _)| i < open) {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push_str(&after[..end].replace("super::", "self::"));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Every path a `use` tree names: `a::{b, c::d}` → `a::b`, `a::c::d`.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{') {
        let inner = inner.strip_suffix('}').unwrap_or(inner);
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(prefix, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(prefix, &inner[start..], out);
    } else if let Some((head, rest)) = tree.split_once("::").filter(|(h, _)| !h.contains('{')) {
        expand(&format!("{prefix}{}::", head.trim()), rest, out);
    } else if !tree.is_empty() {
        let name = tree.split(" as ").next().unwrap().trim();
        out.push(format!("{prefix}{name}"));
    }
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths file `s` (module `me`) names: its `use` trees, and every
/// `crate::`/`super::`/`self::`/`child::` path in its code.
fn paths(s: &str, me: &Module, modules: &BTreeSet<Module>) -> Vec<Vec<String>> {
    let mut raw = Vec::new();
    let mut rest = s;
    while let Some(at) = rest.find("use ") {
        let ok = rest[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        rest = &rest[at + 4..];
        if ok {
            if let Some(end) = rest.find(';') {
                expand("", &rest[..end].replace('\n', " "), &mut raw);
            }
        }
    }
    for w in s.split(|c: char| !is_ident(c) && c != ':') {
        // `a::{b, c}` outside a `use` is read by the use-tree reader above
        // when it is in one; a bare `a::` before a brace names nothing.
        if w.contains("::") && !w.starts_with(':') && !w.ends_with("::") {
            raw.push(w.to_owned());
        }
    }
    let mut out = Vec::new();
    for p in raw {
        let parts: Vec<String> = p.split("::").map(str::to_owned).collect();
        let Some(first) = parts.first() else { continue };
        let mut base: Module = match first.as_str() {
            "crate" => Vec::new(),
            "self" | "super" => me.clone(),
            _ => {
                let mut child = me.clone();
                child.push(first.clone());
                if !modules.contains(&child) {
                    continue;
                }
                me.clone()
            }
        };
        let mut rest: &[String] = &parts;
        if first == "crate" || first == "self" {
            rest = &parts[1..];
        }
        while rest.first().is_some_and(|p| p == "super") {
            base.pop();
            rest = &rest[1..];
        }
        base.extend(rest.iter().cloned());
        out.push(base);
    }
    out
}

/// The module graph of one crate's `src/`: file → files it uses.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let by_module: BTreeMap<Module, String> = files
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(src).unwrap();
            (module_of(rel), rel.to_string_lossy().replace('\\', "/"))
        })
        .collect();
    let modules: BTreeSet<Module> = by_module.keys().cloned().collect();
    let mut g = BTreeMap::new();
    for (me, name) in &by_module {
        let text = std::fs::read_to_string(src.join(name)).unwrap();
        let code = inline_tests_as_self(&code_only(&text));
        let deps: &mut BTreeSet<String> = g.entry(name.clone()).or_default();
        for path in paths(&code, me, &modules) {
            let target = (0..=path.len())
                .rev()
                .map(|k| path[..k].to_vec())
                .find(|m| modules.contains(m));
            if let Some(t) = target.filter(|t| t != me) {
                deps.insert(by_module[&t].clone());
            }
        }
    }
    g
}

/// The circles of `g`: strongly connected parts of more than one file.
fn circles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Reachability per node (the graphs are small).
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for d in g.get(&n).into_iter().flatten() {
                if seen.insert(d.clone()) {
                    stack.push(d.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = g.keys().map(|k| (k, reach(k))).collect();
    let mut out: BTreeSet<Vec<String>> = BTreeSet::new();
    for (a, ra) in &reaches {
        let mut part: Vec<String> = ra
            .iter()
            .filter(|b| *b != *a && reaches.get(b).is_some_and(|rb| rb.contains(*a)))
            .cloned()
            .collect();
        if !part.is_empty() {
            part.push((*a).clone());
            part.sort();
            out.insert(part);
        }
    }
    out.into_iter().collect()
}

#[test]
fn no_import_circle_in_either_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for krate in ["checker/src", "preprocessor/src"] {
        let g = graph(&root.join(krate));
        assert!(g.len() > 10, "{krate}: {} files", g.len());
        found.extend(circles(&g));
    }
    let known: Vec<Vec<String>> = KNOWN
        .iter()
        .map(|c| c.iter().map(|s| (*s).to_owned()).collect())
        .collect();
    let new: Vec<&Vec<String>> = found.iter().filter(|c| !known.contains(c)).collect();
    assert!(new.is_empty(), "import circles: {new:#?}");
    let gone: Vec<&Vec<String>> = known.iter().filter(|c| !found.contains(c)).collect();
    assert!(gone.is_empty(), "gone, delete from KNOWN: {gone:#?}");
}

#[test]
fn the_reader_sees_a_circle() {
    let dir = std::env::temp_dir().join(format!("dumplab-layers-{}", std::process::id()));
    let a = dir.join("a");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(
        a.join("mod.rs"),
        "//! use crate::b;\nuse crate::b::{x, y::z};\nmod c;\nmod d;\n",
    )
    .unwrap();
    std::fs::write(
        a.join("c.rs"),
        "use super::{d};\nfn f() { super::super::b::g() }\n",
    )
    .unwrap();
    std::fs::write(a.join("d.rs"), "").unwrap();
    std::fs::write(
        dir.join("b.rs"),
        "fn g() { crate::a::c::f() }\n#[cfg(test)]\nmod tests { use super::g; }\n",
    )
    .unwrap();
    let g = graph(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        g["a/mod.rs"].iter().collect::<Vec<_>>(),
        [&"b.rs".to_owned()]
    );
    // `use super::{d}` is a/d.rs, not a/mod.rs.
    assert_eq!(
        g["a/c.rs"].iter().collect::<Vec<_>>(),
        [&"a/d.rs".to_owned(), &"b.rs".to_owned()]
    );
    assert_eq!(g["b.rs"].iter().collect::<Vec<_>>(), [&"a/c.rs".to_owned()]);
    assert_eq!(circles(&g), [vec!["a/c.rs".to_owned(), "b.rs".to_owned()]]);
}
