module @jit_gelu attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x128xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = mhlo.multiply %arg0, %arg0 : tensor<8x128xf32>
    %1 = mhlo.multiply %0, %arg0 : tensor<8x128xf32>
    %2 = mhlo.constant dense<4.471500e-02> : tensor<f32>
    %3 = "mhlo.broadcast_in_dim"(%2) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %4 = mhlo.multiply %3, %1 : tensor<8x128xf32>
    %5 = mhlo.add %arg0, %4 : tensor<8x128xf32>
    %6 = mhlo.constant dense<0.797884583> : tensor<f32>
    %7 = "mhlo.broadcast_in_dim"(%6) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %8 = mhlo.multiply %7, %5 : tensor<8x128xf32>
    %9 = mhlo.tanh %8 : tensor<8x128xf32>
    %10 = mhlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = "mhlo.broadcast_in_dim"(%10) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %12 = mhlo.add %11, %9 : tensor<8x128xf32>
    %13 = mhlo.constant dense<5.000000e-01> : tensor<f32>
    %14 = "mhlo.broadcast_in_dim"(%13) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %15 = mhlo.multiply %14, %12 : tensor<8x128xf32>
    %16 = mhlo.multiply %arg0, %15 : tensor<8x128xf32>
    return %16 : tensor<8x128xf32>
  }
}
