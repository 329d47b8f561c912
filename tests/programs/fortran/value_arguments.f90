! Arguments passed by value (`value`, in an interface with bind(C)): an active real by value
! gets its derivative returned, as in C -- the entry point declared as a function of the
! derivative's type, with enzyme_out and enzyme_const markers (by reference, as Fortran passes
! them) and Enzyme's default for an unmarked real.
include "checks.inc"

module byvalue
  use iso_c_binding
  implicit none
contains
  real(c_double) function rosen(x, y) bind(C, name="rosen")
    real(c_double), value :: x, y
    rosen = (1 - x)**2 + 100 * (y - x**2)**2
  end function

  real(c_double) function powsum(x, k) bind(C, name="powsum")
    real(c_double), value :: x
    integer(c_int), value :: k
    integer :: i
    powsum = 0
    do i = 1, k
      powsum = powsum + x**i / i
    end do
  end function
end module

program main
  use checks
  use byvalue
  implicit none
  interface
    real(c_double) function rosen_dx__enzyme_autodiff(fn, m1, x, m2, y) bind(C, name="rosen_dx__enzyme_autodiff")
      import :: c_double, c_int, c_funptr
      type(c_funptr), value :: fn
      integer(c_int) :: m1, m2
      real(c_double), value :: x, y
    end function
    real(c_double) function powsum__enzyme_autodiff(fn, x, m, k) bind(C, name="powsum__enzyme_autodiff")
      import :: c_double, c_int, c_funptr
      type(c_funptr), value :: fn
      real(c_double), value :: x
      integer(c_int) :: m
      integer(c_int), value :: k
    end function
  end interface
  real(8) :: x, y, d, h

  x = 0.7d0; y = 1.2d0
  d = rosen_dx__enzyme_autodiff(c_funloc(rosen), enzyme_out, x, enzyme_const, y)
  h = step(x)
  call close_to('d rosen/dx', d, (rosen(x + h, y) - rosen(x - h, y)) / (2 * h), 1d-6)
  call close_to('d rosen/dx (exact)', d, -2 * (1 - x) - 400 * x * (y - x**2), 1d-10)

  d = powsum__enzyme_autodiff(c_funloc(powsum), 0.6d0, enzyme_const, 5)
  call close_to('d powsum/dx', d, 1 + 0.6d0 + 0.6d0**2 + 0.6d0**3 + 0.6d0**4, 1d-10)
  call finish()
end program
