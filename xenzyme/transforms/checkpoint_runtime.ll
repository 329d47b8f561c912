; ModuleID = 'xenzyme/transforms/checkpoint_runtime.c'
source_filename = "xenzyme/transforms/checkpoint_runtime.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.xz_run = type { %struct.xz_layout, i64, ptr, ptr, ptr, ptr, ptr, ptr, i64 }
%struct.xz_layout = type { i64, i64, i64, i64 }

@__xenzyme_checkpoint_steps = weak dso_local local_unnamed_addr global i64 0, align 8
@__xenzyme_checkpoint_snapshots = weak dso_local local_unnamed_addr global i64 0, align 8

; Function Attrs: nounwind uwtable
define dso_local noundef ptr @__xenzyme_checkpoint_forward(i64 noundef %0, ptr noundef %1, i64 noundef %2, i64 noundef %3, i64 noundef %4, i64 noundef %5, ptr nocapture noundef readonly %6, ptr noundef %7, i64 noundef %8, i64 noundef %9) local_unnamed_addr #0 {
  %11 = tail call noalias dereferenceable_or_null(80) ptr @malloc(i64 noundef 80) #7
  %12 = getelementptr inbounds i8, ptr %11, i64 8
  store i64 %8, ptr %12, align 8, !tbaa !5
  %13 = getelementptr inbounds i8, ptr %11, i64 16
  store i64 %9, ptr %13, align 8, !tbaa !12
  %14 = getelementptr inbounds i8, ptr %11, i64 24
  %15 = icmp sgt i64 %3, 0
  br i1 %15, label %16, label %59

16:                                               ; preds = %10
  %17 = getelementptr inbounds i8, ptr %1, i64 %4
  %18 = icmp ult i64 %3, 5
  br i1 %18, label %46, label %19

19:                                               ; preds = %16
  %20 = and i64 %3, 3
  %21 = icmp eq i64 %20, 0
  %22 = select i1 %21, i64 4, i64 %20
  %23 = sub nsw i64 %3, %22
  %24 = insertelement <2 x i64> <i64 poison, i64 0>, i64 %2, i64 0
  br label %25

25:                                               ; preds = %25, %19
  %26 = phi i64 [ 0, %19 ], [ %41, %25 ]
  %27 = phi <2 x i64> [ %24, %19 ], [ %39, %25 ]
  %28 = phi <2 x i64> [ zeroinitializer, %19 ], [ %40, %25 ]
  %29 = shl nuw nsw i64 %26, 1
  %30 = shl i64 %26, 1
  %31 = or disjoint i64 %29, 1
  %32 = or disjoint i64 %30, 5
  %33 = getelementptr inbounds i64, ptr %17, i64 %31
  %34 = getelementptr inbounds i64, ptr %17, i64 %32
  %35 = load <4 x i64>, ptr %33, align 8, !tbaa !13, !noalias !14
  %36 = load <4 x i64>, ptr %34, align 8, !tbaa !13, !noalias !14
  %37 = shufflevector <4 x i64> %35, <4 x i64> poison, <2 x i32> <i32 0, i32 2>
  %38 = shufflevector <4 x i64> %36, <4 x i64> poison, <2 x i32> <i32 0, i32 2>
  %39 = add <2 x i64> %37, %27
  %40 = add <2 x i64> %38, %28
  %41 = add nuw i64 %26, 4
  %42 = icmp eq i64 %41, %23
  br i1 %42, label %43, label %25, !llvm.loop !17

43:                                               ; preds = %25
  %44 = add <2 x i64> %40, %39
  %45 = tail call i64 @llvm.vector.reduce.add.v2i64(<2 x i64> %44)
  br label %46

46:                                               ; preds = %43, %16
  %47 = phi i64 [ 0, %16 ], [ %23, %43 ]
  %48 = phi i64 [ %2, %16 ], [ %45, %43 ]
  br label %49

49:                                               ; preds = %46, %49
  %50 = phi i64 [ %57, %49 ], [ %47, %46 ]
  %51 = phi i64 [ %56, %49 ], [ %48, %46 ]
  %52 = shl nuw nsw i64 %50, 1
  %53 = or disjoint i64 %52, 1
  %54 = getelementptr inbounds i64, ptr %17, i64 %53
  %55 = load i64, ptr %54, align 8, !tbaa !13, !noalias !14
  %56 = add nsw i64 %55, %51
  %57 = add nuw nsw i64 %50, 1
  %58 = icmp eq i64 %57, %3
  br i1 %58, label %59, label %49, !llvm.loop !21

59:                                               ; preds = %49, %10
  %60 = phi i64 [ %2, %10 ], [ %56, %49 ]
  store i64 %2, ptr %14, align 8, !tbaa !13
  %61 = getelementptr inbounds i8, ptr %11, i64 32
  store i64 %3, ptr %61, align 8, !tbaa !13
  %62 = getelementptr inbounds i8, ptr %11, i64 40
  store i64 %4, ptr %62, align 8, !tbaa !13
  %63 = getelementptr inbounds i8, ptr %11, i64 48
  store i64 %60, ptr %63, align 8, !tbaa !13
  %64 = icmp eq i64 %8, 2
  br i1 %64, label %65, label %71

65:                                               ; preds = %59
  store i64 0, ptr %12, align 8, !tbaa !5
  %66 = sdiv i64 %9, %60
  %67 = tail call i64 @llvm.smax.i64(i64 %66, i64 1)
  store i64 %67, ptr %13, align 8, !tbaa !12
  %68 = getelementptr inbounds i8, ptr %11, i64 64
  store ptr null, ptr %68, align 8, !tbaa !22
  %69 = getelementptr inbounds i8, ptr %11, i64 72
  store i64 1, ptr %69, align 8, !tbaa !23
  %70 = icmp slt i64 %0, 0
  br label %233

71:                                               ; preds = %59
  %72 = getelementptr inbounds i8, ptr %11, i64 64
  store ptr null, ptr %72, align 8, !tbaa !22
  %73 = getelementptr inbounds i8, ptr %11, i64 72
  store i64 1, ptr %73, align 8, !tbaa !23
  %74 = icmp eq i64 %8, 3
  br i1 %74, label %75, label %225

75:                                               ; preds = %71
  %76 = mul nsw i64 %60, %9
  %77 = tail call noalias ptr @malloc(i64 noundef %76) #7
  %78 = getelementptr inbounds i8, ptr %11, i64 56
  store ptr %77, ptr %78, align 8, !tbaa !24
  %79 = shl i64 %9, 3
  %80 = tail call noalias ptr @malloc(i64 noundef %79) #7
  store ptr %80, ptr %72, align 8, !tbaa !22
  store i64 0, ptr %80, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %77, ptr readonly align 1 %1, i64 %2, i1 false)
  br i1 %15, label %81, label %122

81:                                               ; preds = %75
  %82 = getelementptr inbounds i8, ptr %77, i64 %2
  %83 = getelementptr inbounds i8, ptr %1, i64 %4
  %84 = and i64 %3, 1
  %85 = icmp eq i64 %3, 1
  br i1 %85, label %112, label %86

86:                                               ; preds = %81
  %87 = and i64 %3, 9223372036854775806
  br label %88

