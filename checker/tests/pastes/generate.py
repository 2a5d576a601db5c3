#!/usr/bin/env python3
"""Regenerate the paste corpus: real outputs of the pinned JAX, one folder per case.

Usage (from the repository root, with the venv that has jax 0.10.2, jaxlib,
libtpu, jax-cuda12-plugin/pjrt and nvcc):

    .tools/fixvenv/bin/python checker/tests/pastes/generate.py            # every case
    .tools/fixvenv/bin/python checker/tests/pastes/generate.py tpu_oom    # some cases

Every job (one case, one target, sometimes one variant) runs in a fresh
subprocess of its own, so XLA's module numbers (`module_0003...`) and plugin
state never depend on what ran before. The functions live in cases.py; this
file only drives them. Outputs: `<case>/...`, `manifest.toml`, `README.md`
(both written from the jobs' records). Deterministic: a rerun writes
byte-identical files (checked with `--check-twice`, which runs everything a
second time into a scratch folder and compares).

Rewriting (pure text, applied to every text file written):
  * the repository root /work/main/ (wherever the checkout is) is stripped;
  * any path inside site-packages/dist-packages becomes `<site-packages>/...`;
  * the Python standard library becomes `<python>/...`;
  * the temporary folder given to --xla_dump_to becomes `<xla_dump_to>`;
  * in captured stderr only: symbolizer URLs `trace=7f0f...,...&map=` -> `trace=0&map=`,
    trailing blanks of each line removed, `PID 8748`/`TID 8748` -> `PID 1`/`TID 1`, `on cpu 3` -> `on cpu 0`,
    stack-trace return addresses `    @     0x7f2bd7c24eb8` -> `    @     0x0`; glog prefixes get a fixed time and thread id:
    `I0000 00:00:1796685865.666731    4767 file.cc:31]` -> `I0000 00:00:1700000000.000000       1 file.cc:31]`
    and `I1207 23:31:05.123456    4767 file.cc:31]` -> `I0101 00:00:00.000000       1 file.cc:31]`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import traceback
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
REL = "checker/tests/pastes"
MARK = "@@paste-record@@ "
GPU_TARGET_CONFIG = REPO / "fixtures" / "targets" / "h100.pbtxt"
MAX_FILE = 2 * 1024 * 1024

DEVICES = {
    "cpu": "devices = jax.devices()  # host CPU, XLA:CPU pinned to 2 cores (sched_setaffinity)",
    "cpu4": "devices = jax.devices()  # env XLA_FLAGS=--xla_force_host_platform_device_count=4",
    "tpu": 'devices = jax.experimental.topologies.get_topology_desc(topology_name="v5e:2x2", platform="tpu").devices  # env JAX_PLATFORMS=cpu; deviceless TPU v5e, 4 chips of 16 GiB (15.75G usable HBM)',
    "gpu": 'devices = jax.experimental.topologies.get_topology_desc(topology_name="h100", platform="cuda", target_config=open("fixtures/targets/h100.pbtxt").read(), topology="1x1x1").devices  # env JAX_PLATFORMS=cpu; deviceless H100',
}

# --------------------------------------------------------------------------
# Text rewriting
# --------------------------------------------------------------------------


def _rewriters():
    rules = [(re.compile(r"(?:[A-Za-z]:)?[^\s\"'()<>,=]*/(?:site|dist)-packages/"), "<site-packages>/")]
    for root in sorted({str(REPO), os.path.realpath(REPO)}, key=len, reverse=True):
        rules.append((re.compile(re.escape(root.rstrip("/") + "/")), ""))
    stdlib = sysconfig.get_paths()["stdlib"]
    for lib in sorted({stdlib, os.path.realpath(stdlib)}, key=len, reverse=True):
        rules.append((re.compile(re.escape(lib.rstrip("/") + "/")), "<python>/"))
    return rules


_REWRITERS = _rewriters()


def rewrite_paths(text: str) -> str:
    for pattern, repl in _REWRITERS:
        text = pattern.sub(repl, text)
    return text


GLOG = re.compile(r"^([IWEF])(\d{4}) \d\d:\d\d:\d+\.\d+ +\d+ ", re.M)


def normalize_stderr(text: str) -> str:
    """Fixed time and thread id in glog prefixes; the level and the file:line stay."""

    def fix(m):
        if m.group(2) == "0000":  # before absl::InitializeLog: `I0000 00:00:<unix seconds>.<us> <tid>`
            return f"{m.group(1)}0000 00:00:1700000000.000000       1 "
        return f"{m.group(1)}0101 00:00:00.000000       1 "

    text = GLOG.sub(fix, rewrite_paths(text))
    # a crash report (SIGABRT from a failed CHECK): process ids, cpu number, return addresses
    text = re.sub(r"\b(PID|TID) \d+", r"\1 1", text)
    text = re.sub(r"\bon cpu \d+", "on cpu 0", text)
    text = re.sub(r"\btrace=[0-9a-f,]+&map=", "trace=0&map=", text)
    # libtpu writes "=== Source Location Trace: ===" with or without a trailing space (a race): no trailing blanks
    text = re.sub(r"[ \t]+$", "", text, flags=re.M)
    return re.sub(r"^(\s*@\s+)0x[0-9a-f]+", r"\g<1>0x0", text, flags=re.M)


# --------------------------------------------------------------------------
# HLO text helpers (used to write the checked ground truth)
# --------------------------------------------------------------------------


def computations(txt: str) -> dict[str, str]:
    out = {}
    for m in re.finditer(r"^(?:ENTRY )?%([\w.\-]+) \(.*?^}\n", txt, re.S | re.M):
        out[m.group(1)] = m.group(0)
    return out


def whiles(txt: str) -> list[dict]:
    comps = computations(txt)
    out = []
    for m in re.finditer(r"^\s*(?:ROOT )?%([\w.\-]+) = (.*?) while\(.*?condition=%([\w.\-]+), body=%([\w.\-]+)(.*)$", txt, re.M):
        trip = re.search(r'"known_trip_count":\{"n":"(\d+)"\}', m.group(5))
        body = comps.get(m.group(4), "")
        # the body and the fused computations it calls (one level)
        body += "".join(comps.get(c, "") for c in re.findall(r"calls=%([\w.\-]+)", body))
        out.append({
            "instruction": m.group(1), "condition": m.group(3), "body": m.group(4),
            "trip_count": int(trip.group(1)) if trip else None,
            "body_ops": sorted(set(re.findall(r"= \S+ ([a-z][\w\-]*)\(", body))),
            "body_copies": re.findall(r"%([\w.\-]+) = (\S+) copy\(", body),
            "body_dus": re.findall(r"%([\w.\-]+) = \S+ dynamic-update-slice\(", body),
            "body_fusions": re.findall(r"%([\w.\-]+) = \S+ fusion\(.*?calls=%([\w.\-]+)", comps.get(m.group(4), "")),
        })
    return out


def ops_named(txt: str, op: str) -> list[tuple[str, str]]:
    return re.findall(r"%([\w.\-]+) = (\([^=]*?\)|\S+) " + re.escape(op) + r"\(", txt)


def strip_metadata(txt: str) -> str:
    """What identical_hlo compares: no metadata={...}, no stack-frame tables."""
    txt = re.sub(r", metadata=\{[^}]*\}", "", txt)
    return re.sub(r"^(FileNames|FunctionNames|FileLocations|StackFrames)\n(?:\d+ .*\n)*", "", txt, flags=re.M)


# --------------------------------------------------------------------------
# Worker side
# --------------------------------------------------------------------------


class A:
    """An argument: shape, dtype name, optional row-major layout or PartitionSpec."""

    def __init__(self, shape, dtype, layout=None, pspec=None):
        self.shape, self.dtype, self.layout, self.pspec = tuple(shape), dtype, layout, pspec

    def make(self, jax, jnp, device, mesh):
        from jax.sharding import NamedSharding, PartitionSpec, SingleDeviceSharding

        dt = getattr(jnp, self.dtype)
        if mesh is not None:
            sh = NamedSharding(mesh, PartitionSpec(*(self.pspec or ())))
        elif device is not None:
            sh = SingleDeviceSharding(device)
        else:
            sh = None
        if self.layout is not None:
            from jax.experimental.layout import Format, Layout

            sh = Format(Layout(major_to_minor=self.layout), sh)
        return jax.ShapeDtypeStruct(self.shape, dt, sharding=sh)

    def __repr__(self):
        if self.pspec is not None:
            sh = f"NamedSharding(mesh, PartitionSpec{tuple(self.pspec)!r})"
        else:
            sh = "SingleDeviceSharding(devices[0])"
        if self.layout is not None:
            sh = f"Format(Layout(major_to_minor={self.layout!r}), {sh})"
        return f"jax.ShapeDtypeStruct({self.shape!r}, jnp.{self.dtype}, sharding={sh})"


class Ctx:
    def __init__(self, case: str, target: str, out: Path):
        self.case, self.target, self.out = case, target, out
        self.out.mkdir(parents=True, exist_ok=True)
        import jax
        import jax.numpy as jnp

        self.jax, self.jnp = jax, jnp
        self.mesh = None
        self.device = None
        if target in ("tpu", "gpu"):
            from jax.experimental import topologies

            if target == "tpu":
                topo = topologies.get_topology_desc(topology_name="v5e:2x2", platform="tpu")
            else:
                topo = topologies.get_topology_desc(
                    topology_name="h100", platform="cuda", target_config=GPU_TARGET_CONFIG.read_text(), topology="1x1x1"
                )
            self.devices = list(topo.devices)
            self.device = self.devices[0]
        else:
            self.devices = list(jax.devices())
        self.mod = load_cases()

    # -- recording
    def record(self, **rec):
        print(MARK + json.dumps({"case": self.case, "target": self.target, **rec}), flush=True)

    def write(self, name: str, text: str, call: str, what: str, **extra):
        if not text.endswith("\n"):
            text += "\n"
        data = rewrite_paths(text).encode("utf-8")
        (self.out / name).write_bytes(data)
        self.record(file=name, call=call, what=what, bytes=len(data), **extra)

    def fact(self, **facts):
        self.record(facts=facts)

    def use_mesh(self, n=4):
        import numpy as np

        self.mesh = self.jax.sharding.Mesh(np.asarray(self.devices[:n]).reshape(n), ("x",))

    # -- compiling
    def suffix(self, variant):
        return f"{self.target}.{variant}" if variant else self.target

    def lower(self, fn_name, specs, jit_kw=None):
        jax, jnp = self.jax, self.jnp
        fn = getattr(self.mod, fn_name)
        args = [s.make(jax, jnp, self.device, self.mesh) for s in specs]
        if self.mesh is not None:
            with jax.set_mesh(self.mesh):
                return jax.jit(fn, **(jit_kw or {})).lower(*args)
        return jax.jit(fn, **(jit_kw or {})).lower(*args)

    def calls(self, fn_name, specs, jit_repr="", options=None):
        head = f"jax.jit(cases.{fn_name}{jit_repr}).lower(*args)"
        opts = repr(options) if options else ""
        args = "args = [" + ", ".join(repr(s) for s in specs) + "]"
        if self.mesh is not None:
            args = 'mesh = jax.sharding.Mesh(np.asarray(devices[:4]).reshape(4), ("x",)); with jax.set_mesh(mesh): ' + args
        return head, opts, args

    def compile(self, variant, fn_name, specs, jit_kw=None, jit_repr="", options=None, memory=False):
        """compiled.<t>[.v].hlo.txt plus lowered.<t>[.v].stablehlo.mlir / .hlo.txt; returns the text."""
        lowered = self.lower(fn_name, specs, jit_kw)
        head, opts, args = self.calls(fn_name, specs, jit_repr, options)
        sfx = self.suffix(variant)
        meta = dict(fn=fn_name, variant=variant or "", args=args, devices=DEVICES[self.devkey()])
        self.write(f"lowered.{sfx}.stablehlo.mlir", lowered.as_text(), f"{head}.as_text()", "lowered StableHLO", **meta)
        self.write(f"lowered.{sfx}.hlo.txt", lowered.as_text(dialect="hlo"), f'{head}.as_text(dialect="hlo")',
                   "HLO before optimization", **meta)
        compiled = lowered.compile(options) if options else lowered.compile()
        txt = compiled.as_text()
        self.write(f"compiled.{sfx}.hlo.txt", txt, f"{head}.compile({opts}).as_text()", "compiled (optimized) HLO", **meta)
        if memory:
            self.write(f"memory_analysis.{sfx}.json", memory_json(compiled),
                       f"{head}.compile({opts}).memory_analysis()  # fields printed as JSON", "memory_analysis", **meta)
        return txt

    def devkey(self):
        return "cpu4" if (self.target == "cpu" and self.mesh is not None) else self.target

    def dump(self, variant, fn_name, specs, jit_kw=None, jit_repr="", options=None, expect_error=False):
        """Compile once more with xla_dump_to; keep every file XLA wrote as dump.<t>[.v]/ plus a list of names."""
        lowered = self.lower(fn_name, specs, jit_kw)
        head, _, args = self.calls(fn_name, specs, jit_repr, None)
        sfx = self.suffix(variant)
        folder = f"dump.{sfx}"
        with tempfile.TemporaryDirectory(prefix="paste-dump-") as tmp:
            opts = dict(options or {})
            opts["xla_dump_to"] = tmp
            err = None
            try:
                lowered.compile(opts)
            except Exception as e:  # noqa: BLE001
                err = e
            if (err is None) == expect_error:
                raise RuntimeError(f"dump compile: expected error={expect_error}, got {err!r}")
            names = sorted(str(p.relative_to(tmp)) + ("/" if p.is_dir() else "") for p in Path(tmp).rglob("*"))
            roots = sorted({tmp, os.path.realpath(tmp)}, key=len, reverse=True)
            dest = self.out / folder
            dest.mkdir(exist_ok=True)
            call = f"{head}.compile({{'xla_dump_to': tmpdir{''.join(f', {k!r}: {v!r}' for k, v in (options or {}).items())}}})"
            for p in sorted(Path(tmp).rglob("*")):
                if not p.is_file():
                    continue
                data = p.read_bytes()
                try:
                    text = data.decode("utf-8")
                    for r in roots:
                        text = text.replace(r, "<xla_dump_to>")
                    data = rewrite_paths(text).encode("utf-8")
                except UnicodeDecodeError:
                    pass
                rel = f"{folder}/{p.relative_to(tmp)}"
                (self.out / rel).parent.mkdir(parents=True, exist_ok=True)
                (self.out / rel).write_bytes(data)
                self.record(file=rel, call=call, what="file XLA wrote to xla_dump_to", bytes=len(data), fn=fn_name,
                            variant=variant or "", args=args, devices=DEVICES[self.devkey()])
            self.write(f"{folder}.files.txt", "\n".join(names), f"sorted(os.listdir-recursive(tmpdir)) after {call}",
                       "names of every file and folder XLA wrote", fn=fn_name, variant=variant or "")
        return names

    def compile_error(self, variant, fn_name, specs, jit_kw=None, jit_repr="", options=None):
        """A compile expected to fail: error.<t>[.v].txt (str(e)), .lastline.txt, .traceback.txt."""
        lowered = self.lower(fn_name, specs, jit_kw)
        head, opts, args = self.calls(fn_name, specs, jit_repr, options)
        sfx = self.suffix(variant)
        meta = dict(fn=fn_name, variant=variant or "", args=args, devices=DEVICES[self.devkey()])
        self.write(f"lowered.{sfx}.stablehlo.mlir", lowered.as_text(), f"{head}.as_text()", "lowered StableHLO", **meta)
        self.write(f"lowered.{sfx}.hlo.txt", lowered.as_text(dialect="hlo"), f'{head}.as_text(dialect="hlo")',
                   "HLO before optimization", **meta)
        try:
            compiled = lowered.compile(options) if options else lowered.compile()
        except Exception as e:  # noqa: BLE001
            call = f"{head}.compile({opts})"
            self.write(f"error.{sfx}.txt", str(e), f"try: {call}\nexcept Exception as e: str(e)", "exception text", **meta)
            last = traceback.format_exception_only(type(e), e)[-1]
            self.write(f"error.{sfx}.lastline.txt", last, f"traceback.format_exception_only(type(e), e)[-1]  # of {call}",
                       "the traceback's last line", **meta)
            self.write(f"error.{sfx}.traceback.txt", traceback.format_exc(),
                       f"traceback.format_exc()  # of {call}", "full (JAX-filtered) traceback", **meta)
            return e
        self.write(f"compiled.{sfx}.hlo.txt", compiled.as_text(), f"{head}.compile({opts}).as_text()",
                   "compiled (optimized) HLO (no error raised)", **meta)
        return None


def memory_json(compiled) -> str:
    m = compiled.memory_analysis()
    fields = ("temp_size_in_bytes", "argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
              "generated_code_size_in_bytes", "peak_memory_in_bytes")
    return json.dumps({f: int(getattr(m, f)) for f in fields if hasattr(m, f)}, indent=2)


def load_cases():
    import types

    path = HERE / "cases.py"
    mod = types.ModuleType("cases")
    code = compile(path.read_text(encoding="utf-8"), f"{REL}/cases.py", "exec")
    exec(code, mod.__dict__)  # noqa: S102
    return mod


# --------------------------------------------------------------------------
# The jobs: (case, target, name) -> function(ctx)
# --------------------------------------------------------------------------

F32 = "float32"


def job_tpu_oom(ctx: Ctx, variant: str):
    m = ctx.mod
    if variant == "matmul_chain":
        specs, fn = [A((m.OOM_N, m.OOM_N), F32)], "oom_matmul_chain"
    elif variant == "padded_params":
        specs, fn = [A((m.OOM_PAD_N, 2), F32, layout=(0, 1))], "oom_padded_params"
        from jax.experimental.layout import Format, Layout

        row = Format(Layout(major_to_minor=(0, 1)), ctx.jax.sharding.SingleDeviceSharding(ctx.device))
        kw, rep = {"out_shardings": (row, row)}, (
            ", out_shardings=(Format(Layout(major_to_minor=(0, 1)), SingleDeviceSharding(devices[0])),) * 2")
        e = ctx.compile_error(variant, fn, specs, jit_kw=kw, jit_repr=rep)
        ctx.fact(variant=variant, error=None if e is None else str(e))
        ctx.dump(variant, fn, specs, jit_kw=kw, jit_repr=rep, expect_error=e is not None)
        return
    else:
        specs, fn = [A((m.OOM_PAD_BF16_N, 1), "bfloat16")], "oom_padded_intermediates"
    e = ctx.compile_error(variant, fn, specs)
    ctx.fact(variant=variant, error=None if e is None else str(e))
    ctx.dump(variant, fn, specs, expect_error=e is not None)


def job_tpu_padding(ctx: Ctx, variant: str):
    if variant == "row_major":
        specs = [A((65536, 2), F32, layout=(0, 1)), A((4096, 3), "bfloat16", layout=(0, 1))]
        fn = "padding_row_major"
    else:
        specs = [A((65536, 2), F32), A((4096, 3), "bfloat16")]
        fn = "padding_default_layout"
    txt = ctx.compile(variant, fn, specs, memory=True)
    layout = re.search(r"entry_computation_layout=\{(\(.*?\)->\(.*?\))\}", txt)
    ctx.fact(variant=variant, entry_computation_layout=layout.group(1) if layout else None)
    ctx.dump(variant, fn, specs)


def job_donation_unusable(ctx: Ctx, variant: str):
    jax, jnp = ctx.jax, ctx.jnp
    if variant == "argnums":
        fn, kw, rep = "donate_unusable", {"donate_argnums": 0}, ", donate_argnums=0"
        real = lambda: (jnp.ones((1024, 1024), jnp.float32),)  # noqa: E731
        real_repr = "x = jnp.ones((1024, 1024), jnp.float32); f(x)"
        specs = [A((1024, 1024), F32)]
    else:
        fn, kw, rep = "donate_unusable_named", {"donate_argnames": "x"}, ', donate_argnames="x"'
        real = lambda: (jnp.ones((1024, 1024), jnp.float32), jnp.float32(2.0))  # noqa: E731
        real_repr = "x = jnp.ones((1024, 1024), jnp.float32); f(x, jnp.float32(2.0))"
        specs = [A((1024, 1024), F32), A((), F32)]
    f = jax.jit(getattr(ctx.mod, fn), **kw)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = f(*real())
        jax.block_until_ready(out)
    msgs = [w for w in caught]
    call = f"f = jax.jit(cases.{fn}{rep}); {real_repr}  # under warnings.catch_warnings(record=True)"
    if not msgs:
        raise RuntimeError("no warning was raised")
    ctx.write(f"warning.{variant}.txt", "\n---\n".join(str(w.message) for w in msgs), call + "; str(w.message)",
              "warning message text", fn=fn, variant=variant)
    ctx.write(f"warning.{variant}.formatted.txt",
              "".join(warnings.formatwarning(w.message, w.category, w.filename, w.lineno, None) for w in msgs),
              call + "; warnings.formatwarning(w.message, w.category, w.filename, w.lineno, None)",
              "the warning as Python prints it", fn=fn, variant=variant)
    ctx.fact(variant=variant, warning=str(msgs[0].message), category=msgs[0].category.__name__)
    txt = ctx.compile(variant, fn, specs, jit_kw=kw, jit_repr=rep, memory=True)
    ctx.fact(variant=variant, input_output_alias=("input_output_alias" in txt))


def job_donation_missing(ctx: Ctx, variant: str):
    specs = [A((4096, 1024), F32)]
    for v, kw, rep in (("", {}, ""), ("donated", {"donate_argnums": 0}, ", donate_argnums=0")):
        txt = ctx.compile(v, "update_row", specs, jit_kw=kw, jit_repr=rep, memory=True)
        alias = re.search(r"input_output_alias=\{ (.*?) \}, ", txt)
        ctx.fact(variant=v or "not_donated", copies=ops_named(txt, "copy"),
                 dynamic_update_slices=ops_named(txt, "dynamic-update-slice"),
                 fusions=re.findall(r"%([\w.\-]+) = (\S+) fusion\(.*?calls=%([\w.\-]+)", txt),
                 input_output_alias=alias.group(1) if alias else None)


SCATTER_SPECS = {
    "set_c128": ("scatter_set_c128", [A((4096,), "complex128"), A((128,), "int32"), A((128,), "complex128")]),
    "set_c128_unique": ("scatter_set_c128_unique", [A((4096,), "complex128"), A((128,), "int32"), A((128,), "complex128")]),
    "add_c128": ("scatter_add_c128", [A((4096,), "complex128"), A((128,), "int32"), A((128,), "complex128")]),
    "add_rows_f32": ("scatter_add_rows_f32", [A((1024, 256), F32), A((128,), "int32"), A((128, 256), F32)]),
    "lax_unique_sorted": ("scatter_lax_unique_sorted", [A((1024, 256), F32), A((128,), "int32"), A((128, 256), F32)]),
}


def job_scatter_loop(ctx: Ctx, variant: str):
    for v, (fn, specs) in SCATTER_SPECS.items():
        if variant and v != variant:
            continue
        if not variant and "c128" in v and ctx.target == "tpu":
            continue  # libtpu aborts the process on these: job scatter_loop/tpu/set_c128 (stderr kept)
        txt = ctx.compile(v, fn, specs)
        ctx.fact(variant=v, whiles=whiles(txt), scatters=ops_named(txt, "scatter"))


def job_copy_in_loop(ctx: Ctx, variant: str):
    for v, fn, specs in (("transpose", "loop_transpose", [A((512, 512), F32)]),
                         ("swap", "loop_swap", [A((512, 512), F32)] * 2)):
        txt = ctx.compile(v, fn, specs)
        ctx.fact(variant=v, whiles=whiles(txt))


def job_huge_intermediate(ctx: Ctx, variant: str):
    txt = ctx.compile("", "sort_outer_difference", [A((2048,), F32)] * 2, memory=True)
    ctx.fact(sorts=ops_named(txt, "sort"), fusions=re.findall(r"%([\w.\-]+) = (\S+) fusion\(", txt))


def job_allgather_dot(ctx: Ctx, variant: str):
    from jax.sharding import NamedSharding, PartitionSpec as P

    ctx.use_mesh(4)
    mesh = ctx.mesh
    xs, ws = A((1024, 4096), F32, pspec=(None, "x")), A((4096, 2048), F32, pspec=(None, "x"))
    x_rep, w_rows = A((1024, 4096), F32, pspec=()), A((4096, 2048), F32, pspec=("x", None))
    runs = [
        ("gather_out_replicated", "sharded_dot", [xs, ws], {"out_shardings": NamedSharding(mesh, P())},
         ", out_shardings=NamedSharding(mesh, PartitionSpec())"),
        ("gather_constraint", "sharded_dot_constrained", [xs, ws], {}, ""),
        ("well_sharded", "sharded_dot", [x_rep, ws], {"out_shardings": NamedSharding(mesh, P(None, "x"))},
         ', out_shardings=NamedSharding(mesh, PartitionSpec(None, "x"))'),
        ("contracting_both", "sharded_dot", [xs, w_rows], {"out_shardings": NamedSharding(mesh, P())},
         ", out_shardings=NamedSharding(mesh, PartitionSpec())"),
    ]
    for v, fn, specs, kw, rep in runs:
        txt = ctx.compile(v, fn, specs, jit_kw=kw, jit_repr=rep)
        colls = re.findall(r"%([\w.\-]+) = (\S+) (all-gather|all-reduce|reduce-scatter|all-to-all|collective-permute)(?:-start)?\(", txt)
        dots = re.findall(r"%([\w.\-]+) = (\S+) (dot|convolution)\(", txt)
        ctx.fact(variant=v, collectives=colls, dots=dots, spmd_entry=re.findall(r"ENTRY %([\w.\-]+)", txt),
                 is_scheduled="is_scheduled=true" in txt)


DOTS = {
    "f32": ("dot_f32", [A((512, 512), F32)] * 2),
    "s8_s8_s32": ("dot_s8_s8_s32", [A((512, 512), "int8")] * 2),
    "s32": ("dot_s32", [A((512, 512), "int32")] * 2),
    "f64": ("dot_f64", [A((512, 512), "float64")] * 2),
    "bf16_f32": ("dot_bf16_f32", [A((512, 512), "bfloat16"), A((512, 512), F32)]),
    "u8_u8_u32": ("dot_u8_u8_u32", [A((512, 512), "uint8")] * 2),
    "c64": ("dot_c64", [A((256, 256), "complex64")] * 2),
}


def job_gpu_dot_no_library(ctx: Ctx, variant: str):
    for v, (fn, specs) in DOTS.items():
        for sfx, opts in (("", None), (".no_triton", {"xla_gpu_enable_triton_gemm": False})):
            txt = ctx.compile(v + sfx, fn, specs, options=opts)
            comps = computations(txt)
            dot_in = []
            for name, body in comps.items():
                for d in re.findall(r"%([\w.\-]+) = \S+ dot\(", body):
                    caller = re.search(r"%([\w.\-]+) = \S+ fusion\([^)]*\), kind=(\w+), calls=%" + re.escape(name) + r"\b(.*)", txt)
                    kind = caller.group(2) if caller else None
                    fk = re.search(r'"kind":"([^"]+)"', caller.group(3)).group(1) if caller and '"kind":"' in caller.group(3) else None
                    dot_in.append({"dot": d, "computation": name, "fusion": caller.group(1) if caller else None,
                                   "fusion_kind": kind, "backend_kind": fk})
            ctx.fact(variant=v + sfx, custom_calls=re.findall(r'%([\w.\-]+) = .*custom_call_target="([^"]+)"', txt),
                     dots=dot_in)


def job_layout_transpose(ctx: Ctx, variant: str):
    for v, fn, specs in (("transpose_plus", "transpose_plus", [A((1024, 1024), F32)] * 2),
                         ("cumsum_of_transpose", "cumsum_of_transpose", [A((1024, 2048), F32)]),
                         ("transpose_into_dot", "transpose_into_dot", [A((2048, 1024), F32), A((2048, 512), F32)])):
        txt = ctx.compile(v, fn, specs)
        ctx.fact(variant=v, copies=ops_named(txt, "copy"), transposes=ops_named(txt, "transpose"),
                 transpose_fusions=re.findall(r"%([\w.\-]+) = (\S+) fusion\([^)]*\), kind=\w+, calls=%(fused_transpose[\w.]*)", txt))


def job_identical_hlo(ctx: Ctx, variant: str):
    texts = {}
    for v, fn in (("a", "fn_double_negation"), ("b", "fn_times_three"), ("near_a", "fn_power_two"),
                  ("near_b", "fn_self_multiply")):
        texts[v] = ctx.compile(v, fn, [A((1024, 256), F32)])
    import difflib

    for a, b in (("a", "b"), ("near_a", "near_b")):
        sa, sb = strip_metadata(texts[a]), strip_metadata(texts[b])
        diff = [l for l in difflib.unified_diff(sa.splitlines(), sb.splitlines(), lineterm="", n=0)
                if l[:1] in "+-" and l[:3] not in ("+++", "---")]
        ctx.fact(pair=f"{a}/{b}", raw_identical=texts[a] == texts[b], identical_after_strip=sa == sb, diff_after_strip=diff)


JOBS = [
    ("tpu_oom", "tpu", "matmul_chain", {"stderr": True}),
    ("tpu_oom", "tpu", "padded_params", {"stderr": True}),
    ("tpu_oom", "tpu", "padded_intermediates", {"stderr": True}),
    ("tpu_padding", "tpu", "row_major", {}),
    ("tpu_padding", "tpu", "default_layout", {}),
    ("donation_unusable", "cpu", "argnums", {}),
    ("donation_unusable", "cpu", "argnames", {}),
    *[("donation_missing", t, "", {}) for t in ("cpu", "tpu", "gpu")],
    *[("scatter_loop", t, "", {"x64": True}) for t in ("cpu", "tpu", "gpu")],
    ("scatter_loop", "tpu", "set_c128", {"x64": True, "stderr": True}),
    *[("copy_in_loop", t, "", {}) for t in ("cpu", "tpu", "gpu")],
    *[("huge_intermediate", t, "", {}) for t in ("cpu", "tpu", "gpu")],
    *[("allgather_dot", t, "", {"devices": 4}) for t in ("cpu", "tpu")],
    ("gpu_dot_no_library", "gpu", "", {"x64": True}),
    *[("layout_transpose", t, "", {}) for t in ("cpu", "tpu", "gpu")],
    ("identical_hlo", "cpu", "", {}),
]


def worker(case: str, target: str, variant: str, out: str, x64: bool) -> int:
    sys.dont_write_bytecode = True
    if target == "cpu" and hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, cores[:2])
    import jax

    if x64:
        jax.config.update("jax_enable_x64", True)
    from jax._src import source_info_util

    source_info_util.register_exclusion(str(Path(__file__).resolve()))
    source_info_util.register_exclusion(__file__)
    ctx = Ctx(case, target, Path(out))
    try:
        globals()[f"job_{case}"](ctx, variant)
    except Exception as e:  # noqa: BLE001
        ctx.record(failure=f"{type(e).__name__}: {rewrite_paths(str(e))}")
        return 1
    return 0


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------


def run_job(case, target, variant, opts, root: Path) -> list[dict]:
    env = dict(os.environ)
    for var in ("XLA_FLAGS", "LIBTPU_INIT_ARGS", "JAX_ENABLE_X64", "JAX_DEFAULT_MATMUL_PRECISION", "TPU_ACCELERATOR_TYPE"):
        env.pop(var, None)
    env["JAX_PLATFORMS"] = "cpu"
    env["PYTHONHASHSEED"] = "0"
    env["TF_CPP_MIN_LOG_LEVEL"] = "0" if opts.get("stderr") else "2"
    if target == "cpu" and opts.get("devices"):
        env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={opts['devices']}"
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", case, target, variant or "-", str(root / case),
           "1" if opts.get("x64") else "0"]
    proc = subprocess.run(cmd, env=env, cwd=REPO, capture_output=True, text=True, timeout=900)
    recs = [json.loads(l[len(MARK):]) for l in proc.stdout.splitlines() if l.startswith(MARK)]
    for r in recs:
        r["job_variant"] = variant
        r["env"] = {k: env[k] for k in ("JAX_PLATFORMS", "TF_CPP_MIN_LOG_LEVEL", "XLA_FLAGS", "PYTHONHASHSEED") if k in env}
        if opts.get("x64"):
            r["env"]["jax_enable_x64"] = "True (jax.config.update)"
    if opts.get("stderr"):
        name = f"stderr.{target}.{variant}.txt" if variant else f"stderr.{target}.txt"
        data = normalize_stderr(proc.stderr)
        (root / case / name).write_text(data, encoding="utf-8", newline="\n")
        recs.append({"case": case, "target": target, "file": name, "what": "stderr of the whole job process",
                     "call": f"the stderr of the subprocess that ran job {case}/{target}/{variant} (env TF_CPP_MIN_LOG_LEVEL=0)",
                     "bytes": len(data.encode()), "variant": variant, "job_variant": variant})
    if proc.returncode != 0 and not any("failure" in r for r in recs):
        err = normalize_stderr(proc.stderr).strip().splitlines()
        fatal = [l for l in err if re.match(r"F\d{4} ", l)]
        tail = (fatal or err or [f"exit {proc.returncode}"])[0 if fatal else -1]
        recs.append({"case": case, "target": target, "failure": f"worker exited {proc.returncode}: {tail}",
                     "job_variant": variant})
    return recs


def main(argv: list[str]) -> int:
    if argv[:1] == ["--worker"]:
        case, target, variant, out, x64 = argv[1:6]
        return worker(case, target, "" if variant == "-" else variant, out, x64 == "1")
    check_twice = "--check-twice" in argv
    wanted = [a for a in argv if not a.startswith("--")]
    cases = list(dict.fromkeys(c for c, *_ in JOBS))
    if wanted:
        bad = set(wanted) - set(cases)
        if bad:
            print(f"unknown case(s): {sorted(bad)}")
            return 2
        cases = [c for c in cases if c in wanted]
    root = HERE
    recs = generate(cases, root)
    if check_twice:
        with tempfile.TemporaryDirectory(prefix="paste-check-") as tmp:
            # run in the same tree layout so the rewritten paths are the same
            generate(cases, Path(tmp), second=True)
            diffs = compare(cases, root, Path(tmp))
        print("second run:", "byte-identical" if not diffs else f"{len(diffs)} differing files: {diffs[:20]}")
    return 1 if any("failure" in r for r in recs) else 0


def generate(cases, root: Path, second=False) -> list[dict]:
    all_recs = []
    for case in cases:
        shutil.rmtree(root / case, ignore_errors=True)
        (root / case).mkdir(parents=True)
        for c, target, variant, opts in JOBS:
            if c != case:
                continue
            print(f"[{case}/{target}{'/' + variant if variant else ''}] ...", flush=True)
            recs = run_job(c, target, variant, opts, root)
            for r in recs:
                if "failure" in r:
                    print(f"    failure: {r['failure'].splitlines()[0][:300]}")
            all_recs += recs
    if not second:
        write_manifest(cases, root, all_recs)
    return all_recs


def compare(cases, a: Path, b: Path) -> list[str]:
    diffs = []
    for case in cases:
        fa = {p.relative_to(a) for p in (a / case).rglob("*") if p.is_file()}
        fb = {p.relative_to(b) for p in (b / case).rglob("*") if p.is_file()}
        for rel in sorted(fa | fb):
            if rel not in fa or rel not in fb or (a / rel).read_bytes() != (b / rel).read_bytes():
                diffs.append(str(rel))
    return diffs


# --------------------------------------------------------------------------
# manifest.toml
# --------------------------------------------------------------------------


def toml_str(s) -> str:
    return json.dumps(s, ensure_ascii=False)


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if v is None:
        return '""'
    if isinstance(v, str):
        return toml_str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    return toml_str(str(v))


def toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_\-]+", k) else toml_str(k)


def write_manifest(cases, root: Path, recs: list[dict]):
    import ground_truth  # noqa: PLC0415  (checker/tests/pastes/ground_truth.py)

    path = root / "manifest.toml"
    old = {}
    if path.exists() and set(cases) != set(c for c, *_ in JOBS):
        old = _split_manifest(path.read_text(encoding="utf-8"))
    out = [
        "# Generated by checker/tests/pastes/generate.py: do not edit by hand.",
        "# Per case: its target(s), ground truth written from the construction (checked against",
        "# the dump by generate.py), and per file the exact call that made it.",
        "",
    ]
    sections = dict(old)
    for case in cases:
        crecs = [r for r in recs if r["case"] == case]
        sections[case] = render_case(case, crecs, ground_truth)
    for case in [c for c in dict.fromkeys(c for c, *_ in JOBS) if c in sections]:
        out.append(sections[case])
    path.write_text("\n".join(out), encoding="utf-8", newline="\n")
    sizes = {str(p.relative_to(root)): p.stat().st_size for p in sorted(root.rglob("*"))
             if p.is_file() and p.parts[len(root.parts)] in set(c for c, *_ in JOBS)}
    (root / "README.md").write_text(ground_truth.readme(sections, sizes), encoding="utf-8", newline="\n")


def _split_manifest(text: str) -> dict[str, str]:
    parts = re.split(r"(?m)^(?=\[cases\.)", text)
    out = {}
    for p in parts[1:]:
        name = re.match(r"\[cases\.([\w]+)\]", p).group(1)
        out[name] = p.rstrip("\n") + "\n"
    return out


def render_case(case, crecs, gt) -> str:
    facts = [dict(target=r["target"], **r["facts"]) for r in crecs if "facts" in r]
    truth = gt.truth(case, facts)
    lines = [f"[cases.{case}]"]
    lines.append(f"targets = {toml_value(sorted(set(r['target'] for r in crecs)))}")
    for k, v in truth.items():
        lines.append(f"{toml_key(k)} = {toml_value(v)}")
    fails = [f"{r['target']}: {r['failure']}" for r in crecs if "failure" in r]
    lines.append(f"failures = {toml_value(fails)}")
    lines.append("")
    for f in facts:
        lines.append(f"[[cases.{case}.observed]]")
        for k, v in f.items():
            lines.append(f"{toml_key(k)} = {toml_value(v)}")
        lines.append("")
    removed = {r["unfile"] for r in crecs if "unfile" in r}
    for r in crecs:
        if "file" not in r or r["file"] in removed:
            continue
        lines.append(f"[[cases.{case}.files]]")
        for k in ("file", "target", "variant", "what", "bytes", "call", "args", "devices", "fn"):
            if r.get(k) not in (None, ""):
                lines.append(f"{k} = {toml_value(r[k])}")
        lines.append(f"env = {toml_value(r.get('env', {}))}")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.exit(main(sys.argv[1:]))
