/* IR: i128 arithmetic (mul, udiv/urem via __udivti3/__umodti3, shifts), modular exponentiation, Miller-Rabin primality, 128-bit printing. */
#include <stdio.h>
#include <stdint.h>

typedef unsigned __int128 u128;

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m) { return (uint64_t)((u128)a * b % m); }

static uint64_t powmod(uint64_t base, uint64_t exp, uint64_t m)
{
    uint64_t result = 1 % m;
    base %= m;
    while (exp) {
        if (exp & 1)
            result = mulmod(result, base, m);
        base = mulmod(base, base, m);
        exp >>= 1;
    }
    return result;
}

/* Deterministic Miller-Rabin for 64-bit integers. */
static int is_prime(uint64_t n)
{
    if (n < 2)
        return 0;
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    for (int i = 0; i < 12; i++) {
        if (n % bases[i] == 0)
            return n == bases[i];
    }
    uint64_t d = n - 1;
    int r = 0;
    while ((d & 1) == 0) {
        d >>= 1;
        r++;
    }
    for (int i = 0; i < 12; i++) {
        uint64_t x = powmod(bases[i], d, n);
        if (x == 1 || x == n - 1)
            continue;
        int composite = 1;
        for (int k = 1; k < r && composite; k++) {
            x = mulmod(x, x, n);
            if (x == n - 1)
                composite = 0;
        }
        if (composite)
            return 0;
    }
    return 1;
}

static void print_u128(u128 v)
{
    char buf[40];
    int i = 39;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    printf("%s", buf + i);
}

int main(void)
{
    const uint64_t candidates[] = {1000000007ull, 1000000009ull, 999999999989ull, 4294967297ull,
                                   18446744073709551557ull, 18446744073709551559ull, 3215031751ull,
                                   2305843009213693951ull};
    for (int i = 0; i < 8; i++)
        printf("%llu is %s\n", (unsigned long long)candidates[i], is_prime(candidates[i]) ? "prime" : "composite");

    printf("3^(10^18) mod (2^61-1) = %llu\n", (unsigned long long)powmod(3, 1000000000000000000ull, 2305843009213693951ull));

    /* Factorials up to 34! fit in 128 bits. */
    u128 f = 1;
    for (int n = 1; n <= 34; n++) {
        f *= (u128)n;
        if (n % 6 == 4) {
            printf("%d! = ", n);
            print_u128(f);
            printf("\n");
        }
    }
    __int128 s = -((__int128)1 << 100);
    s /= 3;
    printf("-(2^100)/3 = -");
    print_u128((u128)(-s));
    printf(", low64 = %016llx, sign bit = %d\n", (unsigned long long)(uint64_t)s, (int)((u128)s >> 127));
    u128 big = ((u128)0x0123456789abcdefull << 64) | 0xfedcba9876543210ull;
    u128 rot = (big << 40) | (big >> 88);
    printf("rot40 hi=%016llx lo=%016llx\n", (unsigned long long)(rot >> 64), (unsigned long long)rot);
    return 0;
}
