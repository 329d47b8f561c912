/* IR: structs passed and returned by value (byval/sret, coerced registers), mixed int/double/float/char fields, padding, offsetof. */
#include <stdio.h>
#include <stddef.h>

struct vec2 { double x, y; };                 /* returned in two SSE registers */
struct pixel { unsigned char r, g, b, a; };   /* coerced into one i32 */
struct sample {                               /* mixed fields with padding */
    char tag;
    double value;
    float weight;
    short channel;
    int count;
};
struct big { double m[3][3]; long id; };      /* returned via sret */

static struct vec2 vec2_add(struct vec2 a, struct vec2 b) { return (struct vec2){a.x + b.x, a.y + b.y}; }
static struct vec2 vec2_scale(struct vec2 a, double s) { return (struct vec2){a.x * s, a.y * s}; }
static double vec2_cross(struct vec2 a, struct vec2 b) { return a.x * b.y - a.y * b.x; }

static struct pixel blend(struct pixel p, struct pixel q)
{
    struct pixel out;
    out.r = (unsigned char)((p.r * p.a + q.r * (255 - p.a)) / 255);
    out.g = (unsigned char)((p.g * p.a + q.g * (255 - p.a)) / 255);
    out.b = (unsigned char)((p.b * p.a + q.b * (255 - p.a)) / 255);
    out.a = 255;
    return out;
}

static struct sample merge(struct sample s, struct sample t)
{
    struct sample m;
    m.tag = s.tag > t.tag ? s.tag : t.tag;
    m.weight = s.weight + t.weight;
    m.value = (s.value * s.weight + t.value * t.weight) / m.weight;
    m.channel = (short)(s.channel | t.channel);
    m.count = s.count + t.count;
    return m;
}

static struct big big_rotate_z(double c, double s, long id)
{
    struct big b = {{{c, -s, 0.0}, {s, c, 0.0}, {0.0, 0.0, 1.0}}, id};
    return b;
}

static struct big big_mul(struct big a, struct big b)
{
    struct big r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double acc = 0.0;
            for (int k = 0; k < 3; k++) {
                double term = a.m[i][k] * b.m[k][j]; /* own statement: never contracted to fma */
                acc += term;
            }
            r.m[i][j] = acc;
        }
    r.id = a.id * 10 + b.id;
    return r;
}

/* Input data: mutable globals so the optimiser cannot fold the computation away. */
struct vec2 start_pt = {1.5, -2.25}, offset_pt = {0.125, 4.0};
struct vec2 poly[5] = {{0, 0}, {4, 0}, {4, 3}, {2, 5}, {0, 3}};
struct pixel fg = {200, 100, 50, 128}, bg = {10, 20, 250, 255};
struct sample s1 = {'a', 2.5, 1.0f, 1, 10}, s2 = {'q', 4.0, 3.0f, 4, 5};
double rot_cos = 0.6, rot_sin = 0.8;

int main(void)
{
    printf("sizeof(sample)=%zu offsets: tag=%zu value=%zu weight=%zu channel=%zu count=%zu\n",
           sizeof(struct sample), offsetof(struct sample, tag), offsetof(struct sample, value),
           offsetof(struct sample, weight), offsetof(struct sample, channel), offsetof(struct sample, count));

    struct vec2 r = vec2_add(vec2_scale(start_pt, 3.0), offset_pt);
    printf("r = (%.17g, %.17g), cross(start,offset) = %.17g\n", r.x, r.y, vec2_cross(start_pt, offset_pt));

    /* Polygon area by the shoelace formula using by-value vec2s. */
    double area = 0.0;
    for (int i = 0; i < 5; i++)
        area += vec2_cross(poly[i], poly[(i + 1) % 5]);
    printf("polygon area = %.17g\n", area / 2.0);

    struct pixel mixed = blend(fg, bg);
    printf("blend = %u %u %u %u\n", mixed.r, mixed.g, mixed.b, mixed.a);

    struct sample m = merge(s1, s2);
    printf("merge: tag=%c value=%.17g weight=%.9g channel=%d count=%d\n", m.tag, m.value, (double)m.weight,
           m.channel, m.count);

    struct big rot = big_rotate_z(rot_cos, rot_sin, 1);
    struct big acc = big_rotate_z(1.0, 0.0, 0);
    for (int i = 0; i < 4; i++)
        acc = big_mul(acc, rot);
    for (int i = 0; i < 3; i++)
        printf("row %d: %.17g %.17g %.17g\n", i, acc.m[i][0], acc.m[i][1], acc.m[i][2]);
    printf("id = %ld\n", acc.id);
    return 0;
}
