// SPDX-License-Identifier: Apache-2.0
/*
 * `kbinder call NAME CODE [ARG]...`: a transaction with typed arguments
 * to any service, the reply printed decoded and as hex. The interface
 * token is written first (with the descriptor the service reports for
 * INTERFACE_TRANSACTION) unless --raw.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbinder/servicemanager.h>

#include "kbinder_tool.h"

#define CALL_MAX_FDS 16

static const char call_usage[] =
"usage: kbinder [-d DEVICE] [-a LEVEL] call [--oneway] [--raw]\n"
"                [--descriptor DESC] NAME CODE [ARG]...\n"
"  Call service NAME with transaction CODE (a number, or ping, interface,\n"
"  dump, pid) and print the reply decoded and as hex. ARG is one of:\n"
"    i32:N  i64:N  bool:0|1   an int32, int64, AIDL boolean\n"
"    s16:TEXT  s8:TEXT        a String16 (AIDL String) or a String8\n"
"    null                     a null String16\n"
"    fd:PATH                  a file descriptor, PATH opened read-only\n"
"    binder:NAME              the binder of service NAME\n"
"  --raw: no interface token; --descriptor: the token's descriptor\n"
"  (default: ask the service); --oneway: TF_ONE_WAY.\n";

static int parse_code(const char *s, uint32_t *code)
{
	static const struct { const char *name; uint32_t code; } named[] = {
		{ "ping", KBINDER_PING_TRANSACTION },
		{ "interface", KBINDER_INTERFACE_TRANSACTION },
		{ "dump", KBINDER_DUMP_TRANSACTION },
		{ "pid", KBINDER_DEBUG_PID_TRANSACTION },
	};
	char *end;
	unsigned long v;

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (!strcmp(s, named[i].name)) {
			*code = named[i].code;
			return 0;
		}
	}
	v = strtoul(s, &end, 0);
	if (*end || !*s || v > UINT32_MAX)
		return -EINVAL;
	*code = (uint32_t)v;
	return 0;
}

struct call_ctx {
	struct kbinder_thread *t;
	struct kbinder_wire wire;
	uint32_t handles[CALL_MAX_FDS];
	int n_handles;
	int fds[CALL_MAX_FDS];
	int n_fds;
};

static int put_arg(struct call_ctx *c, struct kbinder_parcel *p, const char *arg)
{
	const char *v = strchr(arg, ':');
	char *end;
	long long n;
	uint32_t h;
	int err, fd;

	if (!strcmp(arg, "null"))
		return kbinder_parcel_write_string16(p, NULL);
	if (!v)
		return -EINVAL;
	v++;
	if (!strncmp(arg, "i32:", 4) || !strncmp(arg, "bool:", 5) ||
	    !strncmp(arg, "i64:", 4)) {
		n = strtoll(v, &end, 0);
		if (*end || !*v)
			return -EINVAL;
		if (arg[0] == 'i' && arg[1] == '6')
			return kbinder_parcel_write_u64(p, (uint64_t)n);
		if (n < INT32_MIN || n > UINT32_MAX)
			return -ERANGE;
		return kbinder_parcel_write_u32(p, (uint32_t)n);
	}
	if (!strncmp(arg, "s16:", 4))
		return kbinder_parcel_write_string16(p, v);
	if (!strncmp(arg, "s8:", 3))
		return kbinder_parcel_write_string8(p, v);
	if (!strncmp(arg, "fd:", 3)) {
		if (c->n_fds == CALL_MAX_FDS)
			return -EMFILE;
		fd = open(v, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			tool_error(-errno, "open %s", v);
			return -errno;
		}
		c->fds[c->n_fds++] = fd;
		return kbinder_parcel_write_fd(p, fd, 0);
	}
	if (!strncmp(arg, "binder:", 7)) {
		if (c->n_handles == CALL_MAX_FDS)
			return -ENOSPC;
		err = svc_get(c->t, v, &h);
		if (err) {
			if (err == -ENOENT)
				fprintf(stderr, "kbinder: no service '%s'\n", v);
			return err;
		}
		c->handles[c->n_handles++] = h;
		return kbinder_parcel_write_strong_handle(p, &c->wire, h,
							  c->wire.stability);
	}
	return -EINVAL;
}

static void print_hex(const uint8_t *d, size_t n)
{
	for (size_t i = 0; i < n; i += 16) {
		printf("  %04zx: ", i);
		for (size_t j = i; j < i + 16; j++) {
			if (j < n)
				printf("%02x ", d[j]);
			else
				printf("   ");
		}
		printf(" ");
		for (size_t j = i; j < i + 16 && j < n; j++)
			putchar(d[j] >= 0x20 && d[j] < 0x7f ? d[j] : '.');
		printf("\n");
	}
}

/* Decode what we can: objects where the offsets say, strings, words. */
static void print_decoded(const struct binder_transaction_data *tr, bool aidl)
{
	struct kbinder_parcel_view v;
	struct flat_binder_object obj;
	char s[512];
	uint32_t w;
	size_t obj_i;
	bool first = true;

	kbinder_view_init(&v, tr);
	while (v.pos < v.size) {
		bool is_obj = false;

		for (obj_i = 0; obj_i < v.n_offsets; obj_i++)
			if (v.offsets[obj_i] == v.pos)
				is_obj = true;
		if (is_obj && !kbinder_view_read(&v, &obj, sizeof(obj))) {
			if (obj.hdr.type == BINDER_TYPE_FD)
				printf("  fd %u\n", obj.handle);
			else if (obj.hdr.type == BINDER_TYPE_HANDLE)
				printf("  binder handle %u\n", obj.handle);
			else
				printf("  object type 0x%x\n", obj.hdr.type);
			first = false;
			continue;
		}
		if (first && aidl && v.size - v.pos >= 4) {
			int32_t ex, code;

			/* A Status only if the first word is an exception code:
			 * HIDL-style and raw replies start with anything. */
			memcpy(&ex, v.data + v.pos, sizeof(ex));
			first = false;
			if ((ex == 0 || (ex >= -9 && ex <= -1) || ex == -128) &&
			    !kbinder_view_read_status(&v, &ex, &code, s, sizeof(s))) {
				if (ex)
					printf("  exception %d%s%s (code %d)\n", ex,
					       s[0] ? ": " : "", s, code);
				else
					printf("  status ok\n");
				continue;
			}
		}
		first = false;
		if (kbinder_view_read_string16(&v, s, sizeof(s)) == 0 && s[0]) {
			printf("  s16:\"%s\"\n", s);
			continue;
		}
		if (kbinder_view_read_u32(&v, &w))
			break;
		printf("  i32:%d (0x%x)\n", (int32_t)w, w);
	}
}

