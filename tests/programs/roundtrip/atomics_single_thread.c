/* IR: atomicrmw (add/sub/or/and/xchg), cmpxchg (strong/weak loops), atomic load/store with orderings, fence, in single-threaded code. */
#include <stdio.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>

static atomic_int hits = 0;
static atomic_llong total_bytes = 0;
static _Atomic uint32_t flags = 0;
static atomic_uint_fast64_t max_seen = 0;
static atomic_bool ready = false;

/* Lock-free style max update with a CAS loop. */
static void update_max(uint64_t v)
{
    uint_fast64_t cur = atomic_load_explicit(&max_seen, memory_order_relaxed);
    while (v > cur && !atomic_compare_exchange_weak_explicit(&max_seen, &cur, v, memory_order_acq_rel,
                                                            memory_order_relaxed)) {
    }
}

/* Reference-counted object. */
struct object {
    atomic_int refs;
    int payload;
};
static int destroyed;
static void retain(struct object *o) { atomic_fetch_add_explicit(&o->refs, 1, memory_order_relaxed); }
static void release(struct object *o)
{
    if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_release) == 1) {
        atomic_thread_fence(memory_order_acquire);
        destroyed++;
    }
}

int main(void)
{
    for (int i = 1; i <= 100; i++) {
        int before = atomic_fetch_add(&hits, 1);
        atomic_fetch_add_explicit(&total_bytes, (long long)i * 1500, memory_order_relaxed);
        if (i % 10 == 0)
            atomic_fetch_or(&flags, 1u << (i / 10));
        if (before == 49)
            atomic_fetch_and(&flags, ~0x6u);
        update_max((uint64_t)((i * 7919) % 1013));
    }
    printf("hits=%d bytes=%lld flags=%#x max=%llu\n", atomic_load(&hits), atomic_load(&total_bytes),
           atomic_load(&flags), (unsigned long long)atomic_load(&max_seen));

    int expected = 100;
    bool ok1 = atomic_compare_exchange_strong(&hits, &expected, 0);
    expected = 100;
    bool ok2 = atomic_compare_exchange_strong(&hits, &expected, 5);
    printf("cas1=%d cas2=%d expected now=%d hits=%d\n", ok1, ok2, expected, atomic_load(&hits));

    int old = atomic_exchange(&hits, 77);
    atomic_store_explicit(&ready, true, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    atomic_signal_fence(memory_order_seq_cst);
    printf("exchange old=%d new=%d ready=%d\n", old, atomic_load_explicit(&hits, memory_order_acquire),
           atomic_load_explicit(&ready, memory_order_acquire));

    struct object obj;
    atomic_init(&obj.refs, 1);
    obj.payload = 42;
    for (int i = 0; i < 5; i++)
        retain(&obj);
    for (int i = 0; i < 5; i++)
        release(&obj);
    printf("refs=%d destroyed=%d\n", atomic_load(&obj.refs), destroyed);
    release(&obj);
    printf("refs=%d destroyed=%d payload=%d\n", atomic_load(&obj.refs), destroyed, obj.payload);

    /* Ticket counter: atomic increments produce unique tickets. */
    atomic_uint ticket = 0;
    unsigned sum = 0;
    for (int i = 0; i < 50; i++)
        sum += atomic_fetch_add_explicit(&ticket, 2u, memory_order_acq_rel);
    printf("ticket=%u sum=%u lock_free=%d\n", atomic_load(&ticket), sum, (int)atomic_is_lock_free(&ticket));
    return 0;
}