88:                                               ; preds = %88, %86
  %89 = phi ptr [ %82, %86 ], [ %106, %88 ]
  %90 = phi i64 [ 0, %86 ], [ %107, %88 ]
  %91 = phi i64 [ 0, %86 ], [ %108, %88 ]
  %92 = shl nsw i64 %90, 4
  %93 = getelementptr inbounds i8, ptr %83, i64 %92
  %94 = load i64, ptr %93, align 8, !tbaa !13
  %95 = inttoptr i64 %94 to ptr
  %96 = getelementptr inbounds i8, ptr %93, i64 8
  %97 = load i64, ptr %96, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %89, ptr align 1 %95, i64 %97, i1 false)
  %98 = getelementptr inbounds i8, ptr %89, i64 %97
  %99 = shl i64 %90, 4
  %100 = or disjoint i64 %99, 16
  %101 = getelementptr inbounds i8, ptr %83, i64 %100
  %102 = load i64, ptr %101, align 8, !tbaa !13
  %103 = inttoptr i64 %102 to ptr
  %104 = getelementptr inbounds i8, ptr %101, i64 8
  %105 = load i64, ptr %104, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %98, ptr align 1 %103, i64 %105, i1 false)
  %106 = getelementptr inbounds i8, ptr %98, i64 %105
  %107 = add nuw nsw i64 %90, 2
  %108 = add i64 %91, 2
  %109 = icmp eq i64 %108, %87
  br i1 %109, label %110, label %88, !llvm.loop !25

110:                                              ; preds = %88
  %111 = shl nsw i64 %107, 4
  br label %112

112:                                              ; preds = %110, %81
  %113 = phi ptr [ %82, %81 ], [ %106, %110 ]
  %114 = phi i64 [ 0, %81 ], [ %111, %110 ]
  %115 = icmp eq i64 %84, 0
  br i1 %115, label %122, label %116

116:                                              ; preds = %112
  %117 = getelementptr inbounds i8, ptr %83, i64 %114
  %118 = load i64, ptr %117, align 8, !tbaa !13
  %119 = inttoptr i64 %118 to ptr
  %120 = getelementptr inbounds i8, ptr %117, i64 8
  %121 = load i64, ptr %120, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %113, ptr align 1 %119, i64 %121, i1 false)
  br label %122

122:                                              ; preds = %116, %112, %75
  %123 = icmp slt i64 %0, 0
  %124 = icmp eq i64 %0, 0
  br i1 %124, label %364, label %125

125:                                              ; preds = %122
  %126 = getelementptr inbounds i8, ptr %1, i64 %5
  %127 = icmp sgt i64 %9, 0
  %128 = getelementptr inbounds i8, ptr %1, i64 %4
  %129 = and i64 %3, 1
  %130 = icmp eq i64 %3, 1
  %131 = and i64 %3, 9223372036854775806
  %132 = icmp eq i64 %129, 0
  br label %133

133:                                              ; preds = %125, %221
  %134 = phi i64 [ 1, %125 ], [ %214, %221 ]
  %135 = phi i64 [ 0, %125 ], [ %222, %221 ]
  %136 = phi i64 [ 1, %125 ], [ %215, %221 ]
  %137 = icmp eq i64 %135, 0
  br i1 %137, label %213, label %138

138:                                              ; preds = %133
  %139 = srem i64 %135, %136
  %140 = icmp eq i64 %139, 0
  br i1 %140, label %141, label %213

141:                                              ; preds = %138
  %142 = icmp eq i64 %134, %9
  br i1 %142, label %143, label %168

143:                                              ; preds = %141
  %144 = shl nsw i64 %136, 1
  br i1 %127, label %147, label %145

145:                                              ; preds = %164, %143
  %146 = phi i64 [ 0, %143 ], [ %165, %164 ]
  store i64 %146, ptr %73, align 8, !tbaa !23
  br label %168

147:                                              ; preds = %143, %164
  %148 = phi i64 [ %166, %164 ], [ 0, %143 ]
  %149 = phi i64 [ %165, %164 ], [ 0, %143 ]
  %150 = getelementptr inbounds i64, ptr %80, i64 %148
  %151 = load i64, ptr %150, align 8, !tbaa !13
  %152 = srem i64 %151, %144
  %153 = icmp eq i64 %152, 0
  br i1 %153, label %154, label %164

154:                                              ; preds = %147
  %155 = icmp eq i64 %149, %148
  br i1 %155, label %161, label %156

156:                                              ; preds = %154
  %157 = mul nsw i64 %149, %60
  %158 = getelementptr inbounds i8, ptr %77, i64 %157
  %159 = mul nsw i64 %148, %60
  %160 = getelementptr inbounds i8, ptr %77, i64 %159
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %158, ptr align 1 %160, i64 %60, i1 false)
  br label %161

161:                                              ; preds = %156, %154
  %162 = add nsw i64 %149, 1
  %163 = getelementptr inbounds i64, ptr %80, i64 %149
  store i64 %151, ptr %163, align 8, !tbaa !13
  br label %164

164:                                              ; preds = %147, %161
  %165 = phi i64 [ %162, %161 ], [ %149, %147 ]
  %166 = add nuw nsw i64 %148, 1
  %167 = icmp eq i64 %166, %9
  br i1 %167, label %145, label %147, !llvm.loop !26

168:                                              ; preds = %145, %141
  %169 = phi i64 [ %146, %145 ], [ %134, %141 ]
  %170 = phi i64 [ %144, %145 ], [ %136, %141 ]
  %171 = srem i64 %135, %170
  %172 = icmp eq i64 %171, 0
  br i1 %172, label %173, label %213

173:                                              ; preds = %168
  %174 = mul nsw i64 %169, %60
  %175 = getelementptr inbounds i8, ptr %77, i64 %174
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %175, ptr readonly align 1 %1, i64 %2, i1 false)
  br i1 %15, label %176, label %210

176:                                              ; preds = %173
  %177 = getelementptr inbounds i8, ptr %175, i64 %2
  br i1 %130, label %200, label %178

178:                                              ; preds = %176, %178
  %179 = phi ptr [ %196, %178 ], [ %177, %176 ]
  %180 = phi i64 [ %197, %178 ], [ 0, %176 ]
  %181 = phi i64 [ %198, %178 ], [ 0, %176 ]
  %182 = shl nsw i64 %180, 4
  %183 = getelementptr inbounds i8, ptr %128, i64 %182
  %184 = load i64, ptr %183, align 8, !tbaa !13
  %185 = inttoptr i64 %184 to ptr
  %186 = getelementptr inbounds i8, ptr %183, i64 8
  %187 = load i64, ptr %186, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %179, ptr align 1 %185, i64 %187, i1 false)
  %188 = getelementptr inbounds i8, ptr %179, i64 %187
  %189 = shl i64 %180, 4
  %190 = or disjoint i64 %189, 16
  %191 = getelementptr inbounds i8, ptr %128, i64 %190
  %192 = load i64, ptr %191, align 8, !tbaa !13
  %193 = inttoptr i64 %192 to ptr
  %194 = getelementptr inbounds i8, ptr %191, i64 8
  %195 = load i64, ptr %194, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %188, ptr align 1 %193, i64 %195, i1 false)
  %196 = getelementptr inbounds i8, ptr %188, i64 %195
  %197 = add nuw nsw i64 %180, 2
  %198 = add i64 %181, 2
  %199 = icmp eq i64 %198, %131
  br i1 %199, label %200, label %178, !llvm.loop !25

200:                                              ; preds = %178, %176
  %201 = phi ptr [ %177, %176 ], [ %196, %178 ]
  %202 = phi i64 [ 0, %176 ], [ %197, %178 ]
  br i1 %132, label %210, label %203

203:                                              ; preds = %200
  %204 = shl nsw i64 %202, 4
  %205 = getelementptr inbounds i8, ptr %128, i64 %204
  %206 = load i64, ptr %205, align 8, !tbaa !13
  %207 = inttoptr i64 %206 to ptr
  %208 = getelementptr inbounds i8, ptr %205, i64 8
  %209 = load i64, ptr %208, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %201, ptr align 1 %207, i64 %209, i1 false)
  br label %210

