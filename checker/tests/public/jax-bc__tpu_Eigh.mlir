module @jit__lambda_ {
  func.func public @main() -> (tensor<8x8xf32> {jax.result_info = "[0]"}, tensor<8xf32> {jax.result_info = "[1]"}) {
    %0 = stablehlo.iota dim = 0 : tensor<64xf32>
    %1 = stablehlo.reshape %0 : (tensor<64xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = stablehlo.add %1, %2 : tensor<8x8xf32>
    %4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %6 = stablehlo.divide %3, %5 : tensor<8x8xf32>
    %7 = call @tril(%6) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %8:2 = call @eigh_jacobi(%7) : (tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8x8xf32>)
    return %8#1, %8#0 : tensor<8x8xf32>, tensor<8xf32>
  }
  func.func private @tril(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %1 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %3 = stablehlo.add %0, %2 : tensor<8x8xi32>
    %4 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %5 = stablehlo.compare  GE, %3, %4,  SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %8 = stablehlo.select %5, %arg0, %7 : tensor<8x8xi1>, tensor<8x8xf32>
    return %8 : tensor<8x8xf32>
  }
  func.func private @eigh_jacobi(%arg0: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8x8xf32>) {
    %0 = call @xla_fallback_eigh_jacobi(%arg0) : (tensor<8x8xf32>) -> tuple<tensor<8xf32>, tensor<8x8xf32>>
    %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<8xf32>, tensor<8x8xf32>>) -> tensor<8xf32>
    %2 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<8xf32>, tensor<8x8xf32>>) -> tensor<8x8xf32>
    return %1, %2 : tensor<8xf32>, tensor<8x8xf32>
  }
  func.func private @xla_fallback_eigh_jacobi(%arg0: tensor<8x8xf32>) -> tuple<tensor<8xf32>, tensor<8x8xf32>> {
    %0 = stablehlo.custom_call @Eigh(%arg0) {backend_config = "1,1,15,0.000010", xla_shape = "(f32[8,8]{1,0}, f32[8]{0})"} : (tensor<8x8xf32>) -> tuple<tensor<8x8xf32>, tensor<8xf32>>
    %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8xf32>
    %2 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<8x8xf32>, tensor<8xf32>>) -> tensor<8x8xf32>
    %3 = stablehlo.tuple %1, %2 {xla_shape = "(f32[8]{0}, f32[8,8]{1,0})"} : tuple<tensor<8xf32>, tensor<8x8xf32>>
    return %3 : tuple<tensor<8xf32>, tensor<8x8xf32>>
  }
}
