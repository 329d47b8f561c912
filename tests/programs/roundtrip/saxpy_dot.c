/* IR: loops clang vectorises at -O2/-O3 (saxpy, daxpy, dot products), restrict pointers, vector types and shufflevector/reduction intrinsics. */
#include <stdio.h>
#include <stdlib.h>

#define N 1000

static void saxpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

static void daxpy(int n, double a, const double *restrict x, double *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

static double ddot(int n, const double *x, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

static float sdot(int n, const float *x, const float *y)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

static long idot(int n, const int *x, const int *y)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += (long)x[i] * y[i];
    return s;
}

static void scale_shift(int n, double *v, double scale, double shift)
{
    for (int i = 0; i < n; i++)
        v[i] = v[i] * scale + shift;
}

int main(void)
{
    float *xf = malloc(N * sizeof *xf), *yf = malloc(N * sizeof *yf);
    double *xd = malloc(N * sizeof *xd), *yd = malloc(N * sizeof *yd);
    int *xi = malloc(N * sizeof *xi), *yi = malloc(N * sizeof *yi);
    if (!xf || !yf || !xd || !yd || !xi || !yi)
        return 1;
    for (int i = 0; i < N; i++) {
        xf[i] = (float)(i % 17) * 0.25f;
        yf[i] = (float)(i % 5) - 2.0f;
        xd[i] = 1.0 / (i + 1.0);
        yd[i] = (i % 3 == 0) ? 0.5 : -0.25;
        xi[i] = i % 101 - 50;
        yi[i] = (i * 7) % 13 - 6;
    }
    for (int rep = 0; rep < 3; rep++) {
        saxpy(N, 0.5f, xf, yf);
        daxpy(N, -1.5, xd, yd);
    }
    printf("yf[0,1,499,999] = %.10g %.10g %.10g %.10g\n", (double)yf[0], (double)yf[1], (double)yf[499],
           (double)yf[999]);
    printf("yd[0,1,499,999] = %.10g %.10g %.10g %.10g\n", yd[0], yd[1], yd[499], yd[999]);
    printf("sdot(xf, yf) = %.10g\n", (double)sdot(N, xf, yf));
    printf("ddot(xd, yd) = %.10g\n", ddot(N, xd, yd));
    printf("ddot(xd, xd) = %.10g\n", ddot(N, xd, xd));
    printf("idot(xi, yi) = %ld\n", idot(N, xi, yi));
    scale_shift(N, yd, 2.0, 1.0);
    printf("sum after scale_shift = %.10g\n", ddot(N, yd, yd));
    free(xf);
    free(yf);
    free(xd);
    free(yd);
    free(xi);
    free(yi);
    return 0;
}
