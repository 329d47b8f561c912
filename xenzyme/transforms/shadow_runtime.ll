; ModuleID = 'xenzyme/transforms/shadow_runtime.c'
source_filename = "xenzyme/transforms/shadow_runtime.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__xenzyme_shadows_used = internal unnamed_addr global i64 0, align 8
@__xenzyme_shadows_cap = internal unnamed_addr global i64 0, align 8
@__xenzyme_shadows_keys = internal unnamed_addr global ptr null, align 8
@__xenzyme_shadows_count = internal unnamed_addr global i64 0, align 8
@__xenzyme_shadows_lock = internal global i32 0, align 4

; Function Attrs: nounwind uwtable
define dso_local void @__xenzyme_shadow_freed(ptr noundef %0) local_unnamed_addr #0 {
  %2 = icmp eq ptr %0, null
  br i1 %2, label %131, label %3

3:                                                ; preds = %1
  %4 = atomicrmw xchg ptr @__xenzyme_shadows_lock, i32 1 acquire, align 4
  %5 = icmp eq i32 %4, 0
  br i1 %5, label %13, label %6

6:                                                ; preds = %3, %9
  %7 = load atomic i32, ptr @__xenzyme_shadows_lock monotonic, align 4
  %8 = icmp eq i32 %7, 0
  br i1 %8, label %10, label %9

9:                                                ; preds = %6, %10
  br label %6, !llvm.loop !5

10:                                               ; preds = %6
  %11 = atomicrmw xchg ptr @__xenzyme_shadows_lock, i32 1 acquire, align 4
  %12 = icmp eq i32 %11, 0
  br i1 %12, label %13, label %9

13:                                               ; preds = %10, %3
  %14 = load i64, ptr @__xenzyme_shadows_used, align 8, !tbaa !7
  %15 = shl i64 %14, 1
  %16 = add i64 %15, 2
  %17 = load i64, ptr @__xenzyme_shadows_cap, align 8
  %18 = icmp sgt i64 %16, %17
  br i1 %18, label %21, label %19

19:                                               ; preds = %13
  %20 = load ptr, ptr @__xenzyme_shadows_keys, align 8, !tbaa !11
  br label %84

21:                                               ; preds = %13
  %22 = icmp eq i64 %17, 0
  br i1 %22, label %29, label %23

23:                                               ; preds = %21
  %24 = load i64, ptr @__xenzyme_shadows_count, align 8, !tbaa !7
  %25 = shl nsw i64 %24, 2
  %26 = icmp sgt i64 %25, %17
  %27 = zext i1 %26 to i64
  %28 = shl nsw i64 %17, %27
  br label %29

29:                                               ; preds = %23, %21
  %30 = phi i64 [ %28, %23 ], [ 64, %21 ]
  %31 = load ptr, ptr @__xenzyme_shadows_keys, align 8, !tbaa !11
  %32 = tail call noalias ptr @calloc(i64 noundef %30, i64 noundef 8) #4
  %33 = icmp eq ptr %32, null
  br i1 %33, label %130, label %34

34:                                               ; preds = %29
  store ptr %32, ptr @__xenzyme_shadows_keys, align 8, !tbaa !11
  store i64 %30, ptr @__xenzyme_shadows_cap, align 8, !tbaa !7
  store i64 0, ptr @__xenzyme_shadows_used, align 8, !tbaa !7
  %35 = icmp sgt i64 %17, 0
  br i1 %35, label %36, label %82

36:                                               ; preds = %34
  %37 = add nsw i64 %30, -1
  br label %38

38:                                               ; preds = %78, %36
  %39 = phi i64 [ 0, %36 ], [ %80, %78 ]
  %40 = phi i64 [ 0, %36 ], [ %79, %78 ]
  %41 = getelementptr inbounds ptr, ptr %31, i64 %39
  %42 = load ptr, ptr %41, align 8, !tbaa !11
  %43 = icmp ult ptr %42, inttoptr (i64 2 to ptr)
  br i1 %43, label %78, label %44

