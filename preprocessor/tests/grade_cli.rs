//! `mdbook-dumplab grade` through the built binary, on the course's own
//! exercise files: the answer it reveals grades right, anything else does
//! not, and `--json` prints one object.

use std::process::Command;

fn grade(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .arg("grade")
        .args(["--root", concat!(env!("CARGO_MANIFEST_DIR"), "/..")])
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (_, stdout) = grade(&all);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn revealed_answers_grade_right_and_others_do_not() {
    let file = "exercises/two-dumps.toml";
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../exercises/two-dumps.toml"
    ))
    .expect("the lesson's exercises");
    let ids: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("id = \""))
        .map(|l| l.trim_end_matches('"'))
        .collect();
    assert!(ids.len() >= 12, "the lesson has at least 12 questions");
    let mut types = std::collections::BTreeSet::new();
    for id in ids {
        let shown = json(&["-e", file, "-q", id, "--reveal"]);
        assert_eq!(shown["outcome"], "revealed", "{shown}");
        types.insert(shown["type"].as_str().expect("type").to_owned());
        let answer: Vec<&str> = shown["answer"]
            .as_array()
            .expect("answer ids")
            .iter()
            .filter_map(|a| a.as_str())
            .collect();
        let answer = answer.join(",");
        let (ok, stdout) = grade(&["-e", file, "-q", id, "-a", &answer]);
        assert!(
            ok && stdout.starts_with("correct: "),
            "{id} with {answer}: {stdout}"
        );
        let (ok, stdout) = grade(&["-e", file, "-q", id, "-a", "999"]);
        assert!(
            !ok && !stdout.starts_with("correct"),
            "{id} with 999: {stdout}"
        );
    }
    assert_eq!(types.len(), 6, "all six question types: {types:?}");
}

#[test]
fn unknown_questions_fail_with_the_known_ones() {
    let out = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .args([
            "grade",
            "--root",
            concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
            "-e",
            "exercises/two-dumps.toml",
            "-q",
            "nope",
            "-a",
            "1",
        ])
        .output()
        .expect("the binary runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("has no question `nope`") && err.contains("layernorm-kernels-cpu"),
        "{err}"
    );
}

/// `grade` on the lesson's `layernorm-kernels-cpu` count question: (exit code,
/// stdout, stderr).
fn grade_code(question: &str, answer: &str) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mdbook-dumplab"))
        .args([
            "grade",
            "--root",
            concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
        ])
        .args([
            "-e",
            "exercises/two-dumps.toml",
            "-q",
            question,
            "-a",
            answer,
        ])
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn exit_codes_tell_wrong_answers_from_errors() {
    let key = json(&[
        "-e",
        "exercises/two-dumps.toml",
        "-q",
        "layernorm-kernels-cpu",
        "--reveal",
    ]);
    let right = key["answer"][0].as_str().expect("a count").to_owned();
    let wrong = (right.parse::<u32>().expect("a number") + 7).to_string();
    assert_eq!(grade_code("layernorm-kernels-cpu", &right).0, Some(0));
    assert_eq!(grade_code("layernorm-kernels-cpu", &wrong).0, Some(1));
    // Not a number: nothing was graded.
    let (code, stdout, _) = grade_code("layernorm-kernels-cpu", "abc");
    assert_eq!(code, Some(2), "{stdout}");
    let (code, _, stderr) = grade_code("nope", "1");
    assert_eq!(code, Some(2), "{stderr}");
}

#[test]
fn control_characters_never_reach_the_terminal() {
    let hostile = "\u{1b}]8;;http://evil.invalid\u{7}x\u{1b}[2J\u{202e}";
    let (code, stdout, stderr) = grade_code(hostile, "1");
    assert_eq!(code, Some(2));
    let (_, stdout2, _) = grade_code("layernorm-kernels-cpu", hostile);
    for out in [&stdout, &stderr, &stdout2] {
        assert!(
            !out.contains('\u{1b}') && !out.contains('\u{7}') && !out.contains('\u{202e}'),
            "{out:?}"
        );
    }
    assert!(
        stderr.contains("\\u{1b}]8;;http://evil.invalid"),
        "{stderr}"
    );
}

/// The hint after a wrong pick, for the questions of the learner review
/// whose first hint outlined every line shown: (file, question, a line
/// that proves nothing, the hint's lines, how its text starts).
#[test]
fn hints_on_whole_excerpts_narrow_or_say_what_to_look_for() {
    let cases = [
        (
            "exercises/pallas.toml",
            "pallas-elementwise-compiled-evidence",
            "16",
            (16, 20),
            "Look for what only XLA's passes write",
        ),
        (
            "exercises/hlo.toml",
            "hlo-fusion-lines-gpu",
            "70",
            (75, 79),
            "Look again at lines 75\u{2013}79: a line there launches a fused kernel.",
        ),
        (
            "exercises/buffer-assignment.toml",
            "ba-loop-compiler-lines",
            "62",
            (65, 68),
            "Look again at lines 65\u{2013}68: a line there shows that XLA compiled this module.",
        ),
        (
            "exercises/xla.toml",
            "xla-pipeline-evidence",
            "56",
            (59, 63),
            "Look again at lines 59\u{2013}63: a line there shows that XLA compiled this module.",
        ),
    ];
    for (file, id, idle, (first, last), text) in cases {
        let v = json(&["-e", file, "-q", id, "-a", idle]);
        assert_eq!(v["outcome"], "wrong", "{v}");
        let hint = &v["hint"];
        assert_eq!(
            (hint["first"].as_u64(), hint["last"].as_u64()),
            (Some(first), Some(last)),
            "{id}: {v}"
        );
        let said = hint["text"].as_str().expect("hint text");
        assert!(said.starts_with(text), "{id}: {said}");
        let (_, human) = grade(&["-e", file, "-q", id, "-a", idle]);
        assert!(
            human.contains(&format!("  hint (lines {first}-{last}): ")),
            "{human}"
        );
    }
}
