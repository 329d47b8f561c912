/* IR: insertion sort (inner while with shifting), top-down merge sort (recursion + scratch buffer), bottom-up merge, sortedness checks on int/double arrays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void insertion_sort(double *a, int n)
{
    for (int i = 1; i < n; i++) {
        double key = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > key) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = key;
    }
}

static void merge(int *a, int *tmp, int lo, int mid, int hi)
{
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < mid)
        tmp[k++] = a[i++];
    while (j < hi)
        tmp[k++] = a[j++];
    memcpy(a + lo, tmp + lo, (size_t)(hi - lo) * sizeof *a);
}

static void merge_sort_rec(int *a, int *tmp, int lo, int hi)
{
    if (hi - lo < 2)
        return;
    int mid = lo + (hi - lo) / 2;
    merge_sort_rec(a, tmp, lo, mid);
    merge_sort_rec(a, tmp, mid, hi);
    if (a[mid - 1] > a[mid])
        merge(a, tmp, lo, mid, hi);
}

static void merge_sort_bottom_up(int *a, int *tmp, int n)
{
    for (int width = 1; width < n; width *= 2)
        for (int lo = 0; lo < n - width; lo += 2 * width) {
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            merge(a, tmp, lo, lo + width, hi);
        }
}

static int is_sorted(const int *a, int n)
{
    for (int i = 1; i < n; i++)
        if (a[i - 1] > a[i])
            return 0;
    return 1;
}

int main(void)
{
    double d[24];
    for (int i = 0; i < 24; i++)
        d[i] = ((i * 7919) % 97) / 8.0 - 6.0;
    insertion_sort(d, 24);
    printf("insertion:");
    for (int i = 0; i < 24; i += 3)
        printf(" %.17g", d[i]);
    printf("\n");

    enum { N = 3000 };
    int *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *tmp = malloc(N * sizeof *tmp);
    if (!a || !b || !tmp)
        return 1;
    unsigned s = 42u;
    long checksum_before = 0;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = (int)(s >> 12) % 10000 - 5000;
        b[i] = a[i];
        checksum_before += a[i];
    }
    merge_sort_rec(a, tmp, 0, N);
    merge_sort_bottom_up(b, tmp, N);
    long checksum_after = 0, weighted = 0;
    for (int i = 0; i < N; i++) {
        checksum_after += a[i];
        weighted += (long)a[i] * (i % 17);
    }
    printf("recursive sorted=%d bottom-up sorted=%d same=%d\n", is_sorted(a, N), is_sorted(b, N),
           memcmp(a, b, N * sizeof *a) == 0);
    printf("checksum %ld -> %ld weighted=%ld\n", checksum_before, checksum_after, weighted);
    printf("min=%d median=%d max=%d\n", a[0], a[N / 2], a[N - 1]);
    int dups = 0;
    for (int i = 1; i < N; i++)
        dups += a[i] == a[i - 1];
    printf("duplicates=%d\n", dups);
    free(a);
    free(b);
    free(tmp);
    return 0;
}
