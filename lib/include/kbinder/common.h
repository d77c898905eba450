/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder: what every family header shares.
 *
 * Conventions of the whole API:
 *   - names are object_verb by family: kbinder_proc_*, kbinder_ioctl_*,
 *     kbinder_writer_*, kbinder_reader_*, kbinder_parcel_*, kbinder_view_*,
 *     kbinder_thread_*, kbinder_wire_*, kbinder_object_*, kbinder_sm_*,
 *     kbinder_sm_server_*, kbinder_report_* (macros KBINDER_);
 *   - a function returning int returns 0 (or a documented positive value)
 *     on success and a negative errno on failure; it never leaves its
 *     result in errno;
 *   - a protocol outcome is never an errno: a reply the driver refused
 *     comes back as its positive BR_ code (BR_DEAD_REPLY, BR_FAILED_REPLY,
 *     BR_FROZEN_REPLY), which the caller tells apart from a failure
 *     (negative) and from success (0);
 *   - every struct a caller allocates ends in reserved space that its
 *     init/open function zeroes, so later versions can use it without
 *     changing the struct's size; initialise structs with those functions.
 */
#ifndef KBINDER_COMMON_H
#define KBINDER_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/android/binder.h>

/*
 * Each family header wraps its declarations in these: C linkage for C++,
 * and default visibility, since the library is built with
 * -fvisibility=hidden and exports exactly lib/libkbinder.map.
 */
#ifdef __cplusplus
#define KBINDER_EXTERN_C_BEGIN extern "C" {
#define KBINDER_EXTERN_C_END }
#else
#define KBINDER_EXTERN_C_BEGIN
#define KBINDER_EXTERN_C_END
#endif

#if defined(__GNUC__) && !defined(KBINDER_NO_VISIBILITY)
#define KBINDER_BEGIN_DECLS KBINDER_EXTERN_C_BEGIN \
	_Pragma("GCC visibility push(default)")
#define KBINDER_END_DECLS _Pragma("GCC visibility pop") KBINDER_EXTERN_C_END
#else
#define KBINDER_BEGIN_DECLS KBINDER_EXTERN_C_BEGIN
#define KBINDER_END_DECLS KBINDER_EXTERN_C_END
#endif

#endif /* KBINDER_COMMON_H */
