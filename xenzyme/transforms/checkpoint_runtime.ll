; ModuleID = 'xenzyme/transforms/checkpoint_runtime.c'
source_filename = "xenzyme/transforms/checkpoint_runtime.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.xz_run = type { %struct.xz_layout, i64, ptr, ptr, ptr, ptr, ptr, ptr }
%struct.xz_layout = type { i64, i64, i64, i64 }

@__xenzyme_checkpoint_steps = weak dso_local local_unnamed_addr global i64 0, align 8
@__xenzyme_checkpoint_snapshots = weak dso_local local_unnamed_addr global i64 0, align 8

; Function Attrs: nounwind uwtable
define dso_local noundef ptr @__xenzyme_checkpoint_forward(i64 noundef %0, ptr noundef %1, i64 noundef %2, i64 noundef %3, i64 noundef %4, i64 noundef %5, ptr nocapture noundef readonly %6, ptr noundef %7, i64 noundef %8, i64 noundef %9) local_unnamed_addr #0 {
  %11 = tail call noalias dereferenceable_or_null(64) ptr @malloc(i64 noundef 64) #7
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
  br i1 %64, label %65, label %69

65:                                               ; preds = %59
  store i64 0, ptr %12, align 8, !tbaa !5
  %66 = sdiv i64 %9, %60
  %67 = tail call i64 @llvm.smax.i64(i64 %66, i64 1)
  store i64 %67, ptr %13, align 8, !tbaa !12
  %68 = icmp slt i64 %0, 0
  br label %77

69:                                               ; preds = %59
  %70 = icmp eq i64 %8, 0
  %71 = icmp slt i64 %0, 0
  %72 = or i1 %71, %70
  br i1 %72, label %77, label %73

73:                                               ; preds = %69
  %74 = add nsw i64 %0, -1
  %75 = add i64 %74, %9
  %76 = sdiv i64 %75, %9
  br label %77

77:                                               ; preds = %65, %69, %73
  %78 = phi i1 [ false, %73 ], [ %71, %69 ], [ %68, %65 ]
  %79 = phi i64 [ %8, %73 ], [ %8, %69 ], [ 0, %65 ]
  %80 = phi i64 [ %9, %73 ], [ %9, %69 ], [ %67, %65 ]
  %81 = phi i64 [ %76, %73 ], [ 1, %69 ], [ 1, %65 ]
  %82 = tail call i64 @llvm.smax.i64(i64 %81, i64 1)
  %83 = mul nsw i64 %82, %60
  %84 = tail call noalias ptr @malloc(i64 noundef %83) #7
  %85 = getelementptr inbounds i8, ptr %11, i64 56
  store ptr %84, ptr %85, align 8, !tbaa !22
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %84, ptr readonly align 1 %1, i64 %2, i1 false)
  br i1 %15, label %86, label %127

86:                                               ; preds = %77
  %87 = getelementptr inbounds i8, ptr %84, i64 %2
  %88 = getelementptr inbounds i8, ptr %1, i64 %4
  %89 = and i64 %3, 1
  %90 = icmp eq i64 %3, 1
  br i1 %90, label %117, label %91

91:                                               ; preds = %86
  %92 = and i64 %3, 9223372036854775806
  br label %93

93:                                               ; preds = %93, %91
  %94 = phi ptr [ %87, %91 ], [ %111, %93 ]
  %95 = phi i64 [ 0, %91 ], [ %112, %93 ]
  %96 = phi i64 [ 0, %91 ], [ %113, %93 ]
  %97 = shl nsw i64 %95, 4
  %98 = getelementptr inbounds i8, ptr %88, i64 %97
  %99 = load i64, ptr %98, align 8, !tbaa !13
  %100 = inttoptr i64 %99 to ptr
  %101 = getelementptr inbounds i8, ptr %98, i64 8
  %102 = load i64, ptr %101, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %94, ptr align 1 %100, i64 %102, i1 false)
  %103 = getelementptr inbounds i8, ptr %94, i64 %102
  %104 = shl i64 %95, 4
  %105 = or disjoint i64 %104, 16
  %106 = getelementptr inbounds i8, ptr %88, i64 %105
  %107 = load i64, ptr %106, align 8, !tbaa !13
  %108 = inttoptr i64 %107 to ptr
  %109 = getelementptr inbounds i8, ptr %106, i64 8
  %110 = load i64, ptr %109, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %103, ptr align 1 %108, i64 %110, i1 false)
  %111 = getelementptr inbounds i8, ptr %103, i64 %110
  %112 = add nuw nsw i64 %95, 2
  %113 = add i64 %96, 2
  %114 = icmp eq i64 %113, %92
  br i1 %114, label %115, label %93, !llvm.loop !23

