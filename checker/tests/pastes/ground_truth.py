"""Ground truth of each case (written from the construction in cases.py), and the README.

generate.py calls `truth(case, observed)` with the facts its jobs read off the
dumps (instruction names, trip counts, byte figures): the construction says
what the cause is; the observed facts give the exact names XLA chose, and a
construction that did not produce its cause is reported (`produced = false`).
"""

from __future__ import annotations

import tomllib

GIB = 1 << 30


def _where(observed, **match):
    return [f for f in observed if all(f.get(k) == v for k, v in match.items())]


def _one(observed, **match):
    got = _where(observed, **match)
    return got[0] if got else {}


def truth(case: str, observed: list[dict]) -> dict:
    fn = globals().get(f"truth_{case}")
    return fn(observed) if fn else {}


def truth_tpu_oom(obs):
    out = {
        "cause": "hbm-oom",
        "available_hbm": "15.75G",
        "construction": "TPU v5e one chip (16 GiB, 15.75G usable): matmul_chain needs five f32[32768,32768] (4 GiB each) "
        "at once; padded_params: f32[16777216,2] argument + 2 outputs forced row-major {1,0}, T(8,128) pads 2 -> 128 "
        "(64x: 128 MiB -> 8 GiB each); padded_intermediates: bf16[33554432,1] values forced row-major by "
        "with_layout_constraint, 1 -> 128 (128x: 64 MiB -> 8 GiB each).",
    }
    for v in ("matmul_chain", "padded_params", "padded_intermediates"):
        f = _one(obs, variant=v)
        out[f"{v}_error"] = f.get("error") or ""
    out["matmul_chain_required"] = "20.00G"
    out["padded_params_padding"] = {"shape": "f32[16777216,2]", "unpadded_bytes": 134217728, "padded_bytes": 8589934592,
                                    "layout": "{1,0:T(8,128)}", "factor": 64}
    out["padded_intermediates_padding"] = {"shape": "bf16[33554432,1]", "unpadded_bytes": 67108864,
                                           "padded_bytes": 8589934592, "layout": "{1,0:T(8,128)(2,1)}", "factor": 128}
    return out


def truth_tpu_padding(obs):
    return {
        "cause": "tile-padding",
        "construction": "x f32[65536,2] and y bf16[4096,3] passed with Format(Layout(major_to_minor=(0, 1))) (row-major "
        "{1,0}); the TPU tiles T(8,128) / T(8,128)(2,1) pad the minor dim to 128. The default_layout variant lets XLA "
        "pick {0,1:T(2,128)} / {0,1:T(4,128)(2,1)} and there is (almost) no padding.",
        "padded": [
            {"shape": "f32[65536,2]", "layout": "{1,0:T(8,128)}", "unpadded_bytes": 524288, "padded_bytes": 33554432,
             "factor": 64},
            {"shape": "bf16[4096,3]", "layout": "{1,0:T(8,128)(2,1)}", "unpadded_bytes": 24576, "padded_bytes": 1048576,
             "factor": "42.67"},
        ],
        "row_major_argument_size_in_bytes": 34603008,
        "default_layout_argument_size_in_bytes": 557056,
        "row_major_entry_layout": _one(obs, variant="row_major").get("entry_computation_layout", ""),
        "default_entry_layout": _one(obs, variant="default_layout").get("entry_computation_layout", ""),
    }


def truth_donation_unusable(obs):
    w = _one(obs, variant="argnums").get("warning", "")
    return {
        "cause": "donation-unusable",
        "construction": "donated f32[1024,1024]; the only output is bf16[512,1024] (other shape and dtype), so no output "
        "can alias the donated buffer; called once on real CPU arrays.",
        "warning": w,
        "warning_argnames": _one(obs, variant="argnames").get("warning", ""),
        "category": _one(obs, variant="argnums").get("category", ""),
        "donated": "float32[1024,1024]",
        "input_output_alias": False,
    }


def truth_donation_missing(obs):
    per = []
    for t in ("cpu", "tpu", "gpu"):
        nd, d = _one(obs, target=t, variant="not_donated"), _one(obs, target=t, variant="donated")
        per.append({
            "target": t,
            "copy": (nd.get("copies") or [["", ""]])[0][0],
            "copy_shape": (nd.get("copies") or [["", ""]])[0][1],
            "donated_copies": len(d.get("copies") or []),
            "donated_alias": d.get("input_output_alias") or "",
        })
    return {
        "cause": "missing-donation",
        "construction": "x.at[0].set(1.0) on f32[4096,1024] (16 MiB) without donation: XLA copies the parameter "
        "before the in-place dynamic-update-slice; with donate_argnums=0 the copy is gone and input_output_alias appears.",
        "bytes": 16777216,
        "per_target": per,
    }


