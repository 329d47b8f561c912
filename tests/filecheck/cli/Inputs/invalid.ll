define i32 @f(i32 %x) {
entry:
  br label %next
next:
  %p = phi i32 [ 1, %entry ], [ 2, %entry ]
  ret i32 %p
}
