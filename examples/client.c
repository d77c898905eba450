// SPDX-License-Identifier: Apache-2.0
/*
 * A binder client in a page of C: finds "example.greeter" through the
 * service manager, calls greet("world") and prints the answer.
 *
 *   cc client.c -o greeter-client $(pkg-config --cflags --libs kbinder)
 */
#include <stdio.h>
#include <string.h>

#include <kbinder/kbinder.h>

int main(int argc, char **argv)
{
	const char *who = argc > 1 ? argv[1] : "world";
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	struct kbinder_proc proc;
	struct kbinder_thread t;
	struct kbinder_sm sm;
	char answer[300];
	int32_t ex, code;
	uint32_t handle;
	int err;

	err = kbinder_proc_open(&proc, NULL, KBINDER_DEFAULT_MAP_SIZE, 0);
	if (err) {
		fprintf(stderr, "open %s: %s\n", kbinder_proc_default_device(), strerror(-err));
		return 1;
	}
	kbinder_thread_init(&t, proc.fd);
	kbinder_sm_init(&sm, &t, 0);
	err = kbinder_sm_check(&sm, "example.greeter", &handle);
	if (err) {
		fprintf(stderr, "example.greeter: %s\n", strerror(-err));
		return 1;
	}
	/* The request: the interface token, then the arguments. */
	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, &sm.wire, "example.IGreeter");
	kbinder_parcel_write_string16(&data, who);
	err = kbinder_thread_transact(&t, handle, 1, &data, 0, &reply, NULL, NULL, 5000);
	kbinder_parcel_fini(&data);
	if (!err)
		err = kbinder_thread_check_reply(&t, &reply);	/* dead, failed, status code */
	if (err) {
		/* positive: the driver's answer (BR_DEAD_REPLY ...); negative: an errno */
		fprintf(stderr, "greet: %s\n", err > 0 ? kbinder_return_name((uint32_t)err) :
			strerror(-err));
		return 1;
	}
	/* The reply: a Status header, then the String result. */
	kbinder_view_init(&v, &reply.txn);
	if (kbinder_view_read_status(&v, &ex, &code, NULL, 0) || ex ||
	    kbinder_view_read_string16(&v, answer, sizeof(answer))) {
		fprintf(stderr, "greet: bad reply (exception %d)\n", ex);
		err = 1;
	} else {
		printf("%s\n", answer);
	}
	kbinder_thread_free_buffer(&t, reply.txn.data.ptr.buffer);
	kbinder_thread_ref(&t, BC_RELEASE, handle);
	kbinder_proc_close(&proc);
	return err ? 1 : 0;
}
