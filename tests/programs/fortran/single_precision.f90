! real(4): single-precision scalars and arrays by reference, with intrinsics of their kind
! (sin, exp, sqrt, ** of reals); finite differences in double precision of the single-precision
! function, with a step suited to it.
include "checks.inc"

module single
  implicit none
contains
  subroutine f(n, x, r)
    integer, intent(in) :: n
    real(4), intent(in) :: x(n)
    real(4), intent(out) :: r
    integer :: i
    r = 0
    do i = 1, n
      r = r + sin(x(i)) * exp(0.5 * x(i)) + sqrt(1 + x(i)**2) + abs(x(i))**1.5
    end do
  end subroutine
end module

program main
  use checks
  use single
  implicit none
  interface
    subroutine f__enzyme_autodiff(fn, c, n, x, dx, r, dr)
      external :: fn
      integer :: c, n
      real(4) :: x(*), dx(*), r, dr
    end subroutine
  end interface
  integer, parameter :: n = 4
  real(4) :: x(n), dx(n), r, dr, rp, rm, h, save
  real(8) :: exact
  integer :: i

  x = [0.3, -0.8, 1.6, 2.2]
  dx = 0; dr = 1
  call f__enzyme_autodiff(f, enzyme_const, n, x, dx, r, dr)
  do i = 1, n
    exact = cos(dble(x(i))) * exp(0.5d0 * x(i)) + 0.5d0 * sin(dble(x(i))) * exp(0.5d0 * x(i)) &
            + x(i) / sqrt(1 + dble(x(i))**2) + 1.5d0 * sign(1d0, dble(x(i))) * sqrt(abs(dble(x(i))))
    call close_to('df/dx (exact)', dble(dx(i)), exact, 1d-5)
    save = x(i); h = 1e-2 * max(1.0, abs(save))
    x(i) = save + h; call f(n, x, rp)
    x(i) = save - h; call f(n, x, rm)
    x(i) = save
    call close_to('df/dx (fd)', dble(dx(i)), dble(rp - rm) / (2 * dble(h)), 2d-3)
  end do
  call finish()
end program
