declare double @__enzyme_autodiff(...)
define double @f(double %x) {
  ret double %x
}
define double @g(ptr %p) {
  %r = call double (...) @__enzyme_autodiff(ptr %p, double 1.0)
  ret double %r
}
