module @jit_cumsum attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x128xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = call @_cumulative_reduction(%arg0) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
  func.func private @_cumulative_reduction(%arg0: tensor<8x128xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x128xf32> {mhlo.layout_mode = "default"}) {
    %0 = call @cumsum(%arg0) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
  func.func private @cumsum(%arg0: tensor<8x128xf32>) -> tensor<8x128xf32> {
    %0 = mhlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = "mhlo.broadcast_in_dim"(%0) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<f32>
    %2 = "mhlo.reduce_window"(%arg0, %1) <{base_dilations = dense<1> : tensor<2xi64>, padding = dense<[[0, 0], [127, 0]]> : tensor<2x2xi64>, window_dilations = dense<1> : tensor<2xi64>, window_dimensions = dense<[1, 128]> : tensor<2xi64>, window_strides = dense<1> : tensor<2xi64>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %3 = mhlo.add %arg1, %arg2 : tensor<f32>
      mhlo.return %3 : tensor<f32>
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    return %2 : tensor<8x128xf32>
  }
}
