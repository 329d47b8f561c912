/* Heap accounting for the benchmark programs: how many bytes a call allocates (the gradient's
 * caches and shadow blocks, the primal's temporaries).
 *
 * Linked into every benchmark program by benchmarks/run.py, compiled by cc (not by xenzyme), with
 *
 *   cc prog.o heapcount.o -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,
 *      --wrap=aligned_alloc,--wrap=posix_memalign,--wrap=memalign -lm
 *
 * The linker sends the calls that the program's own object makes (its code and the code xenzyme
 * generated in it) to the __wrap_ functions below, which count and forward to the C library;
 * the C library's internal allocations (stdio buffers) are not counted.  bench.h reads the
 * counters through a weak reference, so a program linked without this file still runs (it then
 * reports no heap figures).  Single-threaded, like the benchmarks.
 *
 * Live bytes are counted as malloc_usable_size reports them (what the block really occupies);
 * `bytes` sums the sizes requested, a realloc counting its new size.
 */
#include <malloc.h>
#include <stddef.h>

struct bench_heap {
  long long allocs; /* successful allocation calls (realloc included) */
  long long bytes;  /* bytes requested by them */
  long long live;   /* usable bytes of the blocks allocated and not yet freed */
  long long peak;   /* the largest value of live since the reader last reset it */
};

struct bench_heap bench_heap_counters;

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void __real_free(void *);
void *__real_aligned_alloc(size_t, size_t);
int __real_posix_memalign(void **, size_t, size_t);
void *__real_memalign(size_t, size_t);

static void *counted(void *p, size_t requested) {
  struct bench_heap *h = &bench_heap_counters;
  if (p) {
    h->allocs++;
    h->bytes += (long long)requested;
    h->live += (long long)malloc_usable_size(p);
    if (h->live > h->peak) h->peak = h->live;
  }
  return p;
}

static void uncount(void *p) {
  if (p) bench_heap_counters.live -= (long long)malloc_usable_size(p);
}

void *__wrap_malloc(size_t n) { return counted(__real_malloc(n), n); }

void *__wrap_calloc(size_t k, size_t n) { return counted(__real_calloc(k, n), k * n); }

void *__wrap_realloc(void *p, size_t n) {
  long long before = p ? (long long)malloc_usable_size(p) : 0;
  void *q = __real_realloc(p, n);
  if (q || n == 0) bench_heap_counters.live -= before; /* the old block is gone */
  return counted(q, n);
}

void __wrap_free(void *p) {
  uncount(p);
  __real_free(p);
}

void *__wrap_aligned_alloc(size_t a, size_t n) { return counted(__real_aligned_alloc(a, n), n); }

void *__wrap_memalign(size_t a, size_t n) { return counted(__real_memalign(a, n), n); }

int __wrap_posix_memalign(void **out, size_t a, size_t n) {
  int r = __real_posix_memalign(out, a, n);
  if (r == 0) counted(*out, n);
  return r;
}
