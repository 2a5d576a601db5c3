"""ReLU and scale: the walkthrough family of the instructor chapter.

Three elementwise ops on one array: the jaxpr has three equations, the
compiled CPU module one loop fusion. Small on purpose, so the chapter's
steps can be followed (and tested) in seconds.
"""

import jax
import jax.numpy as jnp


def fn(x):
    return jnp.maximum(x, 0.0) * 3.0 + 1.0


def args():
    return (jax.ShapeDtypeStruct((256, 128), jnp.float32),)
