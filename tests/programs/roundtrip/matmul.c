/* IR: triple-nested matrix multiply (ikj order, vectorised inner loop), transposition, 2-D arrays via pointer-to-array parameters, trace/norm reductions. */
#include <stdio.h>
#include <math.h>

#define N 48

static double A[N][N], B[N][N], C[N][N], T[N][N];

static void matmul(int n, double (*restrict c)[N], const double (*a)[N], const double (*b)[N])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            c[i][j] = 0.0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            double aik = a[i][k];
            for (int j = 0; j < n; j++)
                c[i][j] += aik * b[k][j];
        }
}

static void transpose(int n, double (*restrict t)[N], const double (*m)[N])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            t[j][i] = m[i][j];
}

static double frobenius(int n, const double (*m)[N])
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            s += m[i][j] * m[i][j];
    return sqrt(s);
}

static void matmul_f32(int n, float *c, const float *a, const float *b)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = 1.0 / (1.0 + i + j);               /* Hilbert-like */
            B[i][j] = (i == j) ? 2.0 : ((i + 2 * j) % 7) * 0.125;
        }
    matmul(N, C, (const double (*)[N])A, (const double (*)[N])B);
    double trace = 0.0;
    for (int i = 0; i < N; i++)
        trace += C[i][i];
    printf("trace(AB) = %.10g\n", trace);
    printf("C[0][0]=%.10g C[5][17]=%.10g C[47][47]=%.10g\n", C[0][0], C[5][17], C[N - 1][N - 1]);
    printf("||A||_F = %.10g ||AB||_F = %.10g\n", frobenius(N, (const double (*)[N])A), frobenius(N, (const double (*)[N])C));

    /* (AB)^T == B^T A^T check */
    transpose(N, T, (const double (*)[N])C);
    static double At[N][N], Bt[N][N], BtAt[N][N];
    transpose(N, At, (const double (*)[N])A);
    transpose(N, Bt, (const double (*)[N])B);
    matmul(N, BtAt, (const double (*)[N])Bt, (const double (*)[N])At);
    double maxdiff = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            maxdiff = fmax(maxdiff, fabs(T[i][j] - BtAt[i][j]));
    printf("transpose identity holds: %s\n", maxdiff < 1e-12 ? "yes" : "no");

    enum { M = 16 };
    float fa[M * M], fb[M * M], fc[M * M];
    for (int i = 0; i < M * M; i++) {
        fa[i] = (float)((i * 3) % 11) - 5.0f;
        fb[i] = (float)((i * 5) % 7) * 0.5f;
    }
    matmul_f32(M, fc, fa, fb);
    float fsum = 0.0f;
    for (int i = 0; i < M * M; i++)
        fsum += fc[i];
    printf("float matmul: sum=%.10g fc[0]=%.10g fc[255]=%.10g\n", (double)fsum, (double)fc[0], (double)fc[M * M - 1]);
    return 0;
}
