//! The dump folder's memory figures (`dumplab::folder::{buffers, memory}`)
//! against `compiled.memory_analysis()` of the same compiles
//! (`tests/folder_memory/memory_analysis.json`, see its README), table tests
//! on real lines of the CPU's, the GPU's and the TPU's files, and hostile
//! input.

#![allow(clippy::unwrap_used)] // a test: a broken test folder should fail loudly

use dumplab::folder::buffers::{self, TYPES, Type};
use dumplab::folder::memory::{self, Inputs, Memory, Producer};
use std::path::{Path, PathBuf};

/// A folder of FOLDERS' fixtures (`fixtures/<family>/folder.<target>`).
fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(rel)
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/folder_memory")
}

/// One test folder's four files.
struct Case {
    name: String,
    ba: String,
    ba_name: String,
    report: String,
    live: String,
    optimized: String,
    before: String,
}

fn read(dir: &Path) -> Case {
    let mut c = Case {
        name: dir.display().to_string(),
        ba: String::new(),
        ba_name: String::new(),
        report: String::new(),
        live: String::new(),
        optimized: String::new(),
        before: String::new(),
    };
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let wanted = [
            "-buffer-assignment.txt",
            "-memory-usage-report.txt",
            "-live-range.txt",
            "after_optimizations.txt",
            "before_optimizations.txt",
        ];
        if p.is_dir() || !wanted.iter().any(|w| name.ends_with(w)) {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        if name.ends_with("-buffer-assignment.txt") {
            c.ba = text;
            c.ba_name = name;
        } else if name.ends_with("-memory-usage-report.txt") {
            c.report = text;
        } else if name.ends_with("-live-range.txt") {
            c.live = text;
        } else if name.ends_with("after_optimizations.txt") {
            c.optimized = text;
        } else if name.ends_with("before_optimizations.txt") {
            c.before = text;
        }
    }
    c
}

fn figures(c: &Case) -> Memory {
    memory::figures(&Inputs {
        buffer_assignment: &c.ba,
        memory_usage_report: Some(&c.report),
        live_range: Some(&c.live),
        optimized: Some(&c.optimized),
        before: Some(&c.before)
            .filter(|b| !b.is_empty())
            .map(String::as_str),
        producer: Producer::from_file_name(&c.ba_name),
    })
}

fn cases() -> Vec<(String, String, Case)> {
    let mut out = Vec::new();
    for target in ["cpu", "gpu", "tpu"] {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(data().join(target))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for d in dirs {
            let case = d.file_name().unwrap().to_string_lossy().to_string();
            out.push((target.to_string(), case, read(&d)));
        }
    }
    out
}

fn oracle() -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(data().join("memory_analysis.json")).unwrap())
        .unwrap()
}

#[test]
fn figures_equal_memory_analysis_on_every_test_folder() {
    let oracle = oracle();
    let mut compared = 0;
    let mut peaks = Vec::new();
    for (target, case, c) in cases() {
        let m = figures(&c);
        let o = &oracle[&target][&case];
        let want = |k: &str| {
            o[k].as_u64()
                .unwrap_or_else(|| panic!("{target}/{case}: no {k}"))
        };
        assert_eq!(
            m.argument_bytes,
            Some(want("argument_size_in_bytes")),
            "{target}/{case} argument"
        );
        assert_eq!(
            m.output_bytes,
            Some(want("output_size_in_bytes")),
            "{target}/{case} output"
        );
        assert_eq!(
            m.alias_bytes,
            Some(want("alias_size_in_bytes")),
            "{target}/{case} alias"
        );
        match target.as_str() {
            "tpu" => {
                assert_eq!(m.temp_bytes, None, "{target}/{case}");
                assert_eq!(m.peak_bytes, None, "{target}/{case}");
            }
            _ => assert_eq!(
                m.temp_bytes,
                Some(want("temp_size_in_bytes")),
                "{target}/{case} temp"
            ),
        }
        if let Some(p) = m.peak_bytes {
            assert_eq!(
                p,
                want("peak_memory_in_bytes"),
                "{target}/{case} peak: {}",
                m.peak_basis
            );
            peaks.push(format!("{target}/{case}"));
        }
        assert!(
            m.unknown_types.is_empty(),
            "{}: {:?}",
            c.name,
            m.unknown_types
        );
        assert_eq!(m.unread_lines, 0, "{}", c.name);
        compared += 1;
    }
    assert_eq!(compared, 26);
    // Every CPU and GPU folder has a peak; the TPU's none.
    assert_eq!(
        peaks.iter().filter(|p| p.starts_with("cpu/")).count(),
        10,
        "{peaks:?}"
    );
    assert_eq!(
        peaks.iter().filter(|p| p.starts_with("gpu/")).count(),
        8,
        "{peaks:?}"
    );
}

