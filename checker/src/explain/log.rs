//! XLA's fusion-decision log, read back.
//!
//! A compile run with `TF_CPP_MIN_LOG_LEVEL=0` and
//! `TF_CPP_VMODULE=instruction_fusion=5,cpu_instruction_fusion=5` (the CPU)
//! or `priority_fusion=N` (XLA:GPU) logs each decision of its fusion pass:
//! which producer it fused into which consumer, the fusion it created, and
//! for each pair it did not fuse the first check that failed. This module
//! reads those lines (the glog prefix and anything before the source file's
//! name may be there or not) into [`Decision`]s; [`super::resolve`] ties their
//! names to the kernels of the compiled dump.
//!
//! The lines are one table, [`LINES`]: the XLA source file, the words that
//! start the message, and what the line says. A fusion pass's line that no
//! row knows is counted as unread, never guessed.

/// What a log line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    /// The pass looks at a consumer and one of its operands (CPU).
    Considering,
    /// `Fusing %P = ... into %C = ...`.
    Fused,
    /// `created new fusion: %F = ...`: the last consumer fused is now `F`.
    Created,
    /// `not fusing operand %P = ... because REASON` (CPU).
    NotFusing,
    /// `Operand (%P = ...) is not fusible` (CPU).
    NotFusible,
    /// `Fusion rejected: producer 'P' is too expensive to duplicate into 'C'.`
    Rejected,
    /// `Cannot fuse P with C, because: REASON` (XLA:GPU's priority fusion).
    CannotFuse,
    /// A line of the pass that decides nothing (`Evaluating fusion`, `Fusion count`, ...).
    Other,
}

/// Which pass wrote a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// The CPU's instruction fusion (`instruction_fusion.cc`, `cpu_instruction_fusion.cc`).
    CpuFusion,
    /// XLA:GPU's priority fusion (`priority_fusion.cc`).
    PriorityFusion,
}

impl Pass {
    /// Its name in the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Pass::CpuFusion => "cpu-instruction-fusion",
            Pass::PriorityFusion => "priority-fusion",
        }
    }
}

/// One row of [`LINES`].
pub struct LineRow {
    /// XLA's source file that prints the line.
    pub file: &'static str,
    /// The words the message starts with (after leading spaces).
    pub starts: &'static str,
    /// What it says.
    pub said: Said,
    /// The pass.
    pub pass: Pass,
}

/// The lines of the fusion passes DumpLab reads, one row each (the first
/// row whose file and words match decides).
pub const LINES: &[LineRow] = &[
    row(
        "instruction_fusion.cc",
        "Considering fusion of: ",
        Said::Considering,
        Pass::CpuFusion,
    ),
    row(
        "instruction_fusion.cc",
        "Fusing %",
        Said::Fused,
        Pass::CpuFusion,
    ),
    row(
        "instruction_fusion.cc",
        "created new fusion: %",
        Said::Created,
        Pass::CpuFusion,
    ),
    row(
        "instruction_fusion.cc",
        "not fusing operand %",
        Said::NotFusing,
        Pass::CpuFusion,
    ),
    row(
        "instruction_fusion.cc",
        "Operand (%",
        Said::NotFusible,
        Pass::CpuFusion,
    ),
    row(
        "instruction_fusion.cc",
        "Fusion rejected: producer '",
        Said::Rejected,
        Pass::CpuFusion,
    ),
    row("instruction_fusion.cc", "", Said::Other, Pass::CpuFusion),
    row(
        "cpu_instruction_fusion.cc",
        "",
        Said::Other,
        Pass::CpuFusion,
    ),
    row(
        "priority_fusion.cc",
        "Fusing %",
        Said::Fused,
        Pass::PriorityFusion,
    ),
    row(
        "priority_fusion.cc",
        "created new fusion: %",
        Said::Created,
        Pass::PriorityFusion,
    ),
    row(
        "priority_fusion.cc",
        "Cannot fuse ",
        Said::CannotFuse,
        Pass::PriorityFusion,
    ),
    row("priority_fusion.cc", "", Said::Other, Pass::PriorityFusion),
];

const fn row(file: &'static str, starts: &'static str, said: Said, pass: Pass) -> LineRow {
    LineRow {
        file,
        starts,
        said,
        pass,
    }
}

/// Whether a decision fused the pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The producer went into the consumer.
    Fused,
    /// It did not; the message says why.
    NotFused,
}

/// One decision of the pass, as logged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision<'a> {
    /// Its line in the log (1-based).
    pub line: usize,
    /// The producer's name then.
    pub producer: &'a str,
    /// The consumer's name then.
    pub consumer: &'a str,
    /// Fused or not.
    pub verdict: Verdict,
    /// XLA's words for a pair not fused (`Producer is not loop-fusible.`).
    pub message: &'a str,
}