115:                                              ; preds = %93
  %116 = shl nsw i64 %112, 4
  br label %117

117:                                              ; preds = %115, %86
  %118 = phi ptr [ %87, %86 ], [ %111, %115 ]
  %119 = phi i64 [ 0, %86 ], [ %116, %115 ]
  %120 = icmp eq i64 %89, 0
  br i1 %120, label %127, label %121

121:                                              ; preds = %117
  %122 = getelementptr inbounds i8, ptr %88, i64 %119
  %123 = load i64, ptr %122, align 8, !tbaa !13
  %124 = inttoptr i64 %123 to ptr
  %125 = getelementptr inbounds i8, ptr %122, i64 8
  %126 = load i64, ptr %125, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %118, ptr align 1 %124, i64 %126, i1 false)
  br label %127

127:                                              ; preds = %121, %117, %77
  %128 = icmp sgt i64 %0, 0
  %129 = or i1 %78, %128
  br i1 %129, label %130, label %208

130:                                              ; preds = %127
  %131 = icmp eq i64 %79, 1
  %132 = getelementptr inbounds i8, ptr %1, i64 %5
  %133 = and i64 %3, 1
  %134 = icmp eq i64 %3, 1
  %135 = and i64 %3, 9223372036854775806
  %136 = icmp eq i64 %133, 0
  br label %137

137:                                              ; preds = %130, %204
  %138 = phi ptr [ %84, %130 ], [ %196, %204 ]
  %139 = phi ptr [ %84, %130 ], [ %197, %204 ]
  %140 = phi i64 [ 0, %130 ], [ %205, %204 ]
  %141 = phi i64 [ %82, %130 ], [ %198, %204 ]
  br i1 %131, label %142, label %195

142:                                              ; preds = %137
  %143 = srem i64 %140, %80
  %144 = sdiv i64 %140, %80
  %145 = icmp eq i64 %143, 0
  br i1 %145, label %146, label %195

146:                                              ; preds = %142
  %147 = icmp slt i64 %144, %141
  br i1 %147, label %152, label %148

148:                                              ; preds = %146
  %149 = shl nsw i64 %141, 1
  %150 = mul nsw i64 %149, %60
  %151 = tail call ptr @realloc(ptr noundef %139, i64 noundef %150) #8
  store ptr %151, ptr %85, align 8, !tbaa !22
  br label %152

152:                                              ; preds = %148, %146
  %153 = phi ptr [ %151, %148 ], [ %138, %146 ]
  %154 = phi i64 [ %149, %148 ], [ %141, %146 ]
  %155 = mul nsw i64 %144, %60
  %156 = getelementptr inbounds i8, ptr %153, i64 %155
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %156, ptr readonly align 1 %1, i64 %2, i1 false)
  br i1 %15, label %157, label %195

157:                                              ; preds = %152
  %158 = getelementptr inbounds i8, ptr %156, i64 %2
  %159 = load i64, ptr %62, align 8, !tbaa !24
  %160 = getelementptr inbounds i8, ptr %1, i64 %159
  br i1 %134, label %185, label %161

161:                                              ; preds = %157, %161
  %162 = phi ptr [ %181, %161 ], [ %158, %157 ]
  %163 = phi i64 [ %182, %161 ], [ 0, %157 ]
  %164 = phi i64 [ %183, %161 ], [ 0, %157 ]
  %165 = shl nsw i64 %163, 4
  %166 = getelementptr inbounds i8, ptr %160, i64 %165
  %167 = load i64, ptr %166, align 8, !tbaa !13
  %168 = inttoptr i64 %167 to ptr
  %169 = getelementptr inbounds i8, ptr %166, i64 8
  %170 = load i64, ptr %169, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %162, ptr align 1 %168, i64 %170, i1 false)
  %171 = load i64, ptr %169, align 8, !tbaa !13
  %172 = getelementptr inbounds i8, ptr %162, i64 %171
  %173 = shl i64 %163, 4
  %174 = or disjoint i64 %173, 16
  %175 = getelementptr inbounds i8, ptr %160, i64 %174
  %176 = load i64, ptr %175, align 8, !tbaa !13
  %177 = inttoptr i64 %176 to ptr
  %178 = getelementptr inbounds i8, ptr %175, i64 8
  %179 = load i64, ptr %178, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %172, ptr align 1 %177, i64 %179, i1 false)
  %180 = load i64, ptr %178, align 8, !tbaa !13
  %181 = getelementptr inbounds i8, ptr %172, i64 %180
  %182 = add nuw nsw i64 %163, 2
  %183 = add i64 %164, 2
  %184 = icmp eq i64 %183, %135
  br i1 %184, label %185, label %161, !llvm.loop !23

