! A small ODE integrator: classical Runge-Kutta for a predator-prey system, the state in a
! local array, the right-hand side a module procedure; the loss is a function of the final
! state, differentiated with respect to the initial state and the rate parameters.
include "checks.inc"

module lotka
  implicit none
contains
  subroutine rhs(y, p, dy)
    real(8), intent(in) :: y(2), p(4)
    real(8), intent(out) :: dy(2)
    dy(1) = p(1) * y(1) - p(2) * y(1) * y(2)
    dy(2) = p(3) * y(1) * y(2) - p(4) * y(2)
  end subroutine

  subroutine loss(y0, p, steps, r)
    real(8), intent(in) :: y0(2), p(4)
    integer, intent(in) :: steps
    real(8), intent(out) :: r
    real(8) :: y(2), k1(2), k2(2), k3(2), k4(2), h
    integer :: s
    h = 0.05d0
    y = y0
    do s = 1, steps
      call rhs(y, p, k1)
      call rhs(y + 0.5d0 * h * k1, p, k2)
      call rhs(y + 0.5d0 * h * k2, p, k3)
      call rhs(y + h * k3, p, k4)
      y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    end do
    r = y(1)**2 + sqrt(y(2))
  end subroutine
end module

program main
  use checks
  use lotka
  implicit none
  interface
    subroutine loss__enzyme_autodiff(fn, y0, dy0, p, dp, c, steps, r, dr)
      external :: fn
      integer :: c, steps
      real(8) :: y0(*), dy0(*), p(*), dp(*), r, dr
    end subroutine
  end interface
  real(8) :: y0(2), dy0(2), p(4), dp(4), r, dr, rp, rm, h, save
  integer :: i, steps

  y0 = [1.2d0, 0.8d0]; p = [1.1d0, 0.4d0, 0.3d0, 0.9d0]; steps = 40
  dy0 = 0; dp = 0; dr = 1
  call loss__enzyme_autodiff(loss, y0, dy0, p, dp, enzyme_const, steps, r, dr)
  do i = 1, 2
    save = y0(i); h = step(save)
    y0(i) = save + h; call loss(y0, p, steps, rp)
    y0(i) = save - h; call loss(y0, p, steps, rm)
    y0(i) = save
    call close_to('dr/dy0', dy0(i), (rp - rm) / (2 * h), 1d-6)
  end do
  do i = 1, 4
    save = p(i); h = step(save)
    p(i) = save + h; call loss(y0, p, steps, rp)
    p(i) = save - h; call loss(y0, p, steps, rm)
    p(i) = save
    call close_to('dr/dp', dp(i), (rp - rm) / (2 * h), 1d-6)
  end do
  call finish()
end program
