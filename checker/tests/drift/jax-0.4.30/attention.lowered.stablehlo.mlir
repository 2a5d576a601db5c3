module @jit_attention attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<16x32xf32> {mhlo.layout_mode = "default"}, %arg2: tensor<16x32xf32> {mhlo.layout_mode = "default"}) -> (tensor<16x32xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %1 = stablehlo.dot_general %arg0, %0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<16x16xf32>
    %cst = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %2 = stablehlo.sqrt %cst : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %4 = stablehlo.divide %1, %3 : tensor<16x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %7 = stablehlo.maximum %6, %5 : tensor<16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %10 = stablehlo.subtract %4, %9 : tensor<16x16xf32>
    %11 = stablehlo.exponential %10 : tensor<16x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%11 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %15 = stablehlo.divide %11, %14 : tensor<16x16xf32>
    %16 = stablehlo.dot_general %15, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    return %16 : tensor<16x32xf32>
  }
}