/// FOLDERS' real folders (`fixtures/<family>/folder.<target>[.<suffix>]/`,
/// every pass file), against the `memory_analysis()` their generator
/// recorded in the family's provenance block.
#[test]
fn figures_equal_memory_analysis_on_every_fixture_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut families: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("fixture.toml").is_file())
        .collect();
    families.sort();
    let mut compared = Vec::new();
    for fam in families {
        let toml: toml::Value =
            toml::from_str(&std::fs::read_to_string(fam.join("fixture.toml")).unwrap()).unwrap();
        let Some(folders) = toml
            .get("provenance")
            .and_then(|p| p.get("folders"))
            .and_then(|f| f.as_table())
        else {
            continue;
        };
        for (folder, entry) in folders {
            let o = &entry["memory_analysis"];
            let want = |k: &str| o[k].as_integer().map(|v| v as u64);
            let c = read(&fam.join(folder));
            let m = figures(&c);
            let at = format!("{}/{folder}", fam.display());
            assert_eq!(
                m.argument_bytes,
                want("argument_size_in_bytes"),
                "{at} argument"
            );
            assert_eq!(m.output_bytes, want("output_size_in_bytes"), "{at} output");
            assert_eq!(m.alias_bytes, want("alias_size_in_bytes"), "{at} alias");
            if m.producer != Producer::Unnamed {
                assert_eq!(m.temp_bytes, want("temp_size_in_bytes"), "{at} temp");
                assert_eq!(
                    m.peak_bytes,
                    want("peak_memory_in_bytes"),
                    "{at} peak: {}",
                    m.peak_basis
                );
            } else {
                assert_eq!((m.temp_bytes, m.peak_bytes), (None, None), "{at}");
            }
            assert!(m.unknown_types.is_empty(), "{at}: {:?}", m.unknown_types);
            assert_eq!(m.unread_lines, 0, "{at}");
            compared.push(at);
        }
    }
    assert!(compared.len() >= 12, "{compared:?}");
}

#[test]
fn the_gpu_peak_replays_the_temporaries_heap_or_is_unknown() {
    let c = read(&data().join("gpu/scan"));
    let m = figures(&c);
    // XLA's peak (3932216) is the static part plus the heap's peak
    // (1310724), not plus the whole temp allocation (1311008).
    assert_eq!(m.static_bytes, Some(2621492));
    assert_eq!(m.temp_bytes, Some(1311008));
    assert_eq!(m.peak_bytes, Some(3932216));
    assert!(m.peak_basis.contains("replayed"), "{}", m.peak_basis);
    // dus_loop: the while loop's tuples share the temp allocation and are
    // left out of the heap (peak 262153 = 262148 static + 5).
    let m = figures(&read(&data().join("gpu/dus_loop")));
    assert_eq!((m.static_bytes, m.peak_bytes), (Some(262148), Some(262153)));
    // Without the live-range file the heap cannot be replayed.
    let m = memory::figures(&Inputs {
        buffer_assignment: &c.ba,
        memory_usage_report: None,
        live_range: None,
        optimized: None,
        producer: Producer::Gpu,
        before: None,
    });
    assert_eq!(m.peak_bytes, None);
    assert!(m.peak_basis.starts_with("unknown"), "{}", m.peak_basis);
    // Nor when a temporary has no live range.
    let cut: String = c
        .live
        .lines()
        .filter(|l| !l.contains("fusion"))
        .collect::<Vec<_>>()
        .join("\n");
    let m = memory::figures(&Inputs {
        buffer_assignment: &c.ba,
        memory_usage_report: None,
        live_range: Some(&cut),
        optimized: None,
        producer: Producer::Gpu,
        before: None,
    });
    assert_eq!(m.peak_bytes, None);
}

