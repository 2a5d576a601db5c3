#!/usr/bin/env python3
"""Regenerate the drift corpus: real dumps from many JAX releases, TensorFlow
and PyTorch/XLA, XLA dump-folder files, and damaged copies of some of them,
with a manifest whose ground truth comes from how each file was made.

    bash checker/tests/drift/setup-venvs.sh          # once: one venv per producer
    python3 checker/tests/drift/generate.py          # every producer whose venv exists
    python3 checker/tests/drift/generate.py jax-0.4.13 tf-2.21.0   # some producers
    python3 checker/tests/drift/generate.py --damage-only          # only redo damaged/

Producers are the venvs of setup-venvs.sh (target/drift-venvs/<name>). Each
runs in its own subprocess (one per stage family, so plugin state and
XLA_FLAGS never leak between them); a producer whose venv is missing, or a
stage its version cannot make, is skipped with one printed line saying why.
Entries of producers not rerun are kept from the existing manifest, so
regenerating one producer leaves the rest alone. Output is deterministic:
rerunning rewrites byte-identical files ("unchanged" in the summary).

Ground truth never comes from the checker: `kind`, `dialect` and `backend`
follow from the stage (the API call or dump-folder file name) through the
STAGES table and the dump-folder rules below; README.md explains each.

Machine paths are rewritten: the repository root is stripped, anything inside
site-packages becomes `<site-packages>/`, the standard library `<python>/`,
other /tmp/... paths `<tmp>/...` and /root/... `<home>/...`.
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
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
VENVS = REPO / "target" / "drift-venvs"
MANIFEST = HERE / "manifest.toml"
MARK = "@@drift@@ "
CPU_PARALLELISM = 2
TPU_TOPOLOGY = "v5e:2x2"

# Producers in the order they are generated: venv name -> framework.
PRODUCERS = {
    "jax-0.4.13": "jax",
    "jax-0.4.20": "jax",
    "jax-0.4.26": "jax",
    "jax-0.4.30": "jax",
    "jax-0.4.35": "jax",
    "jax-0.5.3": "jax",
    "jax-0.6.2": "jax",
    "jax-0.7.2": "jax",
    "jax-0.10.2": "jax",
    "tf-2.21.0": "tensorflow",
    "torch-xla-2.9.0": "torch-xla",
}
# Producers that also write XLA dump folders (per-pass files too): the pinned
# JAX, one old and one middle release, and the other two frameworks.
DUMP_FOLDER = {"jax-0.4.13", "jax-0.5.3", "jax-0.10.2", "tf-2.21.0", "torch-xla-2.9.0"}
# Passes whose per-pass files are kept (XLA's --xla_dump_hlo_pass_re).
PASS_RE = "^(fusion|layout-assignment|cpu-layout-assignment)$"

# stage -> (kind, dialect, backend). Kinds are the checker's names
# (dumplab::Kind::as_str); backend None = the text cannot say (a worker's `backend`, jax_fns.LOWERED_FOR, overrides it).
STAGES: dict[str, tuple[str, str, str | None]] = {
    "jaxpr": ("jaxpr", "jaxpr", None),
    "lowered-stablehlo": ("stablehlo", "stablehlo", None),
    "lowered-mhlo": ("stablehlo", "mhlo", None),
    "lowered-hlo": ("hlo-unoptimized", "hlo", None),
    "compiled-cpu": ("hlo-optimized", "hlo", "cpu"),
    "compiled-tpu": ("hlo-optimized", "hlo", "tpu"),
    "tf-hlo": ("hlo-unoptimized", "hlo", None),
    "tf-optimized-hlo": ("hlo-optimized", "hlo", "cpu"),
    "torch-xla-tensors-hlo": ("hlo-unoptimized", "hlo", None),
    "torch-xla-ir-text": ("unknown", "none", None),
}

# Damaged copies: which clean files (relative to HERE, when they exist) and
# which damages. Every original gets every damage.
DAMAGE_ORIGINALS = [
    "jax-0.4.13/mlp.compiled.cpu.hlo.txt",
    "jax-0.4.13/mlp.lowered.mhlo.mlir",
    "jax-0.4.30/softmax.lowered.stablehlo.mlir",
    "jax-0.10.2/mlp.compiled.cpu.hlo.txt",
    "jax-0.10.2/softmax.compiled.tpu.hlo.txt",
    "jax-0.10.2/loop.jaxpr.txt",
    "jax-0.10.2/mlp.lowered.hlo.txt",
    "tf-2.21.0/mlp.hlo.txt",
    "tf-2.21.0/mlp.optimized_hlo.txt",
    "torch-xla-2.9.0/mlp.tensors_hlo.txt",
]
DAMAGES = ["repr", "log-prefix", "log-prefix-glog", "wrapped-80", "wrapped-120", "prompt", "truncated"]


# --------------------------------------------------------------------------
# Paths
# --------------------------------------------------------------------------


def _rewriters() -> list[tuple[re.Pattern[str], str]]:
    rules = [(re.compile(r"(?:[A-Za-z]:)?[^\s\"'()<>,=]*/(?:site|dist)-packages/"), "<site-packages>/")]
    for root in sorted({str(REPO), os.path.realpath(REPO)}, key=len, reverse=True):
        rules.append((re.compile(re.escape(root.rstrip("/") + "/")), ""))
    lib = sysconfig.get_paths()["stdlib"]
    for p in sorted({lib, os.path.realpath(lib), "/root/.pyenv/versions/3.11.7/lib/python3.11"}, key=len, reverse=True):
        rules.append((re.compile(re.escape(p.rstrip("/") + "/")), "<python>/"))
    rules.append((re.compile(r"/tmp/[^\s\"'()<>,=]*"), "<tmp>/..."))
    rules.append((re.compile(r"/root/"), "<home>/"))
    return rules


_REWRITERS = _rewriters()


def rewrite_paths(text: str) -> str:
    for pattern, repl in _REWRITERS:
        text = pattern.sub(repl, text)
    return text


def normalize(text: str) -> str:
    text = rewrite_paths(text)
    return text if text.endswith("\n") else text + "\n"


# --------------------------------------------------------------------------
# Workers (run inside a producer's venv)
# --------------------------------------------------------------------------


def emit(**record) -> None:
    print(MARK + json.dumps(record), flush=True)


def first_line(e: BaseException) -> str:
    lines = [l for l in str(e).strip().splitlines() if l.strip()]
    return rewrite_paths(f"{type(e).__name__}: {lines[0] if lines else ''}".strip())


def write(out: Path, name: str, text: str, stage: str, call: str, **extra) -> None:
    (out / name).write_text(normalize(text), encoding="utf-8", newline="\n")
    emit(file=name, stage=stage, call=call, **extra)


def pin_cpus() -> None:
    """XLA:CPU splits loops by core count: pin it so dumps match across hosts."""
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, cpus[:CPU_PARALLELISM])


def jax_worker(out: Path, mode: str) -> None:
    pin_cpus()
    sys.path.insert(0, str(HERE / "functions"))
    import jax
    from jax_fns import FUNCTIONS, LOWERED_FOR

    if mode == "api":
        for name, (fn, args) in FUNCTIONS.items():
            a = args()
            try:
                write(out, f"{name}.jaxpr.txt", str(jax.make_jaxpr(fn)(*a)), "jaxpr", "str(jax.make_jaxpr(fn)(*args))")
            except Exception as e:  # noqa: BLE001
                emit(skip=f"{name} jaxpr", why=first_line(e))
            lowered = jax.jit(fn).lower(*a)
            write(out, f"{name}.lowered.stablehlo.mlir", lowered.as_text(), "lowered-stablehlo", "jax.jit(fn).lower(*args).as_text()", **LOWERED_FOR.get(name, {}))
            for dialect, stage, fname in (("mhlo", "lowered-mhlo", "lowered.mhlo.mlir"), ("hlo", "lowered-hlo", "lowered.hlo.txt")):
                try:
                    write(out, f"{name}.{fname}", lowered.as_text(dialect=dialect), stage,
                          f'jax.jit(fn).lower(*args).as_text(dialect="{dialect}")', **LOWERED_FOR.get(name, {}))
                except Exception as e:  # noqa: BLE001 - the dialect is gone in this release
                    emit(skip=f'{name} as_text(dialect="{dialect}")', why=first_line(e))
            write(out, f"{name}.compiled.cpu.hlo.txt", lowered.compile().as_text(), "compiled-cpu",
                  "jax.jit(fn).lower(*args).compile().as_text()")
        return
    if mode == "tpu":
        import importlib.metadata as md

        try:
            md.version("libtpu")
        except md.PackageNotFoundError:
            emit(skip="TPU deviceless compile", why="libtpu is not installed in this venv (see README: TPU)")
            return
        try:
            from jax.experimental import topologies

            topo = topologies.get_topology_desc(topology_name=TPU_TOPOLOGY, platform="tpu")
            device = topo.devices[0]
        except Exception as e:  # noqa: BLE001 - no usable libtpu: skip, say why
            emit(skip="TPU deviceless compile", why=first_line(e))
            return
        sharding = jax.sharding.SingleDeviceSharding(device)
        for name, (fn, args) in FUNCTIONS.items():
            a = [jax.ShapeDtypeStruct(s.shape, s.dtype, sharding=sharding) for s in args()]
            try:
                text = jax.jit(fn).lower(*a).compile().as_text()
            except Exception as e:  # noqa: BLE001
                emit(skip=f"{name} TPU compile", why=first_line(e))
                continue
            write(out, f"{name}.compiled.tpu.hlo.txt", text, "compiled-tpu",
                  f'topo = jax.experimental.topologies.get_topology_desc(topology_name="{TPU_TOPOLOGY}", platform="tpu"); '
                  "jax.jit(fn).lower(*args sharded on topo.devices[0]).compile().as_text()  # JAX_PLATFORMS=cpu")
        return
    # mode dump-cpu / dump-tpu: XLA_FLAGS (set by the driver) writes the folder.
    fn, args = FUNCTIONS["mlp"]
    a = args()
    if mode == "dump-tpu":
        from jax.experimental import topologies

        try:
            topo = topologies.get_topology_desc(topology_name=TPU_TOPOLOGY, platform="tpu")
        except Exception as e:  # noqa: BLE001
            emit(skip="TPU dump folder", why=first_line(e))
            return
        sharding = jax.sharding.SingleDeviceSharding(topo.devices[0])
        a = [jax.ShapeDtypeStruct(s.shape, s.dtype, sharding=sharding) for s in a]
    jax.jit(fn).lower(*a).compile()
    emit(dumped="mlp")


def tf_worker(out: Path, mode: str) -> None:
    pin_cpus()
    sys.path.insert(0, str(HERE / "functions"))
    import tensorflow as tf
    from tf_fns import FUNCTIONS, args

    all_args = args()
    for name, fn in FUNCTIONS.items():
        if mode == "dump" and name != "mlp":
            continue
        ir = fn.experimental_get_compiler_ir(*all_args[name])
        if mode == "dump":
            fn(*all_args[name])  # compile and run: XLA_FLAGS writes the folder
            emit(dumped=name)
            continue
        for stage, fname, tstage in (("hlo", "hlo.txt", "tf-hlo"), ("optimized_hlo", "optimized_hlo.txt", "tf-optimized-hlo")):
            write(out, f"{name}.{fname}", ir(stage=stage), tstage,
                  f"tf.function(fn, jit_compile=True).experimental_get_compiler_ir(*args)(stage='{stage}')",
                  version=tf.__version__)


def torch_worker(out: Path, mode: str) -> None:
    pin_cpus()
    sys.path.insert(0, str(HERE / "functions"))
    import torch_xla
    import torch_xla.core.xla_model as xm
    from torch_fns import FUNCTIONS, args

    device = xm.xla_device()
    all_args = args(device)
    for name, fn in FUNCTIONS.items():
        if mode == "dump" and name != "mlp":
            continue
        y = fn(*all_args[name])
        if mode == "dump":
            xm.mark_step()
            emit(dumped=name)
            continue
        write(out, f"{name}.tensors_hlo.txt", torch_xla._XLAC._get_xla_tensors_hlo([y]), "torch-xla-tensors-hlo",
              "torch_xla._XLAC._get_xla_tensors_hlo([fn(*args)])  # PJRT_DEVICE=CPU")
        write(out, f"{name}.tensors_text.txt", torch_xla._XLAC._get_xla_tensors_text([y]), "torch-xla-ir-text",
              "torch_xla._XLAC._get_xla_tensors_text([fn(*args)])  # PJRT_DEVICE=CPU",
              reason="torch_xla's lazy-tensor IR, not an XLA dump: no kind of the checker fits, `unknown` is right")


def worker(argv: list[str]) -> int:
    sys.dont_write_bytecode = True  # no __pycache__ in functions/
    framework, mode, out = argv[0], argv[1], Path(argv[2])
    {"jax": jax_lowered_for_worker if mode == "lowered-for" else jax_worker, "tensorflow": tf_worker, "torch-xla": torch_worker}[framework](out, mode)
    return 0


# --------------------------------------------------------------------------
# Dump folders: which files are kept and what each one is
# --------------------------------------------------------------------------

PASS_FILE = re.compile(r"^module_\d+\.(?P<mod>.+?)\.(?P<n>\d{4})\.(?P<pipe>.+?)\.after_(?P<after>.+?)\.before_(?P<before>.+)\.txt$")


def dump_truth(name: str, backend: str, text: str, pass_order: list[str]) -> dict | None:
    """Ground truth of one dump-folder file, from its name; None = not kept.

    `pass_order`: the folder's per-pass file names in run order (XLA numbers
    them per module: `module_0000.jit_f.0003.<pipeline>.after_X.before_Y.txt`).
    """
    if name.endswith("before_optimizations.txt"):
        # Before any HLO pass: not compiled. TPU: the TPU client has already
        # set the entry layouts (tiles), so the text names the TPU.
        named = backend if backend == "tpu" and "T(" in text.split("\n", 1)[0] else None
        return dict(stage="xla-dump-before-optimizations", kind="hlo-unoptimized", dialect="hlo", backend=named)
    for tail in ("after_optimizations", "after_optimizations_before_buffer_assignment",
                 "after_optimizations_after_buffer_assignment", "after_codegen"):
        if name.endswith(f".{tail}.txt") or name.endswith(f".{backend}_{tail}.txt"):
            # After the whole HLO pipeline (TPU: also around buffer
            # assignment and after code generation): compiled.
            return dict(stage=f"xla-dump-{tail.replace('_', '-')}", kind="hlo-optimized", dialect="hlo", backend=backend)
    m = PASS_FILE.match(name)
    if not m:
        return None
    upto = pass_order[: pass_order.index(name) + 1]
    fused = any(PASS_FILE.match(n)["after"].startswith("fusion") for n in upto)
    truth = dict(stage=f"xla-dump-pass:{m['pipe']}:after_{m['after']}", dialect="hlo", backend=backend, partial=True)
    if fused:
        truth["kind"] = "hlo-optimized"
    else:
        truth["kind"] = "ambiguous"
        # Before fusion nothing backend-specific need be in the text (the
        # TPU's tiles aside): the ground truth claims no backend there.
        truth["backend"] = backend if backend == "tpu" and "T(" in text else None
        truth["reason"] = (
            f"mid-pipeline module: XLA passes up to `{m['after']}` have run but instruction fusion has not; "
            "neither `before optimizations` nor compiled"
        )
    return truth


def collect_dump(raw: Path, dest: Path, backend: str, producer: str) -> list[dict]:
    """Keep the module texts of a dump folder (not LLVM IR, buffer reports, protos)."""
    entries = []
    names = sorted(p.name for p in raw.iterdir() if p.name.endswith(".txt"))
    passes = [n for n in names if PASS_FILE.match(n)]
    # Pass order within the module: XLA numbers pass dumps in run order.
    passes.sort(key=lambda n: int(PASS_FILE.match(n)["n"]))
    kept_passes = 0
    for name in names:
        if "buffer-assignment" in name or "memory-usage" in name or name.endswith("ir-no-opt.txt"):
            continue
        text = (raw / name).read_text(encoding="utf-8", errors="replace")
        if not text.lstrip().startswith("HloModule"):
            continue
        truth = dump_truth(name, backend, text, passes)
        if truth is None:
            continue
        if truth["stage"].startswith("xla-dump-pass"):
            kept_passes += 1
            if kept_passes > 4:
                continue
        dest.mkdir(parents=True, exist_ok=True)
        (dest / name).write_text(normalize(text), encoding="utf-8", newline="\n")
        call = f"XLA_FLAGS='--xla_dump_to=DIR --xla_dump_hlo_pass_re={PASS_RE}' (compile of mlp, {backend})"
        entries.append(dict(file=str((dest / name).relative_to(HERE)), call=call, **truth))
    return entries


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------


def run_worker(producer: str, framework: str, mode: str, out: Path, extra_env: dict | None = None) -> tuple[list[dict], str | None]:
    py = VENVS / producer / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "LIBTPU_INIT_ARGS", "JAX_ENABLE_X64")}
    env.update(JAX_PLATFORMS="cpu", PJRT_DEVICE="CPU", TF_CPP_MIN_LOG_LEVEL="2", PYTHONHASHSEED="0",
               CUDA_VISIBLE_DEVICES="", TPU_SKIP_MDS_QUERY="1")
    env.update(extra_env or {})
    cmd = [str(py), str(Path(__file__).resolve()), "--worker", framework, mode, str(out)]
    try:
        proc = subprocess.run(cmd, env=env, cwd=REPO, capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return [], "timed out after 900 s"
    recs = [json.loads(l[len(MARK):]) for l in proc.stdout.splitlines() if l.startswith(MARK)]
    err = None
    if proc.returncode != 0:
        tail = [l for l in proc.stderr.strip().splitlines() if l.strip()] or ["(no output)"]
        err = f"worker exited with {proc.returncode}: {rewrite_paths(tail[-1])}"
    return recs, err


def venv_versions(producer: str) -> dict[str, str]:
    pins = VENVS / producer / ".pins"
    out = {}
    if pins.exists():
        for p in pins.read_text().split():
            if "==" in p:
                k, v = p.split("==")
                out[k.split("[")[0]] = v
    py = VENVS / producer / "bin" / "python"
    try:
        r = subprocess.run([str(py), "-c", "import importlib.metadata as m;print(m.version('libtpu'))"],
                           capture_output=True, text=True, timeout=60)
        if r.returncode == 0:
            out["libtpu"] = r.stdout.strip()
    except OSError:
        pass
    return out


def generate_producer(producer: str, framework: str, skipped: list[str]) -> list[dict] | None:
    if not (VENVS / producer / ".pins").exists():
        log = VENVS / f"{producer}.log"
        why = "venv missing: run `bash checker/tests/drift/setup-venvs.sh " + producer + "`"
        if log.exists():
            lines = [l for l in log.read_text(errors="replace").splitlines() if l.strip()]
            if lines:
                why = f"its install failed: {rewrite_paths(lines[-1])}"
        skipped.append(f"{producer}: {why}")
        return None
    versions = venv_versions(producer)
    dest = HERE / producer
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    entries: list[dict] = []
    modes = {"jax": ["api", "tpu", "lowered-for"], "tensorflow": ["api"], "torch-xla": ["api"]}[framework]
    for mode in modes:
        recs, err = run_worker(producer, framework, mode, dest)
        for r in recs:
            if "skip" in r:
                skipped.append(f"{producer}: {r['skip']}: {r['why']}")
            elif "file" in r:
                kind, dialect, backend = STAGES[r["stage"]][:2] + (r.get("backend", STAGES[r["stage"]][2]),)
                e = dict(file=f"{producer}/{r['file']}", stage=r["stage"], call=r["call"], kind=kind, dialect=dialect, backend=backend)
                e.update({k: r[k] for k in ("reason", "compiled_for") if k in r})
                entries.append(e)
        if err:
            skipped.append(f"{producer}: mode {mode}: {err}")
    if producer in DUMP_FOLDER:
        backends = ["cpu", "tpu"] if framework == "jax" and "libtpu" in versions else ["cpu"]
        for backend in backends:
            with tempfile.TemporaryDirectory() as tmp:
                raw = Path(tmp) / "dump"
                flags = f"--xla_dump_to={raw} --xla_dump_hlo_pass_re={PASS_RE}"
                # libtpu reads XLA_FLAGS too; in LIBTPU_INIT_ARGS it rejects
                # both flags ("Unknown command line flag 'xla_dump_to'").
                env = {"XLA_FLAGS": flags}
                mode = {"jax": f"dump-{backend}"}.get(framework, "dump")
                recs, err = run_worker(producer, framework, mode, Path(tmp), env)
                for r in recs:
                    if "skip" in r:
                        skipped.append(f"{producer}: {r['skip']}: {r['why']}")
                if err:
                    skipped.append(f"{producer}: dump folder {backend}: {err}")
                if raw.is_dir():
                    got = collect_dump(raw, dest / f"xla-dump-{backend}", backend, producer)
                    if not got:
                        skipped.append(f"{producer}: dump folder {backend}: no HLO module text written")
                    entries.extend(got)
                else:
                    skipped.append(f"{producer}: dump folder {backend}: XLA wrote no folder")
    for e in entries:
        e["producer"] = producer
        e["framework"] = framework
        e["versions"] = versions
        e.setdefault("compiled_for", "tpu" if "tpu" in e["file"] else "cpu")
    return entries


# --------------------------------------------------------------------------
# Damage
# --------------------------------------------------------------------------


def damage(text: str, how: str) -> str:
    lines = text.rstrip("\n").split("\n")
    if how == "repr":
        return repr(text) + "\n"
    if how == "log-prefix":
        # abseil/TF style: date, time, severity, file:line]
        return "".join(f"2019-08-05 19:26:{48 + i // 60:02d}.{376350 + i:06d}: E external/xla/xla/service/xla_util.cc:72] {l}\n"
                       for i, l in enumerate(lines))
    if how == "log-prefix-glog":
        return "".join(f"I1130 13:20:01.{123456 + i:06d}   12345 hlo_pass_pipeline.cc:123] {l}\n" for i, l in enumerate(lines))
    if how.startswith("wrapped-"):
        width = int(how.split("-")[1])
        out = []
        for l in lines:
            while len(l) > width:
                out.append(l[:width])
                l = l[width:]
            out.append(l)
        return "\n".join(out) + "\n"
    if how == "prompt":
        # Pasted from a REPL session: the command, then the output with a
        # continuation prompt on the first lines, and a shell prompt line.
        body = [(">>> " if i == 0 else "... " if i < 3 else "") + l for i, l in enumerate(lines)]
        return "$ python repro.py\n>>> print(text)\n" + "\n".join(body) + "\n>>> \n"
    if how == "truncated":
        cut = int(len(text) * 0.6)
        # Cut in the middle of a line, never on a line boundary.
        while 0 < cut < len(text) and (text[cut] == "\n" or text[cut - 1] == "\n"):
            cut += 1
        return text[:cut]
    raise ValueError(how)


def damaged_entries(clean: dict[str, dict], skipped: list[str]) -> list[dict]:
    dest = HERE / "damaged"
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir()
    out = []
    for orig in DAMAGE_ORIGINALS:
        if orig not in clean or not (HERE / orig).exists():
            skipped.append(f"damaged: original {orig} missing (its producer did not run)")
            continue
        text = (HERE / orig).read_text(encoding="utf-8")
        base = orig.replace("/", "__")
        for how in DAMAGES:
            stem, dot, ext = base.rpartition(".")
            name = f"{stem}.{how}.{ext}"
            (dest / name).write_text(damage(text, how), encoding="utf-8", newline="\n")
            src = clean[orig]
            e = {k: src.get(k) for k in ("producer", "framework", "versions", "stage", "call", "kind", "dialect", "backend", "compiled_for")}
            if "reason" in src:
                e["reason"] = src["reason"]
            e.update(file=f"damaged/{name}", original=orig, damage=how.split("-")[0] if how.startswith(("wrapped", "log-prefix")) else how)
            if how.startswith("log-prefix"):
                e["damage"] = "log-prefix"
            e["damage_detail"] = how
            out.append(e)
    return out


# --------------------------------------------------------------------------
# Manifest
# --------------------------------------------------------------------------

FIELD_ORDER = ["file", "producer", "framework", "stage", "kind", "dialect", "backend", "compiled_for", "partial",
               "reason", "original", "damage", "damage_detail", "call", "versions"]


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k) if not re.fullmatch(r'[A-Za-z0-9_-]+', k) else k} = {toml_value(x)}" for k, x in v.items()) + " }"
    return json.dumps(v, ensure_ascii=False)


def write_manifest(entries: list[dict]) -> None:
    head = (
        "# The drift corpus: one [[dump]] per file, ground truth from provenance\n"
        "# (checker/tests/drift/generate.py writes this file; see README.md).\n"
        "# kind: dumplab::Kind names, or \"ambiguous\" (with `reason`); dialect:\n"
        "# jaxpr | stablehlo | mhlo | hlo | none; backend: cpu | gpu | tpu, absent\n"
        "# where the text cannot say; compiled_for: the backend whose compiler or\n"
        "# client produced it (provenance, whether or not the text shows it).\n"
    )
    parts = [head]
    for e in sorted(entries, key=lambda e: e["file"]):
        parts.append("\n[[dump]]\n")
        for k in FIELD_ORDER:
            if e.get(k) is not None:
                parts.append(f"{k} = {toml_value(e[k])}\n")
    MANIFEST.write_text("".join(parts), encoding="utf-8")


def read_manifest() -> list[dict]:
    if not MANIFEST.exists():
        return []
    import tomllib

    return tomllib.loads(MANIFEST.read_text(encoding="utf-8")).get("dump", [])


def main(argv: list[str]) -> int:
    if argv[:1] == ["--worker"]:
        return worker(argv[1:])
    damage_only = "--damage-only" in argv
    wanted = [a for a in argv if not a.startswith("--")] or ([] if damage_only else list(PRODUCERS))
    for w in wanted:
        if w not in PRODUCERS:
            print(f"unknown producer {w!r}; one of: {', '.join(PRODUCERS)}", file=sys.stderr)
            return 2
    old = [e for e in read_manifest() if not e["file"].startswith("damaged/")]
    skipped: list[str] = []
    entries = {e["file"]: e for e in old}
    for producer in wanted:
        print(f"== {producer}", flush=True)
        got = generate_producer(producer, PRODUCERS[producer], skipped)
        if got is None:
            continue
        entries = {f: e for f, e in entries.items() if e["producer"] != producer}
        entries.update({e["file"]: e for e in got})
        print(f"   {len(got)} files", flush=True)
    clean = dict(entries)
    allents = list(clean.values()) + damaged_entries(clean, skipped)
    write_manifest(allents)
    size = sum(p.stat().st_size for p in HERE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    print(f"\n{len(allents)} files in the manifest ({len(clean)} clean), corpus folder {size / 1e6:.2f} MB")
    if skipped:
        print("\nskipped:")
        for s in skipped:
            print(f"  - {s}")
    return 0



# --------------------------------------------------------------------------
# Lowered for a GPU and a TPU (issue 19): JAX lowers linear algebra per
# platform, to cuSOLVER calls for a GPU and to the TPU's own custom calls
# (`LuDecomposition`, `Eigh`) for a TPU. Kept below everything above, so
# that no line the compiled dumps' frames name moves.
# --------------------------------------------------------------------------

STAGES.update({
    "lowered-stablehlo-gpu": ("stablehlo", "stablehlo", "gpu"),
    "lowered-stablehlo-tpu": ("stablehlo", "stablehlo", "tpu"),
})
# The functions lowered for each device (those whose lowering names it), and
# the deviceless GPU (fixtures/targets/h100.pbtxt, as fixtures/generate.py).
LOWERED_FOR_DEVICES = ("solve", "eigh")
GPU_TARGET_CONFIG = REPO / "fixtures" / "targets" / "h100.pbtxt"


def jax_lowered_for_worker(out: Path, mode: str) -> None:
    """`solve` and `eigh` lowered (not compiled) for a deviceless H100 and TPU v5e."""
    import importlib.metadata as md

    pin_cpus()
    sys.path.insert(0, str(HERE / "functions"))
    import jax
    from jax.experimental import topologies
    import jax_fns

    functions = {**jax_fns.FUNCTIONS, **getattr(jax_fns, "LOWERED_ONLY", {})}
    devices = []
    for target, needs in (("gpu", "jax-cuda12-plugin"), ("tpu", "libtpu")):
        try:
            md.version(needs)
            if target == "gpu":
                topo = topologies.get_topology_desc(topology_name="h100", platform="cuda",
                                                    target_config=GPU_TARGET_CONFIG.read_text(), topology="1x1x1")
                call = ('topo = jax.experimental.topologies.get_topology_desc(topology_name="h100", platform="cuda", '
                        'target_config=open("fixtures/targets/h100.pbtxt").read(), topology="1x1x1"); ')
            else:
                topo = topologies.get_topology_desc(topology_name=TPU_TOPOLOGY, platform="tpu")
                call = f'topo = jax.experimental.topologies.get_topology_desc(topology_name="{TPU_TOPOLOGY}", platform="tpu"); '
            devices.append((target, topo.devices[0], call))
        except md.PackageNotFoundError:
            emit(skip=f"lowered for a {target.upper()}", why=f"{needs} is not installed in this venv")
        except Exception as e:  # noqa: BLE001 - no usable plugin: skip, say why
            emit(skip=f"lowered for a {target.upper()}", why=first_line(e))
    for name in LOWERED_FOR_DEVICES:
        if name not in functions:
            continue
        fn, args = functions[name]
        for target, device, call in devices:
            sharding = jax.sharding.SingleDeviceSharding(device)
            a = [jax.ShapeDtypeStruct(s.shape, s.dtype, sharding=sharding) for s in args()]
            write(out, f"{name}.lowered.{target}.stablehlo.mlir", jax.jit(fn).lower(*a).as_text(), f"lowered-stablehlo-{target}",
                  call + "jax.jit(fn).lower(*args sharded on topo.devices[0]).as_text()  # JAX_PLATFORMS=cpu",
                  compiled_for=target)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
