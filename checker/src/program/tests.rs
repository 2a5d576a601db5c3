//! Table tests of the syntax layer on real lines of every printer in the
//! fixtures and the drift corpus.

use super::*;

/// A shape as its parsed fields print it: `f32[8,128]{1,0:T(8,128)(2,1)S(1)}`.
fn shape(s: &Shape<'_>) -> String {
    match s {
        Shape::Array(a) => {
            let mut out = format!("{}[", a.element);
            let dims: Vec<String> = a
                .dims
                .iter()
                .map(|d| match d {
                    Dim::Static(n) => n.to_string(),
                    Dim::Bounded(n) => format!("<={n}"),
                    Dim::Unknown => "?".to_owned(),
                })
                .collect();
            out.push_str(&dims.join(","));
            out.push(']');
            if let Some(l) = &a.layout {
                let m2m: Vec<String> = l.minor_to_major.iter().map(u32::to_string).collect();
                out.push('{');
                out.push_str(&m2m.join(","));
                if !l.tiles.is_empty() || l.memory_space.is_some() {
                    out.push(':');
                }
                if !l.tiles.is_empty() {
                    out.push('T');
                }
                for t in &l.tiles {
                    let d: Vec<String> = t
                        .iter()
                        .map(|d| d.map_or("*".to_owned(), |n| n.to_string()))
                        .collect();
                    out.push_str(&format!("({})", d.join(",")));
                }
                if let Some(s) = l.memory_space {
                    out.push_str(&format!("S({s})"));
                }
                out.push('}');
            }
            out
        }
        Shape::Tuple(parts, _) => {
            let p: Vec<String> = parts.iter().map(shape).collect();
            format!("({})", p.join(", "))
        }
        Shape::Unread(t) => format!("?{t}?"),
    }
}

/// One instruction as its parsed fields print it.
fn describe<'a>(m: &Module<'a>, i: &Instruction<'a>) -> String {
    let name_of = |id: Option<InstrId>| {
        id.and_then(|id| m.instruction(id))
            .map_or("-".to_owned(), |i| i.name.to_owned())
    };
    let ops: Vec<String> = m
        .operands(i)
        .iter()
        .map(|o| {
            let s = o.shape.map(|s| format!("{} ", shape(&Shape::parse(s))));
            format!("{}{}@{}", s.unwrap_or_default(), o.name, name_of(o.id))
        })
        .collect();
    let mut out = format!(
        "{}{} = {} {}({})",
        if i.is_root { "ROOT " } else { "" },
        i.name,
        shape(&i.shape()),
        i.opcode,
        ops.join(", ")
    );
    for c in m.calls(i) {
        out.push_str(&format!(" {:?}={}", c.role, c.name));
    }
    if let Some(k) = i.fusion_kind() {
        out.push_str(&format!(" kind={k}"));
    }
    if let Some(t) = i.custom_call_target() {
        out.push_str(&format!(" target={t}"));
    }
    if let Some(k) = i.config_kind() {
        out.push_str(&format!(" config_kind={k}"));
    }
    let md = &i.metadata();
    if let Some(o) = md.op_name {
        out.push_str(&format!(" op_name={o}"));
    }
    if let Some(o) = md.op_type {
        out.push_str(&format!(" op_type={o}"));
    }
    for f in m.frames(i) {
        out.push_str(&format!(" at {}:{}", f.file, f.line));
        if let Some(func) = f.function {
            out.push_str(&format!(" ({func})"));
        }
    }
    out
}

/// Reads `input` and checks the description of its last instruction.
fn check(input: &str, expect: &str) {
    let m = parse(input);
    let got = m
        .instructions
        .last()
        .map_or("no instruction".to_owned(), |i| describe(&m, i));
    assert_eq!(got, expect, "\n{input}");
}

#[test]
fn instructions_of_every_printer() {
    // JAX 0.4.13 (CPU): operand shapes before the names, source_file/line.
    check(
        r#"  %multiply.0 = f32[8,128]{1,0} multiply(f32[8,128]{1,0} %param_0.1, f32[8,128]{1,0} %broadcast.0), metadata={op_name="jit(loop)/jit(main)/while/body/mul" source_file="checker/tests/drift/functions/jax_fns.py" source_line=20}"#,
        "multiply.0 = f32[8,128]{1,0} multiply(f32[8,128]{1,0} param_0.1@-, f32[8,128]{1,0} broadcast.0@-) op_name=jit(loop)/jit(main)/while/body/mul at checker/tests/drift/functions/jax_fns.py:20",
    );
    // JAX 0.4.20 to 0.4.30: the same habits, in a ROOT fusion.
    check(
        r#"  ROOT %fusion = f32[8]{0} fusion(f32[8,32]{1,0} %dot.5, f32[32]{0} %Arg_2.3), kind=kLoop, calls=%fused_computation, metadata={op_name="jit(mlp)/jit(main)/reduce_sum[axes=(1,)]" source_file="checker/tests/drift/functions/jax_fns.py" source_line=10}"#,
        "ROOT fusion = f32[8]{0} fusion(f32[8,32]{1,0} dot.5@-, f32[32]{0} Arg_2.3@-) Calls=fused_computation kind=kLoop op_name=jit(mlp)/jit(main)/reduce_sum[axes=(1,)] at checker/tests/drift/functions/jax_fns.py:10",
    );
    // JAX 0.5.3 / 0.6.2: bare operand names.
    check(
        r#"  ROOT %maximum_reduce_fusion = f32[8]{0} fusion(%dot.5, %Arg_2.3), kind=kLoop, calls=%fused_computation, metadata={op_name="jit(mlp)/jit(main)/reduce_sum" source_file="checker/tests/drift/functions/jax_fns.py" source_line=10}"#,
        "ROOT maximum_reduce_fusion = f32[8]{0} fusion(dot.5@-, Arg_2.3@-) Calls=fused_computation kind=kLoop op_name=jit(mlp)/jit(main)/reduce_sum at checker/tests/drift/functions/jax_fns.py:10",
    );
    // JAX 0.7.2: source columns beside the line.
    check(
        r#"  ROOT %maximum_reduce_fusion = f32[8]{0} fusion(%dot_general.1, %b.1), kind=kLoop, calls=%fused_computation, metadata={op_name="jit(mlp)/reduce_sum" source_file="checker/tests/drift/functions/jax_fns.py" source_line=10 source_end_line=10 source_column=11 source_end_column=46}"#,
        "ROOT maximum_reduce_fusion = f32[8]{0} fusion(dot_general.1@-, b.1@-) Calls=fused_computation kind=kLoop op_name=jit(mlp)/reduce_sum at checker/tests/drift/functions/jax_fns.py:10",
    );
    // JAX 0.10.2 (CPU): a YNN fusion, the kind in its backend config.
    check(
        r#"  %ynn_fusion = f32[8,32]{1,0} fusion(%x.1, %w.1), kind=kCustom, calls=%fused_computation, metadata={op_name="jit(mlp)/dot_general" stack_frame_id=6}, backend_config={"fusion_config":{"kind":"__ynn_fusion"},"outer_dimension_partitions":[]}"#,
        "ynn_fusion = f32[8,32]{1,0} fusion(x.1@-, w.1@-) Calls=fused_computation kind=kCustom config_kind=__ynn_fusion op_name=jit(mlp)/dot_general",
    );
    // TensorFlow 2.21: op_type beside op_name, frontend attributes.
    check(
        r#"  %MatMul.2 = f32[8,32]{1,0} dot(f32[8,16]{1,0} %reshape.3, f32[16,32]{1,0} %reshape.4), lhs_contracting_dims={1}, rhs_contracting_dims={0}, frontend_attributes={grad_x="false",grad_y="false"}, metadata={op_type="MatMul" op_name="MatMul" source_file="<site-packages>/tensorflow/python/framework/ops.py" source_line=1221}"#,
        "MatMul.2 = f32[8,32]{1,0} dot(f32[8,16]{1,0} reshape.3@-, f32[16,32]{1,0} reshape.4@-) op_name=MatMul op_type=MatMul at <site-packages>/tensorflow/python/framework/ops.py:1221",
    );
    // PyTorch/XLA 2.9: a reducer, scalar operands with their shapes.
    check(
        "  %x.16 = f32[] parameter(0)\n  %y.17 = f32[] parameter(1)\n  ROOT %add.18 = f32[] add(f32[] %x.16, f32[] %y.17)",
        "ROOT add.18 = f32[] add(f32[] x.16@x.16, f32[] y.17@y.17)",
    );
    // A custom call into oneDNN (JAX 0.4.13 CPU).
    check(
        r#"  ROOT %custom-call = f32[8,128]{1,0} custom-call(f32[8,128]{1,0} %Arg_0.1), custom_call_target="__onednn$softmax", metadata={op_name="jit(softmax)/jit(main)/div" source_file="checker/tests/drift/functions/jax_fns.py" source_line=15}, backend_config={"outer_dimension_partitions":[],"onednn_softmax_config":{"softmax_axis":1}}"#,
        "ROOT custom-call = f32[8,128]{1,0} custom-call(f32[8,128]{1,0} Arg_0.1@-) target=__onednn$softmax op_name=jit(softmax)/jit(main)/div at checker/tests/drift/functions/jax_fns.py:15",
    );
}