int cmd_call(const char *device, int argc, char **argv)
{
	struct call_ctx c = { 0 };
	const char *descriptor = NULL;
	bool oneway = false, raw = false;
	char desc[256];
	struct kbinder_parcel data;
	struct kbinder_parcel_view v;
	struct kbinder_reply reply;
	struct kbinder_thread t;
	struct kbinder_proc proc;
	uint32_t handle, code;
	int i = 0, err;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(call_usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--oneway")) {
			oneway = true;
		} else if (!strcmp(argv[i], "--raw")) {
			raw = true;
		} else if (!strcmp(argv[i], "--descriptor") && i + 1 < argc) {
			descriptor = argv[++i];
		} else {
			break;
		}
	}
	if (argc - i < 2 || parse_code(argv[i + 1], &code)) {
		fprintf(stderr, "kbinder: call needs NAME and a CODE\n");
		fputs(call_usage, stderr);
		return 2;
	}
	err = kbinder_wire_init(&c.wire, tool_api_level);
	if (err)
		return 2;
	if (tool_open(&proc, device))
		return 1;
	kbinder_thread_init(&t, proc.fd);
	c.t = &t;
	err = svc_get(&t, argv[i], &handle);
	if (err) {
		if (err == -ENOENT)
			fprintf(stderr, "kbinder: no service '%s'\n", argv[i]);
		else
			tool_error(err, "look up '%s'", argv[i]);
		kbinder_close(&proc);
		return 1;
	}
	kbinder_parcel_init(&data);
	bool user_code = code >= KBINDER_FIRST_CALL_TRANSACTION &&
			 code <= KBINDER_LAST_CALL_TRANSACTION;
	if (!raw && user_code) {
		if (!descriptor) {
			struct kbinder_reply r;

			err = kbinder_transact(&t, handle, KBINDER_INTERFACE_TRANSACTION,
					       NULL, 0, &r, NULL, NULL, TOOL_TIMEOUT_MS);
			if (!err)
				err = kbinder_sm_reply_error(&t, &r);
			if (!err) {
				kbinder_view_init(&v, &r.txn);
				err = kbinder_view_read_string16(&v, desc, sizeof(desc));
				kbinder_free_buffer(&t, r.txn.data.ptr.buffer);
			}
			if (err) {
				tool_error(err < 0 ? err : -EBADMSG,
					   "ask '%s' for its interface", argv[i]);
				goto out;
			}
			descriptor = desc;
		}
		kbinder_parcel_write_token(&data, &c.wire, descriptor);
	}
	for (int a = i + 2; a < argc; a++) {
		err = put_arg(&c, &data, argv[a]);
		if (err) {
			fprintf(stderr, "kbinder: bad argument '%s' (kbinder call --help)\n",
				argv[a]);
			goto out;
		}
	}
	err = data.err;
	if (!err)
		err = kbinder_transact(&t, handle, code, &data,
				       oneway ? TF_ONE_WAY : 0, &reply, NULL, NULL,
				       TOOL_TIMEOUT_MS);
	if (err) {
		tool_error(err, "call '%s'", argv[i]);
		goto out;
	}
	switch (reply.status) {
	case BR_TRANSACTION_COMPLETE:
		printf("sent (one-way)\n");
		break;
	case BR_REPLY:
		if (reply.txn.flags & TF_STATUS_CODE) {
			uint32_t st = 0;

			kbinder_view_init(&v, &reply.txn);
			kbinder_view_read_u32(&v, &st);
			printf("status code %d%s\n", (int32_t)st,
			       (int32_t)st == KBINDER_STATUS_UNKNOWN_TRANSACTION ?
			       " (UNKNOWN_TRANSACTION)" :
			       (int32_t)st == KBINDER_STATUS_BAD_TYPE ? " (BAD_TYPE)" : "");
			err = -EREMOTEIO;
		} else {
			printf("reply: %llu bytes, %zu objects\n", (unsigned long long)reply.txn.data_size,
			       (size_t)(reply.txn.offsets_size / sizeof(binder_size_t)));
			/* AIDL replies (every release) start with a Status. */
			print_decoded(&reply.txn, user_code && !raw);
			print_hex((const uint8_t *)(uintptr_t)reply.txn.data.ptr.buffer,
				  reply.txn.data_size);
		}
		kbinder_free_buffer(&t, reply.txn.data.ptr.buffer);
		break;
	case BR_DEAD_REPLY:
		fprintf(stderr, "kbinder: '%s' is dead\n", argv[i]);
		err = -EPIPE;
		break;
	default:
		fprintf(stderr, "kbinder: the call failed (%s)\n",
			kbinder_return_name(reply.status));
		err = -EIO;
	}
out:
	kbinder_parcel_fini(&data);
	for (int h = 0; h < c.n_handles; h++)
		kbinder_ref(&t, BC_RELEASE, c.handles[h]);
	for (int f = 0; f < c.n_fds; f++)
		close(c.fds[f]);
	kbinder_ref(&t, BC_RELEASE, handle);
	kbinder_close(&proc);
	return err ? 1 : 0;
}
