/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder private helpers shared by the lib/src units.
 */
#ifndef KBINDER_INTERNAL_H
#define KBINDER_INTERNAL_H

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

/**
 * struct kbinder_code - one known protocol code.
 * @code: BC_ or BR_ value
 * @name: its name
 */
struct kbinder_code {
	uint32_t code;
	const char *name;
};

/* writer.c: send a small command stream on @t's fd. */
int kbinder_thread_write(struct kbinder_thread *t, const struct kbinder_writer *w);

#endif /* KBINDER_INTERNAL_H */