185:                                              ; preds = %161, %157
  %186 = phi ptr [ %158, %157 ], [ %181, %161 ]
  %187 = phi i64 [ 0, %157 ], [ %182, %161 ]
  br i1 %136, label %195, label %188

188:                                              ; preds = %185
  %189 = shl nsw i64 %187, 4
  %190 = getelementptr inbounds i8, ptr %160, i64 %189
  %191 = load i64, ptr %190, align 8, !tbaa !13
  %192 = inttoptr i64 %191 to ptr
  %193 = getelementptr inbounds i8, ptr %190, i64 8
  %194 = load i64, ptr %193, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %186, ptr align 1 %192, i64 %194, i1 false)
  br label %195

195:                                              ; preds = %188, %185, %152, %142, %137
  %196 = phi ptr [ %138, %142 ], [ %138, %137 ], [ %153, %152 ], [ %153, %185 ], [ %153, %188 ]
  %197 = phi ptr [ %139, %142 ], [ %139, %137 ], [ %153, %152 ], [ %153, %185 ], [ %153, %188 ]
  %198 = phi i64 [ %141, %142 ], [ %141, %137 ], [ %154, %152 ], [ %154, %185 ], [ %154, %188 ]
  tail call void %6(ptr noundef %1, ptr noundef %7) #9
  br i1 %78, label %199, label %204

199:                                              ; preds = %195
  %200 = load i8, ptr %132, align 1, !tbaa !25
  %201 = icmp eq i8 %200, 0
  br i1 %201, label %202, label %204

202:                                              ; preds = %199
  %203 = add nuw nsw i64 %140, 1
  br label %208

204:                                              ; preds = %195, %199
  %205 = add nuw nsw i64 %140, 1
  %206 = icmp slt i64 %205, %0
  %207 = select i1 %78, i1 true, i1 %206
  br i1 %207, label %137, label %208, !llvm.loop !26

208:                                              ; preds = %204, %127, %202
  %209 = phi i64 [ %203, %202 ], [ 0, %127 ], [ %205, %204 ]
  store i64 %209, ptr %11, align 8, !tbaa !27
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
  %9 = load i64, ptr %0, align 8, !tbaa !27
  %10 = getelementptr inbounds i8, ptr %0, i64 24
  %11 = getelementptr inbounds i8, ptr %0, i64 48
  %12 = load i64, ptr %11, align 8, !tbaa !28
  %13 = getelementptr inbounds i8, ptr %0, i64 8
  %14 = load i64, ptr %13, align 8, !tbaa !5
  %15 = icmp eq i64 %14, 1
  br i1 %15, label %16, label %63

16:                                               ; preds = %7
  %17 = getelementptr inbounds i8, ptr %0, i64 16
  %18 = load i64, ptr %17, align 8, !tbaa !12
  %19 = add i64 %9, -1
  %20 = add i64 %19, %18
  %21 = sdiv i64 %20, %18
  %22 = icmp sgt i64 %21, 0
  br i1 %22, label %23, label %80

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
  %32 = sub nsw i64 %9, %31
  %33 = tail call i64 @llvm.smin.i64(i64 %32, i64 %30)
  %34 = load ptr, ptr %24, align 8, !tbaa !22
  %35 = mul nsw i64 %29, %12
  %36 = getelementptr inbounds i8, ptr %34, i64 %35
  %37 = load i64, ptr %10, align 8, !tbaa !29
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %1, ptr readonly align 1 %36, i64 %37, i1 false)
  %38 = load i64, ptr %25, align 8, !tbaa !30
  %39 = icmp sgt i64 %38, 0
  br i1 %39, label %40, label %59

40:                                               ; preds = %27
  %41 = load i64, ptr %10, align 8, !tbaa !29
  %42 = getelementptr inbounds i8, ptr %36, i64 %41
  br label %43

43:                                               ; preds = %43, %40
  %44 = phi ptr [ %42, %40 ], [ %55, %43 ]
  %45 = phi i64 [ 0, %40 ], [ %56, %43 ]
  %46 = load i64, ptr %26, align 8, !tbaa !24
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
  %57 = load i64, ptr %25, align 8, !tbaa !30
  %58 = icmp slt i64 %56, %57
  br i1 %58, label %43, label %59, !llvm.loop !31

