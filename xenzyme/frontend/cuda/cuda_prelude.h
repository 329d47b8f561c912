/* xenzyme's CUDA prelude, included (-include) before every .cu file.
 *
 * The CUDA 13 toolkit's headers do not work with clang-19, so .cu files are compiled with
 * -nocudainc -nocudalib and this prelude instead: CUDA's keywords, the builtin variables
 * (threadIdx, blockIdx, blockDim, gridDim), clang's own device headers -- math functions
 * become calls to libdevice's __nv_* functions, left as declarations -- CUDA's vector types,
 * the warp intrinsics and the atomic functions.  __syncthreads() is a clang builtin already.
 */
#pragma once
#define __global__      __attribute__((global))
#define __device__      __attribute__((device))
#define __host__        __attribute__((host))
#define __shared__      __attribute__((shared))
#define __constant__    __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__    __attribute__((noinline))
#include <__clang_cuda_builtin_vars.h>
#include <stddef.h>
#include <limits.h>
#define HUGE_VAL  __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#ifndef CUDA_VERSION
#define CUDA_VERSION 12050 /* clang's device headers test it */
#endif
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>

/* CUDA's vector types (char2 ... double4; the toolkit's vector_types.h), with make_<type>(...). */
#define __XZ_VEC1(N, T, A) struct __attribute__((aligned(A))) N##1 { T x; };
#define __XZ_VEC2(N, T, A) struct __attribute__((aligned(A))) N##2 { T x, y; };
#define __XZ_VEC3(N, T) struct N##3 { T x, y, z; };
#define __XZ_VEC4(N, T, A) struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };
#define __XZ_VEC(N, T, A1, A2, A4) __XZ_VEC1(N, T, A1) __XZ_VEC2(N, T, A2) __XZ_VEC3(N, T) __XZ_VEC4(N, T, A4) \
  static __device__ __host__ __forceinline__ N##2 make_##N##2(T x, T y) { return {x, y}; } \
  static __device__ __host__ __forceinline__ N##3 make_##N##3(T x, T y, T z) { return {x, y, z}; } \
  static __device__ __host__ __forceinline__ N##4 make_##N##4(T x, T y, T z, T w) { return {x, y, z, w}; }
__XZ_VEC(char, signed char, 1, 2, 4)
__XZ_VEC(uchar, unsigned char, 1, 2, 4)
__XZ_VEC(short, short, 2, 4, 8)
__XZ_VEC(ushort, unsigned short, 2, 4, 8)
__XZ_VEC(int, int, 4, 8, 16)
__XZ_VEC(uint, unsigned int, 4, 8, 16)
__XZ_VEC(long, long, 8, 16, 16)
__XZ_VEC(ulong, unsigned long, 8, 16, 16)
__XZ_VEC(longlong, long long, 8, 16, 16)
__XZ_VEC(ulonglong, unsigned long long, 8, 16, 16)
__XZ_VEC(float, float, 4, 8, 16)
__XZ_VEC(double, double, 8, 16, 16)
#undef __XZ_VEC
#undef __XZ_VEC1
#undef __XZ_VEC2
#undef __XZ_VEC3
#undef __XZ_VEC4
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};
typedef unsigned int cuuint32_t;
static __device__ __forceinline__ unsigned __isShared(const void *p) { return __nvvm_isspacep_shared((void *)p); }
static __device__ __forceinline__ unsigned __isGlobal(const void *p) { return __nvvm_isspacep_global((void *)p); }
#define __cvta_generic_to_shared(p) __nv_cvta_generic_to_shared_impl(p)
#include <__clang_cuda_intrinsics.h> /* warp shuffles and votes, __ldg, ... */

#define __XZ_ATOMIC static __device__ __forceinline__
__XZ_ATOMIC double atomicAdd(double *p, double v) { return __dAtomicAdd(p, v); }
__XZ_ATOMIC float atomicAdd(float *p, float v) { return __fAtomicAdd(p, v); }
__XZ_ATOMIC int atomicAdd(int *p, int v) { return __iAtomicAdd(p, v); }
__XZ_ATOMIC unsigned atomicAdd(unsigned *p, unsigned v) { return __uAtomicAdd(p, v); }
__XZ_ATOMIC unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return __ullAtomicAdd(p, v); }
__XZ_ATOMIC int atomicSub(int *p, int v) { return __iAtomicAdd(p, -v); }
__XZ_ATOMIC unsigned atomicSub(unsigned *p, unsigned v) { return __uAtomicAdd(p, -v); }
__XZ_ATOMIC float atomicExch(float *p, float v) { return __fAtomicExch(p, v); }
__XZ_ATOMIC int atomicExch(int *p, int v) { return __iAtomicExch(p, v); }
__XZ_ATOMIC unsigned atomicExch(unsigned *p, unsigned v) { return __uAtomicExch(p, v); }
__XZ_ATOMIC int atomicMax(int *p, int v) { return __iAtomicMax(p, v); }
__XZ_ATOMIC unsigned atomicMax(unsigned *p, unsigned v) { return __uAtomicMax(p, v); }
__XZ_ATOMIC int atomicMin(int *p, int v) { return __iAtomicMin(p, v); }
__XZ_ATOMIC unsigned atomicMin(unsigned *p, unsigned v) { return __uAtomicMin(p, v); }
__XZ_ATOMIC int atomicAnd(int *p, int v) { return __iAtomicAnd(p, v); }
__XZ_ATOMIC int atomicOr(int *p, int v) { return __iAtomicOr(p, v); }
__XZ_ATOMIC int atomicXor(int *p, int v) { return __iAtomicXor(p, v); }
__XZ_ATOMIC int atomicCAS(int *p, int cmp, int v) { return __iAtomicCAS(p, cmp, v); }
__XZ_ATOMIC unsigned atomicCAS(unsigned *p, unsigned cmp, unsigned v) { return __uAtomicCAS(p, cmp, v); }
__XZ_ATOMIC unsigned long long atomicCAS(unsigned long long *p, unsigned long long cmp, unsigned long long v) {
  return __ullAtomicCAS(p, cmp, v);
}
#undef __XZ_ATOMIC