def truth_scatter_loop(obs):
    f = _one(obs, target="gpu", variant="set_c128")
    w = (f.get("whiles") or [{}])[0]
    loop_targets = sorted({(o["target"], o["variant"]) for o in obs if o.get("whiles")})
    no_loop = sorted({(o["target"], o["variant"]) for o in obs if not o.get("whiles")})
    return {
        "cause": "scatter-serial-loop",
        "construction": "x c128[4096] .at[idx].set(u c128[128]) with jax_enable_x64: XLA:GPU's GpuScatterExpander "
        "rewrites a scatter of >64-bit elements into a while loop with one dynamic-update-slice per index.",
        "target": "gpu",
        "variant": "set_c128",
        "instruction": w.get("instruction", ""),
        "trip_count": 128,
        "observed_trip_count": w.get("trip_count") or "",
        "body": w.get("body", ""),
        "body_fusions": w.get("body_fusions", []),
        "body_dynamic_update_slice": w.get("body_dus", []),
        "loop_in": [f"{t}/{v}" for t, v in loop_targets],
        "no_loop_in": [f"{t}/{v}" for t, v in no_loop],
    }


def truth_copy_in_loop(obs):
    per = []
    for f in obs:
        for w in f.get("whiles", []):
            per.append({"target": f["target"], "variant": f["variant"], "while": w["instruction"], "body": w["body"],
                        "trip_count": 10, "copies": [c[0] for c in w["body_copies"]],
                        "copy_shapes": [c[1] for c in w["body_copies"]]})
    return {
        "cause": "copy-in-loop",
        "construction": "fori_loop(0, 10): 'transpose' carries f32[512,512] and returns x.T + 1 each trip; 'swap' carries "
        "(a, b) f32[512,512] and returns (b + 1, a). The loop-carried buffer cannot be updated in place, so the while "
        "body copies it.",
        "per_target": per,
    }


def truth_huge_intermediate(obs):
    per = []
    for f in obs:
        fus = f.get("fusions") or []
        per.append({"target": f["target"], "producer": fus[0][0] if fus else "", "producer_shape": fus[0][1] if fus else "",
                    "sort": [s[0] for s in f.get("sorts") or []]})
    return {
        "cause": "huge-intermediate",
        "construction": "jnp.sort((x[:, None] - y[None, :]).ravel()) with x, y f32[2048] (8192 bytes each): the outer "
        "difference f32[2048,2048] = 16777216 bytes (2048x the inputs) is materialised because sort does not fuse.",
        "input_bytes": 8192,
        "intermediate_shape": "f32[2048,2048]",
        "intermediate_bytes": 16777216,
        "per_target": per,
    }


def truth_allgather_dot(obs):
    per = []
    for f in obs:
        per.append({"target": f["target"], "variant": f["variant"],
                    "all_gathers": [c[0] + " " + c[1] for c in f.get("collectives", []) if c[2] == "all-gather"],
                    "other_collectives": [c[0] + " " + c[1] for c in f.get("collectives", []) if c[2] != "all-gather"],
                    "dot": [d[0] for d in f.get("dots", [])], "entry": (f.get("spmd_entry") or [""])[0]})
    return {
        "cause": "allgather-before-dot",
        "construction": "mesh of 4 devices, axis 'x'. gather_out_replicated: x f32[1024,4096] P(None,'x') (contracting "
        "dim), w f32[4096,2048] P(None,'x'), out_shardings replicated: x is all-gathered to its full size before the dot. "
        "gather_constraint: with_sharding_constraint(w, P()) all-gathers w f32[4096,2048]. well_sharded: x replicated, w "
        "and the output P(None,'x'): no collective. contracting_both: both operands sharded on the contracting dim: "
        "an all-reduce of the result, no all-gather.",
        "bad_variants": ["gather_out_replicated", "gather_constraint"],
        "good_variants": ["well_sharded", "contracting_both"],
        "per_target": per,
    }


