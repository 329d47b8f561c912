; ModuleID = 'xenzyme/transforms/checkpoint_runtime.c'
source_filename = "xenzyme/transforms/checkpoint_runtime.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.xz_run = type { i64, ptr, ptr, ptr, ptr, ptr, ptr }

@__xenzyme_checkpoint_steps = weak dso_local local_unnamed_addr global i64 0, align 8

; Function Attrs: nounwind uwtable
define dso_local noundef ptr @__xenzyme_checkpoint_forward(i64 noundef %0, ptr noundef %1, i64 noundef %2, ptr nocapture noundef readonly %3, ptr noundef %4, i64 noundef %5, i64 noundef %6) local_unnamed_addr #0 {
  %8 = tail call noalias dereferenceable_or_null(40) ptr @malloc(i64 noundef 40) #6
  %9 = tail call i64 @llvm.smax.i64(i64 %0, i64 0)
  store i64 %9, ptr %8, align 8, !tbaa !5
  %10 = getelementptr inbounds i8, ptr %8, i64 8
  store i64 %2, ptr %10, align 8, !tbaa !11
  %11 = getelementptr inbounds i8, ptr %8, i64 16
  store i64 %5, ptr %11, align 8, !tbaa !12
  %12 = getelementptr inbounds i8, ptr %8, i64 24
  store i64 %6, ptr %12, align 8, !tbaa !13
  %13 = icmp eq i64 %5, 0
  br i1 %13, label %18, label %14

14:                                               ; preds = %7
  %15 = add nsw i64 %9, -1
  %16 = add i64 %15, %6
  %17 = sdiv i64 %16, %6
  br label %18

18:                                               ; preds = %7, %14
  %19 = phi i64 [ %17, %14 ], [ 1, %7 ]
  %20 = tail call i64 @llvm.umax.i64(i64 %19, i64 1)
  %21 = mul nsw i64 %20, %2
  %22 = tail call noalias ptr @malloc(i64 noundef %21) #6
  %23 = getelementptr inbounds i8, ptr %8, i64 32
  store ptr %22, ptr %23, align 8, !tbaa !14
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %22, ptr align 1 %1, i64 %2, i1 false)
  %24 = icmp sgt i64 %0, 0
  br i1 %24, label %25, label %27

25:                                               ; preds = %18
  %26 = icmp eq i64 %5, 1
  br label %28

27:                                               ; preds = %37, %18
  ret ptr %8

28:                                               ; preds = %25, %37
  %29 = phi i64 [ 0, %25 ], [ %38, %37 ]
  br i1 %26, label %30, label %37

30:                                               ; preds = %28
  %31 = srem i64 %29, %6
  %32 = sdiv i64 %29, %6
  %33 = icmp eq i64 %31, 0
  br i1 %33, label %34, label %37

34:                                               ; preds = %30
  %35 = mul nsw i64 %32, %2
  %36 = getelementptr inbounds i8, ptr %22, i64 %35
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %36, ptr align 1 %1, i64 %2, i1 false)
  br label %37

37:                                               ; preds = %34, %30, %28
  tail call void %3(ptr noundef %1, ptr noundef %4) #7
  %38 = add nuw nsw i64 %29, 1
  %39 = icmp eq i64 %38, %0
  br i1 %39, label %27, label %28, !llvm.loop !15
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nounwind uwtable
define dso_local void @__xenzyme_checkpoint_reverse(ptr nocapture noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, ptr nocapture noundef readonly %5, ptr noundef %6) local_unnamed_addr #0 {
  %8 = alloca %struct.xz_run, align 8
  %9 = load i64, ptr %0, align 8, !tbaa !5
  %10 = getelementptr inbounds i8, ptr %0, i64 8
  %11 = load i64, ptr %10, align 8, !tbaa !11
  %12 = getelementptr inbounds i8, ptr %0, i64 16
  %13 = load i64, ptr %12, align 8, !tbaa !12
  %14 = icmp eq i64 %13, 1
  br i1 %14, label %15, label %37

15:                                               ; preds = %7
  %16 = getelementptr inbounds i8, ptr %0, i64 24
  %17 = load i64, ptr %16, align 8, !tbaa !13
  %18 = add i64 %9, -1
  %19 = add i64 %18, %17
  %20 = sdiv i64 %19, %17
  %21 = icmp sgt i64 %20, 0
  br i1 %21, label %22, label %53

