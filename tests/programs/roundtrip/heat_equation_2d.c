/* IR: explicit finite-difference 2-D heat equation (5-point stencil on static 2-D arrays, pointer swap of time levels), Jacobi solve of Poisson; vectorisable (FASTMATH-safe). */
#include <stdio.h>
#include <math.h>

#define NX 40
#define NY 30

static double grid_a[NY][NX], grid_b[NY][NX];

static void apply_boundary(double (*u)[NX])
{
    for (int x = 0; x < NX; x++) {
        u[0][x] = 100.0;      /* hot top edge */
        u[NY - 1][x] = 0.0;   /* cold bottom edge */
    }
    for (int y = 0; y < NY; y++) {
        u[y][0] = 0.0;
        u[y][NX - 1] = 0.0;
    }
}

static double step(double (*restrict next)[NX], const double (*restrict cur)[NX], double r)
{
    double change = 0.0;
    for (int y = 1; y < NY - 1; y++)
        for (int x = 1; x < NX - 1; x++) {
            double lap = cur[y - 1][x] + cur[y + 1][x] + cur[y][x - 1] + cur[y][x + 1] - 4.0 * cur[y][x];
            next[y][x] = cur[y][x] + r * lap;
            change += fabs(next[y][x] - cur[y][x]);
        }
    return change;
}

/* Jacobi iterations for -laplace(u) = 1 on the unit square with zero boundary. */
static double poisson_centre(int n, int iters)
{
    static double u[34][34], v[34][34];
    double h2 = 1.0 / ((n - 1.0) * (n - 1.0));
    for (int it = 0; it < iters; it++) {
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] + h2);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                u[i][j] = v[i][j];
    }
    return u[n / 2][n / 2];
}

int main(void)
{
    double (*cur)[NX] = grid_a, (*next)[NX] = grid_b;
    apply_boundary(cur);
    apply_boundary(next);
    const double r = 0.2; /* alpha*dt/dx^2 below the 0.25 stability limit */
    double change = 0.0;
    int steps = 0;
    for (; steps < 400; steps++) {
        change = step(next, (const double (*)[NX])cur, r);
        double (*tmp)[NX] = cur;
        cur = next;
        next = tmp;
        if (steps % 100 == 0)
            printf("step %3d change=%.10g centre=%.10g\n", steps, change, cur[NY / 2][NX / 2]);
    }
    double total = 0.0, peak_below_top = 0.0;
    for (int y = 1; y < NY - 1; y++)
        for (int x = 1; x < NX - 1; x++) {
            total += cur[y][x];
            if (y == 1 && cur[y][x] > peak_below_top)
                peak_below_top = cur[y][x];
        }
    printf("after %d steps: interior heat=%.10g row1 peak=%.10g last change=%.10g\n", steps, total, peak_below_top,
           change);
    printf("profile down the middle:");
    for (int y = 0; y < NY; y += 5)
        printf(" %.6g", cur[y][NX / 2]);
    printf("\n");
    printf("poisson centre value (33x33, 800 its) = %.10g\n", poisson_centre(33, 800));
    return 0;
}
