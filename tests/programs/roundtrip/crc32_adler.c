/* IR: table-driven CRC-32 (table built at run time into a global array), bitwise CRC-16, Adler-32 with modulo, byte loads through unsigned char pointers. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint32_t crc_table[256];

static void crc32_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc32(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint32_t c = 0xFFFFFFFFu;
    while (len--)
        c = crc_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

/* CRC-16/CCITT-FALSE, bit by bit. */
static uint16_t crc16_ccitt(const unsigned char *p, size_t len)
{
    uint16_t crc = 0xFFFF;
    for (size_t i = 0; i < len; i++) {
        crc ^= (uint16_t)(p[i] << 8);
        for (int b = 0; b < 8; b++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

static uint32_t adler32(const unsigned char *p, size_t len)
{
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < len; i++) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

int main(void)
{
    crc32_init();
    printf("table[1]=%08x table[128]=%08x table[255]=%08x\n", crc_table[1], crc_table[128], crc_table[255]);
    const char *msgs[] = {"", "a", "123456789", "The quick brown fox jumps over the lazy dog", "Wikipedia"};
    for (int i = 0; i < 5; i++) {
        size_t n = strlen(msgs[i]);
        printf("\"%s\": crc32=%08x crc16=%04x adler32=%08x\n", msgs[i], crc32(msgs[i], n),
               crc16_ccitt((const unsigned char *)msgs[i], n), adler32((const unsigned char *)msgs[i], n));
    }
    /* Checksums of binary data: doubles and a 4 KiB pattern. */
    double samples[64];
    for (int i = 0; i < 64; i++)
        samples[i] = i * 0.125 - 3.0;
    printf("crc32(doubles)=%08x\n", crc32(samples, sizeof samples));
    static unsigned char block[4096];
    for (size_t i = 0; i < sizeof block; i++)
        block[i] = (unsigned char)(i * 131 + (i >> 8));
    printf("block: crc32=%08x crc16=%04x adler32=%08x\n", crc32(block, sizeof block), crc16_ccitt(block, sizeof block),
           adler32(block, sizeof block));
    /* Incremental CRC equals one-shot CRC only when chained correctly: show both. */
    uint32_t split = crc32(block, 1000) ^ crc32(block + 1000, sizeof block - 1000);
    printf("xor of split crcs=%08x (differs from whole: %s)\n", split, split != crc32(block, sizeof block) ? "yes" : "no");
    return 0;
}
