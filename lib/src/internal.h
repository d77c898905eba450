/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder private helpers shared by the lib/src units.
 */
#ifndef KBINDER_INTERNAL_H
#define KBINDER_INTERNAL_H

#include <kbinder/kbinder.h>

#define KB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/** kb_align4() - round @n up to a multiple of 4 (no overflow check). */
static inline size_t kb_align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/** kb_ptr() - a user pointer as the protocol's binder_uintptr_t. */
static inline binder_uintptr_t kb_ptr(const void *p)
{
	return (binder_uintptr_t)(uintptr_t)p;
}

/**
 * struct kb_code - one known protocol code.
 * @code: BC_ or BR_ value
 * @name: its name
 */
struct kb_code {
	uint32_t code;
	const char *name;
};

/* writer.c: send a small command stream on @t's fd. */
int kb_thread_write(struct kb_thread *t, const struct kb_writer *w);

#endif /* KBINDER_INTERNAL_H */
