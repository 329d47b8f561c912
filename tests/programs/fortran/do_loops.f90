! do loops: nested counted loops with a stride, do while with a data-dependent trip count
! (Newton's method to a tolerance), exit and cycle.
include "checks.inc"

module loops
  implicit none
contains
  subroutine kernel_sum(n, x, r)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: r
    integer :: i, j
    r = 0
    do i = 1, n
      do j = n, 1, -2
        r = r + x(i) * x(j) * exp(-abs(i - j) / 3d0)
      end do
    end do
  end subroutine

  ! y with y**3 + y = a, by Newton's method until the step is tiny.
  subroutine solve_cubic(a, y)
    real(8), intent(in) :: a
    real(8), intent(out) :: y
    real(8) :: dy
    y = a / 2
    dy = 1
    do while (abs(dy) > 1d-14 * max(1d0, abs(y)))
      dy = (y**3 + y - a) / (3 * y**2 + 1)
      y = y - dy
    end do
  end subroutine

  ! Sum of x(i)**2 over positive entries until the running sum passes 5.
  subroutine positive_until(n, x, r)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: r
    integer :: i
    r = 0
    do i = 1, n
      if (x(i) < 0) cycle
      r = r + x(i)**2
      if (r > 5) exit
    end do
  end subroutine
end module

program main
  use checks
  use loops
  implicit none
  interface
    subroutine kernel_sum__enzyme_autodiff(fn, c, n, x, dx, r, dr)
      external :: fn
      integer :: c, n
      real(8) :: x(*), dx(*), r, dr
    end subroutine
    subroutine solve_cubic__enzyme_autodiff(fn, a, da, y, dy)
      external :: fn
      real(8) :: a, da, y, dy
    end subroutine
    subroutine positive_until__enzyme_autodiff(fn, c, n, x, dx, r, dr)
      external :: fn
      integer :: c, n
      real(8) :: x(*), dx(*), r, dr
    end subroutine
  end interface
  integer, parameter :: n = 7
  real(8) :: x(n), dx(n), r, dr, rp, rm, h, save, a, da, y
  integer :: i

  x = [0.5d0, -0.3d0, 1.2d0, 0.8d0, -1.5d0, 0.1d0, 2.2d0]
  dx = 0; dr = 1
  call kernel_sum__enzyme_autodiff(kernel_sum, enzyme_const, n, x, dx, r, dr)
  do i = 1, n
    save = x(i); h = step(save)
    x(i) = save + h; call kernel_sum(n, x, rp)
    x(i) = save - h; call kernel_sum(n, x, rm)
    x(i) = save
    call close_to('d kernel_sum/dx', dx(i), (rp - rm) / (2 * h), 1d-6)
  end do

  a = 3d0; da = 0; dr = 1
  call solve_cubic__enzyme_autodiff(solve_cubic, a, da, y, dr)
  call close_to('dy/da = 1/(3y^2+1)', da, 1 / (3 * y**2 + 1), 1d-10)

  dx = 0; dr = 1
  call positive_until__enzyme_autodiff(positive_until, enzyme_const, n, x, dx, r, dr)
  do i = 1, n
    save = x(i); h = step(save)
    x(i) = save + h; call positive_until(n, x, rp)
    x(i) = save - h; call positive_until(n, x, rm)
    x(i) = save
    call close_to('d positive_until/dx', dx(i), (rp - rm) / (2 * h), 1d-6)
  end do
  call finish()
end program
