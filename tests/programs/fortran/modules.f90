! Modules: constants (parameters) and module variables read by module procedures, a procedure
! calling another of the module and an internal procedure (contains) of its own, and a module
! variable set by the program before the derivative is taken (inactive data in memory).
include "checks.inc"

module physics
  implicit none
  real(8), parameter :: g = 9.81d0
  real(8), parameter :: coeffs(3) = [0.5d0, -0.25d0, 0.125d0]
  real(8) :: drag = 0.1d0
contains
  real(8) function height(v, t)
    real(8), intent(in) :: v, t
    height = v * t - 0.5d0 * g * t**2 - drag * v**2 * t
  end function

  subroutine trajectory(v, angle, r)
    real(8), intent(in) :: v, angle
    real(8), intent(out) :: r
    integer :: k
    r = height(v * sin(angle), 1.5d0) + correction(v * cos(angle))
    do k = 1, 3
      r = r + coeffs(k) * angle**k
    end do
  contains
    real(8) function correction(u)
      real(8), intent(in) :: u
      correction = u * exp(-drag * u)
    end function
  end subroutine
end module

program main
  use checks
  use physics
  implicit none
  interface
    subroutine trajectory__enzyme_autodiff(fn, v, dv, angle, dangle, r, dr)
      external :: fn
      real(8) :: v, dv, angle, dangle, r, dr
    end subroutine
  end interface
  real(8) :: v, angle, dv, dangle, r, dr, rp, rm, h
  integer :: trial

  do trial = 1, 2
    drag = 0.1d0 * trial
    v = 12d0; angle = 0.6d0; dv = 0; dangle = 0; dr = 1
    call trajectory__enzyme_autodiff(trajectory, v, dv, angle, dangle, r, dr)
    h = step(v); call trajectory(v + h, angle, rp); call trajectory(v - h, angle, rm)
    call close_to('dr/dv', dv, (rp - rm) / (2 * h), 1d-6)
    h = step(angle); call trajectory(v, angle + h, rp); call trajectory(v, angle - h, rm)
    call close_to('dr/dangle', dangle, (rp - rm) / (2 * h), 1d-6)
  end do
  call finish()
end program
