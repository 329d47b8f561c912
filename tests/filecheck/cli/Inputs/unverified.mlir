llvm.func @f(%x: i32) -> i32 {
  %y = "llvm.icmp"(%x, %x) <{predicate = 0 : i64}> : (i32, i32) -> i32
  llvm.return %x : i32
}
