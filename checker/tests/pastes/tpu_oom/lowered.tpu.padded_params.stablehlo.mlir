module @jit_oom_padded_params attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  func.func public @main(%arg0: tensor<16777216x2xf32> {mhlo.layout_mode = "{1,0}", sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}) -> (tensor<16777216x2xf32> {jax.result_info = "result[0]", mhlo.layout_mode = "{1,0}", sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}, tensor<16777216x2xf32> {jax.result_info = "result[1]", mhlo.layout_mode = "{1,0}", sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}) {
    %0 = stablehlo.sine %arg0 : tensor<16777216x2xf32>
    %1 = stablehlo.cosine %arg0 : tensor<16777216x2xf32>
    return %0, %1 : tensor<16777216x2xf32>, tensor<16777216x2xf32>
  }
}
