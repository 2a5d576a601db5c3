module @jit_softmax attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x128xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = mhlo.constant dense<0xFF800000> : tensor<f32>
    %1 = mhlo.reduce(%arg0 init: %0) applies mhlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = "mhlo.broadcast_in_dim"(%1) {broadcast_dimensions = dense<0> : tensor<1xi64>} : (tensor<8xf32>) -> tensor<8x1xf32>
    %3 = "mhlo.broadcast_in_dim"(%2) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %4 = mhlo.subtract %arg0, %3 : tensor<8x128xf32>
    %5 = mhlo.exponential %4 : tensor<8x128xf32>
    %6 = mhlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = mhlo.reduce(%5 init: %6) applies mhlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = "mhlo.broadcast_in_dim"(%7) {broadcast_dimensions = dense<0> : tensor<1xi64>} : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = "mhlo.broadcast_in_dim"(%8) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %10 = mhlo.divide %5, %9 : tensor<8x128xf32>
    return %10 : tensor<8x128xf32>
  }
}