22:                                               ; preds = %15
  %23 = getelementptr inbounds i8, ptr %0, i64 32
  br label %24

24:                                               ; preds = %22, %24
  %25 = phi i64 [ %20, %22 ], [ %26, %24 ]
  %26 = add nsw i64 %25, -1
  %27 = load i64, ptr %16, align 8, !tbaa !13
  %28 = mul nsw i64 %27, %26
  %29 = sub nsw i64 %9, %28
  %30 = tail call i64 @llvm.smin.i64(i64 %29, i64 %27)
  %31 = load ptr, ptr %23, align 8, !tbaa !14
  %32 = mul nsw i64 %26, %11
  %33 = getelementptr inbounds i8, ptr %31, i64 %32
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %1, ptr align 1 %33, i64 %11, i1 false)
  %34 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !17
  %35 = add nsw i64 %34, %30
  store i64 %35, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !17
  tail call void %5(i64 noundef %30, ptr noundef %1, ptr noundef %2, ptr noundef %6) #7
  %36 = icmp ugt i64 %25, 1
  br i1 %36, label %24, label %53, !llvm.loop !18

37:                                               ; preds = %7
  %38 = icmp sgt i64 %9, 0
  br i1 %38, label %39, label %53

39:                                               ; preds = %37
  %40 = getelementptr inbounds i8, ptr %0, i64 24
  %41 = load i64, ptr %40, align 8, !tbaa !13
  %42 = tail call i64 @llvm.smin.i64(i64 %41, i64 %9)
  call void @llvm.lifetime.start.p0(i64 56, ptr nonnull %8) #7
  store i64 %11, ptr %8, align 8, !tbaa !19
  %43 = getelementptr inbounds i8, ptr %8, i64 8
  %44 = mul nsw i64 %42, %11
  %45 = tail call noalias ptr @malloc(i64 noundef %44) #6
  store ptr %45, ptr %43, align 8, !tbaa !21
  %46 = getelementptr inbounds i8, ptr %8, i64 16
  store ptr %1, ptr %46, align 8, !tbaa !22
  %47 = getelementptr inbounds i8, ptr %8, i64 24
  store ptr %2, ptr %47, align 8, !tbaa !23
  %48 = getelementptr inbounds i8, ptr %8, i64 32
  store ptr %6, ptr %48, align 8, !tbaa !24
  %49 = getelementptr inbounds i8, ptr %8, i64 40
  store ptr %3, ptr %49, align 8, !tbaa !25
  %50 = getelementptr inbounds i8, ptr %8, i64 48
  store ptr %4, ptr %50, align 8, !tbaa !26
  %51 = getelementptr inbounds i8, ptr %0, i64 32
  %52 = load ptr, ptr %51, align 8, !tbaa !14
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %45, ptr align 1 %52, i64 %11, i1 false)
  call fastcc void @xz_revolve(ptr noundef nonnull %8, i64 noundef 0, i64 noundef %9, i64 noundef %42)
  tail call void @free(ptr noundef %45) #7
  call void @llvm.lifetime.end.p0(i64 56, ptr nonnull %8) #7
  br label %53

53:                                               ; preds = %24, %15, %37, %39
  %54 = getelementptr inbounds i8, ptr %0, i64 32
  %55 = load ptr, ptr %54, align 8, !tbaa !14
  tail call void @free(ptr noundef %55) #7
  tail call void @free(ptr noundef nonnull %0) #7
  ret void
}

; Function Attrs: nounwind uwtable
define internal fastcc void @xz_revolve(ptr nocapture noundef readonly %0, i64 noundef %1, i64 noundef %2, i64 noundef %3) unnamed_addr #0 {
  %5 = icmp sgt i64 %2, 0
  br i1 %5, label %6, label %168

