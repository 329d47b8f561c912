! Array intrinsics in differentiated code: sum, dot_product, maxval and whole-array
! expressions.  flang may call its runtime library for them (`_FortranASumReal8`, ...), or
! expand them into loops.
include "checks.inc"

module reductions
  implicit none
contains
  subroutine score(n, x, w, r)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: r
    r = sum(x**2) + dot_product(w, sin(x)) + maxval(x) * 0.5d0
  end subroutine
end module

program main
  use checks
  use reductions
  implicit none
  interface
    subroutine score__enzyme_autodiff(fn, c1, n, x, dx, c2, w, r, dr)
      external :: fn
      integer :: c1, c2, n
      real(8) :: x(*), dx(*), w(*), r, dr
    end subroutine
  end interface
  integer, parameter :: n = 5
  real(8) :: x(n), dx(n), w(n), r, dr, rp, rm, h, save
  integer :: i

  x = [0.3d0, -1.2d0, 2.1d0, 0.7d0, 1.1d0]
  w = [1d0, 2d0, -1d0, 0.5d0, 3d0]
  dx = 0; dr = 1
  call score__enzyme_autodiff(score, enzyme_const, n, x, dx, enzyme_const, w, r, dr)
  do i = 1, n
    save = x(i); h = step(save)
    x(i) = save + h; call score(n, x, w, rp)
    x(i) = save - h; call score(n, x, w, rm)
    x(i) = save
    call close_to('d score/dx', dx(i), (rp - rm) / (2 * h), 1d-6)
  end do
  call finish()
end program
