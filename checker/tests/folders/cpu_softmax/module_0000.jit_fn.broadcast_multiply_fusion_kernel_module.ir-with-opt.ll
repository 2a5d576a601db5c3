; ModuleID = '__compute_module_broadcast_multiply_fusion_kernel_module'
source_filename = "__compute_module_broadcast_multiply_fusion_kernel_module"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, target_mem: none) uwtable
define noalias noundef ptr @broadcast_multiply_fusion(ptr nofree readonly captures(none) %0) local_unnamed_addr #0 {
  %2 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %3 = load ptr, ptr %2, align 8
  %4 = load i64, ptr %3, align 4, !invariant.load !3
  tail call void @llvm.experimental.noalias.scope.decl(metadata !4)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !7)
  %5 = icmp ult i64 %4, 2
  br i1 %5, label %.preheader, label %broadcast_multiply_fusion_wrapped.exit

.preheader:                                       ; preds = %1
  %6 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %7 = load ptr, ptr %6, align 8, !invariant.load !3
  %8 = getelementptr inbounds nuw i8, ptr %7, i64 16
  %9 = load ptr, ptr %8, align 8, !invariant.load !3, !dereferenceable !9
  %10 = load ptr, ptr %7, align 8, !invariant.load !3, !dereferenceable !10
  %.idx = shl nuw nsw i64 %4, 10
  %11 = getelementptr i8, ptr %9, i64 %.idx
  %.idx1 = shl nuw nsw i64 %4, 20
  %12 = getelementptr i8, ptr %10, i64 %.idx1
  br label %vector.ph

vector.ph:                                        ; preds = %.preheader, %middle.block
  %13 = phi i64 [ 0, %.preheader ], [ %53, %middle.block ]
  %.idx2 = shl nuw nsw i64 %13, 12
  %14 = getelementptr i8, ptr %12, i64 %.idx2
  %15 = getelementptr [4 x i8], ptr %11, i64 %13
  %16 = load float, ptr %15, align 4, !invariant.load !3, !alias.scope !7, !noalias !4
  %broadcast.splatinsert = insertelement <8 x float> poison, float %16, i64 0
  %broadcast.splat = shufflevector <8 x float> %broadcast.splatinsert, <8 x float> poison, <8 x i32> zeroinitializer
  br label %vector.body

