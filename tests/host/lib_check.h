/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tiny check macros for libkbinder's host unit tests: each test prints
 * "PASS lib/<name>" or "FAIL lib/<name>: why"; main() exits non-zero if any
 * failed.
 */
#ifndef KBINDER_LIB_CHECK_H
#define KBINDER_LIB_CHECK_H

#include <stdio.h>

static int lib_failures;

#define LIB_CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("FAIL lib/%s: %s:%d: %s\n", __func__, __FILE__,	\
		       __LINE__, #cond);				\
		lib_failures++;						\
		return;							\
	}								\
} while (0)

#define LIB_CHECK_EQ(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b) {							\
		printf("FAIL lib/%s: %s:%d: %s == %lld, expected %s == %lld\n",\
		       __func__, __FILE__, __LINE__, #a, _a, #b, _b);	\
		lib_failures++;						\
		return;							\
	}								\
} while (0)

/* Run one test function and print PASS if it did not fail. */
#define LIB_RUN(fn) do {						\
	int _before = lib_failures;					\
	fn();								\
	if (lib_failures == _before)					\
		printf("PASS lib/%s\n", #fn);				\
} while (0)

#endif /* KBINDER_LIB_CHECK_H */
