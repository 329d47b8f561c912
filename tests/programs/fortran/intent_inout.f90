! A subroutine with intent(inout) arrays, updated in place: a few steps of gradient descent on
! a quadratic, and a smoothing pass that overwrites its input.  The shadow of an inout array
! is the seed on entry (the adjoint of its final value) and holds the derivative with respect
! to its initial value on return.
include "checks.inc"

module updates
  implicit none
contains
  subroutine descend(n, x, a, steps)
    integer, intent(in) :: n, steps
    real(8), intent(inout) :: x(n)
    real(8), intent(in) :: a(n)
    integer :: s, i
    do s = 1, steps
      do i = 1, n
        x(i) = x(i) - 0.1d0 * (a(i) * x(i) + sin(x(i)))
      end do
    end do
  end subroutine

  subroutine smooth(n, x)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    real(8) :: prev, here
    integer :: i
    prev = x(1)
    do i = 2, n - 1
      here = x(i)
      x(i) = (prev + 2 * here + x(i + 1)) / 4 + 0.1d0 * here**2
      prev = here
    end do
  end subroutine
end module

program main
  use checks
  use updates
  implicit none
  interface
    subroutine descend__enzyme_autodiff(fn, c1, n, x, dx, a, da, c2, steps)
      external :: fn
      integer :: c1, c2, n, steps
      real(8) :: x(*), dx(*), a(*), da(*)
    end subroutine
    subroutine smooth__enzyme_autodiff(fn, c1, n, x, dx)
      external :: fn
      integer :: c1, n
      real(8) :: x(*), dx(*)
    end subroutine
  end interface
  integer, parameter :: n = 5
  real(8) :: x(n), x0(n), dx(n), a(n), da(n), seed(n), xp(n), xm(n), h
  integer :: i

  x0 = [1.0d0, -0.5d0, 2.0d0, 0.3d0, -1.2d0]
  a = [0.5d0, 1.0d0, 1.5d0, 2.0d0, 0.25d0]
  seed = [1d0, 2d0, -1d0, 0.5d0, 3d0]
  ! dx enters as the seed: d (seed . x_final) / d x0 comes back in dx, d / d a in da.
  x = x0; dx = seed; da = 0
  call descend__enzyme_autodiff(descend, enzyme_const, n, x, dx, a, da, enzyme_const, 4)
  do i = 1, n
    h = step(x0(i))
    xp = x0; xp(i) = xp(i) + h; call descend(n, xp, a, 4)
    xm = x0; xm(i) = xm(i) - h; call descend(n, xm, a, 4)
    call close_to('d seed.x/dx0', dx(i), dot_product(seed, xp - xm) / (2 * h), 1d-6)
  end do
  do i = 1, n
    h = step(a(i))
    xp = x0; a(i) = a(i) + h; call descend(n, xp, a, 4)
    xm = x0; a(i) = a(i) - 2 * h; call descend(n, xm, a, 4)
    a(i) = a(i) + h
    call close_to('d seed.x/da', da(i), dot_product(seed, xp - xm) / (2 * h), 1d-6)
  end do

  x = x0; dx = seed
  call smooth__enzyme_autodiff(smooth, enzyme_const, n, x, dx)
  do i = 1, n
    h = step(x0(i))
    xp = x0; xp(i) = xp(i) + h; call smooth(n, xp)
    xm = x0; xm(i) = xm(i) - h; call smooth(n, xm)
    call close_to('d seed.smooth/dx0', dx(i), dot_product(seed, xp - xm) / (2 * h), 1d-6)
  end do
  call finish()
end program
