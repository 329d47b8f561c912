declare void @maybe()

define void @f() {
  br i1 icmp ne (ptr @maybe, ptr null), label %yes, label %no
yes:
  call void @maybe()
  ret void
no:
  ret void
}
