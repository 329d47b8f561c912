// REQUIRES: clang
// RUN: xenzyme-opt %s | filecheck %s

// C++ input: name mangling, linkonce_odr templates, comdats, exception handling.

#include <stdexcept>

template <typename T> T twice(T x) { return x + x; }

int guarded(int v) {
  try {
    if (v < 0) throw std::runtime_error("negative");
    return twice(v);
  } catch (const std::exception &) {
    return -1;
  }
}

// CHECK:       builtin.module attributes {{{.*}}llvm.comdats = {{{.*}}}
// CHECK-LABEL: llvm.func @_Z7guardedi(
// CHECK-SAME:    personality = @__gxx_personality_v0
// CHECK:         llvm.invoke @_ZNSt13runtime_errorC1EPKc(
// CHECK:         llvm.landingpad
// CHECK:         llvm.resume
