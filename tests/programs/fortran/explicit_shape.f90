! Explicit-shape arrays x(n): the array is a plain pointer, its shadow an array of the same
! shape; the size n, passed by reference, is marked constant with enzyme_const (bound to the C
! global Enzyme reads).  A weighted sum of squares and a cyclic product, in do loops.
include "checks.inc"

module energy_mod
  implicit none
contains
  subroutine energy(n, x, w, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), w(n)
    real(8), intent(out) :: e
    integer :: i
    e = 0
    do i = 1, n
      e = e + w(i) * x(i)**2 + sin(x(i)) * x(mod(i, n) + 1)
    end do
  end subroutine
end module

program main
  use checks
  use energy_mod
  implicit none
  interface
    subroutine energy__enzyme_autodiff(fn, c1, n, xa, dxa, c2, w, e, de)
      external :: fn
      integer :: c1, c2, n
      real(8) :: xa(*), dxa(*), w(*), e, de
    end subroutine
  end interface
  integer, parameter :: n = 6
  real(8) :: x(n), dx(n), w(n), e, de, ep, em, h, save
  integer :: i

  x = [0.4d0, -1.1d0, 0.7d0, 2.0d0, 0.3d0, -0.6d0]
  w = [1d0, 0.5d0, 2d0, 0.25d0, 1.5d0, 3d0]
  dx = 0; de = 1
  call energy__enzyme_autodiff(energy, enzyme_const, n, x, dx, enzyme_const, w, e, de)
  do i = 1, n
    save = x(i); h = step(save)
    x(i) = save + h; call energy(n, x, w, ep)
    x(i) = save - h; call energy(n, x, w, em)
    x(i) = save
    call close_to('de/dx', dx(i), (ep - em) / (2 * h), 1d-6)
  end do
  call finish()
end program
