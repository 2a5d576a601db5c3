; ModuleID = '__compute_module_broadcast_divide_fusion_kernel_module'
source_filename = "__compute_module_broadcast_divide_fusion_kernel_module"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem: none) uwtable
define noalias noundef ptr @broadcast_divide_fusion(ptr nofree readonly captures(none) %0) local_unnamed_addr #0 {
vector.ph:
  %1 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %2 = load ptr, ptr %1, align 8, !invariant.load !3
  %3 = load ptr, ptr %2, align 8, !invariant.load !3, !dereferenceable !4
  %4 = getelementptr inbounds nuw i8, ptr %3, i64 32
  %5 = getelementptr inbounds nuw i8, ptr %3, i64 64
  %6 = getelementptr inbounds nuw i8, ptr %3, i64 96
  %wide.load = load <8 x float>, ptr %3, align 4, !alias.scope !5
  %wide.load1 = load <8 x float>, ptr %4, align 4, !alias.scope !5
  %wide.load2 = load <8 x float>, ptr %5, align 4, !alias.scope !5
  %wide.load3 = load <8 x float>, ptr %6, align 4, !alias.scope !5
  %7 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load
  %8 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1
  %9 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2
  %10 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3
  store <8 x float> %7, ptr %3, align 4, !alias.scope !5
  store <8 x float> %8, ptr %4, align 4, !alias.scope !5
  store <8 x float> %9, ptr %5, align 4, !alias.scope !5
  store <8 x float> %10, ptr %6, align 4, !alias.scope !5
  %11 = getelementptr inbounds nuw i8, ptr %3, i64 128
  %12 = getelementptr inbounds nuw i8, ptr %3, i64 160
  %13 = getelementptr inbounds nuw i8, ptr %3, i64 192
  %14 = getelementptr inbounds nuw i8, ptr %3, i64 224
  %wide.load.1 = load <8 x float>, ptr %11, align 4, !alias.scope !5
  %wide.load1.1 = load <8 x float>, ptr %12, align 4, !alias.scope !5
  %wide.load2.1 = load <8 x float>, ptr %13, align 4, !alias.scope !5
  %wide.load3.1 = load <8 x float>, ptr %14, align 4, !alias.scope !5
  %15 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.1
  %16 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.1
  %17 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.1
  %18 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.1
  store <8 x float> %15, ptr %11, align 4, !alias.scope !5
  store <8 x float> %16, ptr %12, align 4, !alias.scope !5
  store <8 x float> %17, ptr %13, align 4, !alias.scope !5
  store <8 x float> %18, ptr %14, align 4, !alias.scope !5
  %19 = getelementptr inbounds nuw i8, ptr %3, i64 256
  %20 = getelementptr inbounds nuw i8, ptr %3, i64 288
  %21 = getelementptr inbounds nuw i8, ptr %3, i64 320
  %22 = getelementptr inbounds nuw i8, ptr %3, i64 352
  %wide.load.2 = load <8 x float>, ptr %19, align 4, !alias.scope !5
  %wide.load1.2 = load <8 x float>, ptr %20, align 4, !alias.scope !5
  %wide.load2.2 = load <8 x float>, ptr %21, align 4, !alias.scope !5
  %wide.load3.2 = load <8 x float>, ptr %22, align 4, !alias.scope !5
  %23 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.2
  %24 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.2
  %25 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.2
  %26 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.2
  store <8 x float> %23, ptr %19, align 4, !alias.scope !5
  store <8 x float> %24, ptr %20, align 4, !alias.scope !5
  store <8 x float> %25, ptr %21, align 4, !alias.scope !5
  store <8 x float> %26, ptr %22, align 4, !alias.scope !5
  %27 = getelementptr inbounds nuw i8, ptr %3, i64 384
  %28 = getelementptr inbounds nuw i8, ptr %3, i64 416
  %29 = getelementptr inbounds nuw i8, ptr %3, i64 448
  %30 = getelementptr inbounds nuw i8, ptr %3, i64 480
  %wide.load.3 = load <8 x float>, ptr %27, align 4, !alias.scope !5
  %wide.load1.3 = load <8 x float>, ptr %28, align 4, !alias.scope !5
  %wide.load2.3 = load <8 x float>, ptr %29, align 4, !alias.scope !5
  %wide.load3.3 = load <8 x float>, ptr %30, align 4, !alias.scope !5
  %31 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.3
  %32 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.3
  %33 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.3
  %34 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.3
  store <8 x float> %31, ptr %27, align 4, !alias.scope !5
  store <8 x float> %32, ptr %28, align 4, !alias.scope !5
  store <8 x float> %33, ptr %29, align 4, !alias.scope !5
  store <8 x float> %34, ptr %30, align 4, !alias.scope !5
  %35 = getelementptr inbounds nuw i8, ptr %3, i64 512
  %36 = getelementptr inbounds nuw i8, ptr %3, i64 544
  %37 = getelementptr inbounds nuw i8, ptr %3, i64 576
  %38 = getelementptr inbounds nuw i8, ptr %3, i64 608
  %wide.load.4 = load <8 x float>, ptr %35, align 4, !alias.scope !5
  %wide.load1.4 = load <8 x float>, ptr %36, align 4, !alias.scope !5
  %wide.load2.4 = load <8 x float>, ptr %37, align 4, !alias.scope !5
  %wide.load3.4 = load <8 x float>, ptr %38, align 4, !alias.scope !5
  %39 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.4
  %40 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.4
  %41 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.4
  %42 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.4
  store <8 x float> %39, ptr %35, align 4, !alias.scope !5
  store <8 x float> %40, ptr %36, align 4, !alias.scope !5
  store <8 x float> %41, ptr %37, align 4, !alias.scope !5
  store <8 x float> %42, ptr %38, align 4, !alias.scope !5
  %43 = getelementptr inbounds nuw i8, ptr %3, i64 640
  %44 = getelementptr inbounds nuw i8, ptr %3, i64 672
  %45 = getelementptr inbounds nuw i8, ptr %3, i64 704
  %46 = getelementptr inbounds nuw i8, ptr %3, i64 736
  %wide.load.5 = load <8 x float>, ptr %43, align 4, !alias.scope !5
  %wide.load1.5 = load <8 x float>, ptr %44, align 4, !alias.scope !5
  %wide.load2.5 = load <8 x float>, ptr %45, align 4, !alias.scope !5
  %wide.load3.5 = load <8 x float>, ptr %46, align 4, !alias.scope !5
  %47 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.5
  %48 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.5
  %49 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.5
  %50 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.5
  store <8 x float> %47, ptr %43, align 4, !alias.scope !5
  store <8 x float> %48, ptr %44, align 4, !alias.scope !5
  store <8 x float> %49, ptr %45, align 4, !alias.scope !5
  store <8 x float> %50, ptr %46, align 4, !alias.scope !5
  %51 = getelementptr inbounds nuw i8, ptr %3, i64 768
  %52 = getelementptr inbounds nuw i8, ptr %3, i64 800
  %53 = getelementptr inbounds nuw i8, ptr %3, i64 832
  %54 = getelementptr inbounds nuw i8, ptr %3, i64 864
  %wide.load.6 = load <8 x float>, ptr %51, align 4, !alias.scope !5
  %wide.load1.6 = load <8 x float>, ptr %52, align 4, !alias.scope !5
  %wide.load2.6 = load <8 x float>, ptr %53, align 4, !alias.scope !5
  %wide.load3.6 = load <8 x float>, ptr %54, align 4, !alias.scope !5
  %55 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.6
  %56 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.6
  %57 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.6
  %58 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.6
  store <8 x float> %55, ptr %51, align 4, !alias.scope !5
  store <8 x float> %56, ptr %52, align 4, !alias.scope !5
  store <8 x float> %57, ptr %53, align 4, !alias.scope !5
  store <8 x float> %58, ptr %54, align 4, !alias.scope !5
  %59 = getelementptr inbounds nuw i8, ptr %3, i64 896
  %60 = getelementptr inbounds nuw i8, ptr %3, i64 928
  %61 = getelementptr inbounds nuw i8, ptr %3, i64 960
  %62 = getelementptr inbounds nuw i8, ptr %3, i64 992
  %wide.load.7 = load <8 x float>, ptr %59, align 4, !alias.scope !5
  %wide.load1.7 = load <8 x float>, ptr %60, align 4, !alias.scope !5
  %wide.load2.7 = load <8 x float>, ptr %61, align 4, !alias.scope !5
  %wide.load3.7 = load <8 x float>, ptr %62, align 4, !alias.scope !5
  %63 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.7
  %64 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.7
  %65 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.7
  %66 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.7
  store <8 x float> %63, ptr %59, align 4, !alias.scope !5
  store <8 x float> %64, ptr %60, align 4, !alias.scope !5
  store <8 x float> %65, ptr %61, align 4, !alias.scope !5
  store <8 x float> %66, ptr %62, align 4, !alias.scope !5
  %67 = getelementptr inbounds nuw i8, ptr %3, i64 1024
  %68 = getelementptr inbounds nuw i8, ptr %3, i64 1056
  %69 = getelementptr inbounds nuw i8, ptr %3, i64 1088
  %70 = getelementptr inbounds nuw i8, ptr %3, i64 1120
  %wide.load.8 = load <8 x float>, ptr %67, align 4, !alias.scope !5
  %wide.load1.8 = load <8 x float>, ptr %68, align 4, !alias.scope !5
  %wide.load2.8 = load <8 x float>, ptr %69, align 4, !alias.scope !5
  %wide.load3.8 = load <8 x float>, ptr %70, align 4, !alias.scope !5
  %71 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.8
  %72 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.8
  %73 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.8
  %74 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.8
  store <8 x float> %71, ptr %67, align 4, !alias.scope !5
  store <8 x float> %72, ptr %68, align 4, !alias.scope !5
  store <8 x float> %73, ptr %69, align 4, !alias.scope !5
  store <8 x float> %74, ptr %70, align 4, !alias.scope !5
  %75 = getelementptr inbounds nuw i8, ptr %3, i64 1152
  %76 = getelementptr inbounds nuw i8, ptr %3, i64 1184
  %77 = getelementptr inbounds nuw i8, ptr %3, i64 1216
  %78 = getelementptr inbounds nuw i8, ptr %3, i64 1248
  %wide.load.9 = load <8 x float>, ptr %75, align 4, !alias.scope !5
  %wide.load1.9 = load <8 x float>, ptr %76, align 4, !alias.scope !5
  %wide.load2.9 = load <8 x float>, ptr %77, align 4, !alias.scope !5
  %wide.load3.9 = load <8 x float>, ptr %78, align 4, !alias.scope !5
  %79 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.9
  %80 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.9
  %81 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.9
  %82 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.9
  store <8 x float> %79, ptr %75, align 4, !alias.scope !5
  store <8 x float> %80, ptr %76, align 4, !alias.scope !5
  store <8 x float> %81, ptr %77, align 4, !alias.scope !5
  store <8 x float> %82, ptr %78, align 4, !alias.scope !5
  %83 = getelementptr inbounds nuw i8, ptr %3, i64 1280
  %84 = getelementptr inbounds nuw i8, ptr %3, i64 1312
  %85 = getelementptr inbounds nuw i8, ptr %3, i64 1344
  %86 = getelementptr inbounds nuw i8, ptr %3, i64 1376
  %wide.load.10 = load <8 x float>, ptr %83, align 4, !alias.scope !5
  %wide.load1.10 = load <8 x float>, ptr %84, align 4, !alias.scope !5
  %wide.load2.10 = load <8 x float>, ptr %85, align 4, !alias.scope !5
  %wide.load3.10 = load <8 x float>, ptr %86, align 4, !alias.scope !5
  %87 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.10
  %88 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.10
  %89 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.10
  %90 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.10
  store <8 x float> %87, ptr %83, align 4, !alias.scope !5
  store <8 x float> %88, ptr %84, align 4, !alias.scope !5
  store <8 x float> %89, ptr %85, align 4, !alias.scope !5
  store <8 x float> %90, ptr %86, align 4, !alias.scope !5
  %91 = getelementptr inbounds nuw i8, ptr %3, i64 1408
  %92 = getelementptr inbounds nuw i8, ptr %3, i64 1440
  %93 = getelementptr inbounds nuw i8, ptr %3, i64 1472
  %94 = getelementptr inbounds nuw i8, ptr %3, i64 1504
  %wide.load.11 = load <8 x float>, ptr %91, align 4, !alias.scope !5
  %wide.load1.11 = load <8 x float>, ptr %92, align 4, !alias.scope !5
  %wide.load2.11 = load <8 x float>, ptr %93, align 4, !alias.scope !5
  %wide.load3.11 = load <8 x float>, ptr %94, align 4, !alias.scope !5
  %95 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.11
  %96 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.11
  %97 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.11
  %98 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.11
  store <8 x float> %95, ptr %91, align 4, !alias.scope !5
  store <8 x float> %96, ptr %92, align 4, !alias.scope !5
  store <8 x float> %97, ptr %93, align 4, !alias.scope !5
  store <8 x float> %98, ptr %94, align 4, !alias.scope !5
  %99 = getelementptr inbounds nuw i8, ptr %3, i64 1536
  %100 = getelementptr inbounds nuw i8, ptr %3, i64 1568
  %101 = getelementptr inbounds nuw i8, ptr %3, i64 1600
  %102 = getelementptr inbounds nuw i8, ptr %3, i64 1632
  %wide.load.12 = load <8 x float>, ptr %99, align 4, !alias.scope !5
  %wide.load1.12 = load <8 x float>, ptr %100, align 4, !alias.scope !5
  %wide.load2.12 = load <8 x float>, ptr %101, align 4, !alias.scope !5
  %wide.load3.12 = load <8 x float>, ptr %102, align 4, !alias.scope !5
  %103 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.12
  %104 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.12
  %105 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.12
  %106 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.12
  store <8 x float> %103, ptr %99, align 4, !alias.scope !5
  store <8 x float> %104, ptr %100, align 4, !alias.scope !5
  store <8 x float> %105, ptr %101, align 4, !alias.scope !5
  store <8 x float> %106, ptr %102, align 4, !alias.scope !5
  %107 = getelementptr inbounds nuw i8, ptr %3, i64 1664
  %108 = getelementptr inbounds nuw i8, ptr %3, i64 1696
  %109 = getelementptr inbounds nuw i8, ptr %3, i64 1728
  %110 = getelementptr inbounds nuw i8, ptr %3, i64 1760
  %wide.load.13 = load <8 x float>, ptr %107, align 4, !alias.scope !5
  %wide.load1.13 = load <8 x float>, ptr %108, align 4, !alias.scope !5
  %wide.load2.13 = load <8 x float>, ptr %109, align 4, !alias.scope !5
  %wide.load3.13 = load <8 x float>, ptr %110, align 4, !alias.scope !5
  %111 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.13
  %112 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.13
  %113 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.13
  %114 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.13
  store <8 x float> %111, ptr %107, align 4, !alias.scope !5
  store <8 x float> %112, ptr %108, align 4, !alias.scope !5
  store <8 x float> %113, ptr %109, align 4, !alias.scope !5
  store <8 x float> %114, ptr %110, align 4, !alias.scope !5
  %115 = getelementptr inbounds nuw i8, ptr %3, i64 1792
  %116 = getelementptr inbounds nuw i8, ptr %3, i64 1824
  %117 = getelementptr inbounds nuw i8, ptr %3, i64 1856
  %118 = getelementptr inbounds nuw i8, ptr %3, i64 1888
  %wide.load.14 = load <8 x float>, ptr %115, align 4, !alias.scope !5
  %wide.load1.14 = load <8 x float>, ptr %116, align 4, !alias.scope !5
  %wide.load2.14 = load <8 x float>, ptr %117, align 4, !alias.scope !5
  %wide.load3.14 = load <8 x float>, ptr %118, align 4, !alias.scope !5
  %119 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.14
  %120 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.14
  %121 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.14
  %122 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.14
  store <8 x float> %119, ptr %115, align 4, !alias.scope !5
  store <8 x float> %120, ptr %116, align 4, !alias.scope !5
  store <8 x float> %121, ptr %117, align 4, !alias.scope !5
  store <8 x float> %122, ptr %118, align 4, !alias.scope !5
  %123 = getelementptr inbounds nuw i8, ptr %3, i64 1920
  %124 = getelementptr inbounds nuw i8, ptr %3, i64 1952
  %125 = getelementptr inbounds nuw i8, ptr %3, i64 1984
  %126 = getelementptr inbounds nuw i8, ptr %3, i64 2016
  %wide.load.15 = load <8 x float>, ptr %123, align 4, !alias.scope !5
  %wide.load1.15 = load <8 x float>, ptr %124, align 4, !alias.scope !5
  %wide.load2.15 = load <8 x float>, ptr %125, align 4, !alias.scope !5
  %wide.load3.15 = load <8 x float>, ptr %126, align 4, !alias.scope !5
  %127 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load.15
  %128 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load1.15
  %129 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load2.15
  %130 = fdiv <8 x float> splat (float 1.000000e+00), %wide.load3.15
  store <8 x float> %127, ptr %123, align 4, !alias.scope !5
  store <8 x float> %128, ptr %124, align 4, !alias.scope !5
  store <8 x float> %129, ptr %125, align 4, !alias.scope !5
  store <8 x float> %130, ptr %126, align 4, !alias.scope !5
  ret ptr null
}

attributes #0 = { nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem: none) uwtable "frame-pointer"="all" "prefer-vector-width"="256" }

!llvm.module.flags = !{!0, !1}
!xla_cpu_memory_region_name = !{!2}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 1, !"xla_dylib_index", i64 0}
!2 = !{!"xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"}
!3 = !{}
!4 = !{i64 2048}
!5 = !{!6}
!6 = distinct !{!6, !7, !"broadcast_divide_fusion_wrapped: argument 0"}
!7 = distinct !{!7, !"broadcast_divide_fusion_wrapped"}
