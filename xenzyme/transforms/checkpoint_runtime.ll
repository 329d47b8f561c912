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
  br i1 %64, label %65, label %70

65:                                               ; preds = %59
  store i64 0, ptr %12, align 8, !tbaa !5
  %66 = sdiv i64 %9, %60
  %67 = tail call i64 @llvm.smax.i64(i64 %66, i64 1)
  store i64 %67, ptr %13, align 8, !tbaa !12
  %68 = getelementptr inbounds i8, ptr %11, i64 64
  store ptr null, ptr %68, align 8, !tbaa !22
  %69 = getelementptr inbounds i8, ptr %11, i64 72
  store i64 1, ptr %69, align 8, !tbaa !23
  br label %241

70:                                               ; preds = %59
  %71 = getelementptr inbounds i8, ptr %11, i64 64
  store ptr null, ptr %71, align 8, !tbaa !22
  %72 = getelementptr inbounds i8, ptr %11, i64 72
  store i64 1, ptr %72, align 8, !tbaa !23
  %73 = icmp eq i64 %8, 3
  br i1 %73, label %74, label %233

74:                                               ; preds = %70
  %75 = mul nsw i64 %60, %9
  %76 = tail call noalias ptr @malloc(i64 noundef %75) #7
  %77 = getelementptr inbounds i8, ptr %11, i64 56
  store ptr %76, ptr %77, align 8, !tbaa !24
  %78 = shl i64 %9, 3
  %79 = tail call noalias ptr @malloc(i64 noundef %78) #7
  store ptr %79, ptr %71, align 8, !tbaa !22
  store i64 0, ptr %79, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %76, ptr readonly align 1 %1, i64 %2, i1 false)
  br i1 %15, label %80, label %121

80:                                               ; preds = %74
  %81 = getelementptr inbounds i8, ptr %76, i64 %2
  %82 = getelementptr inbounds i8, ptr %1, i64 %4
  %83 = and i64 %3, 1
  %84 = icmp eq i64 %3, 1
  br i1 %84, label %111, label %85

85:                                               ; preds = %80
  %86 = and i64 %3, 9223372036854775806
  br label %87

87:                                               ; preds = %87, %85
  %88 = phi ptr [ %81, %85 ], [ %105, %87 ]
  %89 = phi i64 [ 0, %85 ], [ %106, %87 ]
  %90 = phi i64 [ 0, %85 ], [ %107, %87 ]
  %91 = shl nsw i64 %89, 4
  %92 = getelementptr inbounds i8, ptr %82, i64 %91
  %93 = load i64, ptr %92, align 8, !tbaa !13
  %94 = inttoptr i64 %93 to ptr
  %95 = getelementptr inbounds i8, ptr %92, i64 8
  %96 = load i64, ptr %95, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %88, ptr align 1 %94, i64 %96, i1 false)
  %97 = getelementptr inbounds i8, ptr %88, i64 %96
  %98 = shl i64 %89, 4
  %99 = or disjoint i64 %98, 16
  %100 = getelementptr inbounds i8, ptr %82, i64 %99
  %101 = load i64, ptr %100, align 8, !tbaa !13
  %102 = inttoptr i64 %101 to ptr
  %103 = getelementptr inbounds i8, ptr %100, i64 8
  %104 = load i64, ptr %103, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %97, ptr align 1 %102, i64 %104, i1 false)
  %105 = getelementptr inbounds i8, ptr %97, i64 %104
  %106 = add nuw nsw i64 %89, 2
  %107 = add i64 %90, 2
  %108 = icmp eq i64 %107, %86
  br i1 %108, label %109, label %87, !llvm.loop !25

109:                                              ; preds = %87
  %110 = shl nsw i64 %106, 4
  br label %111

111:                                              ; preds = %109, %80
  %112 = phi ptr [ %81, %80 ], [ %105, %109 ]
  %113 = phi i64 [ 0, %80 ], [ %110, %109 ]
  %114 = icmp eq i64 %83, 0
  br i1 %114, label %121, label %115

