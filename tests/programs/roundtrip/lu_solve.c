/* IR: dense LU factorisation with partial pivoting (row swaps, fabs comparisons), forward/back substitution, residual check, determinant. */
#include <stdio.h>
#include <math.h>

#define N 6

static int lu_decompose(double a[N][N], int perm[N], int *sign)
{
    *sign = 1;
    for (int i = 0; i < N; i++)
        perm[i] = i;
    for (int k = 0; k < N; k++) {
        int p = k;
        double best = fabs(a[k][k]);
        for (int i = k + 1; i < N; i++)
            if (fabs(a[i][k]) > best) {
                best = fabs(a[i][k]);
                p = i;
            }
        if (best < 1e-300)
            return -1;
        if (p != k) {
            for (int j = 0; j < N; j++) {
                double t = a[k][j];
                a[k][j] = a[p][j];
                a[p][j] = t;
            }
            int t = perm[k];
            perm[k] = perm[p];
            perm[p] = t;
            *sign = -*sign;
        }
        for (int i = k + 1; i < N; i++) {
            a[i][k] /= a[k][k];
            for (int j = k + 1; j < N; j++)
                a[i][j] -= a[i][k] * a[k][j];
        }
    }
    return 0;
}

static void lu_solve(double lu[N][N], const int perm[N], const double b[N], double x[N])
{
    double y[N];
    for (int i = 0; i < N; i++) {
        double s = b[perm[i]];
        for (int j = 0; j < i; j++)
            s -= lu[i][j] * y[j];
        y[i] = s;
    }
    for (int i = N - 1; i >= 0; i--) {
        double s = y[i];
        for (int j = i + 1; j < N; j++)
            s -= lu[i][j] * x[j];
        x[i] = s / lu[i][i];
    }
}

int main(void)
{
    double a[N][N], lu[N][N], b[N], x[N];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            a[i][j] = (i == j) ? 4.0 + i : 1.0 / (1.0 + fabs((double)(i - j))) * ((i + j) % 2 ? -1.0 : 1.0);
        b[i] = 1.0 + i * 0.5;
    }
    a[0][0] = 0.1; /* forces a pivot swap */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            lu[i][j] = a[i][j];
    int perm[N], sign;
    if (lu_decompose(lu, perm, &sign) != 0) {
        printf("singular\n");
        return 0;
    }
    printf("perm:");
    for (int i = 0; i < N; i++)
        printf(" %d", perm[i]);
    printf(" sign=%d\n", sign);
    double det = sign;
    for (int i = 0; i < N; i++)
        det *= lu[i][i];
    printf("det = %.10g\n", det);
    lu_solve(lu, perm, b, x);
    for (int i = 0; i < N; i++)
        printf("x[%d] = %.10g\n", i, x[i]);
    double resid = 0.0;
    for (int i = 0; i < N; i++) {
        double s = -b[i];
        for (int j = 0; j < N; j++)
            s += a[i][j] * x[j];
        resid = fmax(resid, fabs(s));
    }
    printf("max residual below 1e-12: %s\n", resid < 1e-12 ? "yes" : "no");

    /* Inverse column by column, then check A * inv(A) = I. */
    double inv[N][N], col[N], e[N];
    for (int c = 0; c < N; c++) {
        for (int i = 0; i < N; i++)
            e[i] = (i == c);
        lu_solve(lu, perm, e, col);
        for (int i = 0; i < N; i++)
            inv[i][c] = col[i];
    }
    double err = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * inv[k][j];
            err = fmax(err, fabs(s - (i == j)));
        }
    printf("inverse error below 1e-12: %s, inv[0][0]=%.10g\n", err < 1e-12 ? "yes" : "no", inv[0][0]);
    return 0;
}
