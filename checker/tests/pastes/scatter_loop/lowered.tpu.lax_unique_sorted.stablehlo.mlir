module @jit_scatter_lax_unique_sorted attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  func.func public @main(%arg0: tensor<1024x256xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}, %arg1: tensor<128xi32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}]>}, %arg2: tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}) -> (tensor<1024x256xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<128xi32>) -> tensor<128x1xi32>
    %1 = "stablehlo.scatter"(%arg0, %0, %arg2) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      stablehlo.return %arg4 : tensor<f32>
    }) : (tensor<1024x256xf32>, tensor<128x1xi32>, tensor<128x256xf32>) -> tensor<1024x256xf32>
    return %1 : tensor<1024x256xf32>
  }
}
