I1130 13:20:01.123456   12345 hlo_pass_pipeline.cc:123] module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
I1130 13:20:01.123457   12345 hlo_pass_pipeline.cc:123]   func.func public @main(%arg0: tensor<8x16xf32> {jax.arg_info = "x", mhlo.sharding = "{replicated}"}, %arg1: tensor<16x32xf32> {jax.arg_info = "w", mhlo.sharding = "{replicated}"}, %arg2: tensor<32xf32> {jax.arg_info = "b", mhlo.sharding = "{replicated}"}) -> (tensor<8xf32> {jax.result_info = ""}) {
I1130 13:20:01.123458   12345 hlo_pass_pipeline.cc:123]     %0 = "mhlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision DEFAULT>]} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
I1130 13:20:01.123459   12345 hlo_pass_pipeline.cc:123]     %1 = "mhlo.broadcast_in_dim"(%arg2) {broadcast_dimensions = dense<1> : tensor<1xi64>} : (tensor<32xf32>) -> tensor<1x32xf32>
I1130 13:20:01.123460   12345 hlo_pass_pipeline.cc:123]     %2 = "mhlo.broadcast_in_dim"(%1) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} : (tensor<1x32xf32>) -> tensor<8x32xf32>
I1130 13:20:01.123461   12345 hlo_pass_pipeline.cc:123]     %3 = mhlo.add %0, %2 : tensor<8x32xf32>
I1130 13:20:01.123462   12345 hlo_pass_pipeline.cc:123]     %4 = call @relu(%3) : (tensor<8x32xf32>) -> tensor<8x32xf32>
I1130 13:20:01.123463   12345 hlo_pass_pipeline.cc:123]     %5 = mhlo.constant dense<0.000000e+00> : tensor<f32>
I1130 13:20:01.123464   12345 hlo_pass_pipeline.cc:123]     %6 = mhlo.reduce(%4 init: %5) across dimensions = [1] : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
I1130 13:20:01.123465   12345 hlo_pass_pipeline.cc:123]      reducer(%arg3: tensor<f32>, %arg4: tensor<f32>)  {
I1130 13:20:01.123466   12345 hlo_pass_pipeline.cc:123]       %7 = mhlo.add %arg3, %arg4 : tensor<f32>
I1130 13:20:01.123467   12345 hlo_pass_pipeline.cc:123]       mhlo.return %7 : tensor<f32>
I1130 13:20:01.123468   12345 hlo_pass_pipeline.cc:123]     }
I1130 13:20:01.123469   12345 hlo_pass_pipeline.cc:123]     return %6 : tensor<8xf32>
I1130 13:20:01.123470   12345 hlo_pass_pipeline.cc:123]   }
I1130 13:20:01.123471   12345 hlo_pass_pipeline.cc:123]   func.func private @relu(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
I1130 13:20:01.123472   12345 hlo_pass_pipeline.cc:123]     %0 = mhlo.constant dense<0.000000e+00> : tensor<f32>
I1130 13:20:01.123473   12345 hlo_pass_pipeline.cc:123]     %1 = "mhlo.broadcast_in_dim"(%0) {broadcast_dimensions = dense<> : tensor<0xi64>} : (tensor<f32>) -> tensor<8x32xf32>
I1130 13:20:01.123474   12345 hlo_pass_pipeline.cc:123]     %2 = mhlo.maximum %arg0, %1 : tensor<8x32xf32>
I1130 13:20:01.123475   12345 hlo_pass_pipeline.cc:123]     return %2 : tensor<8x32xf32>
I1130 13:20:01.123476   12345 hlo_pass_pipeline.cc:123]   }
I1130 13:20:01.123477   12345 hlo_pass_pipeline.cc:123] }