#[test]
fn shapes_tiles_and_memory_spaces() {
    // TPU: a tuple with tiles and memory spaces, `{:S(2)}` on a scalar.
    check(
        "  %copy-start = (f32[256,1000]{0,1:T(8,128)S(1)}, f32[256,1000]{0,1:T(8,128)}, u32[]{:S(2)}) copy-start(%x.1), cross_program_prefetch_index=0",
        "copy-start = (f32[256,1000]{0,1:T(8,128)S(1)}, f32[256,1000]{0,1:T(8,128)}, u32[]{:S(2)}) copy-start(x.1@-)",
    );
    // TPU: tiles of tiles, a reducer.
    check(
        r#"  ROOT %reduce.2 = (bf16[256]{0:T(256)(128)(2,1)}, s32[256]{0:T(256)}) reduce(%param_0, %iota.5, %constant.5, %constant.4), dimensions={1}, to_apply=%region_0.1, metadata={op_name="jit(fn)/reduce" stack_frame_id=1}"#,
        "ROOT reduce.2 = (bf16[256]{0:T(256)(128)(2,1)}, s32[256]{0:T(256)}) reduce(param_0@-, iota.5@-, constant.5@-, constant.4@-) ToApply=region_0.1 op_name=jit(fn)/reduce",
    );
    // A while's tuple with XLA's `/*index=5*/` before the sixth element.
    check(
        r#"  %while = (s32[], f32[8,64]{1,0:T(8,128)}, f32[16,8,64]{2,1,0:T(8,128)}, bf16[16,8,32]{2,1,0:T(8,128)(2,1)}, bf16[32,64]{1,0:T(8,128)(2,1)}, /*index=5*/bf16[64,64]{1,0:T(8,128)(2,1)}, s32[]) while(%tuple.1), condition=%region_1.3, body=%region_0.2"#,
        "while = (s32[], f32[8,64]{1,0:T(8,128)}, f32[16,8,64]{2,1,0:T(8,128)}, bf16[16,8,32]{2,1,0:T(8,128)(2,1)}, bf16[32,64]{1,0:T(8,128)(2,1)}, bf16[64,64]{1,0:T(8,128)(2,1)}, s32[]) while(tuple.1@-) Condition=region_1.3 Body=region_0.2",
    );
    let cases: &[(&str, Option<u64>, &str)] = &[
        ("f32[8,128]{1,0:T(8,128)S(1)}", Some(4096), "f32[8,128]"),
        ("(f32[8]{0}, s32[])", Some(36), "(f32[8], s32[])"),
        ("f32[<=8,4]{1,0}", Some(128), "f32[<=8,4]"),
        ("f32[?,4]", None, "f32[?,4]"),
        ("bf16[3]", Some(6), "bf16[3]"),
        ("s4[3]", Some(2), "s4[3]"),
        ("token[]", Some(0), "token[]"),
        ("()", Some(0), "()"),
        ("weird[8]", None, "weird[8]"),
    ];
    for &(s, bytes, plain) in cases {
        let sh = Shape::parse(s);
        assert_eq!(sh.bytes(), bytes, "{s}");
        assert_eq!(sh.without_layout(), plain, "{s}");
    }
}

#[test]
fn the_two_bugs_of_the_old_reader() {
    // (a) `/*index=5*/` before the sixth operand: six operands, all found.
    let text = "ENTRY %main.1 (a.1: f32[8], b.1: f32[8], c.1: f32[8], d.1: f32[8], e.1: f32[8], f.1: f32[8]) -> f32[8] {\n  %a.1 = f32[8]{0} parameter(0)\n  %b.1 = f32[8]{0} parameter(1)\n  %c.1 = f32[8]{0} parameter(2)\n  %d.1 = f32[8]{0} parameter(3)\n  %e.1 = f32[8]{0} parameter(4)\n  %f.1 = f32[8]{0} parameter(5)\n  ROOT %call = f32[8]{0} custom-call(%a.1, %b.1, %c.1, %d.1, %e.1, /*index=5*/%f.1), custom_call_target=\"tpu_custom_call\"\n}\n";
    check(
        text,
        "ROOT call = f32[8]{0} custom-call(a.1@a.1, b.1@b.1, c.1@c.1, d.1@d.1, e.1@e.1, f.1@f.1) target=tpu_custom_call",
    );
    let m = parse(text);
    assert_eq!(m.entry_signature().map(|s| s.len()), Some(6));
    assert!(m.unread.is_empty(), "{:?}", m.unread);
    // (b) a backend_config over several lines ends neither the instruction
    // nor the computation.
    let text = "HloModule jit_f, is_scheduled=true\n\nENTRY %main (x: f32[8]) -> f32[8] {\n  %x = f32[8]{0} parameter(0)\n  %a = f32[8]{0} fusion(%x), kind=kCustom, calls=%f, backend_config={\n \"fusion_config\":{\n \"kind\":\"__ynn_fusion\"\n }\n }\n  %b = f32[8]{0} fusion(%a), kind=kLoop, calls=%g\n  ROOT %c = f32[8]{0} fusion(%b), kind=kLoop, calls=%g\n}\n";
    let m = parse(text);
    assert!(m.unread.is_empty(), "{:?}", m.unread);
    let entry = m.entry_computation().map(|c| c.instruction_ids().len());
    assert_eq!(entry, Some(4));
    let a = m
        .instructions
        .get(1)
        .map(|i| (i.line, i.end_line(), i.config_kind()));
    assert_eq!(a, Some((5, 9, Some("__ynn_fusion"))));
    check(text, "ROOT c = f32[8]{0} fusion(b@b) Calls=g kind=kLoop");
}

/// The start of fixtures/fori_loop_while/compiled.cpu.hlo.txt.
const FORI: &str = r#"HloModule jit_fn, is_scheduled=true, entry_computation_layout={(f32[128,128]{1,0}, s32[])->f32[128,128]{1,0}}, allow_spmd_sharding_propagation_to_parameters={true,true}, allow_spmd_sharding_propagation_to_output={true}

FileNames
1 "fixtures/fori_loop_while/function.py"

FunctionNames
1 "fn"
2 "fn.<locals>.body"