#[test]
fn the_live_range_peak_is_the_files_own_figure_shown_apart() {
    let m = figures(&read(&fixture("softmax/folder.cpu")));
    assert_eq!(m.live_range_peak_bytes, Some(6293504));
    assert_eq!(m.peak_bytes, Some(4194304));
    let m = figures(&read(&fixture("softmax/folder.tpu")));
    assert_eq!(m.live_range_peak_bytes, Some(6295552));
    assert_eq!(m.peak_bytes, None);
}

/// What an allocation line reads as: index, size, color, types, parameter
/// (number, shape, index), output shape.
type AllocExpect<'a> = (
    u64,
    u64,
    u64,
    &'a [Type],
    Option<(u64, &'a str, &'a str)>,
    Option<&'a str>,
);

fn check_alloc(line: &str, expect: AllocExpect<'_>) {
    let a = buffers::allocation_line(line, 1).unwrap_or_else(|| panic!("not read: {line}"));
    assert_eq!(
        (a.index, a.size, a.color),
        (expect.0, expect.1, expect.2),
        "{line}"
    );
    assert_eq!(a.types, expect.3, "{line}");
    assert_eq!(
        a.param.as_ref().map(|p| (p.number, p.shape, p.index)),
        expect.4,
        "{line}"
    );
    assert_eq!(a.output_shape, expect.5, "{line}");
    assert!(a.unknown.is_empty(), "{line}: {:?}", a.unknown);
}

#[test]
fn allocation_lines_of_the_three_targets() {
    use Type::*;
    // CPU softmax.
    check_alloc(
        "allocation 0: size 2097152, output shape is |f32[512,1024]|, maybe-live-out:",
        (
            0,
            2097152,
            0,
            &[Output, MaybeLiveOut],
            None,
            Some("f32[512,1024]"),
        ),
    );
    check_alloc(
        "allocation 1: size 2097152, parameter 0, shape |f32[512,1024]| at ShapeIndex {}:",
        (
            1,
            2097152,
            0,
            &[Parameter],
            Some((0, "f32[512,1024]", "{}")),
            None,
        ),
    );
    check_alloc(
        "allocation 2: size 4, thread-local:",
        (2, 4, 0, &[ThreadLocal], None, None),
    );
    check_alloc(
        "allocation 8: size 2048, preallocated-temp:",
        (8, 2048, 0, &[PreallocatedTemp], None, None),
    );
    // CPU donation: one allocation is parameter and output.
    check_alloc(
        "allocation 0: size 2097152, parameter 0, shape |f32[512,1024]| at ShapeIndex {}, output shape is |f32[512,1024]|, maybe-live-out:",
        (
            0,
            2097152,
            0,
            &[Parameter, Output, MaybeLiveOut],
            Some((0, "f32[512,1024]", "{}")),
            Some("f32[512,1024]"),
        ),
    );
    // CPU scan: a constant; a tuple output, whose shape has ", ".
    check_alloc(
        "allocation 6: size 4, constant:",
        (6, 4, 0, &[Constant], None, None),
    );
    check_alloc(
        "allocation 5: size 16, output shape is |(f32[256,256], f32[8])|, maybe-live-out:",
        (
            5,
            16,
            0,
            &[Output, MaybeLiveOut],
            None,
            Some("(f32[256,256], f32[8])"),
        ),
    );
    // GPU softmax.
    check_alloc(
        "allocation 1: size 2097152, parameter 0, shape |f32[512,1024]| at ShapeIndex {}:",
        (
            1,
            2097152,
            0,
            &[Parameter],
            Some((0, "f32[512,1024]", "{}")),
            None,
        ),
    );
    // TPU softmax: colors (memory spaces) 1 and 2.
    check_alloc(
        "allocation 11: size 2103296, color 1, preallocated-temp:",
        (11, 2103296, 1, &[PreallocatedTemp], None, None),
    );
    check_alloc(
        "allocation 9: size 4, color 2, preallocated-temp:",
        (9, 4, 2, &[PreallocatedTemp], None, None),
    );
    check_alloc(
        "allocation 4: size 512, constant:",
        (4, 512, 0, &[Constant], None, None),
    );
}

fn check_value(line: &str, expect: (u64, &str, &str, bool, Option<u64>, u64, u64, &str)) {
    let v = buffers::value_line(line, 1).unwrap_or_else(|| panic!("not read: {line}"));
    assert_eq!(
        (
            v.id,
            v.instruction,
            v.index,
            v.phi,
            v.color,
            v.size,
            v.offset,
            v.shape
        ),
        expect,
        "{line}"
    );
}

