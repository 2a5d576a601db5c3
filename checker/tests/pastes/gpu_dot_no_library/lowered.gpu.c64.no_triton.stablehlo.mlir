module @jit_dot_c64 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  func.func public @main(%arg0: tensor<256x256xcomplex<f32>> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}, %arg1: tensor<256x256xcomplex<f32>> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}, {}]>}) -> (tensor<256x256xcomplex<f32>> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x256xcomplex<f32>>, tensor<256x256xcomplex<f32>>) -> tensor<256x256xcomplex<f32>>
    return %0 : tensor<256x256xcomplex<f32>>
  }
}