210:                                              ; preds = %203, %200, %173
  %211 = add nsw i64 %169, 1
  store i64 %211, ptr %73, align 8, !tbaa !23
  %212 = getelementptr inbounds i64, ptr %80, i64 %169
  store i64 %135, ptr %212, align 8, !tbaa !13
  br label %213

213:                                              ; preds = %168, %210, %138, %133
  %214 = phi i64 [ %211, %210 ], [ %169, %168 ], [ %134, %138 ], [ %134, %133 ]
  %215 = phi i64 [ %170, %210 ], [ %170, %168 ], [ %136, %138 ], [ %136, %133 ]
  tail call void %6(ptr noundef %1, ptr noundef %7) #8
  br i1 %123, label %216, label %221

216:                                              ; preds = %213
  %217 = load i8, ptr %126, align 1, !tbaa !27
  %218 = icmp eq i8 %217, 0
  br i1 %218, label %219, label %221

219:                                              ; preds = %216
  %220 = add nuw nsw i64 %135, 1
  br label %364

221:                                              ; preds = %213, %216
  %222 = add nuw nsw i64 %135, 1
  %223 = icmp slt i64 %222, %0
  %224 = select i1 %123, i1 true, i1 %223
  br i1 %224, label %133, label %364, !llvm.loop !28

225:                                              ; preds = %71
  %226 = icmp eq i64 %8, 0
  %227 = icmp slt i64 %0, 0
  %228 = or i1 %227, %226
  br i1 %228, label %233, label %229

229:                                              ; preds = %225
  %230 = add nsw i64 %0, -1
  %231 = add i64 %230, %9
  %232 = sdiv i64 %231, %9
  br label %233

233:                                              ; preds = %65, %225, %229
  %234 = phi i1 [ false, %229 ], [ %227, %225 ], [ %70, %65 ]
  %235 = phi i64 [ %9, %229 ], [ %9, %225 ], [ %67, %65 ]
  %236 = phi i64 [ %8, %229 ], [ %8, %225 ], [ 0, %65 ]
  %237 = phi i64 [ %232, %229 ], [ 1, %225 ], [ 1, %65 ]
  %238 = tail call i64 @llvm.smax.i64(i64 %237, i64 1)
  %239 = mul nsw i64 %238, %60
  %240 = tail call noalias ptr @malloc(i64 noundef %239) #7
  %241 = getelementptr inbounds i8, ptr %11, i64 56
  store ptr %240, ptr %241, align 8, !tbaa !24
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %240, ptr readonly align 1 %1, i64 %2, i1 false)
  br i1 %15, label %242, label %283

242:                                              ; preds = %233
  %243 = getelementptr inbounds i8, ptr %240, i64 %2
  %244 = getelementptr inbounds i8, ptr %1, i64 %4
  %245 = and i64 %3, 1
  %246 = icmp eq i64 %3, 1
  br i1 %246, label %273, label %247

247:                                              ; preds = %242
  %248 = and i64 %3, 9223372036854775806
  br label %249

249:                                              ; preds = %249, %247
  %250 = phi ptr [ %243, %247 ], [ %267, %249 ]
  %251 = phi i64 [ 0, %247 ], [ %268, %249 ]
  %252 = phi i64 [ 0, %247 ], [ %269, %249 ]
  %253 = shl nsw i64 %251, 4
  %254 = getelementptr inbounds i8, ptr %244, i64 %253
  %255 = load i64, ptr %254, align 8, !tbaa !13
  %256 = inttoptr i64 %255 to ptr
  %257 = getelementptr inbounds i8, ptr %254, i64 8
  %258 = load i64, ptr %257, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %250, ptr align 1 %256, i64 %258, i1 false)
  %259 = getelementptr inbounds i8, ptr %250, i64 %258
  %260 = shl i64 %251, 4
  %261 = or disjoint i64 %260, 16
  %262 = getelementptr inbounds i8, ptr %244, i64 %261
  %263 = load i64, ptr %262, align 8, !tbaa !13
  %264 = inttoptr i64 %263 to ptr
  %265 = getelementptr inbounds i8, ptr %262, i64 8
  %266 = load i64, ptr %265, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %259, ptr align 1 %264, i64 %266, i1 false)
  %267 = getelementptr inbounds i8, ptr %259, i64 %266
  %268 = add nuw nsw i64 %251, 2
  %269 = add i64 %252, 2
  %270 = icmp eq i64 %269, %248
  br i1 %270, label %271, label %249, !llvm.loop !25

271:                                              ; preds = %249
  %272 = shl nsw i64 %268, 4
  br label %273

273:                                              ; preds = %271, %242
  %274 = phi ptr [ %243, %242 ], [ %267, %271 ]
  %275 = phi i64 [ 0, %242 ], [ %272, %271 ]
  %276 = icmp eq i64 %245, 0
  br i1 %276, label %283, label %277

277:                                              ; preds = %273
  %278 = getelementptr inbounds i8, ptr %244, i64 %275
  %279 = load i64, ptr %278, align 8, !tbaa !13
  %280 = inttoptr i64 %279 to ptr
  %281 = getelementptr inbounds i8, ptr %278, i64 8
  %282 = load i64, ptr %281, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %274, ptr align 1 %280, i64 %282, i1 false)
  br label %283

283:                                              ; preds = %277, %273, %233
  %284 = icmp sgt i64 %0, 0
  %285 = or i1 %234, %284
  br i1 %285, label %286, label %364

286:                                              ; preds = %283
  %287 = icmp eq i64 %236, 1
  %288 = getelementptr inbounds i8, ptr %1, i64 %5
  %289 = and i64 %3, 1
  %290 = icmp eq i64 %3, 1
  %291 = and i64 %3, 9223372036854775806
  %292 = icmp eq i64 %289, 0
  br label %293

293:                                              ; preds = %286, %360
  %294 = phi ptr [ %240, %286 ], [ %352, %360 ]
  %295 = phi ptr [ %240, %286 ], [ %353, %360 ]
  %296 = phi i64 [ 0, %286 ], [ %361, %360 ]
  %297 = phi i64 [ %238, %286 ], [ %354, %360 ]
  br i1 %287, label %298, label %351

298:                                              ; preds = %293
  %299 = srem i64 %296, %235
  %300 = sdiv i64 %296, %235
  %301 = icmp eq i64 %299, 0
  br i1 %301, label %302, label %351

302:                                              ; preds = %298
  %303 = icmp slt i64 %300, %297
  br i1 %303, label %308, label %304

304:                                              ; preds = %302
  %305 = shl nsw i64 %297, 1
  %306 = mul nsw i64 %305, %60
  %307 = tail call ptr @realloc(ptr noundef %295, i64 noundef %306) #9
  store ptr %307, ptr %241, align 8, !tbaa !24
  br label %308

308:                                              ; preds = %304, %302
  %309 = phi ptr [ %307, %304 ], [ %294, %302 ]
  %310 = phi i64 [ %305, %304 ], [ %297, %302 ]
  %311 = mul nsw i64 %300, %60
  %312 = getelementptr inbounds i8, ptr %309, i64 %311
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %312, ptr readonly align 1 %1, i64 %2, i1 false)
  br i1 %15, label %313, label %351

313:                                              ; preds = %308
  %314 = getelementptr inbounds i8, ptr %312, i64 %2
  %315 = load i64, ptr %62, align 8, !tbaa !29
  %316 = getelementptr inbounds i8, ptr %1, i64 %315
  br i1 %290, label %341, label %317

