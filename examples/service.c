// SPDX-License-Identifier: Apache-2.0
/*
 * A binder service in a page of C: registers "example.greeter" with the
 * service manager and answers String greet(String name) at code 1, AIDL
 * style (a Status header, then the result). Being a kbinder_object, it also
 * answers PING, INTERFACE, DUMP and DEBUG_PID like any Android object.
 *
 *   cc service.c -o greeter-service $(pkg-config --cflags --libs kbinder)
 *   kbinder servicemanager &  ./greeter-service &  kbinder call example.greeter 1 s16:you
 */
#include <stdio.h>
#include <string.h>

#include <kbinder/kbinder.h>

#define DESCRIPTOR "example.IGreeter"
#define GREET 1

static int greeter_handle(struct kbinder_object *obj, uint32_t code,
			  struct kbinder_call *call)
{
	char name[256], text[300];

	(void)obj;
	if (code != GREET)
		return KBINDER_STATUS_UNKNOWN_TRANSACTION;
	/* The token was checked already; the arguments follow it. */
	if (kbinder_view_read_string16(&call->in, name, sizeof(name)))
		return KBINDER_STATUS_BAD_VALUE;
	snprintf(text, sizeof(text), "hello, %s", name);
	kbinder_parcel_write_status(call->reply, KBINDER_EX_NONE, NULL, 0);
	return kbinder_parcel_write_string16(call->reply, text);
}

int main(void)
{
	static struct kbinder_object greeter = {
		.descriptor = DESCRIPTOR,
		.handle = greeter_handle,
		.n_codes = 1,
	};
	struct kbinder_proc proc;
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct kbinder_sm sm;
	int err;

	err = kbinder_proc_open(&proc, NULL, KBINDER_DEFAULT_MAP_SIZE, 0);
	if (err) {
		fprintf(stderr, "open %s: %s\n", kbinder_proc_default_device(), strerror(-err));
		return 1;
	}
	kbinder_thread_init(&t, proc.fd);
	kbinder_sm_init(&sm, &t, 0);		/* $KBINDER_API_LEVEL or 33 */
	greeter.wire = &sm.wire;
	/* The object's address is its binder; the driver hands callers a handle. */
	err = kbinder_sm_add(&sm, "example.greeter", (binder_uintptr_t)(uintptr_t)&greeter,
			     0, false, KBINDER_DUMP_FLAG_PRIORITY_DEFAULT);
	if (err) {
		fprintf(stderr, "addService: %s\n", err > 0 ?
			kbinder_return_name((uint32_t)err) : strerror(-err));
		return 1;
	}
	kbinder_thread_enter_looper(&t);
	while (!(err = kbinder_thread_next(&t, &ret, -1))) {
		if (ret.cmd == BR_TRANSACTION) {
			kbinder_object_dispatch(&greeter, &t, &ret.u.txn);
			kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer);
		} else {
			kbinder_thread_handle_default(&t, &ret, NULL);	/* refcounts, deaths */
		}
	}
	kbinder_proc_close(&proc);
	return 1;
}
