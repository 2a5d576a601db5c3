"""The small JAX functions of the drift corpus (apart from generate.py; compiled dumps
still carry generate.py's own frames: edit it without moving lines)."""

import jax
import jax.numpy as jnp


def mlp(x, w, b):
    """A dot, a bias, a ReLU and a reduction: fusions on every backend."""
    return jax.nn.relu(x @ w + b).sum(axis=-1)


def softmax(x):
    """Reductions and elementwise work: several kernels when compiled."""
    return jax.nn.softmax(x, axis=-1)


def loop(x, n):
    """A loop whose trip count is an argument: an HLO `while`."""
    return jax.lax.fori_loop(0, n, lambda i, c: c * 0.5 + jnp.sin(c), x)


def solve(a, b):
    """Linear algebra, which JAX lowers per platform: LAPACK calls on a CPU."""
    return jnp.linalg.solve(a, b)


FUNCTIONS = {
    "mlp": (mlp, lambda: (
        jax.ShapeDtypeStruct((8, 16), jnp.float32),
        jax.ShapeDtypeStruct((16, 32), jnp.float32),
        jax.ShapeDtypeStruct((32,), jnp.float32),
    )),
    "softmax": (softmax, lambda: (jax.ShapeDtypeStruct((8, 128), jnp.float32),)),
    "loop": (loop, lambda: (
        jax.ShapeDtypeStruct((8, 128), jnp.float32),
        jax.ShapeDtypeStruct((), jnp.int32),
    )),
    "solve": (solve, lambda: (
        jax.ShapeDtypeStruct((8, 8), jnp.float32),
        jax.ShapeDtypeStruct((8,), jnp.float32),
    )),
}

# What the lowered texts of a function name beyond STAGES' truth (generate.py):
# JAX lowers linear algebra per platform, to LAPACK custom calls on a CPU, and
# every worker lowers with JAX_PLATFORMS=cpu, so `solve`'s lowered texts name
# the CPU. Kept here, below the functions, so that no source line moves.
LOWERED_FOR = {"solve": {"backend": "cpu"}}
