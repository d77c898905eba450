// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: synchronous transactions. BC_TRANSACTION / BR_TRANSACTION /
 * BC_REPLY / BR_REPLY / BR_TRANSACTION_COMPLETE, payloads, sender identity,
 * object translation (binder <-> handle), buffers and their freeing, and
 * the callee's priority.
 */
#include "binder_util.h"

#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>

enum {
	CODE_ECHO_REVERSED = 1,	/* reply = payload reversed byte by byte */
	CODE_IDENTITY,		/* reply = sender_pid, sender_euid, code, flags */
	CODE_OBJECTS,		/* reply = the objects as the server saw them */
	CODE_RETURN_OBJECT,	/* reply = the received object, sent back */
	CODE_NICE,		/* reply = the serving thread's nice value */
	CODE_STASH,		/* server keeps the handle it received */
	CODE_GET_STASHED,	/* reply = the stashed handle as an object */
	CODE_BUFFER_INFO,	/* reply = buffer offset in map, map size */
	CODE_KEEP,		/* server keeps the buffer */
	CODE_FREE_KEPT,		/* server frees all kept buffers */
};

static struct kbinder_proc server_proc;	/* the forked server's own (its copy) */
static uint32_t stashed_handle;
static binder_uintptr_t kept[64];
static int n_kept;

static int server(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		  struct kbinder_parcel *reply, void *arg)
{
	const uint8_t *data = kbt_txn_data(tr);
	struct flat_binder_object obj;
	size_t i;

	(void)arg;
	switch (tr->code) {
	case CODE_ECHO_REVERSED: {
		uint8_t *rev = malloc(tr->data_size + 1);

		for (i = 0; i < tr->data_size; i++)
			rev[i] = data[tr->data_size - 1 - i];
		kbinder_parcel_write(reply, rev, tr->data_size);
		free(rev);
		break;
	}
	case CODE_IDENTITY:
		kbinder_parcel_write_u32(reply, (uint32_t)tr->sender_pid);
		kbinder_parcel_write_u32(reply, tr->sender_euid);
		kbinder_parcel_write_u32(reply, tr->code);
		kbinder_parcel_write_u32(reply, tr->flags);
		kbinder_parcel_write_u64(reply, tr->target.ptr);
		kbinder_parcel_write_u64(reply, tr->cookie);
		break;
	case CODE_OBJECTS:
		kbinder_parcel_write_u64(reply, tr->offsets_size);
		for (i = 0; i < tr->offsets_size / 8; i++) {
			kbt_txn_object(tr, i, &obj);
			kbinder_parcel_write(reply, &obj, sizeof(obj));
			/* keep the references, as libbinder's unparcel does */
			ASSERT_OK(kbinder_thread_ref(t, obj.hdr.type == BINDER_TYPE_HANDLE ?
						     BC_ACQUIRE : BC_INCREFS, obj.handle));
		}
		break;
	case CODE_RETURN_OBJECT:
		kbt_txn_object(tr, 0, &obj);
		kbinder_parcel_write_object(reply, &obj, sizeof(obj));
		break;
	case CODE_NICE:
		errno = 0;
		kbinder_parcel_write_u32(reply, (uint32_t)getpriority(PRIO_PROCESS, 0));
		break;
	case CODE_STASH:
		kbt_txn_object(tr, 0, &obj);
		stashed_handle = obj.handle;
		ASSERT_OK(kbinder_thread_ref(t, BC_ACQUIRE, obj.handle));
		break;
	case CODE_GET_STASHED:
		kbinder_parcel_write_handle(reply, stashed_handle, 0, false);
		break;
	case CODE_BUFFER_INFO:
		kbinder_parcel_write_u64(reply, tr->data.ptr.buffer -
					 (binder_uintptr_t)(uintptr_t)server_proc.map);
		kbinder_parcel_write_u64(reply, server_proc.map_size);
		break;
	case CODE_KEEP:
		ASSERT_LT(n_kept, 64);
		kept[n_kept++] = tr->data.ptr.buffer;
		return KBT_KEPT;
	case CODE_FREE_KEPT:
		while (n_kept)
			ASSERT_OK(kbinder_thread_free_buffer(t, kept[--n_kept]));
		break;
	}
	return KBT_REPLY;
}

/* A context manager whose mapping is @map_size bytes. */
static size_t server_map_size = KBT_MAP_SIZE;

