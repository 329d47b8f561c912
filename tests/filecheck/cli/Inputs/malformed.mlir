llvm.func @f(%x: i32) -> i32 {
  %y = llvm.add %x, %x : i32
  llvm.return %y :
}
