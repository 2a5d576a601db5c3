"""The small TensorFlow functions of the drift corpus (`jit_compile=True`)."""

import tensorflow as tf


@tf.function(jit_compile=True)
def mlp(x, w, b):
    """A matmul, a bias, a ReLU and a reduction."""
    return tf.reduce_sum(tf.nn.relu(tf.matmul(x, w) + b), axis=-1)


@tf.function(jit_compile=True)
def softmax(x):
    """Reductions and elementwise work."""
    return tf.nn.softmax(x, axis=-1)


def args():
    return {
        "mlp": (tf.ones((8, 16)), tf.ones((16, 32)), tf.ones((32,))),
        "softmax": (tf.ones((8, 128)),),
    }


FUNCTIONS = {"mlp": mlp, "softmax": softmax}
