//! A Pallas kernel's own cost estimate, where the dump carries it.
//!
//! XLA cannot see inside a Pallas kernel: its `HloCostAnalysis` costs the
//! custom call a `pallas_call` becomes as unknown (-1). A kernel writer can
//! state the cost, `pl.pallas_call(..., cost_estimate=pl.CostEstimate(flops=...,
//! transcendentals=..., bytes_accessed=...))`, and this module reads it back
//! from the custom call's `backend_config`.
//!
//! Whether a dump carries it depends on the kernel compiler, one row of
//! [`FORMS`] per custom-call target. With jax/jaxlib 0.10.2 and libtpu
//! 0.0.42.1 (`fixtures/pallas_cost_estimate`, and the same kernel compiled
//! again without its estimate, to compare):
//!
//! - Mosaic TPU (`tpu_custom_call`) keeps it. JAX writes it into the
//!   `custom_call_config` of the backend config
//!   (`jax/_src/tpu_custom_call.py`, `CustomCallBackendConfig.to_json`,
//!   `json.dumps(..., sort_keys=True, indent=0)`) as JSON numbers, one
//!   field a line: `"cost_estimate": {` then `"bytes_accessed":3145728,`
//!   and so on, as HLO printed before compilation shows it. XLA:TPU prints
//!   a compiled config back in its own form, the numbers as strings:
//!   `"cost_estimate":{"flops":"262144","transcendentals":"262144","bytes_accessed":"3145728","remote_bytes_transferred":"0"}`
//!   (a kernel inside a `kCustom` fusion keeps JAX's form, spaces and all,
//!   as `pallas_in_context`'s input-fusion dump shows; both forms are read).
//!   XLA:TPU's own cost analysis (`compiled.cost_analysis()`) returns the
//!   stated figures unchanged; XLA's generic `HloCostAnalysis` still gives
//!   -1 for the kernel.
//! - Triton (`__gpu$xla.gpu.triton`) and Mosaic GPU (`mosaic_gpu_v2`) drop
//!   it: their lowerings delete the argument
//!   (`jax/_src/pallas/triton/pallas_call_registration.py`:
//!   `del interpret, out_avals, cost_estimate, name`;
//!   `jax/_src/pallas/mosaic_gpu/lowering.py`: `del cost_estimate  # Unused.`),
//!   and their dumps are byte for byte those of the kernel without one.
//! - Interpret mode (`interpret=True`, the CPU) has no custom call at all:
//!   the kernel becomes a `while` over the grid, costed as plain HLO.
//!
//! A kernel without an estimate gives `None`, never zeros: its cost is
//! unknown. The estimate is the kernel's whole call (every grid step), as
//! its writer stated it; this module does not check it.

use crate::program::Instruction;

/// A Pallas kernel's cost as its writer stated it (`pl.CostEstimate`),
/// for the whole call: every grid step together.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PallasEstimate {
    /// Floating-point operations (`flops`).
    pub flops: f64,
    /// Transcendental operations, `exp`, `log`, `tanh` and the like
    /// (`transcendentals`).
    pub transcendentals: f64,
    /// Bytes read and written in memory (`bytes_accessed`).
    pub bytes_accessed: f64,
}

/// Where a Pallas custom call's `backend_config` keeps the estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carries {
    /// A JSON object of integers under this key (with its quotes).
    Object(&'static str),
    /// Nothing: the lowering drops the estimate.
    Nothing,
}

/// One custom-call target a `pallas_call` lowers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    /// The `custom_call_target`.
    pub target: &'static str,
    /// The kernel compiler that writes it.
    pub compiler: &'static str,
    /// Where its backend config keeps the estimate.
    pub carries: Carries,
}

