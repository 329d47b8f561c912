/* Custom gradients returning a value, in shapes the C ABI passes differently:
 *  - lse: log-sum-exp of a row (pointer + shadow, int length), with a stable gradient
 *    (softmax from the result kept on the tape), called in a loop over the rows of a matrix;
 *  - smooth_max3: three active doubles, so the gradient's struct of derivatives comes back
 *    through a hidden sret pointer;
 *  - normf: two active floats, their derivatives packed as <2 x float>. */
#include "check.h"

typedef struct { void *tape; double result; } TapeAndDouble;
typedef struct { void *tape; float result; } TapeAndFloat;
typedef struct { double da, db, dc; } Three;
typedef struct { float da, db; } TwoF;

extern double __enzyme_autodiff(void *, ...);
extern Three __enzyme_autodiff_3(void *, ...);
extern float __enzyme_autodiff_f(void *, float);

static int lse_gradients;

__attribute__((noinline)) double lse(const double *x, int n) {
  double m = x[0], s = 0;
  for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  return m + log(s);
}

TapeAndDouble augment_lse(const double *x, double *dx, int n) {
  double *tape = malloc(sizeof(double));
  *tape = lse(x, n);
  TapeAndDouble r = {tape, *tape};
  return r;
}

void gradient_lse(const double *x, double *dx, int n, double differet, void *tape) {
  lse_gradients++;
  double y = *(double *)tape;
  for (int i = 0; i < n; i++) dx[i] += differet * exp(x[i] - y);
  free(tape);
}

void *__enzyme_register_gradient_lse[] = {(void *)lse, (void *)augment_lse, (void *)gradient_lse};

/* sum over rows of lse(row) * (r + 1), with rows large enough that a naive exp overflows */
static double rows_objective(const double *a, int rows, int cols) {
  double z = 0;
  for (int r = 0; r < rows; r++) z += (r + 1) * lse(a + r * cols, cols);
  return z;
}

__attribute__((noinline)) double smooth_max3(double a, double b, double c) {
  double m = fmax(a, fmax(b, c));
  return m + log(exp(a - m) + exp(b - m) + exp(c - m));
}

TapeAndDouble augment_smooth_max3(double a, double b, double c) {
  TapeAndDouble r = {0, smooth_max3(a, b, c)};
  return r;
}

Three gradient_smooth_max3(double a, double b, double c, double differet, void *tape) {
  double y = smooth_max3(a, b, c);
  Three d = {differet * exp(a - y), differet * exp(b - y), differet * exp(c - y)};
  return d;
}

void *__enzyme_register_gradient_smooth_max3[] = {(void *)smooth_max3, (void *)augment_smooth_max3,
                                                  (void *)gradient_smooth_max3};

static double three(double a, double b, double c) { return smooth_max3(a * b, b, c) * c; }

__attribute__((noinline)) float normf(float a, float b) { return sqrtf(a * a + b * b); }

TapeAndFloat augment_normf(float a, float b) {
  TapeAndFloat r = {0, normf(a, b)};
  return r;
}

TwoF gradient_normf(float a, float b, float differet, void *tape) {
  float n = normf(a, b);
  TwoF d = {differet * a / n, differet * b / n};
  return d;
}

void *__enzyme_register_gradient_normf[] = {(void *)normf, (void *)augment_normf, (void *)gradient_normf};

static float norm_twice(float a) { return normf(a, 2 * a) + normf(1.0f, a); }

int main(void) {
  enum { R = 3, C = 4 };
  double a[R * C], da[R * C] = {0};
  for (int i = 0; i < R * C; i++) a[i] = 700 + 3 * sin(i); /* exp(700+) overflows a naive sum */
  __enzyme_autodiff((void *)rows_objective, enzyme_dup, a, da, enzyme_const, R, enzyme_const, C);
  check_close("lse gradients", lse_gradients, R, 0);
  for (int r = 0; r < R; r++) {
    double y = lse(a + r * C, C);
    for (int c = 0; c < C; c++) check_close("d rows/d a", da[r * C + c], (r + 1) * exp(a[r * C + c] - y), 1e-12);
  }

  double x = 0.5, y = -0.3, z = 0.8;
  Three g = __enzyme_autodiff_3((void *)three, x, y, z);
  double h = 1e-6;
  check_close("d three/da", g.da, (three(x + h, y, z) - three(x - h, y, z)) / (2 * h), 1e-7);
  check_close("d three/db", g.db, (three(x, y + h, z) - three(x, y - h, z)) / (2 * h), 1e-7);
  check_close("d three/dc", g.dc, (three(x, y, z + h) - three(x, y, z - h)) / (2 * h), 1e-7);

  float t = 0.75f;
  float dt = __enzyme_autodiff_f((void *)norm_twice, t);
  /* d/dt [sqrt(5) t + sqrt(1 + t^2)] */
  check_close("d norm_twice", dt, sqrt(5.0) + t / sqrt(1 + t * t), 1e-5);
  return check_finish();
}