/// A fusion the pass created: the consumer `from` is now `fusion`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Created<'a> {
    /// Its line in the log.
    pub line: usize,
    /// The consumer's name before.
    pub from: &'a str,
    /// The new fusion's name.
    pub fusion: &'a str,
}

/// What a log says, in its order.
#[derive(Clone, Debug, Default)]
pub struct Log<'a> {
    /// The pass that wrote it (the first fusion line's).
    pub pass: Option<Pass>,
    /// Lines of a fusion pass read.
    pub lines: usize,
    /// Lines of a fusion pass whose words DumpLab did not understand.
    pub unread: Vec<usize>,
    /// Every decision, in order (a pass that runs twice logs some twice).
    pub decisions: Vec<Decision<'a>>,
    /// Every fusion created, in order.
    pub created: Vec<Created<'a>>,
    /// Whether a run of the CPU pass ended in the log (`Fusion count: N`):
    /// then a kernel the log never names was made after the pass.
    pub complete: bool,
    /// Every instruction name the log mentions.
    pub names: std::collections::HashSet<&'a str>,
    /// Instructions the log prints whole: (line, name, shape as printed),
    /// to check the log is of the same compile as the dump.
    pub shapes: Vec<(usize, &'a str, &'a str)>,
    /// The same instructions' opcode and operand names (without `%`),
    /// by name: what a later pass's rename keeps.
    pub ops: std::collections::HashMap<&'a str, (&'a str, Vec<&'a str>)>,
}

/// The message after `file:NNN] ` when the line is one of `file`'s.
fn message_of<'a>(line: &'a str, file: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(at) = line.get(from..)?.find(file) {
        let start = from + at;
        let before_ok = start == 0
            || line[..start]
                .chars()
                .next_back()
                .is_some_and(|c| c == ' ' || c == '/' || c == '\t' || c == ']');
        let rest = &line[start + file.len()..];
        if before_ok && let Some(r) = rest.strip_prefix(':') {
            let digits = r.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0
                && let Some(msg) = r[digits..].strip_prefix(']')
            {
                return Some(msg.trim_start());
            }
        }
        from = start + file.len();
    }
    None
}

/// The name after a leading `%` up to ` = ` (or the first space).
fn percent_name(s: &str) -> Option<&str> {
    let s = s.strip_prefix('%')?;
    let end = s.find([' ', ',', ')']).unwrap_or(s.len());
    let name = &s[..end];
    (!name.is_empty()).then_some(name)
}

/// A name quoted as `'name'`, and what follows it.
fn quoted(s: &str) -> Option<(&str, &str)> {
    let s = s.strip_prefix('\'')?;
    let end = s.find('\'')?;
    Some((&s[..end], &s[end + 1..]))
}

/// Reads a log. Lines of other files are skipped; nothing panics.
pub fn read(text: &str) -> Log<'_> {
    let mut log = Log::default();
    let mut consumer: Option<&str> = None;
    let mut last_fused_into: Option<&str> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let Some((row, msg)) = LINES.iter().find_map(|r| {
            let msg = message_of(line, r.file)?;
            msg.starts_with(r.starts).then_some((r, msg))
        }) else {
            continue;
        };
        log.lines += 1;
        log.pass.get_or_insert(row.pass);
        let body = &msg[row.starts.len()..];
        let ok = match row.said {
            Said::Considering => {
                consumer = considering(body);
                if let Some(c) = consumer {
                    log.names.insert(c);
                }
                consumer.is_some()
            }
            Said::Fused => fused(&mut log, n, msg, &mut last_fused_into),
            Said::Created => match (
                percent_name(&msg["created new fusion: ".len()..]),
                last_fused_into,
            ) {
                (Some(f), Some(from)) => {
                    log.created.push(Created {
                        line: n,
                        from,
                        fusion: f,
                    });
                    last_fused_into = Some(f);
                    true
                }
                _ => false,
            },
            Said::NotFusing => not_fusing(&mut log, n, msg, consumer),
            Said::NotFusible => match (percent_name(&msg["Operand (".len()..]), consumer) {
                (Some(p), Some(c)) => {
                    log.decisions.push(Decision {
                        line: n,
                        producer: p,
                        consumer: c,
                        verdict: Verdict::NotFused,
                        message: "is not fusible",
                    });
                    true
                }
                _ => false,
            },
            Said::Rejected => rejected(&mut log, n, body),
            Said::CannotFuse => cannot_fuse(&mut log, n, body),
            Said::Other => {
                log.complete |= msg.starts_with("Fusion count: ");
                true
            }
        };
        if let Some((name, shape)) = printed(body, row.starts) {
            log.shapes.push((n, name, shape));
            if let Some(op) = opcode_and_operands(body, shape) {
                log.ops.entry(name).or_insert(op);
            }
        }
        if row.said == Said::Considering
            && let Some(at) = msg.rfind(" with operand ")
        {
            log.names.insert(msg[at + " with operand ".len()..].trim());
        }
        if !ok {
            log.unread.push(n);
        }
    }
    for d in &log.decisions {
        log.names.insert(d.producer);
        log.names.insert(d.consumer);
    }
    for c in &log.created {
        log.names.insert(c.fusion);
    }
    log
}

