module @jit_oom_matmul_chain attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  func.func public @main(%arg0: tensor<32768x32768xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}) -> (tensor<32768x32768xf32> {jax.result_info = "result[0]"}, tensor<32768x32768xf32> {jax.result_info = "result[1]"}, tensor<32768x32768xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.sine %arg0 : tensor<32768x32768xf32>
    %1 = stablehlo.dot_general %0, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32768x32768xf32>, tensor<32768x32768xf32>) -> tensor<32768x32768xf32>
    %2 = stablehlo.cosine %arg0 : tensor<32768x32768xf32>
    %3 = stablehlo.dot_general %2, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32768x32768xf32>, tensor<32768x32768xf32>) -> tensor<32768x32768xf32>
    %4 = stablehlo.tanh %arg0 : tensor<32768x32768xf32>
    %5 = stablehlo.dot_general %4, %3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32768x32768xf32>, tensor<32768x32768xf32>) -> tensor<32768x32768xf32>
    %6 = stablehlo.add %1, %3 : tensor<32768x32768xf32>
    %7 = stablehlo.add %6, %5 : tensor<32768x32768xf32>
    %8 = stablehlo.multiply %1, %3 : tensor<32768x32768xf32>
    %9 = stablehlo.multiply %3, %5 : tensor<32768x32768xf32>
    return %7, %8, %9 : tensor<32768x32768xf32>, tensor<32768x32768xf32>, tensor<32768x32768xf32>
  }
}
