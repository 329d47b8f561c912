! Forward mode from Fortran: a subroutine whose name contains __enzyme_fwddiff, every argument
! followed by its tangent (by reference); the tangent of the output is written to its shadow.
include "checks.inc"

module fields
  implicit none
contains
  subroutine potential(n, x, r)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: r
    integer :: i
    r = 0
    do i = 1, n - 1
      r = r + 1 / sqrt(0.1d0 + (x(i + 1) - x(i))**2) + exp(-x(i)**2)
    end do
  end subroutine
end module

program main
  use checks
  use fields
  implicit none
  interface
    subroutine potential__enzyme_fwddiff(fn, c, n, x, dx, r, dr)
      external :: fn
      integer :: c, n
      real(8) :: x(*), dx(*), r, dr
    end subroutine
  end interface
  integer, parameter :: n = 5
  real(8) :: x(n), v(n), r, dr, rp, rm, h

  x = [0.1d0, 0.6d0, 1.4d0, 1.9d0, 3.0d0]
  v = [1d0, -0.5d0, 0.25d0, 2d0, -1d0]
  dr = 0
  call potential__enzyme_fwddiff(potential, enzyme_const, n, x, v, r, dr)
  h = 1d-6
  call potential(n, x + h * v, rp)
  call potential(n, x - h * v, rm)
  call close_to('directional derivative', dr, (rp - rm) / (2 * h), 1d-6)
  call potential(n, x, rp)
  call close_to('primal', r, rp, 1d-12)
  call finish()
end program
