/* IR: libc qsort/bsearch with comparator callbacks, void* casts, struct arrays sorted by several keys, deterministic tie-breaking by a second key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct city {
    char name[16];
    int population; /* thousands */
    double latitude;
};

static int cmp_int_asc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_double_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static int cmp_city_pop(const void *a, const void *b)
{
    const struct city *p = a, *q = b;
    if (p->population != q->population)
        return q->population - p->population;
    return strcmp(p->name, q->name);
}

static int cmp_city_lat(const void *a, const void *b)
{
    const struct city *p = a, *q = b;
    return (p->latitude > q->latitude) - (p->latitude < q->latitude);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(void)
{
    int xs[40];
    unsigned seed = 7u;
    for (int i = 0; i < 40; i++) {
        seed = seed * 1103515245u + 12345u;
        xs[i] = (int)((seed >> 16) % 1000) - 500;
    }
    qsort(xs, 40, sizeof xs[0], cmp_int_asc);
    printf("ints:");
    for (int i = 0; i < 40; i += 4)
        printf(" %d", xs[i]);
    printf(" ... max %d\n", xs[39]);
    int key = xs[17];
    int *hit = bsearch(&key, xs, 40, sizeof xs[0], cmp_int_asc);
    printf("bsearch %d -> found value %d\n", key, hit ? *hit : -9999);

    double ds[] = {3.5, -1.25, 9.0, 0.0, 2.75, -8.5, 4.125, 1e-3};
    qsort(ds, sizeof ds / sizeof ds[0], sizeof ds[0], cmp_double_desc);
    printf("doubles desc:");
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
        printf(" %.17g", ds[i]);
    printf("\n");

    struct city cities[] = {
        {"Oslo", 709, 59.91},    {"Lima", 10092, -12.05},  {"Cairo", 10230, 30.04}, {"Quito", 2011, -0.18},
        {"Perth", 2141, -31.95}, {"Tromso", 77, 69.65},    {"Accra", 2557, 5.60},   {"Bergen", 286, 60.39},
        {"Delhi", 32941, 28.61}, {"Madrid", 3332, 40.42},
    };
    size_t nc = sizeof cities / sizeof cities[0];
    qsort(cities, nc, sizeof cities[0], cmp_city_pop);
    printf("by population:\n");
    for (size_t i = 0; i < nc; i++)
        printf("  %-8s %6d\n", cities[i].name, cities[i].population);
    qsort(cities, nc, sizeof cities[0], cmp_city_lat);
    printf("south to north:");
    for (size_t i = 0; i < nc; i++)
        printf(" %s", cities[i].name);
    printf("\n");

    const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "date", "elderberry", "grape"};
    qsort(words, 8, sizeof words[0], cmp_str);
    printf("words:");
    for (int i = 0; i < 8; i++)
        printf(" %s", words[i]);
    printf("\n");
    return 0;
}