115:                                              ; preds = %111
  %116 = getelementptr inbounds i8, ptr %82, i64 %113
  %117 = load i64, ptr %116, align 8, !tbaa !13
  %118 = inttoptr i64 %117 to ptr
  %119 = getelementptr inbounds i8, ptr %116, i64 8
  %120 = load i64, ptr %119, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %112, ptr align 1 %118, i64 %120, i1 false)
  br label %121

121:                                              ; preds = %115, %111, %74
  %122 = icmp slt i64 %0, 0
  %123 = icmp eq i64 %0, 0
  br i1 %123, label %423, label %124

124:                                              ; preds = %121
  %125 = icmp sgt i64 %0, -1
  %126 = getelementptr inbounds i8, ptr %1, i64 %5
  %127 = icmp sgt i64 %9, 0
  %128 = getelementptr inbounds i8, ptr %1, i64 %4
  %129 = and i64 %3, 1
  %130 = icmp eq i64 %3, 1
  %131 = and i64 %3, 9223372036854775806
  %132 = icmp eq i64 %129, 0
  br label %133

133:                                              ; preds = %124, %228
  %134 = phi i64 [ 1, %124 ], [ %214, %228 ]
  %135 = phi i64 [ 0, %124 ], [ %230, %228 ]
  %136 = phi i64 [ 1, %124 ], [ %215, %228 ]
  %137 = icmp sgt i64 %135, 0
  br i1 %137, label %138, label %213

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
  store i64 %146, ptr %72, align 8, !tbaa !23
  br label %168

147:                                              ; preds = %143, %164
  %148 = phi i64 [ %166, %164 ], [ 0, %143 ]
  %149 = phi i64 [ %165, %164 ], [ 0, %143 ]
  %150 = getelementptr inbounds i64, ptr %79, i64 %148
  %151 = load i64, ptr %150, align 8, !tbaa !13
  %152 = srem i64 %151, %144
  %153 = icmp eq i64 %152, 0
  br i1 %153, label %154, label %164

154:                                              ; preds = %147
  %155 = icmp eq i64 %149, %148
  br i1 %155, label %161, label %156

156:                                              ; preds = %154
  %157 = mul nsw i64 %149, %60
  %158 = getelementptr inbounds i8, ptr %76, i64 %157
  %159 = mul nsw i64 %148, %60
  %160 = getelementptr inbounds i8, ptr %76, i64 %159
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %158, ptr align 1 %160, i64 %60, i1 false)
  br label %161

161:                                              ; preds = %156, %154
  %162 = add nsw i64 %149, 1
  %163 = getelementptr inbounds i64, ptr %79, i64 %149
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
  %175 = getelementptr inbounds i8, ptr %76, i64 %174
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
  store i64 %211, ptr %72, align 8, !tbaa !23
  %212 = getelementptr inbounds i64, ptr %79, i64 %169
  store i64 %135, ptr %212, align 8, !tbaa !13
  br label %213

213:                                              ; preds = %168, %210, %138, %133
  %214 = phi i64 [ %211, %210 ], [ %169, %168 ], [ %134, %138 ], [ %134, %133 ]
  %215 = phi i64 [ %170, %210 ], [ %170, %168 ], [ %136, %138 ], [ %136, %133 ]
  br i1 %125, label %216, label %223

216:                                              ; preds = %213
  %217 = sdiv i64 %135, %215
  %218 = add nsw i64 %217, 1
  %219 = mul nsw i64 %218, %215
  %220 = tail call i64 @llvm.smin.i64(i64 %219, i64 %0)
  %221 = sub nsw i64 %220, %135
  tail call void %6(ptr noundef %1, ptr noundef %7, i64 noundef %221) #8
  %222 = add i64 %220, -1
  br label %228

223:                                              ; preds = %213
  tail call void %6(ptr noundef %1, ptr noundef %7, i64 noundef 1) #8
  %224 = load i8, ptr %126, align 1, !tbaa !27
  %225 = icmp eq i8 %224, 0
  br i1 %225, label %226, label %228

