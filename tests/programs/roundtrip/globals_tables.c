/* IR: global variables (mutable, const, zero-initialised), constant arrays, tables of structs, string constants, pointers to globals in initialisers. */
#include <stdio.h>
#include <string.h>

struct element {
    const char *symbol;
    int number;
    double mass;
    char group;
};

static const struct element periodic[] = {
    {"H", 1, 1.008, 'n'},    {"He", 2, 4.0026, 'g'}, {"Li", 3, 6.94, 'a'},   {"C", 6, 12.011, 'n'},
    {"N", 7, 14.007, 'n'},   {"O", 8, 15.999, 'n'},  {"Na", 11, 22.990, 'a'}, {"Cl", 17, 35.45, 'h'},
    {"Fe", 26, 55.845, 't'}, {"Cu", 29, 63.546, 't'},
};
enum { N_ELEMENTS = sizeof periodic / sizeof periodic[0] };

const double gauss_weights[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                 0.4786286704993665, 0.2369268850561891};
const double gauss_nodes[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                               0.9061798459386640};

int call_count;                 /* zero-initialised, mutable */
long histogram[8];              /* zeroinitializer array */
double running_total = 100.0;   /* mutable with initialiser */
static const char banner[] = "molar masses";
const char *const greeting = "formula weights";
static int primes[] = {2, 3, 5, 7, 11, 13};
static int *const prime_cursor[] = {&primes[0], &primes[2], &primes[5]}; /* pointers into a global */
static const char *const *name_ptr = &greeting;                           /* pointer to a global pointer */
static const struct element *heaviest = &periodic[9];

static const struct element *lookup(const char *sym)
{
    call_count++;
    for (int i = 0; i < N_ELEMENTS; i++)
        if (strcmp(periodic[i].symbol, sym) == 0)
            return &periodic[i];
    return NULL;
}

/* Molar mass of a formula given as symbol/count pairs. */
static double formula_mass(const char *const *syms, const int *counts, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) {
        const struct element *e = lookup(syms[i]);
        if (e) {
            m += e->mass * counts[i];
            histogram[e->number % 8] += counts[i];
        }
    }
    running_total += m;
    return m;
}

static double gauss_legendre_cubic(void)
{
    /* integral of x^3 - 2x + 1 over [-1, 1] is exactly 2 */
    double s = 0.0;
    for (int i = 0; i < 5; i++) {
        double x = gauss_nodes[i];
        s += gauss_weights[i] * (x * x * x - 2.0 * x + 1.0);
    }
    return s;
}

int main(void)
{
    printf("%s / %s (%zu chars)\n", banner, *name_ptr, strlen(banner));
    const char *water[] = {"H", "O"};
    const int water_n[] = {2, 1};
    const char *salt[] = {"Na", "Cl"};
    const int salt_n[] = {1, 1};
    const char *glucose[] = {"C", "H", "O"};
    const int glucose_n[] = {6, 12, 6};
    printf("H2O  %.17g\n", formula_mass(water, water_n, 2));
    printf("NaCl %.17g\n", formula_mass(salt, salt_n, 2));
    printf("C6H12O6 %.17g\n", formula_mass(glucose, glucose_n, 3));
    printf("running total %.17g after %d lookups\n", running_total, call_count);
    for (int i = 0; i < 8; i++)
        printf("hist[%d]=%ld%s", i, histogram[i], i == 7 ? "\n" : " ");
    printf("heaviest listed: %s (%d) %.17g group %c\n", heaviest->symbol, heaviest->number, heaviest->mass,
           heaviest->group);
    *prime_cursor[1] = 17; /* writes through pointer into primes[] */
    int psum = 0;
    for (int i = 0; i < 6; i++)
        psum += primes[i];
    printf("primes sum after edit = %d, cursor values %d %d %d\n", psum, *prime_cursor[0], *prime_cursor[1],
           *prime_cursor[2]);
    printf("gauss-legendre integral = %.17g\n", gauss_legendre_cubic());
    printf("unknown symbol found: %s\n", lookup("Xx") ? "yes" : "no");
    return 0;
}
