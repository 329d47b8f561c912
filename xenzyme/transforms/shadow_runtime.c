/* The shadows of heap memory freed far from where it was allocated, compiled into
 * shadow_runtime.ll:
 *
 *   clang-19 -O2 -S -emit-llvm xenzyme/transforms/shadow_runtime.c -o xenzyme/transforms/shadow_runtime.ll
 *
 * The shadow of an allocation whose address stays in the function that makes it is freed where
 * the reverse sweep reaches the allocation.  One whose address escapes (a node linked into a
 * tree by a recursive insert, freed later by a recursive release) cannot be freed there on the
 * compiler's word alone: the primal memory may outlive the gradient, and its shadow with it.
 * What settles it is known only at run time: whether the program freed the primal memory
 * during the forward sweep.  So the forward sweep notes the shadow of every pointer it frees
 * whose shadow nothing else frees (`__xenzyme_shadow_freed`), and the reverse sweep, reaching
 * an escaping allocation, frees its shadow if it was noted (`__xenzyme_shadow_release`): every
 * adjoint of that memory is computed by then (they run in the reverse order of the uses, all
 * after the allocation).  A caller that frees the shadow of memory a callee returned fresh, after
 * the callee's reverse, takes it out of the set first (`__xenzyme_shadow_kept`), so that it is
 * not given back twice.  Each gradient call forgets what was noted when it ends
 * (`__xenzyme_shadow_reset`): a noted shadow of memory the caller owns may be freed by it
 * afterwards and its address reused.  Forgetting only ever leaks, never frees too early.
 *
 * The noted shadows are a set of addresses (open addressing, linear probing), behind a spin
 * lock: threads of a parallel region may free memory, and gradients may run on several threads
 * at once.  A shadow in the set is live memory until it is released, so no other live shadow
 * has its address. */
#include <stdlib.h>

#define XZS_GONE ((void *)1)

static void **__xenzyme_shadows_keys;
static long __xenzyme_shadows_cap, __xenzyme_shadows_count, __xenzyme_shadows_used; /* (used: the slots holding a key or a removed key) */
static int __xenzyme_shadows_lock;

static void xzs_acquire(void) {
  while (__atomic_exchange_n(&__xenzyme_shadows_lock, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(&__xenzyme_shadows_lock, __ATOMIC_RELAXED)) {
    }
}

static void xzs_unlock(void) { __atomic_store_n(&__xenzyme_shadows_lock, 0, __ATOMIC_RELEASE); }

static unsigned long xzs_hash(const void *p) {
  unsigned long h = (unsigned long)p;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdUL;
  h ^= h >> 33;
  return h;
}

/* The slot holding `p`, or the empty slot where it would go. */
static long xzs_find(const void *p) {
  long mask = __xenzyme_shadows_cap - 1, i = (long)(xzs_hash(p) & (unsigned long)mask), free_at = -1;
  while (__xenzyme_shadows_keys[i]) {
    if (__xenzyme_shadows_keys[i] == p) return i;
    if (__xenzyme_shadows_keys[i] == XZS_GONE && free_at < 0) free_at = i;
    i = (i + 1) & mask;
  }
  return free_at >= 0 ? free_at : i;
}

static int xzs_grow(void) {
  long cap = __xenzyme_shadows_cap ? (__xenzyme_shadows_count * 4 > __xenzyme_shadows_cap ? __xenzyme_shadows_cap * 2 : __xenzyme_shadows_cap) : 64;
  void **old = __xenzyme_shadows_keys, **keys = calloc(cap, sizeof *keys);
  long old_cap = __xenzyme_shadows_cap;
  if (!keys) return 0;
  __xenzyme_shadows_keys = keys;
  __xenzyme_shadows_cap = cap;
  __xenzyme_shadows_used = 0;
  for (long i = 0; i < old_cap; i++)
    if (old[i] && old[i] != XZS_GONE) {
      __xenzyme_shadows_keys[xzs_find(old[i])] = old[i];
      __xenzyme_shadows_used++;
    }
  free(old);
  return 1;
}

void __xenzyme_shadow_freed(void *shadow) {
  if (!shadow) return;
  xzs_acquire();
  if ((__xenzyme_shadows_used + 1) * 2 <= __xenzyme_shadows_cap || xzs_grow()) { /* (no memory for the set: the shadow leaks) */
    long i = xzs_find(shadow);
    if (__xenzyme_shadows_keys[i] != shadow) {
      if (!__xenzyme_shadows_keys[i]) __xenzyme_shadows_used++;
      __xenzyme_shadows_keys[i] = shadow;
      __xenzyme_shadows_count++;
    }
  }
  xzs_unlock();
}

/* Whether `shadow` was noted; it is not any more. */
static int xzs_take(void *shadow) {
  int noted = 0;
  xzs_acquire();
  if (__xenzyme_shadows_count) {
    long i = xzs_find(shadow);
    if (__xenzyme_shadows_keys[i] == shadow) {
      __xenzyme_shadows_keys[i] = XZS_GONE;
      __xenzyme_shadows_count--;
      noted = 1;
    }
  }
  xzs_unlock();
  return noted;
}

void __xenzyme_shadow_release(void *shadow, void (*deallocate)(void *)) {
  if (shadow && xzs_take(shadow)) deallocate(shadow);
}

void __xenzyme_shadow_kept(void *shadow) {
  if (shadow) xzs_take(shadow);
}

void __xenzyme_shadow_reset(void) {
  xzs_acquire();
  free(__xenzyme_shadows_keys);
  __xenzyme_shadows_keys = 0;
  __xenzyme_shadows_cap = __xenzyme_shadows_count = __xenzyme_shadows_used = 0;
  xzs_unlock();
}
