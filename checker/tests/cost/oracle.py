"""XLA's own cost analysis of every compiled dump DumpLab checks its ledger against.

For each compiled fixture (`fixtures/*/compiled*.hlo.txt`, `*.compiled.*.hlo.txt`)
and each undamaged optimized HLO dump of the drift corpus (`kind = "hlo-optimized"`,
no `damage`), this parses the text with XLA's HLO parser and runs XLA's
`HloCostAnalysis` as the pinned jaxlib's CPU client does
(`xla_client._xla.hlo_module_cost_analysis` on `xla_client.hlo.hlo_module_from_text`): flops, transcendentals and bytes
accessed of the module, as XLA computes them (a figure XLA could not cost adds -1).

    python checker/tests/cost/oracle.py           # rewrite oracle.json
    python checker/tests/cost/oracle.py --check   # exit 1 if oracle.json differs

Run with the pinned JAX (`.tools/venv`, `xtask/python-requirements.txt`);
`cargo xtask test` runs `--check`.
"""

import glob
import json
import os
import sys
import tomllib

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import jax  # noqa: E402
from jax._src.lib import xla_client  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle.json")


def corpus():
    files = []
    for pattern in ("fixtures/*/compiled*.hlo.txt", "fixtures/*/*.compiled.*.hlo.txt"):
        files += glob.glob(os.path.join(ROOT, pattern))
    drift = os.path.join(ROOT, "checker/tests/drift")
    with open(os.path.join(drift, "manifest.toml"), "rb") as f:
        manifest = tomllib.load(f)
    for d in manifest["dump"]:
        if d.get("kind") == "hlo-optimized" and "damage" not in d:
            files.append(os.path.join(drift, d["file"]))
    return sorted({os.path.relpath(f, ROOT) for f in files})


def figures(client, path):
    with open(os.path.join(ROOT, path)) as f:
        text = f.read()
    try:
        module = xla_client.hlo.hlo_module_from_text(text)
    except Exception as e:  # XLA's parser refused it: say so, with XLA's words
        return {"error": str(e).splitlines()[0][:200]}
    r = xla_client._xla.hlo_module_cost_analysis(client, module)
    return {
        "flops": r.get("flops", 0.0),
        "transcendentals": r.get("transcendentals", 0.0),
        "bytes_accessed": r.get("bytes accessed", 0.0),
    }


def main():
    client = jax.devices("cpu")[0].client
    oracle = {
        "jax": jax.__version__,
        "dumps": {p: figures(client, p) for p in corpus()},
    }
    text = json.dumps(oracle, indent=1, sort_keys=True) + "\n"
    if "--check" in sys.argv:
        with open(OUT) as f:
            if f.read() != text:
                sys.exit(f"{os.path.relpath(OUT, ROOT)} is stale: run python {os.path.relpath(__file__, ROOT)}")
        return
    with open(OUT, "w") as f:
        f.write(text)
    print(f"{len(oracle['dumps'])} dumps -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
