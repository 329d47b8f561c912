! Allocatable arrays passed to assumed-shape dummies: each array arrives as a descriptor (base
! address, element size, bounds), and its shadow as the descriptor of the shadow array.  The
! sizes come from the descriptors (size(x)); a dummy declared allocatable itself, too.
include "checks.inc"

module stats
  implicit none
contains
  ! Log of the mean of exp(a * x(i)), and the variance of x.
  subroutine moments(x, a, r)
    real(8), intent(in) :: x(:)
    real(8), intent(in) :: a
    real(8), intent(out) :: r
    real(8) :: s, mean, var
    integer :: i, n
    n = size(x)
    s = 0; mean = 0
    do i = 1, n
      s = s + exp(a * x(i))
      mean = mean + x(i)
    end do
    mean = mean / n
    var = 0
    do i = 1, n
      var = var + (x(i) - mean)**2
    end do
    r = log(s / n) + var / n
  end subroutine

  subroutine scaled_norm(x, r)
    real(8), allocatable, intent(in) :: x(:)
    real(8), intent(out) :: r
    integer :: i
    r = 0
    do i = lbound(x, 1), ubound(x, 1)
      r = r + (i * x(i))**2
    end do
    r = sqrt(r)
  end subroutine
end module

program main
  use checks
  use stats
  implicit none
  interface
    subroutine moments__enzyme_autodiff(fn, x, dx, a, da, r, dr)
      external :: fn
      real(8), intent(in) :: x(:)
      real(8), intent(inout) :: dx(:)
      real(8) :: a, da, r, dr
    end subroutine
    subroutine scaled_norm__enzyme_autodiff(fn, x, dx, r, dr)
      external :: fn
      real(8), allocatable :: x(:), dx(:)
      real(8) :: r, dr
    end subroutine
  end interface
  real(8), allocatable :: x(:), dx(:)
  real(8) :: a, da, r, dr, rp, rm, h, save
  integer :: i, n

  n = 7
  allocate(x(n), dx(n))
  do i = 1, n
    x(i) = 0.3d0 * i - 1.1d0 + 0.05d0 * i * i
  end do
  a = 0.8d0; da = 0; dx = 0; dr = 1
  call moments__enzyme_autodiff(moments, x, dx, a, da, r, dr)
  do i = 1, n
    save = x(i); h = step(save)
    x(i) = save + h; call moments(x, a, rp)
    x(i) = save - h; call moments(x, a, rm)
    x(i) = save
    call close_to('dr/dx', dx(i), (rp - rm) / (2 * h), 1d-6)
  end do
  h = step(a); call moments(x, a + h, rp); call moments(x, a - h, rm)
  call close_to('dr/da', da, (rp - rm) / (2 * h), 1d-6)

  deallocate(x, dx)
  allocate(x(-1:3), dx(-1:3))
  x = [0.5d0, -0.25d0, 1.5d0, 0.75d0, -1d0]
  dx = 0; dr = 1
  call scaled_norm__enzyme_autodiff(scaled_norm, x, dx, r, dr)
  do i = -1, 3
    save = x(i); h = step(save)
    x(i) = save + h; call scaled_norm(x, rp)
    x(i) = save - h; call scaled_norm(x, rm)
    x(i) = save
    call close_to('d norm/dx', dx(i), (rp - rm) / (2 * h), 1d-6)
  end do
  call finish()
end program
