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


# Added for issue 22 (version pairs for the diff): appended below everything
# above, so that no line of the first functions moves.


def layernorm(x, g, b):
    """Mean, variance, normalize, scale: two reductions and elementwise work."""
    m = x.mean(axis=-1, keepdims=True)
    v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-5) * g + b


def attention(q, k, v):
    """A small attention: softmax(q @ k.T / sqrt(d)) @ v, two dots around a softmax."""
    s = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    return jax.nn.softmax(s, axis=-1) @ v


def gelu(x):
    """The tanh GELU: one elementwise chain with a transcendental."""
    return jax.nn.gelu(x, approximate=True)


def cumsum(x):
    """A cumulative sum along the last axis: a reduce-window or a loop when compiled."""
    return jnp.cumsum(x, axis=-1)


def transpose_dot(x, y):
    """A transpose feeding a dot: dimension numbers or a layout copy when compiled."""
    return jnp.transpose(x) @ y


def matmul_bf16(x, w):
    """A bf16 matmul accumulated in f32: converts around the dot."""
    return jnp.dot(x, w, preferred_element_type=jnp.float32)


def conv(x, w):
    """A 3x3 convolution, NHWC: a convolution or a library call when compiled."""
    return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


FUNCTIONS.update({
    "layernorm": (layernorm, lambda: (
        jax.ShapeDtypeStruct((8, 128), jnp.float32),
        jax.ShapeDtypeStruct((128,), jnp.float32),
        jax.ShapeDtypeStruct((128,), jnp.float32),
    )),
    "attention": (attention, lambda: (
        jax.ShapeDtypeStruct((16, 32), jnp.float32),
        jax.ShapeDtypeStruct((16, 32), jnp.float32),
        jax.ShapeDtypeStruct((16, 32), jnp.float32),
    )),
    "gelu": (gelu, lambda: (jax.ShapeDtypeStruct((8, 128), jnp.float32),)),
    "cumsum": (cumsum, lambda: (jax.ShapeDtypeStruct((8, 128), jnp.float32),)),
    "transpose_dot": (transpose_dot, lambda: (
        jax.ShapeDtypeStruct((32, 16), jnp.float32),
        jax.ShapeDtypeStruct((32, 64), jnp.float32),
    )),
    "matmul_bf16": (matmul_bf16, lambda: (
        jax.ShapeDtypeStruct((16, 32), jnp.bfloat16),
        jax.ShapeDtypeStruct((32, 64), jnp.bfloat16),
    )),
    "conv": (conv, lambda: (
        jax.ShapeDtypeStruct((1, 8, 8, 4), jnp.float32),
        jax.ShapeDtypeStruct((3, 3, 4, 8), jnp.float32),
    )),
})

# `solve` is made by the pinned release and by jax-0.4.30 (issue 19), whose
# lowering calls `lapack_sgetrf` and `blas_strsm` (no `_ffi`, in MHLO too);
# the other producers make no `solve` files (README.md, Producers).
if jax.__version__ not in ("0.4.30",) and tuple(int(p) for p in jax.__version__.split(".")[:2]) < (0, 10):
    FUNCTIONS.pop("solve")


# Lowered only, for a deviceless H100 and TPU v5e (generate.py's mode
# `lowered-for`, issue 19): `jnp.linalg.eigh`, which JAX lowers to
# `@cusolver_syevd_ffi` for a GPU and to `@Eigh` for a TPU. Not in FUNCTIONS,
# so no other stage or producer makes it.


def eigh(a):
    """A symmetric eigendecomposition, lowered per platform."""
    return jnp.linalg.eigh(a)


LOWERED_ONLY = {"eigh": (eigh, lambda: (jax.ShapeDtypeStruct((8, 8), jnp.float32),))}