59:                                               ; preds = %43, %27
  %60 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %61 = add nsw i64 %60, %33
  store i64 %61, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  tail call void %5(i64 noundef %33, ptr noundef %1, ptr noundef %2, ptr noundef %6) #9
  %62 = icmp sgt i64 %28, 1
  br i1 %62, label %27, label %80, !llvm.loop !32

63:                                               ; preds = %7
  %64 = icmp sgt i64 %9, 0
  br i1 %64, label %65, label %80

65:                                               ; preds = %63
  %66 = getelementptr inbounds i8, ptr %0, i64 16
  %67 = load i64, ptr %66, align 8, !tbaa !12
  %68 = tail call i64 @llvm.smin.i64(i64 %67, i64 %9)
  store i64 %68, ptr @__xenzyme_checkpoint_snapshots, align 8, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 88, ptr nonnull %8) #9
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(32) %8, ptr noundef nonnull align 8 dereferenceable(32) %10, i64 32, i1 false), !tbaa.struct !33
  %69 = getelementptr inbounds i8, ptr %8, i64 32
  store i64 %12, ptr %69, align 8, !tbaa !34
  %70 = getelementptr inbounds i8, ptr %8, i64 40
  %71 = mul nsw i64 %68, %12
  %72 = tail call noalias ptr @malloc(i64 noundef %71) #7
  store ptr %72, ptr %70, align 8, !tbaa !36
  %73 = getelementptr inbounds i8, ptr %8, i64 48
  store ptr %1, ptr %73, align 8, !tbaa !37
  %74 = getelementptr inbounds i8, ptr %8, i64 56
  store ptr %2, ptr %74, align 8, !tbaa !38
  %75 = getelementptr inbounds i8, ptr %8, i64 64
  store ptr %6, ptr %75, align 8, !tbaa !39
  %76 = getelementptr inbounds i8, ptr %8, i64 72
  store ptr %3, ptr %76, align 8, !tbaa !40
  %77 = getelementptr inbounds i8, ptr %8, i64 80
  store ptr %4, ptr %77, align 8, !tbaa !41
  %78 = getelementptr inbounds i8, ptr %0, i64 56
  %79 = load ptr, ptr %78, align 8, !tbaa !22
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %72, ptr align 1 %79, i64 %12, i1 false)
  call fastcc void @xz_revolve(ptr noundef nonnull %8, i64 noundef 0, i64 noundef %9, i64 noundef %68)
  tail call void @free(ptr noundef %72) #9
  call void @llvm.lifetime.end.p0(i64 88, ptr nonnull %8) #9
  br label %80

80:                                               ; preds = %59, %16, %63, %65
  %81 = getelementptr inbounds i8, ptr %0, i64 56
  %82 = load ptr, ptr %81, align 8, !tbaa !22
  tail call void @free(ptr noundef %82) #9
  tail call void @free(ptr noundef nonnull %0) #9
  ret void
}

; Function Attrs: nounwind uwtable
define internal fastcc void @xz_revolve(ptr nocapture noundef readonly %0, i64 noundef %1, i64 noundef %2, i64 noundef %3) unnamed_addr #0 {
  %5 = icmp sgt i64 %2, 0
  br i1 %5, label %6, label %263

6:                                                ; preds = %4
  %7 = icmp eq i64 %3, 1
  %8 = icmp slt i64 %3, 1
  %9 = add nsw i64 %3, -1
  %10 = icmp slt i64 %3, 2
  %11 = getelementptr inbounds i8, ptr %0, i64 48
  %12 = getelementptr inbounds i8, ptr %0, i64 40
  %13 = getelementptr inbounds i8, ptr %0, i64 32
  %14 = getelementptr inbounds i8, ptr %0, i64 8
  %15 = getelementptr inbounds i8, ptr %0, i64 16
  %16 = getelementptr inbounds i8, ptr %0, i64 72
  %17 = getelementptr inbounds i8, ptr %0, i64 64
  %18 = add nsw i64 %1, 1
  br label %19

19:                                               ; preds = %6, %261
  %20 = phi i64 [ %2, %6 ], [ %194, %261 ]
  %21 = icmp eq i64 %20, 1
  br i1 %21, label %22, label %57

