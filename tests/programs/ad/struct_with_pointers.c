/* Structs holding pointers to active data (the shadow struct holds the shadow pointers), an
 * array of row pointers (double **), and a pointer chosen at runtime between two arrays. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { R = 4, C = 3 };

typedef struct {
  double *data;
  int n;
  double scale;
} Vec;

static double f(const Vec *v, double **rows, int use_second, double *first, double *second) {
  double s = 0;
  for (int i = 0; i < v->n; i++) s += v->data[i] * v->data[i] * v->scale;
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) s += rows[r][c] * (r + 1) * v->data[c];
  double *p = use_second ? second : first;
  for (int i = 0; i < 3; i++) s += p[i] * sin(p[i]);
  return s;
}

static double D[C] = {0.3, -0.8, 1.1}, M[R][C], A1[3] = {0.1, 0.2, 0.3}, A2[3] = {-0.4, 0.9, 1.6};
static double *ROWS[R];
static Vec V;
static int USE;
static double fd(const double *unused) { (void)unused; return f(&V, ROWS, USE, A1, A2); }

int main(void) {
  double dd[C], dm[R][C], da1[3], da2[3];
  double *drows[R];
  Vec dv;
  for (int r = 0; r < R; r++) {
    ROWS[r] = M[r];
    drows[r] = dm[r];
    for (int c = 0; c < C; c++) M[r][c] = cos(r + 2.0 * c);
  }
  V.data = D; V.n = C; V.scale = 1.5;
  for (USE = 0; USE <= 1; USE++) {
    for (int c = 0; c < C; c++) dd[c] = 0;
    for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) dm[r][c] = 0;
    for (int i = 0; i < 3; i++) da1[i] = da2[i] = 0;
    dv.data = dd; dv.n = 0; dv.scale = 0;
    __enzyme_autodiff((void *)f, enzyme_dup, &V, &dv, enzyme_dup, ROWS, drows, enzyme_const, USE,
                      enzyme_dup, A1, da1, enzyme_dup, A2, da2);
    for (int c = 0; c < C; c++) check_close("df/ddata", dd[c], fd_array(fd, &D[c], 0), 1e-6);
    check_close("df/dscale", dv.scale, fd_array(fd, &V.scale, 0), 1e-6);
    for (int r = 0; r < R; r++)
      for (int c = 0; c < C; c++) check_close("df/drows", dm[r][c], fd_array(fd, &M[r][c], 0), 1e-6);
    for (int i = 0; i < 3; i++) {
      check_close("df/dfirst", da1[i], fd_array(fd, &A1[i], 0), 1e-6);
      check_close("df/dsecond", da2[i], fd_array(fd, &A2[i], 0), 1e-6);
    }
  }
  return check_finish();
}
