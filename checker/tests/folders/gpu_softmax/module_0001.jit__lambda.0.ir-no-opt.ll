; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@global_smem = external addrspace(3) global [0 x i8], align 16

declare float @__nv_expf(float)

; Function Attrs: nounwind
declare void @llvm.nvvm.griddepcontrol.wait() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.maximum.f32(float, float) #2

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #3

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.div.full(float, float) #5

define ptx_kernel void @triton_softmax_2(ptr noalias align 16 dereferenceable(2097152) %arg0, ptr noalias align 256 dereferenceable(2097152) %arg1) #6 {
  %1 = addrspacecast ptr %arg0 to ptr addrspace(1)
  %2 = addrspacecast ptr %arg1 to ptr addrspace(1)
  %3 = addrspacecast ptr null to ptr addrspace(1)
  %4 = addrspacecast ptr null to ptr addrspace(1)
  call void @llvm.nvvm.griddepcontrol.wait()
  %5 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %6 = sext i32 %5 to i64
  %7 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %8 = and i32 %7, 127
  %9 = urem i32 %8, 32
  %10 = udiv i32 %7, 32
  %11 = shl i32 %9, 0
  %12 = or i32 0, %11
  %13 = shl i32 %10, 5
  %14 = or i32 %12, %13
  %15 = and i32 %14, 127
  %16 = shl i32 %15, 2
  %17 = or disjoint i32 %16, 0
  %18 = xor i32 0, %17
  %19 = xor i32 %18, 0
  %20 = xor i32 %18, 512
  %21 = add i32 %19, 0
  %22 = add i32 %20, 0
  %23 = sext i32 %21 to i64
  %24 = sext i32 %22 to i64
  %25 = add i64 %23, 0
  %26 = add i64 %24, 0
  %27 = add i64 %23, 1024
  %28 = add i64 %24, 1024
  %29 = mul i64 %6, 2048
  %30 = getelementptr float, ptr addrspace(1) %1, i64 %29
  %31 = getelementptr float, ptr addrspace(1) %30, i64 %25
  %32 = getelementptr float, ptr addrspace(1) %30, i64 %26
  %33 = getelementptr float, ptr addrspace(1) %30, i64 %27
  %34 = getelementptr float, ptr addrspace(1) %30, i64 %28
  %35 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0; mov.u32 $1, 0x0; mov.u32 $2, 0x0; mov.u32 $3, 0x0; ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"(ptr addrspace(1) %31)
  %36 = extractvalue { i32, i32, i32, i32 } %35, 0
  %37 = bitcast i32 %36 to <1 x float>
  %38 = extractvalue { i32, i32, i32, i32 } %35, 1
  %39 = bitcast i32 %38 to <1 x float>
  %40 = extractvalue { i32, i32, i32, i32 } %35, 2
  %41 = bitcast i32 %40 to <1 x float>
  %42 = extractvalue { i32, i32, i32, i32 } %35, 3
  %43 = bitcast i32 %42 to <1 x float>
  %44 = extractelement <1 x float> %37, i32 0
  %45 = extractelement <1 x float> %39, i32 0
  %46 = extractelement <1 x float> %41, i32 0
  %47 = extractelement <1 x float> %43, i32 0
  %48 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0; mov.u32 $1, 0x0; mov.u32 $2, 0x0; mov.u32 $3, 0x0; ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"(ptr addrspace(1) %32)
  %49 = extractvalue { i32, i32, i32, i32 } %48, 0
  %50 = bitcast i32 %49 to <1 x float>
  %51 = extractvalue { i32, i32, i32, i32 } %48, 1
  %52 = bitcast i32 %51 to <1 x float>
  %53 = extractvalue { i32, i32, i32, i32 } %48, 2
  %54 = bitcast i32 %53 to <1 x float>
  %55 = extractvalue { i32, i32, i32, i32 } %48, 3
  %56 = bitcast i32 %55 to <1 x float>
  %57 = extractelement <1 x float> %50, i32 0
  %58 = extractelement <1 x float> %52, i32 0
  %59 = extractelement <1 x float> %54, i32 0
  %60 = extractelement <1 x float> %56, i32 0
  %61 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0; mov.u32 $1, 0x0; mov.u32 $2, 0x0; mov.u32 $3, 0x0; ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"(ptr addrspace(1) %33)
  %62 = extractvalue { i32, i32, i32, i32 } %61, 0
  %63 = bitcast i32 %62 to <1 x float>
  %64 = extractvalue { i32, i32, i32, i32 } %61, 1
  %65 = bitcast i32 %64 to <1 x float>
  %66 = extractvalue { i32, i32, i32, i32 } %61, 2
  %67 = bitcast i32 %66 to <1 x float>
  %68 = extractvalue { i32, i32, i32, i32 } %61, 3
  %69 = bitcast i32 %68 to <1 x float>
  %70 = extractelement <1 x float> %63, i32 0
  %71 = extractelement <1 x float> %65, i32 0
  %72 = extractelement <1 x float> %67, i32 0
  %73 = extractelement <1 x float> %69, i32 0
  %74 = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0x0; mov.u32 $1, 0x0; mov.u32 $2, 0x0; mov.u32 $3, 0x0; ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"(ptr addrspace(1) %34)
  %75 = extractvalue { i32, i32, i32, i32 } %74, 0
  %76 = bitcast i32 %75 to <1 x float>
  %77 = extractvalue { i32, i32, i32, i32 } %74, 1
  %78 = bitcast i32 %77 to <1 x float>
  %79 = extractvalue { i32, i32, i32, i32 } %74, 2
  %80 = bitcast i32 %79 to <1 x float>
  %81 = extractvalue { i32, i32, i32, i32 } %74, 3
  %82 = bitcast i32 %81 to <1 x float>
  %83 = extractelement <1 x float> %76, i32 0
  %84 = extractelement <1 x float> %78, i32 0
  %85 = extractelement <1 x float> %80, i32 0
  %86 = extractelement <1 x float> %82, i32 0
  %87 = call float @llvm.maximum.f32(float %44, float %45)
  %88 = call float @llvm.maximum.f32(float %46, float %47)
  %89 = call float @llvm.maximum.f32(float %57, float %58)
  %90 = call float @llvm.maximum.f32(float %59, float %60)
  %91 = call float @llvm.maximum.f32(float %87, float %88)
  %92 = call float @llvm.maximum.f32(float %89, float %90)
  %93 = call float @llvm.maximum.f32(float %91, float %92)
  %94 = call float @llvm.maximum.f32(float %70, float %71)
  %95 = call float @llvm.maximum.f32(float %72, float %73)
  %96 = call float @llvm.maximum.f32(float %83, float %84)
  %97 = call float @llvm.maximum.f32(float %85, float %86)
  %98 = call float @llvm.maximum.f32(float %94, float %95)
  %99 = call float @llvm.maximum.f32(float %96, float %97)
  %100 = call float @llvm.maximum.f32(float %98, float %99)
  %101 = bitcast float %93 to i32
  %102 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %101, i32 16, i32 31)
  %103 = bitcast i32 %102 to float
  %104 = call float @llvm.maximum.f32(float %93, float %103)
  %105 = bitcast float %104 to i32
  %106 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %105, i32 8, i32 31)
  %107 = bitcast i32 %106 to float
  %108 = call float @llvm.maximum.f32(float %104, float %107)
  %109 = bitcast float %108 to i32
  %110 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %109, i32 4, i32 31)
  %111 = bitcast i32 %110 to float
  %112 = call float @llvm.maximum.f32(float %108, float %111)
  %113 = bitcast float %112 to i32
  %114 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %113, i32 2, i32 31)
  %115 = bitcast i32 %114 to float
  %116 = call float @llvm.maximum.f32(float %112, float %115)
  %117 = bitcast float %116 to i32
  %118 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %117, i32 1, i32 31)
  %119 = bitcast i32 %118 to float
  %120 = call float @llvm.maximum.f32(float %116, float %119)
  %121 = bitcast float %100 to i32
  %122 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %121, i32 16, i32 31)
  %123 = bitcast i32 %122 to float
  %124 = call float @llvm.maximum.f32(float %100, float %123)
  %125 = bitcast float %124 to i32
  %126 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %125, i32 8, i32 31)
  %127 = bitcast i32 %126 to float
  %128 = call float @llvm.maximum.f32(float %124, float %127)
  %129 = bitcast float %128 to i32
  %130 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %129, i32 4, i32 31)
  %131 = bitcast i32 %130 to float
  %132 = call float @llvm.maximum.f32(float %128, float %131)
  %133 = bitcast float %132 to i32
  %134 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %133, i32 2, i32 31)
  %135 = bitcast i32 %134 to float
  %136 = call float @llvm.maximum.f32(float %132, float %135)
  %137 = bitcast float %136 to i32
  %138 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %137, i32 1, i32 31)
  %139 = bitcast i32 %138 to float
  %140 = call float @llvm.maximum.f32(float %136, float %139)
  %141 = and i32 %14, 96
  %142 = lshr i32 %141, 2
  %143 = or disjoint i32 0, %142
  %144 = xor i32 0, %143
  %145 = xor i32 %144, 0
  %146 = xor i32 %145, 0
  %147 = add i32 %146, 0
  %148 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %147
  %149 = insertelement <2 x float> undef, float %120, i32 0
  %150 = insertelement <2 x float> %149, float %140, i32 1
  %151 = extractelement <2 x float> %150, i32 0
  %152 = extractelement <2 x float> %150, i32 1
  %153 = bitcast float %151 to i32
  %154 = bitcast float %152 to i32
  %155 = insertelement <2 x i32> undef, i32 %153, i32 0
  %156 = insertelement <2 x i32> %155, i32 %154, i32 1
  store <2 x i32> %156, ptr addrspace(3) %148, align 8
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %157 = and i32 %14, 3
  %158 = shl i32 %157, 3
  %159 = or disjoint i32 %158, 0
  %160 = xor i32 0, %159
  %161 = xor i32 %160, 0
  %162 = xor i32 %161, 0
  %163 = add i32 %162, 0
  %164 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %163
  %165 = load <2 x i32>, ptr addrspace(3) %164, align 8
  %166 = extractelement <2 x i32> %165, i32 0
  %167 = extractelement <2 x i32> %165, i32 1
  %168 = insertelement <2 x i32> undef, i32 %166, i32 0
  %169 = insertelement <2 x i32> %168, i32 %167, i32 1
  %170 = extractelement <2 x i32> %169, i32 0
  %171 = extractelement <2 x i32> %169, i32 1
  %172 = bitcast i32 %170 to float
  %173 = bitcast i32 %171 to float
  %174 = insertelement <2 x float> undef, float %172, i32 0
  %175 = insertelement <2 x float> %174, float %173, i32 1
  %176 = extractelement <2 x float> %175, i32 0
  %177 = extractelement <2 x float> %175, i32 1
  %178 = bitcast float %176 to i32
  %179 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %178, i32 2, i32 31)
  %180 = bitcast i32 %179 to float
  %181 = call float @llvm.maximum.f32(float %176, float %180)
  %182 = bitcast float %181 to i32
  %183 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %182, i32 1, i32 31)
  %184 = bitcast i32 %183 to float
  %185 = call float @llvm.maximum.f32(float %181, float %184)
  %186 = bitcast float %177 to i32
  %187 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %186, i32 2, i32 31)
  %188 = bitcast i32 %187 to float
  %189 = call float @llvm.maximum.f32(float %177, float %188)
  %190 = bitcast float %189 to i32
  %191 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %190, i32 1, i32 31)
  %192 = bitcast i32 %191 to float
  %193 = call float @llvm.maximum.f32(float %189, float %192)
  %194 = fsub float %44, %185
  %195 = fsub float %45, %185
  %196 = fsub float %46, %185
  %197 = fsub float %47, %185
  %198 = fsub float %57, %185
  %199 = fsub float %58, %185
  %200 = fsub float %59, %185
  %201 = fsub float %60, %185
  %202 = fsub float %70, %193
  %203 = fsub float %71, %193
  %204 = fsub float %72, %193
  %205 = fsub float %73, %193
  %206 = fsub float %83, %193
  %207 = fsub float %84, %193
  %208 = fsub float %85, %193
  %209 = fsub float %86, %193
  %210 = call float @__nv_expf(float %194)
  %211 = call float @__nv_expf(float %195)
  %212 = call float @__nv_expf(float %196)
  %213 = call float @__nv_expf(float %197)
  %214 = call float @__nv_expf(float %198)
  %215 = call float @__nv_expf(float %199)
  %216 = call float @__nv_expf(float %200)
  %217 = call float @__nv_expf(float %201)
  %218 = call float @__nv_expf(float %202)
  %219 = call float @__nv_expf(float %203)
  %220 = call float @__nv_expf(float %204)
  %221 = call float @__nv_expf(float %205)
  %222 = call float @__nv_expf(float %206)
  %223 = call float @__nv_expf(float %207)
  %224 = call float @__nv_expf(float %208)
  %225 = call float @__nv_expf(float %209)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %226 = fadd float %210, %211
  %227 = fadd float %212, %213
  %228 = fadd float %214, %215
  %229 = fadd float %216, %217
  %230 = fadd float %226, %227
  %231 = fadd float %228, %229
  %232 = fadd float %230, %231
  %233 = fadd float %218, %219
  %234 = fadd float %220, %221
  %235 = fadd float %222, %223
  %236 = fadd float %224, %225
  %237 = fadd float %233, %234
  %238 = fadd float %235, %236
  %239 = fadd float %237, %238
  %240 = bitcast float %232 to i32
  %241 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %240, i32 16, i32 31)
  %242 = bitcast i32 %241 to float
  %243 = fadd float %232, %242
  %244 = bitcast float %243 to i32
  %245 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %244, i32 8, i32 31)
  %246 = bitcast i32 %245 to float
  %247 = fadd float %243, %246
  %248 = bitcast float %247 to i32
  %249 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %248, i32 4, i32 31)
  %250 = bitcast i32 %249 to float
  %251 = fadd float %247, %250
  %252 = bitcast float %251 to i32
  %253 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %252, i32 2, i32 31)
  %254 = bitcast i32 %253 to float
  %255 = fadd float %251, %254
  %256 = bitcast float %255 to i32
  %257 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %256, i32 1, i32 31)
  %258 = bitcast i32 %257 to float
  %259 = fadd float %255, %258
  %260 = bitcast float %239 to i32
  %261 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %260, i32 16, i32 31)
  %262 = bitcast i32 %261 to float
  %263 = fadd float %239, %262
  %264 = bitcast float %263 to i32
  %265 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %264, i32 8, i32 31)
  %266 = bitcast i32 %265 to float
  %267 = fadd float %263, %266
  %268 = bitcast float %267 to i32
  %269 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %268, i32 4, i32 31)
  %270 = bitcast i32 %269 to float
  %271 = fadd float %267, %270
  %272 = bitcast float %271 to i32
  %273 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %272, i32 2, i32 31)
  %274 = bitcast i32 %273 to float
  %275 = fadd float %271, %274
  %276 = bitcast float %275 to i32
  %277 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %276, i32 1, i32 31)
  %278 = bitcast i32 %277 to float
  %279 = fadd float %275, %278
  %280 = insertelement <2 x float> undef, float %259, i32 0
  %281 = insertelement <2 x float> %280, float %279, i32 1
  %282 = extractelement <2 x float> %281, i32 0
  %283 = extractelement <2 x float> %281, i32 1
  %284 = bitcast float %282 to i32
  %285 = bitcast float %283 to i32
  %286 = insertelement <2 x i32> undef, i32 %284, i32 0
  %287 = insertelement <2 x i32> %286, i32 %285, i32 1
  store <2 x i32> %287, ptr addrspace(3) %148, align 8
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %288 = load <2 x i32>, ptr addrspace(3) %164, align 8
  %289 = extractelement <2 x i32> %288, i32 0
  %290 = extractelement <2 x i32> %288, i32 1
  %291 = insertelement <2 x i32> undef, i32 %289, i32 0
  %292 = insertelement <2 x i32> %291, i32 %290, i32 1
  %293 = extractelement <2 x i32> %292, i32 0
  %294 = extractelement <2 x i32> %292, i32 1
  %295 = bitcast i32 %293 to float
  %296 = bitcast i32 %294 to float
  %297 = insertelement <2 x float> undef, float %295, i32 0
  %298 = insertelement <2 x float> %297, float %296, i32 1
  %299 = extractelement <2 x float> %298, i32 0
  %300 = extractelement <2 x float> %298, i32 1
  %301 = bitcast float %299 to i32
  %302 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %301, i32 2, i32 31)
  %303 = bitcast i32 %302 to float
  %304 = fadd float %299, %303
  %305 = bitcast float %304 to i32
  %306 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %305, i32 1, i32 31)
  %307 = bitcast i32 %306 to float
  %308 = fadd float %304, %307
  %309 = bitcast float %300 to i32
  %310 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %309, i32 2, i32 31)
  %311 = bitcast i32 %310 to float
  %312 = fadd float %300, %311
  %313 = bitcast float %312 to i32
  %314 = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %313, i32 1, i32 31)
  %315 = bitcast i32 %314 to float
  %316 = fadd float %312, %315
  %317 = call float @llvm.nvvm.div.full(float %210, float %308)
  %318 = call float @llvm.nvvm.div.full(float %211, float %308)
  %319 = call float @llvm.nvvm.div.full(float %212, float %308)
  %320 = call float @llvm.nvvm.div.full(float %213, float %308)
  %321 = call float @llvm.nvvm.div.full(float %214, float %308)
  %322 = call float @llvm.nvvm.div.full(float %215, float %308)
  %323 = call float @llvm.nvvm.div.full(float %216, float %308)
  %324 = call float @llvm.nvvm.div.full(float %217, float %308)
  %325 = call float @llvm.nvvm.div.full(float %218, float %316)
  %326 = call float @llvm.nvvm.div.full(float %219, float %316)
  %327 = call float @llvm.nvvm.div.full(float %220, float %316)
  %328 = call float @llvm.nvvm.div.full(float %221, float %316)
  %329 = call float @llvm.nvvm.div.full(float %222, float %316)
  %330 = call float @llvm.nvvm.div.full(float %223, float %316)
  %331 = call float @llvm.nvvm.div.full(float %224, float %316)
  %332 = call float @llvm.nvvm.div.full(float %225, float %316)
  %333 = getelementptr float, ptr addrspace(1) %2, i64 %29
  %334 = getelementptr float, ptr addrspace(1) %333, i64 %25
  %335 = getelementptr float, ptr addrspace(1) %333, i64 %26
  %336 = getelementptr float, ptr addrspace(1) %333, i64 %27
  %337 = getelementptr float, ptr addrspace(1) %333, i64 %28
  %338 = insertelement <1 x float> undef, float %317, i32 0
  %339 = bitcast <1 x float> %338 to i32
  %340 = insertelement <1 x float> undef, float %318, i32 0
  %341 = bitcast <1 x float> %340 to i32
  %342 = insertelement <1 x float> undef, float %319, i32 0
  %343 = bitcast <1 x float> %342 to i32
  %344 = insertelement <1 x float> undef, float %320, i32 0
  %345 = bitcast <1 x float> %344 to i32
  call void asm sideeffect "st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l"(i32 %339, i32 %341, i32 %343, i32 %345, ptr addrspace(1) %334)
  %346 = insertelement <1 x float> undef, float %321, i32 0
  %347 = bitcast <1 x float> %346 to i32
  %348 = insertelement <1 x float> undef, float %322, i32 0
  %349 = bitcast <1 x float> %348 to i32
  %350 = insertelement <1 x float> undef, float %323, i32 0
  %351 = bitcast <1 x float> %350 to i32
  %352 = insertelement <1 x float> undef, float %324, i32 0
  %353 = bitcast <1 x float> %352 to i32
  call void asm sideeffect "st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l"(i32 %347, i32 %349, i32 %351, i32 %353, ptr addrspace(1) %335)
  %354 = insertelement <1 x float> undef, float %325, i32 0
  %355 = bitcast <1 x float> %354 to i32
  %356 = insertelement <1 x float> undef, float %326, i32 0
  %357 = bitcast <1 x float> %356 to i32
  %358 = insertelement <1 x float> undef, float %327, i32 0
  %359 = bitcast <1 x float> %358 to i32
  %360 = insertelement <1 x float> undef, float %328, i32 0
  %361 = bitcast <1 x float> %360 to i32
  call void asm sideeffect "st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l"(i32 %355, i32 %357, i32 %359, i32 %361, ptr addrspace(1) %336)
  %362 = insertelement <1 x float> undef, float %329, i32 0
  %363 = bitcast <1 x float> %362 to i32
  %364 = insertelement <1 x float> undef, float %330, i32 0
  %365 = bitcast <1 x float> %364 to i32
  %366 = insertelement <1 x float> undef, float %331, i32 0
  %367 = bitcast <1 x float> %366 to i32
  %368 = insertelement <1 x float> undef, float %332, i32 0
  %369 = bitcast <1 x float> %368 to i32
  call void asm sideeffect "st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l"(i32 %363, i32 %365, i32 %367, i32 %369, ptr addrspace(1) %337)
  ret void
}

attributes #0 = { nounwind }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #4 = { convergent nocallback nounwind }
attributes #5 = { nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #6 = { "nvvm.reqntid"="128,1,1" }

!llvm.module.flags = !{!0}
!nvvm.annotations = !{}

!0 = !{i32 2, !"Debug Info Version", i32 3}