226:                                              ; preds = %223
  %227 = add nsw i64 %135, 1
  br label %423

228:                                              ; preds = %223, %216
  %229 = phi i64 [ %222, %216 ], [ %135, %223 ]
  %230 = add nsw i64 %229, 1
  %231 = icmp slt i64 %230, %0
  %232 = select i1 %122, i1 true, i1 %231
  br i1 %232, label %133, label %423, !llvm.loop !28

233:                                              ; preds = %70
  %234 = icmp eq i64 %8, 0
  %235 = icmp slt i64 %0, 0
  %236 = or i1 %235, %234
  br i1 %236, label %241, label %237

237:                                              ; preds = %233
  %238 = add nsw i64 %0, -1
  %239 = add i64 %238, %9
  %240 = sdiv i64 %239, %9
  br label %241

241:                                              ; preds = %65, %233, %237
  %242 = phi i64 [ %9, %237 ], [ %9, %233 ], [ %67, %65 ]
  %243 = phi i64 [ %8, %237 ], [ %8, %233 ], [ 0, %65 ]
  %244 = phi i64 [ %240, %237 ], [ 1, %233 ], [ 1, %65 ]
  %245 = tail call i64 @llvm.smax.i64(i64 %244, i64 1)
  %246 = mul nsw i64 %245, %60
  %247 = tail call noalias ptr @malloc(i64 noundef %246) #7
  %248 = getelementptr inbounds i8, ptr %11, i64 56
  store ptr %247, ptr %248, align 8, !tbaa !24
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %247, ptr readonly align 1 %1, i64 %2, i1 false)
  br i1 %15, label %249, label %290

249:                                              ; preds = %241
  %250 = getelementptr inbounds i8, ptr %247, i64 %2
  %251 = getelementptr inbounds i8, ptr %1, i64 %4
  %252 = and i64 %3, 1
  %253 = icmp eq i64 %3, 1
  br i1 %253, label %280, label %254

254:                                              ; preds = %249
  %255 = and i64 %3, 9223372036854775806
  br label %256

256:                                              ; preds = %256, %254
  %257 = phi ptr [ %250, %254 ], [ %274, %256 ]
  %258 = phi i64 [ 0, %254 ], [ %275, %256 ]
  %259 = phi i64 [ 0, %254 ], [ %276, %256 ]
  %260 = shl nsw i64 %258, 4
  %261 = getelementptr inbounds i8, ptr %251, i64 %260
  %262 = load i64, ptr %261, align 8, !tbaa !13
  %263 = inttoptr i64 %262 to ptr
  %264 = getelementptr inbounds i8, ptr %261, i64 8
  %265 = load i64, ptr %264, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %257, ptr align 1 %263, i64 %265, i1 false)
  %266 = getelementptr inbounds i8, ptr %257, i64 %265
  %267 = shl i64 %258, 4
  %268 = or disjoint i64 %267, 16
  %269 = getelementptr inbounds i8, ptr %251, i64 %268
  %270 = load i64, ptr %269, align 8, !tbaa !13
  %271 = inttoptr i64 %270 to ptr
  %272 = getelementptr inbounds i8, ptr %269, i64 8
  %273 = load i64, ptr %272, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %266, ptr align 1 %271, i64 %273, i1 false)
  %274 = getelementptr inbounds i8, ptr %266, i64 %273
  %275 = add nuw nsw i64 %258, 2
  %276 = add i64 %259, 2
  %277 = icmp eq i64 %276, %255
  br i1 %277, label %278, label %256, !llvm.loop !25

278:                                              ; preds = %256
  %279 = shl nsw i64 %275, 4
  br label %280

280:                                              ; preds = %278, %249
  %281 = phi ptr [ %250, %249 ], [ %274, %278 ]
  %282 = phi i64 [ 0, %249 ], [ %279, %278 ]
  %283 = icmp eq i64 %252, 0
  br i1 %283, label %290, label %284

