//! The page's `folder-first` request (the "first file where" box of "The
//! dump folder") on the real CPU softmax folder (`tests/folders/`): the
//! same answer as `dumplab::folder::passes::first`, the file's step and
//! passes named, one sentence for a malformed request.

#![allow(clippy::unwrap_used)]

use serde_json::Value;

const DIR: &str = "tests/folders/cpu_softmax";

/// The module's files as the page sends them: `<path>\n<length>\n<text>`.
fn records() -> Vec<u8> {
    records_with(|_, text| text)
}

/// The same, each file's bytes passed through `f` (path, bytes).
fn records_with(f: impl Fn(&str, Vec<u8>) -> Vec<u8>) -> Vec<u8> {
    let dir = format!("{}/{DIR}", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for n in names {
        let text = f(&n, std::fs::read(format!("{dir}/{n}")).unwrap());
        out.extend_from_slice(format!("{n}\n{}\n", text.len()).as_bytes());
        out.extend_from_slice(&text);
    }
    out
}

fn first(id: &str, query: &str) -> Value {
    let mut req = format!("folder-first\n{id}\n{query}\n").into_bytes();
    req.extend_from_slice(&records());
    serde_json::from_str(&dumplab::inspect::respond(&req)).unwrap()
}

/// (query, path of the first file, step, matched, count, first instruction and its line)
fn check(query: &str, path: &str, step: Option<u64>, matched: &str, count: u64, ins: (&str, u64)) {
    let v = first("module_0000", query);
    let f = &v["found"];
    assert_eq!(f["path"], path, "{query}: {v}");
    assert_eq!(f["step"].as_u64(), step, "{query}");
    assert_eq!(f["matched"], matched, "{query}");
    assert_eq!(f["count"], count, "{query}");
    assert_eq!(f["instructions"][0]["name"], ins.0, "{query}");
    assert_eq!(f["instructions"][0]["line"], ins.1, "{query}");
}

#[test]
fn the_first_file_where_a_query_appears() {
    // algsimp (step 6) rewrites the division into a multiply named
    // `multiply` (an instruction's name is matched before an opcode).
    check(
        "multiply",
        "module_0000.jit_fn.0006.simplification.after_algsimp.before_simplify-sorts.txt",
        Some(6),
        "instruction",
        1,
        ("multiply", 44),
    );
    // The fusion pass (step 17) forms the loop fusion.
    check(
        "broadcast_divide_fusion",
        "module_0000.jit_fn.0017.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt",
        Some(17),
        "instruction",
        1,
        ("broadcast_divide_fusion", 64),
    );
    let v = first("module_0000", "no-such-thing");
    assert_eq!(v["found"], Value::Null, "{v}");
    let f = &first("module_0000", "multiply")["found"];
    assert_eq!(
        (
            f["pipeline"].as_str(),
            f["pass"].as_str(),
            f["next"].as_str()
        ),
        (
            Some("simplification"),
            Some("algsimp"),
            Some("simplify-sorts")
        )
    );
}

#[test]
fn a_malformed_or_unknown_request_is_one_sentence() {
    let v = first("module_0042", "multiply");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("no module module_0042"),
        "{v}"
    );
    for req in [
        &b"folder-first\n"[..],
        b"folder-first\nmodule_0000\n",
        b"folder-first\nmodule_0000\nx\nname\n99\nab",
    ] {
        let v: Value = serde_json::from_str(&dumplab::inspect::respond(req)).unwrap();
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("malformed request"),
            "{v}"
        );
    }
}

/// A numbered file sent that is not text (as the page sends a binary file
/// it read): the answer names it in `unread_before` when it lies between
/// the last file read without the query and the hit, where the query may
/// first be.
#[test]
fn a_binary_file_before_the_hit_is_named() {
    let mut req = b"folder-first\nmodule_0000\nbroadcast_divide_fusion\n".to_vec();
    req.extend_from_slice(&records_with(|path, text| {
        if path.contains(".0017.") {
            vec![0x00, 0xff, 0xfe, 0x00]
        } else {
            text
        }
    }));
    let v: Value = serde_json::from_str(&dumplab::inspect::respond(&req)).unwrap();
    let p17 = "module_0000.jit_fn.0017.HLO_passes_after_layout_assignment.after_fusion.before_fusion-wrapper.txt";
    assert_eq!(v["found"]["step"], 18, "{v}");
    assert_eq!(v["found"]["unread_before"], serde_json::json!([p17]), "{v}");
    assert_eq!(v["unread"], serde_json::json!([p17]), "{v}");
    // The clean folder: nothing unread.
    let v = first("module_0000", "broadcast_divide_fusion");
    assert_eq!(v["found"]["step"], 17, "{v}");
    assert_eq!(v["found"]["unread_before"], serde_json::json!([]), "{v}");
}