6:                                                ; preds = %4
  %7 = icmp eq i64 %3, 1
  %8 = icmp slt i64 %3, 1
  %9 = add nsw i64 %3, -1
  %10 = icmp slt i64 %3, 2
  %11 = getelementptr inbounds i8, ptr %0, i64 16
  %12 = getelementptr inbounds i8, ptr %0, i64 8
  %13 = getelementptr inbounds i8, ptr %0, i64 40
  %14 = getelementptr inbounds i8, ptr %0, i64 32
  %15 = add nsw i64 %1, 1
  br label %16

16:                                               ; preds = %6, %159
  %17 = phi i64 [ %2, %6 ], [ %145, %159 ]
  %18 = icmp eq i64 %17, 1
  br i1 %18, label %19, label %31

19:                                               ; preds = %16
  %20 = load ptr, ptr %11, align 8, !tbaa !22
  %21 = load ptr, ptr %12, align 8, !tbaa !21
  %22 = load i64, ptr %0, align 8, !tbaa !19
  %23 = mul nsw i64 %22, %1
  %24 = getelementptr inbounds i8, ptr %21, i64 %23
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %20, ptr align 1 %24, i64 %22, i1 false)
  %25 = getelementptr inbounds i8, ptr %0, i64 48
  %26 = load ptr, ptr %25, align 8, !tbaa !26
  %27 = load ptr, ptr %11, align 8, !tbaa !22
  %28 = getelementptr inbounds i8, ptr %0, i64 24
  %29 = load ptr, ptr %28, align 8, !tbaa !23
  %30 = load ptr, ptr %14, align 8, !tbaa !24
  tail call void %26(ptr noundef %27, ptr noundef %29, ptr noundef %30) #7
  br label %168

31:                                               ; preds = %16
  br i1 %7, label %32, label %59

32:                                               ; preds = %31
  %33 = getelementptr inbounds i8, ptr %0, i64 48
  %34 = getelementptr inbounds i8, ptr %0, i64 24
  br label %35

35:                                               ; preds = %32, %51
  %36 = phi i64 [ %2, %32 ], [ %37, %51 ]
  %37 = add nsw i64 %36, -1
  %38 = load ptr, ptr %11, align 8, !tbaa !22
  %39 = load ptr, ptr %12, align 8, !tbaa !21
  %40 = load i64, ptr %0, align 8, !tbaa !19
  %41 = mul nsw i64 %40, %1
  %42 = getelementptr inbounds i8, ptr %39, i64 %41
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %38, ptr align 1 %42, i64 %40, i1 false)
  %43 = icmp eq i64 %37, 0
  br i1 %43, label %51, label %44

44:                                               ; preds = %35, %44
  %45 = phi i64 [ %49, %44 ], [ 0, %35 ]
  %46 = load ptr, ptr %13, align 8, !tbaa !25
  %47 = load ptr, ptr %11, align 8, !tbaa !22
  %48 = load ptr, ptr %14, align 8, !tbaa !24
  tail call void %46(ptr noundef %47, ptr noundef %48) #7
  %49 = add nuw nsw i64 %45, 1
  %50 = icmp eq i64 %49, %37
  br i1 %50, label %51, label %44, !llvm.loop !27

51:                                               ; preds = %44, %35
  %52 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !17
  %53 = add nsw i64 %52, %37
  store i64 %53, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !17
  %54 = load ptr, ptr %33, align 8, !tbaa !26
  %55 = load ptr, ptr %11, align 8, !tbaa !22
  %56 = load ptr, ptr %34, align 8, !tbaa !23
  %57 = load ptr, ptr %14, align 8, !tbaa !24
  tail call void %54(ptr noundef %55, ptr noundef %56, ptr noundef %57) #7
  %58 = icmp sgt i64 %36, 1
  br i1 %58, label %35, label %168, !llvm.loop !28

59:                                               ; preds = %31, %83
  %60 = phi i64 [ %61, %83 ], [ 0, %31 ]
  %61 = add nuw nsw i64 %60, 1
  br i1 %8, label %83, label %62

62:                                               ; preds = %59
  %63 = uitofp nneg i64 %61 to double
  %64 = fcmp ogt double %63, 4.000000e+18
  br i1 %64, label %83, label %65

65:                                               ; preds = %62, %69
  %66 = phi double [ %75, %69 ], [ %63, %62 ]
  %67 = phi i64 [ %70, %69 ], [ 1, %62 ]
  %68 = icmp eq i64 %67, %3
  br i1 %68, label %77, label %69, !llvm.loop !29