static void server_main(void *arg)
{
	struct kbt_server *s = arg;
	struct kbinder_thread t;

	kbt_open_dev(&server_proc, NULL, server_map_size);
	ASSERT_OK(kbt_become_ctxmgr(server_proc.fd, NULL));
	kbinder_thread_init(&t, server_proc.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_SIGNAL(&s->chan, 'R');
	ASSERT_OK(kbt_serve(&t, server, NULL));
	kbinder_proc_close(&server_proc);
}

/* The scenario of most tests: that manager, and this process its client. */
static void start(struct kbt_pair *pair)
{
	kbt_start_child(&pair->mgr, server_main);
	kbt_client(&pair->p, &pair->t);
}

TEST(reply_payload_arrives_intact)
{
	static uint8_t msg[3001], want[3001];
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	size_t i;

	start(&pair);
	kbt_fill(msg, sizeof(msg), 7);
	for (i = 0; i < sizeof(msg); i++)
		want[i] = msg[sizeof(msg) - 1 - i];
	kbinder_parcel_init(&data);
	kbinder_parcel_write(&data, msg, sizeof(msg));
	kbt_call(&pair.t, 0, CODE_ECHO_REVERSED, &data, &r);
	/* the server replied with exactly data_size bytes of its padded copy */
	ASSERT_EQ(r.txn.data_size, 3004);
	ASSERT_EQ(r.txn.offsets_size, 0);
	/* the padding bytes were reversed to the front */
	ASSERT_MEM_EQ(kbt_txn_data(&r.txn) + 3, want, sizeof(want));
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}

TEST(large_payload_arrives_intact)
{
	const size_t n = 256 * 1024;
	uint8_t *msg = malloc(n), *want = malloc(n);
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	size_t i;

	start(&pair);
	kbt_fill(msg, n, 99);
	for (i = 0; i < n; i++)
		want[i] = msg[n - 1 - i];
	kbinder_parcel_init(&data);
	kbinder_parcel_write(&data, msg, n);
	kbt_call(&pair.t, 0, CODE_ECHO_REVERSED, &data, &r);
	ASSERT_EQ(r.txn.data_size, n);
	ASSERT_MEM_EQ(kbt_txn_data(&r.txn), want, n);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}

TEST(empty_transaction_gets_empty_reply)
{
	struct kbt_pair pair;
	struct kbinder_reply r;

	start(&pair);
	kbt_call(&pair.t, 0, CODE_ECHO_REVERSED, NULL, &r);
	ASSERT_EQ(r.txn.data_size, 0);
	ASSERT_EQ(r.txn.offsets_size, 0);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbt_pair_stop(&pair);
}

/* Raw stream order seen by the caller of a synchronous call. */
TEST(transaction_complete_precedes_reply)
{
	struct kbt_pair pair;
	struct binder_transaction_data tr;
	struct kbinder_return ret;
	uint8_t wbuf[128];
	struct kbinder_writer w;
	bool complete = false;

	start(&pair);
	memset(&tr, 0, sizeof(tr));
	tr.code = CODE_IDENTITY;
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr);
	ASSERT_OK(kbinder_ioctl_write(pair.p.fd, wbuf, w.len, NULL));
	for (;;) {
		ASSERT_OK(kbinder_thread_next(&pair.t, &ret, KBT_WAIT_MS));
		if (ret.cmd == BR_NOOP)
			continue;
		if (ret.cmd == BR_TRANSACTION_COMPLETE) {
			ASSERT_FALSE(complete);
			complete = true;
			continue;
		}
		ASSERT_EQ(ret.cmd, BR_REPLY);
		break;
	}
	ASSERT_TRUE(complete);
	/* a reply carries no target, no code, no sender pid for the caller */
	ASSERT_EQ(ret.u.txn.target.ptr, 0);
	ASSERT_EQ(ret.u.txn.cookie, 0);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, ret.u.txn.data.ptr.buffer));
	kbt_pair_stop(&pair);
}

TEST(sender_pid_and_euid_are_filled_in)
{
	struct kbt_pair pair;
	struct kbinder_reply r;

	start(&pair);
	kbt_call(&pair.t, 0, CODE_IDENTITY, NULL, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), getpid());
	ASSERT_EQ(kbt_txn_u32(&r.txn, 1), geteuid());
	ASSERT_EQ(kbt_txn_u32(&r.txn, 2), CODE_IDENTITY);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbt_pair_stop(&pair);
}