22:                                               ; preds = %19
  %23 = load ptr, ptr %11, align 8, !tbaa !37
  %24 = load ptr, ptr %12, align 8, !tbaa !36
  %25 = load i64, ptr %13, align 8, !tbaa !34
  %26 = mul nsw i64 %25, %1
  %27 = getelementptr inbounds i8, ptr %24, i64 %26
  %28 = load i64, ptr %0, align 8, !tbaa !29
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %23, ptr readonly align 1 %27, i64 %28, i1 false)
  %29 = load i64, ptr %14, align 8, !tbaa !30
  %30 = icmp sgt i64 %29, 0
  br i1 %30, label %31, label %50

31:                                               ; preds = %22
  %32 = load i64, ptr %0, align 8, !tbaa !29
  %33 = getelementptr inbounds i8, ptr %27, i64 %32
  br label %34

34:                                               ; preds = %34, %31
  %35 = phi ptr [ %33, %31 ], [ %46, %34 ]
  %36 = phi i64 [ 0, %31 ], [ %47, %34 ]
  %37 = load i64, ptr %15, align 8, !tbaa !24
  %38 = getelementptr inbounds i8, ptr %23, i64 %37
  %39 = shl nsw i64 %36, 4
  %40 = getelementptr inbounds i8, ptr %38, i64 %39
  %41 = load i64, ptr %40, align 8, !tbaa !13
  %42 = inttoptr i64 %41 to ptr
  %43 = getelementptr inbounds i8, ptr %40, i64 8
  %44 = load i64, ptr %43, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %42, ptr align 1 %35, i64 %44, i1 false)
  %45 = load i64, ptr %43, align 8, !tbaa !13
  %46 = getelementptr inbounds i8, ptr %35, i64 %45
  %47 = add nuw nsw i64 %36, 1
  %48 = load i64, ptr %14, align 8, !tbaa !30
  %49 = icmp slt i64 %47, %48
  br i1 %49, label %34, label %50, !llvm.loop !31

50:                                               ; preds = %34, %22
  %51 = getelementptr inbounds i8, ptr %0, i64 80
  %52 = load ptr, ptr %51, align 8, !tbaa !41
  %53 = load ptr, ptr %11, align 8, !tbaa !37
  %54 = getelementptr inbounds i8, ptr %0, i64 56
  %55 = load ptr, ptr %54, align 8, !tbaa !38
  %56 = load ptr, ptr %17, align 8, !tbaa !39
  tail call void %52(ptr noundef %53, ptr noundef %55, ptr noundef %56) #9
  br label %263

57:                                               ; preds = %19
  br i1 %7, label %58, label %108

58:                                               ; preds = %57
  %59 = getelementptr inbounds i8, ptr %0, i64 80
  %60 = getelementptr inbounds i8, ptr %0, i64 56
  br label %61

61:                                               ; preds = %58, %100
  %62 = phi i64 [ %2, %58 ], [ %63, %100 ]
  %63 = add nsw i64 %62, -1
  %64 = load ptr, ptr %11, align 8, !tbaa !37
  %65 = load ptr, ptr %12, align 8, !tbaa !36
  %66 = load i64, ptr %13, align 8, !tbaa !34
  %67 = mul nsw i64 %66, %1
  %68 = getelementptr inbounds i8, ptr %65, i64 %67
  %69 = load i64, ptr %0, align 8, !tbaa !29
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %64, ptr readonly align 1 %68, i64 %69, i1 false)
  %70 = load i64, ptr %14, align 8, !tbaa !30
  %71 = icmp sgt i64 %70, 0
  br i1 %71, label %72, label %91

72:                                               ; preds = %61
  %73 = load i64, ptr %0, align 8, !tbaa !29
  %74 = getelementptr inbounds i8, ptr %68, i64 %73
  br label %75

75:                                               ; preds = %75, %72
  %76 = phi ptr [ %74, %72 ], [ %87, %75 ]
  %77 = phi i64 [ 0, %72 ], [ %88, %75 ]
  %78 = load i64, ptr %15, align 8, !tbaa !24
  %79 = getelementptr inbounds i8, ptr %64, i64 %78
  %80 = shl nsw i64 %77, 4
  %81 = getelementptr inbounds i8, ptr %79, i64 %80
  %82 = load i64, ptr %81, align 8, !tbaa !13
  %83 = inttoptr i64 %82 to ptr
  %84 = getelementptr inbounds i8, ptr %81, i64 8
  %85 = load i64, ptr %84, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %83, ptr align 1 %76, i64 %85, i1 false)
  %86 = load i64, ptr %84, align 8, !tbaa !13
  %87 = getelementptr inbounds i8, ptr %76, i64 %86
  %88 = add nuw nsw i64 %77, 1
  %89 = load i64, ptr %14, align 8, !tbaa !30
  %90 = icmp slt i64 %88, %89
  br i1 %90, label %75, label %91, !llvm.loop !31

