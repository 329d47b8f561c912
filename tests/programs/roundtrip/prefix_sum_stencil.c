/* IR: prefix sums (loop-carried dependence), 1-D and 2-D stencils (vectorisable), in-place vs out-of-place buffers, int and double arrays. */
#include <stdio.h>
#include <string.h>

#define N 512
#define NX 48
#define NY 32

static long counts[N];
static long prefix[N + 1];
static double u[N], v[N];
static double img[NY][NX], blurred[NY][NX];

int main(void)
{
    for (int i = 0; i < N; i++)
        counts[i] = (i * 37 + 11) % 23;
    prefix[0] = 0;
    for (int i = 0; i < N; i++)
        prefix[i + 1] = prefix[i] + counts[i];
    printf("prefix total=%ld prefix[100]=%ld\n", prefix[N], prefix[100]);
    /* range sums from prefix sums */
    long r1 = prefix[300] - prefix[200], brute = 0;
    for (int i = 200; i < 300; i++)
        brute += counts[i];
    printf("range [200,300): %ld (brute %ld)\n", r1, brute);

    /* Exclusive scan in place with a running variable. */
    long running = 0;
    for (int i = 0; i < N; i++) {
        long c = counts[i];
        counts[i] = running;
        running += c;
    }
    printf("exclusive scan: counts[1]=%ld counts[511]=%ld running=%ld\n", counts[1], counts[N - 1], running);

    /* 1-D three-point smoothing stencil, repeated with buffer swap. */
    for (int i = 0; i < N; i++)
        u[i] = (i > N / 4 && i < N / 2) ? 1.0 : 0.0;
    for (int it = 0; it < 50; it++) {
        v[0] = u[0];
        v[N - 1] = u[N - 1];
        for (int i = 1; i < N - 1; i++)
            v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
        memcpy(u, v, sizeof u);
    }
    double mass = 0.0;
    for (int i = 0; i < N; i++)
        mass += u[i];
    printf("1-D smoothing: mass=%.17g u[128]=%.17g u[250]=%.17g\n", mass, u[128], u[250]);

    /* 2-D five-point box blur on an image with a bright square. */
    for (int y = 0; y < NY; y++)
        for (int x = 0; x < NX; x++)
            img[y][x] = (x >= 10 && x < 20 && y >= 8 && y < 16) ? 255.0 : (double)((x ^ y) & 7);
    for (int it = 0; it < 4; it++) {
        for (int y = 1; y < NY - 1; y++)
            for (int x = 1; x < NX - 1; x++)
                blurred[y][x] = (img[y][x] * 4.0 + img[y - 1][x] + img[y + 1][x] + img[y][x - 1] + img[y][x + 1]) / 8.0;
        for (int y = 1; y < NY - 1; y++)
            for (int x = 1; x < NX - 1; x++)
                img[y][x] = blurred[y][x];
    }
    printf("2-D blur: img[12][15]=%.17g img[8][10]=%.17g img[20][30]=%.17g\n", img[12][15], img[8][10], img[20][30]);
    double row_sum = 0.0;
    for (int x = 0; x < NX; x++)
        row_sum += img[12][x];
    printf("row 12 sum=%.17g\n", row_sum);
    return 0;
}
