// REQUIRES: clang
// RUN: xenzyme-opt %s | filecheck %s

// C++ input: name mangling, linkonce_odr templates, comdats, exception handling.  (The
// template is kept out of line, or at -O2 it would be inlined and its comdat gone.)

#include <stdexcept>

template <typename T> __attribute__((noinline)) T twice(T x) { return x + x; }

int guarded(int v) {
  try {
    if (v < 0) throw std::runtime_error("negative");
    return twice(v);
  } catch (const std::exception &) {
    return -1;
  }
}

// CHECK:       builtin.module attributes {{{.*}}llvm.comdats = {{{.*}}}
// CHECK-LABEL: llvm.func {{.*}}@_Z7guardedi(
// CHECK-SAME:    personality = @__gxx_personality_v0
// CHECK:         llvm.invoke @_ZNSt13runtime_errorC1EPKc(
// CHECK:         llvm.landingpad
// CHECK:         llvm.resume
// CHECK-LABEL: llvm.func linkonce_odr {{.*}}@_Z5twiceIiET_S0_(
// CHECK-SAME:    comdat = "_Z5twiceIiET_S0_"