/* The caller's effective uid at call time is reported. */
static void call_as_uid(void *arg)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;

	(void)arg;
	kbt_open(&p);		/* opened as root ... */
	ASSERT_EQ(setresuid(4321, 4321, 0), 0);	/* ... calling as 4321 */
	kbinder_thread_init(&t, p.fd);
	kbt_call(&t, 0, CODE_IDENTITY, NULL, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), getpid());
	ASSERT_EQ(kbt_txn_u32(&r.txn, 1), 4321);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	kbinder_proc_close(&p);
}

TEST(sender_euid_is_the_callers_euid)
{
	struct kbt_pair pair;

	if (geteuid() != 0)
		SKIP("needs root to change uid");
	start(&pair);
	ASSERT_CHILD_OK(kbt_fork(call_as_uid, NULL));
	kbt_pair_stop(&pair);
}

/* A call from a second thread still reports the process id (tgid). */
static void *identity_thread(void *arg)
{
	struct kbinder_proc *p = arg;
	struct kbinder_thread t;
	struct kbinder_reply r;

	kbinder_thread_init(&t, p->fd);
	kbt_call(&t, 0, CODE_IDENTITY, NULL, &r);
	EXPECT_EQ(kbt_txn_u32(&r.txn, 0), getpid());
	EXPECT_NE(kbt_txn_u32(&r.txn, 0), kbt_gettid());
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	return NULL;
}

TEST(sender_pid_is_the_process_not_the_thread)
{
	struct kbt_pair pair;
	pthread_t th;

	start(&pair);
	ASSERT_EQ(pthread_create(&th, NULL, identity_thread, &pair.p), 0);
	pthread_join(th, NULL);
	kbt_pair_stop(&pair);
}

TEST(handle_zero_reaches_context_manager_node)
{
	struct kbt_pair pair;
	struct kbinder_reply r;
	uint64_t ptr, cookie;

	start(&pair);
	kbt_call(&pair.t, 0, CODE_IDENTITY, NULL, &r);
	memcpy(&ptr, kbt_txn_data(&r.txn) + 16, 8);
	memcpy(&cookie, kbt_txn_data(&r.txn) + 24, 8);
	/* BINDER_SET_CONTEXT_MGR makes a node with ptr 0 and cookie 0 */
	ASSERT_EQ(ptr, 0);
	ASSERT_EQ(cookie, 0);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbt_pair_stop(&pair);
}

/* Acknowledge BR_INCREFS / BR_ACQUIRE for our own nodes and count them. */
struct ref_events {
	int increfs, acquire;
	binder_uintptr_t ptr, cookie;
};

static int count_refs(struct kbinder_thread *t, const struct kbinder_return *ret,
		      void *arg)
{
	struct ref_events *ev = arg;

	if (ret->cmd == BR_INCREFS || ret->cmd == BR_ACQUIRE) {
		if (ret->cmd == BR_INCREFS)
			ev->increfs++;
		else
			ev->acquire++;
		ev->ptr = ret->u.ptr_cookie.ptr;
		ev->cookie = ret->u.ptr_cookie.cookie;
	}
	return kbt_default_event(t, ret, NULL);
}

TEST(binder_object_becomes_handle_in_receiver)
{
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct ref_events ev = { 0 };
	struct flat_binder_object seen[3];
	uint64_t offs_size;

	start(&pair);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_u32(&data, 0xaabbccdd);
	kbinder_parcel_write_binder(&data, 0x1000, 0x2000, 0x7f, false);
	kbinder_parcel_write_binder(&data, 0x3000, 0x4000, 0, true);
	kbinder_parcel_write_binder(&data, 0x1000, 0x2000, 0x7f, false);
	ASSERT_OK(kbinder_thread_transact(&pair.t, 0, CODE_OBJECTS, &data, 0, &r, count_refs,
					  &ev, KBT_WAIT_MS));
	ASSERT_EQ(r.status, BR_REPLY);
	memcpy(&offs_size, kbt_txn_data(&r.txn), 8);
	ASSERT_EQ(offs_size, 3 * 8);
	memcpy(seen, kbt_txn_data(&r.txn) + 8, sizeof(seen));
	ASSERT_EQ(seen[0].hdr.type, BINDER_TYPE_HANDLE);
	ASSERT_EQ(seen[1].hdr.type, BINDER_TYPE_WEAK_HANDLE);
	ASSERT_EQ(seen[2].hdr.type, BINDER_TYPE_HANDLE);
	/* handles are not 0 (that is the context manager) */
	ASSERT_NE(seen[0].handle, 0);
	ASSERT_NE(seen[1].handle, 0);
	/* the same node gets the same handle, another node another one */
	ASSERT_EQ(seen[2].handle, seen[0].handle);
	ASSERT_NE(seen[1].handle, seen[0].handle);
	/* the sender's cookie never reaches the receiver; flags are kept */
	ASSERT_EQ(seen[0].cookie, 0);
	ASSERT_EQ(seen[1].cookie, 0);
	ASSERT_EQ(seen[0].flags, 0x7f);
	/* the owner was asked to take references on its strong node */
	ASSERT_GE(ev.increfs, 1);
	ASSERT_GE(ev.acquire, 1);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}