/// The instruction a message starts with (`%P = f32[8]{0} add(...`),
/// when its words end in `%` (`Fusing %`, `Operand (%`): its name and shape.
fn printed<'a>(body: &'a str, starts: &str) -> Option<(&'a str, &'a str)> {
    if !starts.ends_with('%') {
        return None;
    }
    let eq = body.find(" = ")?;
    let name = body.get(..eq)?;
    if name.is_empty() || name.contains(' ') {
        return None;
    }
    let rest = body.get(eq + 3..)?;
    let end = if rest.starts_with('(') {
        let mut depth = 0usize;
        let mut end = None;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = Some(i + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        end?
    } else {
        rest.find(' ')?
    };
    Some((name, rest.get(..end)?))
}

/// After `%P = SHAPE `: the opcode and the operand names, as printed
/// (`log(%ynn_fusion)`, or with shapes before the names in older logs).
fn opcode_and_operands<'a>(body: &'a str, shape: &str) -> Option<(&'a str, Vec<&'a str>)> {
    let after = body.get(body.find(shape)? + shape.len()..)?.trim_start();
    let open = after.find('(')?;
    let opcode = after.get(..open)?;
    if opcode.is_empty() || !opcode.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') {
        return None;
    }
    let mut depth = 0usize;
    let mut close = None;
    for (i, c) in after.char_indices().skip(open) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let inner = after.get(open + 1..close?)?;
    let operands = inner
        .split(", ")
        .filter_map(|o| o.rsplit(' ').next()?.strip_prefix('%'))
        .collect();
    Some((opcode, operands))
}

/// `%C = ... with operand P`: the consumer.
fn considering(body: &str) -> Option<&str> {
    percent_name(body)
}

/// `Fusing %P = ... into %C = ...`.
fn fused<'a>(log: &mut Log<'a>, n: usize, msg: &'a str, into: &mut Option<&'a str>) -> bool {
    let Some(p) = percent_name(&msg["Fusing ".len()..]) else {
        return false;
    };
    let mut from = 0;
    while let Some(at) = msg.get(from..).and_then(|s| s.find(" into %")) {
        let start = from + at + " into ".len();
        if let Some(c) = percent_name(&msg[start..])
            && msg[start + 1 + c.len()..].starts_with(" = ")
        {
            log.decisions.push(Decision {
                line: n,
                producer: p,
                consumer: c,
                verdict: Verdict::Fused,
                message: "",
            });
            *into = Some(c);
            return true;
        }
        from = start;
    }
    false
}

/// `not fusing operand %P = ... because REASON`.
fn not_fusing<'a>(log: &mut Log<'a>, n: usize, msg: &'a str, consumer: Option<&'a str>) -> bool {
    let (Some(p), Some(c)) = (percent_name(&msg["not fusing operand ".len()..]), consumer) else {
        return false;
    };
    let Some(at) = msg.rfind(" because ") else {
        return false;
    };
    log.decisions.push(Decision {
        line: n,
        producer: p,
        consumer: c,
        verdict: Verdict::NotFused,
        message: msg[at + " because ".len()..].trim(),
    });
    true
}

/// `P' is too expensive to duplicate into 'C'.` (after `Fusion rejected: producer '`).
fn rejected<'a>(log: &mut Log<'a>, n: usize, body: &'a str) -> bool {
    let Some(end) = body.find('\'') else {
        return false;
    };
    let p = &body[..end];
    let rest = &body[end + 1..];
    let Some(at) = rest.find(" into ") else {
        return false;
    };
    let Some((c, _)) = quoted(&rest[at + " into ".len()..]) else {
        return false;
    };
    log.decisions.push(Decision {
        line: n,
        producer: p,
        consumer: c,
        verdict: Verdict::NotFused,
        message: rest[..at].trim_start_matches(' ').trim(),
    });
    true
}

