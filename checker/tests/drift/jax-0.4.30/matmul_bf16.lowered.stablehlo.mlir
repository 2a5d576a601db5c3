module @jit_matmul_bf16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xbf16> {mhlo.layout_mode = "default"}, %arg1: tensor<32x64xbf16> {mhlo.layout_mode = "default"}) -> (tensor<16x64xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xbf16>, tensor<32x64xbf16>) -> tensor<16x64xf32>
    return %0 : tensor<16x64xf32>
  }
}
