/* memmove in both directions over overlapping ranges of one array (the adjoints must move in
 * the opposite order to the bytes), a memcpy of structs mixing doubles, an int and a pointer to
 * active data (only the doubles' adjoints move; the pointer's shadow is copied), and a copy from
 * a constant table into active memory (the old adjoints are dropped). */
#include <string.h>
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 12, M = 4 };

typedef struct {
  double w;
  int id;
  const double *src;
  double bias;
} Node;

static const double TABLE[3] = {0.5, -1.0, 2.0};

static double f(double *x, const Node *nodes, int n, int m) {
  memmove(x + 3, x, (n - 3) * sizeof(double)); /* shift right */
  for (int i = 0; i < n; i++) x[i] = x[i] * (1.0 + 0.1 * i);
  memmove(x, x + 2, (n - 2) * sizeof(double)); /* shift left */
  Node local[M];
  memcpy(local, nodes, m * sizeof(Node));
  double s = 0;
  for (int k = 0; k < m; k++) s += local[k].w * local[k].src[k % 2] * local[k].id + local[k].bias * x[k];
  memcpy(x + 4, TABLE, sizeof TABLE);
  for (int i = 0; i < n; i++) s += x[i] * x[i] * (i + 1);
  return s;
}

static double X0[N], DATA[2];
static Node NODES[M];
static double fd(const double *unused) {
  (void)unused;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i];
  return f(x, NODES, N, M);
}

int main(void) {
  double x[N], dx[N] = {0}, ddata[2] = {0};
  Node dnodes[M];
  for (int i = 0; i < N; i++) x[i] = X0[i] = 0.1 * i - 0.45;
  DATA[0] = 0.7;
  DATA[1] = -1.3;
  for (int k = 0; k < M; k++) {
    NODES[k].w = 0.5 + 0.25 * k; NODES[k].id = k + 1; NODES[k].src = DATA; NODES[k].bias = cos(k);
    dnodes[k].w = 0; dnodes[k].id = 0; dnodes[k].src = ddata; dnodes[k].bias = 0;
  }
  __enzyme_autodiff((void *)f, x, dx, NODES, dnodes, N, M);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fd, &X0[i], 0), 1e-6);
  for (int k = 0; k < M; k++) {
    check_close("df/dw", dnodes[k].w, fd_array(fd, &NODES[k].w, 0), 1e-6);
    check_close("df/dbias", dnodes[k].bias, fd_array(fd, &NODES[k].bias, 0), 1e-6);
    check_close("shadow pointer kept", dnodes[k].src == ddata, 1.0, 0);
  }
  for (int j = 0; j < 2; j++) check_close("df/ddata", ddata[j], fd_array(fd, &DATA[j], 0), 1e-6);
  return check_finish();
}
