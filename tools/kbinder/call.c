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

#include "tool.h"

#define CALL_MAX_FDS 16

static const char call_usage[] =
"kbinder [-d DEVICE] [-a LEVEL] call [--oneway] [--raw]\n"
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
	const struct tool *tool;
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
			return tool_error(-errno, "open %s", v);
		}
		c->fds[c->n_fds++] = fd;
		return kbinder_parcel_write_fd(p, fd, 0);
	}
	if (!strncmp(arg, "binder:", 7)) {
		if (c->n_handles == CALL_MAX_FDS)
			return -ENOSPC;
		err = tool_lookup(c->tool, c->t, v, &h);
		if (err)
			return err;
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

/*
 * A Status at the start of an AIDL reply, printed; false if the first word
 * is no exception code (HIDL-style and raw replies start with anything).
 */
static bool print_status(struct kbinder_view *v)
{
	char msg[512];
	int32_t ex, code;

	if (v->size - v->pos < 4)
		return false;
	memcpy(&ex, v->data + v->pos, sizeof(ex));
	if (!(ex == 0 || (ex >= -9 && ex <= -1) || ex == -128) ||
	    kbinder_view_read_status(v, &ex, &code, msg, sizeof(msg)))
		return false;
	if (ex)
		printf("  exception %d%s%s (code %d)\n", ex, msg[0] ? ": " : "", msg, code);
	else
		printf("  status ok\n");
	return true;
}

/* Decode what we can: objects where the offsets say, strings, words. */
static void print_decoded(const struct binder_transaction_data *tr, bool aidl)
{
	struct kbinder_view v;
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
		if (first && aidl && print_status(&v)) {
			first = false;
			continue;
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

/* The parsed command line of `kbinder call`. */
struct call_args {
	const char *name, *descriptor;
	uint32_t code;
	bool oneway, raw;
	char **args;
	int n_args;
};

/* Return: -1 to go on with @a filled, else the exit status. */
static int call_parse(int argc, char **argv, struct call_args *a)
{
	static const struct option opts[] = {
		{ "oneway", no_argument, NULL, 'o' },
		{ "raw", no_argument, NULL, 'r' },
		{ "descriptor", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, status = -1;

	memset(a, 0, sizeof(*a));
	while ((opt = tool_options(argc, argv, "orD:", opts, call_usage, &status)) != -1) {
		if (opt == 'o')
			a->oneway = true;
		else if (opt == 'r')
			a->raw = true;
		else
			a->descriptor = optarg;
	}
	if (status >= 0)
		return status;
	if (argc - optind < 2 || parse_code(argv[optind + 1], &a->code)) {
		fprintf(stderr, "kbinder: call needs NAME and a CODE\n");
		return tool_usage_error(argv[0], call_usage);
	}
	a->name = argv[optind];
	a->args = argv + optind + 2;
	a->n_args = argc - optind - 2;
	return -1;
}

static bool is_user_code(uint32_t code)
{
	return code >= KBINDER_FIRST_CALL_TRANSACTION && code <= KBINDER_LAST_CALL_TRANSACTION;
}

/* The request: the token (unless --raw or a standard code), the arguments. */
static int call_build(struct call_ctx *c, const struct call_args *a, uint32_t handle,
		      struct kbinder_parcel *data)
{
	const char *descriptor = a->descriptor;
	char desc[256];
	int err;

	if (!a->raw && is_user_code(a->code)) {
		if (!descriptor) {
			err = tool_descriptor(c->t, handle, desc, sizeof(desc));
			if (err)
				return tool_error(err, "ask '%s' for its interface", a->name);
			descriptor = desc;
		}
		kbinder_parcel_write_token(data, &c->wire, descriptor);
	}
	for (int i = 0; i < a->n_args; i++) {
		err = put_arg(c, data, a->args[i]);
		if (err) {
			fprintf(stderr, "kbinder: bad argument '%s' (kbinder call --help)\n",
				a->args[i]);
			return err;
		}
	}
	return data->err;
}

static int print_status_code(const struct binder_transaction_data *tr)
{
	struct kbinder_view v;
	uint32_t st = 0;

	kbinder_view_init(&v, tr);
	kbinder_view_read_u32(&v, &st);
	printf("status code %d%s\n", (int32_t)st,
	       (int32_t)st == KBINDER_STATUS_UNKNOWN_TRANSACTION ? " (UNKNOWN_TRANSACTION)" :
	       (int32_t)st == KBINDER_STATUS_BAD_TYPE ? " (BAD_TYPE)" : "");
	return -EREMOTEIO;
}

/* Print the outcome; 0 for a reply or a one-way call sent. */
static int call_print(struct kbinder_thread *t, const struct call_args *a,
		      const struct kbinder_reply *reply)
{
	const struct binder_transaction_data *tr = &reply->txn;
	int err = 0;

	switch (reply->status) {
	case BR_TRANSACTION_COMPLETE:
		printf("sent (one-way)\n");
		return 0;
	case BR_REPLY:
		break;
	case BR_DEAD_REPLY:
		fprintf(stderr, "kbinder: '%s' is dead\n", a->name);
		return (int)reply->status;
	default:
		fprintf(stderr, "kbinder: the call failed (%s)\n",
			kbinder_return_name(reply->status));
		return (int)reply->status;
	}
	if (tr->flags & TF_STATUS_CODE) {
		err = print_status_code(tr);
	} else {
		printf("reply: %llu bytes, %zu objects\n", (unsigned long long)tr->data_size,
		       (size_t)(tr->offsets_size / sizeof(binder_size_t)));
		/* AIDL replies (every release) start with a Status. */
		print_decoded(tr, is_user_code(a->code) && !a->raw);
		print_hex((const uint8_t *)(uintptr_t)tr->data.ptr.buffer, tr->data_size);
	}
	kbinder_thread_free_buffer(t, tr->data.ptr.buffer);
	return err;
}

/* Call @a->name once it is looked up as @handle. */
static int call_handle(struct call_ctx *c, const struct call_args *a, uint32_t handle)
{
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	int err;

	kbinder_parcel_init(&data);
	err = call_build(c, a, handle, &data);
	if (!err)
		err = tool_error(kbinder_thread_transact(c->t, handle, a->code, &data,
							 a->oneway ? TF_ONE_WAY : 0, &reply,
							 NULL, NULL, TOOL_TIMEOUT_MS),
				 "call '%s'", a->name);
	if (!err)
		err = call_print(c->t, a, &reply);
	kbinder_parcel_fini(&data);
	for (int h = 0; h < c->n_handles; h++)
		kbinder_thread_ref(c->t, BC_RELEASE, c->handles[h]);
	for (int f = 0; f < c->n_fds; f++)
		close(c->fds[f]);
	return err;
}

int cmd_call(const struct tool *tool, int argc, char **argv)
{
	struct call_ctx c = { .tool = tool };
	struct kbinder_thread t;
	struct kbinder_proc proc;
	struct call_args a;
	uint32_t handle;
	int err = call_parse(argc, argv, &a);

	if (err >= 0)
		return err;
	if (tool_wire(tool, &c.wire))
		return 2;
	if (tool_connect(tool, &proc, &t))
		return 1;
	c.t = &t;
	err = tool_lookup(tool, &t, a.name, &handle);
	if (!err) {
		err = call_handle(&c, &a, handle);
		kbinder_thread_ref(&t, BC_RELEASE, handle);
	}
	kbinder_proc_close(&proc);
	return err ? 1 : 0;
}