44:                                               ; preds = %38
  %45 = ptrtoint ptr %42 to i64
  %46 = lshr i64 %45, 33
  %47 = xor i64 %46, %45
  %48 = mul i64 %47, -49064778989728563
  %49 = lshr i64 %48, 33
  %50 = xor i64 %49, %48
  %51 = and i64 %50, %37
  %52 = getelementptr inbounds ptr, ptr %32, i64 %51
  %53 = load ptr, ptr %52, align 8, !tbaa !11
  %54 = icmp eq ptr %53, null
  br i1 %54, label %74, label %55

55:                                               ; preds = %44, %60
  %56 = phi ptr [ %69, %60 ], [ %53, %44 ]
  %57 = phi i64 [ %67, %60 ], [ %51, %44 ]
  %58 = phi i64 [ %65, %60 ], [ -1, %44 ]
  %59 = icmp eq ptr %56, %42
  br i1 %59, label %74, label %60

60:                                               ; preds = %55
  %61 = icmp eq ptr %56, inttoptr (i64 1 to ptr)
  %62 = icmp slt i64 %58, 0
  %63 = and i1 %61, %62
  %64 = select i1 %63, i64 %57, i64 %58
  %65 = freeze i64 %64
  %66 = add nsw i64 %57, 1
  %67 = and i64 %66, %37
  %68 = getelementptr inbounds ptr, ptr %32, i64 %67
  %69 = load ptr, ptr %68, align 8, !tbaa !11
  %70 = icmp eq ptr %69, null
  br i1 %70, label %71, label %55, !llvm.loop !13

71:                                               ; preds = %60
  %72 = icmp slt i64 %65, 0
  %73 = select i1 %72, i64 %67, i64 %65
  br label %74

74:                                               ; preds = %55, %71, %44
  %75 = phi i64 [ %51, %44 ], [ %73, %71 ], [ %57, %55 ]
  %76 = getelementptr inbounds ptr, ptr %32, i64 %75
  store ptr %42, ptr %76, align 8, !tbaa !11
  %77 = add nsw i64 %40, 1
  store i64 %77, ptr @__xenzyme_shadows_used, align 8, !tbaa !7
  br label %78

78:                                               ; preds = %74, %38
  %79 = phi i64 [ %40, %38 ], [ %77, %74 ]
  %80 = add nuw nsw i64 %39, 1
  %81 = icmp eq i64 %80, %17
  br i1 %81, label %82, label %38, !llvm.loop !14

82:                                               ; preds = %78, %34
  %83 = phi i64 [ 0, %34 ], [ %79, %78 ]
  tail call void @free(ptr noundef %31) #5
  br label %84

84:                                               ; preds = %19, %82
  %85 = phi i64 [ %83, %82 ], [ %14, %19 ]
  %86 = phi ptr [ %32, %82 ], [ %20, %19 ]
  %87 = phi i64 [ %30, %82 ], [ %17, %19 ]
  %88 = add nsw i64 %87, -1
  %89 = ptrtoint ptr %0 to i64
  %90 = lshr i64 %89, 33
  %91 = xor i64 %90, %89
  %92 = mul i64 %91, -49064778989728563
  %93 = lshr i64 %92, 33
  %94 = xor i64 %93, %92
  %95 = and i64 %88, %94
  %96 = getelementptr inbounds ptr, ptr %86, i64 %95
  %97 = load ptr, ptr %96, align 8, !tbaa !11
  %98 = icmp eq ptr %97, null
  br i1 %98, label %118, label %99

99:                                               ; preds = %84, %104
  %100 = phi ptr [ %113, %104 ], [ %97, %84 ]
  %101 = phi i64 [ %111, %104 ], [ %95, %84 ]
  %102 = phi i64 [ %109, %104 ], [ -1, %84 ]
  %103 = icmp eq ptr %100, %0
  br i1 %103, label %118, label %104

104:                                              ; preds = %99
  %105 = icmp eq ptr %100, inttoptr (i64 1 to ptr)
  %106 = icmp slt i64 %102, 0
  %107 = and i1 %105, %106
  %108 = select i1 %107, i64 %101, i64 %102
  %109 = freeze i64 %108
  %110 = add nsw i64 %101, 1
  %111 = and i64 %110, %88
  %112 = getelementptr inbounds ptr, ptr %86, i64 %111
  %113 = load ptr, ptr %112, align 8, !tbaa !11
  %114 = icmp eq ptr %113, null
  br i1 %114, label %115, label %99, !llvm.loop !13