69:                                               ; preds = %65
  %70 = add i64 %67, 1
  %71 = add nuw nsw i64 %70, %60
  %72 = sitofp i64 %71 to double
  %73 = fmul double %66, %72
  %74 = uitofp nneg i64 %70 to double
  %75 = fdiv double %73, %74
  %76 = fcmp ogt double %75, 4.000000e+18
  br i1 %76, label %77, label %65, !llvm.loop !29

77:                                               ; preds = %65, %69
  %78 = phi double [ %66, %65 ], [ %75, %69 ]
  %79 = icmp slt i64 %67, %3
  %80 = fadd double %78, 5.000000e-01
  %81 = fptosi double %80 to i64
  %82 = select i1 %79, i64 4000000000000000000, i64 %81
  br label %83

83:                                               ; preds = %77, %59, %62
  %84 = phi i64 [ 4000000000000000000, %62 ], [ 1, %59 ], [ %82, %77 ]
  %85 = icmp slt i64 %84, %17
  br i1 %85, label %59, label %86, !llvm.loop !30

86:                                               ; preds = %83
  br i1 %10, label %109, label %87

87:                                               ; preds = %86
  %88 = uitofp nneg i64 %61 to double
  %89 = fcmp ogt double %88, 4.000000e+18
  br i1 %89, label %109, label %90

90:                                               ; preds = %87, %94
  %91 = phi double [ %100, %94 ], [ %88, %87 ]
  %92 = phi i64 [ %95, %94 ], [ 1, %87 ]
  %93 = icmp eq i64 %92, %9
  br i1 %93, label %102, label %94, !llvm.loop !29

94:                                               ; preds = %90
  %95 = add nuw nsw i64 %92, 1
  %96 = add nuw nsw i64 %95, %60
  %97 = uitofp nneg i64 %96 to double
  %98 = fmul double %91, %97
  %99 = uitofp nneg i64 %95 to double
  %100 = fdiv double %98, %99
  %101 = fcmp ogt double %100, 4.000000e+18
  br i1 %101, label %102, label %90, !llvm.loop !29

102:                                              ; preds = %90, %94
  %103 = phi double [ %91, %90 ], [ %100, %94 ]
  %104 = icmp sge i64 %92, %9
  %105 = fadd double %103, 5.000000e-01
  %106 = fptosi double %105 to i64
  %107 = freeze i1 %104
  %108 = select i1 %107, i64 %106, i64 4000000000000000000
  br label %109

109:                                              ; preds = %102, %87, %86
  %110 = phi i64 [ 1, %86 ], [ 4000000000000000000, %87 ], [ %108, %102 ]
  %111 = sub nsw i64 %17, %110
  %112 = add nsw i64 %60, -2
  %113 = icmp ult i64 %60, 2
  %114 = or i1 %8, %113
  %115 = xor i1 %113, true
  %116 = zext i1 %115 to i64
  br i1 %114, label %139, label %117

117:                                              ; preds = %109
  %118 = add nsw i64 %60, -1
  %119 = sitofp i64 %118 to double
  %120 = fcmp ogt double %119, 4.000000e+18
  br i1 %120, label %139, label %121

121:                                              ; preds = %117, %125
  %122 = phi double [ %131, %125 ], [ %119, %117 ]
  %123 = phi i64 [ %126, %125 ], [ 1, %117 ]
  %124 = icmp eq i64 %123, %3
  br i1 %124, label %133, label %125, !llvm.loop !29

125:                                              ; preds = %121
  %126 = add i64 %123, 1
  %127 = add nuw nsw i64 %112, %126
  %128 = sitofp i64 %127 to double
  %129 = fmul double %122, %128
  %130 = uitofp nneg i64 %126 to double
  %131 = fdiv double %129, %130
  %132 = fcmp ogt double %131, 4.000000e+18
  br i1 %132, label %133, label %121, !llvm.loop !29

133:                                              ; preds = %121, %125
  %134 = phi double [ %122, %121 ], [ %131, %125 ]
  %135 = icmp slt i64 %123, %3
  %136 = fadd double %134, 5.000000e-01
  %137 = fptosi double %136 to i64
  %138 = select i1 %135, i64 4000000000000000000, i64 %137
  br label %139

