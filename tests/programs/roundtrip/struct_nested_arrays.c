/* IR: nested structs, arrays of structs, GEPs through struct/array chains, struct copies (memcpy), pointer-to-member access. */
#include <stdio.h>
#include <string.h>

struct point3 { double x, y, z; };
struct particle {
    int id;
    struct point3 pos;
    struct point3 vel;
    float mass;
    char species[8];
};
struct cell {
    struct point3 lo, hi;
    int n;
    struct particle members[4];
};
struct grid { int nx; struct cell cells[3]; };

static void step(struct particle *p, double dt)
{
    p->pos.x += p->vel.x * dt;
    p->pos.y += p->vel.y * dt;
    p->pos.z += p->vel.z * dt;
    p->vel.z -= 9.81 * dt;
}

static int inside(const struct cell *c, const struct point3 *pt)
{
    return pt->x >= c->lo.x && pt->x < c->hi.x && pt->y >= c->lo.y && pt->y < c->hi.y &&
           pt->z >= c->lo.z && pt->z < c->hi.z;
}

static struct point3 centre_of_mass(const struct particle *ps, int n)
{
    struct point3 c = {0, 0, 0};
    double mtot = 0.0;
    for (int i = 0; i < n; i++) {
        c.x += ps[i].mass * ps[i].pos.x;
        c.y += ps[i].mass * ps[i].pos.y;
        c.z += ps[i].mass * ps[i].pos.z;
        mtot += ps[i].mass;
    }
    c.x /= mtot;
    c.y /= mtot;
    c.z /= mtot;
    return c;
}

int main(void)
{
    struct particle ps[6];
    for (int i = 0; i < 6; i++) {
        ps[i].id = 100 + i;
        ps[i].pos = (struct point3){0.5 * i, 1.0 - 0.25 * i, 2.0};
        ps[i].vel = (struct point3){1.0, 0.5 * (i % 3), 3.0 - i};
        ps[i].mass = 1.0f + 0.5f * (float)i;
        strcpy(ps[i].species, i % 2 ? "proton" : "alpha");
    }
    for (int t = 0; t < 10; t++)
        for (int i = 0; i < 6; i++)
            step(&ps[i], 1.0 / 16.0); /* dyadic step: products exact */

    struct grid g;
    memset(&g, 0, sizeof g);
    g.nx = 3;
    for (int c = 0; c < 3; c++) {
        g.cells[c].lo = (struct point3){-1.0 + 2.0 * c, -5.0, -5.0};
        g.cells[c].hi = (struct point3){1.0 + 2.0 * c, 5.0, 5.0};
    }
    for (int i = 0; i < 6; i++)
        for (int c = 0; c < g.nx; c++) {
            struct cell *cell = &g.cells[c];
            if (inside(cell, &ps[i].pos) && cell->n < 4) {
                cell->members[cell->n++] = ps[i]; /* struct copy */
                break;
            }
        }

    for (int c = 0; c < g.nx; c++) {
        printf("cell %d holds %d:", c, g.cells[c].n);
        for (int k = 0; k < g.cells[c].n; k++)
            printf(" %d(%s)", g.cells[c].members[k].id, g.cells[c].members[k].species);
        printf("\n");
    }
    for (int i = 0; i < 6; i++)
        printf("p%d pos=(%.17g, %.17g, %.17g)\n", ps[i].id, ps[i].pos.x, ps[i].pos.y, ps[i].pos.z);

    struct point3 com = centre_of_mass(ps, 6);
    printf("centre of mass = (%.17g, %.17g, %.17g)\n", com.x, com.y, com.z);

    struct grid copy = g;
    copy.cells[0].members[0].pos.x = -99.0;
    printf("copy independent: %.17g vs %.17g\n", copy.cells[0].members[0].pos.x, g.cells[0].members[0].pos.x);
    return 0;
}
