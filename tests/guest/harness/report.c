// SPDX-License-Identifier: Apache-2.0
/*
 * The harness's outcomes: a failure (the first one, from any process of
 * the test, becomes the result's reason), a skip, a diagnostic line, and
 * the small helpers their messages use. See harness.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

void kbt_oneline(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

void kbt_append(char *dst, size_t size, const char *src)
{
	size_t have = strnlen(dst, size - 1);
	size_t n = strlen(src);

	if (n > size - 1 - have)
		n = size - 1 - have;
	memcpy(dst + have, src, n);
	dst[have + n] = 0;
}

const char *kbt_driver(void)
{
	const char *d = getenv("KBINDER_DRIVER");

	return (d && *d) ? d : "kbinder";
}

bool kbt_is_reference(void)
{
	return !strcmp(kbt_driver(), "reference");
}

bool kbt_slow_kernel(void)
{
	const char *v = getenv("KBT_SLOW_KERNEL");

	return v && *v && strcmp(v, "0");
}

const char *kbt_strerr(long err)
{
	return strerror((int)(err < 0 ? -err : err));
}

long kbt_mem_diff(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return (long)i;
	return -1;
}

/*
 * Print the message, and set @flag in the shared state; the first to set
 * a flag gives the result its reason (a skip's, unless a failure came first).
 */
static void kbt_vrecord(int *flag, const char *prefix, const char *fmt,
			va_list ap)
{
	char msg[KBT_WHY_MAX];
	int n = snprintf(msg, sizeof(msg), "%s", prefix);

	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	kbt_oneline(msg);
	fprintf(stderr, "  [%s/%s pid %d] %s\n", kbt_suite_name, kbt_current,
		(int)getpid(), msg);
	if (!flag)
		return;
	if (__atomic_exchange_n(flag, 1, __ATOMIC_SEQ_CST) == 0 &&
	    !(flag == &kbt_state->skipped && kbt_state->failed))
		memcpy(kbt_state->why, msg, sizeof(msg));
}

static void kbt_vfail(const char *prefix, const char *fmt, va_list ap)
{
	kbt_vrecord(kbt_state ? &kbt_state->failed : NULL, prefix, fmt, ap);
}

void kbt_fail(const char *file, int line, bool fatal, const char *fmt, ...)
{
	char prefix[96];
	const char *base = strrchr(file, '/');
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s:%d: ", base ? base + 1 : file, line);
	va_start(ap, fmt);
	kbt_vfail(prefix, fmt, ap);
	va_end(ap);
	if (fatal)
		_exit(KBT_EXIT_FAIL);
}

void kbt_fail_plain(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kbt_vfail("", fmt, ap);
	va_end(ap);
}

void kbt_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kbt_vrecord(kbt_state ? &kbt_state->skipped : NULL, "", fmt, ap);
	va_end(ap);
	_exit(KBT_EXIT_SKIP);
}

void kbt_asserted(void)
{
	if (kbt_state)
		__atomic_add_fetch(&kbt_state->asserts, 1, __ATOMIC_RELAXED);
}

void kbt_end_checks_are_the_verdict(const char *why)
{
	if (kbt_state)
		__atomic_store_n(&kbt_state->end_checks, 1, __ATOMIC_SEQ_CST);
	kbt_log("no assertion needed: the end-of-test checks are the verdict (%s)",
		why);
}

bool kbt_failed(void)
{
	return kbt_state && __atomic_load_n(&kbt_state->failed, __ATOMIC_SEQ_CST);
}

void kbt_log(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "  [%s/%s pid %d] %s\n", kbt_suite_name, kbt_current,
		(int)getpid(), msg);
}