def truth_gpu_dot_no_library(obs):
    per = []
    for f in obs:
        dots = f.get("dots") or []
        per.append({
            "variant": f["variant"],
            "library_call": ", ".join(f"{c[0]} {c[1]}" for c in f.get("custom_calls", [])),
            "dot_in_fusion": ", ".join(f"{d['dot']} in {d['fusion']} ({d['fusion_kind']}"
                                       + (f", {d['backend_kind']})" if d.get("backend_kind") else ")") for d in dots),
            "no_library": not f.get("custom_calls") and any(d["fusion_kind"] == "kLoop" for d in dots),
        })
    return {
        "cause": "dot-without-library",
        "construction": "512x512 dots on the deviceless H100, once with default options and once with "
        "xla_gpu_enable_triton_gemm=False ('.no_triton'). Deviceless compiles do not autotune: by default every "
        "supported dot becomes a Triton gemm fusion (__triton_nested_gemm_fusion), not cuBLAS; with Triton gemm off "
        "f32, f64, bf16 x f32, s8 x s8 -> s32 and c64 go to __cublas$lt$matmul; s32 x s32 and u8 x u8 -> u32 stay a plain "
        "dot in a kLoop fusion (no library, no Triton) in both settings.",
        "library_target": "__cublas$lt$matmul",
        "per_variant": per,
    }


def truth_layout_transpose(obs):
    per = []
    for f in obs:
        per.append({"target": f["target"], "variant": f["variant"],
                    "copies": [f"{c[0]} {c[1]}" for c in f.get("copies", [])],
                    "transposes": [f"{c[0]} {c[1]}" for c in f.get("transposes", [])],
                    "transpose_fusions": [f"{c[0]} {c[1]}" for c in f.get("transpose_fusions", [])]})
    return {
        "cause": "layout-transpose",
        "construction": "transpose_plus: x.T + y, x, y f32[1024,1024] (4 MiB, a whole parameter is transposed); "
        "cumsum_of_transpose: cumsum(x.T, axis=1), x f32[1024,2048]; transpose_into_dot: x.T @ y, where the transpose "
        "folds into the dot's contracting dims (the negative: no copy/transpose expected).",
        "bytes": 4194304,
        "per_target": per,
    }


def truth_identical_hlo(obs):
    return {
        "cause": "identical-hlo",
        "construction": "a: -(-x) * 3.0 and b: x * 3.0 (both named `fn`, x f32[1024,256]) compile to the same HLO "
        "on the CPU; near_a: x**2 and near_b: x * x compile to the same computation but the instruction name differs "
        "(%integer_pow.0 vs %mul.0).",
        "strip": "remove ', metadata={...}' and the FileNames/FunctionNames/FileLocations/StackFrames tables",
        "pairs": [{k: v for k, v in f.items() if k != "target"} for f in obs],
    }


# --------------------------------------------------------------------------
# README.md
# --------------------------------------------------------------------------

INTRO = """# Paste corpus: real JAX 0.10.2 outputs

Generated by `checker/tests/pastes/generate.py` (functions in `cases.py`, ground
truth in `ground_truth.py`) with jax 0.10.2, jaxlib 0.10.2, libtpu 0.0.42.1,
jax-cuda12-plugin/pjrt 0.10.2 and nvidia-cuda-nvcc-cu12, no accelerator:
TPU v5e (`get_topology_desc(topology_name="v5e:2x2", platform="tpu")`, one chip
unless sharded) and H100 (`fixtures/targets/h100.pbtxt`, `topology="1x1x1"`) are
compiled deviceless with `JAX_PLATFORMS=cpu`; the CPU is the host, XLA:CPU
pinned to 2 cores. Every job runs in a fresh subprocess (`PYTHONHASHSEED=0`, no
`XLA_FLAGS` from the shell), so a rerun writes byte-identical files.

`manifest.toml` has, per case: the targets, the ground truth (`cause` and the
exact instruction names / trip counts / byte figures), `failures`, the facts read
off the dumps (`[[cases.X.observed]]`) and per file the exact call that made it
(`call`, `args`, `devices`, `env`).

File names: `compiled.<cpu|gpu|tpu>[.<variant>].hlo.txt` is
`jax.jit(f).lower(*args).compile().as_text()`; next to each,
`lowered.<target>[.<variant>].stablehlo.mlir` (`lower(...).as_text()`) and
`lowered.<target>[.<variant>].hlo.txt` (`.as_text(dialect="hlo")`), lowered for
that target's device. `dump.<target>.<variant>/` holds every file XLA wrote
with `compile({"xla_dump_to": tmpdir})` (all kept, not only those about memory;
`dump.*.files.txt` lists the names), `memory_analysis.*.json` the fields of
`compiled.memory_analysis()`, `error.*` an exception (`str(e)`, the traceback's
last line, the whole JAX-filtered traceback), `stderr.*` a job's whole stderr.

## What was rewritten

* The repository root (`/work/main/`) is stripped: paths read `checker/tests/pastes/cases.py`
  (cases.py is compiled under that name, and generate.py's own frames are excluded from JAX's
  source locations, so dumps name only cases.py). Paths inside `site-packages` become
  `<site-packages>/...`, the standard library `<python>/...`.
* The temporary `xla_dump_to` folder becomes `<xla_dump_to>` inside dumped files.
* Only in `stderr.*.txt`: glog prefixes get a fixed time and thread id
  (`I0000 00:00:1796685865.666731    4767 f.cc:31]` -> `I0000 00:00:1700000000.000000       1 f.cc:31]`,
  `I1207 23:31:05.123456 ...` -> `I0101 00:00:00.000000       1 ...`); in the crash report
  `PID n`/`TID n` -> 1, `on cpu n` -> `on cpu 0`, stack addresses `@ 0x7f..` -> `@ 0x0`,
  symbolizer `trace=...&map=` -> `trace=0&map=`, and trailing blanks of every line are removed
  (libtpu writes `=== Source Location Trace: ===` with or without a trailing space, a race between
  runs). Everything else is verbatim.
* `error.*.traceback.txt` shows generate.py's frame (its line number moves when generate.py is edited).
"""