284:                                              ; preds = %280
  %285 = getelementptr inbounds i8, ptr %251, i64 %282
  %286 = load i64, ptr %285, align 8, !tbaa !13
  %287 = inttoptr i64 %286 to ptr
  %288 = getelementptr inbounds i8, ptr %285, i64 8
  %289 = load i64, ptr %288, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %281, ptr align 1 %287, i64 %289, i1 false)
  br label %290

290:                                              ; preds = %284, %280, %241
  %291 = icmp sgt i64 %0, -1
  br i1 %291, label %299, label %292

292:                                              ; preds = %290
  %293 = icmp eq i64 %243, 1
  %294 = getelementptr inbounds i8, ptr %1, i64 %5
  %295 = and i64 %3, 1
  %296 = icmp eq i64 %3, 1
  %297 = and i64 %3, 9223372036854775806
  %298 = icmp eq i64 %295, 0
  br label %358

299:                                              ; preds = %290
  %300 = icmp eq i64 %0, 0
  br i1 %300, label %423, label %301

301:                                              ; preds = %299
  %302 = icmp eq i64 %243, 1
  %303 = select i1 %302, i64 %242, i64 %0
  %304 = getelementptr inbounds i8, ptr %1, i64 %4
  %305 = and i64 %3, 1
  %306 = icmp eq i64 %3, 1
  %307 = and i64 %3, 9223372036854775806
  %308 = icmp eq i64 %305, 0
  br label %309

309:                                              ; preds = %301, %354
  %310 = phi i64 [ 0, %301 ], [ %356, %354 ]
  br i1 %302, label %313, label %311

311:                                              ; preds = %309
  %312 = sub nsw i64 %0, %310
  br label %354

313:                                              ; preds = %309
  %314 = sdiv i64 %310, %242
  %315 = mul nsw i64 %314, %60
  %316 = getelementptr inbounds i8, ptr %247, i64 %315
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %316, ptr readonly align 1 %1, i64 %2, i1 false)
  br i1 %15, label %317, label %351

317:                                              ; preds = %313
  %318 = getelementptr inbounds i8, ptr %316, i64 %2
  br i1 %306, label %341, label %319

319:                                              ; preds = %317, %319
  %320 = phi ptr [ %337, %319 ], [ %318, %317 ]
  %321 = phi i64 [ %338, %319 ], [ 0, %317 ]
  %322 = phi i64 [ %339, %319 ], [ 0, %317 ]
  %323 = shl nsw i64 %321, 4
  %324 = getelementptr inbounds i8, ptr %304, i64 %323
  %325 = load i64, ptr %324, align 8, !tbaa !13
  %326 = inttoptr i64 %325 to ptr
  %327 = getelementptr inbounds i8, ptr %324, i64 8
  %328 = load i64, ptr %327, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %320, ptr align 1 %326, i64 %328, i1 false)
  %329 = getelementptr inbounds i8, ptr %320, i64 %328
  %330 = shl i64 %321, 4
  %331 = or disjoint i64 %330, 16
  %332 = getelementptr inbounds i8, ptr %304, i64 %331
  %333 = load i64, ptr %332, align 8, !tbaa !13
  %334 = inttoptr i64 %333 to ptr
  %335 = getelementptr inbounds i8, ptr %332, i64 8
  %336 = load i64, ptr %335, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %329, ptr align 1 %334, i64 %336, i1 false)
  %337 = getelementptr inbounds i8, ptr %329, i64 %336
  %338 = add nuw nsw i64 %321, 2
  %339 = add i64 %322, 2
  %340 = icmp eq i64 %339, %307
  br i1 %340, label %341, label %319, !llvm.loop !25

341:                                              ; preds = %319, %317
  %342 = phi ptr [ %318, %317 ], [ %337, %319 ]
  %343 = phi i64 [ 0, %317 ], [ %338, %319 ]
  br i1 %308, label %351, label %344

