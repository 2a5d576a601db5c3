; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@global_smem = external local_unnamed_addr addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
declare void @llvm.nvvm.griddepcontrol.wait() #0

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.maximum.f32(float, float) #2

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #3

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #4

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.div.full(float, float) #5

; Function Attrs: nounwind
define ptx_kernel void @triton_softmax_2(ptr noalias align 16 dereferenceable(2097152) %arg0, ptr noalias align 256 dereferenceable(2097152) %arg1) local_unnamed_addr #6 {
  %1 = addrspacecast ptr %arg0 to ptr addrspace(1)
  %2 = addrspacecast ptr %arg1 to ptr addrspace(1)
  tail call void @llvm.nvvm.griddepcontrol.wait()
  %3 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %4 = zext i32 %3 to i64
  %5 = tail call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = shl i32 %5, 2
  %7 = zext i32 %6 to i64
  %8 = shl i64 %4, 11
  %9 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %8
  %10 = getelementptr [4 x i8], ptr addrspace(1) %9, i64 %7
  %11 = getelementptr i8, ptr addrspace(1) %10, i64 2048
  %12 = getelementptr i8, ptr addrspace(1) %10, i64 4096
  %13 = getelementptr i8, ptr addrspace(1) %12, i64 2048
  %14 = tail call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0; mov.u32 $1, 0x0; mov.u32 $2, 0x0; mov.u32 $3, 0x0; ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"(ptr addrspace(1) %10) #0
  %15 = extractvalue { i32, i32, i32, i32 } %14, 0
  %16 = extractvalue { i32, i32, i32, i32 } %14, 1
  %17 = extractvalue { i32, i32, i32, i32 } %14, 2
  %18 = extractvalue { i32, i32, i32, i32 } %14, 3
  %19 = bitcast i32 %15 to float
  %20 = bitcast i32 %16 to float
  %21 = bitcast i32 %17 to float
  %22 = bitcast i32 %18 to float
  %23 = tail call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0; mov.u32 $1, 0x0; mov.u32 $2, 0x0; mov.u32 $3, 0x0; ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"(ptr addrspace(1) %11) #0
  %24 = extractvalue { i32, i32, i32, i32 } %23, 0
  %25 = extractvalue { i32, i32, i32, i32 } %23, 1
  %26 = extractvalue { i32, i32, i32, i32 } %23, 2
  %27 = extractvalue { i32, i32, i32, i32 } %23, 3
  %28 = bitcast i32 %24 to float
  %29 = bitcast i32 %25 to float
  %30 = bitcast i32 %26 to float
  %31 = bitcast i32 %27 to float
  %32 = tail call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0; mov.u32 $1, 0x0; mov.u32 $2, 0x0; mov.u32 $3, 0x0; ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"(ptr addrspace(1) %12) #0
  %33 = extractvalue { i32, i32, i32, i32 } %32, 0
  %34 = extractvalue { i32, i32, i32, i32 } %32, 1
  %35 = extractvalue { i32, i32, i32, i32 } %32, 2
  %36 = extractvalue { i32, i32, i32, i32 } %32, 3
  %37 = bitcast i32 %33 to float
  %38 = bitcast i32 %34 to float
  %39 = bitcast i32 %35 to float
  %40 = bitcast i32 %36 to float
  %41 = tail call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0; mov.u32 $1, 0x0; mov.u32 $2, 0x0; mov.u32 $3, 0x0; ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"(ptr addrspace(1) %13) #0
  %42 = extractvalue { i32, i32, i32, i32 } %41, 0
  %43 = extractvalue { i32, i32, i32, i32 } %41, 1
  %44 = extractvalue { i32, i32, i32, i32 } %41, 2
  %45 = extractvalue { i32, i32, i32, i32 } %41, 3
  %46 = bitcast i32 %42 to float
  %47 = bitcast i32 %43 to float
  %48 = bitcast i32 %44 to float
  %49 = bitcast i32 %45 to float
  %50 = tail call float @llvm.maximum.f32(float %19, float %20)
  %51 = tail call float @llvm.maximum.f32(float %21, float %22)
  %52 = tail call float @llvm.maximum.f32(float %28, float %29)
  %53 = tail call float @llvm.maximum.f32(float %30, float %31)
  %54 = tail call float @llvm.maximum.f32(float %50, float %51)
  %55 = tail call float @llvm.maximum.f32(float %52, float %53)
  %56 = tail call float @llvm.maximum.f32(float %54, float %55)
  %57 = tail call float @llvm.maximum.f32(float %37, float %38)
  %58 = tail call float @llvm.maximum.f32(float %39, float %40)
  %59 = tail call float @llvm.maximum.f32(float %46, float %47)
  %60 = tail call float @llvm.maximum.f32(float %48, float %49)
  %61 = tail call float @llvm.maximum.f32(float %57, float %58)
  %62 = tail call float @llvm.maximum.f32(float %59, float %60)
  %63 = tail call float @llvm.maximum.f32(float %61, float %62)
  %64 = bitcast float %56 to i32
  %65 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %64, i32 16, i32 31)
  %66 = bitcast i32 %65 to float
  %67 = tail call float @llvm.maximum.f32(float %56, float %66)
  %68 = bitcast float %67 to i32
  %69 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %68, i32 8, i32 31)
  %70 = bitcast i32 %69 to float
  %71 = tail call float @llvm.maximum.f32(float %67, float %70)
  %72 = bitcast float %71 to i32
  %73 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %72, i32 4, i32 31)
  %74 = bitcast i32 %73 to float
  %75 = tail call float @llvm.maximum.f32(float %71, float %74)
  %76 = bitcast float %75 to i32
  %77 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %76, i32 2, i32 31)
  %78 = bitcast i32 %77 to float
  %79 = tail call float @llvm.maximum.f32(float %75, float %78)
  %80 = bitcast float %79 to i32
  %81 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %80, i32 1, i32 31)
  %82 = bitcast i32 %81 to float
  %83 = tail call float @llvm.maximum.f32(float %79, float %82)
  %84 = bitcast float %63 to i32
  %85 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %84, i32 16, i32 31)
  %86 = bitcast i32 %85 to float
  %87 = tail call float @llvm.maximum.f32(float %63, float %86)
  %88 = bitcast float %87 to i32
  %89 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %88, i32 8, i32 31)
  %90 = bitcast i32 %89 to float
  %91 = tail call float @llvm.maximum.f32(float %87, float %90)
  %92 = bitcast float %91 to i32
  %93 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %92, i32 4, i32 31)
  %94 = bitcast i32 %93 to float
  %95 = tail call float @llvm.maximum.f32(float %91, float %94)
  %96 = bitcast float %95 to i32
  %97 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %96, i32 2, i32 31)
  %98 = bitcast i32 %97 to float
  %99 = tail call float @llvm.maximum.f32(float %95, float %98)
  %100 = bitcast float %99 to i32
  %101 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %100, i32 1, i32 31)
  %102 = bitcast i32 %101 to float
  %103 = tail call float @llvm.maximum.f32(float %99, float %102)
  %104 = lshr i32 %5, 2
  %105 = and i32 %104, 24
  %106 = zext nneg i32 %105 to i64
  %107 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i64 %106
  %108 = insertelement <2 x float> poison, float %83, i64 0
  %109 = insertelement <2 x float> %108, float %103, i64 1
  store <2 x float> %109, ptr addrspace(3) %107, align 8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %110 = shl nuw nsw i32 %5, 3
  %111 = and i32 %110, 24
  %112 = zext nneg i32 %111 to i64
  %113 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i64 %112
  %114 = load <2 x i32>, ptr addrspace(3) %113, align 8
  %115 = extractelement <2 x i32> %114, i32 0
  %116 = extractelement <2 x i32> %114, i32 1
  %117 = bitcast i32 %115 to float
  %118 = bitcast i32 %116 to float
  %119 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %115, i32 2, i32 31)
  %120 = bitcast i32 %119 to float
  %121 = tail call float @llvm.maximum.f32(float %117, float %120)
  %122 = bitcast float %121 to i32
  %123 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %122, i32 1, i32 31)
  %124 = bitcast i32 %123 to float
  %125 = tail call float @llvm.maximum.f32(float %121, float %124)
  %126 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %116, i32 2, i32 31)
  %127 = bitcast i32 %126 to float
  %128 = tail call float @llvm.maximum.f32(float %118, float %127)
  %129 = bitcast float %128 to i32
  %130 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %129, i32 1, i32 31)
  %131 = bitcast i32 %130 to float
  %132 = tail call float @llvm.maximum.f32(float %128, float %131)
  %133 = fsub float %19, %125
  %134 = fsub float %20, %125
  %135 = fsub float %21, %125
  %136 = fsub float %22, %125
  %137 = fsub float %28, %125
  %138 = fsub float %29, %125
  %139 = fsub float %30, %125
  %140 = fsub float %31, %125
  %141 = fsub float %37, %132
  %142 = fsub float %38, %132
  %143 = fsub float %39, %132
  %144 = fsub float %40, %132
  %145 = fsub float %46, %132
  %146 = fsub float %47, %132
  %147 = fsub float %48, %132
  %148 = fsub float %49, %132
  %149 = tail call float @llvm.fma.f32(float %133, float 5.724980e-03, float 5.000000e-01)
  %150 = tail call float @llvm.nvvm.saturate.f(float %149) #0
  %151 = tail call float @llvm.nvvm.fma.rm.f(float %150, float 2.520000e+02, float f0x4B400001) #0
  %152 = fadd float %151, f0xCB40007F
  %153 = fneg float %152
  %154 = tail call float @llvm.fma.f32(float %133, float f0x3FB8AA3B, float %153)
  %155 = tail call float @llvm.fma.f32(float %133, float f0x32A57060, float %154)
  %156 = bitcast float %151 to i32
  %157 = shl i32 %156, 23
  %158 = bitcast i32 %157 to float
  %159 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %155)
  %160 = fmul float %159, %158
  %161 = tail call float @llvm.fma.f32(float %134, float 5.724980e-03, float 5.000000e-01)
  %162 = tail call float @llvm.nvvm.saturate.f(float %161) #0
  %163 = tail call float @llvm.nvvm.fma.rm.f(float %162, float 2.520000e+02, float f0x4B400001) #0
  %164 = fadd float %163, f0xCB40007F
  %165 = fneg float %164
  %166 = tail call float @llvm.fma.f32(float %134, float f0x3FB8AA3B, float %165)
  %167 = tail call float @llvm.fma.f32(float %134, float f0x32A57060, float %166)
  %168 = bitcast float %163 to i32
  %169 = shl i32 %168, 23
  %170 = bitcast i32 %169 to float
  %171 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %167)
  %172 = fmul float %171, %170
  %173 = tail call float @llvm.fma.f32(float %135, float 5.724980e-03, float 5.000000e-01)
  %174 = tail call float @llvm.nvvm.saturate.f(float %173) #0
  %175 = tail call float @llvm.nvvm.fma.rm.f(float %174, float 2.520000e+02, float f0x4B400001) #0
  %176 = fadd float %175, f0xCB40007F
  %177 = fneg float %176
  %178 = tail call float @llvm.fma.f32(float %135, float f0x3FB8AA3B, float %177)
  %179 = tail call float @llvm.fma.f32(float %135, float f0x32A57060, float %178)
  %180 = bitcast float %175 to i32
  %181 = shl i32 %180, 23
  %182 = bitcast i32 %181 to float
  %183 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %179)
  %184 = fmul float %183, %182
  %185 = tail call float @llvm.fma.f32(float %136, float 5.724980e-03, float 5.000000e-01)
  %186 = tail call float @llvm.nvvm.saturate.f(float %185) #0
  %187 = tail call float @llvm.nvvm.fma.rm.f(float %186, float 2.520000e+02, float f0x4B400001) #0
  %188 = fadd float %187, f0xCB40007F
  %189 = fneg float %188
  %190 = tail call float @llvm.fma.f32(float %136, float f0x3FB8AA3B, float %189)
  %191 = tail call float @llvm.fma.f32(float %136, float f0x32A57060, float %190)
  %192 = bitcast float %187 to i32
  %193 = shl i32 %192, 23
  %194 = bitcast i32 %193 to float
  %195 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %191)
  %196 = fmul float %195, %194
  %197 = tail call float @llvm.fma.f32(float %137, float 5.724980e-03, float 5.000000e-01)
  %198 = tail call float @llvm.nvvm.saturate.f(float %197) #0
  %199 = tail call float @llvm.nvvm.fma.rm.f(float %198, float 2.520000e+02, float f0x4B400001) #0
  %200 = fadd float %199, f0xCB40007F
  %201 = fneg float %200
  %202 = tail call float @llvm.fma.f32(float %137, float f0x3FB8AA3B, float %201)
  %203 = tail call float @llvm.fma.f32(float %137, float f0x32A57060, float %202)
  %204 = bitcast float %199 to i32
  %205 = shl i32 %204, 23
  %206 = bitcast i32 %205 to float
  %207 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %203)
  %208 = fmul float %207, %206
  %209 = tail call float @llvm.fma.f32(float %138, float 5.724980e-03, float 5.000000e-01)
  %210 = tail call float @llvm.nvvm.saturate.f(float %209) #0
  %211 = tail call float @llvm.nvvm.fma.rm.f(float %210, float 2.520000e+02, float f0x4B400001) #0
  %212 = fadd float %211, f0xCB40007F
  %213 = fneg float %212
  %214 = tail call float @llvm.fma.f32(float %138, float f0x3FB8AA3B, float %213)
  %215 = tail call float @llvm.fma.f32(float %138, float f0x32A57060, float %214)
  %216 = bitcast float %211 to i32
  %217 = shl i32 %216, 23
  %218 = bitcast i32 %217 to float
  %219 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %215)
  %220 = fmul float %219, %218
  %221 = tail call float @llvm.fma.f32(float %139, float 5.724980e-03, float 5.000000e-01)
  %222 = tail call float @llvm.nvvm.saturate.f(float %221) #0
  %223 = tail call float @llvm.nvvm.fma.rm.f(float %222, float 2.520000e+02, float f0x4B400001) #0
  %224 = fadd float %223, f0xCB40007F
  %225 = fneg float %224
  %226 = tail call float @llvm.fma.f32(float %139, float f0x3FB8AA3B, float %225)
  %227 = tail call float @llvm.fma.f32(float %139, float f0x32A57060, float %226)
  %228 = bitcast float %223 to i32
  %229 = shl i32 %228, 23
  %230 = bitcast i32 %229 to float
  %231 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %227)
  %232 = fmul float %231, %230
  %233 = tail call float @llvm.fma.f32(float %140, float 5.724980e-03, float 5.000000e-01)
  %234 = tail call float @llvm.nvvm.saturate.f(float %233) #0
  %235 = tail call float @llvm.nvvm.fma.rm.f(float %234, float 2.520000e+02, float f0x4B400001) #0
  %236 = fadd float %235, f0xCB40007F
  %237 = fneg float %236
  %238 = tail call float @llvm.fma.f32(float %140, float f0x3FB8AA3B, float %237)
  %239 = tail call float @llvm.fma.f32(float %140, float f0x32A57060, float %238)
  %240 = bitcast float %235 to i32
  %241 = shl i32 %240, 23
  %242 = bitcast i32 %241 to float
  %243 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %239)
  %244 = fmul float %243, %242
  %245 = tail call float @llvm.fma.f32(float %141, float 5.724980e-03, float 5.000000e-01)
  %246 = tail call float @llvm.nvvm.saturate.f(float %245) #0
  %247 = tail call float @llvm.nvvm.fma.rm.f(float %246, float 2.520000e+02, float f0x4B400001) #0
  %248 = fadd float %247, f0xCB40007F
  %249 = fneg float %248
  %250 = tail call float @llvm.fma.f32(float %141, float f0x3FB8AA3B, float %249)
  %251 = tail call float @llvm.fma.f32(float %141, float f0x32A57060, float %250)
  %252 = bitcast float %247 to i32
  %253 = shl i32 %252, 23
  %254 = bitcast i32 %253 to float
  %255 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %251)
  %256 = fmul float %255, %254
  %257 = tail call float @llvm.fma.f32(float %142, float 5.724980e-03, float 5.000000e-01)
  %258 = tail call float @llvm.nvvm.saturate.f(float %257) #0
  %259 = tail call float @llvm.nvvm.fma.rm.f(float %258, float 2.520000e+02, float f0x4B400001) #0
  %260 = fadd float %259, f0xCB40007F
  %261 = fneg float %260
  %262 = tail call float @llvm.fma.f32(float %142, float f0x3FB8AA3B, float %261)
  %263 = tail call float @llvm.fma.f32(float %142, float f0x32A57060, float %262)
  %264 = bitcast float %259 to i32
  %265 = shl i32 %264, 23
  %266 = bitcast i32 %265 to float
  %267 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %263)
  %268 = fmul float %267, %266
  %269 = tail call float @llvm.fma.f32(float %143, float 5.724980e-03, float 5.000000e-01)
  %270 = tail call float @llvm.nvvm.saturate.f(float %269) #0
  %271 = tail call float @llvm.nvvm.fma.rm.f(float %270, float 2.520000e+02, float f0x4B400001) #0
  %272 = fadd float %271, f0xCB40007F
  %273 = fneg float %272
  %274 = tail call float @llvm.fma.f32(float %143, float f0x3FB8AA3B, float %273)
  %275 = tail call float @llvm.fma.f32(float %143, float f0x32A57060, float %274)
  %276 = bitcast float %271 to i32
  %277 = shl i32 %276, 23
  %278 = bitcast i32 %277 to float
  %279 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %275)
  %280 = fmul float %279, %278
  %281 = tail call float @llvm.fma.f32(float %144, float 5.724980e-03, float 5.000000e-01)
  %282 = tail call float @llvm.nvvm.saturate.f(float %281) #0
  %283 = tail call float @llvm.nvvm.fma.rm.f(float %282, float 2.520000e+02, float f0x4B400001) #0
  %284 = fadd float %283, f0xCB40007F
  %285 = fneg float %284
  %286 = tail call float @llvm.fma.f32(float %144, float f0x3FB8AA3B, float %285)
  %287 = tail call float @llvm.fma.f32(float %144, float f0x32A57060, float %286)
  %288 = bitcast float %283 to i32
  %289 = shl i32 %288, 23
  %290 = bitcast i32 %289 to float
  %291 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %287)
  %292 = fmul float %291, %290
  %293 = tail call float @llvm.fma.f32(float %145, float 5.724980e-03, float 5.000000e-01)
  %294 = tail call float @llvm.nvvm.saturate.f(float %293) #0
  %295 = tail call float @llvm.nvvm.fma.rm.f(float %294, float 2.520000e+02, float f0x4B400001) #0
  %296 = fadd float %295, f0xCB40007F
  %297 = fneg float %296
  %298 = tail call float @llvm.fma.f32(float %145, float f0x3FB8AA3B, float %297)
  %299 = tail call float @llvm.fma.f32(float %145, float f0x32A57060, float %298)
  %300 = bitcast float %295 to i32
  %301 = shl i32 %300, 23
  %302 = bitcast i32 %301 to float
  %303 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %299)
  %304 = fmul float %303, %302
  %305 = tail call float @llvm.fma.f32(float %146, float 5.724980e-03, float 5.000000e-01)
  %306 = tail call float @llvm.nvvm.saturate.f(float %305) #0
  %307 = tail call float @llvm.nvvm.fma.rm.f(float %306, float 2.520000e+02, float f0x4B400001) #0
  %308 = fadd float %307, f0xCB40007F
  %309 = fneg float %308
  %310 = tail call float @llvm.fma.f32(float %146, float f0x3FB8AA3B, float %309)
  %311 = tail call float @llvm.fma.f32(float %146, float f0x32A57060, float %310)
  %312 = bitcast float %307 to i32
  %313 = shl i32 %312, 23
  %314 = bitcast i32 %313 to float
  %315 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %311)
  %316 = fmul float %315, %314
  %317 = tail call float @llvm.fma.f32(float %147, float 5.724980e-03, float 5.000000e-01)
  %318 = tail call float @llvm.nvvm.saturate.f(float %317) #0
  %319 = tail call float @llvm.nvvm.fma.rm.f(float %318, float 2.520000e+02, float f0x4B400001) #0
  %320 = fadd float %319, f0xCB40007F
  %321 = fneg float %320
  %322 = tail call float @llvm.fma.f32(float %147, float f0x3FB8AA3B, float %321)
  %323 = tail call float @llvm.fma.f32(float %147, float f0x32A57060, float %322)
  %324 = bitcast float %319 to i32
  %325 = shl i32 %324, 23
  %326 = bitcast i32 %325 to float
  %327 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %323)
  %328 = fmul float %327, %326
  %329 = tail call float @llvm.fma.f32(float %148, float 5.724980e-03, float 5.000000e-01)
  %330 = tail call float @llvm.nvvm.saturate.f(float %329) #0
  %331 = tail call float @llvm.nvvm.fma.rm.f(float %330, float 2.520000e+02, float f0x4B400001) #0
  %332 = fadd float %331, f0xCB40007F
  %333 = fneg float %332
  %334 = tail call float @llvm.fma.f32(float %148, float f0x3FB8AA3B, float %333)
  %335 = tail call float @llvm.fma.f32(float %148, float f0x32A57060, float %334)
  %336 = bitcast float %331 to i32
  %337 = shl i32 %336, 23
  %338 = bitcast i32 %337 to float
  %339 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %335)
  %340 = fmul float %339, %338
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %341 = fadd float %160, %172
  %342 = fadd float %184, %196
  %343 = fadd float %208, %220
  %344 = fadd float %232, %244
  %345 = fadd float %341, %342
  %346 = fadd float %343, %344
  %347 = fadd float %345, %346
  %348 = fadd float %256, %268
  %349 = fadd float %280, %292
  %350 = fadd float %304, %316
  %351 = fadd float %328, %340
  %352 = fadd float %348, %349
  %353 = fadd float %350, %351
  %354 = fadd float %352, %353
  %355 = bitcast float %347 to i32
  %356 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %355, i32 16, i32 31)
  %357 = bitcast i32 %356 to float
  %358 = fadd float %347, %357
  %359 = bitcast float %358 to i32
  %360 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %359, i32 8, i32 31)
  %361 = bitcast i32 %360 to float
  %362 = fadd float %358, %361
  %363 = bitcast float %362 to i32
  %364 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %363, i32 4, i32 31)
  %365 = bitcast i32 %364 to float
  %366 = fadd float %362, %365
  %367 = bitcast float %366 to i32
  %368 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %367, i32 2, i32 31)
  %369 = bitcast i32 %368 to float
  %370 = fadd float %366, %369
  %371 = bitcast float %370 to i32
  %372 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %371, i32 1, i32 31)
  %373 = bitcast i32 %372 to float
  %374 = fadd float %370, %373
  %375 = bitcast float %354 to i32
  %376 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %375, i32 16, i32 31)
  %377 = bitcast i32 %376 to float
  %378 = fadd float %354, %377
  %379 = bitcast float %378 to i32
  %380 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %379, i32 8, i32 31)
  %381 = bitcast i32 %380 to float
  %382 = fadd float %378, %381
  %383 = bitcast float %382 to i32
  %384 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %383, i32 4, i32 31)
  %385 = bitcast i32 %384 to float
  %386 = fadd float %382, %385
  %387 = bitcast float %386 to i32
  %388 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %387, i32 2, i32 31)
  %389 = bitcast i32 %388 to float
  %390 = fadd float %386, %389
  %391 = bitcast float %390 to i32
  %392 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %391, i32 1, i32 31)
  %393 = bitcast i32 %392 to float
  %394 = fadd float %390, %393
  %395 = insertelement <2 x float> poison, float %374, i64 0
  %396 = insertelement <2 x float> %395, float %394, i64 1
  store <2 x float> %396, ptr addrspace(3) %107, align 8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %397 = load <2 x i32>, ptr addrspace(3) %113, align 8
  %398 = extractelement <2 x i32> %397, i32 0
  %399 = extractelement <2 x i32> %397, i32 1
  %400 = bitcast i32 %398 to float
  %401 = bitcast i32 %399 to float
  %402 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %398, i32 2, i32 31)
  %403 = bitcast i32 %402 to float
  %404 = fadd float %400, %403
  %405 = bitcast float %404 to i32
  %406 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %405, i32 1, i32 31)
  %407 = bitcast i32 %406 to float
  %408 = fadd float %404, %407
  %409 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %399, i32 2, i32 31)
  %410 = bitcast i32 %409 to float
  %411 = fadd float %401, %410
  %412 = bitcast float %411 to i32
  %413 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %412, i32 1, i32 31)
  %414 = bitcast i32 %413 to float
  %415 = fadd float %411, %414
  %416 = tail call float @llvm.nvvm.div.full(float %160, float %408)
  %417 = tail call float @llvm.nvvm.div.full(float %172, float %408)
  %418 = tail call float @llvm.nvvm.div.full(float %184, float %408)
  %419 = tail call float @llvm.nvvm.div.full(float %196, float %408)
  %420 = tail call float @llvm.nvvm.div.full(float %208, float %408)
  %421 = tail call float @llvm.nvvm.div.full(float %220, float %408)
  %422 = tail call float @llvm.nvvm.div.full(float %232, float %408)
  %423 = tail call float @llvm.nvvm.div.full(float %244, float %408)
  %424 = tail call float @llvm.nvvm.div.full(float %256, float %415)
  %425 = tail call float @llvm.nvvm.div.full(float %268, float %415)
  %426 = tail call float @llvm.nvvm.div.full(float %280, float %415)
  %427 = tail call float @llvm.nvvm.div.full(float %292, float %415)
  %428 = tail call float @llvm.nvvm.div.full(float %304, float %415)
  %429 = tail call float @llvm.nvvm.div.full(float %316, float %415)
  %430 = tail call float @llvm.nvvm.div.full(float %328, float %415)
  %431 = tail call float @llvm.nvvm.div.full(float %340, float %415)
  %432 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %8
  %433 = getelementptr [4 x i8], ptr addrspace(1) %432, i64 %7
  %434 = getelementptr i8, ptr addrspace(1) %433, i64 2048
  %435 = getelementptr i8, ptr addrspace(1) %433, i64 4096
  %436 = getelementptr i8, ptr addrspace(1) %435, i64 2048
  %437 = bitcast float %416 to i32
  %438 = bitcast float %417 to i32
  %439 = bitcast float %418 to i32
  %440 = bitcast float %419 to i32
  tail call void asm sideeffect "st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l"(i32 %437, i32 %438, i32 %439, i32 %440, ptr addrspace(1) %433) #0
  %441 = bitcast float %420 to i32
  %442 = bitcast float %421 to i32
  %443 = bitcast float %422 to i32
  %444 = bitcast float %423 to i32
  tail call void asm sideeffect "st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l"(i32 %441, i32 %442, i32 %443, i32 %444, ptr addrspace(1) %434) #0
  %445 = bitcast float %424 to i32
  %446 = bitcast float %425 to i32
  %447 = bitcast float %426 to i32
  %448 = bitcast float %427 to i32
  tail call void asm sideeffect "st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l"(i32 %445, i32 %446, i32 %447, i32 %448, ptr addrspace(1) %435) #0
  %449 = bitcast float %428 to i32
  %450 = bitcast float %429 to i32
  %451 = bitcast float %430 to i32
  %452 = bitcast float %431 to i32
  tail call void asm sideeffect "st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l"(i32 %449, i32 %450, i32 %451, i32 %452, ptr addrspace(1) %436) #0
  ret void
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.nvvm.saturate.f(float) #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.nvvm.fma.rm.f(float, float, float) #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.ftz.f32(float) #7

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fma.f32(float, float, float) #8

attributes #0 = { nounwind }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #4 = { convergent nocallback nounwind }
attributes #5 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #6 = { nounwind "nvvm.reqntid"="128,1,1" }
attributes #7 = { mustprogress nocallback nofree nosync nounwind willreturn memory(none) }
attributes #8 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1}
!nvvm.annotations = !{}
!llvm.ident = !{!2}
!nvvmir.version = !{!3}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!2 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!3 = !{i32 2, i32 0}