91:                                               ; preds = %75, %61
  %92 = icmp eq i64 %62, 1
  br i1 %92, label %100, label %93

93:                                               ; preds = %91, %93
  %94 = phi i64 [ %98, %93 ], [ 0, %91 ]
  %95 = load ptr, ptr %16, align 8, !tbaa !40
  %96 = load ptr, ptr %11, align 8, !tbaa !37
  %97 = load ptr, ptr %17, align 8, !tbaa !39
  tail call void %95(ptr noundef %96, ptr noundef %97) #9
  %98 = add nuw nsw i64 %94, 1
  %99 = icmp eq i64 %98, %63
  br i1 %99, label %100, label %93, !llvm.loop !42

100:                                              ; preds = %93, %91
  %101 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %102 = add nsw i64 %101, %63
  store i64 %102, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %103 = load ptr, ptr %59, align 8, !tbaa !41
  %104 = load ptr, ptr %11, align 8, !tbaa !37
  %105 = load ptr, ptr %60, align 8, !tbaa !38
  %106 = load ptr, ptr %17, align 8, !tbaa !39
  tail call void %103(ptr noundef %104, ptr noundef %105, ptr noundef %106) #9
  %107 = icmp sgt i64 %62, 1
  br i1 %107, label %61, label %263, !llvm.loop !43

108:                                              ; preds = %57, %132
  %109 = phi i64 [ %110, %132 ], [ 0, %57 ]
  %110 = add nuw nsw i64 %109, 1
  br i1 %8, label %132, label %111

111:                                              ; preds = %108
  %112 = uitofp nneg i64 %110 to double
  %113 = fcmp ogt double %112, 4.000000e+18
  br i1 %113, label %132, label %114

114:                                              ; preds = %111, %118
  %115 = phi double [ %124, %118 ], [ %112, %111 ]
  %116 = phi i64 [ %119, %118 ], [ 1, %111 ]
  %117 = icmp eq i64 %116, %3
  br i1 %117, label %126, label %118, !llvm.loop !44

118:                                              ; preds = %114
  %119 = add i64 %116, 1
  %120 = add nuw nsw i64 %119, %109
  %121 = sitofp i64 %120 to double
  %122 = fmul double %115, %121
  %123 = uitofp nneg i64 %119 to double
  %124 = fdiv double %122, %123
  %125 = fcmp ogt double %124, 4.000000e+18
  br i1 %125, label %126, label %114, !llvm.loop !44

126:                                              ; preds = %114, %118
  %127 = phi double [ %115, %114 ], [ %124, %118 ]
  %128 = icmp slt i64 %116, %3
  %129 = fadd double %127, 5.000000e-01
  %130 = fptosi double %129 to i64
  %131 = select i1 %128, i64 4000000000000000000, i64 %130
  br label %132

132:                                              ; preds = %126, %108, %111
  %133 = phi i64 [ 4000000000000000000, %111 ], [ 1, %108 ], [ %131, %126 ]
  %134 = icmp slt i64 %133, %20
  br i1 %134, label %108, label %135, !llvm.loop !45

135:                                              ; preds = %132
  br i1 %10, label %158, label %136

136:                                              ; preds = %135
  %137 = uitofp nneg i64 %110 to double
  %138 = fcmp ogt double %137, 4.000000e+18
  br i1 %138, label %158, label %139

139:                                              ; preds = %136, %143
  %140 = phi double [ %149, %143 ], [ %137, %136 ]
  %141 = phi i64 [ %144, %143 ], [ 1, %136 ]
  %142 = icmp eq i64 %141, %9
  br i1 %142, label %151, label %143, !llvm.loop !44

143:                                              ; preds = %139
  %144 = add nuw nsw i64 %141, 1
  %145 = add nuw nsw i64 %144, %109
  %146 = uitofp nneg i64 %145 to double
  %147 = fmul double %140, %146
  %148 = uitofp nneg i64 %144 to double
  %149 = fdiv double %147, %148
  %150 = fcmp ogt double %149, 4.000000e+18
  br i1 %150, label %151, label %139, !llvm.loop !44

151:                                              ; preds = %139, %143
  %152 = phi double [ %140, %139 ], [ %149, %143 ]
  %153 = icmp sge i64 %141, %9
  %154 = fadd double %152, 5.000000e-01
  %155 = fptosi double %154 to i64
  %156 = freeze i1 %153
  %157 = select i1 %156, i64 %155, i64 4000000000000000000
  br label %158

