! Two-dimensional explicit-shape arrays (column-major): r = sum_i w(i) * tanh((A x)(i)) with
! the matrix A(m, n) and the vector x both active, loops in Fortran's column order.
include "checks.inc"

module layers
  implicit none
contains
  subroutine layer(m, n, a, x, w, r)
    integer, intent(in) :: m, n
    real(8), intent(in) :: a(m, n), x(n), w(m)
    real(8), intent(out) :: r
    real(8) :: z(m)
    integer :: i, j
    do i = 1, m
      z(i) = 0
    end do
    do j = 1, n
      do i = 1, m
        z(i) = z(i) + a(i, j) * x(j)
      end do
    end do
    r = 0
    do i = 1, m
      r = r + w(i) * tanh(z(i))
    end do
  end subroutine
end module

program main
  use checks
  use layers
  implicit none
  interface
    subroutine layer__enzyme_autodiff(fn, c1, m, c2, n, a, da, x, dx, c3, w, r, dr)
      external :: fn
      integer :: c1, c2, c3, m, n
      real(8) :: a(*), da(*), x(*), dx(*), w(*), r, dr
    end subroutine
  end interface
  integer, parameter :: m = 3, n = 4
  real(8) :: a(m, n), da(m, n), x(n), dx(n), w(m), r, dr, rp, rm, h, save
  integer :: i, j

  do j = 1, n
    do i = 1, m
      a(i, j) = 0.2d0 * i - 0.15d0 * j + 0.05d0 * i * j
    end do
  end do
  x = [0.5d0, -1d0, 0.25d0, 1.5d0]
  w = [1d0, -2d0, 0.5d0]
  da = 0; dx = 0; dr = 1
  call layer__enzyme_autodiff(layer, enzyme_const, m, enzyme_const, n, a, da, x, dx, enzyme_const, w, r, dr)
  do j = 1, n
    do i = 1, m
      save = a(i, j); h = step(save)
      a(i, j) = save + h; call layer(m, n, a, x, w, rp)
      a(i, j) = save - h; call layer(m, n, a, x, w, rm)
      a(i, j) = save
      call close_to('dr/da', da(i, j), (rp - rm) / (2 * h), 1d-6)
    end do
  end do
  do j = 1, n
    save = x(j); h = step(save)
    x(j) = save + h; call layer(m, n, a, x, w, rp)
    x(j) = save - h; call layer(m, n, a, x, w, rm)
    x(j) = save
    call close_to('dr/dx', dx(j), (rp - rm) / (2 * h), 1d-6)
  end do
  call finish()
end program
