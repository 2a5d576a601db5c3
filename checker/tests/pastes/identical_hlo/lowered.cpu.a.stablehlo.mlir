module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1024x256xf32>) -> (tensor<1024x256xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.negate %arg0 : tensor<1024x256xf32>
    %1 = stablehlo.negate %0 : tensor<1024x256xf32>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1024x256xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<1024x256xf32>
    return %3 : tensor<1024x256xf32>
  }
}
