module @jit_attention attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<16x32xf32> {mhlo.layout_mode = "default"}, %arg2: tensor<16x32xf32> {mhlo.layout_mode = "default"}) -> (tensor<16x32xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = "mhlo.transpose"(%arg1) <{permutation = dense<[1, 0]> : tensor<2xi64>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %1 = "mhlo.dot_general"(%arg0, %0) <{dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<16x16xf32>
    %2 = mhlo.constant dense<3.200000e+01> : tensor<f32>
    %3 = mhlo.sqrt %2 : tensor<f32>
    %4 = "mhlo.broadcast_in_dim"(%3) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<16x16xf32>
    %5 = mhlo.divide %1, %4 : tensor<16x16xf32>
    %6 = mhlo.constant dense<0xFF800000> : tensor<f32>
    %7 = mhlo.reduce(%5 init: %6) applies mhlo.maximum across dimensions = [1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %8 = mhlo.constant dense<0xFF800000> : tensor<f32>
    %9 = "mhlo.broadcast_in_dim"(%8) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<16xf32>
    %10 = mhlo.maximum %9, %7 : tensor<16xf32>
    %11 = "mhlo.broadcast_in_dim"(%10) <{broadcast_dimensions = dense<0> : tensor<1xi64>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %12 = "mhlo.broadcast_in_dim"(%11) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %13 = mhlo.subtract %5, %12 : tensor<16x16xf32>
    %14 = mhlo.exponential %13 : tensor<16x16xf32>
    %15 = mhlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = mhlo.reduce(%14 init: %15) applies mhlo.add across dimensions = [1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %17 = "mhlo.broadcast_in_dim"(%16) <{broadcast_dimensions = dense<0> : tensor<1xi64>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %18 = "mhlo.broadcast_in_dim"(%17) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %19 = mhlo.divide %14, %18 : tensor<16x16xf32>
    %20 = "mhlo.dot_general"(%19, %arg2) <{dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision DEFAULT>]}> : (tensor<16x16xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    return %20 : tensor<16x32xf32>
  }
}
