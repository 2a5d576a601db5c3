I1130 13:20:01.123456   12345 hlo_pass_pipeline.cc:123] module @jit_softmax attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
I1130 13:20:01.123457   12345 hlo_pass_pipeline.cc:123]   func.func public @main(%arg0: tensor<8x128xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x128xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
I1130 13:20:01.123458   12345 hlo_pass_pipeline.cc:123]     %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
I1130 13:20:01.123459   12345 hlo_pass_pipeline.cc:123]     %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
I1130 13:20:01.123460   12345 hlo_pass_pipeline.cc:123]     %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
I1130 13:20:01.123461   12345 hlo_pass_pipeline.cc:123]     %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
I1130 13:20:01.123462   12345 hlo_pass_pipeline.cc:123]     %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
I1130 13:20:01.123463   12345 hlo_pass_pipeline.cc:123]     %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
I1130 13:20:01.123464   12345 hlo_pass_pipeline.cc:123]     %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
I1130 13:20:01.123465   12345 hlo_pass_pipeline.cc:123]     %5 = stablehlo.subtract %arg0, %4 : tensor<8x128xf32>
I1130 13:20:01.123466   12345 hlo_pass_pipeline.cc:123]     %6 = stablehlo.exponential %5 : tensor<8x128xf32>
I1130 13:20:01.123467   12345 hlo_pass_pipeline.cc:123]     %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
I1130 13:20:01.123468   12345 hlo_pass_pipeline.cc:123]     %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
I1130 13:20:01.123469   12345 hlo_pass_pipeline.cc:123]     %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
I1130 13:20:01.123470   12345 hlo_pass_pipeline.cc:123]     %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
I1130 13:20:01.123471   12345 hlo_pass_pipeline.cc:123]     %10 = stablehlo.divide %6, %9 : tensor<8x128xf32>
I1130 13:20:01.123472   12345 hlo_pass_pipeline.cc:123]     return %10 : tensor<8x128xf32>
I1130 13:20:01.123473   12345 hlo_pass_pipeline.cc:123]   }
I1130 13:20:01.123474   12345 hlo_pass_pipeline.cc:123] }