TEST(handle_returned_to_owner_becomes_binder)
{
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct flat_binder_object obj;

	start(&pair);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, 0x5550, 0x6660, 0, false);
	kbt_call(&pair.t, 0, CODE_RETURN_OBJECT, &data, &r);
	ASSERT_EQ(r.txn.offsets_size, 8);
	kbt_txn_object(&r.txn, 0, &obj);
	ASSERT_EQ(obj.hdr.type, BINDER_TYPE_BINDER);
	ASSERT_EQ(obj.binder, 0x5550);
	ASSERT_EQ(obj.cookie, 0x6660);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));

	/* a weak binder comes back as a weak binder */
	kbinder_parcel_reset(&data);
	kbinder_parcel_write_binder(&data, 0x7770, 0x8880, 0, true);
	kbt_call(&pair.t, 0, CODE_RETURN_OBJECT, &data, &r);
	kbt_txn_object(&r.txn, 0, &obj);
	ASSERT_EQ(obj.hdr.type, BINDER_TYPE_WEAK_BINDER);
	ASSERT_EQ(obj.binder, 0x7770);
	ASSERT_EQ(obj.cookie, 0x8880);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}

/*
 * A (this test) hands its node to the server; B (a child) fetches it as a
 * handle and calls it: the call reaches A with A's ptr and cookie.
 */
static void third_party(void *arg)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;
	struct flat_binder_object obj;
	struct kbinder_parcel data;

	(void)arg;
	kbt_client(&p, &t);
	kbt_call(&t, 0, CODE_GET_STASHED, NULL, &r);
	kbt_txn_object(&r.txn, 0, &obj);
	ASSERT_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
	ASSERT_NE(obj.handle, 0);
	ASSERT_OK(kbinder_thread_ref(&t, BC_ACQUIRE, obj.handle));
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	kbinder_parcel_init(&data);
	kbinder_parcel_write_u32(&data, 0x12345678);
	kbt_call(&t, obj.handle, 77, &data, &r);
	ASSERT_EQ(r.txn.data_size, 4);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 0xfeedf00d);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	ASSERT_OK(kbinder_thread_ref(&t, BC_RELEASE, obj.handle));
	kbinder_parcel_fini(&data);
	kbinder_proc_close(&p);
}

TEST(handle_passed_to_third_process_reaches_owner)
{
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct kbinder_return ret;
	pid_t b;

	start(&pair);
	ASSERT_OK(kbinder_thread_enter_looper(&pair.t));
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, 0xa0a0, 0xc0c0, 0, false);
	kbt_call(&pair.t, 0, CODE_STASH, &data, &r);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));

	b = kbt_fork(third_party, NULL);
	/* wait for B's call on our node, answering ref requests meanwhile */
	ASSERT_OK(kbinder_thread_wait_for(&pair.t, BR_TRANSACTION, &ret, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	ASSERT_EQ(ret.u.txn.target.ptr, 0xa0a0);
	ASSERT_EQ(ret.u.txn.cookie, 0xc0c0);
	ASSERT_EQ(ret.u.txn.code, 77);
	ASSERT_EQ(ret.u.txn.sender_pid, b);
	ASSERT_EQ(ret.u.txn.data_size, 4);
	ASSERT_EQ(kbt_txn_u32(&ret.u.txn, 0), 0x12345678);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, ret.u.txn.data.ptr.buffer));
	kbinder_parcel_reset(&data);
	kbinder_parcel_write_u32(&data, 0xfeedf00d);
	ASSERT_OK(kbinder_thread_reply(&pair.t, &data, 0, KBT_WAIT_MS));
	ASSERT_CHILD_OK(b);
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}

