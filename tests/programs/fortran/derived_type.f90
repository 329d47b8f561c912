! A derived type: parameters in a `type :: params` passed by reference, with a shadow of the
! same type receiving the derivative of each real component (the integer one untouched); an
! array of derived-type values.  flang-19 writes the type descriptors of these types with
! `mul` constant expressions, which LLVM 22 reads only once xenzyme has rewritten them.
include "checks.inc"

module springs
  implicit none
  type :: params
    real(8) :: k
    integer :: n
    real(8) :: rest
  end type
  type :: particle
    real(8) :: x, v
  end type
contains
  subroutine chain_energy(p, pos, e)
    type(params), intent(in) :: p
    real(8), intent(in) :: pos(*)
    real(8), intent(out) :: e
    integer :: i
    e = 0
    do i = 1, p%n - 1
      e = e + 0.5d0 * p%k * (pos(i + 1) - pos(i) - p%rest)**2
    end do
  end subroutine

  subroutine kinetic(n, parts, e)
    integer, intent(in) :: n
    type(particle), intent(in) :: parts(n)
    real(8), intent(out) :: e
    integer :: i
    e = 0
    do i = 1, n
      e = e + 0.5d0 * parts(i)%v**2 + cos(parts(i)%x)
    end do
  end subroutine
end module

program main
  use checks
  use springs
  implicit none
  interface
    subroutine chain_energy__enzyme_autodiff(fn, p, dp, pos, dpos, e, de)
      import :: params
      external :: fn
      type(params) :: p, dp
      real(8) :: pos(*), dpos(*), e, de
    end subroutine
    subroutine kinetic__enzyme_autodiff(fn, c, n, parts, dparts, e, de)
      import :: particle
      external :: fn
      integer :: c, n
      type(particle) :: parts(*), dparts(*)
      real(8) :: e, de
    end subroutine
  end interface
  type(params) :: p, dp, q
  type(particle) :: parts(3), dparts(3), moved(3)
  real(8) :: pos(4), dpos(4), e, de, ep, em, h, save
  integer :: i

  p = params(2.5d0, 4, 0.8d0)
  pos = [0d0, 1.1d0, 1.7d0, 2.9d0]
  dp = params(0d0, 0, 0d0); dpos = 0; de = 1
  call chain_energy__enzyme_autodiff(chain_energy, p, dp, pos, dpos, e, de)
  q = p; h = step(p%k)
  q%k = p%k + h; call chain_energy(q, pos, ep)
  q%k = p%k - h; call chain_energy(q, pos, em)
  call close_to('de/dk', dp%k, (ep - em) / (2 * h), 1d-6)
  q = p; h = step(p%rest)
  q%rest = p%rest + h; call chain_energy(q, pos, ep)
  q%rest = p%rest - h; call chain_energy(q, pos, em)
  call close_to('de/drest', dp%rest, (ep - em) / (2 * h), 1d-6)
  do i = 1, 4
    save = pos(i); h = step(save)
    pos(i) = save + h; call chain_energy(p, pos, ep)
    pos(i) = save - h; call chain_energy(p, pos, em)
    pos(i) = save
    call close_to('de/dpos', dpos(i), (ep - em) / (2 * h), 1d-6)
  end do
  if (dp%n /= 0) then
    print *, 'FAIL the shadow''s integer component was written'
    stop 1
  end if

  parts = [particle(0.1d0, 1d0), particle(0.7d0, -0.5d0), particle(-1.2d0, 2d0)]
  dparts = particle(0d0, 0d0); de = 1
  call kinetic__enzyme_autodiff(kinetic, enzyme_const, 3, parts, dparts, e, de)
  do i = 1, 3
    h = step(parts(i)%x)
    moved = parts; moved(i)%x = parts(i)%x + h; call kinetic(3, moved, ep)
    moved = parts; moved(i)%x = parts(i)%x - h; call kinetic(3, moved, em)
    call close_to('de/dx', dparts(i)%x, (ep - em) / (2 * h), 1d-6)
    h = step(parts(i)%v)
    moved = parts; moved(i)%v = parts(i)%v + h; call kinetic(3, moved, ep)
    moved = parts; moved(i)%v = parts(i)%v - h; call kinetic(3, moved, em)
    call close_to('de/dv', dparts(i)%v, (ep - em) / (2 * h), 1d-6)
  end do
  call finish()
end program