#[test]
fn value_lines_of_the_three_targets() {
    check_value(
        " value: <24 ynn_fusion.1 @0> (size=2097152,offset=0): f32[512,1024]{1,0}",
        (
            24,
            "ynn_fusion.1",
            "",
            false,
            Some(0),
            2097152,
            0,
            "f32[512,1024]{1,0}",
        ),
    );
    check_value(
        " value: <46 arg_tuple.3{1} (phi) @0> (size=262144,offset=0): f32[256,256]{1,0}",
        (
            46,
            "arg_tuple.3",
            "{1}",
            true,
            Some(0),
            262144,
            0,
            "f32[256,256]{1,0}",
        ),
    );
    check_value(
        " value: <17 triton_softmax.2 @0> (size=2097152,offset=0): f32[512,1024]{1,0}",
        (
            17,
            "triton_softmax.2",
            "",
            false,
            Some(0),
            2097152,
            0,
            "f32[512,1024]{1,0}",
        ),
    );
    check_value(
        " value: <26 reduce_max.7 @1> (size=2048,offset=2097152): f32[512]{0:T(512)S(1)}",
        (
            26,
            "reduce_max.7",
            "",
            false,
            Some(1),
            2048,
            2097152,
            "f32[512]{0:T(512)S(1)}",
        ),
    );
    check_value(
        " value: <22 copy-start{} @0> (size=512,offset=0): (f32[512,1024]{1,0:T(8,128)S(1)}, f32[512,1024]{1,0:T(8,128)}, u32[]{:S(2)})",
        (
            22,
            "copy-start",
            "{}",
            false,
            Some(0),
            512,
            0,
            "(f32[512,1024]{1,0:T(8,128)S(1)}, f32[512,1024]{1,0:T(8,128)}, u32[]{:S(2)})",
        ),
    );
}

#[test]
fn memory_usage_report_and_live_range_lines() {
    let tpu = read(&fixture("softmax/folder.tpu"));
    let spaces = buffers::memory_usage_report(&tpu.report);
    let got: Vec<_> = spaces
        .iter()
        .map(|s| (s.name, s.color, s.total_bytes))
        .collect();
    assert_eq!(
        got,
        [
            ("default", 0, Some(4198400)),
            ("vmem", 1, Some(2103296)),
            ("smem", 2, Some(4))
        ]
    );
    assert_eq!(
        buffers::peak_line("broadcast_divide_fusion{}: 2048 bytes (cumulative: 6293504 bytes)"),
        Some(("broadcast_divide_fusion{}", 2048, 6293504))
    );
    assert_eq!(
        buffers::peak_line("copy-start{0}: 2097152 bytes (cumulative: 2097152 bytes)"),
        Some(("copy-start{0}", 2097152, 2097152))
    );
    let cpu = read(&fixture("softmax/folder.cpu"));
    let lr = buffers::live_range(&cpu.live);
    assert_eq!(
        (lr.max_time, lr.sequence, lr.ranges.len(), lr.peak_time),
        (Some(5), 5, 5, Some(4))
    );
    assert_eq!(lr.peak_values.len(), 4);
}

#[test]
fn every_type_xla_prints_has_a_row_and_every_row_is_printed() {
    let mut seen = std::collections::HashSet::new();
    for (target, case, c) in cases() {
        let ba = buffers::buffer_assignment(&c.ba);
        for a in &ba.allocations {
            assert!(
                a.unknown.is_empty(),
                "{target}/{case} line {}: {:?} has no row in TYPES",
                a.line,
                a.unknown
            );
            seen.extend(a.types.iter().copied());
        }
    }
    for r in TYPES {
        assert!(
            seen.contains(&r.ty),
            "row {} is printed by none of the test folders",
            r.name
        );
    }
    // A clause that no row knows is kept, not dropped.
    let a = buffers::allocation_line("allocation 3: size 8, color 2, brand-new-type:", 1).unwrap();
    assert_eq!(a.unknown, ["brand-new-type"]);
}

