module @jit_padding_default_layout attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  func.func public @main(%arg0: tensor<65536x2xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}, %arg1: tensor<4096x3xbf16> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}) -> (tensor<65536x2xf32> {jax.result_info = "result[0]"}, tensor<4096x3xbf16> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.sine %arg0 : tensor<65536x2xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<65536x2xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<65536x2xf32>
    %3 = stablehlo.cosine %arg1 : tensor<4096x3xbf16>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<4096x3xbf16>
    %5 = stablehlo.add %3, %4 : tensor<4096x3xbf16>
    return %2, %5 : tensor<65536x2xf32>, tensor<4096x3xbf16>
  }
}
