; A call to an external function (libm's Bessel function j0) that xenzyme has no rule for;
; Inputs/rules_j0.py gives it one.
declare double @j0(double)
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

define internal double @f(double %x) {
  %j = call double @j0(double %x)
  %y = fmul double %j, %x
  ret double %y
}

define double @df(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

define double @tf(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}
