define void @f() {
  ret void
}
@r = ifunc void (), ptr @resolve
define ptr @resolve() {
  ret ptr @f
}
