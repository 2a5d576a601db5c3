module @jit_solve attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<8xf32> {mhlo.layout_mode = "default"}) -> (tensor<8xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @solve(%arg0, %arg1) : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func private @solve(%arg0: tensor<8x8xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<8xf32> {mhlo.layout_mode = "default"}) -> (tensor<8xf32> {mhlo.layout_mode = "default"}) {
    %0 = mhlo.constant dense<8> : tensor<i32>
    %1 = mhlo.constant dense<8> : tensor<i32>
    %2 = mhlo.constant dense<1> : tensor<i32>
    %3 = mhlo.constant dense<8> : tensor<i32>
    %4 = mhlo.constant dense<8> : tensor<i32>
    %5:3 = mhlo.custom_call @lapack_sgetrf(%2, %3, %4, %arg0) {api_version = 2 : i32, backend_config = "", operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#mhlo.output_operand_alias<output_tuple_indices = [0], operand_index = 3, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<i32>)
    %6 = mhlo.constant dense<1> : tensor<i32>
    %7 = "mhlo.broadcast_in_dim"(%6) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<i32>) -> tensor<8xi32>
    %8 = mhlo.subtract %5#1, %7 : tensor<8xi32>
    %9 = mhlo.constant dense<0> : tensor<i32>
    %10 = "mhlo.broadcast_in_dim"(%9) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<i32>) -> tensor<i32>
    %11 = mhlo.compare  GE, %5#2, %10,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %12 = "mhlo.broadcast_in_dim"(%11) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<i1>) -> tensor<1x1xi1>
    %13 = mhlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = "mhlo.broadcast_in_dim"(%13) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<8x8xf32>
    %15 = "mhlo.broadcast_in_dim"(%12) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<1x1xi1>) -> tensor<8x8xi1>
    %16 = mhlo.select %15, %5#0, %14 : tensor<8x8xi1>, tensor<8x8xf32>
    %17 = "mhlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xi32>
    %18 = mhlo.constant dense<0> : tensor<i32>
    %19 = mhlo.constant dense<0> : tensor<i32>
    %20:4 = mhlo.while(%iterArg = %19, %iterArg_0 = %18, %iterArg_1 = %17, %iterArg_2 = %8) : tensor<i32>, tensor<i32>, tensor<8xi32>, tensor<8xi32>
     cond {
      %22 = mhlo.constant dense<8> : tensor<i32>
      %23 = mhlo.compare  LT, %iterArg, %22,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      mhlo.return %23 : tensor<i1>
    } do {
      %22:3 = func.call @None(%iterArg_0, %iterArg_1, %iterArg_2) : (tensor<i32>, tensor<8xi32>, tensor<8xi32>) -> (tensor<i32>, tensor<8xi32>, tensor<8xi32>)
      %23 = mhlo.constant dense<1> : tensor<i32>
      %24 = mhlo.add %iterArg, %23 : tensor<i32>
      mhlo.return %24, %22#0, %22#1, %22#2 : tensor<i32>, tensor<i32>, tensor<8xi32>, tensor<8xi32>
    }
    %21 = call @_lu_solve(%16, %20#2, %arg1) : (tensor<8x8xf32>, tensor<8xi32>, tensor<8xf32>) -> tensor<8xf32>
    return %21 : tensor<8xf32>
  }
  func.func private @None(%arg0: tensor<i32>, %arg1: tensor<8xi32>, %arg2: tensor<8xi32>) -> (tensor<i32>, tensor<8xi32>, tensor<8xi32>) {
    %0 = mhlo.constant dense<1> : tensor<i32>
    %1 = mhlo.add %arg0, %0 : tensor<i32>
    %2 = mhlo.constant dense<0> : tensor<i32>
    %3 = mhlo.compare  LT, %arg0, %2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = mhlo.constant dense<8> : tensor<i32>
    %5 = mhlo.add %arg0, %4 : tensor<i32>
    %6 = mhlo.select %3, %5, %arg0 : tensor<i1>, tensor<i32>
    %7 = mhlo.convert %6 : tensor<i32>
    %8 = "mhlo.broadcast_in_dim"(%7) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<i32>) -> tensor<1xi32>
    %9 = "mhlo.gather"(%arg2, %8) <{dimension_numbers = #mhlo.gather<collapsed_slice_dims = [0], start_index_map = [0]>, indices_are_sorted = true, slice_sizes = dense<1> : tensor<1xi64>}> : (tensor<8xi32>, tensor<1xi32>) -> tensor<i32>
    %10 = mhlo.constant dense<0> : tensor<i32>
    %11 = mhlo.compare  LT, %arg0, %10,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %12 = mhlo.constant dense<8> : tensor<i32>
    %13 = mhlo.add %arg0, %12 : tensor<i32>
    %14 = mhlo.select %11, %13, %arg0 : tensor<i1>, tensor<i32>
    %15 = mhlo.convert %14 : tensor<i32>
    %16 = "mhlo.broadcast_in_dim"(%15) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<i32>) -> tensor<1xi32>
    %17 = "mhlo.gather"(%arg1, %16) <{dimension_numbers = #mhlo.gather<collapsed_slice_dims = [0], start_index_map = [0]>, indices_are_sorted = true, slice_sizes = dense<1> : tensor<1xi64>}> : (tensor<8xi32>, tensor<1xi32>) -> tensor<i32>
    %18 = mhlo.constant dense<0> : tensor<i32>
    %19 = mhlo.compare  LT, %9, %18,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %20 = mhlo.constant dense<8> : tensor<i32>
    %21 = mhlo.add %9, %20 : tensor<i32>
    %22 = mhlo.select %19, %21, %9 : tensor<i1>, tensor<i32>
    %23 = "mhlo.dynamic_slice"(%arg1, %22) <{slice_sizes = dense<1> : tensor<1xi64>}> : (tensor<8xi32>, tensor<i32>) -> tensor<1xi32>
    %24 = mhlo.reshape %23 : (tensor<1xi32>) -> tensor<i32>
    %25 = mhlo.constant dense<0> : tensor<i32>
    %26 = mhlo.compare  LT, %arg0, %25,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %27 = mhlo.constant dense<8> : tensor<i32>
    %28 = mhlo.add %arg0, %27 : tensor<i32>
    %29 = mhlo.select %26, %28, %arg0 : tensor<i1>, tensor<i32>
    %30 = mhlo.convert %29 : tensor<i32>
    %31 = "mhlo.broadcast_in_dim"(%30) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<i32>) -> tensor<1xi32>
    %32 = "mhlo.scatter"(%arg1, %31, %24) <{indices_are_sorted = true, scatter_dimension_numbers = #mhlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      mhlo.return %arg4 : tensor<i32>
    }) : (tensor<8xi32>, tensor<1xi32>, tensor<i32>) -> tensor<8xi32>
    %33 = mhlo.constant dense<0> : tensor<i32>
    %34 = mhlo.compare  LT, %9, %33,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %35 = mhlo.constant dense<8> : tensor<i32>
    %36 = mhlo.add %9, %35 : tensor<i32>
    %37 = mhlo.select %34, %36, %9 : tensor<i1>, tensor<i32>
    %38 = "mhlo.broadcast_in_dim"(%37) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<i32>) -> tensor<1xi32>
    %39 = "mhlo.scatter"(%32, %38, %17) <{indices_are_sorted = true, scatter_dimension_numbers = #mhlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      mhlo.return %arg4 : tensor<i32>
    }) : (tensor<8xi32>, tensor<1xi32>, tensor<i32>) -> tensor<8xi32>
    return %1, %39, %arg2 : tensor<i32>, tensor<8xi32>, tensor<8xi32>
  }
  func.func private @_lu_solve(%arg0: tensor<8x8xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<8xi32> {mhlo.layout_mode = "default"}, %arg2: tensor<8xf32> {mhlo.layout_mode = "default"}) -> (tensor<8xf32> {mhlo.layout_mode = "default"}) {
    %0 = "mhlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = dense<0> : tensor<1xi64>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %1 = mhlo.constant dense<0> : tensor<i32>
    %2 = "mhlo.broadcast_in_dim"(%1) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<i32>) -> tensor<8xi32>
    %3 = mhlo.compare  LT, %arg1, %2,  SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %4 = mhlo.constant dense<8> : tensor<i32>
    %5 = "mhlo.broadcast_in_dim"(%4) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<i32>) -> tensor<8xi32>
    %6 = mhlo.add %arg1, %5 : tensor<8xi32>
    %7 = mhlo.select %3, %6, %arg1 : tensor<8xi1>, tensor<8xi32>
    %8 = "mhlo.broadcast_in_dim"(%7) <{broadcast_dimensions = dense<0> : tensor<1xi64>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %9 = "mhlo.gather"(%0, %8) <{dimension_numbers = #mhlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = dense<1> : tensor<2xi64>}> : (tensor<8x1xf32>, tensor<8x1xi32>) -> tensor<8x1xf32>
    %10 = mhlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = mhlo.constant dense<8> : tensor<i32>
    %12 = mhlo.constant dense<1> : tensor<i32>
    %13 = mhlo.constant dense<1> : tensor<i32>
    %14 = mhlo.constant dense<1> : tensor<i32>
    %15 = mhlo.constant dense<1> : tensor<i32>
    %16 = mhlo.constant dense<0> : tensor<i32>
    %17 = mhlo.constant dense<1> : tensor<i32>
    %18 = mhlo.constant dense<8> : tensor<i32>
    %19 = mhlo.constant dense<1> : tensor<i32>
    %20 = mhlo.custom_call @blas_strsm(%14, %15, %16, %17, %18, %19, %13, %10, %arg0, %9) {api_version = 2 : i32, backend_config = "", operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#mhlo.output_operand_alias<output_tuple_indices = [], operand_index = 9, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<8x8xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %21 = mhlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = mhlo.constant dense<8> : tensor<i32>
    %23 = mhlo.constant dense<1> : tensor<i32>
    %24 = mhlo.constant dense<1> : tensor<i32>
    %25 = mhlo.constant dense<1> : tensor<i32>
    %26 = mhlo.constant dense<0> : tensor<i32>
    %27 = mhlo.constant dense<0> : tensor<i32>
    %28 = mhlo.constant dense<0> : tensor<i32>
    %29 = mhlo.constant dense<8> : tensor<i32>
    %30 = mhlo.constant dense<1> : tensor<i32>
    %31 = mhlo.custom_call @blas_strsm(%25, %26, %27, %28, %29, %30, %24, %21, %arg0, %20) {api_version = 2 : i32, backend_config = "", operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#mhlo.output_operand_alias<output_tuple_indices = [], operand_index = 9, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<8x8xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %32 = "mhlo.slice"(%31) <{limit_indices = dense<[8, 1]> : tensor<2xi64>, start_indices = dense<0> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}> : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %33 = mhlo.reshape %32 : (tensor<8x1xf32>) -> tensor<8xf32>
    return %33 : tensor<8xf32>
  }
}
