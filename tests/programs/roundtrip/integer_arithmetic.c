/* IR: sdiv/udiv/srem/urem, shl/lshr/ashr, i8/i16/i32/i64 sext/zext/trunc, unsigned wraparound, division by constants (magic multiply). */
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>

int32_t divs[] = {7, -7, 3, -3, 1, 13, 1000};
int32_t nums[] = {100, -100, 7, -7, 0, 2147483647, -2147483647};

int main(void)
{
    for (int i = 0; i < 7; i++) {
        int32_t n = nums[i], d = divs[i];
        printf("%d / %d = %d rem %d; as unsigned %u / %u = %u rem %u\n", n, d, n / d, n % d, (uint32_t)n,
               (uint32_t)d, (uint32_t)n / (uint32_t)d, (uint32_t)n % (uint32_t)d);
    }
    /* Division by constants. */
    int64_t acc = 0;
    for (int64_t x = -5000; x <= 5000; x += 7)
        acc += x / 10 + x % 3 + x / 16 + (x >> 2);
    printf("const-division accumulation = %" PRId64 "\n", acc);

    /* Unsigned wraparound at every width. */
    uint8_t u8 = 250;
    uint16_t u16 = 65530;
    uint32_t u32 = 4294967290u;
    uint64_t u64 = UINT64_MAX - 5;
    for (int i = 0; i < 10; i++) {
        u8++;
        u16 += 3;
        u32 *= 3;
        u64 += 1;
    }
    printf("wrap: u8=%u u16=%u u32=%" PRIu32 " u64=%" PRIu64 "\n", u8, u16, u32, u64);
    uint32_t under = 3;
    under -= 10;
    printf("underflow: %" PRIu32 " (%" PRId32 " signed)\n", under, (int32_t)under);

    /* Sign extension and truncation. */
    int8_t s8 = -100;
    int16_t s16 = (int16_t)(s8 * 300);
    int32_t widened = s8;
    uint32_t zext = (uint8_t)s8;
    int8_t narrowed = (int8_t)(int32_t)1000;
    printf("s8=%d s16=%d widened=%d zext=%u narrowed=%d\n", s8, s16, widened, zext, narrowed);

    /* Shifts: arithmetic vs logical. */
    int32_t neg = -1024;
    uint32_t uneg = (uint32_t)neg;
    printf("ashr=%d lshr=%u shl=%d\n", neg >> 3, uneg >> 3, neg * 8);
    uint64_t wide = 1;
    for (int s = 0; s < 64; s += 9)
        wide |= wide << s;
    printf("wide pattern = %016" PRIx64 "\n", wide);

    /* Fixed-width mixing: 16-bit audio samples mixed with saturation. */
    int16_t a[8] = {30000, -30000, 1000, -1000, 32767, -32768, 12345, -23456};
    int16_t b[8] = {5000, -5000, -2000, 2000, 1, -1, 20000, -20000};
    printf("mixed:");
    for (int i = 0; i < 8; i++) {
        int32_t m = (int32_t)a[i] + b[i];
        if (m > INT16_MAX)
            m = INT16_MAX;
        if (m < INT16_MIN)
            m = INT16_MIN;
        printf(" %d", (int16_t)m);
    }
    printf("\n");

    /* 64-bit multiply-high via 32-bit halves. */
    uint64_t x = 0xDEADBEEFCAFEBABEull, y = 0x0123456789ABCDEFull;
    uint64_t xl = x & 0xffffffffu, xh = x >> 32, yl = y & 0xffffffffu, yh = y >> 32;
    uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    printf("mulhi = %016" PRIx64 " mullo = %016" PRIx64 "\n", hi, x * y);

    int64_t big = INT64_MIN + 1;
    printf("abs(big)=%" PRId64 " big/-1=%" PRId64 " big%%1000=%" PRId64 "\n", -big, big / -1, big % 1000);
    return 0;
}
