"""The functions of the paste corpus (checker/tests/pastes/).

generate.py compiles this file under the fixed name
``checker/tests/pastes/cases.py`` (so JAX's source locations never name the
machine's checkout) and excludes its own frames from them. Each function is
what one case's ground truth is written from; the comment on it says what the
construction is meant to show.
"""

import jax
import jax.numpy as jnp
from jax.experimental.layout import Layout, with_layout_constraint

# --------------------------------------------------------------------------
# 1. tpu_oom
# --------------------------------------------------------------------------

OOM_N = 32768  # f32[32768,32768] = 4 GiB per array


def oom_matmul_chain(x):
    """Three chained 32768x32768 f32 matmuls: five 4 GiB results live at once (20 GiB > 15.75 GiB HBM)."""
    a = jnp.sin(x) @ x
    b = jnp.cos(x) @ a
    c = jnp.tanh(x) @ b
    return a + b + c, a * b, b * c


OOM_PAD_N = 1 << 24  # f32[16777216,2]: 128 MiB unpadded, 8 GiB padded to T(8,128)


def oom_padded_params(x):
    """x is f32[2^24,2] forced to row-major {1,0}: T(8,128) pads the minor dim 2 -> 128 (64x).

    The argument and both outputs (also forced row-major) are 8 GiB each
    padded, 128 MiB each unpadded: 24 GiB > 15.75 GiB.
    """
    return jnp.sin(x), jnp.cos(x)


OOM_PAD_BF16_N = 1 << 25  # bf16[33554432,1]: 64 MiB unpadded


def oom_padded_intermediates(x):
    """x bf16[2^25,1]; three intermediates forced to row-major by with_layout_constraint.

    Minor dim 1 padded to 128 (bf16 tile T(8,128)(2,1)): each 64 MiB value
    becomes 8 GiB; cumsum keeps them from fusing away.
    """
    row_major = Layout(major_to_minor=(0, 1))
    a = with_layout_constraint(jnp.cumsum(jnp.sin(x), axis=0), row_major)
    b = with_layout_constraint(jnp.cumsum(jnp.cos(x), axis=0), row_major)
    c = with_layout_constraint(jnp.cumsum(a * b, axis=0), row_major)
    return a + b + c


# --------------------------------------------------------------------------
# 2. tpu_padding
# --------------------------------------------------------------------------


def padding_row_major(x, y):
    """x f32[65536,2], y bf16[4096,3], both forced row-major {1,0}: minor dims padded to 128."""
    return jnp.sin(x) * 2.0, jnp.cos(y) + 1.0


def padding_default_layout(x, y):
    """The same function with default layouts: TPU layout assignment picks {0,1} and avoids the padding."""
    return jnp.sin(x) * 2.0, jnp.cos(y) + 1.0


# --------------------------------------------------------------------------
# 3. donation_unusable / donation_missing
# --------------------------------------------------------------------------


def donate_unusable(x):
    """Donated f32[1024,1024]; the only output is bf16[512,1024]: no output can reuse the buffer."""
    return (x[:512] * 2.0).astype(jnp.bfloat16)


def donate_unusable_named(x, scale):
    """The same, donated by name (donate_argnames="x")."""
    return (x[:512] * scale).astype(jnp.bfloat16)


def update_row(x):
    """x f32[4096,1024] with row 0 set to 1.0: in place only if x is donated."""
    return x.at[0].set(1.0)


# --------------------------------------------------------------------------
# 4. scatter_loop
# --------------------------------------------------------------------------


def scatter_set_c128(x, idx, upd):
    """c128[4096] .at[idx].set(c128[128]): XLA:GPU cannot scatter >64-bit elements and expands it to a while loop of 128 trips."""
    return x.at[idx].set(upd)


def scatter_set_c128_unique(x, idx, upd):
    """The same with unique_indices=True, indices_are_sorted=True."""
    return x.at[idx].set(upd, unique_indices=True, indices_are_sorted=True)


