; ModuleID = '__compute_module_broadcast_multiply_fusion_kernel_module'
source_filename = "__compute_module_broadcast_multiply_fusion_kernel_module"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%XLA_CPU_KernelCallFrame = type { ptr, ptr, i64, ptr }
%XLA_CPU_KernelArg = type { ptr, i64 }
%kernel_dim3 = type { i64, i64, i64 }

; Function Attrs: uwtable
define ptr @broadcast_multiply_fusion(ptr %0) #0 {
  %2 = getelementptr inbounds %XLA_CPU_KernelCallFrame, ptr %0, i32 0, i32 3
  %3 = load ptr, ptr %2, align 8, !invariant.load !3
  %4 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 0, i32 0
  %5 = load ptr, ptr %4, align 8, !invariant.load !3, !dereferenceable !4
  %6 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 1, i32 0
  %7 = load ptr, ptr %6, align 8, !invariant.load !3, !dereferenceable !5
  %8 = getelementptr inbounds %XLA_CPU_KernelArg, ptr %3, i32 2, i32 0
  %9 = load ptr, ptr %8, align 8, !invariant.load !3, !dereferenceable !4
  %10 = getelementptr inbounds %XLA_CPU_KernelCallFrame, ptr %0, i32 0, i32 1
  %11 = load ptr, ptr %10, align 8
  %12 = getelementptr inbounds %kernel_dim3, ptr %11, i32 0, i32 0
  %13 = load i64, ptr %12, align 4, !invariant.load !3
  %14 = getelementptr inbounds %kernel_dim3, ptr %11, i32 0, i32 1
  %15 = load i64, ptr %14, align 4, !invariant.load !3
  %16 = getelementptr inbounds %kernel_dim3, ptr %11, i32 0, i32 2
  %17 = load i64, ptr %16, align 4, !invariant.load !3
  call void @broadcast_multiply_fusion_wrapped(ptr %5, ptr %7, ptr %9, i64 %13, i64 %15, i64 %17)
  ret ptr null
}

; Function Attrs: alwaysinline
define internal void @broadcast_multiply_fusion_wrapped(ptr noalias align 64 dereferenceable(2097152) %0, ptr noalias align 64 dereferenceable(2048) %1, ptr noalias align 64 dereferenceable(2097152) %2, i64 %3, i64 %4, i64 %5) #1 {
  %7 = icmp sge i64 %3, 0
  %8 = icmp sle i64 %3, 1
  %9 = and i1 %7, %8
  br i1 %9, label %10, label %34

10:                                               ; preds = %6
  %11 = mul nsw i64 %3, 256
  %12 = mul nsw i64 %3, 262144
  br label %13

13:                                               ; preds = %31, %10
  %14 = phi i64 [ %32, %31 ], [ 0, %10 ]
  %15 = icmp slt i64 %14, 256
  br i1 %15, label %16, label %33

16:                                               ; preds = %13
  %17 = add nsw i64 %11, %14
  %18 = getelementptr inbounds [512 x float], ptr %1, i32 0, i64 %17
  %19 = load float, ptr %18, align 4, !invariant.load !3
  %20 = mul nsw i64 %14, 1024
  %21 = add nsw i64 %12, %20
  br label %22

22:                                               ; preds = %25, %16
  %23 = phi i64 [ %30, %25 ], [ 0, %16 ]
  %24 = icmp slt i64 %23, 1024
  br i1 %24, label %25, label %31

25:                                               ; preds = %22
  %26 = add nsw i64 %21, %23
  %27 = getelementptr inbounds [524288 x float], ptr %0, i32 0, i64 %26
  %28 = load float, ptr %27, align 4
  %29 = fmul float %28, %19
  store float %29, ptr %27, align 4
  %30 = add i64 %23, 1
  br label %22

31:                                               ; preds = %22
  %32 = add i64 %14, 1
  br label %13, !llvm.loop !6

33:                                               ; preds = %13
  br label %34

34:                                               ; preds = %33, %6
  ret void
}

attributes #0 = { uwtable "frame-pointer"="all" "prefer-vector-width"="256" }
attributes #1 = { alwaysinline }

!llvm.module.flags = !{!0, !1}
!xla_cpu_memory_region_name = !{!2}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 1, !"xla_dylib_index", i64 1}
!2 = !{!"xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"}
!3 = !{}
!4 = !{i64 2097152}
!5 = !{i64 2048}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.unroll.disable"}