317:                                              ; preds = %313, %317
  %318 = phi ptr [ %337, %317 ], [ %314, %313 ]
  %319 = phi i64 [ %338, %317 ], [ 0, %313 ]
  %320 = phi i64 [ %339, %317 ], [ 0, %313 ]
  %321 = shl nsw i64 %319, 4
  %322 = getelementptr inbounds i8, ptr %316, i64 %321
  %323 = load i64, ptr %322, align 8, !tbaa !13
  %324 = inttoptr i64 %323 to ptr
  %325 = getelementptr inbounds i8, ptr %322, i64 8
  %326 = load i64, ptr %325, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %318, ptr align 1 %324, i64 %326, i1 false)
  %327 = load i64, ptr %325, align 8, !tbaa !13
  %328 = getelementptr inbounds i8, ptr %318, i64 %327
  %329 = shl i64 %319, 4
  %330 = or disjoint i64 %329, 16
  %331 = getelementptr inbounds i8, ptr %316, i64 %330
  %332 = load i64, ptr %331, align 8, !tbaa !13
  %333 = inttoptr i64 %332 to ptr
  %334 = getelementptr inbounds i8, ptr %331, i64 8
  %335 = load i64, ptr %334, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %328, ptr align 1 %333, i64 %335, i1 false)
  %336 = load i64, ptr %334, align 8, !tbaa !13
  %337 = getelementptr inbounds i8, ptr %328, i64 %336
  %338 = add nuw nsw i64 %319, 2
  %339 = add i64 %320, 2
  %340 = icmp eq i64 %339, %291
  br i1 %340, label %341, label %317, !llvm.loop !25

341:                                              ; preds = %317, %313
  %342 = phi ptr [ %314, %313 ], [ %337, %317 ]
  %343 = phi i64 [ 0, %313 ], [ %338, %317 ]
  br i1 %292, label %351, label %344

344:                                              ; preds = %341
  %345 = shl nsw i64 %343, 4
  %346 = getelementptr inbounds i8, ptr %316, i64 %345
  %347 = load i64, ptr %346, align 8, !tbaa !13
  %348 = inttoptr i64 %347 to ptr
  %349 = getelementptr inbounds i8, ptr %346, i64 8
  %350 = load i64, ptr %349, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %342, ptr align 1 %348, i64 %350, i1 false)
  br label %351

351:                                              ; preds = %344, %341, %308, %298, %293
  %352 = phi ptr [ %294, %298 ], [ %294, %293 ], [ %309, %308 ], [ %309, %341 ], [ %309, %344 ]
  %353 = phi ptr [ %295, %298 ], [ %295, %293 ], [ %309, %308 ], [ %309, %341 ], [ %309, %344 ]
  %354 = phi i64 [ %297, %298 ], [ %297, %293 ], [ %310, %308 ], [ %310, %341 ], [ %310, %344 ]
  tail call void %6(ptr noundef %1, ptr noundef %7) #8
  br i1 %234, label %355, label %360

355:                                              ; preds = %351
  %356 = load i8, ptr %288, align 1, !tbaa !27
  %357 = icmp eq i8 %356, 0
  br i1 %357, label %358, label %360

358:                                              ; preds = %355
  %359 = add nuw nsw i64 %296, 1
  br label %364

360:                                              ; preds = %351, %355
  %361 = add nuw nsw i64 %296, 1
  %362 = icmp slt i64 %361, %0
  %363 = select i1 %234, i1 true, i1 %362
  br i1 %363, label %293, label %364, !llvm.loop !30

364:                                              ; preds = %221, %360, %122, %283, %358, %219
  %365 = phi i64 [ %220, %219 ], [ %359, %358 ], [ 0, %283 ], [ 0, %122 ], [ %361, %360 ], [ %222, %221 ]
  store i64 %365, ptr %11, align 8, !tbaa !31
  ret ptr %11
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: mustprogress nounwind willreturn allockind("realloc") allocsize(1) memory(argmem: readwrite, inaccessiblemem: readwrite)
declare noalias noundef ptr @realloc(ptr allocptr nocapture noundef, i64 noundef) local_unnamed_addr #4

; Function Attrs: nounwind uwtable
define dso_local void @__xenzyme_checkpoint_reverse(ptr nocapture noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, ptr nocapture noundef readonly %5, ptr noundef %6) local_unnamed_addr #0 {
  %8 = alloca %struct.xz_run, align 8
  %9 = alloca %struct.xz_run, align 8
  %10 = load i64, ptr %0, align 8, !tbaa !31
  %11 = getelementptr inbounds i8, ptr %0, i64 24
  %12 = getelementptr inbounds i8, ptr %0, i64 48
  %13 = load i64, ptr %12, align 8, !tbaa !32
  %14 = getelementptr inbounds i8, ptr %0, i64 8
  %15 = load i64, ptr %14, align 8, !tbaa !5
  switch i64 %15, label %174 [
    i64 1, label %16
    i64 3, label %63
  ]

16:                                               ; preds = %7
  %17 = getelementptr inbounds i8, ptr %0, i64 16
  %18 = load i64, ptr %17, align 8, !tbaa !12
  %19 = add i64 %10, -1
  %20 = add i64 %19, %18
  %21 = sdiv i64 %20, %18
  %22 = icmp sgt i64 %21, 0
  br i1 %22, label %23, label %193

23:                                               ; preds = %16
  %24 = getelementptr inbounds i8, ptr %0, i64 56
  %25 = getelementptr inbounds i8, ptr %0, i64 32
  %26 = getelementptr inbounds i8, ptr %0, i64 40
  br label %27

27:                                               ; preds = %23, %59
  %28 = phi i64 [ %21, %23 ], [ %29, %59 ]
  %29 = add nsw i64 %28, -1
  %30 = load i64, ptr %17, align 8, !tbaa !12
  %31 = mul nsw i64 %30, %29
  %32 = sub nsw i64 %10, %31
  %33 = tail call i64 @llvm.smin.i64(i64 %32, i64 %30)
  %34 = load ptr, ptr %24, align 8, !tbaa !24
  %35 = mul nsw i64 %29, %13
  %36 = getelementptr inbounds i8, ptr %34, i64 %35
  %37 = load i64, ptr %11, align 8, !tbaa !33
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %1, ptr readonly align 1 %36, i64 %37, i1 false)
  %38 = load i64, ptr %25, align 8, !tbaa !34
  %39 = icmp sgt i64 %38, 0
  br i1 %39, label %40, label %59

40:                                               ; preds = %27
  %41 = load i64, ptr %11, align 8, !tbaa !33
  %42 = getelementptr inbounds i8, ptr %36, i64 %41
  br label %43

43:                                               ; preds = %43, %40
  %44 = phi ptr [ %42, %40 ], [ %55, %43 ]
  %45 = phi i64 [ 0, %40 ], [ %56, %43 ]
  %46 = load i64, ptr %26, align 8, !tbaa !29
  %47 = getelementptr inbounds i8, ptr %1, i64 %46
  %48 = shl nsw i64 %45, 4
  %49 = getelementptr inbounds i8, ptr %47, i64 %48
  %50 = load i64, ptr %49, align 8, !tbaa !13
  %51 = inttoptr i64 %50 to ptr
  %52 = getelementptr inbounds i8, ptr %49, i64 8
  %53 = load i64, ptr %52, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %51, ptr align 1 %44, i64 %53, i1 false)
  %54 = load i64, ptr %52, align 8, !tbaa !13
  %55 = getelementptr inbounds i8, ptr %44, i64 %54
  %56 = add nuw nsw i64 %45, 1
  %57 = load i64, ptr %25, align 8, !tbaa !34
  %58 = icmp slt i64 %56, %57
  br i1 %58, label %43, label %59, !llvm.loop !35

