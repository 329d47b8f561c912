/* IR: llvm.ctpop/ctlz/cttz/bswap/bitreverse-style loops, fshl/fshr rotates, parity, bit-scan loops, 32- and 64-bit variants. */
#include <stdio.h>
#include <stdint.h>

static uint32_t rotl32(uint32_t x, unsigned r) { return (x << (r & 31)) | (x >> ((32 - r) & 31)); }
static uint64_t rotr64(uint64_t x, unsigned r) { return (x >> (r & 63)) | (x << ((64 - r) & 63)); }

static uint32_t reverse_bits(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}

/* Round up to the next power of two using clz. */
static uint32_t next_pow2(uint32_t x) { return x <= 1 ? 1 : 1u << (32 - __builtin_clz(x - 1)); }

/* Population count written as a loop (clang recognises it as ctpop). */
static int popcount_loop(uint64_t x)
{
    int c = 0;
    while (x) {
        x &= x - 1;
        c++;
    }
    return c;
}

/* Gray code encode and decode. */
static uint32_t gray(uint32_t x) { return x ^ (x >> 1); }
static uint32_t ungray(uint32_t g)
{
    for (uint32_t shift = 1; shift < 32; shift <<= 1)
        g ^= g >> shift;
    return g;
}

/* Hash mixer from splitmix64. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Input data: mutable globals so the optimiser cannot fold the computation away. */
uint32_t words[] = {1u, 0x80000000u, 0xF0F0F0F0u, 0x12345678u, 0xFFFFFFFFu, 0x00010000u, 96u};
uint32_t sizes[] = {0, 1, 2, 3, 17, 64, 1000, 65537, 0x40000001u};

int main(void)
{
    for (int i = 0; i < 7; i++) {
        uint32_t w = words[i];
        printf("%08x pop=%d clz=%d ctz=%d parity=%d bswap=%08x rev=%08x rotl7=%08x\n", w, __builtin_popcount(w),
               __builtin_clz(w), __builtin_ctz(w), __builtin_parity(w), __builtin_bswap32(w), reverse_bits(w),
               rotl32(w, 7));
    }
    uint64_t state = 0x9e3779b97f4a7c15ull;
    int total_pop = 0, loop_pop = 0;
    for (int i = 0; i < 100; i++) {
        state = mix64(state + (uint64_t)i);
        total_pop += __builtin_popcountll(state);
        loop_pop += popcount_loop(state);
    }
    printf("64-bit: state=%016llx pop=%d loop_pop=%d clzll=%d ctzll=%d\n", (unsigned long long)state, total_pop,
           loop_pop, __builtin_clzll(state | 1), __builtin_ctzll(state | (1ull << 63)));
    printf("bswap64=%016llx rotr64(13)=%016llx\n", (unsigned long long)__builtin_bswap64(state),
           (unsigned long long)rotr64(state, 13));
    printf("bswap16=%04x\n", (unsigned)__builtin_bswap16(0xABCD));

    for (int i = 0; i < 9; i++)
        printf("next_pow2(%u)=%u\n", sizes[i], next_pow2(sizes[i]));

    int ok = 1;
    for (uint32_t x = 0; x < 4096; x += 7)
        ok &= ungray(gray(x)) == x && __builtin_popcount(gray(x) ^ gray(x + 1)) == 1;
    printf("gray code roundtrip ok=%d gray(1000)=%u\n", ok, gray(1000));

    /* Iterate over set bits lowest first. */
    uint64_t mask = 0x8100400020001003ull;
    printf("set bits:");
    while (mask) {
        printf(" %d", __builtin_ctzll(mask));
        mask &= mask - 1;
    }
    printf("\n");
    return 0;
}