vector.body:                                      ; preds = %vector.body, %vector.ph
  %index = phi i64 [ 0, %vector.ph ], [ %index.next.3, %vector.body ]
  %17 = getelementptr [4 x i8], ptr %14, i64 %index
  %18 = getelementptr i8, ptr %17, i64 32
  %19 = getelementptr i8, ptr %17, i64 64
  %20 = getelementptr i8, ptr %17, i64 96
  %wide.load = load <8 x float>, ptr %17, align 4, !alias.scope !4, !noalias !7
  %wide.load6 = load <8 x float>, ptr %18, align 4, !alias.scope !4, !noalias !7
  %wide.load7 = load <8 x float>, ptr %19, align 4, !alias.scope !4, !noalias !7
  %wide.load8 = load <8 x float>, ptr %20, align 4, !alias.scope !4, !noalias !7
  %21 = fmul <8 x float> %broadcast.splat, %wide.load
  %22 = fmul <8 x float> %broadcast.splat, %wide.load6
  %23 = fmul <8 x float> %broadcast.splat, %wide.load7
  %24 = fmul <8 x float> %broadcast.splat, %wide.load8
  store <8 x float> %21, ptr %17, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %22, ptr %18, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %23, ptr %19, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %24, ptr %20, align 4, !alias.scope !4, !noalias !7
  %25 = getelementptr [4 x i8], ptr %14, i64 %index
  %26 = getelementptr i8, ptr %25, i64 128
  %27 = getelementptr i8, ptr %25, i64 160
  %28 = getelementptr i8, ptr %25, i64 192
  %29 = getelementptr i8, ptr %25, i64 224
  %wide.load.1 = load <8 x float>, ptr %26, align 4, !alias.scope !4, !noalias !7
  %wide.load6.1 = load <8 x float>, ptr %27, align 4, !alias.scope !4, !noalias !7
  %wide.load7.1 = load <8 x float>, ptr %28, align 4, !alias.scope !4, !noalias !7
  %wide.load8.1 = load <8 x float>, ptr %29, align 4, !alias.scope !4, !noalias !7
  %30 = fmul <8 x float> %broadcast.splat, %wide.load.1
  %31 = fmul <8 x float> %broadcast.splat, %wide.load6.1
  %32 = fmul <8 x float> %broadcast.splat, %wide.load7.1
  %33 = fmul <8 x float> %broadcast.splat, %wide.load8.1
  store <8 x float> %30, ptr %26, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %31, ptr %27, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %32, ptr %28, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %33, ptr %29, align 4, !alias.scope !4, !noalias !7
  %34 = getelementptr [4 x i8], ptr %14, i64 %index
  %35 = getelementptr i8, ptr %34, i64 256
  %36 = getelementptr i8, ptr %34, i64 288
  %37 = getelementptr i8, ptr %34, i64 320
  %38 = getelementptr i8, ptr %34, i64 352
  %wide.load.2 = load <8 x float>, ptr %35, align 4, !alias.scope !4, !noalias !7
  %wide.load6.2 = load <8 x float>, ptr %36, align 4, !alias.scope !4, !noalias !7
  %wide.load7.2 = load <8 x float>, ptr %37, align 4, !alias.scope !4, !noalias !7
  %wide.load8.2 = load <8 x float>, ptr %38, align 4, !alias.scope !4, !noalias !7
  %39 = fmul <8 x float> %broadcast.splat, %wide.load.2
  %40 = fmul <8 x float> %broadcast.splat, %wide.load6.2
  %41 = fmul <8 x float> %broadcast.splat, %wide.load7.2
  %42 = fmul <8 x float> %broadcast.splat, %wide.load8.2
  store <8 x float> %39, ptr %35, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %40, ptr %36, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %41, ptr %37, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %42, ptr %38, align 4, !alias.scope !4, !noalias !7
  %43 = getelementptr [4 x i8], ptr %14, i64 %index
  %44 = getelementptr i8, ptr %43, i64 384
  %45 = getelementptr i8, ptr %43, i64 416
  %46 = getelementptr i8, ptr %43, i64 448
  %47 = getelementptr i8, ptr %43, i64 480
  %wide.load.3 = load <8 x float>, ptr %44, align 4, !alias.scope !4, !noalias !7
  %wide.load6.3 = load <8 x float>, ptr %45, align 4, !alias.scope !4, !noalias !7
  %wide.load7.3 = load <8 x float>, ptr %46, align 4, !alias.scope !4, !noalias !7
  %wide.load8.3 = load <8 x float>, ptr %47, align 4, !alias.scope !4, !noalias !7
  %48 = fmul <8 x float> %broadcast.splat, %wide.load.3
  %49 = fmul <8 x float> %broadcast.splat, %wide.load6.3
  %50 = fmul <8 x float> %broadcast.splat, %wide.load7.3
  %51 = fmul <8 x float> %broadcast.splat, %wide.load8.3
  store <8 x float> %48, ptr %44, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %49, ptr %45, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %50, ptr %46, align 4, !alias.scope !4, !noalias !7
  store <8 x float> %51, ptr %47, align 4, !alias.scope !4, !noalias !7
  %index.next.3 = add nuw nsw i64 %index, 128
  %52 = icmp eq i64 %index.next.3, 1024
  br i1 %52, label %middle.block, label %vector.body, !llvm.loop !11

middle.block:                                     ; preds = %vector.body
  %53 = add nuw nsw i64 %13, 1
  %exitcond4.not = icmp eq i64 %53, 256
  br i1 %exitcond4.not, label %broadcast_multiply_fusion_wrapped.exit, label %vector.ph, !llvm.loop !14

broadcast_multiply_fusion_wrapped.exit:           ; preds = %middle.block, %1
  ret ptr null
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite)
declare void @llvm.experimental.noalias.scope.decl(metadata) #1

attributes #0 = { nofree norecurse nosync nounwind memory(readwrite, target_mem: none) uwtable "frame-pointer"="all" "prefer-vector-width"="256" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite) }

!llvm.module.flags = !{!0, !1}
!xla_cpu_memory_region_name = !{!2}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 1, !"xla_dylib_index", i64 1}
!2 = !{!"xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"}
!3 = !{}
!4 = !{!5}
!5 = distinct !{!5, !6, !"broadcast_multiply_fusion_wrapped: argument 0"}
!6 = distinct !{!6, !"broadcast_multiply_fusion_wrapped"}
!7 = !{!8}
!8 = distinct !{!8, !6, !"broadcast_multiply_fusion_wrapped: argument 1"}
!9 = !{i64 2048}
!10 = !{i64 2097152}
!11 = distinct !{!11, !12, !13}
!12 = !{!"llvm.loop.isvectorized", i32 1}
!13 = !{!"llvm.loop.unroll.runtime.disable"}
!14 = distinct !{!14, !15}
!15 = !{!"llvm.loop.unroll.disable"}
