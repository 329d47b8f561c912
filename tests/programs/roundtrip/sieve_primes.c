/* IR: sieve of Eratosthenes over a byte array and a bitset (shift/mask indexing), nested loops with stride, prime gaps, twin primes, Euler totient sieve. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT 200000

int main(void)
{
    unsigned char *composite = calloc(LIMIT + 1, 1);
    uint64_t *bits = calloc(LIMIT / 64 + 1, sizeof *bits);
    int *phi = malloc((LIMIT / 10 + 1) * sizeof *phi);
    if (!composite || !bits || !phi)
        return 1;

    for (long i = 2; i * i <= LIMIT; i++)
        if (!composite[i])
            for (long j = i * i; j <= LIMIT; j += i)
                composite[j] = 1;

    /* Odd-only bitset sieve: bit k represents 2k+1. */
    for (long i = 3; i * i <= LIMIT; i += 2)
        if (!(bits[(i / 2) >> 6] >> ((i / 2) & 63) & 1))
            for (long j = i * i; j <= LIMIT; j += 2 * i)
                bits[(j / 2) >> 6] |= 1ull << ((j / 2) & 63);

    int count = 0, count_bits = 1, twins = 0, max_gap = 0, gap_at = 0, last = 2;
    long long sum = 0;
    for (int n = 2; n <= LIMIT; n++) {
        if (composite[n])
            continue;
        count++;
        sum += n;
        if (n - last > max_gap) {
            max_gap = n - last;
            gap_at = last;
        }
        if (n - last == 2)
            twins++;
        last = n;
    }
    for (int n = 3; n <= LIMIT; n += 2)
        count_bits += !(bits[(n / 2) >> 6] >> ((n / 2) & 63) & 1);
    printf("primes <= %d: %d (bitset %d), sum %lld\n", LIMIT, count, count_bits, sum);
    printf("twin pairs %d, largest gap %d after %d, largest prime %d\n", twins, max_gap, gap_at, last);
    printf("pi(10^k):");
    for (int lim = 10; lim <= LIMIT; lim *= 10) {
        int c = 0;
        for (int n = 2; n <= lim; n++)
            c += !composite[n];
        printf(" %d", c);
    }
    printf("\n");

    int m = LIMIT / 10;
    for (int i = 0; i <= m; i++)
        phi[i] = i;
    for (int i = 2; i <= m; i++)
        if (phi[i] == i)
            for (int j = i; j <= m; j += i)
                phi[j] -= phi[j] / i;
    long long phisum = 0;
    for (int i = 1; i <= m; i++)
        phisum += phi[i];
    printf("phi(36)=%d phi(97)=%d phi(20000)=%d sum phi(1..%d)=%lld\n", phi[36], phi[97], phi[20000], m, phisum);
    free(composite);
    free(bits);
    free(phi);
    return 0;
}