TEST(buffer_lies_inside_receivers_mapping)
{
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	uint64_t off, size;
	uintptr_t lo;

	start(&pair);
	lo = (uintptr_t)pair.p.map;
	kbinder_parcel_init(&data);
	kbinder_parcel_write(&data, "0123456789", 10);
	kbt_call(&pair.t, 0, CODE_BUFFER_INFO, &data, &r);
	memcpy(&off, kbt_txn_data(&r.txn), 8);
	memcpy(&size, kbt_txn_data(&r.txn) + 8, 8);
	/* in the server, the request lay inside its map */
	ASSERT_LT(off, size);
	ASSERT_EQ(size, KBT_MAP_SIZE);
	/* in the client, the reply lies inside ours */
	ASSERT_GE(r.txn.data.ptr.buffer, lo);
	ASSERT_LE(r.txn.data.ptr.buffer + r.txn.data_size, lo + pair.p.map_size);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}

/* 64 KiB calls, far more than fit into 1 MiB: only works if freed. */
TEST(free_buffer_returns_space_for_reuse)
{
	const size_t n = 64 * 1024;
	uint8_t *msg = malloc(n);
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int i;

	start(&pair);
	kbt_fill(msg, n, 3);
	kbinder_parcel_init(&data);
	kbinder_parcel_write(&data, msg, n);
	for (i = 0; i < 64; i++) {
		kbt_call(&pair.t, 0, CODE_ECHO_REVERSED, &data, &r);
		ASSERT_EQ(r.txn.data_size, n);
		ASSERT_EQ(kbt_txn_data(&r.txn)[0], msg[n - 1]);
		ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	}
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}

TEST(no_room_in_target_gives_failed_reply)
{
	const size_t n = 200 * 1024;
	uint8_t *msg = malloc(n);
	struct kbt_pair pair;
	struct kbinder_parcel data;
	uint32_t st;
	int i, accepted = 0;

	start(&pair);
	kbt_fill(msg, n, 5);
	kbinder_parcel_init(&data);
	kbinder_parcel_write(&data, msg, n);
	/* the server keeps every buffer: 1 MiB holds at most five of them */
	for (i = 0; i < 8; i++) {
		st = kbt_call_status(&pair.t, 0, CODE_KEEP, &data, 0);
		if (st != BR_REPLY)
			break;
		accepted++;
	}
	ASSERT_EQ(st, BR_FAILED_REPLY);
	ASSERT_GE(accepted, 3);
	ASSERT_LE(accepted, 5);
	/* once the server frees them, the same call fits again */
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_FREE_KEPT, NULL, 0), BR_REPLY);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_ECHO_REVERSED, &data, 0), BR_REPLY);
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}

/* mmap() more than 4 MiB: only the first 4 MiB are used for buffers. */
TEST(receive_area_is_capped_at_4mib)
{
	const size_t big = (size_t)3 << 20, too_big = (size_t)9 << 19;
	uint8_t *msg = malloc(too_big);
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	uint64_t off, size;

	server_map_size = (size_t)8 << 20;
	start(&pair);
	kbt_fill(msg, too_big, 11);
	kbinder_parcel_init(&data);
	kbinder_parcel_write(&data, msg, big);
	kbt_call(&pair.t, 0, CODE_BUFFER_INFO, &data, &r);
	memcpy(&off, kbt_txn_data(&r.txn), 8);
	memcpy(&size, kbt_txn_data(&r.txn) + 8, 8);
	ASSERT_EQ(size, (size_t)8 << 20);
	ASSERT_LE(off + big, (uint64_t)4 << 20);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	/* 4.5 MiB cannot fit in the usable 4 MiB although 8 MiB are mapped */
	kbinder_parcel_reset(&data);
	kbinder_parcel_write(&data, msg, too_big);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_BUFFER_INFO, &data, 0),
		  BR_FAILED_REPLY);
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}

static void call_nice(void *arg)
{
	int nice = *(int *)arg;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;

	ASSERT_EQ(setpriority(PRIO_PROCESS, 0, nice), 0);
	kbt_client(&p, &t);
	kbt_call(&t, 0, CODE_NICE, NULL, &r);
	*(int *)arg = (int)kbt_txn_u32(&r.txn, 0);
	kbt_log("caller nice %d -> callee nice %d", nice, *(int *)arg);
	if (nice < 0)
		EXPECT_EQ((int)kbt_txn_u32(&r.txn, 0), nice);
	else
		EXPECT_EQ((int)kbt_txn_u32(&r.txn, 0), 0);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	kbinder_proc_close(&p);
}

