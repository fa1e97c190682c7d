#pragma once
// The reduction's hot loops, compiled for AVX2 as well as the x86-64
// baseline and picked at load time by the CPU (GCC function multiversioning):
// 1.2x to the whole reduction. The bits cannot differ between the two: the
// loops do integer arithmetic and IEEE additions and multiplications, each
// rounded once, the same at any vector width, and AVX2 brings no FMA that could fuse a
// multiply-add (GCC contracts even in -std=c++20 mode, so no AVX-512 clone:
// -mavx512f implies FMA).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define COLLSIM_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define COLLSIM_VECTOR_CLONES
#endif
