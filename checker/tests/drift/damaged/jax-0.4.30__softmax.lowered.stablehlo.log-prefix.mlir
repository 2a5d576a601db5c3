2019-08-05 19:26:48.376350: E external/xla/xla/service/xla_util.cc:72] module @jit_softmax attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
2019-08-05 19:26:48.376351: E external/xla/xla/service/xla_util.cc:72]   func.func public @main(%arg0: tensor<8x128xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x128xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
2019-08-05 19:26:48.376352: E external/xla/xla/service/xla_util.cc:72]     %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
2019-08-05 19:26:48.376353: E external/xla/xla/service/xla_util.cc:72]     %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
2019-08-05 19:26:48.376354: E external/xla/xla/service/xla_util.cc:72]     %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
2019-08-05 19:26:48.376355: E external/xla/xla/service/xla_util.cc:72]     %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
2019-08-05 19:26:48.376356: E external/xla/xla/service/xla_util.cc:72]     %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
2019-08-05 19:26:48.376357: E external/xla/xla/service/xla_util.cc:72]     %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
2019-08-05 19:26:48.376358: E external/xla/xla/service/xla_util.cc:72]     %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
2019-08-05 19:26:48.376359: E external/xla/xla/service/xla_util.cc:72]     %5 = stablehlo.subtract %arg0, %4 : tensor<8x128xf32>
2019-08-05 19:26:48.376360: E external/xla/xla/service/xla_util.cc:72]     %6 = stablehlo.exponential %5 : tensor<8x128xf32>
2019-08-05 19:26:48.376361: E external/xla/xla/service/xla_util.cc:72]     %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
2019-08-05 19:26:48.376362: E external/xla/xla/service/xla_util.cc:72]     %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
2019-08-05 19:26:48.376363: E external/xla/xla/service/xla_util.cc:72]     %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
2019-08-05 19:26:48.376364: E external/xla/xla/service/xla_util.cc:72]     %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
2019-08-05 19:26:48.376365: E external/xla/xla/service/xla_util.cc:72]     %10 = stablehlo.divide %6, %9 : tensor<8x128xf32>
2019-08-05 19:26:48.376366: E external/xla/xla/service/xla_util.cc:72]     return %10 : tensor<8x128xf32>
2019-08-05 19:26:48.376367: E external/xla/xla/service/xla_util.cc:72]   }
2019-08-05 19:26:48.376368: E external/xla/xla/service/xla_util.cc:72] }
