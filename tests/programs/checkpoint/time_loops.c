/* Time loops whose state is carried in SSA values, differentiated with checkpoint-loops
 * (tests/test_checkpointing.py): their gradients under binomial and periodic checkpointing are
 * compared with the cached gradient and with central finite differences. */
#include <math.h>

/* An explicit (semi-implicit Euler) stepper of a damped pendulum: x and v carried. */
double ode(const double *p, double x0, int nsteps) {
  double x = x0, v = 0.0, dt = 0.01;
  for (int t = 0; t < nsteps; t++) {
    double a = -p[0] * x - p[1] * v + 0.1 * sin(x);
    x += dt * v;
    v += dt * a;
  }
  return x * x + v;
}

/* A nested loop: only the outer (time) loop is checkpointed; the inner one is part of a step. */
double nested(const double *w, int m, double x0, int nsteps) {
  double x = x0, y = 0.5;
  for (int t = 0; t < nsteps; t++) {
    double s = 0;
    for (int j = 0; j < m; j++) s += w[j] * sin(x + 0.1 * j);
    y = 0.9 * y + 0.01 * x;
    x = x + 0.01 * s - 0.02 * y;
  }
  return x + y * y;
}

/* A counter other than 0..n (from `lo` to `hi`, step 1), in f32. */
float logistic(const float *r, float x0, int lo, int hi) {
  float x = x0;
  for (int t = lo; t < hi; t++) x = x + 0.05f * r[0] * x * (1.0f - x) + 0.001f * (float)t * r[1];
  return x;
}
