"""The small JAX functions of the drift corpus (kept apart from generate.py so
that editing the generator never moves the source lines in the dumps)."""

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
}