115:                                              ; preds = %104
  %116 = icmp slt i64 %109, 0
  %117 = select i1 %116, i64 %111, i64 %109
  br label %118

118:                                              ; preds = %99, %84, %115
  %119 = phi i64 [ %95, %84 ], [ %117, %115 ], [ %101, %99 ]
  %120 = getelementptr inbounds ptr, ptr %86, i64 %119
  %121 = load ptr, ptr %120, align 8, !tbaa !11
  %122 = icmp eq ptr %121, %0
  br i1 %122, label %130, label %123

123:                                              ; preds = %118
  %124 = icmp eq ptr %121, null
  br i1 %124, label %125, label %127

125:                                              ; preds = %123
  %126 = add nsw i64 %85, 1
  store i64 %126, ptr @__xenzyme_shadows_used, align 8, !tbaa !7
  br label %127

127:                                              ; preds = %125, %123
  store ptr %0, ptr %120, align 8, !tbaa !11
  %128 = load i64, ptr @__xenzyme_shadows_count, align 8, !tbaa !7
  %129 = add nsw i64 %128, 1
  store i64 %129, ptr @__xenzyme_shadows_count, align 8, !tbaa !7
  br label %130

130:                                              ; preds = %29, %118, %127
  store atomic i32 0, ptr @__xenzyme_shadows_lock release, align 4
  br label %131

131:                                              ; preds = %1, %130
  ret void
}

; Function Attrs: nounwind uwtable
define dso_local void @__xenzyme_shadow_release(ptr noundef %0, ptr nocapture noundef readonly %1) local_unnamed_addr #0 {
  %3 = icmp eq ptr %0, null
  br i1 %3, label %58, label %4

4:                                                ; preds = %2
  %5 = atomicrmw xchg ptr @__xenzyme_shadows_lock, i32 1 acquire, align 4
  %6 = icmp eq i32 %5, 0
  br i1 %6, label %14, label %7

7:                                                ; preds = %4, %10
  %8 = load atomic i32, ptr @__xenzyme_shadows_lock monotonic, align 4
  %9 = icmp eq i32 %8, 0
  br i1 %9, label %11, label %10

10:                                               ; preds = %7, %11
  br label %7, !llvm.loop !5

11:                                               ; preds = %7
  %12 = atomicrmw xchg ptr @__xenzyme_shadows_lock, i32 1 acquire, align 4
  %13 = icmp eq i32 %12, 0
  br i1 %13, label %14, label %10

14:                                               ; preds = %11, %4
  %15 = load i64, ptr @__xenzyme_shadows_count, align 8, !tbaa !7
  %16 = icmp eq i64 %15, 0
  br i1 %16, label %55, label %17

17:                                               ; preds = %14
  %18 = load i64, ptr @__xenzyme_shadows_cap, align 8, !tbaa !7
  %19 = add nsw i64 %18, -1
  %20 = ptrtoint ptr %0 to i64
  %21 = lshr i64 %20, 33
  %22 = xor i64 %21, %20
  %23 = mul i64 %22, -49064778989728563
  %24 = lshr i64 %23, 33
  %25 = xor i64 %24, %23
  %26 = load ptr, ptr @__xenzyme_shadows_keys, align 8, !tbaa !11
  %27 = and i64 %19, %25
  %28 = getelementptr inbounds ptr, ptr %26, i64 %27
  %29 = load ptr, ptr %28, align 8, !tbaa !11
  %30 = icmp eq ptr %29, null
  br i1 %30, label %50, label %31

31:                                               ; preds = %17, %36
  %32 = phi ptr [ %45, %36 ], [ %29, %17 ]
  %33 = phi i64 [ %43, %36 ], [ %27, %17 ]
  %34 = phi i64 [ %41, %36 ], [ -1, %17 ]
  %35 = icmp eq ptr %32, %0
  br i1 %35, label %50, label %36