158:                                              ; preds = %151, %136, %135
  %159 = phi i64 [ 1, %135 ], [ 4000000000000000000, %136 ], [ %157, %151 ]
  %160 = sub nsw i64 %20, %159
  %161 = add nsw i64 %109, -2
  %162 = icmp ult i64 %109, 2
  %163 = or i1 %8, %162
  %164 = xor i1 %162, true
  %165 = zext i1 %164 to i64
  br i1 %163, label %188, label %166

166:                                              ; preds = %158
  %167 = add nsw i64 %109, -1
  %168 = sitofp i64 %167 to double
  %169 = fcmp ogt double %168, 4.000000e+18
  br i1 %169, label %188, label %170

170:                                              ; preds = %166, %174
  %171 = phi double [ %180, %174 ], [ %168, %166 ]
  %172 = phi i64 [ %175, %174 ], [ 1, %166 ]
  %173 = icmp eq i64 %172, %3
  br i1 %173, label %182, label %174, !llvm.loop !44

174:                                              ; preds = %170
  %175 = add i64 %172, 1
  %176 = add nuw nsw i64 %161, %175
  %177 = sitofp i64 %176 to double
  %178 = fmul double %171, %177
  %179 = uitofp nneg i64 %175 to double
  %180 = fdiv double %178, %179
  %181 = fcmp ogt double %180, 4.000000e+18
  br i1 %181, label %182, label %170, !llvm.loop !44

182:                                              ; preds = %170, %174
  %183 = phi double [ %171, %170 ], [ %180, %174 ]
  %184 = icmp slt i64 %172, %3
  %185 = fadd double %183, 5.000000e-01
  %186 = fptosi double %185 to i64
  %187 = select i1 %184, i64 4000000000000000000, i64 %186
  br label %188

188:                                              ; preds = %182, %166, %158
  %189 = phi i64 [ %165, %158 ], [ 4000000000000000000, %166 ], [ %187, %182 ]
  %190 = tail call i64 @llvm.smax.i64(i64 %189, i64 %160)
  %191 = tail call i64 @llvm.smax.i64(i64 %190, i64 1)
  %192 = icmp slt i64 %191, %20
  %193 = add nsw i64 %20, -1
  %194 = select i1 %192, i64 %191, i64 %193
  %195 = load ptr, ptr %11, align 8, !tbaa !37
  %196 = load ptr, ptr %12, align 8, !tbaa !36
  %197 = load i64, ptr %13, align 8, !tbaa !34
  %198 = mul nsw i64 %197, %1
  %199 = getelementptr inbounds i8, ptr %196, i64 %198
  %200 = load i64, ptr %0, align 8, !tbaa !29
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %195, ptr readonly align 1 %199, i64 %200, i1 false)
  %201 = load i64, ptr %14, align 8, !tbaa !30
  %202 = icmp sgt i64 %201, 0
  br i1 %202, label %203, label %222

203:                                              ; preds = %188
  %204 = load i64, ptr %0, align 8, !tbaa !29
  %205 = getelementptr inbounds i8, ptr %199, i64 %204
  br label %206

206:                                              ; preds = %206, %203
  %207 = phi ptr [ %205, %203 ], [ %218, %206 ]
  %208 = phi i64 [ 0, %203 ], [ %219, %206 ]
  %209 = load i64, ptr %15, align 8, !tbaa !24
  %210 = getelementptr inbounds i8, ptr %195, i64 %209
  %211 = shl nsw i64 %208, 4
  %212 = getelementptr inbounds i8, ptr %210, i64 %211
  %213 = load i64, ptr %212, align 8, !tbaa !13
  %214 = inttoptr i64 %213 to ptr
  %215 = getelementptr inbounds i8, ptr %212, i64 8
  %216 = load i64, ptr %215, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %214, ptr align 1 %207, i64 %216, i1 false)
  %217 = load i64, ptr %215, align 8, !tbaa !13
  %218 = getelementptr inbounds i8, ptr %207, i64 %217
  %219 = add nuw nsw i64 %208, 1
  %220 = load i64, ptr %14, align 8, !tbaa !30
  %221 = icmp slt i64 %219, %220
  br i1 %221, label %206, label %222, !llvm.loop !31

222:                                              ; preds = %206, %188
  %223 = icmp sgt i64 %194, 0
  br i1 %223, label %224, label %231