#[test]
fn aliasing_against_input_output_alias() {
    let m = figures(&read(&data().join("cpu/donate_ok")));
    assert_eq!(m.aliases.len(), 1);
    let a = &m.aliases[0];
    assert_eq!(
        (
            a.parameter,
            a.output_index.as_str(),
            a.kind.as_str(),
            a.allocation,
            a.shares_allocation
        ),
        (0, "{}", "may-alias", Some(0), true)
    );
    assert!(m.unaliased.is_empty());

    // Donated, not usable: no output of its shape.
    let m = figures(&read(&data().join("cpu/donate_unusable")));
    assert!(m.aliases.is_empty());
    assert_eq!(m.unaliased.len(), 1);
    assert_eq!(
        m.unaliased[0].possibilities,
        ["not_donated", "dropped_by_jax"]
    );

    // Two parameters, the second donated: parameter 0 is not aliased; output
    // {0} is taken by parameter 1, output {1} has its shape and is free.
    let m = figures(&read(&data().join("cpu/donate_second")));
    assert_eq!(m.aliases.len(), 1);
    assert_eq!(
        (m.aliases[0].parameter, m.aliases[0].output_index.as_str()),
        (1, "{0}")
    );
    let u = &m.unaliased[0];
    assert_eq!(u.parameter, 0);
    assert_eq!(
        u.same_shape_outputs,
        [("{0}".to_string(), Some(1)), ("{1}".to_string(), None)]
    );
    assert_eq!(u.possibilities, ["not_donated", "memory_kind"]);
    for id in &u.possibilities {
        assert!(
            memory::POSSIBILITIES.iter().any(|p| p.id == *id),
            "{id} has no row"
        );
    }
}

/// A single array output (`...->f32[512,1024]{1,0}}`): its layout braces
/// are not the header's, so the not-donated parameter of the same shape
/// finds it (a bug once said "no output has its shape").
#[test]
fn a_single_array_output_is_found() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    for dir in [
        "softmax/folder.cpu",
        "dynamic_update_loop/folder.cpu.donated_row",
    ] {
        let m = figures(&read(&root.join(dir)));
        let u = &m.unaliased[0];
        assert_eq!(u.parameter, 0, "{dir}");
        assert_eq!(u.same_shape_outputs, [("{}".to_string(), None)], "{dir}");
        assert_eq!(u.possibilities, ["not_donated", "memory_kind"], "{dir}");
    }
}

/// JAX hands a donated argument it cannot pair to XLA as a buffer donor
/// when an output has its element count (`buffer_donor` in the header):
/// `donor_unused` donates `a` (f32[1000], nothing to pair: JAX warned) and
/// `b` (f32[64,64], the output is bf16[64,64]: a buffer donor XLA did not
/// use); `donor_used` donates f32[64,64] to a f32[4096] result: XLA used
/// the donor, and only the optimized module's header has the alias.
#[test]
fn buffer_donors_are_read_from_the_headers() {
    let m = figures(&read(&data().join("cpu/donor_unused")));
    assert!(m.aliases.is_empty());
    let by: Vec<(u64, Vec<&str>)> = m
        .unaliased
        .iter()
        .map(|u| (u.parameter, u.possibilities.clone()))
        .collect();
    assert_eq!(
        by,
        [
            (0, vec!["not_donated", "dropped_by_jax"]),
            (1, vec!["donor_unused"])
        ]
    );
    let m = figures(&read(&data().join("cpu/donor_used")));
    assert_eq!(m.aliases.len(), 1);
    assert_eq!(m.aliases[0].via_donor, Some(true), "{:?}", m.aliases);
    assert_eq!(m.alias_bytes, Some(16384));
    // JAX's own pairing (donate_ok has no before file: not known).
    let m = figures(&read(&data().join("cpu/donate_ok")));
    assert_eq!(m.aliases[0].via_donor, None);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let m = figures(&read(&root.join("dynamic_update_loop/folder.cpu.donated")));
    assert_eq!(m.aliases[0].via_donor, Some(false));
    assert_eq!(
        memory::parse_donors("{ (1, {}), (0, {2}) }"),
        [(1, "{}".to_string()), (0, "{2}".to_string())]
    );
}

#[test]
fn alias_headers_as_printed() {
    assert_eq!(
        memory::parse_aliases("{ {}: (0, {}, may-alias) }"),
        [(
            "{}".to_string(),
            0,
            "{}".to_string(),
            "may-alias".to_string()
        )]
    );
    assert_eq!(
        memory::parse_aliases("{ {0}: (1, {}, may-alias), {1}: (0, {2}, must-alias) }"),
        [
            (
                "{0}".to_string(),
                1,
                "{}".to_string(),
                "may-alias".to_string()
            ),
            (
                "{1}".to_string(),
                0,
                "{2}".to_string(),
                "must-alias".to_string()
            )
        ]
    );
    assert!(memory::parse_aliases("{ garbage").is_empty());
}