FileLocations
1 {file_name_id=1 function_name_id=1 line=20 end_line=20 column=11 end_column=39}
2 {file_name_id=1 function_name_id=2 line=18 end_line=18 column=24 end_column=33}
3 {file_name_id=1 function_name_id=2 line=18 end_line=18 column=15 end_column=40}

StackFrames
1 {file_location_id=1 parent_frame_id=1}
2 {file_location_id=2 parent_frame_id=2}
3 {file_location_id=3 parent_frame_id=2}


%fused_computation (param_0.2: f32[128,128]) -> f32[128,128] {
  %param_0.2 = f32[128,128]{1,0} parameter(0)
  %constant.1 = f32[] constant(1.5)
  %broadcast.1 = f32[128,128]{1,0} broadcast(%constant.1), dimensions={}
  %mul.0 = f32[128,128]{1,0} multiply(%param_0.2, %broadcast.1), metadata={op_name="jit(fn)/while/body/mul" stack_frame_id=2}
  %constant.0 = f32[] constant(0.1)
  %broadcast.0 = f32[128,128]{1,0} broadcast(%constant.0), dimensions={}
  %add.0 = f32[128,128]{1,0} add(%mul.0, %broadcast.0), metadata={op_name="jit(fn)/while/body/add" stack_frame_id=2}
  ROOT %tanh.0 = f32[128,128]{1,0} tanh(%add.0), metadata={op_name="jit(fn)/while/body/tanh" stack_frame_id=3}
}
"#;

