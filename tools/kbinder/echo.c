// SPDX-License-Identifier: Apache-2.0
/*
 * The demo echo service that `kbinder serve` and `kbinder demo` run:
 * interface kbinder.IEcho, String echo(String) at code 1, AIDL-style (a
 * Status header before the result). Being a kbinder_object, it also
 * answers PING, INTERFACE, DUMP and DEBUG_PID.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tool.h"

int echo_call(const struct tool *tool, struct kbinder_thread *t, uint32_t handle,
	      const char *text, char *out, size_t size)
{
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	struct kbinder_wire w;
	int32_t ex, code;
	int err;

	err = tool_wire(tool, &w);
	if (err)
		return err;
	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, &w, ECHO_INTERFACE);
	kbinder_parcel_write_string16(&data, text);
	err = kbinder_thread_transact(t, handle, ECHO_CODE, &data, 0, &reply,
				      NULL, NULL, TOOL_TIMEOUT_MS);
	kbinder_parcel_fini(&data);
	if (!err)
		err = kbinder_thread_check_reply(t, &reply);
	if (err)
		return err;
	kbinder_view_init(&v, &reply.txn);
	if (kbinder_view_read_status(&v, &ex, &code, NULL, 0))
		err = -EBADMSG;
	else if (ex)
		err = kbinder_status_errno(ex);
	else if (kbinder_view_read_string16(&v, out, size))
		err = -EBADMSG;
	kbinder_thread_free_buffer(t, reply.txn.data.ptr.buffer);
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

/* Serve @echo's calls on @t until an error. */
static int echo_loop(struct kbinder_thread *t, struct kbinder_object *echo)
{
	struct kbinder_return ret;
	int err = kbinder_thread_enter_looper(t);

	while (!err) {
		err = kbinder_thread_next(t, &ret, -1);
		if (err)
			break;
		if (ret.cmd != BR_TRANSACTION ||
		    ret.u.txn.target.ptr != (binder_uintptr_t)(uintptr_t)echo) {
			err = kbinder_thread_handle_default(t, &ret, NULL);
			continue;
		}
		err = kbinder_object_dispatch(echo, t, &ret.u.txn);
		kbinder_thread_free_buffer(t, ret.u.txn.data.ptr.buffer);
		if (err > 0)
			err = 0;	/* the caller went away */
	}
	return err;
}

int echo_serve(const struct tool *tool, const char *name, int ready_fd)
{
	static struct kbinder_object echo;	/* its address names our node */
	static struct kbinder_wire wire;
	binder_uintptr_t ptr = (binder_uintptr_t)(uintptr_t)&echo;
	struct kbinder_thread t;
	struct kbinder_proc proc;
	struct kbinder_sm sm;
	int err;

	err = tool_wire(tool, &wire);
	if (err)
		return err;
	echo.descriptor = ECHO_INTERFACE;
	echo.wire = &wire;
	echo.handle = echo_handle;
	echo.n_codes = 1;
	err = tool_connect(tool, &proc, &t);
	if (err)
		return err;
	err = tool_sm(tool, &sm, &t);
	if (!err)
		err = kbinder_sm_add(&sm, name, ptr, ptr, false,
				     KBINDER_DUMP_FLAG_PRIORITY_DEFAULT);
	if (err) {
		kbinder_proc_close(&proc);
		return tool_sm_error(err, "register '%s'", name);
	}
	tool_ready(ready_fd);
	err = echo_loop(&t, &echo);
	kbinder_proc_close(&proc);
	return tool_error(err, "echo service");
}
