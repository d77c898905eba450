// SPDX-License-Identifier: Apache-2.0
/*
 * Talking to the service manager (through libkbinder's client, at the
 * tool's API level), and the demo echo service that `kbinder serve` and
 * `kbinder demo` run: interface kbinder.IEcho, String echo(String) at
 * code 1, AIDL-style (a Status header before the result). Being a
 * kbinder_object, it also answers PING, INTERFACE, DUMP and DEBUG_PID.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <kbinder/servicemanager.h>

#include "kbinder_tool.h"

int tool_api_level;

static int sm_client(struct kbinder_sm *sm, struct kbinder_thread *t)
{
	return kbinder_sm_init(sm, t, tool_api_level);
}

int svc_get(struct kbinder_thread *t, const char *name, uint32_t *handle)
{
	struct kbinder_sm sm;
	int err = sm_client(&sm, t);

	return err ? err : kbinder_sm_check(&sm, name, handle);
}

int svc_add(struct kbinder_thread *t, const char *name, binder_uintptr_t ptr)
{
	struct kbinder_sm sm;
	int err = sm_client(&sm, t);

	return err ? err : kbinder_sm_add(&sm, name, ptr, ptr, false,
					  KBINDER_DUMP_FLAG_PRIORITY_DEFAULT);
}

int svc_list(struct kbinder_thread *t, int (*fn)(const char *name, void *arg),
	     void *arg)
{
	struct kbinder_sm sm;
	int err = sm_client(&sm, t);

	return err ? err : kbinder_sm_list(&sm, KBINDER_DUMP_FLAG_PRIORITY_ALL, fn, arg);
}

int echo_call(struct kbinder_thread *t, uint32_t handle, const char *text,
	      char *out, size_t size)
{
	struct kbinder_parcel_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	struct kbinder_wire w;
	int32_t ex, code;
	int err;

	err = kbinder_wire_init(&w, tool_api_level);
	if (err)
		return err;
	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, &w, ECHO_INTERFACE);
	kbinder_parcel_write_string16(&data, text);
	err = data.err;
	if (!err)
		err = kbinder_transact(t, handle, ECHO_CODE, &data, 0, &reply,
				       NULL, NULL, TOOL_TIMEOUT_MS);
	kbinder_parcel_fini(&data);
	if (!err)
		err = kbinder_sm_reply_error(t, &reply);
	if (err)
		return err;
	kbinder_view_init(&v, &reply.txn);
	if (kbinder_view_read_status(&v, &ex, &code, NULL, 0))
		err = -EBADMSG;
	else if (ex)
		err = kbinder_exception_errno(ex);
	else if (kbinder_view_read_string16(&v, out, size))
		err = -EBADMSG;
	kbinder_free_buffer(t, reply.txn.data.ptr.buffer);
	return err;
}

static int echo_handle(struct kbinder_object *obj, uint32_t code,
		       struct kbinder_call *call)
{
	char text[4096];

	(void)obj;
	if (code != ECHO_CODE)
		return KBINDER_STATUS_UNKNOWN_TRANSACTION;
	if (kbinder_view_read_string16(&call->in, text, sizeof(text)))
		return KBINDER_STATUS_BAD_VALUE;
	kbinder_parcel_write_status(call->reply, KBINDER_EX_NONE, NULL, 0);
	return kbinder_parcel_write_string16(call->reply, text);
}

int echo_serve(const char *device, const char *name, int ready_fd)
{
	static struct kbinder_object echo;	/* its address names our node */
	static struct kbinder_wire wire;
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct kbinder_proc proc;
	int err;

	err = kbinder_wire_init(&wire, tool_api_level);
	if (err)
		return tool_error(err, "API level %d", tool_api_level);
	echo.descriptor = ECHO_INTERFACE;
	echo.wire = &wire;
	echo.handle = echo_handle;
	echo.n_codes = 1;
	err = tool_open(&proc, device);
	if (err)
		return err;
	kbinder_thread_init(&t, proc.fd);
	err = svc_add(&t, name, (binder_uintptr_t)(uintptr_t)&echo);
	if (err) {
		kbinder_close(&proc);
		return tool_error(err, "register '%s'", name);
	}
	if (ready_fd >= 0) {
		(void)!write(ready_fd, "R", 1);
		close(ready_fd);
	}
	err = kbinder_enter_looper(&t);
	while (!err) {
		err = kbinder_next(&t, &ret, -1);
		if (err)
			break;
		if (ret.cmd == BR_TRANSACTION &&
		    ret.u.txn.target.ptr == (binder_uintptr_t)(uintptr_t)&echo) {
			err = kbinder_object_dispatch(&echo, &t, &ret.u.txn);
			kbinder_free_buffer(&t, ret.u.txn.data.ptr.buffer);
			if (err == -EPIPE)
				err = 0;
		} else {
			err = kbinder_handle_default(&t, &ret, NULL);
		}
	}
	kbinder_close(&proc);
	return tool_error(err, "echo service");
}
