module @jit_oom_padded_intermediates attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  func.func public @main(%arg0: tensor<33554432x1xbf16> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}) -> (tensor<33554432x1xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.sine %arg0 : tensor<33554432x1xbf16>
    %1 = call @cumsum(%0) : (tensor<33554432x1xbf16>) -> tensor<33554432x1xbf16>
    %2 = stablehlo.custom_call @LayoutConstraint(%1) {backend_config = "", operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<33554432x1xbf16>) -> tensor<33554432x1xbf16>
    %3 = stablehlo.cosine %arg0 : tensor<33554432x1xbf16>
    %4 = call @cumsum(%3) : (tensor<33554432x1xbf16>) -> tensor<33554432x1xbf16>
    %5 = stablehlo.custom_call @LayoutConstraint(%4) {backend_config = "", operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<33554432x1xbf16>) -> tensor<33554432x1xbf16>
    %6 = stablehlo.multiply %2, %5 : tensor<33554432x1xbf16>
    %7 = call @cumsum(%6) : (tensor<33554432x1xbf16>) -> tensor<33554432x1xbf16>
    %8 = stablehlo.custom_call @LayoutConstraint(%7) {backend_config = "", operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<33554432x1xbf16>) -> tensor<33554432x1xbf16>
    %9 = stablehlo.add %2, %5 : tensor<33554432x1xbf16>
    %10 = stablehlo.add %9, %8 : tensor<33554432x1xbf16>
    return %10 : tensor<33554432x1xbf16>
  }
  func.func private @cumsum(%arg0: tensor<33554432x1xbf16>) -> tensor<33554432x1xbf16> {
    %0 = call @cumsum_0(%arg0) : (tensor<33554432x1xbf16>) -> tensor<33554432x1xbf16>
    return %0 : tensor<33554432x1xbf16>
  }
  func.func private @cumsum_0(%arg0: tensor<33554432x1xbf16>) -> tensor<33554432x1xbf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<bf16>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[33554431, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 33554432, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<bf16>
      stablehlo.return %2 : tensor<bf16>
    }) : (tensor<33554432x1xbf16>, tensor<bf16>) -> tensor<33554432x1xbf16>
    return %1 : tensor<33554432x1xbf16>
  }
}