#[test]
fn header_tables_users_and_frames() {
    let m = parse(FORI);
    let h = m.header.clone().unwrap_or_default();
    assert_eq!(h.name, "jit_fn");
    assert!(h.is_scheduled);
    assert_eq!(
        h.entry_computation_layout,
        Some("{(f32[128,128]{1,0}, s32[])->f32[128,128]{1,0}}")
    );
    let keys: Vec<&str> = h.attrs.iter().map(|a| a.key).collect();
    assert_eq!(
        keys,
        [
            "allow_spmd_sharding_propagation_to_parameters",
            "allow_spmd_sharding_propagation_to_output"
        ]
    );
    assert!(m.unread.is_empty(), "{:?}", m.unread);
    let c = m.computations.first().cloned().unwrap_or_default();
    assert_eq!(
        (c.name, c.line, c.is_entry),
        ("fused_computation", 21, false)
    );
    assert_eq!(c.params, [0]);
    assert_eq!(c.root, Some(7));
    // Users: %mul.0 is used by %add.0, which %tanh.0 uses.
    let users = |n: &str| -> Vec<&str> {
        m.instructions
            .iter()
            .find(|i| i.name == n)
            .map(|i| {
                m.users(i)
                    .iter()
                    .filter_map(|&u| m.instruction(u))
                    .map(|u| u.name)
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(users("mul.0"), ["add.0"]);
    assert_eq!(users("add.0"), ["tanh.0"]);
    assert_eq!(users("param_0.2"), ["mul.0"]);
    assert!(m.instructions.iter().all(|i| i.percent));
    // `as_text(dialect="hlo")` prints bare names.
    let bare = parse(
        "ENTRY main.4 {\n  Arg_0.1 = f32[8]{0} parameter(0)\n  ROOT sine.2 = f32[8]{0} sine(Arg_0.1)\n}\n",
    );
    assert!(bare.instructions.iter().all(|i| !i.percent));
    assert_eq!(bare.entry_computation().map(|c| c.name), Some("main.4"));
    check(
        FORI,
        "ROOT tanh.0 = f32[128,128]{1,0} tanh(add.0@add.0) op_name=jit(fn)/while/body/tanh at fixtures/fori_loop_while/function.py:18 (fn.<locals>.body) at fixtures/fori_loop_while/function.py:20 (fn)",
    );
    // Frame 3 (the loop body, line 18) was called from frame 1 (line 20,
    // `parent_frame_id=2`), which has no parent (`parent_frame_id=1`).
    let frames: Vec<(u32, Option<&str>)> = m
        .sources
        .frames(3)
        .iter()
        .map(|f| (f.line, f.function))
        .collect();
    assert_eq!(frames, [(18, Some("fn.<locals>.body")), (20, Some("fn"))]);
}

#[test]
fn stack_frames_innermost_first() {
    // fixtures/remat_checkpoint/compiled.cpu.hlo.txt: fn (line 28) calls
    // loss (line 24), which calls block (line 20).
    let text = "FileNames\n1 \"fixtures/remat_checkpoint/function.py\"\n\nFunctionNames\n1 \"fn\"\n2 \"loss\"\n3 \"block\"\n\nFileLocations\n1 {file_name_id=1 function_name_id=1 line=28 end_line=28 column=11 end_column=52}\n2 {file_name_id=1 function_name_id=2 line=24 end_line=24 column=19 end_column=40}\n3 {file_name_id=1 function_name_id=3 line=20 end_line=20 column=29 end_column=35}\n\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n2 {file_location_id=2 parent_frame_id=2}\n3 {file_location_id=3 parent_frame_id=1}\n6 {file_location_id=3 parent_frame_id=3}\n";
    let m = parse(text);
    let chain = |f: u32| -> Vec<String> {
        m.sources
            .frames(f)
            .iter()
            .map(|f| format!("{}:{}", f.function.unwrap_or("?"), f.line))
            .collect()
    };
    assert_eq!(chain(6), ["block:20", "loss:24", "fn:28"]);
    assert_eq!(chain(3), ["block:20"]);
    assert_eq!(chain(1), ["fn:28"]);
    assert!(m.unread.is_empty(), "{:?}", m.unread);
}

#[test]
fn headers_of_other_printers() {
    let cases: &[(&str, &str, bool, usize)] = &[
        // JAX 0.10.2 (CPU), with frontend attributes.
        (
            r#"HloModule jit_fn, is_scheduled=true, entry_computation_layout={(f32[64,128]{1,0}, f32[128]{0}, f32[128,16]{1,0}, f32[16]{0}, f32[32,64]{1,0}, /*index=5*/f32[32,16]{1,0})->(f32[64,128]{1,0}, f32[128]{0}, f32[128,16]{1,0}, f32[16]{0})}, allow_spmd_sharding_propagation_to_parameters={false,false,false,false,false,false}, allow_spmd_sharding_propagation_to_output={true,true,true,true}, frontend_attributes={fingerprint_before_lhs="dc3c1e2679300e21c08edd3a1a1356e7",xla.sdy.meshes={empty_mesh = #sdy.mesh<[]>}}"#,
            "jit_fn",
            true,
            2,
        ),
        // TensorFlow 2.21.
        (
            "HloModule a_inference_mlp_23__.2, is_scheduled=true, alias_passthrough_params=true, entry_computation_layout={(f32[8,16]{1,0}, f32[16,32]{1,0}, f32[32]{0})->f32[8]{0}}",
            "a_inference_mlp_23__.2",
            true,
            1,
        ),
        // PyTorch/XLA 2.9: not scheduled.
        (
            "HloModule IrToHlo.21, entry_computation_layout={(f32[32]{0}, f32[16,32]{1,0}, f32[8,16]{1,0})->(f32[8]{0})}",
            "IrToHlo.21",
            false,
            0,
        ),
    ];
    for &(line, name, scheduled, others) in cases {
        let m = parse(line);
        let h = m.header.clone().unwrap_or_default();
        assert_eq!(
            (h.name, h.is_scheduled, h.attrs.len()),
            (name, scheduled, others),
            "{line}"
        );
        assert!(h.entry_computation_layout.is_some(), "{line}");
    }
    let m = parse(cases.first().map_or("", |c| c.0));
    let fa = m.header.and_then(|h| h.frontend_attributes);
    assert!(fa.is_some_and(|f| f.ends_with("#sdy.mesh<[]>}}")));
}

#[test]
fn damaged_text_says_what_it_could_not_read() {
    let cases: &[(&str, &[(usize, &str)])] = &[
        // A cut line: its brackets never close before the next instruction.
        (
            "  %a = f32[8]{0} fusion(%x, %y\n  %b = f32[8]{0} add(%a, %a)\n",
            &[(1, "cut: brackets not closed")],
        ),
        // Prose pasted in between.
        (
            "Here is my dump:\n  %b = f32[8]{0} add(%a, %a)\n",
            &[(1, "not an HLO line")],
        ),
        // A line that starts like an instruction but has no opcode.
        (
            "  %b = f32[8]{0}\n",
            &[(1, "not an instruction: no opcode after the shape")],
        ),
    ];
    for &(text, want) in cases {
        let m = parse(text);
        let got: Vec<(usize, &str)> = m.unread.iter().map(|u| (u.line, u.reason)).collect();
        assert_eq!(got, want, "{text}");
    }
    // A headerless excerpt: instructions outside any computation, their
    // operands still resolved among themselves.
    check(
        "  %a = f32[8]{0} exponential(%x)\n  %b = f32[8]{0} add(%a, %a)\n",
        "b = f32[8]{0} add(a@a, a@a)",
    );
}

/// A lowered dump's ops as `line name op [op path] file:line...`.
fn lowered_ops(text: &str) -> Vec<String> {
    lowered::read(text)
        .ops
        .iter()
        .map(|o| {
            let mut s = format!("{} {} {}", o.line, o.name, o.op);
            if let Some(n) = o.at.name {
                s.push_str(&format!(" [{n}]"));
            }
            for (f, l) in &o.at.lines {
                s.push_str(&format!(" {f}:{l}"));
            }
            s
        })
        .collect()
}

#[test]
fn lowered_ops_of_every_printer() {
    let cases: &[(&str, &[&str])] = &[
        // StableHLO (fixtures/softmax/lowered.stablehlo.mlir): `#loc`
        // aliases defined after their use, named locations over a file one.
        (
            "module @jit_fn {\n  func.func public @main(%arg0: tensor<512x1024xf32> loc(\"x\")) -> (tensor<512x1024xf32> {jax.result_info = \"result\"}) {\n    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32> loc(#loc5)\n    %5 = stablehlo.subtract %arg0, %4 : tensor<512x1024xf32> loc(#loc8)\n    return %5 : tensor<512x1024xf32> loc(#loc)\n  } loc(#loc)\n} loc(#loc)\n#loc = loc(unknown)\n#loc2 = loc(\"fixtures/softmax/function.py\":18:11 to :37)\n#loc4 = loc(\"fn\"(#loc2))\n#loc5 = loc(\"jit(fn)/reduce_max\"(#loc4))\n#loc8 = loc(\"jit(fn)/sub\"(#loc4))\n",
            &[
                "3 %cst stablehlo.constant [jit(fn)/reduce_max] fixtures/softmax/function.py:18",
                "4 %5 stablehlo.subtract [jit(fn)/sub] fixtures/softmax/function.py:18",
            ],
        ),
        // MHLO (drift jax-0.4.13 softmax.lowered.mhlo.mlir), printed
        // without locations: a reducer's region inside an op. An
        // `mhlo.return` counts as an op, as it did before this reader (only
        // `stablehlo.return` and `func.return` are left out).
        (
            "module @jit_softmax attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n  func.func public @main(%arg0: tensor<8x128xf32> {jax.arg_info = \"x\", mhlo.sharding = \"{replicated}\"}) -> (tensor<8x128xf32> {jax.result_info = \"\"}) {\n    %0 = mhlo.constant dense<0xFF800000> : tensor<f32>\n    %1 = mhlo.reduce(%arg0 init: %0) across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>\n     reducer(%arg1: tensor<f32>, %arg2: tensor<f32>)  {\n      %11 = mhlo.maximum %arg1, %arg2 : tensor<f32>\n      mhlo.return %11 : tensor<f32>\n    }\n    %2 = \"mhlo.broadcast_in_dim\"(%1) {broadcast_dimensions = dense<0> : tensor<1xi64>} : (tensor<8xf32>) -> tensor<8x1xf32>\n",
            &[
                "3 %0 mhlo.constant",
                "4 %1 mhlo.reduce",
                "6 %11 mhlo.maximum",
                "7  mhlo.return",
                "9 %2 mhlo.broadcast_in_dim",
            ],
        ),
        // A jaxpr printed with `source_info=True`.
        (
            "{ lambda ; a:f32[8]. let\n    b:f32[8] = sin a           # /tmp/jx.py:3:8 (fn)\n    c:f32[8] = cos b           # /tmp/jx.py:4:11 (fn)\n    d:f32[8] = neg c\n  in (d,) }\n",
            &[
                "2 b sin [sin] /tmp/jx.py:3",
                "3 c cos [cos] /tmp/jx.py:4",
                "4 d neg [neg]",
            ],
        ),
        // HLO before optimization, through the syntax layer (drift
        // jax-0.4.13 mlp.lowered.hlo.txt's style: source_file/line).
        (
            "HloModule jit_mlp\n\nENTRY %main.6 (Arg_0.1: f32[8,16]) -> f32[8,16] {\n  %Arg_0.1 = f32[8,16]{1,0} parameter(0)\n  ROOT %sine.2 = f32[8,16]{1,0} sine(f32[8,16]{1,0} %Arg_0.1), metadata={op_name=\"jit(mlp)/jit(main)/sin\" source_file=\"checker/tests/drift/functions/jax_fns.py\" source_line=10}\n}\n",
            &["5 sine.2 sine [jit(mlp)/jit(main)/sin] checker/tests/drift/functions/jax_fns.py:10"],
        ),
    ];
    for &(text, want) in cases {
        assert_eq!(lowered_ops(text), want, "{text}");
    }
}

#[test]
fn borrowed_parts_point_into_the_text() {
    let text = FORI;
    let m = parse(text);
    let ins = m.instructions.last().cloned();
    let ins = ins.unwrap_or_else(|| panic!("no instruction"));
    let at = offset_in(text, ins.opcode).unwrap_or(usize::MAX);
    assert_eq!(text.get(at..at + 4), Some("tanh"));
    let line_start = text
        .get(..at)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |p| p + 1);
    assert_eq!(at - line_start, "  ROOT %tanh.0 = f32[128,128]{1,0} ".len());
    assert_eq!(offset_in(text, "elsewhere"), None);
}

/// A collective as its parsed fields print it: opcode, phase, groups (form,
/// shape, expanded), pairs, channel, global ids, dimensions.
fn describe_collective<'a>(m: &Module<'a>, i: &Instruction<'a>) -> String {
    let Some(c) = m.collective(i) else {
        return "not a collective".to_owned();
    };
    let mut out = format!("{} {:?}", c.op.opcode, c.phase);
    if let Some(g) = &c.replica_groups {
        let form = match &g.form {
            GroupsForm::Listed(_) => "listed",
            GroupsForm::Iota(_) => "iota",
            GroupsForm::Mesh(_) => "mesh",
            GroupsForm::Unread => "unread",
        };
        let shape = g
            .shape()
            .map_or("?".to_owned(), |(n, s)| format!("{n}x{s}"));
        out.push_str(&format!(" groups={form} {shape} {:?}", g.groups()));
    }
    if let Some(p) = &c.source_target_pairs {
        out.push_str(&format!(" pairs={:?}", p.pairs));
    }
    if let Some(ch) = c.channel_id {
        out.push_str(&format!(" channel={ch}"));
    }
    if c.use_global_device_ids {
        out.push_str(" global");
    }
    if let Some(d) = &c.dimensions {
        out.push_str(&format!(" dims={d:?}"));
    }
    if c.is_host_transfer {
        out.push_str(" host");
    }
    out
}

/// Reads `input` and checks the collective of its last instruction.
fn check_collective(input: &str, expect: &str) {
    let m = parse(input);
    let got = m
        .instructions
        .last()
        .map_or("no instruction".to_owned(), |i| describe_collective(&m, i));
    assert_eq!(got, expect, "\n{input}");
}

#[test]
fn collectives_and_their_groups_in_every_printed_form() {
    // shard_map_groups/compiled.cpu.hlo.txt:52: listed groups over "x".
    check_collective(
        r#"  %all_gather.3 = f32[512,256]{1,0} all-gather(%param.1), channel_id=1, replica_groups={{0,2},{1,3}}, dimensions={0}, use_global_device_ids=true, metadata={op_name="jit(fn)/shard_map/all_gather" stack_frame_id=8}"#,
        "all-gather Sync groups=listed 2x2 Some([[0, 2], [1, 3]]) channel=1 global dims=[0]",
    );
    // shard_map_groups/compiled.cpu.hlo.txt:55.
    check_collective(
        r#"  %reduce_scatter.7 = f32[256,128]{0,1} reduce-scatter(%wrapped_copy), channel_id=1, replica_groups={{0,1},{2,3}}, use_global_device_ids=true, dimensions={1}, to_apply=%region_1.0, metadata={op_name="jit(fn)/shard_map/reduce_scatter" stack_frame_id=9}"#,
        "reduce-scatter Sync groups=listed 2x2 Some([[0, 1], [2, 3]]) channel=1 global dims=[1]",
    );
    // sharded_reshard/compiled.tpu.hlo.txt:54: the iota form.
    check_collective(
        r#"  %all-gather.11 = bf16[256,256]{1,0:T(8,128)(2,1)S(1)} all-gather(%convert), channel_id=2, replica_groups=[2,2]<=[4], dimensions={1}, use_global_device_ids=true, frontend_attributes={async_collective_name="all-gather-start"}, metadata={op_name="jit(fn)/dot_general" stack_frame_id=2}"#,
        "all-gather Sync groups=iota 2x2 Some([[0, 1], [2, 3]]) channel=2 global dims=[1]",
    );
    // sharded_matmul/compiled.cpu.hlo.txt:32: the mesh form, one group of 4.
    check_collective(
        r#"  ROOT %all-reduce = f32[256,128]{1,0} all-reduce(%ynn_fusion), channel_id=1, replica_groups=mesh['axis_0'=1,'axis_1'=4] {'axis_1'}, use_global_device_ids=true, to_apply=%add.clone, metadata={op_name="jit(fn)/dot_general" stack_frame_id=1}"#,
        "all-reduce Sync groups=mesh 1x4 Some([[0, 1, 2, 3]]) channel=1 global",
    );
    // sharded_reshard/compiled.cpu.hlo.txt:59: the mesh form over the
    // minor axis of a 2x2 mesh is the iota form's groups.
    check_collective(
        r#"  %all-gather = f32[256,256]{0,1} all-gather(%wrapped_copy), channel_id=1, replica_groups=mesh['axis_0'=2,'axis_1'=2] {'axis_1'}, dimensions={1}, use_global_device_ids=true, metadata={op_name="jit(fn)/dot_general" stack_frame_id=1}"#,
        "all-gather Sync groups=mesh 2x2 Some([[0, 1], [2, 3]]) channel=1 global dims=[1]",
    );
    // sharded_reshard/compiled.cpu.hlo.txt:58: pairs, not groups.
    check_collective(
        r#"  %collective-permute = f32[256,128]{1,0} collective-permute(%param), channel_id=2, source_target_pairs={{0,0},{1,2},{2,1},{3,3}}, metadata={op_name="jit(fn)/mul" stack_frame_id=3}"#,
        "collective-permute Sync pairs=Some([(0, 0), (1, 2), (2, 1), (3, 3)]) channel=2",
    );
    // shard_map_ring/compiled.cpu.hlo.txt:82: XLA:CPU's tuple all-to-all
    // prints no dimensions; the TPU's array form does (compiled.tpu:52).
    check_collective(
        r#"  %all-to-all = (f32[64,256]{1,0}, f32[64,256]{1,0}, f32[64,256]{1,0}, f32[64,256]{1,0}) all-to-all(%wrapped_slice, %wrapped_slice.1, %wrapped_slice.2, %wrapped_slice.3), channel_id=1, replica_groups={{0,1,2,3}}, metadata={op_name="jit(fn)/shard_map/all_to_all" stack_frame_id=9}"#,
        "all-to-all Sync groups=listed 1x4 Some([[0, 1, 2, 3]]) channel=1",
    );
    check_collective(
        r#"  %all_to_all.15 = f32[4,64,256]{2,1,0:T(8,128)S(1)} all-to-all(%bitcast.7), channel_id=1, replica_groups={{0,1,2,3}}, dimensions={0}, metadata={op_name="jit(fn)/shard_map/all_to_all" stack_frame_id=5}"#,
        "all-to-all Sync groups=listed 1x4 Some([[0, 1, 2, 3]]) channel=1 dims=[0]",
    );
    // sourcemap/tests.rs' all-reduce: `{}` is one group of every device.
    check_collective(
        "  %ar = f32[8]{0} all-reduce-start(%cd), replica_groups={}, to_apply=%cond",
        "all-reduce Start groups=listed ? Some([])",
    );
    // sharded_callback/compiled.tpu.hlo.txt:46: a one-axis mesh.
    check_collective(
        r#"  %all-reduce = f32[8]{0:T(128)} all-reduce(%dynamic-update-slice), channel_id=4, replica_groups=mesh['axis_0'=4] {'axis_0'}, use_global_device_ids=true, to_apply=%add, metadata={op_name="jit(fn)/pure_callback" stack_frame_id=2}"#,
        "all-reduce Sync groups=mesh 1x4 Some([[0, 1, 2, 3]]) channel=4 global",
    );
    // sharded_callback/compiled.tpu.hlo.txt:47-48: a host transfer, whose
    // bare `send` starts the pair.
    check_collective(
        r#"  %pure_callback.15 = (f32[8]{0:T(128)}, u32[], token[]) send(%all-reduce, %pure_callback.14), channel_id=1, is_host_transfer=true, sharding={{maximal device=0}, {maximal device=0}, {maximal device=0}}, frontend_attributes={_xla_host_transfer_handler_name="pjrt_rendezvous",_xla_host_transfer_rendezvous="2"}, metadata={op_name="jit(fn)/pure_callback" stack_frame_id=2}"#,
        "send Start channel=1 host",
    );
    check_collective(
        r#"  %pure_callback.16 = token[] send-done(%pure_callback.15), channel_id=1, is_host_transfer=true, sharding={maximal device=0}, frontend_attributes={_xla_host_transfer_handler_name="pjrt_rendezvous",_xla_host_transfer_rendezvous="2"}, metadata={op_name="jit(fn)/pure_callback" stack_frame_id=2}"#,
        "send Done channel=1 host",
    );
    // A fusion is not a collective.
    check_collective(
        r#"  %ynn_fusion = f32[256,128]{1,0} fusion(%param, %param.1), kind=kCustom, calls=%fused_computation, metadata={op_name="jit(fn)/dot_general" stack_frame_id=1}"#,
        "not a collective",
    );
}

#[test]
fn a_done_finds_its_start() {
    // sharded_matmul/compiled.gpu.hlo.txt:47-48 (backend configs cut).
    let text = r#"ENTRY %main.0_spmd (param: f32[256,128], param.1: f32[128,128]) -> f32[256,128] {
  %all-reduce-start = f32[256,128]{1,0} all-reduce-start(%loop_reduce_fusion), channel_id=1, replica_groups=mesh['axis_0'=1,'axis_1'=4] {'axis_1'}, use_global_device_ids=true, to_apply=%add.clone, metadata={op_name="jit(fn)/dot_general" scheduling_name="all-reduce-start" stack_frame_id=1}
  ROOT %all-reduce-done = f32[256,128]{1,0} all-reduce-done(%all-reduce-start), metadata={op_name="jit(fn)/dot_general" scheduling_name="all-reduce-done" stack_frame_id=1}
}
"#;
    let m = parse(text);
    let (start, done) = (&m.instructions[0], &m.instructions[1]);
    assert_eq!(
        describe_collective(&m, start),
        "all-reduce Start groups=mesh 1x4 Some([[0, 1, 2, 3]]) channel=1 global"
    );
    // The done prints no attributes of its own: they are its start's.
    assert_eq!(describe_collective(&m, done), "all-reduce Done");
    assert_eq!(m.collective_start(done), Some(start.id));
    assert_eq!(m.collective_start(start), None);
}

