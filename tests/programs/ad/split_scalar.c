/* Split mode on scalar functions: __enzyme_augmentfwd runs f and returns Enzyme's struct
 * {tape, primal return}; __enzyme_reverse takes the arguments, the adjoint of the return, then
 * the tape, and returns the derivatives of the active arguments (as __enzyme_autodiff does).
 * The return adjoint is a chosen seed, not 1, so a dropped seed shows.  A function of two
 * active scalars returns both derivatives in a struct; an integer argument is constant. */
#include "check.h"

typedef struct {
  void *tape;
  double ret;
} aug_t;
typedef struct {
  double dx, dy;
} grad2;

extern aug_t __enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);
extern grad2 __enzyme_reverse2(void *, ...);

__attribute__((noinline)) static double f(double x) { return sin(x) * x + exp(0.3 * x); }

__attribute__((noinline)) static double g(double x, double y, int k) {
  double s = 0;
  for (int i = 1; i <= k; i++) s += pow(x, i) / (i + y * y);
  return s * cos(y);
}

static double g_x(double x) { return g(x, -0.4, 4); }
static double g_y(double y) { return g(0.9, y, 4); }

int main(void) {
  double x = 0.7;
  aug_t a = __enzyme_augmentfwd((void *)f, x);
  check_close("f primal from the augmented call", a.ret, f(x), 1e-14);
  double seed = 2.5;
  double dx = __enzyme_reverse((void *)f, x, seed, a.tape);
  check_close("seed * f'(x)", dx, seed * fd1(f, x), 1e-6);

  aug_t b = __enzyme_augmentfwd((void *)g, enzyme_out, 0.9, -0.4, enzyme_const, 4);
  check_close("g primal", b.ret, g(0.9, -0.4, 4), 1e-14);
  grad2 d = __enzyme_reverse2((void *)g, enzyme_out, 0.9, -0.4, enzyme_const, 4, -1.5, b.tape);
  check_close("dg/dx", d.dx, -1.5 * fd1(g_x, 0.9), 1e-6);
  check_close("dg/dy", d.dy, -1.5 * fd1(g_y, -0.4), 1e-6);
  return check_finish();
}
