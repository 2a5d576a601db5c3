# Makes small dump folders for DumpLab's memory tests:
#   python gen.py TARGET [more|donors] [OUT]   (TARGET: cpu|gpu|tpu; OUT: where the folders go)
import sys, json, os, warnings, jax, jax.numpy as jnp
from jax import lax
import pb
target = sys.argv[1]
if target == "cpu":
    sh = None
else:
    from jax.experimental import topologies
    if target == "tpu":
        topo = topologies.get_topology_desc(topology_name="v5e:2x2", platform="tpu")
    else:
        topo = topologies.get_topology_desc(topology_name="h100", platform="cuda",
            target_config=open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../fixtures/targets/h100.pbtxt")).read(), topology="1x1x1")
    sh = jax.sharding.SingleDeviceSharding(topo.devices[0])
def S(shape):
    return jax.ShapeDtypeStruct(shape, jnp.float32, sharding=sh) if sh else jax.ShapeDtypeStruct(shape, jnp.float32)
def donate_ok(x): return x * 2.0 + 1.0
def donate_unusable(x): return jnp.sum(x, axis=0)
def big_temp(x): return jnp.sin(x @ x.T) @ x
def tuple_out(x): return x + 1.0, x * 2.0
def scan(c, xs):
    def body(c, x):
        c = jnp.tanh(c @ x)
        return c, c.sum()
    return lax.scan(body, c, xs)
def donate_second(a, b): return a + b, b * 2.0
def mlp_grad(w1, w2, x):
    def loss(w1, w2):
        h = jnp.tanh(x @ w1)
        return jnp.sum((h @ w2) ** 2)
    return jax.grad(loss, argnums=(0, 1))(w1, w2)
def dus_loop(buf):
    def body(i, b):
        return lax.dynamic_update_slice(b, jnp.full((1, 1024), i, jnp.float32), (i, 0))
    return lax.fori_loop(0, 64, body, buf)
CASES2 = {
    "mlp_grad": (mlp_grad, {}, [S((512, 512)), S((512, 256)), S((256, 512))]),
    "dus_loop": (dus_loop, dict(donate_argnums=0), [S((64, 1024))]),
}
CASES = {
    "donate_ok": (donate_ok, dict(donate_argnums=0), [S((512, 1024))]),
    "donate_unusable": (donate_unusable, dict(donate_argnums=0), [S((512, 1024))]),
    "big_temp": (big_temp, {}, [S((512, 1024))]),
    "tuple_out": (tuple_out, {}, [S((512, 1024))]),
    "scan": (scan, {}, [S((256, 256)), S((8, 256, 256))]),
    "donate_second": (donate_second, dict(donate_argnums=1), [S((256, 512)), S((256, 512))]),
}
def donor_unused(a, b):
    # a: no output of its shape, dtype or element count (JAX drops it and warns);
    # b: the output has its element count but another dtype (a buffer donor XLA does not use)
    return jnp.sum(a) + a[:999], (b * 2).astype(jnp.bfloat16)
def donor_used(b): return (b * 2).reshape(4096)
CASES3 = {
    "donor_unused": (donor_unused, dict(donate_argnums=(0, 1)), [S((1000,)), S((64, 64))]),
    "donor_used": (donor_used, dict(donate_argnums=0), [S((64, 64))]),
}
root = sys.argv[3] if len(sys.argv) > 3 else "/tmp/dumplab-folder-memory"
out = {}
if len(sys.argv) > 2 and sys.argv[2] in ("more", "donors"):
    CASES = CASES2 if sys.argv[2] == "more" else CASES3
    if os.path.exists(f"{root}/{target}/memory_analysis.json"):
        out = json.load(open(f"{root}/{target}/memory_analysis.json"))
for name, (fn, kw, args) in CASES.items():
    d = f"{root}/{target}/{name}"
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        lowered = jax.jit(fn, **kw).lower(*args)
        c = lowered.compile({"xla_dump_to": d})
    m = c.memory_analysis()
    rec = {k: getattr(m, k) for k in ["argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes", "temp_size_in_bytes", "peak_memory_in_bytes", "generated_code_size_in_bytes", "host_temp_size_in_bytes"]}
    rec["warnings"] = [str(x.message)[:120] for x in w]
    s = getattr(m, "serialized_buffer_assignment_proto", b"")
    if s:
        lb, tr = pb.summary(s)
        rec["heap_traces"] = len(tr)
        rec["replayed_peak"] = pb.peak(s)
    out[name] = rec
    print(name, rec, flush=True)
json.dump(out, open(f"{root}/{target}/memory_analysis.json", "w"), indent=1)