344:                                              ; preds = %341
  %345 = shl nsw i64 %343, 4
  %346 = getelementptr inbounds i8, ptr %304, i64 %345
  %347 = load i64, ptr %346, align 8, !tbaa !13
  %348 = inttoptr i64 %347 to ptr
  %349 = getelementptr inbounds i8, ptr %346, i64 8
  %350 = load i64, ptr %349, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %342, ptr align 1 %348, i64 %350, i1 false)
  br label %351

351:                                              ; preds = %344, %341, %313
  %352 = sub nsw i64 %0, %310
  %353 = tail call i64 @llvm.smin.i64(i64 %242, i64 %352)
  br label %354

354:                                              ; preds = %351, %311
  %355 = phi i64 [ %312, %311 ], [ %353, %351 ]
  tail call void %6(ptr noundef %1, ptr noundef %7, i64 noundef %355) #8
  %356 = add nsw i64 %310, %303
  %357 = icmp slt i64 %356, %0
  br i1 %357, label %309, label %423, !llvm.loop !29

358:                                              ; preds = %416, %292
  %359 = phi ptr [ %417, %416 ], [ %247, %292 ]
  %360 = phi ptr [ %418, %416 ], [ %247, %292 ]
  %361 = phi i64 [ %419, %416 ], [ %245, %292 ]
  %362 = phi i64 [ %422, %416 ], [ 0, %292 ]
  br i1 %293, label %363, label %416

363:                                              ; preds = %358
  %364 = srem i64 %362, %242
  %365 = sdiv i64 %362, %242
  %366 = icmp eq i64 %364, 0
  br i1 %366, label %367, label %416

367:                                              ; preds = %363
  %368 = icmp slt i64 %365, %361
  br i1 %368, label %373, label %369

369:                                              ; preds = %367
  %370 = shl nsw i64 %361, 1
  %371 = mul nsw i64 %370, %60
  %372 = tail call ptr @realloc(ptr noundef %360, i64 noundef %371) #9
  store ptr %372, ptr %248, align 8, !tbaa !24
  br label %373

373:                                              ; preds = %369, %367
  %374 = phi ptr [ %372, %369 ], [ %359, %367 ]
  %375 = phi i64 [ %370, %369 ], [ %361, %367 ]
  %376 = mul nsw i64 %365, %60
  %377 = getelementptr inbounds i8, ptr %374, i64 %376
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %377, ptr readonly align 1 %1, i64 %2, i1 false)
  br i1 %15, label %378, label %416

378:                                              ; preds = %373
  %379 = getelementptr inbounds i8, ptr %377, i64 %2
  %380 = load i64, ptr %62, align 8, !tbaa !30
  %381 = getelementptr inbounds i8, ptr %1, i64 %380
  br i1 %296, label %406, label %382

382:                                              ; preds = %378, %382
  %383 = phi ptr [ %402, %382 ], [ %379, %378 ]
  %384 = phi i64 [ %403, %382 ], [ 0, %378 ]
  %385 = phi i64 [ %404, %382 ], [ 0, %378 ]
  %386 = shl nsw i64 %384, 4
  %387 = getelementptr inbounds i8, ptr %381, i64 %386
  %388 = load i64, ptr %387, align 8, !tbaa !13
  %389 = inttoptr i64 %388 to ptr
  %390 = getelementptr inbounds i8, ptr %387, i64 8
  %391 = load i64, ptr %390, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %383, ptr align 1 %389, i64 %391, i1 false)
  %392 = load i64, ptr %390, align 8, !tbaa !13
  %393 = getelementptr inbounds i8, ptr %383, i64 %392
  %394 = shl i64 %384, 4
  %395 = or disjoint i64 %394, 16
  %396 = getelementptr inbounds i8, ptr %381, i64 %395
  %397 = load i64, ptr %396, align 8, !tbaa !13
  %398 = inttoptr i64 %397 to ptr
  %399 = getelementptr inbounds i8, ptr %396, i64 8
  %400 = load i64, ptr %399, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %393, ptr align 1 %398, i64 %400, i1 false)
  %401 = load i64, ptr %399, align 8, !tbaa !13
  %402 = getelementptr inbounds i8, ptr %393, i64 %401
  %403 = add nuw nsw i64 %384, 2
  %404 = add i64 %385, 2
  %405 = icmp eq i64 %404, %297
  br i1 %405, label %406, label %382, !llvm.loop !25