NOTES = {
    "tpu_oom": """No rematerialization message ("Can't reduce memory use below ...") was logged:
libtpu raised the OOM straight away (`stderr.tpu.*.txt` holds only plugin
start-up lines, kept with TF_CPP_MIN_LOG_LEVEL=0). The memory-usage report shows
the padded sizes next to the logical shapes (`8.00GiB; ... f32[16777216,2]`),
the buffer assignment the tiled layouts (`{1,0:T(8,128)}`).""",
    "tpu_padding": """Without an explicit layout the TPU picks the transposed layout `{0,1}` for
f32[N,2]/bf16[N,3] arguments, so the padding only shows when the layout is
forced (here with `Format(Layout(major_to_minor=(0, 1)), sharding)`): the
`default_layout` variant is the precision test.""",
    "scatter_loop": """Only XLA:GPU emits the loop, and only for scatters of >64-bit elements
(c128 `.set`). Tried without a loop on every target: f32 `.at[idx].add/.set/.max/.multiply`,
bf16, s32, complex64, 2-D indices, `unique_indices`/`indices_are_sorted`,
`jax.lax.scatter`, and on GPU `xla_gpu_deterministic_ops`/`xla_gpu_exclude_nondeterministic_ops`
(these give a sort-based rewrite, not a loop). c128 `.add` is split into two f64 scatters
(real/imag), no loop. The TPU cannot compile a c128 scatter at all: libtpu aborts the process
with `F... xprecision_rewriter.cc:6289] Check failed: 2 == hlo->shape().tuple_shapes().size() (2 vs. 1)`
(`stderr.tpu.set_c128.txt` keeps the whole crash report). The loop body is
`%while_body`: `%loop_dynamic_update_slice_fusion` calls `%fused_dynamic_update_slice`, whose root
`%dynamic-update-slice.2` writes one c128[1] at the index `dynamic-slice(indices, counter)`.""",
    "copy_in_loop": """The TPU's while has no `known_trip_count` in its backend_config (trip count 10 from the construction).""",
    "gpu_dot_no_library": """The cuBLAS custom call is `__cublas$lt$matmul` (not `__cublas$gemm`) in this
jaxlib. Deviceless compiles do not autotune, so by default every dot cuBLAS could run is a Triton
gemm fusion instead; `.no_triton` (`xla_gpu_enable_triton_gemm=False`) shows the cuBLAS choice.""",
    "allgather_dot": """On the TPU the gathered operand is converted to bf16 before the all-gather
(`bf16[1024,4096]`: default matmul precision), on the CPU it stays f32. The SPMD entry is `%main.0_spmd`.""",
}