/*
 * The callee thread runs at the caller's nice level when that is more
 * urgent than the node's minimum priority (0 for a plain context manager),
 * at the node's minimum otherwise, and gets its own level back afterwards.
 */
TEST(callee_runs_at_callers_nice_level)
{
	struct kbt_pair pair;
	int nice;
	pid_t c;

	if (geteuid() != 0)
		SKIP("needs root to raise priority");
	start(&pair);
	nice = -7;
	c = kbt_fork(call_nice, &nice);
	ASSERT_CHILD_OK(c);
	nice = 9;
	c = kbt_fork(call_nice, &nice);
	ASSERT_CHILD_OK(c);
	/* and the server thread is back at its own level (0) */
	{
		struct kbinder_reply r;

		ASSERT_EQ(setpriority(PRIO_PROCESS, 0, 3), 0);
		kbt_call(&pair.t, 0, CODE_NICE, NULL, &r);
		ASSERT_EQ((int)kbt_txn_u32(&r.txn, 0), 0);
		kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer);
	}
	kbt_pair_stop(&pair);
}

/* BC_TRANSACTION and the read of its outcome in a single WRITE_READ. */
TEST(write_then_read_in_one_call)
{
	struct kbt_pair pair;
	struct binder_transaction_data tr;
	struct binder_write_read bwr;
	uint8_t wbuf[128], rbuf[256];
	struct kbinder_writer w;
	struct kbinder_reader rd;
	struct kbinder_return ret;
	bool got_reply = false;

	start(&pair);
	memset(&tr, 0, sizeof(tr));
	tr.code = CODE_IDENTITY;
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr);
	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (binder_uintptr_t)(uintptr_t)wbuf;
	bwr.write_size = w.len;
	bwr.read_buffer = (binder_uintptr_t)(uintptr_t)rbuf;
	bwr.read_size = sizeof(rbuf);
	while (!got_reply) {
		int err = kbinder_ioctl_write_read(pair.p.fd, &bwr);

		/* the write was consumed whole on the first round */
		ASSERT_EQ(bwr.write_consumed, bwr.write_size);
		if (err == -EAGAIN) {	/* if a timed wait made the fd non-blocking */
			struct pollfd pfd = { .fd = pair.p.fd, .events = POLLIN };

			ASSERT_EQ(bwr.read_consumed, 0);
			ASSERT_EQ(poll(&pfd, 1, KBT_WAIT_MS), 1);
			bwr.write_size = 0;
			bwr.write_consumed = 0;
			continue;
		}
		ASSERT_OK(err);
		ASSERT_LE(bwr.read_consumed, sizeof(rbuf));
		kbinder_reader_init(&rd, rbuf, bwr.read_consumed);
		while (kbinder_reader_next(&rd, &ret) == 1) {
			if (ret.cmd != BR_REPLY)
				continue;
			got_reply = true;
			ASSERT_EQ(kbt_txn_u32(&ret.u.txn, 2), CODE_IDENTITY);
			ASSERT_OK(kbinder_thread_free_buffer(&pair.t, ret.u.txn.data.ptr.buffer));
		}
		ASSERT_EQ(rd.pos, bwr.read_consumed);	/* whole commands */
		bwr.write_size = 0;	/* then read only */
		bwr.write_consumed = 0;
		bwr.read_consumed = 0;
	}
	kbt_pair_stop(&pair);
}

/*
 * Buffers freed in any order merge back: after filling the area with kept
 * buffers and freeing them all, one buffer of nearly the whole area fits.
 */
TEST(freed_buffers_merge_into_one_large_buffer)
{
	const size_t n = 90 * 1024, big = 900 * 1024;
	uint8_t *msg = malloc(big);
	struct kbt_pair pair;
	struct kbinder_parcel data;
	int i, kept = 0;

	start(&pair);
	kbt_fill(msg, big, 17);
	kbinder_parcel_init(&data);
	kbinder_parcel_write(&data, msg, n);
	for (i = 0; i < 10; i++)
		if (kbt_call_status(&pair.t, 0, CODE_KEEP, &data, 0) == BR_REPLY)
			kept++;
	ASSERT_GE(kept, 9);
	/* full: the big one cannot fit now */
	kbinder_parcel_reset(&data);
	kbinder_parcel_write(&data, msg, big);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_BUFFER_INFO, &data, 0),
		  BR_FAILED_REPLY);
	/* the server frees them last-kept first */
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_FREE_KEPT, NULL, 0), BR_REPLY);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_BUFFER_INFO, &data, 0), BR_REPLY);
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}