def scatter_add_c128(x, idx, upd):
    """c128 .at[idx].add: XLA splits it into real and imaginary f64 scatters, so no loop."""
    return x.at[idx].add(upd)


def scatter_add_rows_f32(x, idx, upd):
    """f32[1024,256] .at[idx].add(f32[128,256]): a native scatter on every target."""
    return x.at[idx].add(upd)


def scatter_lax_unique_sorted(x, idx, upd):
    """jax.lax.scatter with unique_indices and indices_are_sorted: still a native scatter."""
    dnums = jax.lax.ScatterDimensionNumbers(
        update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
    )
    return jax.lax.scatter(x, idx[:, None], upd, dnums, indices_are_sorted=True, unique_indices=True)


# --------------------------------------------------------------------------
# 5. copy_in_loop
# --------------------------------------------------------------------------


def loop_transpose(x):
    """fori_loop of 10 trips carrying a square f32[512,512] that is transposed every trip."""
    return jax.lax.fori_loop(0, 10, lambda i, x: x.T + 1.0, x)


def loop_swap(x, y):
    """fori_loop of 10 trips carrying a tuple of two f32[512,512] that swap places every trip."""
    return jax.lax.fori_loop(0, 10, lambda i, c: (c[1] + 1.0, c[0]), (x, y))


# --------------------------------------------------------------------------
# 6. huge_intermediate
# --------------------------------------------------------------------------


def sort_outer_difference(x, y):
    """x, y f32[2048] (8 KiB each); the outer difference f32[2048,2048] (16 MiB) is sorted, so it must be materialised."""
    return jnp.sort((x[:, None] - y[None, :]).ravel())


# --------------------------------------------------------------------------
# 7. allgather_dot (sharded over 4 devices, mesh axis "x")
# --------------------------------------------------------------------------


def sharded_dot(x, w):
    """x f32[1024,4096] P(None,"x") (contracting dim sharded), w f32[4096,2048] P(None,"x")."""
    return x @ w


def sharded_dot_constrained(x, w):
    """w constrained to replicated before the dot: w is all-gathered to f32[4096,2048]."""
    w = jax.lax.with_sharding_constraint(w, jax.sharding.PartitionSpec())
    return x @ w


# --------------------------------------------------------------------------
# 8. gpu_dot_no_library
# --------------------------------------------------------------------------


def dot_f32(a, b):
    return a @ b


def dot_s8_s8_s32(a, b):
    return jax.lax.dot(a, b, preferred_element_type=jnp.int32)


def dot_s32(a, b):
    return a @ b


def dot_f64(a, b):
    return a @ b


def dot_bf16_f32(a, b):
    return jax.lax.dot(a, b, preferred_element_type=jnp.float32)


def dot_u8_u8_u32(a, b):
    return jax.lax.dot(a, b, preferred_element_type=jnp.uint32)


def dot_c64(a, b):
    return a @ b


# --------------------------------------------------------------------------
# 9. layout_transpose
# --------------------------------------------------------------------------


def transpose_plus(x, y):
    """x.T + y on square f32[1024,1024]: a transpose/copy of a parameter-sized array."""
    return x.T + y


def cumsum_of_transpose(x):
    """cumsum over axis 1 of x.T, x f32[1024,2048]."""
    return jnp.cumsum(x.T, axis=1)


def transpose_into_dot(x, y):
    """x.T @ y: the transpose folds into the dot's contracting dims (no copy expected)."""
    return x.T @ y


# --------------------------------------------------------------------------
# 10. identical_hlo
# --------------------------------------------------------------------------


def fn_double_negation(x):
    return -(-x) * 3.0


def fn_times_three(x):
    return x * 3.0


def fn_power_two(x):
    return x**2


def fn_self_multiply(x):
    return x * x


# Both functions of a pair are compiled under one name (`fn`), so the module
# name (`HloModule jit_fn`) does not tell them apart.
for _f in (fn_double_negation, fn_times_three, fn_power_two, fn_self_multiply):
    _f.__name__ = _f.__qualname__ = "fn"
del _f
