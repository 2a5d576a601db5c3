module @jit_loop_swap attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  func.func public @main(%arg0: tensor<512x512xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}, %arg1: tensor<512x512xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}) -> (tensor<512x512xf32> {jax.result_info = "result[0]"}, tensor<512x512xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0, %iterArg_1 = %arg1) : tensor<i32>, tensor<512x512xf32>, tensor<512x512xf32>
    cond {
      %c_2 = stablehlo.constant dense<10> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:2 = func.call @closed_call(%iterArg_0, %iterArg_1) : (tensor<512x512xf32>, tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<512x512xf32>)
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_2 : tensor<i32>
      stablehlo.return %2, %1#0, %1#1 : tensor<i32>, tensor<512x512xf32>, tensor<512x512xf32>
    }
    return %0#1, %0#2 : tensor<512x512xf32>, tensor<512x512xf32>
  }
  func.func private @closed_call(%arg0: tensor<512x512xf32>, %arg1: tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<512x512xf32>) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<512x512xf32>
    %1 = stablehlo.add %arg1, %0 : tensor<512x512xf32>
    return %1, %arg0 : tensor<512x512xf32>, tensor<512x512xf32>
  }
}