59:                                               ; preds = %43, %27
  %60 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %61 = add nsw i64 %60, %33
  store i64 %61, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  tail call void %5(i64 noundef %33, ptr noundef %1, ptr noundef %2, ptr noundef %6) #8
  %62 = icmp sgt i64 %28, 1
  br i1 %62, label %27, label %193, !llvm.loop !36

63:                                               ; preds = %7
  %64 = getelementptr inbounds i8, ptr %0, i64 72
  %65 = load i64, ptr %64, align 8, !tbaa !23
  store i64 %65, ptr @__xenzyme_checkpoint_snapshots, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 96, ptr nonnull %8) #8
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(32) %8, ptr noundef nonnull align 8 dereferenceable(32) %11, i64 32, i1 false), !tbaa.struct !37
  %66 = getelementptr inbounds i8, ptr %8, i64 32
  store i64 %13, ptr %66, align 8, !tbaa !38
  %67 = getelementptr inbounds i8, ptr %8, i64 40
  %68 = getelementptr inbounds i8, ptr %0, i64 56
  %69 = load ptr, ptr %68, align 8, !tbaa !24
  store ptr %69, ptr %67, align 8, !tbaa !40
  %70 = getelementptr inbounds i8, ptr %8, i64 48
  store ptr %1, ptr %70, align 8, !tbaa !41
  %71 = getelementptr inbounds i8, ptr %8, i64 56
  store ptr %2, ptr %71, align 8, !tbaa !42
  %72 = getelementptr inbounds i8, ptr %8, i64 64
  store ptr %6, ptr %72, align 8, !tbaa !43
  %73 = getelementptr inbounds i8, ptr %8, i64 72
  store ptr %3, ptr %73, align 8, !tbaa !44
  %74 = getelementptr inbounds i8, ptr %8, i64 80
  store ptr %4, ptr %74, align 8, !tbaa !45
  %75 = getelementptr inbounds i8, ptr %8, i64 88
  store i64 -1, ptr %75, align 8, !tbaa !46
  %76 = getelementptr inbounds i8, ptr %0, i64 64
  %77 = load ptr, ptr %76, align 8, !tbaa !22
  %78 = shl i64 %65, 3
  %79 = add i64 %78, 8
  %80 = tail call noalias ptr @malloc(i64 noundef %79) #7
  %81 = tail call noalias ptr @malloc(i64 noundef %79) #7
  store i64 0, ptr %80, align 8, !tbaa !13
  %82 = icmp slt i64 %65, 1
  br i1 %82, label %152, label %83

83:                                               ; preds = %63
  %84 = getelementptr inbounds i8, ptr %0, i64 16
  %85 = load i64, ptr %84, align 8, !tbaa !12
  br label %88

86:                                               ; preds = %98
  %87 = getelementptr inbounds i8, ptr %0, i64 16
  br label %154

88:                                               ; preds = %83, %98
  %89 = phi i64 [ 1, %83 ], [ %99, %98 ]
  %90 = icmp slt i64 %89, %65
  br i1 %90, label %91, label %94

91:                                               ; preds = %88
  %92 = getelementptr inbounds i64, ptr %77, i64 %89
  %93 = load i64, ptr %92, align 8, !tbaa !13
  br label %94

94:                                               ; preds = %88, %91
  %95 = phi i64 [ %93, %91 ], [ %10, %88 ]
  %96 = getelementptr inbounds i64, ptr %80, i64 %89
  store i64 -1, ptr %96, align 8, !tbaa !13
  %97 = getelementptr inbounds i64, ptr %81, i64 %89
  br label %101

98:                                               ; preds = %147
  %99 = add nuw i64 %89, 1
  %100 = icmp eq i64 %89, %65
  br i1 %100, label %86, label %88, !llvm.loop !47

101:                                              ; preds = %94, %147
  %102 = phi i64 [ %89, %94 ], [ %104, %147 ]
  %103 = phi i64 [ -1, %94 ], [ %148, %147 ]
  %104 = add nsw i64 %102, -1
  %105 = getelementptr inbounds i64, ptr %77, i64 %104
  %106 = load i64, ptr %105, align 8, !tbaa !13
  %107 = sub nsw i64 %95, %106
  %108 = sub nsw i64 %85, %104
  %109 = tail call i64 @llvm.smin.i64(i64 %108, i64 %107)
  %110 = getelementptr inbounds i64, ptr %80, i64 %104
  %111 = load i64, ptr %110, align 8, !tbaa !13
  %112 = icmp slt i64 %107, 2
  br i1 %112, label %140, label %113

113:                                              ; preds = %101
  %114 = icmp eq i64 %108, 1
  br i1 %114, label %115, label %119

115:                                              ; preds = %113
  %116 = add nsw i64 %107, -1
  %117 = mul nsw i64 %116, %107
  %118 = lshr i64 %117, 1
  br label %140

119:                                              ; preds = %113
  %120 = uitofp nneg i64 %107 to double
  %121 = add i64 %109, 1
  br label %122

122:                                              ; preds = %122, %119
  %123 = phi double [ 1.000000e+00, %119 ], [ %130, %122 ]
  %124 = phi i64 [ 0, %119 ], [ %128, %122 ]
  %125 = add i64 %124, %121
  %126 = sitofp i64 %125 to double
  %127 = fmul double %123, %126
  %128 = add nuw nsw i64 %124, 1
  %129 = uitofp nneg i64 %128 to double
  %130 = fdiv double %127, %129
  %131 = fcmp olt double %130, %120
  br i1 %131, label %122, label %132, !llvm.loop !48

132:                                              ; preds = %122
  %133 = mul nuw nsw i64 %128, %107
  %134 = fmul double %130, %129
  %135 = sitofp i64 %121 to double
  %136 = fdiv double %134, %135
  %137 = fadd double %136, 5.000000e-01
  %138 = fptosi double %137 to i64
  %139 = sub nsw i64 %133, %138
  br label %140

140:                                              ; preds = %101, %115, %132
  %141 = phi i64 [ %118, %115 ], [ %139, %132 ], [ 0, %101 ]
  %142 = add nsw i64 %141, %111
  %143 = icmp slt i64 %103, 0
  %144 = icmp slt i64 %142, %103
  %145 = select i1 %143, i1 true, i1 %144
  br i1 %145, label %146, label %147

146:                                              ; preds = %140
  store i64 %142, ptr %96, align 8, !tbaa !13
  store i64 %104, ptr %97, align 8, !tbaa !13
  br label %147

147:                                              ; preds = %140, %146
  %148 = phi i64 [ %103, %140 ], [ %142, %146 ]
  %149 = icmp sgt i64 %102, 1
  br i1 %149, label %101, label %98, !llvm.loop !49

150:                                              ; preds = %172
  %151 = load ptr, ptr %76, align 8, !tbaa !22
  br label %152

152:                                              ; preds = %63, %150
  %153 = phi ptr [ %151, %150 ], [ %77, %63 ]
  tail call void @free(ptr noundef %80) #8
  tail call void @free(ptr noundef %81) #8
  tail call void @free(ptr noundef %153) #8
  call void @llvm.lifetime.end.p0(i64 96, ptr nonnull %8) #8
  br label %193

154:                                              ; preds = %86, %172
  %155 = phi i64 [ %65, %86 ], [ %157, %172 ]
  %156 = getelementptr inbounds i64, ptr %81, i64 %155
  %157 = load i64, ptr %156, align 8, !tbaa !13
  %158 = icmp slt i64 %155, %65
  br i1 %158, label %159, label %162

