/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Service manager fixtures for the guest suites that talk to the real one
 * (`kbinder servicemanager`, exec'd from the tool the guest carries):
 * start it at a release and wait until it answers, stop it, and the
 * releases it speaks, for the tests that go through every one.
 *
 * The helpers that start a manager assert (end the calling process on
 * failure); what they return is the manager's pid.
 */
#ifndef KBINDER_TEST_SM_UTIL_H
#define KBINDER_TEST_SM_UTIL_H

#include "binder_util.h"	/* first: it sets _GNU_SOURCE */

#include <stddef.h>
#include <sys/types.h>

#include <kbinder/servicemanager.h>

/**
 * kbt_sm_releases - every release the service manager speaks: the API
 * levels 28 to 36 and the quarterly releases of 35 and 36, named as
 * `kbinder --api-level` and kbinder_wire_init_name() take them.
 */
extern const char *const kbt_sm_releases[];
/** kbt_sm_n_releases - how many releases kbt_sm_releases has. */
extern const size_t kbt_sm_n_releases;

/** kbt_tool_path() - the kbinder tool: $KBINDER_TOOL, else /usr/bin/kbinder. */
const char *kbt_tool_path(void);

/**
 * kbt_sm_start_release() - exec the real `kbinder servicemanager` at
 * release @name ("33", "35-qpr1"; NULL: the tool's default level) and
 * wait until it answers a ping.
 * Return: its pid (kbt_kill() stops it).
 */
pid_t kbt_sm_start_release(const char *name);

/** kbt_sm_start() - kbt_sm_start_release() at API level @level. */
pid_t kbt_sm_start(int level);

/**
 * kbt_sm_add_handle() - addService(@name, our @handle, false, DEFAULT) at
 * @sm's release, written by hand; @as_bytes: with the offsets array
 * emptied, so that the driver translates nothing (how libbinder sends
 * handle 0; any other handle so is a forgery). Otherwise the caller holds
 * a reference on @handle (the driver translates only those).
 * Return: the reply's AIDL exception (0: registered), or the status of a
 * status-code reply (nonzero).
 */
int32_t kbt_sm_add_handle(struct kbinder_sm *sm, const char *name, uint32_t handle,
			  bool as_bytes);

/**
 * kbt_sm_expect_registration() - wait for IServiceCallback.onRegistration
 * of @name to our object @cookie (one-way, with @w's token); *@obj: the
 * binder it carries, a handle of ours (asserted).
 */
void kbt_sm_expect_registration(struct kbinder_thread *t, const struct kbinder_wire *w,
				const char *name, binder_uintptr_t cookie,
				struct flat_binder_object *obj);

#endif /* KBINDER_TEST_SM_UTIL_H */