#[test]
fn every_collective_opcode_has_its_row_and_phase() {
    // (opcode, collective, phase): the row table decides, send/recv start
    // bare.
    let rows: &[(&str, Option<(&str, Phase)>)] = &[
        ("all-reduce", Some(("all-reduce", Phase::Sync))),
        ("all-reduce-start", Some(("all-reduce", Phase::Start))),
        ("all-gather-done", Some(("all-gather", Phase::Done))),
        (
            "reduce-scatter-start",
            Some(("reduce-scatter", Phase::Start)),
        ),
        ("all-to-all-done", Some(("all-to-all", Phase::Done))),
        (
            "collective-permute-start",
            Some(("collective-permute", Phase::Start)),
        ),
        (
            "collective-broadcast",
            Some(("collective-broadcast", Phase::Sync)),
        ),
        (
            "ragged-all-to-all",
            Some(("ragged-all-to-all", Phase::Sync)),
        ),
        ("send", Some(("send", Phase::Start))),
        ("recv-done", Some(("recv", Phase::Done))),
        ("send-start", None),
        ("copy-start", None),
        ("fusion", None),
    ];
    for &(opcode, want) in rows {
        let got = collective_op(opcode).map(|(op, phase)| (op.opcode, phase));
        assert_eq!(got, want, "{opcode}");
    }
    // Every row is reachable by its own opcode.
    for op in COLLECTIVE_OPS {
        assert!(collective_op(op.opcode).is_some(), "{}", op.opcode);
    }
}

