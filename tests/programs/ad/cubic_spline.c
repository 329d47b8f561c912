/* A natural cubic spline through active knot values: build the second derivatives with the
 * tridiagonal (Thomas) algorithm, then evaluate at points found by a binary search over the
 * knots; gradient w.r.t. the knot values and the evaluation point. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 10 };

static const double KX[N] = {0.0, 0.5, 1.1, 1.6, 2.0, 2.7, 3.1, 3.8, 4.4, 5.0};

static double spline_sum(const double *y, const double *pts, int npts) {
  double m[N], c[N], d[N];
  m[0] = m[N - 1] = 0;
  /* Tridiagonal system for interior second derivatives. */
  c[0] = 0;
  d[0] = 0;
  for (int i = 1; i < N - 1; i++) {
    double h0 = KX[i] - KX[i - 1], h1 = KX[i + 1] - KX[i];
    double rhs = 6 * ((y[i + 1] - y[i]) / h1 - (y[i] - y[i - 1]) / h0);
    double diag = 2 * (h0 + h1) - h0 * c[i - 1];
    c[i] = h1 / diag;
    d[i] = (rhs - h0 * d[i - 1]) / diag;
  }
  for (int i = N - 2; i >= 1; i--) m[i] = d[i] - c[i] * m[i + 1];
  double total = 0;
  for (int p = 0; p < npts; p++) {
    double t = pts[p];
    int lo = 0, hi = N - 1;
    while (hi - lo > 1) {
      int mid = (lo + hi) / 2;
      if (KX[mid] > t) hi = mid; else lo = mid;
    }
    double h = KX[hi] - KX[lo], a = (KX[hi] - t) / h, b = (t - KX[lo]) / h;
    double s = a * y[lo] + b * y[hi] + ((a * a * a - a) * m[lo] + (b * b * b - b) * m[hi]) * h * h / 6;
    total += s * s;
  }
  return total;
}

static double Y[N], PTS[6] = {0.2, 0.9, 1.95, 2.5, 3.3, 4.9};
static double fy(const double *y) { return spline_sum(y, PTS, 6); }
static double fp(const double *p) { return spline_sum(Y, p, 6); }

int main(void) {
  double dy[N] = {0}, dp[6] = {0};
  for (int i = 0; i < N; i++) Y[i] = sin(KX[i]) + 0.1 * KX[i];
  __enzyme_autodiff((void *)spline_sum, Y, dy, PTS, dp, 6);
  for (int i = 0; i < N; i++) check_close("dS/dy", dy[i], fd_array(fy, Y, i), 1e-6);
  for (int i = 0; i < 6; i++) check_close("dS/dt", dp[i], fd_array(fp, PTS, i), 1e-6);
  return check_finish();
}
