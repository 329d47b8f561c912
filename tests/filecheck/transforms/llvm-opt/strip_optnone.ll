; RUN: xenzyme-opt %s -p 'llvm-opt{level=2}' | filecheck %s --check-prefix=KEEP
; RUN: xenzyme-opt %s -p 'llvm-opt{level=2 strip-optnone=true}' | filecheck %s --check-prefix=STRIP

; clang -O0 marks every function `optnone noinline`, which LLVM's pipeline respects;
; strip-optnone drops both first, so -O0 input optimises like -O2 input.

define i32 @twice(i32 %x) #0 {
  %p = alloca i32, align 4
  store i32 %x, ptr %p, align 4
  %v = load i32, ptr %p, align 4
  %r = add nsw i32 %v, %v
  ret i32 %r
}

attributes #0 = { noinline nounwind optnone }

; KEEP-LABEL: llvm.func local_unnamed_addr @twice(
; KEEP-SAME:    "noinline"{{.*}}"optnone"
; KEEP:         llvm.alloca
; KEEP:         llvm.store
; KEEP:         llvm.load

; STRIP-LABEL: llvm.func local_unnamed_addr @twice(
; STRIP-NOT:     optnone
; STRIP-NOT:     llvm.alloca
; STRIP:         %{{.*}} = llvm.shl %{{.*}}, %{{.*}} overflow<nsw> : i32