#[test]
fn collectives_of_the_sharded_fixtures_are_all_read() {
    // Every collective line of the sharded families' compiled dumps: a
    // row of the table, and its groups or pairs read (never `Unread`).
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures");
    let mut seen = 0;
    let families = [
        "sharded_matmul",
        "sharded_reshard",
        "shard_map_groups",
        "shard_map_ring",
        "sharded_callback",
    ];
    for family in families {
        for target in ["cpu", "gpu", "tpu", ""] {
            let file = if target.is_empty() {
                format!("{root}/{family}/lowered.hlo.txt")
            } else {
                format!("{root}/{family}/compiled.{target}.hlo.txt")
            };
            // sharded_callback has no H100 dump (its `targets`).
            let Ok(text) = std::fs::read_to_string(&file) else {
                assert_eq!((family, target), ("sharded_callback", "gpu"), "{file}");
                continue;
            };
            let m = parse(&text);
            for i in &m.instructions {
                let looks = ["all-", "reduce-scatter", "collective-"]
                    .iter()
                    .any(|p| i.opcode.starts_with(p));
                let Some(c) = m.collective(i) else {
                    assert!(!looks, "{file}:{}: {} has no row", i.line, i.opcode);
                    continue;
                };
                seen += 1;
                if c.phase == Phase::Done {
                    assert!(m.collective_start(i).is_some(), "{file}:{}", i.line);
                    continue;
                }
                match c.op.peers {
                    Peers::Groups => assert!(
                        c.replica_groups
                            .as_ref()
                            .and_then(ReplicaGroups::groups)
                            .is_some(),
                        "{file}:{}",
                        i.line
                    ),
                    Peers::Pairs => assert!(
                        c.source_target_pairs
                            .as_ref()
                            .and_then(|p| p.pairs.as_ref())
                            .is_some(),
                        "{file}:{}",
                        i.line
                    ),
                    Peers::Channel => {}
                }
            }
        }
    }
    assert!(seen >= 40, "{seen} collectives");
}

/// A sharding as its parsed fields print it.
fn describe_sharding(s: &Sharding<'_>) -> String {
    match &s.kind {
        ShardingKind::Replicated => "replicated".to_owned(),
        ShardingKind::Manual => "manual".to_owned(),
        ShardingKind::Unknown => "unknown".to_owned(),
        ShardingKind::Maximal { device } => format!("maximal {device}"),
        ShardingKind::Tiled(t) => format!(
            "tiled {:?} data={:?} x{} devices={:?}{}",
            t.tile,
            t.data_tiles(),
            t.replication(),
            t.device_list(),
            if t.last_tile_dims.is_empty() {
                String::new()
            } else {
                format!(" last_tile_dims={:?}", t.last_tile_dims)
            }
        ),
        ShardingKind::Tuple(parts) => {
            let p: Vec<String> = parts.iter().map(describe_sharding).collect();
            format!("tuple({})", p.join("; "))
        }
        ShardingKind::Unread => format!("unread {}", s.raw),
    }
}

/// Reads `input` and checks the sharding of its last instruction.
fn check_sharding(input: &str, expect: &str) {
    let m = parse(input);
    let got = m
        .instructions
        .last()
        .map_or("no instruction".to_owned(), |i| {
            m.sharding(i)
                .map_or("no sharding".to_owned(), |s| describe_sharding(&s))
        });
    assert_eq!(got, expect, "\n{input}");
}

