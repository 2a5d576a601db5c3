//! Table tests: a dump in, the map rendered as short text out.

#![allow(clippy::unwrap_used)]

use super::*;

/// One line per lowered op: `name op @op_name -> file:line,... => kernels`,
/// then one per kernel: `kernel name kind/detail: file:line,...`.
fn render(m: &SourceMap) -> String {
    let lines = |ids: &[usize]| {
        ids.iter()
            .filter_map(|&i| m.line(i))
            .map(|l| format!("{}:{}", l.file, l.line))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut s = String::new();
    for o in &m.lowered_ops {
        let ks: Vec<&str> = o
            .kernels
            .iter()
            .filter_map(|&k| m.kernels.get(k))
            .map(|k| k.name.as_str())
            .collect();
        s.push_str(&format!(
            "{} {} @{} -> {}{}\n",
            o.name,
            o.op,
            o.op_name.as_deref().unwrap_or("-"),
            lines(&o.source_lines),
            if ks.is_empty() {
                String::new()
            } else {
                format!(" => {}", ks.join(","))
            }
        ));
    }
    for k in &m.kernels {
        s.push_str(&format!(
            "kernel {} {}{}: {}\n",
            k.name,
            k.kind.map_name(),
            k.detail
                .as_deref()
                .map(|d| format!("/{d}"))
                .unwrap_or_default(),
            lines(&k.source_lines)
        ));
    }
    if let Some(w) = &m.mismatch {
        s.push_str(&format!("mismatch: {w}\n"));
    }
    s
}

fn check(lowered: &str, compiled: &str, expect: &str) {
    let got = render(&map(lowered, compiled));
    assert_eq!(got.trim(), expect.trim(), "\n--- got ---\n{got}");
}

#[test]
fn loc_alias_chains() {
    // Named locations over file locations, aliases defined after use,
    // chains through several aliases.
    check(
        r#"module @jit_f {
  func.func public @main(%arg0: tensor<8xf32> loc("x")) -> (tensor<8xf32>) {
    %0 = stablehlo.sine %arg0 : tensor<8xf32> loc(#loc5)
    %1 = stablehlo.cosine %0 : tensor<8xf32> loc(#loc6)
    return %1 : tensor<8xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("f.py":3:8 to :19)
#loc3 = loc("f"(#loc2))
#loc4 = loc("f"("f.py":4:1))
#loc5 = loc("jit(f)/sin"(#loc3))
#loc6 = loc("jit(f)/cos"(#loc4))
"#,
        "",
        "%0 stablehlo.sine @jit(f)/sin -> f.py:3\n%1 stablehlo.cosine @jit(f)/cos -> f.py:4",
    );
}

#[test]
fn callsite_takes_the_callee_and_fused_takes_every_part() {
    check(
        r#"module @jit_f {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>) {
    %0 = stablehlo.sine %arg0 : tensor<8xf32> loc(#loc7)
    %1 = stablehlo.cosine %0 : tensor<8xf32> loc("jit(f)/cos"(callsite("g"("f.py":2:5) at "f"("f.py":9:1))))
    %2 = stablehlo.add %0, %1 : tensor<8xf32> loc(fused["jit(f)/add"("f.py":5:1), "f.py":6:2])
    %3 = stablehlo.tan %2 : tensor<8xf32> loc(fused<"meta">[#loc3, #loc4])
    %4 = stablehlo.abs %3 : tensor<8xf32> loc(callsite(unknown at #loc4))
    return %4 : tensor<8xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("g"("f.py":2:5 to :9))
#loc4 = loc("f"("f.py":10:1))
#loc6 = loc(callsite(#loc3 at #loc4))
#loc7 = loc("jit(f)/sin"(#loc6))
"#,
        "",
        r#"
%0 stablehlo.sine @jit(f)/sin -> f.py:2
%1 stablehlo.cosine @jit(f)/cos -> f.py:2
%2 stablehlo.add @jit(f)/add -> f.py:5,f.py:6
%3 stablehlo.tan @g -> f.py:2,f.py:10
%4 stablehlo.abs @f -> f.py:10
"#,
    );
}

#[test]
fn cyclic_and_dangling_aliases_end() {
    check(
        r#"%0 = stablehlo.sine %arg0 : tensor<8xf32> loc(#loc1)
%1 = stablehlo.cosine %0 : tensor<8xf32> loc(#nowhere)
%2 = stablehlo.add %0, %1 : tensor<8xf32> loc("unterminated
%3 = stablehlo.tan %2 : tensor<8xf32> loc(callsite(
#loc1 = loc("jit(f)/sin"(#loc2))
#loc2 = loc(callsite(#loc1 at #loc1))
"#,
        "",
        r#"
%0 stablehlo.sine @jit(f)/sin -> 
%1 stablehlo.cosine @- -> 
%2 stablehlo.add @- -> 
%3 stablehlo.tan @- -> 
"#,
    );
}

#[test]
fn region_ops_take_the_location_of_their_closing_line() {
    check(
        r#"module @jit_f {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<f32>) {
    %cst = stablehlo.constant dense<0.0> : tensor<f32> loc(#loc2)
    %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
     reducer(%arg1: tensor<f32> loc("reduce"), %arg2: tensor<f32> loc("reduce"))  {
      %1 = stablehlo.add %arg1, %arg2 : tensor<f32> loc(#loc2)
      stablehlo.return %1 : tensor<f32> loc(#loc2)
    } loc(#loc2)
    return %0 : tensor<f32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("jit(f)/reduce_sum"("f.py":7:3))
"#,
        "",
        r#"
%cst stablehlo.constant @jit(f)/reduce_sum -> f.py:7
%0 stablehlo.reduce @jit(f)/reduce_sum -> f.py:7
%1 stablehlo.add @jit(f)/reduce_sum -> f.py:7
"#,
    );
}

const OLD_STYLE: &str = r#"HloModule jit_f, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

%fused_computation (param_0: f32[8]) -> f32[8] {
  %param_0 = f32[8]{0} parameter(0)
  %sine.1 = f32[8]{0} sine(f32[8]{0} %param_0), metadata={op_name="jit(f)/sin" source_file="/tmp/f.py" source_line=3}
  ROOT %cosine.1 = f32[8]{0} cosine(f32[8]{0} %sine.1), metadata={op_name="jit(f)/cos" source_file="/tmp/f.py" source_line=4}
}

ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %fusion = f32[8]{0} fusion(f32[8]{0} %x), kind=kLoop, calls=%fused_computation
  %copy.1 = f32[8]{0} copy(f32[8]{0} %fusion)
  %constant.1 = f32[] constant(1)
  ROOT %tuple = (f32[8]{0}) tuple(%copy.1)
}
"#;

#[test]
fn old_style_source_file_metadata_maps() {
    check(
        r#"module @jit_f {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>) {
    %0 = stablehlo.sine %arg0 : tensor<8xf32> loc(#loc1)
    %1 = stablehlo.cosine %0 : tensor<8xf32> loc(#loc2)
    %2 = stablehlo.negate %1 : tensor<8xf32> loc(#loc3)
  }
}
#loc1 = loc("jit(f)/sin"("/tmp/f.py":3:1))
#loc2 = loc("jit(f)/cos"("/tmp/f.py":4:1))
#loc3 = loc("jit(f)/neg"("/tmp/f.py":5:1))
"#,
        OLD_STYLE,
        r#"
%0 stablehlo.sine @jit(f)/sin -> /tmp/f.py:3 => fusion
%1 stablehlo.cosine @jit(f)/cos -> /tmp/f.py:4 => fusion
%2 stablehlo.negate @jit(f)/neg -> /tmp/f.py:5
kernel fusion fusion/kLoop: /tmp/f.py:3,/tmp/f.py:4
kernel copy.1 copy: 
"#,
    );
    let m = map("", OLD_STYLE);
    let f = m.kernels.first().unwrap();
    assert_eq!(f.operand_shapes, ["f32[8]"]);
    assert_eq!((f.bytes_read, f.bytes_written), (Some(32), Some(32)));
    assert_eq!(f.ops, ["sine", "cosine"]);
    assert_eq!(
        m.compiled_signature.as_deref(),
        Some(&["f32[8]".to_owned()][..])
    );
    assert_eq!(
        m.kernels_without_source()
            .map(|k| k.name.as_str())
            .collect::<Vec<_>>(),
        ["copy.1"]
    );
}

#[test]
fn jaxpr_with_source_comments() {
    check(
        "{ lambda ; a:f32[8]. let\n    b:f32[8] = sin a  # /tmp/f.py:3:8 (f)\n    c:f32[8] = cos b  # /tmp/f.py:4 (f)\n    d:f32[8] = neg c\n  in (d,) }\n",
        OLD_STYLE,
        r#"
b sin @sin -> /tmp/f.py:3 => fusion
c cos @cos -> /tmp/f.py:4 => fusion
d neg @neg -> 
kernel fusion fusion/kLoop: /tmp/f.py:3,/tmp/f.py:4
kernel copy.1 copy: 
"#,
    );
    // As `jax.make_jaxpr(fn)(x).pretty_print(source_info=True)` prints it.
    check(
        "{ lambda ; a:f32[8]. let\n    b:f32[8] = sin a           # /tmp/jx.py:3:8 (fn)\n    c:f32[8] = cos b           # /tmp/jx.py:4:11 (fn)\n    d:f32[8] = mul c 2.0:f32[] # /tmp/jx.py:4:11 (fn)\n  in (d,) }\n",
        "",
        "b sin @sin -> /tmp/jx.py:3\nc cos @cos -> /tmp/jx.py:4\nd mul @mul -> /tmp/jx.py:4",
    );
    let m = map("{ lambda ; a:f32[8] b:i32[]. let\n  in (a,) }", "");
    assert_eq!(
        m.lowered_signature.as_deref(),
        Some(&["f32[8]".to_owned(), "s32[]".to_owned()][..])
    );
}

#[test]
fn signatures_from_mlir() {
    for (ty, want) in [
        ("tensor<1024x1024xf32>", "f32[1024,1024]"),
        ("tensor<f32>", "f32[]"),
        ("tensor<4xi1>", "pred[4]"),
        ("tensor<2x3xui8>", "u8[2,3]"),
        ("tensor<7xi32>", "s32[7]"),
        ("tensor<2xcomplex<f32>>", "c64[2]"),
        ("tensor<?x4xbf16>", "bf16[?,4]"),
        ("!stablehlo.token", "token[]"),
    ] {
        assert_eq!(lowered::mlir_type_to_hlo(ty), want, "{ty}");
    }
}

#[test]
fn different_functions_are_named_as_such() {
    let lowered = "module @jit_g {\n  func.func public @main(%arg0: tensor<16xf32>) -> (tensor<16xf32>) {\n    %0 = stablehlo.sine %arg0 : tensor<16xf32> loc(#loc1)\n  }\n}\n#loc1 = loc(\"jit(g)/sin\"(\"/tmp/g.py\":9:1))\n";
    let m = map(lowered, OLD_STYLE);
    let w = m.mismatch.unwrap_or_default();
    assert!(w.contains("different functions"), "{w}");
    assert!(w.contains("f32[16]") && w.contains("f32[8]"), "{w}");
    // Same file and line: one function, even if a shape changed.
    let same = lowered.replace("/tmp/g.py\":9", "/tmp/f.py\":3");
    assert_eq!(map(&same, OLD_STYLE).mismatch, None);
}

#[test]
fn kernels_are_the_entry_instructions_that_run_work() {
    let hlo = r#"HloModule m, is_scheduled=true

%body (p: (s32[], f32[8])) -> (s32[], f32[8]) {
  %p = (s32[], f32[8]{0}) parameter(0)
  ROOT %t = (s32[], f32[8]{0}) tuple(%i, %v), metadata={op_name="jit(f)/while/body" source_file="f.py" source_line=7}
}

%cond (p.1: (s32[], f32[8])) -> pred[] {
  %p.1 = (s32[], f32[8]{0}) parameter(0)
  ROOT %lt = pred[] compare(%a, %b), direction=LT, metadata={op_name="jit(f)/while/cond/lt" source_file="f.py" source_line=6}
}

ENTRY %main (a: f32[8], b: f32[8,4]) -> f32[8] {
  %a = f32[8]{0} parameter(0)
  %b = f32[8,4]{1,0} parameter(1)
  %c = f32[] constant(0)
  %bc = f32[4,8]{0,1} bitcast(%b)
  %cs = (f32[8]{0}, f32[8]{0}, u32[]) copy-start(%a)
  %cd = f32[8]{0} copy-done(%cs)
  %ar = f32[8]{0} all-reduce-start(%cd), replica_groups={}, to_apply=%cond
  %ard = f32[8]{0} all-reduce-done(%ar)
  %cc = f32[8]{0} custom-call(%ard), custom_call_target="__onednn$matmul", metadata={op_name="jit(f)/dot_general" source_file="f.py" source_line=5}
  %tup = (s32[], f32[8]{0}) tuple(%c, %cc)
  %w = (s32[], f32[8]{0}) while(%tup), condition=%cond, body=%body
  %g = f32[8]{0} get-tuple-element(%w), index=1
  ROOT %r = f32[8]{0} sort(%g), dimensions={0}
}
"#;
    check(
        "",
        hlo,
        r#"
kernel cs copy: 
kernel ar collective/all-reduce: f.py:6
kernel cc custom-call/__onednn$matmul: f.py:5
kernel w loop: f.py:6,f.py:7
kernel r op: 
"#,
    );
    let m = map("", hlo);
    let cc = m.kernels.iter().find(|k| k.name == "cc").unwrap();
    assert_eq!((cc.bytes_read, cc.bytes_written), (Some(32), Some(32)));
    let w = m.kernels.iter().find(|k| k.name == "w").unwrap();
    assert_eq!(w.operand_shapes, ["(s32[], f32[8])"]);
    // A loop is control flow, not a kernel: no traffic of its own.
    assert!(!w.kernel && cc.kernel);
    assert_eq!((w.bytes_read, w.bytes_written), (None, None));
    assert_eq!(m.kernel_count(), m.kernels.len() - 1);
    assert_eq!(w.ops, ["tuple", "compare"]);
    assert_eq!(
        m.compiled_signature.as_deref(),
        Some(&["f32[8]".to_owned(), "f32[8,4]".to_owned()][..])
    );
}

#[test]
fn hostile_text_maps_to_nothing_without_panicking() {
    let deep = format!(
        "%0 = stablehlo.sine %a loc({}\"f.py\":1:1{})",
        "\"n\"(".repeat(10_000),
        ")".repeat(10_000)
    );
    let nested_tuple = format!(
        "ENTRY %m {{\n  %x = {}f32[8]{} parameter(0)\n  ROOT %y = f32[8] negate(%x)\n}}\n",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let chain: String = (0..5000)
        .map(|i| format!("#l{i} = loc(#l{})\n", i + 1))
        .collect();
    let chain = format!("%0 = stablehlo.sine %a loc(#l0)\n{chain}");
    for (lw, cp) in [
        (deep.as_str(), ""),
        ("", nested_tuple.as_str()),
        (chain.as_str(), ""),
        ("\u{0}\u{1}\u{fffd}", "\u{0}ENTRY {"),
        ("loc(loc(loc(", "%a = f32[ fusion("),
        (
            "#loc = loc(#loc)\n%0 = a.b %x loc(#loc)",
            "ENTRY %m {\n ROOT %f = f32[8]{0} fusion(), calls=%m\n}\n",
        ),
    ] {
        let m = map(lw, cp);
        let _ = json::to_json(&m);
    }
    // Many kernels sharing one huge computation: the walk stops at its
    // budget and says so (this would otherwise take kernels × size steps).
    let mut big = String::from("%huge (p: f32[]) -> f32[] {\n");
    for i in 0..3000 {
        big.push_str(&format!(
            "  %a.{i} = f32[] add(%p, %p), metadata={{op_name=\"a\" source_file=\"f.py\" source_line={i}}}\n"
        ));
    }
    big.push_str("}\n\nENTRY %m (p: f32[]) -> f32[] {\n  %p = f32[] parameter(0)\n");
    for i in 0..3000 {
        big.push_str(&format!("  %c.{i} = f32[] call(%p), to_apply=%huge\n"));
    }
    big.push_str("}\n");
    let m = map("", &big);
    assert_eq!(m.kernels.len(), 3000);
    assert!(m.truncated);
    assert_eq!(m.kernels.first().map(|k| k.source_lines.len()), Some(3000));
    assert!(!map("", OLD_STYLE).truncated);
    // A computation calling itself: the walk ends.
    let m = map(
        "",
        "ENTRY %m {\n ROOT %f = f32[8]{0} fusion(), kind=kLoop, calls=%m, metadata={op_name=\"a\" source_file=\"f.py\" source_line=1}\n}\n",
    );
    assert_eq!(m.kernels.len(), 1);
}

fn fixture(family: &str, file: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(family)
        .join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn elementwise_chain_lands_in_its_one_fusion_on_every_backend() {
    let lowered = fixture("elementwise_chain", "lowered.stablehlo.mlir");
    for backend in ["cpu", "gpu", "tpu"] {
        let compiled = fixture("elementwise_chain", &format!("compiled.{backend}.hlo.txt"));
        let m = map(&lowered, &compiled);
        assert_eq!(m.mismatch, None, "{backend}");
        let fusions: Vec<&Kernel> = m
            .kernels
            .iter()
            .filter(|k| k.kind == KernelKind::Fusion)
            .collect();
        assert_eq!(fusions.len(), 1, "{backend}: {:?}", m.kernels);
        let f = fusions.first().unwrap();
        let lines: Vec<u32> = m.source_lines.iter().map(|e| e.source.line).collect();
        assert_eq!(lines, [16, 17, 18, 19], "{backend}");
        for e in &m.source_lines {
            assert_eq!(e.source.file, "fixtures/elementwise_chain/function.py");
            let names: Vec<&str> = e
                .kernels
                .iter()
                .filter_map(|&k| m.kernels.get(k))
                .map(|k| k.name.as_str())
                .collect();
            assert!(
                names.contains(&f.name.as_str()),
                "{backend}: line {} in {names:?}",
                e.source.line
            );
        }
        // Every lowered op with a line lands in the fusion, apart from
        // the constants and broadcasts XLA folds into its own ops.
        let landed: Vec<&str> = f
            .lowered_ops
            .iter()
            .filter_map(|&i| m.lowered_ops.get(i))
            .map(|o| o.op.as_str())
            .collect();
        for op in [
            "stablehlo.add",
            "stablehlo.tanh",
            "stablehlo.negate",
            "stablehlo.exponential",
            "stablehlo.maximum",
        ] {
            assert!(landed.contains(&op), "{backend}: {op} not in {landed:?}");
        }
        assert_eq!(f.bytes_written, Some(4 * 1024 * 1024), "{backend}");
    }
}

#[test]
fn cpu_softmax_kernels_each_name_line_18() {
    let m = map(
        &fixture("softmax", "lowered.stablehlo.mlir"),
        &fixture("softmax", "compiled.cpu.hlo.txt"),
    );
    let line18 = SourceLine {
        file: "fixtures/softmax/function.py".to_owned(),
        line: 18,
    };
    let got: Vec<(&str, &str, Vec<&SourceLine>)> = m
        .kernels
        .iter()
        .map(|k| {
            (
                k.name.as_str(),
                k.detail.as_deref().unwrap_or(""),
                k.source_lines.iter().filter_map(|&i| m.line(i)).collect(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("ynn_fusion.1", "kCustom __ynn_fusion", vec![&line18]),
            ("ynn_fusion", "kCustom __ynn_fusion", vec![&line18]),
            ("broadcast_divide_fusion", "kLoop", vec![&line18]),
            ("broadcast_multiply_fusion", "kLoop", vec![&line18]),
        ]
    );
    // The exp lands in the first fusion, the sum in the second.
    let ops_of = |name: &str| -> Vec<String> {
        let k = m.kernels.iter().find(|k| k.name == name).unwrap();
        k.lowered_ops
            .iter()
            .filter_map(|&i| m.lowered_ops.get(i))
            .map(|o| o.op.clone())
            .collect()
    };
    assert!(ops_of("ynn_fusion.1").contains(&"stablehlo.exponential".to_owned()));
    assert!(ops_of("ynn_fusion").iter().any(|o| o == "stablehlo.reduce"));
    assert!(
        !ops_of("ynn_fusion")
            .iter()
            .any(|o| o == "stablehlo.exponential")
    );
    assert!(ops_of("broadcast_multiply_fusion").contains(&"stablehlo.divide".to_owned()));
}

/// The lowered signature as each device of a compiled module sees it: every
/// global shape divided by its entry parameter's tiled `sharding=` (the
/// signature unchanged for a module without `num_partitions`).
fn per_device(compiled: &str, lowered: Option<Vec<String>>) -> Option<Vec<String>> {
    use crate::program::{Dim, Shape, ShardingKind};
    let module = crate::program::parse(compiled);
    if module
        .header
        .as_ref()
        .and_then(|h| h.num_partitions())
        .is_none()
    {
        return lowered;
    }
    let entry = module.entry_computation()?;
    let mut out = Vec::new();
    for (shape, &param) in lowered?.iter().zip(&entry.params) {
        let ins = module.instruction(param)?;
        let Shape::Array(a) = Shape::parse(shape) else {
            return None;
        };
        let global: Vec<u64> = a
            .dims
            .iter()
            .map(|d| match d {
                Dim::Static(n) => Some(*n),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let dims = match module.sharding(ins).map(|s| s.kind) {
            Some(ShardingKind::Tiled(t)) => t.shard_shape(&global)?,
            _ => global,
        };
        let dims: Vec<String> = dims.iter().map(u64::to_string).collect();
        out.push(format!("{}[{}]", a.element, dims.join(",")));
    }
    Some(out)
}

#[test]
fn every_fixture_family_maps_without_mismatch() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut families = 0;
    let mut unmatched = Vec::new();
    for e in std::fs::read_dir(&root).unwrap() {
        let dir = e.unwrap().path();
        if !dir.join("fixture.toml").is_file() {
            continue;
        }
        families += 1;
        let fam = dir.file_name().unwrap().to_string_lossy().into_owned();
        for lowered in ["lowered.stablehlo.mlir", "jaxpr.txt", "lowered.hlo.txt"] {
            for backend in ["cpu", "gpu", "tpu"] {
                let c = dir.join(format!("compiled.{backend}.hlo.txt"));
                let Ok(compiled) = std::fs::read_to_string(&c) else {
                    continue;
                };
                let m = map(&fixture(&fam, lowered), &compiled);
                assert_eq!(m.mismatch, None, "{fam} {lowered} {backend}");
                assert!(!m.kernels.is_empty(), "{fam} {backend}");
                if lowered != "jaxpr.txt" {
                    // A sharded module's parameters are each device's part
                    // of the lowered ones, by their `sharding=`.
                    assert_eq!(
                        per_device(&compiled, m.lowered_signature.clone()),
                        m.compiled_signature,
                        "{fam} {lowered} {backend}"
                    );
                }
                if lowered == "lowered.stablehlo.mlir"
                    && !m.kernels.iter().any(|k| !k.lowered_ops.is_empty())
                {
                    unmatched.push(format!("{fam} {backend}"));
                }
            }
        }
    }
    assert!(families > 20, "{families}");
    unmatched.sort();
    // XLA:TPU keeps no metadata on cumsum's kernels: provenance lost, and
    // the map says so rather than guessing.
    assert_eq!(unmatched, ["cumsum tpu"]);
    // Two families against each other: different functions.
    let m = map(
        &fixture("softmax", "lowered.stablehlo.mlir"),
        &fixture("matmul", "compiled.cpu.hlo.txt"),
    );
    assert!(m.mismatch.is_some(), "{:?}", m.lowered_signature);
}

#[test]
fn a_copy_start_writes_its_copy_not_the_aliased_source() {
    let hlo = "HloModule m, is_scheduled=true\n\nENTRY %main (x: f32[512,1024]) -> f32[512,1024] {\n  %x = f32[512,1024]{1,0} parameter(0)\n  %copy-start = (f32[512,1024]{1,0:S(1)}, f32[512,1024]{1,0}, u32[]) copy-start(%x)\n  ROOT %copy-done = f32[512,1024]{1,0:S(1)} copy-done(%copy-start)\n}\n";
    let m = map("", hlo);
    let cs = m.kernels.iter().find(|k| k.name == "copy-start").unwrap();
    assert_eq!(cs.bytes_written, Some(2 * 1024 * 1024));
    assert_eq!(cs.bytes_read, Some(2 * 1024 * 1024));
    assert_eq!(
        m.kernel_count(),
        1,
        "copy-done is the other half, not a kernel"
    );
}

/// Where no lowered op carries a location, the map says what the text
/// lacks and the call that prints it with them, for its format; a text
/// with locations gets no hint.
#[test]
fn an_unlocated_lowered_text_says_how_to_print_its_locations() {
    let drift = |file: &str| {
        std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/drift/jax-0.10.2")
                .join(file),
        )
        .unwrap()
    };
    let compiled = drift("mlp.compiled.cpu.hlo.txt");
    for (lowered, want) in [
        (
            drift("mlp.lowered.stablehlo.mlir"),
            Some("as_text(debug_info=True)"),
        ),
        (
            drift("mlp.lowered.hlo.txt"),
            Some("as_text(dialect=\"hlo\", debug_info=True)"),
        ),
        (
            drift("mlp.jaxpr.txt"),
            Some("pretty_print(source_info=True)"),
        ),
        (fixture("layernorm", "lowered.stablehlo.mlir"), None),
    ] {
        let m = map(&lowered, &compiled);
        match want {
            Some(call) => assert!(
                m.unlocated_hint().is_some_and(|h| h.contains(call)),
                "{:?}",
                m.unlocated_hint()
            ),
            None => assert_eq!(m.unlocated_hint(), None),
        }
    }
}
