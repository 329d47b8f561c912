/* What the augmented call returns for other return types, as Enzyme lays it out: a function
 * returning a pointer gives {tape, pointer, its shadow} (24 bytes, through a hidden sret
 * pointer in the C ABI) -- the caller seeds through the returned shadow; a function returning
 * an int gives {tape, int} (a constant return: the reverse takes no adjoint for it). */
#include "check.h"

typedef struct {
  void *tape;
  double *ret;
  double *dret;
} aug_ptr_t;
typedef struct {
  void *tape;
  int ret;
} aug_int_t;
extern aug_ptr_t __enzyme_augmentfwd(void *, ...);
extern aug_int_t __enzyme_augmentfwd_i(void *, ...);
extern void __enzyme_reverse(void *, ...);

/* updates x[i] and returns its address */
__attribute__((noinline)) static double *bump(double *x, int i) {
  x[i] = x[i] * x[i] + sin(x[0]);
  return x + i;
}

/* counts the positive entries while writing y = x^3; the count is an integer return */
__attribute__((noinline)) static int cube_count(const double *x, double *y, int n) {
  int c = 0;
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * x[i] * x[i];
    c += x[i] > 0;
  }
  return c;
}

int main(void) {
  double x[3] = {0.5, 1.5, -2.0}, dx[3] = {0, 0, 0};
  aug_ptr_t a = __enzyme_augmentfwd((void *)bump, enzyme_dup, x, dx, enzyme_const, 2);
  if (a.ret != x + 2 || a.dret != dx + 2) {
    printf("FAIL: returned pointer %p / shadow %p, expected %p / %p\n", (void *)a.ret, (void *)a.dret,
           (void *)(x + 2), (void *)(dx + 2));
    return 1;
  }
  check_close("x[2] after augment", x[2], 4.0 + sin(0.5), 1e-14);
  *a.dret = 3.0; /* seed through the returned shadow */
  __enzyme_reverse((void *)bump, enzyme_dup, x, dx, enzyme_const, 2, a.tape);
  check_close("dx[0] = 3 cos(x0)", dx[0], 3.0 * cos(0.5), 1e-12);
  check_close("dx[1]", dx[1], 0.0, 0);
  check_close("dx[2] = 3 * 2 x2", dx[2], 3.0 * 2 * -2.0, 1e-12);

  double u[4] = {0.5, -1.0, 2.0, 0.25}, du[4] = {0}, y[4], dy[4];
  aug_int_t b = __enzyme_augmentfwd_i((void *)cube_count, enzyme_dup, u, du, enzyme_dup, y, dy, enzyme_const, 4);
  if (b.ret != 3) {
    printf("FAIL: count %d, expected 3\n", b.ret);
    return 1;
  }
  for (int i = 0; i < 4; i++) dy[i] = i + 1.0;
  __enzyme_reverse((void *)cube_count, enzyme_dup, u, du, enzyme_dup, y, dy, enzyme_const, 4, b.tape);
  for (int i = 0; i < 4; i++) {
    char what[24];
    snprintf(what, sizeof what, "du[%d]", i);
    check_close(what, du[i], (i + 1.0) * 3 * u[i] * u[i], 1e-12);
  }
  return check_finish();
}
