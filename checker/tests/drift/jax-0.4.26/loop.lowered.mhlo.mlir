module @jit_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<i32> {mhlo.layout_mode = "default"}) -> (tensor<8x128xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = mhlo.constant dense<0> : tensor<i32>
    %1:3 = mhlo.while(%iterArg = %0, %iterArg_0 = %arg1, %iterArg_1 = %arg0) : tensor<i32>, tensor<i32>, tensor<8x128xf32>
     cond {
      %2 = mhlo.compare  LT, %iterArg, %iterArg_0,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      mhlo.return %2 : tensor<i1>
    } do {
      %2 = mhlo.constant dense<1> : tensor<i32>
      %3 = mhlo.add %iterArg, %2 : tensor<i32>
      %4 = mhlo.constant dense<5.000000e-01> : tensor<f32>
      %5 = "mhlo.broadcast_in_dim"(%4) {broadcast_dimensions = dense<> : tensor<0xi64>} : (tensor<f32>) -> tensor<8x128xf32>
      %6 = mhlo.multiply %iterArg_1, %5 : tensor<8x128xf32>
      %7 = mhlo.sine %iterArg_1 : tensor<8x128xf32>
      %8 = mhlo.add %6, %7 : tensor<8x128xf32>
      mhlo.return %3, %iterArg_0, %8 : tensor<i32>, tensor<i32>, tensor<8x128xf32>
    }
    return %1#2 : tensor<8x128xf32>
  }
}