406:                                              ; preds = %382, %378
  %407 = phi ptr [ %379, %378 ], [ %402, %382 ]
  %408 = phi i64 [ 0, %378 ], [ %403, %382 ]
  br i1 %298, label %416, label %409

409:                                              ; preds = %406
  %410 = shl nsw i64 %408, 4
  %411 = getelementptr inbounds i8, ptr %381, i64 %410
  %412 = load i64, ptr %411, align 8, !tbaa !13
  %413 = inttoptr i64 %412 to ptr
  %414 = getelementptr inbounds i8, ptr %411, i64 8
  %415 = load i64, ptr %414, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %407, ptr align 1 %413, i64 %415, i1 false)
  br label %416

416:                                              ; preds = %409, %406, %373, %363, %358
  %417 = phi ptr [ %359, %363 ], [ %359, %358 ], [ %374, %373 ], [ %374, %406 ], [ %374, %409 ]
  %418 = phi ptr [ %360, %363 ], [ %360, %358 ], [ %374, %373 ], [ %374, %406 ], [ %374, %409 ]
  %419 = phi i64 [ %361, %363 ], [ %361, %358 ], [ %375, %373 ], [ %375, %406 ], [ %375, %409 ]
  tail call void %6(ptr noundef %1, ptr noundef %7, i64 noundef 1) #8
  %420 = load i8, ptr %294, align 1, !tbaa !27
  %421 = icmp eq i8 %420, 0
  %422 = add nuw nsw i64 %362, 1
  br i1 %421, label %423, label %358

423:                                              ; preds = %228, %416, %354, %121, %299, %226
  %424 = phi i64 [ %227, %226 ], [ 0, %299 ], [ 0, %121 ], [ %0, %354 ], [ %422, %416 ], [ %230, %228 ]
  store i64 %424, ptr %11, align 8, !tbaa !31
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
  %46 = load i64, ptr %26, align 8, !tbaa !30
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
  br i1 %5, label %6, label %226

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

22:                                               ; preds = %6, %224
  %23 = phi i64 [ %2, %6 ], [ %147, %224 ]
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
  %43 = load i64, ptr %15, align 8, !tbaa !30
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
  br label %226

61:                                               ; preds = %22
  br i1 %7, label %62, label %110

62:                                               ; preds = %61, %102
  %63 = phi i64 [ %64, %102 ], [ %2, %61 ]
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
  %82 = load i64, ptr %15, align 8, !tbaa !30
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
  br i1 %96, label %102, label %98

98:                                               ; preds = %95
  %99 = load ptr, ptr %16, align 8, !tbaa !44
  %100 = load ptr, ptr %11, align 8, !tbaa !41
  %101 = load ptr, ptr %17, align 8, !tbaa !43
  tail call void %99(ptr noundef %100, ptr noundef %101, i64 noundef %64) #8
  br label %102

102:                                              ; preds = %95, %98
  %103 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %104 = add nsw i64 %103, %64
  store i64 %104, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  store i64 -1, ptr %10, align 8, !tbaa !46
  %105 = load ptr, ptr %20, align 8, !tbaa !45
  %106 = load ptr, ptr %11, align 8, !tbaa !41
  %107 = load ptr, ptr %21, align 8, !tbaa !42
  %108 = load ptr, ptr %17, align 8, !tbaa !43
  tail call void %105(ptr noundef %106, ptr noundef %107, ptr noundef %108) #8
  %109 = icmp sgt i64 %63, 1
  br i1 %109, label %62, label %226, !llvm.loop !51

110:                                              ; preds = %61
  %111 = uitofp nneg i64 %23 to double
  br label %112

