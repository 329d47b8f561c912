; REQUIRES: cc
; RUN: xenzyme-opt %s -t obj -o %t.o
; RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); print(d[:4], d[4], d[16])" %t.o | filecheck %s --check-prefix=ELF
; RUN: cc %t.o -lm -o %t.exe
; RUN: %t.exe | filecheck %s
; RUN: xenzyme-opt %s -t 'obj{cpu=native opt=3}' | %python -c "import sys; print(sys.stdin.buffer.read()[:4])" | filecheck %s --check-prefix=STDOUT

; `-t obj` writes a position-independent ELF object for the host that a plain `cc prog.o -lm`
; links into a program (here one calling libm and printf through the object's own code).

; ELF: b'\x7fELF' 2 1
; STDOUT: b'\x7fELF'
; CHECK: hypot(3, 4) = 5.000000
; CHECK-NEXT: counter = 3

@fmt = private unnamed_addr constant [18 x i8] c"hypot(3, 4) = %f\0A\00", align 1
@fmt2 = private unnamed_addr constant [14 x i8] c"counter = %d\0A\00", align 1
@counter = internal global i32 0, align 4

declare i32 @printf(ptr, ...)
declare double @sqrt(double)

define internal void @bump() {
  %c = load i32, ptr @counter, align 4
  %n = add i32 %c, 1
  store i32 %n, ptr @counter, align 4
  ret void
}

define i32 @main() {
  %s = call double @sqrt(double 25.0)
  %r = call i32 (ptr, ...) @printf(ptr @fmt, double %s)
  call void @bump()
  call void @bump()
  call void @bump()
  %c = load i32, ptr @counter, align 4
  %r2 = call i32 (ptr, ...) @printf(ptr @fmt2, i32 %c)
  ret i32 0
}