139:                                              ; preds = %133, %117, %109
  %140 = phi i64 [ %116, %109 ], [ 4000000000000000000, %117 ], [ %138, %133 ]
  %141 = tail call i64 @llvm.smax.i64(i64 %140, i64 %111)
  %142 = tail call i64 @llvm.smax.i64(i64 %141, i64 1)
  %143 = icmp slt i64 %142, %17
  %144 = add nsw i64 %17, -1
  %145 = select i1 %143, i64 %142, i64 %144
  %146 = load ptr, ptr %11, align 8, !tbaa !22
  %147 = load ptr, ptr %12, align 8, !tbaa !21
  %148 = load i64, ptr %0, align 8, !tbaa !19
  %149 = mul nsw i64 %148, %1
  %150 = getelementptr inbounds i8, ptr %147, i64 %149
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %146, ptr align 1 %150, i64 %148, i1 false)
  %151 = icmp sgt i64 %145, 0
  br i1 %151, label %152, label %159

152:                                              ; preds = %139, %152
  %153 = phi i64 [ %157, %152 ], [ 0, %139 ]
  %154 = load ptr, ptr %13, align 8, !tbaa !25
  %155 = load ptr, ptr %11, align 8, !tbaa !22
  %156 = load ptr, ptr %14, align 8, !tbaa !24
  tail call void %154(ptr noundef %155, ptr noundef %156) #7
  %157 = add nuw nsw i64 %153, 1
  %158 = icmp eq i64 %157, %145
  br i1 %158, label %159, label %152, !llvm.loop !27

159:                                              ; preds = %152, %139
  %160 = load i64, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !17
  %161 = add nsw i64 %160, %145
  store i64 %161, ptr @__xenzyme_checkpoint_steps, align 8, !tbaa !17
  %162 = load ptr, ptr %12, align 8, !tbaa !21
  %163 = load i64, ptr %0, align 8, !tbaa !19
  %164 = mul nsw i64 %163, %15
  %165 = getelementptr inbounds i8, ptr %162, i64 %164
  %166 = load ptr, ptr %11, align 8, !tbaa !22
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %165, ptr align 1 %166, i64 %163, i1 false)
  %167 = sub nsw i64 %17, %145
  tail call fastcc void @xz_revolve(ptr noundef nonnull %0, i64 noundef %15, i64 noundef %167, i64 noundef %9)
  br i1 %151, label %16, label %168, !llvm.loop !31

168:                                              ; preds = %159, %51, %4, %19
  ret void
}

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @free(ptr allocptr nocapture noundef) local_unnamed_addr #4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smax.i64(i64, i64) #5

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.umax.i64(i64, i64) #5

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smin.i64(i64, i64) #5

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #4 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { nounwind allocsize(0) }
attributes #7 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{!6, !7, i64 0}
!6 = !{!"xz_tape", !7, i64 0, !7, i64 8, !7, i64 16, !7, i64 24, !10, i64 32}
!7 = !{!"long", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C/C++ TBAA"}
!10 = !{!"any pointer", !8, i64 0}
!11 = !{!6, !7, i64 8}
!12 = !{!6, !7, i64 16}
!13 = !{!6, !7, i64 24}
!14 = !{!6, !10, i64 32}
!15 = distinct !{!15, !16}
!16 = !{!"llvm.loop.mustprogress"}
!17 = !{!7, !7, i64 0}
!18 = distinct !{!18, !16}
!19 = !{!20, !7, i64 0}
!20 = !{!"xz_run", !7, i64 0, !10, i64 8, !10, i64 16, !10, i64 24, !10, i64 32, !10, i64 40, !10, i64 48}
!21 = !{!20, !10, i64 8}
!22 = !{!20, !10, i64 16}
!23 = !{!20, !10, i64 24}
!24 = !{!20, !10, i64 32}
!25 = !{!20, !10, i64 40}
!26 = !{!20, !10, i64 48}
!27 = distinct !{!27, !16}
!28 = distinct !{!28, !16}
!29 = distinct !{!29, !16}
!30 = distinct !{!30, !16}
!31 = distinct !{!31, !16}
