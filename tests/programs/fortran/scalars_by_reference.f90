! Scalars by reference: every argument of a Fortran procedure is a pointer, so each active
! scalar comes with its shadow right after it (Enzyme's default for pointers); the output's
! shadow is the seed, the inputs' shadows receive the derivatives.  Intrinsic math: sin, cos,
! exp, log, sqrt, tanh, ** with integer and real exponents.
include "checks.inc"

module model
  implicit none
contains
  subroutine f(x, y, r)
    real(8), intent(in) :: x, y
    real(8), intent(out) :: r
    r = sin(x) * exp(y) + sqrt(x * y) + x**3 + y**2.5d0 - log(1d0 + x * x) * cos(y) + tanh(x - y)
  end subroutine

  real(8) function g(x)
    real(8), intent(in) :: x
    g = x**(-2) + exp(-x) * x**1.5d0
  end function
end module

program main
  use checks
  use model
  implicit none
  interface
    subroutine f__enzyme_autodiff(fn, x, dx, y, dy, r, dr)
      external :: fn
      real(8) :: x, dx, y, dy, r, dr
    end subroutine
    subroutine g__enzyme_autodiff(fn, x, dx)
      external :: fn
      real(8) :: x, dx
    end subroutine
  end interface
  real(8) :: x, y, r, dx, dy, dr, rp, rm, h

  x = 0.7d0; y = 1.3d0; dx = 0; dy = 0; dr = 1
  call f__enzyme_autodiff(f, x, dx, y, dy, r, dr)
  h = step(x); call f(x + h, y, rp); call f(x - h, y, rm)
  call close_to('df/dx', dx, (rp - rm) / (2 * h), 1d-6)
  h = step(y); call f(x, y + h, rp); call f(x, y - h, rm)
  call close_to('df/dy', dy, (rp - rm) / (2 * h), 1d-6)
  call f(x, y, rp)
  call close_to('primal r', r, rp, 1d-12)

  ! A function's result is active: seeded with 1, the derivative accumulates into dx.
  x = 1.4d0; dx = 0.5d0
  call g__enzyme_autodiff(g, x, dx)
  h = step(x)
  call close_to('0.5 + dg/dx', dx, 0.5d0 + (g(x + h) - g(x - h)) / (2 * h), 1d-6)
  call finish()
end program