/// Every custom-call target a `pallas_call` lowers to, one row each (the
/// evidence for each row is in the module docs).
pub const FORMS: &[Form] = &[
    Form {
        target: "tpu_custom_call",
        compiler: "Mosaic TPU",
        carries: Carries::Object("\"cost_estimate\""),
    },
    Form {
        target: "__gpu$xla.gpu.triton",
        compiler: "Triton",
        carries: Carries::Nothing,
    },
    Form {
        target: "mosaic_gpu_v2",
        compiler: "Mosaic GPU",
        carries: Carries::Nothing,
    },
];

/// The fields of the estimate object that [`PallasEstimate`] keeps, in its
/// order (others, `remote_bytes_transferred`, are read and left out).
const FIELDS: [&str; 3] = ["flops", "transcendentals", "bytes_accessed"];

/// The row of [`FORMS`] for a custom call's target; `None` for any other
/// instruction. XLA:TPU writes `tpu_custom_call`s of its own too: whether
/// a `pallas_call` made one is its `metadata` `op_name`'s call.
pub fn form(ins: &Instruction<'_>) -> Option<&'static Form> {
    if ins.opcode != "custom-call" {
        return None;
    }
    let target = ins.custom_call_target()?;
    FORMS.iter().find(|f| f.target == target)
}

/// The cost estimate a Pallas custom call's `backend_config` carries, in
/// its target's form; `None` when it carries none (or not whole: all three
/// fields, each once, as integers), and for any other instruction.
pub fn cost_estimate(ins: &Instruction<'_>) -> Option<PallasEstimate> {
    let Carries::Object(key) = form(ins)?.carries else {
        return None;
    };
    let config = ins.backend_config()?;
    let at = config.find(key)? + key.len();
    let [flops, transcendentals, bytes_accessed] = read_object(config.get(at..)?)?;
    Some(PallasEstimate {
        flops,
        transcendentals,
        bytes_accessed,
    })
}

/// Reads `: { "name": 1, "name": "2", ... }` (whitespace, line breaks
/// included, anywhere between the parts) from the start of `s`: the
/// [`FIELDS`], each exactly once. Looks at each byte of the object once.
fn read_object(s: &str) -> Option<[f64; 3]> {
    let mut p = Cursor { s, at: 0 };
    p.expect(b':')?;
    p.expect(b'{')?;
    let mut out = [None; 3];
    if p.peek() == Some(b'}') {
        return None;
    }
    loop {
        p.expect(b'"')?;
        let name = p.until_quote()?;
        p.expect(b':')?;
        let value = p.integer()?;
        if let Some(i) = FIELDS.iter().position(|f| *f == name) {
            let slot = out.get_mut(i)?;
            if slot.replace(value).is_some() {
                return None;
            }
        }
        match p.next_token()? {
            b',' => {}
            b'}' => break,
            _ => return None,
        }
    }
    let [a, b, c] = out;
    Some([a?, b?, c?])
}

/// A position in the text of a JSON object.
struct Cursor<'a> {
    s: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    /// Skips whitespace; the next byte, not taken.
    fn peek(&mut self) -> Option<u8> {
        let b = self.s.as_bytes();
        while b.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
        b.get(self.at).copied()
    }

    /// Skips whitespace and takes the next byte.
    fn next_token(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    /// Takes `c`, after whitespace, or fails.
    fn expect(&mut self, c: u8) -> Option<()> {
        (self.next_token()? == c).then_some(())
    }

    /// The text up to the next `"` (taken too): a field name, plain
    /// letters and `_`, no escapes.
    fn until_quote(&mut self) -> Option<&'a str> {
        let rest = self.s.get(self.at..)?;
        let end = rest.find('"')?;
        self.at += end + 1;
        rest.get(..end)
    }

    /// A non-negative integer, bare (as JAX writes it) or quoted (as
    /// XLA:TPU prints an int64 back), as `f64`.
    fn integer(&mut self) -> Option<f64> {
        let quoted = self.peek()? == b'"';
        if quoted {
            self.at += 1;
        }
        let rest = self.s.get(self.at..)?;
        let len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let n: u64 = rest.get(..len)?.parse().ok()?;
        self.at += len;
        if quoted {
            (self.s.as_bytes().get(self.at) == Some(&b'"')).then_some(())?;
            self.at += 1;
        }
        // A count past 2^53 rounds to the nearest f64.
        Some(n as f64)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::program;

    fn read(path: &str) -> String {
        let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
    }

    /// The estimate of the instruction on line `line` of `path` (a real
    /// dump), and that instruction's target.
    fn at_line(path: &str, line: usize) -> (Option<&'static str>, Option<PallasEstimate>) {
        let text = read(path);
        let module = program::parse(&text);
        let ins = module
            .instructions
            .iter()
            .find(|i| i.line == line)
            .unwrap_or_else(|| panic!("{path}:{line}: no instruction"));
        (form(ins).map(|f| f.target), cost_estimate(ins))
    }

    fn check(path: &str, line: usize, expect: (Option<&str>, Option<[f64; 3]>)) {
        let (target, estimate) = at_line(path, line);
        let got = estimate.map(|e| [e.flops, e.transcendentals, e.bytes_accessed]);
        assert_eq!((target, got), expect, "{path}:{line}");
    }

    const STATED: [f64; 3] = [262_144.0, 262_144.0, 3_145_728.0];

    #[test]
    fn the_new_family_carries_its_estimate_on_the_tpu_only() {
        let f = "fixtures/pallas_cost_estimate";
        check(
            &format!("{f}/compiled.tpu.hlo.txt"),
            19,
            (Some("tpu_custom_call"), Some(STATED)),
        );
        check(
            &format!("{f}/compiled.gpu.hlo.txt"),
            19,
            (Some("__gpu$xla.gpu.triton"), None),
        );
        check(
            &format!("{f}/compiled.gpu.mosaic_gpu.hlo.txt"),
            19,
            (Some("mosaic_gpu_v2"), None),
        );
        // Interpret mode: the grid's `while` and its body's fusion.
        check(&format!("{f}/compiled.cpu.hlo.txt"), 172, (None, None));
        check(&format!("{f}/compiled.cpu.hlo.txt"), 135, (None, None));
        // A parameter of the TPU module.
        check(&format!("{f}/compiled.tpu.hlo.txt"), 17, (None, None));
    }

    #[test]
    fn before_compilation_the_estimate_spans_lines_as_json_numbers() {
        // The pinned JAX's `as_text(dialect="hlo")` of the family's TPU
        // lowering: `"cost_estimate": {` ends line 6, one field a line.
        check(
            "checker/tests/data/pallas_cost_estimate.tpu.lowered.hlo.txt",
            6,
            (Some("tpu_custom_call"), Some(STATED)),
        );
    }

    #[test]
    fn the_other_pallas_fixtures_carry_none() {
        for (path, line, target) in [
            (
                "pallas_elementwise/compiled.tpu.hlo.txt",
                19,
                "tpu_custom_call",
            ),
            (
                "pallas_elementwise/compiled.tpu.mosaic_tpu_donated.hlo.txt",
                18,
                "tpu_custom_call",
            ),
            (
                "pallas_elementwise/compiled.gpu.hlo.txt",
                19,
                "__gpu$xla.gpu.triton",
            ),
            (
                "pallas_elementwise/compiled.gpu.mosaic_gpu.hlo.txt",
                19,
                "mosaic_gpu_v2",
            ),
            ("pallas_matmul/compiled.tpu.hlo.txt", 19, "tpu_custom_call"),
            (
                "pallas_matmul/compiled.gpu.hlo.txt",
                19,
                "__gpu$xla.gpu.triton",
            ),
            ("pallas_softmax/compiled.tpu.hlo.txt", 18, "tpu_custom_call"),
            (
                "pallas_softmax/compiled.gpu.hlo.txt",
                18,
                "__gpu$xla.gpu.triton",
            ),
            (
                "pallas_in_context/compiled.tpu.hlo.txt",
                40,
                "tpu_custom_call",
            ),
            (
                "pallas_in_context/compiled.tpu.mosaic_tpu_input_fusion.hlo.txt",
                32,
                "tpu_custom_call",
            ),
            (
                "pallas_in_context/compiled.gpu.hlo.txt",
                44,
                "__gpu$xla.gpu.triton",
            ),
        ] {
            check(&format!("fixtures/{path}"), line, (Some(target), None));
        }
    }

    #[test]
    fn xla_tpu_s_own_mosaic_kernel_carries_none() {
        // The attention fixture's `online-softmax`: a `tpu_custom_call`
        // that no `pallas_call` made.
        let text = read("fixtures/attention/compiled.tpu.hlo.txt");
        let module = program::parse(&text);
        let own: Vec<_> = module
            .instructions
            .iter()
            .filter(|i| i.custom_call_target() == Some("tpu_custom_call"))
            .collect();
        assert!(!own.is_empty());
        assert!(own.iter().all(|i| cost_estimate(i).is_none()));
    }

    /// Every custom call a `pallas_call` made, in every compiled fixture,
    /// has a row in [`FORMS`]: a new kernel compiler cannot be read as
    /// "no estimate" without one. Of all their instructions, one states an
    /// estimate: the new family's TPU kernel.
    #[test]
    fn every_pallas_target_in_the_fixtures_has_a_row() {
        let root = format!("{}/../fixtures", env!("CARGO_MANIFEST_DIR"));
        let mut seen = std::collections::BTreeSet::new();
        let mut stated = Vec::new();
        let mut families: Vec<_> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        families.sort();
        for dir in families {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if !(name.starts_with("compiled.") && name.ends_with(".hlo.txt")) {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let module = program::parse(&text);
                for ins in &module.instructions {
                    if cost_estimate(ins).is_some() {
                        let family = dir.file_name().unwrap().to_string_lossy().into_owned();
                        stated.push(format!("{family}/{name}:{}", ins.line));
                    }
                    let pallas = ins
                        .metadata()
                        .op_name
                        .is_some_and(|o| o.ends_with("pallas_call"));
                    if ins.opcode == "custom-call" && pallas {
                        let row = form(ins);
                        assert!(row.is_some(), "{}:{}: no row", path.display(), ins.line);
                        seen.extend(row.map(|f| f.target));
                    }
                }
            }
        }
        assert_eq!(stated, ["pallas_cost_estimate/compiled.tpu.hlo.txt:19"]);
        // And every row is a target the fixtures show.
        let rows: std::collections::BTreeSet<_> = FORMS.iter().map(|f| f.target).collect();
        assert_eq!(seen, rows);
    }

    #[test]
    fn a_partial_or_odd_object_is_no_estimate() {
        for (object, expect) in [
            // The compiled form's object, after its key (real).
            (
                r#":{"flops":"262144","transcendentals":"262144","bytes_accessed":"3145728","remote_bytes_transferred":"0"},"needs_layout_passes":true"#,
                Some(STATED),
            ),
            (r#":{"flops":"1","transcendentals":"2"}"#, None),
            (
                r#":{"flops":"1","flops":"1","transcendentals":"2","bytes_accessed":"3"}"#,
                None,
            ),
            (
                r#":{"flops":"-1","transcendentals":"2","bytes_accessed":"3"}"#,
                None,
            ),
            (
                r#":{"flops":1.5,"transcendentals":2,"bytes_accessed":3}"#,
                None,
            ),
            (
                r#":{"flops":"1,"transcendentals":"2","bytes_accessed":"3"}"#,
                None,
            ),
            (r#":{}"#, None),
            (r#":{"flops":"1""#, None),
            (r#":"#, None),
            ("", None),
        ] {
            assert_eq!(read_object(object), expect, "{object}");
        }
    }
}
