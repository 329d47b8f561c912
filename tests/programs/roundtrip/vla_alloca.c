/* IR: variable-length arrays (dynamic alloca, llvm.stacksave/stackrestore), alloca(), VLA parameters double m[n][n], sizeof on VLAs. */
#include <stdio.h>
#include <alloca.h>
#include <string.h>

/* Multiplies an n x n matrix by itself using VLA parameters. */
static void square_matrix(int n, const double a[n][n], double out[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += a[i][k] * a[k][j];
            out[i][j] = s;
        }
}

/* Pascal's triangle row using a VLA scratch buffer inside a loop. */
static long pascal_middle(int n)
{
    long row[n + 1];
    for (int i = 0; i <= n; i++) {
        row[i] = 1;
        for (int j = i - 1; j > 0; j--)
            row[j] += row[j - 1];
    }
    return row[n / 2];
}

/* Joins words with a separator in an alloca'd buffer. */
static size_t join_length(const char **words, int n, const char *sep)
{
    size_t need = 1;
    for (int i = 0; i < n; i++)
        need += strlen(words[i]) + strlen(sep);
    char *buf = alloca(need);
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(buf, sep);
        strcat(buf, words[i]);
    }
    printf("joined: %s\n", buf);
    return strlen(buf);
}

int main(void)
{
    for (int n = 2; n <= 5; n++) {
        double a[n][n], sq[n][n];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                a[i][j] = (i == j) ? 2.0 : 1.0 / (i + j + 1);
        square_matrix(n, (const double (*)[n])a, sq);
        double trace = 0.0;
        for (int i = 0; i < n; i++)
            trace += sq[i][i];
        printf("n=%d sizeof(a)=%zu trace(a^2)=%.17g corner=%.17g\n", n, sizeof a, trace, sq[n - 1][0]);
    }
    for (int n = 4; n <= 32; n += 7)
        printf("C(%d,%d) = %ld\n", n, n / 2, pascal_middle(n));
    const char *words[] = {"alpha", "beta", "gamma", "delta"};
    printf("length %zu\n", join_length(words, 4, " | "));
    printf("length %zu\n", join_length(words, 2, "::"));

    /* A VLA whose size depends on a loop, allocated and freed each iteration. */
    long total = 0;
    for (int len = 1; len <= 64; len *= 2) {
        int tmp[len];
        for (int i = 0; i < len; i++)
            tmp[i] = i * len;
        for (int i = 0; i < len; i++)
            total += tmp[len - 1 - i] % 7;
    }
    printf("vla loop total = %ld\n", total);
    return 0;
}