/// `P with C, because: REASON` (after `Cannot fuse `).
fn cannot_fuse<'a>(log: &mut Log<'a>, n: usize, body: &'a str) -> bool {
    let Some(with) = body.find(" with ") else {
        return false;
    };
    let p = &body[..with];
    let rest = &body[with + " with ".len()..];
    let Some(comma) = rest.find(", because: ") else {
        return false;
    };
    let c = &rest[..comma];
    if p.is_empty() || c.is_empty() || p.contains(' ') || c.contains(' ') {
        return false;
    }
    log.decisions.push(Decision {
        line: n,
        producer: p,
        consumer: c,
        verdict: Verdict::NotFused,
        message: rest[comma + ", because: ".len()..].trim(),
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(line: &str, expect: Option<(&str, &str, Verdict, &str)>) {
        let log = read(line);
        let got = log
            .decisions
            .first()
            .map(|d| (d.producer, d.consumer, d.verdict, d.message));
        assert_eq!(got, expect, "{line}");
    }

    #[test]
    fn real_cpu_lines() {
        let considering = "I1201 19:24:10.088222    9940 instruction_fusion.cc:649] Considering fusion of: %broadcast_multiply_fusion = f32[512,1024]{1,0} fusion(%ynn_fusion.1, %divide), kind=kLoop, calls=%fused_computation.2, metadata={op_name=\"jit(fn)/div\" stack_frame_id=2} with operand divide\n";
        let not = "I1201 19:24:10.088228    9940 instruction_fusion.cc:687] not fusing operand %divide = f32[512]{0} divide(%broadcast, %ynn_fusion), metadata={op_name=\"jit(fn)/div\" stack_frame_id=2} because Fusion is not profitable.";
        check(
            &format!("{considering}{not}"),
            Some((
                "divide",
                "broadcast_multiply_fusion",
                Verdict::NotFused,
                "Fusion is not profitable.",
            )),
        );
        check(
            "I1201 19:24:10.088202    9940 instruction_fusion.cc:848] Fusing %broadcast.1 = f32[512,1024]{1,0} broadcast(%divide), dimensions={0}, metadata={op_name=\"jit(fn)/div\" stack_frame_id=2} into %multiply = f32[512,1024]{1,0} multiply(%ynn_fusion.1, %broadcast.1), metadata={op_name=\"jit(fn)/div\" stack_frame_id=2}",
            Some(("broadcast.1", "multiply", Verdict::Fused, "")),
        );
        check(
            "I1201 19:24:10.088202    9940 instruction_fusion.cc:1158] Fusion rejected: producer 'tanh.6' is too expensive to duplicate into 'multiply_add_fusion'.",
            Some((
                "tanh.6",
                "multiply_add_fusion",
                Verdict::NotFused,
                "is too expensive to duplicate",
            )),
        );
        // No consumer seen yet: the line is unread, not guessed.
        let log = read(not);
        assert!(log.decisions.is_empty());
        assert_eq!(log.unread, vec![1]);
    }

    #[test]
    fn real_gpu_lines() {
        check(
            "I1201 19:24:21.266381   10058 priority_fusion.cc:1000] Cannot fuse reduce_sum.8 with multiply.6, because: fusion into output of a reduce fusion would create a loop fusion",
            Some((
                "reduce_sum.8",
                "multiply.6",
                Verdict::NotFused,
                "fusion into output of a reduce fusion would create a loop fusion",
            )),
        );
        let log = read(
            "I1201 19:24:21.266133   10058 priority_fusion.cc:1331] Fusing %square.2 = f32[256,1024]{1,0} multiply(%parameter_0.2, %parameter_0.2), metadata={op_name=\"jit(fn)/square\" stack_frame_id=6} into %reduce_sum.8 = f32[256]{0} reduce(%square.2, %constant.10), dimensions={1}, to_apply=%region_0.1.clone\nI1201 19:24:21.266159   10058 priority_fusion.cc:1369]        created new fusion: %fusion = f32[256]{0} fusion(%constant.10, %parameter_0.2), kind=kInput, calls=%fused_computation",
        );
        assert_eq!(log.pass, Some(Pass::PriorityFusion));
        assert_eq!(
            log.created,
            vec![Created {
                line: 2,
                from: "reduce_sum.8",
                fusion: "fusion"
            }]
        );
    }

    #[test]
    fn other_files_and_damaged_lines() {
        let log = read(
            "I1201 pjrt_client.cc:579] PjRt-IFRT device count\nmy_instruction_fusion.cc:1] x\ninstruction_fusion.cc:] y\n",
        );
        assert_eq!(log.lines, 0);
        let log = read("instruction_fusion.cc:848] Fusing %a = f32[] add(");
        assert_eq!(log.unread, vec![1]);
    }
}
