/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder private helpers shared by the lib/src units.
 */
#ifndef KBINDER_INTERNAL_H
#define KBINDER_INTERNAL_H

#include <time.h>

#include <kbinder/kbinder.h>

#define KBINDER_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/** kbinder_align4() - round @n up to a multiple of 4 (no overflow check). */
static inline size_t kbinder_align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/** kbinder_ptr() - a user pointer as the protocol's binder_uintptr_t. */
static inline binder_uintptr_t kbinder_ptr(const void *p)
{
	return (binder_uintptr_t)(uintptr_t)p;
}

/** kbinder_now_ms() - CLOCK_MONOTONIC in milliseconds. */
static inline int64_t kbinder_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif /* KBINDER_INTERNAL_H */
