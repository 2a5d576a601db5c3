module @jit_matmul_bf16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xbf16> {mhlo.layout_mode = "default"}, %arg1: tensor<32x64xbf16> {mhlo.layout_mode = "default"}) -> (tensor<16x64xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = "mhlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision DEFAULT>]}> : (tensor<16x32xbf16>, tensor<32x64xbf16>) -> tensor<16x64xf32>
    return %0 : tensor<16x64xf32>
  }
}
