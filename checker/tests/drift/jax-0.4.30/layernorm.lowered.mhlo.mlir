module @jit_layernorm attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<128xf32> {mhlo.layout_mode = "default"}, %arg2: tensor<128xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x128xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = mhlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = mhlo.reduce(%arg0 init: %0) applies mhlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = "mhlo.broadcast_in_dim"(%1) <{broadcast_dimensions = dense<0> : tensor<1xi64>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %3 = mhlo.constant dense<1.280000e+02> : tensor<f32>
    %4 = "mhlo.broadcast_in_dim"(%3) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %5 = mhlo.divide %2, %4 : tensor<8x1xf32>
    %6 = "mhlo.broadcast_in_dim"(%5) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %7 = mhlo.subtract %arg0, %6 : tensor<8x128xf32>
    %8 = mhlo.multiply %7, %7 : tensor<8x128xf32>
    %9 = mhlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = mhlo.reduce(%8 init: %9) applies mhlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %11 = "mhlo.broadcast_in_dim"(%10) <{broadcast_dimensions = dense<0> : tensor<1xi64>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %12 = mhlo.constant dense<1.280000e+02> : tensor<f32>
    %13 = "mhlo.broadcast_in_dim"(%12) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %14 = mhlo.divide %11, %13 : tensor<8x1xf32>
    %15 = "mhlo.broadcast_in_dim"(%5) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %16 = mhlo.subtract %arg0, %15 : tensor<8x128xf32>
    %17 = mhlo.constant dense<9.99999974E-6> : tensor<f32>
    %18 = "mhlo.broadcast_in_dim"(%17) <{broadcast_dimensions = dense<> : tensor<0xi64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %19 = mhlo.add %14, %18 : tensor<8x1xf32>
    %20 = mhlo.rsqrt %19 : tensor<8x1xf32>
    %21 = "mhlo.broadcast_in_dim"(%20) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %22 = mhlo.multiply %16, %21 : tensor<8x128xf32>
    %23 = "mhlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = dense<1> : tensor<1xi64>}> : (tensor<128xf32>) -> tensor<1x128xf32>
    %24 = "mhlo.broadcast_in_dim"(%23) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %25 = mhlo.multiply %22, %24 : tensor<8x128xf32>
    %26 = "mhlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = dense<1> : tensor<1xi64>}> : (tensor<128xf32>) -> tensor<1x128xf32>
    %27 = "mhlo.broadcast_in_dim"(%26) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %28 = mhlo.add %25, %27 : tensor<8x128xf32>
    return %28 : tensor<8x128xf32>
  }
}