36:                                               ; preds = %31
  %37 = icmp eq ptr %32, inttoptr (i64 1 to ptr)
  %38 = icmp slt i64 %34, 0
  %39 = and i1 %37, %38
  %40 = select i1 %39, i64 %33, i64 %34
  %41 = freeze i64 %40
  %42 = add nsw i64 %33, 1
  %43 = and i64 %42, %19
  %44 = getelementptr inbounds ptr, ptr %26, i64 %43
  %45 = load ptr, ptr %44, align 8, !tbaa !11
  %46 = icmp eq ptr %45, null
  br i1 %46, label %47, label %31, !llvm.loop !13

47:                                               ; preds = %36
  %48 = icmp slt i64 %41, 0
  %49 = select i1 %48, i64 %43, i64 %41
  br label %50

50:                                               ; preds = %31, %47, %17
  %51 = phi i64 [ %27, %17 ], [ %49, %47 ], [ %33, %31 ]
  %52 = getelementptr inbounds ptr, ptr %26, i64 %51
  %53 = load ptr, ptr %52, align 8, !tbaa !11
  %54 = icmp eq ptr %53, %0
  br i1 %54, label %56, label %55

55:                                               ; preds = %14, %50
  store atomic i32 0, ptr @__xenzyme_shadows_lock release, align 4
  br label %58

56:                                               ; preds = %50
  store ptr inttoptr (i64 1 to ptr), ptr %52, align 8, !tbaa !11
  %57 = add nsw i64 %15, -1
  store i64 %57, ptr @__xenzyme_shadows_count, align 8, !tbaa !7
  store atomic i32 0, ptr @__xenzyme_shadows_lock release, align 4
  tail call void %1(ptr noundef nonnull %0) #5
  br label %58

58:                                               ; preds = %55, %56, %2
  ret void
}

; Function Attrs: nofree norecurse nounwind memory(readwrite, inaccessiblemem: none) uwtable
define dso_local void @__xenzyme_shadow_kept(ptr noundef %0) local_unnamed_addr #1 {
  %2 = icmp eq ptr %0, null
  br i1 %2, label %57, label %3

3:                                                ; preds = %1
  %4 = atomicrmw xchg ptr @__xenzyme_shadows_lock, i32 1 acquire, align 4
  %5 = icmp eq i32 %4, 0
  br i1 %5, label %13, label %6

6:                                                ; preds = %3, %9
  %7 = load atomic i32, ptr @__xenzyme_shadows_lock monotonic, align 4
  %8 = icmp eq i32 %7, 0
  br i1 %8, label %10, label %9

9:                                                ; preds = %6, %10
  br label %6, !llvm.loop !5

10:                                               ; preds = %6
  %11 = atomicrmw xchg ptr @__xenzyme_shadows_lock, i32 1 acquire, align 4
  %12 = icmp eq i32 %11, 0
  br i1 %12, label %13, label %9

13:                                               ; preds = %10, %3
  %14 = load i64, ptr @__xenzyme_shadows_count, align 8, !tbaa !7
  %15 = icmp eq i64 %14, 0
  br i1 %15, label %56, label %16

16:                                               ; preds = %13
  %17 = load i64, ptr @__xenzyme_shadows_cap, align 8, !tbaa !7
  %18 = add nsw i64 %17, -1
  %19 = ptrtoint ptr %0 to i64
  %20 = lshr i64 %19, 33
  %21 = xor i64 %20, %19
  %22 = mul i64 %21, -49064778989728563
  %23 = lshr i64 %22, 33
  %24 = xor i64 %23, %22
  %25 = load ptr, ptr @__xenzyme_shadows_keys, align 8, !tbaa !11
  %26 = and i64 %18, %24
  %27 = getelementptr inbounds ptr, ptr %25, i64 %26
  %28 = load ptr, ptr %27, align 8, !tbaa !11
  %29 = icmp eq ptr %28, null
  br i1 %29, label %49, label %30

30:                                               ; preds = %16, %35
  %31 = phi ptr [ %44, %35 ], [ %28, %16 ]
  %32 = phi i64 [ %42, %35 ], [ %26, %16 ]
  %33 = phi i64 [ %40, %35 ], [ -1, %16 ]
  %34 = icmp eq ptr %31, %0
  br i1 %34, label %49, label %35

