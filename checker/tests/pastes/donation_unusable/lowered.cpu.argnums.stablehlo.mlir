module @jit_donate_unusable attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1024x1024xf32>) -> (tensor<512x1024xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:512, 0:1024] : (tensor<1024x1024xf32>) -> tensor<512x1024xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<512x1024xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<512x1024xf32>
    %3 = stablehlo.convert %2 : (tensor<512x1024xf32>) -> tensor<512x1024xbf16>
    return %3 : tensor<512x1024xbf16>
  }
}