def readme(sections: dict[str, str], sizes: dict[str, int]) -> str:
    data = tomllib.loads("\n".join(sections.values()))["cases"]
    out = [INTRO, "## Cases\n"]
    for case, c in data.items():
        out.append(f"### {case}\n")
        out.append(f"Targets: {', '.join(c.get('targets', []))}. Cause: `{c.get('cause', '')}`.\n")
        out.append(c.get("construction", "") + "\n")
        out += _findings(case, c)
        if case in NOTES:
            out.append(NOTES[case] + "\n")
        if c.get("failures"):
            out.append("Could not be produced / failed:\n")
            out += [f"* `{f}`" for f in c["failures"]]
            out.append("")
        files = [f for f in c.get("files", []) if "/" not in f["file"]]
        dumped = sorted({f["file"].split("/")[0] for f in c.get("files", []) if "/" in f["file"]})
        out.append("Files: " + ", ".join(f"`{f['file']}`" for f in files)
                   + (("; dump folders " + ", ".join(f"`{d}/`" for d in dumped)) if dumped else "") + ".\n")
    total = sum(sizes.values())
    big = [f"`{k}` ({v} bytes)" for k, v in sizes.items() if v > 2 * 1024 * 1024]
    out.append("## Size\n")
    out.append(f"{len(sizes)} files, {total} bytes in all; largest `{max(sizes, key=sizes.get)}` "
               f"({max(sizes.values())} bytes)." + (" Over 2 MB: " + ", ".join(big) + "." if big else " No file over 2 MB.")
               + "\n")
    return "\n".join(out)


def _findings(case, c):
    out = []
    if case == "tpu_oom":
        for v in ("matmul_chain", "padded_params", "padded_intermediates"):
            out.append(f"* `{v}`: `{c.get(v + '_error', '')}`")
    elif case == "tpu_padding":
        for p in c.get("padded", []):
            out.append(f"* `{p['shape']}` `{p['layout']}`: {p['unpadded_bytes']} -> {p['padded_bytes']} bytes ({p['factor']}x)")
        out.append(f"* argument_size_in_bytes: row_major {c['row_major_argument_size_in_bytes']}, "
                   f"default_layout {c['default_layout_argument_size_in_bytes']}")
    elif case == "donation_unusable":
        out.append(f"* {c.get('category')}: `{c.get('warning', '')!r}` (the same for donate_argnames)")
    elif case == "donation_missing":
        for p in c.get("per_target", []):
            out.append(f"* {p['target']}: not donated: `%{p['copy']}` = `{p['copy_shape']}` copy of the parameter; "
                       f"donated: {p['donated_copies']} copies, input_output_alias `{p['donated_alias']}`")
    elif case == "scatter_loop":
        out.append(f"* loop: gpu/set_c128 `%{c.get('instruction')}` body `%{c.get('body')}`, trip count "
                   f"{c.get('trip_count')} (known_trip_count {c.get('observed_trip_count')}), "
                   f"dynamic-update-slice {c.get('body_dynamic_update_slice')}")
        out.append(f"* loop in: {', '.join(c.get('loop_in', []))}; no loop in: {', '.join(c.get('no_loop_in', []))}")
    elif case in ("copy_in_loop",):
        for p in c.get("per_target", []):
            out.append(f"* {p['target']}/{p['variant']}: `%{p['while']}` body `%{p['body']}`: copies "
                       + ", ".join(f"`%{n}` {s}" for n, s in zip(p["copies"], p["copy_shapes"])))
    elif case == "huge_intermediate":
        for p in c.get("per_target", []):
            out.append(f"* {p['target']}: `%{p['producer']}` = `{p['producer_shape']}` then sort {p['sort']}")
    elif case == "allgather_dot":
        for p in c.get("per_target", []):
            out.append(f"* {p['target']}/{p['variant']}: all-gather {p['all_gathers'] or 'none'}, "
                       f"other {p['other_collectives'] or 'none'}, dot {p['dot']}")
    elif case == "gpu_dot_no_library":
        for p in c.get("per_variant", []):
            out.append(f"* {p['variant']}: " + (f"library `{p['library_call']}`" if p["library_call"] else "no library call")
                       + (f"; dot {p['dot_in_fusion']}" if p["dot_in_fusion"] else "")
                       + ("  <- no library" if p["no_library"] else ""))
    elif case == "layout_transpose":
        for p in c.get("per_target", []):
            out.append(f"* {p['target']}/{p['variant']}: copies {p['copies'] or 'none'}, transposes "
                       f"{p['transposes'] or 'none'}, transpose fusions {p['transpose_fusions'] or 'none'}")
    elif case == "identical_hlo":
        for p in c.get("pairs", []):
            out.append(f"* {p['pair']}: byte-identical raw {p['raw_identical']}, after strip {p['identical_after_strip']}"
                       + (f"; differs: {p['diff_after_strip']}" if p["diff_after_strip"] else ""))
    out.append("")
    return out