159:                                              ; preds = %154
  %160 = getelementptr inbounds i64, ptr %77, i64 %155
  %161 = load i64, ptr %160, align 8, !tbaa !13
  br label %162

162:                                              ; preds = %154, %159
  %163 = phi i64 [ %161, %159 ], [ %10, %154 ]
  %164 = getelementptr inbounds i64, ptr %77, i64 %157
  %165 = load i64, ptr %164, align 8, !tbaa !13
  %166 = sub nsw i64 %163, %165
  %167 = icmp sgt i64 %166, 0
  br i1 %167, label %168, label %172

168:                                              ; preds = %162
  %169 = load i64, ptr %87, align 8, !tbaa !12
  %170 = sub nsw i64 %169, %157
  %171 = tail call i64 @llvm.smin.i64(i64 %170, i64 %166)
  call fastcc void @xz_revolve(ptr noundef nonnull %8, i64 noundef %157, i64 noundef %166, i64 noundef %171)
  br label %172

172:                                              ; preds = %168, %162
  %173 = icmp sgt i64 %157, 0
  br i1 %173, label %154, label %150, !llvm.loop !50

174:                                              ; preds = %7
  %175 = icmp sgt i64 %10, 0
  br i1 %175, label %176, label %193

176:                                              ; preds = %174
  %177 = getelementptr inbounds i8, ptr %0, i64 16
  %178 = load i64, ptr %177, align 8, !tbaa !12
  %179 = tail call i64 @llvm.smin.i64(i64 %178, i64 %10)
  store i64 %179, ptr @__xenzyme_checkpoint_snapshots, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 96, ptr nonnull %9) #8
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(32) %9, ptr noundef nonnull align 8 dereferenceable(32) %11, i64 32, i1 false), !tbaa.struct !37
  %180 = getelementptr inbounds i8, ptr %9, i64 32
  store i64 %13, ptr %180, align 8, !tbaa !38
  %181 = getelementptr inbounds i8, ptr %9, i64 40
  %182 = mul nsw i64 %179, %13
  %183 = tail call noalias ptr @malloc(i64 noundef %182) #7
  store ptr %183, ptr %181, align 8, !tbaa !40
  %184 = getelementptr inbounds i8, ptr %9, i64 48
  store ptr %1, ptr %184, align 8, !tbaa !41
  %185 = getelementptr inbounds i8, ptr %9, i64 56
  store ptr %2, ptr %185, align 8, !tbaa !42
  %186 = getelementptr inbounds i8, ptr %9, i64 64
  store ptr %6, ptr %186, align 8, !tbaa !43
  %187 = getelementptr inbounds i8, ptr %9, i64 72
  store ptr %3, ptr %187, align 8, !tbaa !44
  %188 = getelementptr inbounds i8, ptr %9, i64 80
  store ptr %4, ptr %188, align 8, !tbaa !45
  %189 = getelementptr inbounds i8, ptr %9, i64 88
  store i64 -1, ptr %189, align 8, !tbaa !46
  %190 = getelementptr inbounds i8, ptr %0, i64 56
  %191 = load ptr, ptr %190, align 8, !tbaa !24
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %183, ptr align 1 %191, i64 %13, i1 false)
  call fastcc void @xz_revolve(ptr noundef nonnull %9, i64 noundef 0, i64 noundef %10, i64 noundef %179)
  %192 = load ptr, ptr %181, align 8, !tbaa !40
  tail call void @free(ptr noundef %192) #8
  call void @llvm.lifetime.end.p0(i64 96, ptr nonnull %9) #8
  br label %193

193:                                              ; preds = %59, %16, %152, %176, %174
  %194 = getelementptr inbounds i8, ptr %0, i64 56
  %195 = load ptr, ptr %194, align 8, !tbaa !24
  tail call void @free(ptr noundef %195) #8
  tail call void @free(ptr noundef nonnull %0) #8
  ret void
}

; Function Attrs: nounwind uwtable
define internal fastcc void @xz_revolve(ptr nocapture noundef %0, i64 noundef %1, i64 noundef %2, i64 noundef %3) unnamed_addr #0 {
  %5 = icmp sgt i64 %2, 0
  br i1 %5, label %6, label %233

6:                                                ; preds = %4
  %7 = icmp eq i64 %3, 1
  %8 = add i64 %3, 1
  %9 = sitofp i64 %3 to double
  %10 = getelementptr inbounds i8, ptr %0, i64 88
  %11 = getelementptr inbounds i8, ptr %0, i64 48
  %12 = getelementptr inbounds i8, ptr %0, i64 40
  %13 = getelementptr inbounds i8, ptr %0, i64 32
  %14 = getelementptr inbounds i8, ptr %0, i64 8
  %15 = getelementptr inbounds i8, ptr %0, i64 16
  %16 = getelementptr inbounds i8, ptr %0, i64 72
  %17 = getelementptr inbounds i8, ptr %0, i64 64
  %18 = add nsw i64 %1, 1
  %19 = add nsw i64 %3, -1
  %20 = getelementptr inbounds i8, ptr %0, i64 80
  %21 = getelementptr inbounds i8, ptr %0, i64 56
  br label %22

22:                                               ; preds = %6, %232
  %23 = phi i64 [ %2, %6 ], [ %151, %232 ]
  %24 = icmp eq i64 %23, 1
  br i1 %24, label %25, label %61

25:                                               ; preds = %22
  %26 = load i64, ptr %10, align 8, !tbaa !46
  %27 = icmp eq i64 %26, %1
  br i1 %27, label %56, label %28

28:                                               ; preds = %25
  %29 = load ptr, ptr %11, align 8, !tbaa !41
  %30 = load ptr, ptr %12, align 8, !tbaa !40
  %31 = load i64, ptr %13, align 8, !tbaa !38
  %32 = mul nsw i64 %31, %1
  %33 = getelementptr inbounds i8, ptr %30, i64 %32
  %34 = load i64, ptr %0, align 8, !tbaa !33
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %29, ptr readonly align 1 %33, i64 %34, i1 false)
  %35 = load i64, ptr %14, align 8, !tbaa !34
  %36 = icmp sgt i64 %35, 0
  br i1 %36, label %37, label %56

37:                                               ; preds = %28
  %38 = load i64, ptr %0, align 8, !tbaa !33
  %39 = getelementptr inbounds i8, ptr %33, i64 %38
  br label %40

40:                                               ; preds = %40, %37
  %41 = phi ptr [ %39, %37 ], [ %52, %40 ]
  %42 = phi i64 [ 0, %37 ], [ %53, %40 ]
  %43 = load i64, ptr %15, align 8, !tbaa !29
  %44 = getelementptr inbounds i8, ptr %29, i64 %43
  %45 = shl nsw i64 %42, 4
  %46 = getelementptr inbounds i8, ptr %44, i64 %45
  %47 = load i64, ptr %46, align 8, !tbaa !13
  %48 = inttoptr i64 %47 to ptr
  %49 = getelementptr inbounds i8, ptr %46, i64 8
  %50 = load i64, ptr %49, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %48, ptr align 1 %41, i64 %50, i1 false)
  %51 = load i64, ptr %49, align 8, !tbaa !13
  %52 = getelementptr inbounds i8, ptr %41, i64 %51
  %53 = add nuw nsw i64 %42, 1
  %54 = load i64, ptr %14, align 8, !tbaa !34
  %55 = icmp slt i64 %53, %54
  br i1 %55, label %40, label %56, !llvm.loop !35

56:                                               ; preds = %40, %25, %28
  store i64 -1, ptr %10, align 8, !tbaa !46
  %57 = load ptr, ptr %20, align 8, !tbaa !45
  %58 = load ptr, ptr %11, align 8, !tbaa !41
  %59 = load ptr, ptr %21, align 8, !tbaa !42
  %60 = load ptr, ptr %17, align 8, !tbaa !43
  tail call void %57(ptr noundef %58, ptr noundef %59, ptr noundef %60) #8
  br label %233

