module @jit_transpose_into_dot attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2048x1024xf32>, %arg1: tensor<2048x512xf32>) -> (tensor<1024x512xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2048x1024xf32>) -> tensor<1024x2048xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1024x2048xf32>, tensor<2048x512xf32>) -> tensor<1024x512xf32>
    return %1 : tensor<1024x512xf32>
  }
}
