/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder private helpers shared by the lib/src units.
 */
#ifndef KBINDER_INTERNAL_H
#define KBINDER_INTERNAL_H

#include <time.h>

#include <kbinder/kbinder.h>

#define KBINDER_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* libbinder's flags for its objects: fds accepted, SCHED_NORMAL nice 19. */
#define KBINDER_OBJECT_FLAGS	(FLAT_BINDER_FLAG_ACCEPTS_FDS | 19)

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

/**
 * kbinder_android_object() - @obj as libbinder writes a strong binder:
 * @type BINDER_TYPE_BINDER (a node of ours, @ptr_or_handle and @cookie) or
 * BINDER_TYPE_HANDLE (@ptr_or_handle the handle), with libbinder's flags.
 */
void kbinder_android_object(struct flat_binder_object *obj, uint32_t type,
			    binder_uintptr_t ptr_or_handle, binder_uintptr_t cookie);

/**
 * kbinder_parcel_write_android_object() - @obj as it is, then its
 * stability field @stability; NULL: the null binder. Unlike
 * kbinder_parcel_write_strong_binder(), a node of ours whose ptr is 0 (a
 * context manager's, set with BINDER_SET_CONTEXT_MGR) is an object here.
 */
int kbinder_parcel_write_android_object(struct kbinder_parcel *p,
					const struct kbinder_wire *w,
					const struct flat_binder_object *obj,
					uint32_t stability);

/**
 * kbinder_sm_write_service() - kbinder_parcel_write_sm_service() with the
 * binder as an object: @obj (NULL: the null binder), written as it is.
 */
int kbinder_sm_write_service(struct kbinder_parcel *p, const struct kbinder_wire *w,
			     enum kbinder_sm_service_layout layout, uint32_t tag,
			     const struct flat_binder_object *obj, uint32_t stability,
			     bool is_lazy);

#endif /* KBINDER_INTERNAL_H */