35:                                               ; preds = %30
  %36 = icmp eq ptr %31, inttoptr (i64 1 to ptr)
  %37 = icmp slt i64 %33, 0
  %38 = and i1 %36, %37
  %39 = select i1 %38, i64 %32, i64 %33
  %40 = freeze i64 %39
  %41 = add nsw i64 %32, 1
  %42 = and i64 %41, %18
  %43 = getelementptr inbounds ptr, ptr %25, i64 %42
  %44 = load ptr, ptr %43, align 8, !tbaa !11
  %45 = icmp eq ptr %44, null
  br i1 %45, label %46, label %30, !llvm.loop !13

46:                                               ; preds = %35
  %47 = icmp slt i64 %40, 0
  %48 = select i1 %47, i64 %42, i64 %40
  br label %49

49:                                               ; preds = %30, %46, %16
  %50 = phi i64 [ %26, %16 ], [ %48, %46 ], [ %32, %30 ]
  %51 = getelementptr inbounds ptr, ptr %25, i64 %50
  %52 = load ptr, ptr %51, align 8, !tbaa !11
  %53 = icmp eq ptr %52, %0
  br i1 %53, label %54, label %56

54:                                               ; preds = %49
  store ptr inttoptr (i64 1 to ptr), ptr %51, align 8, !tbaa !11
  %55 = add nsw i64 %14, -1
  store i64 %55, ptr @__xenzyme_shadows_count, align 8, !tbaa !7
  br label %56

56:                                               ; preds = %13, %49, %54
  store atomic i32 0, ptr @__xenzyme_shadows_lock release, align 4
  br label %57

57:                                               ; preds = %56, %1
  ret void
}

; Function Attrs: nounwind uwtable
define dso_local void @__xenzyme_shadow_reset() local_unnamed_addr #0 {
  %1 = atomicrmw xchg ptr @__xenzyme_shadows_lock, i32 1 acquire, align 4
  %2 = icmp eq i32 %1, 0
  br i1 %2, label %10, label %3

3:                                                ; preds = %0, %6
  %4 = load atomic i32, ptr @__xenzyme_shadows_lock monotonic, align 4
  %5 = icmp eq i32 %4, 0
  br i1 %5, label %7, label %6

6:                                                ; preds = %3, %7
  br label %3, !llvm.loop !5

7:                                                ; preds = %3
  %8 = atomicrmw xchg ptr @__xenzyme_shadows_lock, i32 1 acquire, align 4
  %9 = icmp eq i32 %8, 0
  br i1 %9, label %10, label %6

10:                                               ; preds = %7, %0
  %11 = load ptr, ptr @__xenzyme_shadows_keys, align 8, !tbaa !11
  tail call void @free(ptr noundef %11) #5
  store ptr null, ptr @__xenzyme_shadows_keys, align 8, !tbaa !11
  store i64 0, ptr @__xenzyme_shadows_used, align 8, !tbaa !7
  store i64 0, ptr @__xenzyme_shadows_count, align 8, !tbaa !7
  store i64 0, ptr @__xenzyme_shadows_cap, align 8, !tbaa !7
  store atomic i32 0, ptr @__xenzyme_shadows_lock release, align 4
  ret void
}

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @free(ptr allocptr nocapture noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,zeroed") allocsize(0,1) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @calloc(i64 noundef, i64 noundef) local_unnamed_addr #3

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree norecurse nounwind memory(readwrite, inaccessiblemem: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { mustprogress nofree nounwind willreturn allockind("alloc,zeroed") allocsize(0,1) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind allocsize(0,1) }
attributes #5 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
!7 = !{!8, !8, i64 0}
!8 = !{!"long", !9, i64 0}
!9 = !{!"omnipotent char", !10, i64 0}
!10 = !{!"Simple C/C++ TBAA"}
!11 = !{!12, !12, i64 0}
!12 = !{!"any pointer", !9, i64 0}
!13 = distinct !{!13, !6}
!14 = distinct !{!14, !6}