224:                                              ; preds = %222, %224
  %225 = phi i64 [ %229, %224 ], [ 0, %222 ]
  %226 = load ptr, ptr %16, align 8, !tbaa !40
  %227 = load ptr, ptr %11, align 8, !tbaa !37
  %228 = load ptr, ptr %17, align 8, !tbaa !39
  tail call void %226(ptr noundef %227, ptr noundef %228) #9
  %229 = add nuw nsw i64 %225, 1
  %230 = icmp eq i64 %229, %194
  br i1 %230, label %231, label %224, !llvm.loop !42

231:                                              ; preds = %224, %222
  %232 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %233 = add nsw i64 %232, %194
  store i64 %233, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !13
  %234 = load ptr, ptr %12, align 8, !tbaa !36
  %235 = load i64, ptr %13, align 8, !tbaa !34
  %236 = mul nsw i64 %235, %18
  %237 = getelementptr inbounds i8, ptr %234, i64 %236
  %238 = load ptr, ptr %11, align 8, !tbaa !37
  %239 = load i64, ptr %0, align 8, !tbaa !29
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %237, ptr readonly align 1 %238, i64 %239, i1 false)
  %240 = load i64, ptr %14, align 8, !tbaa !30
  %241 = icmp sgt i64 %240, 0
  br i1 %241, label %242, label %261

242:                                              ; preds = %231
  %243 = load i64, ptr %0, align 8, !tbaa !29
  %244 = getelementptr inbounds i8, ptr %237, i64 %243
  br label %245

245:                                              ; preds = %245, %242
  %246 = phi ptr [ %244, %242 ], [ %257, %245 ]
  %247 = phi i64 [ 0, %242 ], [ %258, %245 ]
  %248 = load i64, ptr %15, align 8, !tbaa !24
  %249 = getelementptr inbounds i8, ptr %238, i64 %248
  %250 = shl nsw i64 %247, 4
  %251 = getelementptr inbounds i8, ptr %249, i64 %250
  %252 = load i64, ptr %251, align 8, !tbaa !13
  %253 = inttoptr i64 %252 to ptr
  %254 = getelementptr inbounds i8, ptr %251, i64 8
  %255 = load i64, ptr %254, align 8, !tbaa !13
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %246, ptr align 1 %253, i64 %255, i1 false)
  %256 = load i64, ptr %254, align 8, !tbaa !13
  %257 = getelementptr inbounds i8, ptr %246, i64 %256
  %258 = add nuw nsw i64 %247, 1
  %259 = load i64, ptr %14, align 8, !tbaa !30
  %260 = icmp slt i64 %258, %259
  br i1 %260, label %245, label %261, !llvm.loop !23

261:                                              ; preds = %245, %231
  %262 = sub nsw i64 %20, %194
  tail call fastcc void @xz_revolve(ptr noundef nonnull %0, i64 noundef %18, i64 noundef %262, i64 noundef %9)
  br i1 %223, label %19, label %263, !llvm.loop !46

263:                                              ; preds = %261, %100, %4, %50
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
attributes #8 = { nounwind allocsize(1) }
attributes #9 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{!6, !7, i64 8}
!6 = !{!"xz_tape", !7, i64 0, !7, i64 8, !7, i64 16, !10, i64 24, !11, i64 56}
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
!22 = !{!6, !11, i64 56}
!23 = distinct !{!23, !18}
!24 = !{!10, !7, i64 16}
!25 = !{!8, !8, i64 0}
!26 = distinct !{!26, !18}
!27 = !{!6, !7, i64 0}
!28 = !{!6, !7, i64 48}
!29 = !{!10, !7, i64 0}
!30 = !{!10, !7, i64 8}
!31 = distinct !{!31, !18}
!32 = distinct !{!32, !18}
!33 = !{i64 0, i64 8, !13, i64 8, i64 8, !13, i64 16, i64 8, !13, i64 24, i64 8, !13}
!34 = !{!35, !7, i64 32}
!35 = !{!"xz_run", !10, i64 0, !7, i64 32, !11, i64 40, !11, i64 48, !11, i64 56, !11, i64 64, !11, i64 72, !11, i64 80}
!36 = !{!35, !11, i64 40}
!37 = !{!35, !11, i64 48}
!38 = !{!35, !11, i64 56}
!39 = !{!35, !11, i64 64}
!40 = !{!35, !11, i64 72}
!41 = !{!35, !11, i64 80}
!42 = distinct !{!42, !18}
!43 = distinct !{!43, !18}
!44 = distinct !{!44, !18}
!45 = distinct !{!45, !18}
!46 = distinct !{!46, !18}