61:                                               ; preds = %22
  br i1 %7, label %62, label %114

62:                                               ; preds = %61, %106
  %63 = phi i64 [ %64, %106 ], [ %2, %61 ]
  %64 = add nsw i64 %63, -1
  %65 = load i64, ptr %10, align 8, !tbaa !46
  %66 = icmp eq i64 %65, %1
  br i1 %66, label %95, label %67

67:                                               ; preds = %62
  %68 = load ptr, ptr %11, align 8, !tbaa !41
  %69 = load ptr, ptr %12, align 8, !tbaa !40
  %70 = load i64, ptr %13, align 8, !tbaa !38
  %71 = mul nsw i64 %70, %1
  %72 = getelementptr inbounds i8, ptr %69, i64 %71
  %73 = load i64, ptr %0, align 8, !tbaa !33
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %68, ptr readonly align 1 %72, i64 %73, i1 false)
  %74 = load i64, ptr %14, align 8, !tbaa !34
  %75 = icmp sgt i64 %74, 0
  br i1 %75, label %76, label %95

76:                                               ; preds = %67
  %77 = load i64, ptr %0, align 8, !tbaa !33
  %78 = getelementptr inbounds i8, ptr %72, i64 %77
  br label %79

79:                                               ; preds = %79, %76
  %80 = phi ptr [ %78, %76 ], [ %91, %79 ]
  %81 = phi i64 [ 0, %76 ], [ %92, %79 ]
  %82 = load i64, ptr %15, align 8, !tbaa !29
  %83 = getelementptr inbounds i8, ptr %68, i64 %82
  %84 = shl nsw i64 %81, 4
  %85 = getelementptr inbounds i8, ptr %83, i64 %84
  %86 = load i64, ptr %85, align 8, !tbaa !13
  %87 = inttoptr i64 %86 to ptr
  %88 = getelementptr inbounds i8, ptr %85, i64 8
  %89 = load i64, ptr %88, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %87, ptr align 1 %80, i64 %89, i1 false)
  %90 = load i64, ptr %88, align 8, !tbaa !13
  %91 = getelementptr inbounds i8, ptr %80, i64 %90
  %92 = add nuw nsw i64 %81, 1
  %93 = load i64, ptr %14, align 8, !tbaa !34
  %94 = icmp slt i64 %92, %93
  br i1 %94, label %79, label %95, !llvm.loop !35

95:                                               ; preds = %79, %67, %62
  %96 = icmp eq i64 %64, 0
  %97 = select i1 %96, i64 %1, i64 -1
  store i64 %97, ptr %10, align 8, !tbaa !46
  %98 = icmp eq i64 %63, 1
  br i1 %98, label %106, label %99

99:                                               ; preds = %95, %99
  %100 = phi i64 [ %104, %99 ], [ 0, %95 ]
  %101 = load ptr, ptr %16, align 8, !tbaa !44
  %102 = load ptr, ptr %11, align 8, !tbaa !41
  %103 = load ptr, ptr %17, align 8, !tbaa !43
  tail call void %101(ptr noundef %102, ptr noundef %103) #8
  %104 = add nuw nsw i64 %100, 1
  %105 = icmp eq i64 %104, %64
  br i1 %105, label %106, label %99, !llvm.loop !51

106:                                              ; preds = %99, %95
  %107 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %108 = add nsw i64 %107, %64
  store i64 %108, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  store i64 -1, ptr %10, align 8, !tbaa !46
  %109 = load ptr, ptr %20, align 8, !tbaa !45
  %110 = load ptr, ptr %11, align 8, !tbaa !41
  %111 = load ptr, ptr %21, align 8, !tbaa !42
  %112 = load ptr, ptr %17, align 8, !tbaa !43
  tail call void %109(ptr noundef %110, ptr noundef %111, ptr noundef %112) #8
  %113 = icmp sgt i64 %63, 1
  br i1 %113, label %62, label %233, !llvm.loop !52

114:                                              ; preds = %61
  %115 = uitofp nneg i64 %23 to double
  br label %116

116:                                              ; preds = %116, %114
  %117 = phi double [ 1.000000e+00, %114 ], [ %124, %116 ]
  %118 = phi i64 [ 0, %114 ], [ %122, %116 ]
  %119 = add i64 %8, %118
  %120 = sitofp i64 %119 to double
  %121 = fmul double %117, %120
  %122 = add nuw nsw i64 %118, 1
  %123 = uitofp nneg i64 %122 to double
  %124 = fdiv double %121, %123
  %125 = fcmp olt double %124, %115
  br i1 %125, label %116, label %126, !llvm.loop !48

126:                                              ; preds = %116
  %127 = fmul double %124, %9
  %128 = add nsw i64 %122, %3
  %129 = sitofp i64 %128 to double
  %130 = fdiv double %127, %129
  %131 = fadd double %130, 5.000000e-01
  %132 = fptosi double %131 to i64
  %133 = sub nsw i64 %23, %132
  %134 = icmp eq i64 %118, 0
  br i1 %134, label %145, label %135

135:                                              ; preds = %126
  %136 = fmul double %124, %123
  %137 = fdiv double %136, %129
  %138 = uitofp nneg i64 %118 to double
  %139 = fmul double %137, %138
  %140 = add i64 %118, %3
  %141 = sitofp i64 %140 to double
  %142 = fdiv double %139, %141
  %143 = fadd double %142, 5.000000e-01
  %144 = fptosi double %143 to i64
  br label %145

145:                                              ; preds = %126, %135
  %146 = phi i64 [ %144, %135 ], [ 0, %126 ]
  %147 = tail call i64 @llvm.smax.i64(i64 %146, i64 %133)
  %148 = tail call i64 @llvm.smax.i64(i64 %147, i64 1)
  %149 = icmp slt i64 %148, %23
  %150 = add nsw i64 %23, -1
  %151 = select i1 %149, i64 %148, i64 %150
  %152 = load i64, ptr %10, align 8, !tbaa !46
  %153 = icmp eq i64 %152, %1
  br i1 %153, label %182, label %154

154:                                              ; preds = %145
  %155 = load ptr, ptr %11, align 8, !tbaa !41
  %156 = load ptr, ptr %12, align 8, !tbaa !40
  %157 = load i64, ptr %13, align 8, !tbaa !38
  %158 = mul nsw i64 %157, %1
  %159 = getelementptr inbounds i8, ptr %156, i64 %158
  %160 = load i64, ptr %0, align 8, !tbaa !33
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %155, ptr readonly align 1 %159, i64 %160, i1 false)
  %161 = load i64, ptr %14, align 8, !tbaa !34
  %162 = icmp sgt i64 %161, 0
  br i1 %162, label %163, label %182

163:                                              ; preds = %154
  %164 = load i64, ptr %0, align 8, !tbaa !33
  %165 = getelementptr inbounds i8, ptr %159, i64 %164
  br label %166

