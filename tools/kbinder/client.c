// SPDX-License-Identifier: Apache-2.0
/*
 * Talking to the service manager, and the demo echo service that `kbinder
 * serve` and `kbinder demo` run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kbinder_tool.h"
#include "svcmgr_proto.h"

/* A request parcel for @interface: its strict-mode word and token. */
static void request_start(struct kbinder_parcel *data, const char *interface)
{
	kbinder_parcel_init(data);
	put_header(data, interface);
}

/* Send @data (then freed) to @handle and wait for a reply; a status-code
 * reply becomes its (negative) status. On success the caller frees
 * reply->txn's buffer. */
static int call(struct kbinder_thread *t, uint32_t handle, uint32_t code,
		struct kbinder_parcel *data, struct kbinder_reply *reply)
{
	struct kbinder_parcel_view v;
	uint32_t status;
	int err;

	err = data->err;
	if (!err)
		err = kbinder_transact(t, handle, code, data, 0, reply, NULL, NULL,
				  TOOL_TIMEOUT_MS);
	kbinder_parcel_fini(data);
	if (err)
		return err;
	switch (reply->status) {
	case BR_REPLY:
		break;
	case BR_DEAD_REPLY:
		return -EPIPE;
	default:
		return -EIO;
	}
	if (reply->txn.flags & TF_STATUS_CODE) {
		kbinder_view_init(&v, &reply->txn);
		err = kbinder_view_read_u32(&v, &status) ? -EBADMSG : (int32_t)status;
		kbinder_free_buffer(t, reply->txn.data.ptr.buffer);
		return err < 0 ? err : -EIO;
	}
	return 0;
}

int svc_get(struct kbinder_thread *t, const char *name, uint32_t *handle)
{
	struct flat_binder_object obj;
	struct kbinder_parcel_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	int err;

	request_start(&data, SVCMGR_INTERFACE);
	put_string16(&data, name);
	err = call(t, SVCMGR_HANDLE, SVCMGR_CHECK_SERVICE, &data, &reply);
	if (err)
		return err;
	kbinder_view_init(&v, &reply.txn);
	if (view_next_object(&v, &obj) || obj.hdr.type != BINDER_TYPE_HANDLE) {
		err = -ENOENT;
	} else {
		/* Our own reference: the buffer's goes away when it is freed. */
		err = kbinder_ref(t, BC_ACQUIRE, obj.handle);
		*handle = obj.handle;
	}
	kbinder_free_buffer(t, reply.txn.data.ptr.buffer);
	return err;
}

int svc_add(struct kbinder_thread *t, const char *name, binder_uintptr_t ptr)
{
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	int err;

	request_start(&data, SVCMGR_INTERFACE);
	put_string16(&data, name);
	kbinder_parcel_write_binder(&data, ptr, ptr, FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x7f,
			       false);
	kbinder_parcel_write_u32(&data, 0);	/* allow isolated */
	kbinder_parcel_write_u32(&data, 0);	/* dump priority */
	err = call(t, SVCMGR_HANDLE, SVCMGR_ADD_SERVICE, &data, &reply);
	if (!err)
		kbinder_free_buffer(t, reply.txn.data.ptr.buffer);
	return err;
}

int svc_list(struct kbinder_thread *t, uint32_t index, char *name, size_t size)
{
	struct kbinder_parcel_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	int err;

	request_start(&data, SVCMGR_INTERFACE);
	kbinder_parcel_write_u32(&data, index);
	err = call(t, SVCMGR_HANDLE, SVCMGR_LIST_SERVICES, &data, &reply);
	if (err)
		return err;
	kbinder_view_init(&v, &reply.txn);
	err = get_string16(&v, name, size);
	kbinder_free_buffer(t, reply.txn.data.ptr.buffer);
	return err;
}

int echo_call(struct kbinder_thread *t, uint32_t handle, const char *text,
	      char *out, size_t size)
{
	struct kbinder_parcel_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	uint32_t n;
	int err;

	request_start(&data, ECHO_INTERFACE);
	kbinder_parcel_write_u32(&data, (uint32_t)strlen(text));
	kbinder_parcel_write(&data, text, strlen(text));
	err = call(t, handle, ECHO_CODE, &data, &reply);
	if (err)
		return err;
	kbinder_view_init(&v, &reply.txn);
	if (kbinder_view_read_u32(&v, &n) || n >= size || kbinder_view_read(&v, out, n))
		err = -EBADMSG;
	else
		out[n] = '\0';
	kbinder_free_buffer(t, reply.txn.data.ptr.buffer);
	return err;
}

/* Answer one echo request with the bytes it carried. */
static int echo_answer(struct kbinder_thread *t, const struct binder_transaction_data *tr)
{
	char text[4096];
	struct kbinder_parcel_view v;
	struct kbinder_parcel reply;
	uint32_t n;
	int err;

	kbinder_view_init(&v, tr);
	kbinder_parcel_init(&reply);
	if (tr->code != ECHO_CODE || check_header(&v, ECHO_INTERFACE) ||
	    kbinder_view_read_u32(&v, &n) || n > sizeof(text) ||
	    kbinder_view_read(&v, text, n)) {
		kbinder_parcel_write_u32(&reply, (uint32_t)-EBADMSG);
		err = kbinder_send_reply(t, &reply, TF_STATUS_CODE, TOOL_TIMEOUT_MS);
	} else {
		kbinder_parcel_write_u32(&reply, n);
		kbinder_parcel_write(&reply, text, n);
		err = kbinder_send_reply(t, &reply, 0, TOOL_TIMEOUT_MS);
	}
	kbinder_parcel_fini(&reply);
	return err;
}

int echo_serve(const char *device, const char *name, int ready_fd)
{
	static int echo_object;	/* its address names our binder object */
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct kbinder_proc proc;
	int err;

	err = kbinder_open(&proc, device, KBINDER_DEFAULT_MAP_SIZE);
	if (err)
		return tool_error(err, "open %s", device ? device : kbinder_default_device());
	kbinder_thread_init(&t, proc.fd);
	err = svc_add(&t, name, (binder_uintptr_t)(uintptr_t)&echo_object);
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
		if (ret.cmd == BR_TRANSACTION) {
			if (!(ret.u.txn.flags & TF_ONE_WAY))
				err = echo_answer(&t, &ret.u.txn);
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