#[test]
fn largest_buffers_name_their_instruction_and_source_line() {
    let m = figures(&read(&data().join("cpu/big_temp")));
    let temp = m
        .largest
        .iter()
        .find(|l| l.types == ["preallocated-temp"])
        .unwrap();
    let v = &temp.values[0];
    assert!(
        v.source.as_deref().is_some_and(|s| s.contains("gen.py:")),
        "{v:?}"
    );
    assert!(v.op_name.is_some(), "{v:?}");
    let mut json = String::new();
    memory::write_json(&mut json, &m);
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed["temp_bytes"], 1048576);
    assert!(parsed["largest"][0]["instruction"].is_string());
    let mut text = String::new();
    memory::write_text(&mut text, &m);
    assert!(text.contains("1,048,576 B (1.00 MiB)"), "{text}");
    assert!(text.contains("Largest buffers"), "{text}");
}

#[test]
fn json_has_null_for_what_the_files_cannot_give() {
    let m = figures(&read(&fixture("softmax/folder.tpu")));
    let mut json = String::new();
    memory::write_json(&mut json, &m);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["peak_bytes"].is_null() && v["temp_bytes"].is_null());
    assert_eq!(v["argument_bytes"], 2097152);
    // Without the optimized module the alias figure is unknown.
    let c = read(&data().join("cpu/donate_ok"));
    let m = memory::figures(&Inputs {
        buffer_assignment: &c.ba,
        memory_usage_report: None,
        live_range: None,
        optimized: None,
        producer: Producer::Cpu,
        before: None,
    });
    assert_eq!(m.alias_bytes, None);
    assert_eq!(m.argument_bytes, Some(2097152));
}

#[test]
fn hostile_input_never_panics() {
    for (_, _, c) in cases().into_iter().take(8) {
        for text in [&c.ba, &c.live, &c.report, &c.optimized] {
            let cuts: Vec<usize> = (0..text.len())
                .step_by(97)
                .filter(|&i| text.is_char_boundary(i))
                .collect();
            for &cut in &cuts {
                let t = &text[..cut];
                let _ = memory::figures(&Inputs {
                    buffer_assignment: t,
                    memory_usage_report: Some(t),
                    live_range: Some(t),
                    optimized: Some(t),
                    producer: Producer::Gpu,
                    before: None,
                });
            }
        }
    }
    let huge = "allocation 0: size 99999999999999999999999, parameter 0, shape |f32[1]| at ShapeIndex {}:\n\
                allocation 1: size 18446744073709551615, parameter 1, shape |f32[1]| at ShapeIndex {}:\n \
                value: <1 x @0> (size=18446744073709551615,offset=0): f32[1]{0}\n\
                allocation 2: size 18446744073709551615, parameter 2, shape |f32[1]| at ShapeIndex {}:\n";
    let m = memory::figures(&Inputs {
        buffer_assignment: huge,
        memory_usage_report: None,
        live_range: Some(
            "Live ranges at 99999999999999999999 (peak):\n  x{}: 1 bytes (cumulative: 99999999999999999999999 bytes)",
        ),
        optimized: Some(
            "HloModule m, input_output_alias={ {}: (99999999999999999999, {}, may-alias), {: ( }",
        ),
        producer: Producer::Cpu,
        before: None,
    });
    assert_eq!(m.unread_lines, 1, "the first line's size does not fit");
    assert_eq!(
        m.argument_bytes, None,
        "the sum overflows: unknown, not wrapped"
    );
    for garbage in [
        "\u{0}\u{1}allocation",
        "allocation : size :",
        " value: <",
        "allocation 1: size 4, parameter |",
        "|||,,, :",
    ] {
        let _ = memory::figures(&Inputs {
            buffer_assignment: garbage,
            memory_usage_report: Some(garbage),
            live_range: Some(garbage),
            optimized: Some(garbage),
            producer: Producer::Unnamed,
            before: None,
        });
    }
}

