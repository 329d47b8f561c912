/* IR: unions (type punning through memory), bitfield packing with shifts/masks, signed bitfields, tagged unions. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

union float_bits { float f; uint32_t u; };
union double_bits { double d; uint64_t u; unsigned char bytes[8]; };

struct ieee_fields {
    unsigned mantissa : 23;
    unsigned exponent : 8;
    unsigned sign : 1;
};

struct packet_header {
    unsigned version : 3;
    unsigned flags : 5;
    unsigned length : 12;
    signed offset : 6;   /* signed bitfield: sign extension */
    unsigned urgent : 1;
};

enum shape_kind { CIRCLE, RECT, TRIANGLE };
struct shape {
    enum shape_kind kind;
    union {
        struct { double r; } circle;
        struct { double w, h; } rect;
        struct { double a, b, c; } tri;
    } u;
};

static double shape_area(const struct shape *s)
{
    switch (s->kind) {
    case CIRCLE: return 3.14159265358979323846 * s->u.circle.r * s->u.circle.r;
    case RECT: return s->u.rect.w * s->u.rect.h;
    case TRIANGLE: {
        double p = (s->u.tri.a + s->u.tri.b + s->u.tri.c) / 2.0;
        double h = p * (p - s->u.tri.a) * (p - s->u.tri.b) * (p - s->u.tri.c);
        /* Heron without sqrt: return the squared area to stay exact */
        return h;
    }
    }
    return 0.0;
}

/* Input data: mutable globals so the optimiser cannot fold the computation away. */
float fs[] = {1.0f, -2.5f, 0.15625f, 3.4e38f, 1e-40f};

int main(void)
{
    for (int i = 0; i < 5; i++) {
        union float_bits fb = {.f = fs[i]};
        struct ieee_fields fields;
        memcpy(&fields, &fb.u, sizeof fields);
        printf("%.9g -> 0x%08x sign=%u exp=%u mant=0x%06x\n", (double)fs[i], (unsigned)fb.u,
               (unsigned)fields.sign, (unsigned)fields.exponent, (unsigned)fields.mantissa);
    }

    union double_bits db = {.d = -0.1};
    printf("-0.1 = 0x%016llx bytes:", (unsigned long long)db.u);
    for (int i = 0; i < 8; i++)
        printf(" %02x", db.bytes[i]);
    printf("\n");
    db.u ^= 1ULL << 63;
    printf("flip sign -> %.17g\n", db.d);

    struct packet_header h = {0};
    h.version = 5;
    h.flags = 0x13;
    h.length = 1500;
    h.offset = -17;
    h.urgent = 1;
    printf("header size=%zu version=%u flags=0x%x length=%u offset=%d urgent=%u\n", sizeof h, (unsigned)h.version,
           (unsigned)h.flags, (unsigned)h.length, (int)h.offset, (unsigned)h.urgent);
    h.length += 3000; /* wraps modulo 4096 */
    h.offset = h.offset + 40; /* 23 fits in 6 signed bits */
    h.version++;
    printf("after update: version=%u length=%u offset=%d\n", (unsigned)h.version, (unsigned)h.length, (int)h.offset);

    struct packet_header many[4];
    for (int i = 0; i < 4; i++) {
        many[i].version = (unsigned)i;
        many[i].flags = (unsigned)(i * 7);
        many[i].length = (unsigned)(i * 1000 + 1);
        many[i].offset = i - 2;
        many[i].urgent = (unsigned)(i & 1);
    }
    int checksum = 0;
    for (int i = 0; i < 4; i++)
        checksum += (int)many[i].version * 1 + (int)many[i].flags * 3 + (int)many[i].length * 5 +
                    many[i].offset * 7 + (int)many[i].urgent * 11;
    printf("bitfield checksum = %d\n", checksum);

    struct shape shapes[3] = {
        {CIRCLE, {.circle = {2.0}}},
        {RECT, {.rect = {3.0, 4.5}}},
        {TRIANGLE, {.tri = {3.0, 4.0, 5.0}}},
    };
    for (int i = 0; i < 3; i++)
        printf("shape %d kind %d area-ish %.17g\n", i, (int)shapes[i].kind, shape_area(&shapes[i]));
    return 0;
}