112:                                              ; preds = %112, %110
  %113 = phi double [ 1.000000e+00, %110 ], [ %120, %112 ]
  %114 = phi i64 [ 0, %110 ], [ %118, %112 ]
  %115 = add i64 %8, %114
  %116 = sitofp i64 %115 to double
  %117 = fmul double %113, %116
  %118 = add nuw nsw i64 %114, 1
  %119 = uitofp nneg i64 %118 to double
  %120 = fdiv double %117, %119
  %121 = fcmp olt double %120, %111
  br i1 %121, label %112, label %122, !llvm.loop !48

122:                                              ; preds = %112
  %123 = fmul double %120, %9
  %124 = add nsw i64 %118, %3
  %125 = sitofp i64 %124 to double
  %126 = fdiv double %123, %125
  %127 = fadd double %126, 5.000000e-01
  %128 = fptosi double %127 to i64
  %129 = sub nsw i64 %23, %128
  %130 = icmp eq i64 %114, 0
  br i1 %130, label %141, label %131

131:                                              ; preds = %122
  %132 = fmul double %120, %119
  %133 = fdiv double %132, %125
  %134 = uitofp nneg i64 %114 to double
  %135 = fmul double %133, %134
  %136 = add i64 %114, %3
  %137 = sitofp i64 %136 to double
  %138 = fdiv double %135, %137
  %139 = fadd double %138, 5.000000e-01
  %140 = fptosi double %139 to i64
  br label %141

141:                                              ; preds = %122, %131
  %142 = phi i64 [ %140, %131 ], [ 0, %122 ]
  %143 = tail call i64 @llvm.smax.i64(i64 %142, i64 %129)
  %144 = tail call i64 @llvm.smax.i64(i64 %143, i64 1)
  %145 = icmp slt i64 %144, %23
  %146 = add nsw i64 %23, -1
  %147 = select i1 %145, i64 %144, i64 %146
  %148 = load i64, ptr %10, align 8, !tbaa !46
  %149 = icmp eq i64 %148, %1
  br i1 %149, label %178, label %150

150:                                              ; preds = %141
  %151 = load ptr, ptr %11, align 8, !tbaa !41
  %152 = load ptr, ptr %12, align 8, !tbaa !40
  %153 = load i64, ptr %13, align 8, !tbaa !38
  %154 = mul nsw i64 %153, %1
  %155 = getelementptr inbounds i8, ptr %152, i64 %154
  %156 = load i64, ptr %0, align 8, !tbaa !33
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %151, ptr readonly align 1 %155, i64 %156, i1 false)
  %157 = load i64, ptr %14, align 8, !tbaa !34
  %158 = icmp sgt i64 %157, 0
  br i1 %158, label %159, label %178

159:                                              ; preds = %150
  %160 = load i64, ptr %0, align 8, !tbaa !33
  %161 = getelementptr inbounds i8, ptr %155, i64 %160
  br label %162

162:                                              ; preds = %162, %159
  %163 = phi ptr [ %161, %159 ], [ %174, %162 ]
  %164 = phi i64 [ 0, %159 ], [ %175, %162 ]
  %165 = load i64, ptr %15, align 8, !tbaa !30
  %166 = getelementptr inbounds i8, ptr %151, i64 %165
  %167 = shl nsw i64 %164, 4
  %168 = getelementptr inbounds i8, ptr %166, i64 %167
  %169 = load i64, ptr %168, align 8, !tbaa !13
  %170 = inttoptr i64 %169 to ptr
  %171 = getelementptr inbounds i8, ptr %168, i64 8
  %172 = load i64, ptr %171, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %170, ptr align 1 %163, i64 %172, i1 false)
  %173 = load i64, ptr %171, align 8, !tbaa !13
  %174 = getelementptr inbounds i8, ptr %163, i64 %173
  %175 = add nuw nsw i64 %164, 1
  %176 = load i64, ptr %14, align 8, !tbaa !34
  %177 = icmp slt i64 %175, %176
  br i1 %177, label %162, label %178, !llvm.loop !35

