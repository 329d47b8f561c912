; RUN: not xenzyme-opt %s -p 'llvm-opt{level=5}' 2>&1 | filecheck %s --check-prefix=LEVEL
; RUN: not xenzyme-opt %s -p 'llvm-opt{level=fast}' 2>&1 | filecheck %s --check-prefix=TYPE
; RUN: not xenzyme-opt %s -p 'llvm-opt{speed=2}' 2>&1 | filecheck %s --check-prefix=OPTION

; Bad options are rejected before any input is read.

define void @f() {
  ret void
}

; LEVEL:  xenzyme-opt: error: llvm-opt: level must be 0, 1, 2 or 3 (got 5)
; LEVEL-NEXT: note: for example -p 'llvm-opt{level=3}'
; TYPE:   xenzyme-opt: error: pass 'llvm-opt': bad value 'fast' for option 'level'
; TYPE-NEXT: note: expected int
; OPTION: xenzyme-opt: error: pass 'llvm-opt' has no option 'speed' (its options: level, strip-optnone)
