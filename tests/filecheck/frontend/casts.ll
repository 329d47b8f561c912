; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; Every cast, with its flags: nneg (zext, uitofp), nuw/nsw (trunc), fast-math (fptrunc, ...).

define void @casts(i32 %i, i64 %l, double %d, float %f, ptr %p, <4 x i32> %v) {
  %trunc = trunc nuw nsw i64 %l to i32
  %zext = zext nneg i32 %i to i64
  %sext = sext i32 %i to i64
  %fptrunc = fptrunc nnan double %d to float
  %fpext = fpext float %f to double
  %fptoui = fptoui double %d to i32
  %fptosi = fptosi double %d to i16
  %uitofp = uitofp nneg i32 %i to double
  %sitofp = sitofp i64 %l to float
  %ptrtoint = ptrtoint ptr %p to i64
  %inttoptr = inttoptr i64 %l to ptr
  %bitcast = bitcast <4 x i32> %v to <2 x i64>
  %asc = addrspacecast ptr %p to ptr addrspace(3)
  %vsext = sext <4 x i32> %v to <4 x i64>
  ret void
}
; CHECK-LABEL: llvm.func @casts(%i: i32, %l: i64, %d: f64, %f: f32, %p: !llvm.ptr, %v: vector<4xi32>) {
; CHECK-NEXT:    %trunc = llvm.trunc %l overflow<nsw,nuw> : i64 to i32
; CHECK-NEXT:    %zext = llvm.zext nneg %i : i32 to i64
; CHECK-NEXT:    %sext = llvm.sext %i : i32 to i64
; CHECK-NEXT:    %fptrunc = llvm.fptrunc %d {fastmathFlags = #llvm.fastmath<nnan>} : f64 to f32
; CHECK-NEXT:    %fpext = llvm.fpext %f : f32 to f64
; CHECK-NEXT:    %fptoui = llvm.fptoui %d : f64 to i32
; CHECK-NEXT:    %fptosi = llvm.fptosi %d : f64 to i16
; CHECK-NEXT:    %uitofp = llvm.uitofp %i {nneg} : i32 to f64
; CHECK-NEXT:    %sitofp = llvm.sitofp %l : i64 to f32
; CHECK-NEXT:    %ptrtoint = llvm.ptrtoint %p : !llvm.ptr to i64
; CHECK-NEXT:    %inttoptr = llvm.inttoptr %l : i64 to !llvm.ptr
; CHECK-NEXT:    %bitcast = llvm.bitcast %v : vector<4xi32> to vector<2xi64>
; CHECK-NEXT:    %asc = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<3>
; CHECK-NEXT:    %vsext = llvm.sext %v : vector<4xi32> to vector<4xi64>
; CHECK-NEXT:    llvm.return

; LLVM-LABEL: define void @casts(
; LLVM-NEXT:    %trunc = trunc nuw nsw i64 %l to i32
; LLVM-NEXT:    %zext = zext nneg i32 %i to i64
; LLVM-NEXT:    %sext = sext i32 %i to i64
; LLVM-NEXT:    %fptrunc = fptrunc nnan double %d to float
; LLVM-NEXT:    %fpext = fpext float %f to double
; LLVM-NEXT:    %fptoui = fptoui double %d to i32
; LLVM-NEXT:    %fptosi = fptosi double %d to i16
; LLVM-NEXT:    %uitofp = uitofp nneg i32 %i to double
; LLVM-NEXT:    %sitofp = sitofp i64 %l to float
; LLVM-NEXT:    %ptrtoint = ptrtoint ptr %p to i64
; LLVM-NEXT:    %inttoptr = inttoptr i64 %l to ptr
; LLVM-NEXT:    %bitcast = bitcast <4 x i32> %v to <2 x i64>
; LLVM-NEXT:    %asc = addrspacecast ptr %p to ptr addrspace(3)
; LLVM-NEXT:    %vsext = sext <4 x i32> %v to <4 x i64>
