/* IR: open-addressing hash table (FNV-1a string hash, linear probing, modulo by power of two), resize with rehash, tombstones, struct arrays on the heap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

struct slot {
    char key[24];
    long value;
    unsigned char state; /* 0 empty, 1 full, 2 deleted */
};

struct table {
    struct slot *slots;
    size_t cap, used;
};

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

static void table_put(struct table *t, const char *key, long value);

static void table_grow(struct table *t)
{
    struct slot *old = t->slots;
    size_t oldcap = t->cap;
    t->cap = oldcap ? oldcap * 2 : 8;
    t->slots = calloc(t->cap, sizeof *t->slots);
    if (!t->slots)
        exit(1);
    t->used = 0;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].state == 1)
            table_put(t, old[i].key, old[i].value);
    free(old);
}

static void table_put(struct table *t, const char *key, long value)
{
    if ((t->used + 1) * 4 > t->cap * 3)
        table_grow(t);
    size_t mask = t->cap - 1, i = fnv1a(key) & mask;
    while (t->slots[i].state == 1 && strcmp(t->slots[i].key, key) != 0)
        i = (i + 1) & mask;
    if (t->slots[i].state != 1) {
        strncpy(t->slots[i].key, key, sizeof t->slots[i].key - 1);
        t->slots[i].key[sizeof t->slots[i].key - 1] = '\0';
        t->slots[i].state = 1;
        t->used++;
    }
    t->slots[i].value = value;
}

static struct slot *table_find(struct table *t, const char *key)
{
    if (t->cap == 0)
        return NULL;
    size_t mask = t->cap - 1, i = fnv1a(key) & mask;
    for (size_t probes = 0; probes < t->cap && t->slots[i].state != 0; probes++) {
        if (t->slots[i].state == 1 && strcmp(t->slots[i].key, key) == 0)
            return &t->slots[i];
        i = (i + 1) & mask;
    }
    return NULL;
}

static int table_delete(struct table *t, const char *key)
{
    struct slot *s = table_find(t, key);
    if (!s)
        return 0;
    s->state = 2; /* tombstone keeps probe chains intact */
    return 1;
}

int main(void)
{
    struct table t = {NULL, 0, 0};
    char key[24];
    /* Count readings per sensor; keys repeat. */
    for (int i = 0; i < 400; i++) {
        snprintf(key, sizeof key, "sensor-%03d", (i * 37) % 150);
        struct slot *s = table_find(&t, key);
        table_put(&t, key, s ? s->value + i : i);
    }
    printf("capacity=%zu used=%zu\n", t.cap, t.used);
    const char *probe[] = {"sensor-000", "sensor-037", "sensor-149", "sensor-150", "missing"};
    for (int i = 0; i < 5; i++) {
        struct slot *s = table_find(&t, probe[i]);
        printf("%s -> %ld\n", probe[i], s ? s->value : -1L);
    }
    int deleted = 0;
    for (int i = 0; i < 150; i += 3) {
        snprintf(key, sizeof key, "sensor-%03d", i);
        deleted += table_delete(&t, key);
    }
    long total = 0;
    int live = 0;
    for (size_t i = 0; i < t.cap; i++)
        if (t.slots[i].state == 1) {
            total += t.slots[i].value;
            live++;
        }
    printf("deleted=%d live=%d total=%ld\n", deleted, live, total);
    printf("after delete: sensor-003 %s, sensor-004 %s\n", table_find(&t, "sensor-003") ? "found" : "gone",
           table_find(&t, "sensor-004") ? "found" : "gone");
    /* Longest probe distance as a quality measure of the hash. */
    size_t worst = 0;
    for (size_t i = 0; i < t.cap; i++)
        if (t.slots[i].state == 1) {
            size_t home = fnv1a(t.slots[i].key) & (t.cap - 1);
            size_t dist = (i - home) & (t.cap - 1);
            if (dist > worst)
                worst = dist;
        }
    printf("worst probe distance=%zu fnv1a(\"hello\")=%08x\n", worst, fnv1a("hello"));
    free(t.slots);
    return 0;
}