#[test]
fn shardings_in_every_printed_form() {
    // shard_map_ring/compiled.cpu.hlo.txt:73-74.
    check_sharding(
        r#"  %param.2 = f32[256,256]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}, metadata={op_name="x"}"#,
        "tiled [4, 1] data=[4, 1] x1 devices=Some([0, 1, 2, 3])",
    );
    check_sharding(
        r#"  %param.3 = f32[256,256]{1,0} parameter(1), sharding={replicated}, metadata={op_name="w"}"#,
        "replicated",
    );
    // sharded_reshard/compiled.cpu.hlo.txt:56: the iota form with a
    // transpose, and a replicated last tile dimension.
    check_sharding(
        r#"  %param.1 = f32[256,128]{1,0} parameter(1), sharding={devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}, metadata={op_name="w"}"#,
        "tiled [1, 2, 2] data=[1, 2] x2 devices=Some([0, 2, 1, 3])",
    );
    // sharded_reshard/lowered.hlo.txt:9 and 15: bare names, a tuple.
    check_sharding(
        "  reshape.2 = f32[512,256]{1,0} reshape(tanh.3), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}",
        "tiled [2, 1, 2] data=[2, 1] x2 devices=Some([0, 1, 2, 3])",
    );
    check_sharding(
        "  ROOT tuple.1 = (f32[512,256]{1,0}, f32[512,256]{1,0}) tuple(tanh.3, mul.5), sharding={{devices=[2,1,2]<=[4] last_tile_dim_replicate}, {devices=[2,2]<=[2,2]T(1,0)}}",
        "tuple(tiled [2, 1, 2] data=[2, 1] x2 devices=Some([0, 1, 2, 3]); tiled [2, 2] data=[2, 2] x1 devices=Some([0, 2, 1, 3]))",
    );
    // sharded_callback/lowered.hlo.txt:13: the host callback on device 0.
    check_sharding(
        r##"  ROOT pure_callback.1 = f32[8]{0} custom-call(reduce_sum.7), custom_call_target="xla_ffi_python_cpu_callback", operand_layout_constraints={f32[8]{0}}, api_version=API_VERSION_TYPED_FFI, sharding={maximal device=0}, frontend_attributes={xla.sdy.sharding="#sdy.sharding_per_value<[<@maximal_mesh_0, []>]>"}"##,
        "maximal 0",
    );
    // sharded_callback/compiled.tpu.hlo.txt:47: a tuple of maximal ones.
    check_sharding(
        r#"  %pure_callback.15 = (f32[8]{0:T(128)}, u32[], token[]) send(%all-reduce, %pure_callback.14), channel_id=1, is_host_transfer=true, sharding={{maximal device=0}, {maximal device=0}, {maximal device=0}}, frontend_attributes={_xla_host_transfer_handler_name="pjrt_rendezvous",_xla_host_transfer_rendezvous="2"}, metadata={op_name="jit(fn)/pure_callback" stack_frame_id=2}"#,
        "tuple(maximal 0; maximal 0; maximal 0)",
    );
    // An instruction without one.
    check_sharding(
        r#"  %ynn_fusion = f32[256,128]{1,0} fusion(%param, %param.1), kind=kCustom, calls=%fused_computation"#,
        "no sharding",
    );
}

#[test]
fn a_sharding_gives_each_device_its_part() {
    // sharded_matmul/lowered.hlo.txt:4: a f32[256,512] split by columns
    // over 4 devices is the compiled dump's f32[256,128] parameter
    // (compiled.cpu.hlo.txt:29).
    let m = parse(
        r##"  a.1 = f32[256,512]{1,0} parameter(0), sharding={devices=[1,4]<=[4]}, frontend_attributes={xla.sdy.sharding="#sdy.sharding<@mesh, [{}, {\"x\"}]>"}"##,
    );
    let ins = &m.instructions[0];
    let ShardingKind::Tiled(t) = m
        .sharding(ins)
        .map(|s| s.kind)
        .unwrap_or(ShardingKind::Unread)
    else {
        panic!("not tiled");
    };
    assert_eq!(t.shard_shape(&[256, 512]), Some(vec![256, 128]));
    assert_eq!(t.shard_shape(&[256]), None);
}

#[test]
fn the_header_says_how_many_devices() {
    // sharded_matmul/compiled.cpu.hlo.txt:1.
    let m = parse(
        "HloModule jit_fn, is_scheduled=true, entry_computation_layout={(f32[256,128]{1,0}, f32[128,128]{1,0})->f32[256,128]{1,0}}, allow_spmd_sharding_propagation_to_parameters={false,false}, num_partitions=4\n",
    );
    let h = m.header.as_ref().expect("a header");
    assert_eq!(h.num_partitions(), Some(4));
    assert_eq!(h.replica_count(), None);
    // softmax/compiled.cpu.hlo.txt: a one-device module prints neither.
    let m = parse(
        "HloModule jit_fn, is_scheduled=true, entry_computation_layout={(f32[512,1024]{1,0})->f32[512,1024]{1,0}}\n",
    );
    assert_eq!(m.header.as_ref().and_then(|h| h.num_partitions()), None);
}

#[test]
fn iota_lists_expand_as_xla_defines_them() {
    // The iota texts of the fixtures' lines above, and what XLA's
    // IotaTileAssignment makes of them.
    let rows: &[(&str, Option<Vec<u64>>)] = &[
        ("[2,2]<=[4]", Some(vec![0, 1, 2, 3])),
        ("[1,2,2]<=[2,2]T(1,0)", Some(vec![0, 2, 1, 3])),
        ("[2,2]<=[2,2]T(1,0)", Some(vec![0, 2, 1, 3])),
        ("[4,1]<=[4]", Some(vec![0, 1, 2, 3])),
        // Inconsistent or hostile: read, not expanded.
        ("[2,2]<=[8]", None),
        ("[2,2]<=[2,2]T(0,0)", None),
        ("[4294967296,4294967296]<=[4294967296,4294967296]", None),
    ];
    for (text, want) in rows {
        let (iota, rest) = Iota::parse_prefix(text).expect(text);
        assert_eq!(rest, "", "{text}");
        assert_eq!(&iota.devices(), want, "{text}");
    }
}

/// `(line, kind, what analyze counts it as, what the source map prints)`
/// on real lines of the fixtures.
#[test]
fn kinds_of_real_lines() {
    let check = |line: &str, expect: (kinds::KernelKind, &str, &str)| {
        let text = format!("ENTRY %e () -> f32[] {{\n{line}\n}}\n");
        let m = parse(&text);
        let ins = m
            .instructions
            .first()
            .unwrap_or_else(|| panic!("no instruction in {line}"));
        let k = kinds::kind(ins);
        assert_eq!((k, k.analyze_name(), k.map_name()), expect, "{line}");
        assert_eq!(kinds::kind_of(ins).0, k, "{line}");
    };
    use kinds::KernelKind as K;
    // fixtures/pallas_matmul/compiled.tpu.hlo.txt
    check(
        r#"  ROOT %matmul.1 = f32[512,2048]{1,0:T(8,128)} custom-call(%x.1, %w.1), custom_call_target="tpu_custom_call", metadata={op_name="jit(matmul)/pallas_call" stack_frame_id=1}"#,
        (K::Pallas, "custom-call", "custom-call"),
    );
    // fixtures/sharded_matmul/compiled.gpu.hlo.txt
    check(
        r#"  %all-reduce-start = f32[256,128]{1,0} all-reduce-start(%loop_reduce_fusion), channel_id=1, use_global_device_ids=true, to_apply=%add.clone"#,
        (K::Collective, "unfused", "collective"),
    );
    // a TPU fixture's cross-program prefetch
    check(
        r#"  %copy-start = (f32[256,1000]{0,1:T(8,128)S(1)}, f32[256,1000]{0,1:T(8,128)}, u32[]{:S(2)}) copy-start(%x.1), cross_program_prefetch_index=0"#,
        (K::Copy, "copy", "copy"),
    );
    // a CPU fixture's unfused transpose
    check(
        r#"  %transpose.4 = f32[256,512]{0,1} transpose(%exp.2), dimensions={1,0}, metadata={op_name="jit(fn)/exp" stack_frame_id=2}"#,
        (K::Transpose, "unfused", "op"),
    );
    // fixtures/cond_branch/compiled.cpu.hlo.txt
    check(
        r#"  %cond.1.clone = (f32[512,512]{1,0}) conditional(%compare_convert_fusion, %tuple.2, %tuple.2), branch_computations={%region_1.2, %region_2.3}, metadata={op_name="jit(fn)/cond" stack_frame_id=2}"#,
        (K::Branch, "unfused", "conditional"),
    );
}

/// The module holds one record per instruction (295,298 of them in the
/// 56 MB TPU input of `cargo xtask bench --cli`): every byte of it is
/// 0.3 MB of memory the reader writes and the kernel hands out page by
/// page. The metadata's fields are kept beside it (`Module::meta`) and the optional parts
/// after the opcode are runs of one slice, which keeps it at 144 bytes
/// (264 before).
#[test]
fn an_instruction_record_stays_small() {
    let size = std::mem::size_of::<Instruction<'_>>();
    assert!(size <= 144, "Instruction is {size} bytes");
    // Its metadata's fields, one record beside each instruction.
    let fields = std::mem::size_of::<super::model::MetaFields>();
    assert!(fields <= 12, "MetaFields is {fields} bytes");
}