166:                                              ; preds = %166, %163
  %167 = phi ptr [ %165, %163 ], [ %178, %166 ]
  %168 = phi i64 [ 0, %163 ], [ %179, %166 ]
  %169 = load i64, ptr %15, align 8, !tbaa !29
  %170 = getelementptr inbounds i8, ptr %155, i64 %169
  %171 = shl nsw i64 %168, 4
  %172 = getelementptr inbounds i8, ptr %170, i64 %171
  %173 = load i64, ptr %172, align 8, !tbaa !13
  %174 = inttoptr i64 %173 to ptr
  %175 = getelementptr inbounds i8, ptr %172, i64 8
  %176 = load i64, ptr %175, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %174, ptr align 1 %167, i64 %176, i1 false)
  %177 = load i64, ptr %175, align 8, !tbaa !13
  %178 = getelementptr inbounds i8, ptr %167, i64 %177
  %179 = add nuw nsw i64 %168, 1
  %180 = load i64, ptr %14, align 8, !tbaa !34
  %181 = icmp slt i64 %179, %180
  br i1 %181, label %166, label %182, !llvm.loop !35

182:                                              ; preds = %166, %154, %145
  %183 = icmp eq i64 %151, 0
  %184 = select i1 %183, i64 %1, i64 -1
  store i64 %184, ptr %10, align 8, !tbaa !46
  %185 = icmp sgt i64 %151, 0
  br i1 %185, label %186, label %193

186:                                              ; preds = %182, %186
  %187 = phi i64 [ %191, %186 ], [ 0, %182 ]
  %188 = load ptr, ptr %16, align 8, !tbaa !44
  %189 = load ptr, ptr %11, align 8, !tbaa !41
  %190 = load ptr, ptr %17, align 8, !tbaa !43
  tail call void %188(ptr noundef %189, ptr noundef %190) #8
  %191 = add nuw nsw i64 %187, 1
  %192 = icmp eq i64 %191, %151
  br i1 %192, label %193, label %186, !llvm.loop !51

193:                                              ; preds = %186, %182
  %194 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %195 = add nsw i64 %194, %151
  store i64 %195, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %196 = sub nsw i64 %23, %151
  %197 = icmp eq i64 %196, 1
  br i1 %197, label %198, label %203

198:                                              ; preds = %193
  store i64 -1, ptr %10, align 8, !tbaa !46
  %199 = load ptr, ptr %20, align 8, !tbaa !45
  %200 = load ptr, ptr %11, align 8, !tbaa !41
  %201 = load ptr, ptr %21, align 8, !tbaa !42
  %202 = load ptr, ptr %17, align 8, !tbaa !43
  tail call void %199(ptr noundef %200, ptr noundef %201, ptr noundef %202) #8
  br label %232

203:                                              ; preds = %193
  %204 = load ptr, ptr %12, align 8, !tbaa !40
  %205 = load i64, ptr %13, align 8, !tbaa !38
  %206 = mul nsw i64 %205, %18
  %207 = getelementptr inbounds i8, ptr %204, i64 %206
  %208 = load ptr, ptr %11, align 8, !tbaa !41
  %209 = load i64, ptr %0, align 8, !tbaa !33
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %207, ptr readonly align 1 %208, i64 %209, i1 false)
  %210 = load i64, ptr %14, align 8, !tbaa !34
  %211 = icmp sgt i64 %210, 0
  br i1 %211, label %212, label %231

212:                                              ; preds = %203
  %213 = load i64, ptr %0, align 8, !tbaa !33
  %214 = getelementptr inbounds i8, ptr %207, i64 %213
  br label %215

215:                                              ; preds = %215, %212
  %216 = phi ptr [ %214, %212 ], [ %227, %215 ]
  %217 = phi i64 [ 0, %212 ], [ %228, %215 ]
  %218 = load i64, ptr %15, align 8, !tbaa !29
  %219 = getelementptr inbounds i8, ptr %208, i64 %218
  %220 = shl nsw i64 %217, 4
  %221 = getelementptr inbounds i8, ptr %219, i64 %220
  %222 = load i64, ptr %221, align 8, !tbaa !13
  %223 = inttoptr i64 %222 to ptr
  %224 = getelementptr inbounds i8, ptr %221, i64 8
  %225 = load i64, ptr %224, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %216, ptr align 1 %223, i64 %225, i1 false)
  %226 = load i64, ptr %224, align 8, !tbaa !13
  %227 = getelementptr inbounds i8, ptr %216, i64 %226
  %228 = add nuw nsw i64 %217, 1
  %229 = load i64, ptr %14, align 8, !tbaa !34
  %230 = icmp slt i64 %228, %229
  br i1 %230, label %215, label %231, !llvm.loop !25

231:                                              ; preds = %215, %203
  store i64 %18, ptr %10, align 8, !tbaa !46
  tail call fastcc void @xz_revolve(ptr noundef nonnull %0, i64 noundef %18, i64 noundef %196, i64 noundef %19)
  br label %232

232:                                              ; preds = %231, %198
  br i1 %185, label %22, label %233, !llvm.loop !53

233:                                              ; preds = %232, %106, %4, %56
  ret void
}

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @free(ptr allocptr nocapture noundef) local_unnamed_addr #5

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smax.i64(i64, i64) #6

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smin.i64(i64, i64) #6

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.vector.reduce.add.v2i64(<2 x i64>) #6

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #4 = { mustprogress nounwind willreturn allockind("realloc") allocsize(1) memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #7 = { nounwind allocsize(0) }
attributes #8 = { nounwind }
attributes #9 = { nounwind allocsize(1) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{!6, !7, i64 8}
!6 = !{!"xz_tape", !7, i64 0, !7, i64 8, !7, i64 16, !10, i64 24, !11, i64 56, !11, i64 64, !7, i64 72}
!7 = !{!"long", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C/C++ TBAA"}
!10 = !{!"xz_layout", !7, i64 0, !7, i64 8, !7, i64 16, !7, i64 24}
!11 = !{!"any pointer", !8, i64 0}
!12 = !{!6, !7, i64 16}
!13 = !{!7, !7, i64 0}
!14 = !{!15}
!15 = distinct !{!15, !16, !"xz_layout: argument 0"}
!16 = distinct !{!16, !"xz_layout"}
!17 = distinct !{!17, !18, !19, !20}
!18 = !{!"llvm.loop.mustprogress"}
!19 = !{!"llvm.loop.isvectorized", i32 1}
!20 = !{!"llvm.loop.unroll.runtime.disable"}
!21 = distinct !{!21, !18, !20, !19}
!22 = !{!6, !11, i64 64}
!23 = !{!6, !7, i64 72}
!24 = !{!6, !11, i64 56}
!25 = distinct !{!25, !18}
!26 = distinct !{!26, !18}
!27 = !{!8, !8, i64 0}
!28 = distinct !{!28, !18}
!29 = !{!10, !7, i64 16}
!30 = distinct !{!30, !18}
!31 = !{!6, !7, i64 0}
!32 = !{!6, !7, i64 48}
!33 = !{!10, !7, i64 0}
!34 = !{!10, !7, i64 8}
!35 = distinct !{!35, !18}
!36 = distinct !{!36, !18}
!37 = !{i64 0, i64 8, !13, i64 8, i64 8, !13, i64 16, i64 8, !13, i64 24, i64 8, !13}
!38 = !{!39, !7, i64 32}
!39 = !{!"xz_run", !10, i64 0, !7, i64 32, !11, i64 40, !11, i64 48, !11, i64 56, !11, i64 64, !11, i64 72, !11, i64 80, !7, i64 88}
!40 = !{!39, !11, i64 40}
!41 = !{!39, !11, i64 48}
!42 = !{!39, !11, i64 56}
!43 = !{!39, !11, i64 64}
!44 = !{!39, !11, i64 72}
!45 = !{!39, !11, i64 80}
!46 = !{!39, !7, i64 88}
!47 = distinct !{!47, !18}
!48 = distinct !{!48, !18}
!49 = distinct !{!49, !18}
!50 = distinct !{!50, !18}
!51 = distinct !{!51, !18}
!52 = distinct !{!52, !18}
!53 = distinct !{!53, !18}
