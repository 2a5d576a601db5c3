module @jit_softmax attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x128xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = mhlo.constant dense<0xFF800000> : tensor<f32>
    %1 = mhlo.reduce(%arg0 init: %0) applies mhlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = mhlo.constant dense<0xFF800000> : tensor<f32>
    %3 = "mhlo.broadcast_in_dim"(%2) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<8xf32>
    %4 = mhlo.maximum %3, %1 : tensor<8xf32>
    %5 = "mhlo.broadcast_in_dim"(%4) <{broadcast_dimensions = dense<0> : tensor<1xi64>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %6 = "mhlo.broadcast_in_dim"(%5) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %7 = mhlo.subtract %arg0, %6 : tensor<8x128xf32>
    %8 = mhlo.exponential %7 : tensor<8x128xf32>
    %9 = mhlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = mhlo.reduce(%8 init: %9) applies mhlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %11 = "mhlo.broadcast_in_dim"(%10) <{broadcast_dimensions = dense<0> : tensor<1xi64>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %12 = "mhlo.broadcast_in_dim"(%11) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %13 = mhlo.divide %8, %12 : tensor<8x128xf32>
    return %13 : tensor<8x128xf32>
  }
}