/// `Metadata::read` on real `metadata={...}` values: the fields the
/// attribute walk used to split, read on demand.
#[test]
fn metadata_values_read_on_demand() {
    let check = |value: &str, expect: &str| {
        let md = Metadata::read(value);
        let got = format!(
            "op_name={:?} op_type={:?} file={:?} line={:?} frame={:?} sched={:?}",
            md.op_name,
            md.op_type,
            md.source_file,
            md.source_line,
            md.stack_frame_id,
            md.scheduling_name
        );
        assert_eq!(got, expect, "\n{value}");
    };
    // fixtures (dynamic_update_loop/folder.cpu, a pass dump: stack frames).
    check(
        r#"{op_name="jit(fn)/while/body/add" stack_frame_id=7}"#,
        r#"op_name=Some("jit(fn)/while/body/add") op_type=None file=None line=None frame=Some(7) sched=None"#,
    );
    // the drift corpus (JAX 0.4.13, source file and line).
    check(
        r#"{op_name="jit(loop)/jit(main)/while/body/mul" source_file="checker/tests/drift/functions/jax_fns.py" source_line=20}"#,
        r#"op_name=Some("jit(loop)/jit(main)/while/body/mul") op_type=None file=Some("checker/tests/drift/functions/jax_fns.py") line=Some(20) frame=None sched=None"#,
    );
    // fixtures (dynamic_update_loop/compiled.gpu.hlo.txt: a scheduling name alone).
    check(
        r#"{scheduling_name="param_0.1"}"#,
        r#"op_name=None op_type=None file=None line=None frame=None sched=Some("param_0.1")"#,
    );
    // A value hard-wrapped inside a string is not the value.
    check(
        "{op_name=\"jit(fn)/while/bo\ndy/add\" stack_frame_id=7}",
        "op_name=None op_type=None file=None line=None frame=Some(7) sched=None",
    );
}

/// Every text of the fixtures and the drift corpus that starts with an
/// `HloModule` line: (path, text).
pub(crate) fn module_texts() -> Vec<(std::path::PathBuf, String)> {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut todo = vec![root.join("../fixtures"), root.join("tests/drift")];
    let mut out = Vec::new();
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for p in entries.filter_map(|e| e.ok()).map(|e| e.path()) {
            if p.is_dir() {
                todo.push(p);
            } else if let Ok(text) = std::fs::read_to_string(&p) {
                if crate::analysis::scan::trim_start(&text).starts_with("HloModule ") {
                    out.push((p, text));
                }
            }
        }
    }
    out.sort();
    out
}

/// The start of every line of `text` that is a computation header (not
/// a bare one), past the first line: where [`cut::read_cut`] may cut.
pub(crate) fn header_starts(text: &str) -> Vec<usize> {
    let mut at = 0usize;
    let mut out = Vec::new();
    for l in text.split_inclusive('\n') {
        let t = crate::analysis::scan::trim(l.trim_end_matches(['\n', '\r']));
        if at > 0 && hlo::computation_header(t).is_some_and(|h| !h.bare) {
            out.push(at);
        }
        at += l.len();
    }
    out
}

/// At most `most` of [`header_starts`], evenly spread: the cuts a test
/// of `text` tries.
pub(crate) fn cuts(text: &str, most: usize) -> Vec<usize> {
    let starts = header_starts(text);
    let step = starts.len().div_ceil(most).max(1);
    starts.into_iter().step_by(step).collect()
}

/// Asserts that `text` cut at each of its computation headers reads as
/// one pass does; how many cuts it tried.
fn check_cuts(name: &str, text: &str, most: usize) -> usize {
    let one = hlo::read(text);
    let cuts = cuts(text, most);
    for &at in &cuts {
        assert_eq!(cut::read_cut(text, at), one, "{name} cut at byte {at}");
    }
    cuts.len()
}

#[test]
fn cut_reads_as_one_pass() {
    let mut tried = 0;
    let files = module_texts();
    for (p, text) in &files {
        tried += check_cuts(&p.display().to_string(), text, 12);
    }
    assert!(
        files.len() > 100 && tried > 500,
        "{} files, {tried} cuts",
        files.len()
    );
}

#[test]
fn cut_reads_what_one_pass_reads_where_a_cut_meets_state() {
    let cases = [
        // An instruction still open (a `backend_config` over several
        // lines, cut off): the header after it ends it in one pass too.
        "HloModule m\n\nENTRY %main.1 (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0)\n  ROOT %c = f32[8]{0} custom-call(%p), custom_call_target=\"x\", backend_config={\n \"a\":1\n%g.2 (q: f32[8]) -> f32[8] {\n  ROOT %q = f32[8]{0} parameter(0)\n}\n",
        // A source table running up to a header.
        "HloModule m\n\nFileNames\n1 \"a.py\"\n%f.1 (p: f32[]) -> f32[] {\n  ROOT %p = f32[] parameter(0)\n}\n\nFileNames\n2 \"b.py\"\n%g.2 (p: f32[]) -> f32[] {\n  ROOT %p = f32[] parameter(0), metadata={op_name=\"x\" stack_frame_id=1}\n}\n",
        // Bare headers after the cut, calls both ways, the entry and a
        // second `HloModule` line in the second half, unread lines and
        // `\r\n` line ends.
        "HloModule m, is_scheduled=true\r\n\r\n%f.1 (p: f32[]) -> f32[] {\r\n  ROOT %c = f32[] call(%p), to_apply=%g.2\r\n}\r\nnot hlo\r\n%g.2 (p: f32[]) -> f32[] {\r\n  ROOT %p = f32[] parameter(0)\r\n}\r\nfused_computation {\r\n  %x = f32[] parameter(0)\r\n}\r\nHloModule n\r\nENTRY %main.3 () -> f32[] {\r\n  %k = f32[] constant(1)\r\n  ROOT %r = f32[] fusion(%k), kind=kLoop, calls=fused_computation, metadata={op_name=\"jit(f)/y\"}\r\n  %u = f32[ cut\r\n}\r\n",
        // Two computations of one name: calls resolve to the first.
        "HloModule m\n\n%f.1 () -> f32[] {\n  ROOT %a = f32[] constant(1)\n}\n\n%f.1 () -> f32[] {\n  ROOT %b = f32[] constant(2)\n}\n\nENTRY %main.2 () -> f32[] {\n  ROOT %c = f32[] call(), to_apply=%f.1\n}\n",
    ];
    for (i, text) in cases.iter().enumerate() {
        assert!(check_cuts(&format!("case {i}"), text, usize::MAX) >= 2);
    }
}

#[test]
fn a_large_module_is_cut_near_its_middle_and_read_the_same() {
    // Fixture modules one after another (each its own `HloModule` line)
    // until the text is large enough to cut.
    let files = module_texts();
    let mut big = String::new();
    for (_, t) in files.iter().cycle().take(20_000) {
        big.push_str(t);
        big.push('\n');
        if big.len() > 3 << 20 {
            break;
        }
    }
    let min = 1 << 20;
    let at = cut::cut_from(&big, min).expect("a header past the middle");
    assert!(at >= big.len() / 2 && at < big.len() / 2 + (1 << 20));
    assert_eq!(cut::read_cut(&big, at), hlo::read(&big));
    // Small texts and texts without an `HloModule` line first are not cut.
    assert_eq!(cut::cut_from(&files[0].1, min), None);
    assert_eq!(cut::cut_from(&format!("x\n{big}"), min), None);
    assert_eq!(cut::cut(&big), None, "under MIN_CUT");
}