#[test]
fn producers_from_file_names() {
    for (name, p) in [
        (
            "module_0000.jit_fn.cpu_after_optimizations-buffer-assignment.txt",
            Producer::Cpu,
        ),
        (
            "module_0001.jit__lambda.sm_9.0a_gpu_after_optimizations-buffer-assignment.txt",
            Producer::Gpu,
        ),
        (
            "module_0000.jit__lambda.cl_933746096.after_optimizations-buffer-assignment.txt",
            Producer::Unnamed,
        ),
        (
            "sub/module_0000.jit_fn.cpu_after_optimizations-live-range.txt",
            Producer::Cpu,
        ),
    ] {
        assert_eq!(Producer::from_file_name(name), p, "{name}");
    }
}

/// 100,000 allocations of two values each, their live ranges and a module
/// header: read in one pass (sorting aside), well under a second natively.
#[test]
fn a_large_buffer_assignment_is_read_in_linear_work() {
    let n = 100_000u64;
    let mut ba = String::from("BufferAssignment:\n");
    let mut live = String::from("HloLiveRange (max 200000):\n  BufferLiveRange:\n");
    for i in 0..n {
        ba.push_str(&format!(
            "allocation {i}: size 4096, preallocated-temp:\n value: <{} f{i} @0> (size=4096,offset=0): f32[1024]{{0}}\n value: <{} g{i} @0> (size=2048,offset=0): f32[512]{{0}}\n",
            2 * i,
            2 * i + 1
        ));
        live.push_str(&format!(
            "    f{i}{{}}:{i}-{}\n    g{i}{{}}:{}-{}\n",
            i + 1,
            i + 1,
            i + 2
        ));
    }
    let start = std::time::Instant::now();
    let m = memory::figures(&Inputs {
        buffer_assignment: &ba,
        memory_usage_report: None,
        live_range: Some(&live),
        optimized: None,
        producer: Producer::Gpu,
        before: None,
    });
    let took = start.elapsed();
    assert_eq!(m.allocations, n as usize);
    assert_eq!(m.temp_bytes, Some(4096 * n));
    // Allocation i's chunk holds f{i} then g{i}: steps i to i+2, so three
    // chunks are live at once.
    assert_eq!(m.peak_bytes, Some(3 * 4096));
    eprintln!("100,000 allocations: {took:?}");
    assert!(took.as_secs_f64() < 5.0, "{took:?}");
}

#[test]
fn a_buffer_assignment_with_no_allocation_gives_no_figure() {
    for text in ["", "BufferAssignment:\n", "garbage\nmore garbage\n"] {
        let m = memory::figures(&Inputs {
            buffer_assignment: text,
            memory_usage_report: None,
            live_range: None,
            optimized: Some("HloModule m, input_output_alias={ {}: (0, {}, may-alias) }"),
            producer: Producer::Cpu,
            before: None,
        });
        assert_eq!(
            (
                m.argument_bytes,
                m.output_bytes,
                m.alias_bytes,
                m.temp_bytes,
                m.peak_bytes
            ),
            (None, None, None, None, None),
            "{text:?}"
        );
        assert!(m.peak_basis.starts_with("unknown"));
    }
}

/// An allocation in host memory (`S(5)`, XLA's `Layout::kHostMemorySpace`)
/// counts in the host figures, as `PopulateBufferStatsFromAllocations`
/// does, not in the device's.
#[test]
fn host_memory_allocations_count_apart() {
    let ba = "BufferAssignment:\n\
              allocation 0: size 32, parameter 0, shape |f32[8]| at ShapeIndex {}:\n \
              value: <1 p.1 @5> (size=32,offset=0): f32[8]{0:S(5)}\n\
              allocation 1: size 32, parameter 1, shape |f32[8]| at ShapeIndex {}:\n \
              value: <2 q.1 @0> (size=32,offset=0): f32[8]{0}\n\
              allocation 2: size 64, preallocated-temp:\n \
              value: <3 t @5> (size=64,offset=0): f32[16]{0:S(5)}\n";
    let m = memory::figures(&Inputs {
        buffer_assignment: ba,
        memory_usage_report: None,
        live_range: None,
        optimized: None,
        producer: Producer::Cpu,
        before: None,
    });
    assert_eq!(
        (m.argument_bytes, m.temp_bytes, m.host_bytes),
        (Some(32), Some(0), Some(96))
    );
}