178:                                              ; preds = %162, %150, %141
  %179 = icmp eq i64 %147, 0
  %180 = select i1 %179, i64 %1, i64 -1
  store i64 %180, ptr %10, align 8, !tbaa !46
  br i1 %179, label %185, label %181

181:                                              ; preds = %178
  %182 = load ptr, ptr %16, align 8, !tbaa !44
  %183 = load ptr, ptr %11, align 8, !tbaa !41
  %184 = load ptr, ptr %17, align 8, !tbaa !43
  tail call void %182(ptr noundef %183, ptr noundef %184, i64 noundef %147) #8
  br label %185

185:                                              ; preds = %178, %181
  %186 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %187 = add nsw i64 %186, %147
  store i64 %187, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %188 = sub nsw i64 %23, %147
  %189 = icmp eq i64 %188, 1
  br i1 %189, label %190, label %195

190:                                              ; preds = %185
  store i64 -1, ptr %10, align 8, !tbaa !46
  %191 = load ptr, ptr %20, align 8, !tbaa !45
  %192 = load ptr, ptr %11, align 8, !tbaa !41
  %193 = load ptr, ptr %21, align 8, !tbaa !42
  %194 = load ptr, ptr %17, align 8, !tbaa !43
  tail call void %191(ptr noundef %192, ptr noundef %193, ptr noundef %194) #8
  br label %224

195:                                              ; preds = %185
  %196 = load ptr, ptr %12, align 8, !tbaa !40
  %197 = load i64, ptr %13, align 8, !tbaa !38
  %198 = mul nsw i64 %197, %18
  %199 = getelementptr inbounds i8, ptr %196, i64 %198
  %200 = load ptr, ptr %11, align 8, !tbaa !41
  %201 = load i64, ptr %0, align 8, !tbaa !33
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %199, ptr readonly align 1 %200, i64 %201, i1 false)
  %202 = load i64, ptr %14, align 8, !tbaa !34
  %203 = icmp sgt i64 %202, 0
  br i1 %203, label %204, label %223

204:                                              ; preds = %195
  %205 = load i64, ptr %0, align 8, !tbaa !33
  %206 = getelementptr inbounds i8, ptr %199, i64 %205
  br label %207

207:                                              ; preds = %207, %204
  %208 = phi ptr [ %206, %204 ], [ %219, %207 ]
  %209 = phi i64 [ 0, %204 ], [ %220, %207 ]
  %210 = load i64, ptr %15, align 8, !tbaa !30
  %211 = getelementptr inbounds i8, ptr %200, i64 %210
  %212 = shl nsw i64 %209, 4
  %213 = getelementptr inbounds i8, ptr %211, i64 %212
  %214 = load i64, ptr %213, align 8, !tbaa !13
  %215 = inttoptr i64 %214 to ptr
  %216 = getelementptr inbounds i8, ptr %213, i64 8
  %217 = load i64, ptr %216, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %208, ptr align 1 %215, i64 %217, i1 false)
  %218 = load i64, ptr %216, align 8, !tbaa !13
  %219 = getelementptr inbounds i8, ptr %208, i64 %218
  %220 = add nuw nsw i64 %209, 1
  %221 = load i64, ptr %14, align 8, !tbaa !34
  %222 = icmp slt i64 %220, %221
  br i1 %222, label %207, label %223, !llvm.loop !25

223:                                              ; preds = %207, %195
  store i64 %18, ptr %10, align 8, !tbaa !46
  tail call fastcc void @xz_revolve(ptr noundef nonnull %0, i64 noundef %18, i64 noundef %188, i64 noundef %19)
  br label %224

224:                                              ; preds = %223, %190
  %225 = icmp sgt i64 %147, 0
  br i1 %225, label %22, label %226, !llvm.loop !52

226:                                              ; preds = %224, %102, %4, %56
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
!29 = distinct !{!29, !18}
!30 = !{!10, !7, i64 16}
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
