module @jit_solve attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}]>}) -> (tensor<8xf32> {jax.result_info = "result"}) {
    %0 = call @solve(%arg0, %arg1) : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func private @solve(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0:3 = stablehlo.custom_call @cusolver_getrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], []) {i=8, j=8, k=8, l=8, m=8}, custom>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<i32>)
    %c = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %2 = stablehlo.subtract %0#1, %1 : tensor<8xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<i32>
    %4 = stablehlo.compare GE, %0#2, %3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<8x8xi1>
    %8 = stablehlo.select %7, %0#0, %6 : tensor<8x8xi1>, tensor<8x8xf32>
    %9 = stablehlo.custom_call @cu_lu_pivots_to_permutation(%2) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([j]) {i=8, j=8}, custom>} : (tensor<8xi32>) -> tensor<8xi32>
    %10 = call @_lu_solve(%8, %9, %arg1) : (tensor<8x8xf32>, tensor<8xi32>, tensor<8xf32>) -> tensor<8xf32>
    return %10 : tensor<8xf32>
  }
  func.func private @_lu_solve(%arg0: tensor<8x8xf32>, %arg1: tensor<8xi32>, %arg2: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %2 = stablehlo.compare LT, %arg1, %1, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_0 = stablehlo.constant dense<8> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %4 = stablehlo.add %arg1, %3 : tensor<8xi32>
    %5 = stablehlo.select %2, %4, %arg1 : tensor<8xi1>, tensor<8xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %7 = "stablehlo.gather"(%0, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x1xf32>, tensor<8x1xi32>) -> tensor<8x1xf32>
    %8 = "stablehlo.triangular_solve"(%arg0, %7) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (tensor<8x8xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %9 = "stablehlo.triangular_solve"(%arg0, %8) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<8x8xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %10 = stablehlo.reshape %9 : (tensor<8x1xf32>) -> tensor<8xf32>
    return %10 : tensor<8xf32>
  }
}
