// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: invalid transactions get BR_FAILED_REPLY (or BR_DEAD_REPLY
 * where the reference answers that), malformed command streams get
 * EINVAL/EFAULT from the ioctl with write_consumed/read_consumed right, and
 * the process stays usable afterwards.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

enum { CODE_PING = 1 };

static int pong(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		struct kbinder_parcel *reply, void *arg)
{
	(void)t;
	(void)arg;
	if (tr->code == CODE_PING)
		kbinder_parcel_write_u32(reply, 0x900d);
	return KBT_REPLY;
}

/*
 * A pong that says when it is sent: it replies itself, then writes a byte
 * to the pipe @arg points at (its write end). Once the byte is there, the
 * reply is queued to the caller (a BC_REPLY is queued before its ioctl
 * returns).
 */
static int pong_and_tell(struct kbinder_thread *t, const struct binder_transaction_data *tr,
			 struct kbinder_parcel *reply, void *arg)
{
	const int *told = arg;

	kbinder_parcel_write_u32(reply, 0x900d);
	EXPECT_OK(kbinder_thread_reply(t, reply, 0, KBT_WAIT_MS));
	if (tr->code == CODE_PING)
		EXPECT_EQ(write(*told, "r", 1), 1);
	return KBT_REPLIED;
}

/* After an error the process must still work: a ping gets its answer. */
static void ping_ok(struct kbinder_thread *t)
{
	struct kbinder_reply r;

	kbt_call(t, 0, CODE_PING, NULL, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 0x900d);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
}

/* Send a raw transaction to handle 0 and return its outcome. */
static uint32_t raw_call(struct kbinder_thread *t, const void *data,
			 binder_size_t size, const void *offs,
			 binder_size_t offs_size)
{
	struct kbt_txn x = {
		.code = CODE_PING, .data = data, .size = size,
		.offs = offs, .offs_size = offs_size,
	};

	return kbt_transact(t, &x, NULL);
}

TEST(unknown_handle_gives_failed_reply)
{
	struct kbt_pair pair;

	kbt_pair_start(&pair, pong, NULL);
	ASSERT_EQ(kbt_call_status(&pair.t, 12345, CODE_PING, NULL, 0), BR_FAILED_REPLY);
	ASSERT_EQ(kbt_call_status(&pair.t, 12345, CODE_PING, NULL, TF_ONE_WAY),
		  BR_FAILED_REPLY);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(no_context_manager_gives_dead_reply)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	int64_t deadline = kbt_now_ms() + 20000;
	uint32_t st;

	/* a previous test's manager may still be being released */
	kbt_client(&p, &t);
	do {
		st = kbt_call_status(&t, 0, CODE_PING, NULL, 0);
		if (st == BR_DEAD_REPLY)
			break;
		kbt_msleep(20);
	} while (kbt_now_ms() < deadline);
	ASSERT_EQ(st, BR_DEAD_REPLY);
	kbinder_proc_close(&p);
}

TEST(offsets_not_multiple_of_8_fail)
{
	struct kbt_pair pair;
	uint8_t data[64] = { 0 };
	binder_size_t offs[2] = { 0, 0 };

	kbt_pair_start(&pair, pong, NULL);
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, 4), BR_FAILED_REPLY);
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, 12), BR_FAILED_REPLY);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

/* Build a 24-byte BINDER_TYPE_BINDER object at @at in @data. */
static void put_binder(uint8_t *data, size_t at, binder_uintptr_t ptr)
{
	struct flat_binder_object obj;

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BINDER_TYPE_BINDER;
	obj.binder = ptr;
	obj.cookie = ptr;
	memcpy(data + at, &obj, sizeof(obj));
}

TEST(offset_not_4_byte_aligned_fails)
{
	struct kbt_pair pair;
	uint8_t data[64] = { 0 };
	binder_size_t offs[1] = { 2 };

	kbt_pair_start(&pair, pong, NULL);
	put_binder(data, 2, 0x100);
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, 8), BR_FAILED_REPLY);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(offset_out_of_range_fails)
{
	struct kbt_pair pair;
	uint8_t data[64] = { 0 };
	binder_size_t offs[1];

	kbt_pair_start(&pair, pong, NULL);
	put_binder(data, 40, 0x100);
	offs[0] = 48;		/* object would end 8 bytes past data_size */
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, 8), BR_FAILED_REPLY);
	offs[0] = 64;
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, 8), BR_FAILED_REPLY);
	offs[0] = (binder_size_t)-8;	/* wraps when the size is added */
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, 8), BR_FAILED_REPLY);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(overlapping_objects_fail)
{
	struct kbt_pair pair;
	uint8_t data[96] = { 0 };
	binder_size_t offs[2];

	kbt_pair_start(&pair, pong, NULL);
	put_binder(data, 0, 0x100);
	put_binder(data, 40, 0x200);
	offs[0] = 0;
	offs[1] = 16;		/* starts inside the first object */
	put_binder(data, 16, 0x300);
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, 16), BR_FAILED_REPLY);
	/* offsets going backwards are refused as well */
	put_binder(data, 0, 0x100);
	put_binder(data, 40, 0x200);
	offs[0] = 40;
	offs[1] = 0;
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, 16), BR_FAILED_REPLY);
	/* while the same two objects in order are fine */
	offs[0] = 0;
	offs[1] = 40;
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, 16), BR_REPLY);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(unknown_object_type_fails)
{
	struct kbt_pair pair;
	uint8_t data[32] = { 0 };
	binder_size_t offs[1] = { 0 };
	uint32_t type = 0x12345678;

	kbt_pair_start(&pair, pong, NULL);
	memcpy(data, &type, 4);
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, 8), BR_FAILED_REPLY);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(handle_object_with_unknown_handle_fails)
{
	struct kbt_pair pair;
	struct kbinder_parcel data;

	kbt_pair_start(&pair, pong, NULL);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_handle(&data, 4242, 0, false);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_PING, &data, 0), BR_FAILED_REPLY);
	kbinder_parcel_fini(&data);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(fd_to_node_refusing_fds_fails)
{
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbt_fd_snap before;

	kbt_pair_start(&pair, pong, NULL);
	/* a plain context manager node does not accept fds */
	kbinder_parcel_init(&data);
	kbinder_parcel_write_fd(&data, 1, 0);
	ASSERT_OK(kbt_fd_snapshot(&before));
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_PING, &data, TF_ACCEPT_FDS),
		  BR_FAILED_REPLY);
	/* the sender keeps its fd (the server's own check: it got none) */
	ASSERT_FDS_UNCHANGED(&before);
	kbt_fd_snap_free(&before);
	kbinder_parcel_fini(&data);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(sizes_that_overflow_fail)
{
	struct kbt_pair pair;
	uint8_t data[64] = { 0 };
	binder_size_t offs[1] = { 0 };

	kbt_pair_start(&pair, pong, NULL);
	ASSERT_EQ(raw_call(&pair.t, data, (binder_size_t)-8, NULL, 0), BR_FAILED_REPLY);
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), offs, (binder_size_t)-8),
		  BR_FAILED_REPLY);
	ASSERT_EQ(raw_call(&pair.t, data, (binder_size_t)1 << 62, offs,
			   (binder_size_t)1 << 62), BR_FAILED_REPLY);
	/* sizes that only overflow a 32-bit size_t */
	ASSERT_EQ(raw_call(&pair.t, data, (binder_size_t)1 << 32, NULL, 0),
		  BR_FAILED_REPLY);
	/* bigger than the target's whole 1 MiB area */
	ASSERT_EQ(raw_call(&pair.t, data, (size_t)2 << 20, NULL, 0), BR_FAILED_REPLY);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(unreadable_payload_gives_failed_reply)
{
	struct kbt_pair pair;
	uint8_t data[16] = { 0 };
	binder_size_t offs[1] = { 0 };

	kbt_pair_start(&pair, pong, NULL);
	ASSERT_EQ(raw_call(&pair.t, (void *)16, 64, NULL, 0), BR_FAILED_REPLY);
	ASSERT_EQ(raw_call(&pair.t, data, sizeof(data), (void *)16, 8), BR_FAILED_REPLY);
	(void)offs;
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(reply_without_transaction_fails)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct binder_transaction_data tr;
	uint8_t wbuf[128];
	struct kbinder_writer w;

	kbt_client(&p, &t);
	memset(&tr, 0, sizeof(tr));
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	kbinder_writer_put_txn(&w, BC_REPLY, &tr);
	ASSERT_OK(kbinder_ioctl_write(p.fd, wbuf, w.len, NULL));
	kbt_expect(&t, BR_FAILED_REPLY, &ret);
	kbinder_proc_close(&p);
}

TEST(bad_write_buffer_gives_efault)
{
	struct kbinder_proc p;
	struct binder_write_read bwr;

	kbt_open(&p);
	memset(&bwr, 0, sizeof(bwr));
	bwr.write_size = 64;
	bwr.write_buffer = 16;
	ASSERT_EQ(kbinder_ioctl_write_read(p.fd, &bwr), -EFAULT);
	ASSERT_EQ(bwr.write_consumed, 0);
	ASSERT_EQ(bwr.read_consumed, 0);
	/* the whole bwr unreadable */
	ASSERT_EQ(ioctl(p.fd, BINDER_WRITE_READ, (void *)16), -1);
	ASSERT_EQ(errno, EFAULT);
	/* the reference answers EINVAL here; EFAULT would be fine too */
	ASSERT_EQ(ioctl(p.fd, BINDER_VERSION, (void *)16), -1);
	ASSERT_TRUE(errno == EINVAL || errno == EFAULT);
	kbinder_proc_close(&p);
}

TEST(bad_read_buffer_gives_efault)
{
	struct kbinder_proc p;
	struct binder_write_read bwr;

	kbt_open(&p);
	memset(&bwr, 0, sizeof(bwr));
	bwr.read_size = 64;
	bwr.read_buffer = 16;
	ASSERT_EQ(kbinder_ioctl_write_read(p.fd, &bwr), -EFAULT);
	ASSERT_EQ(bwr.read_consumed, 0);
	kbinder_proc_close(&p);
}

/* Commands before a bad one are done and counted; the bad one is not. */
TEST(unknown_command_gives_einval_and_stops_there)
{
	struct kbinder_proc p;
	uint8_t wbuf[64];
	struct kbinder_writer w;
	uint32_t bad = 0x40046399;	/* _IOW('c', 0x99, u32): no such BC_ */
	size_t consumed = 99;

	kbt_open(&p);
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	kbinder_writer_put_looper(&w, BC_ENTER_LOOPER);
	kbinder_writer_put_handle(&w, BC_INCREFS, 0);	/* no manager: a user error only */
	memcpy(wbuf + w.len, &bad, 4);
	memset(wbuf + w.len + 4, 0, 4);
	ASSERT_EQ(kbinder_ioctl_write(p.fd, wbuf, w.len + 8, &consumed), -EINVAL);
	ASSERT_EQ(consumed, w.len);
	kbinder_proc_close(&p);
}

/* Unsupported commands of the protocol are refused the same way. */
TEST(unsupported_commands_give_einval)
{
	struct kbinder_proc p;
	uint8_t wbuf[64];
	uint32_t cmd = BC_ATTEMPT_ACQUIRE;
	struct binder_pri_desc pd = { 0, 0 };
	size_t consumed = 99;

	kbt_open(&p);
	memcpy(wbuf, &cmd, 4);
	memcpy(wbuf + 4, &pd, sizeof(pd));
	ASSERT_EQ(kbinder_ioctl_write(p.fd, wbuf, 4 + sizeof(pd), &consumed), -EINVAL);
	ASSERT_EQ(consumed, 0);
	kbinder_proc_close(&p);
}

/*
 * A command whose argument runs past write_size, and past the end of the
 * mapping: refused with an error, consumed stops before it.
 */
TEST(truncated_command_at_end_of_mapping_is_refused)
{
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct kbinder_proc p;
	uint8_t *end;
	uint32_t cmd = BC_FREE_BUFFER, loop = BC_ENTER_LOOPER;
	size_t consumed = 99;
	int ret;

	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(munmap(map + page, page), 0);
	end = map + page;
	memcpy(end - 12, &loop, 4);
	memcpy(end - 8, &cmd, 4);
	memset(end - 4, 0, 4);	/* only 4 of the 8 argument bytes */
	kbt_open(&p);
	ret = kbinder_ioctl_write(p.fd, end - 12, 12, &consumed);
	kbt_log("truncated command: %d (%s), consumed %zu", ret,
		kbt_strerr(ret), consumed);
	ASSERT_TRUE(ret == -EFAULT || ret == -EINVAL);
	ASSERT_EQ(consumed, 4);
	kbinder_proc_close(&p);
}

/*
 * The same with readable bytes after write_size: the driver must still not
 * use them. The reference reads past the end of the write buffer here.
 */
TEST(truncated_command_is_not_read_past_write_size)
{
	uint8_t wbuf[32] = { 0 };
	uint32_t cmd = BC_ACQUIRE, handle = 0;
	struct kbinder_proc p;
	size_t consumed = 99;
	int ret;

	REQUIRE_KBINDER("the reference reads the argument past write_size");
	memcpy(wbuf, &cmd, 4);
	memcpy(wbuf + 4, &handle, 4);
	kbt_open(&p);
	ret = kbinder_ioctl_write(p.fd, wbuf, 6, &consumed);
	ASSERT_TRUE(ret == -EINVAL || ret == -EFAULT);
	ASSERT_EQ(consumed, 0);
	kbinder_proc_close(&p);
}

/* A read buffer too small for the next item leaves it queued. */
TEST(read_buffer_too_small_keeps_work_queued)
{
	struct kbt_pair pair;
	struct binder_transaction_data tr;
	uint8_t wbuf[128], rbuf[256];
	struct kbinder_writer w;
	struct kbinder_reader rd;
	struct kbinder_return ret;
	struct pollfd told = { .events = POLLIN };
	size_t consumed;
	bool got_reply = false;
	int replied[2];
	char c;

	ASSERT_OK(pipe2(replied, O_CLOEXEC) ? -errno : 0);
	kbt_pair_start(&pair, pong_and_tell, &replied[1]);
	memset(&tr, 0, sizeof(tr));
	tr.code = CODE_PING;
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr);
	ASSERT_OK(kbinder_ioctl_write(pair.p.fd, wbuf, w.len, NULL));
	/* the reply is queued to us: the server says so after its BC_REPLY */
	told.fd = replied[0];
	ASSERT_EQ(poll(&told, 1, KBT_WAIT_MS), 1);
	ASSERT_EQ(read(replied[0], &c, 1), 1);
	/* room for BR_NOOP and BR_TRANSACTION_COMPLETE but not BR_REPLY */
	ASSERT_OK(kbinder_ioctl_read(pair.p.fd, rbuf, 12, &consumed));
	ASSERT_LE(consumed, 12);
	kbinder_reader_init(&rd, rbuf, consumed);
	while (kbinder_reader_next(&rd, &ret) == 1)
		ASSERT_NE(ret.cmd, BR_REPLY);
	/* a full-size read gets the reply intact */
	while (!got_reply) {
		ASSERT_OK(kbinder_ioctl_read(pair.p.fd, rbuf, sizeof(rbuf), &consumed));
		kbinder_reader_init(&rd, rbuf, consumed);
		while (kbinder_reader_next(&rd, &ret) == 1) {
			if (ret.cmd != BR_REPLY)
				continue;
			got_reply = true;
			ASSERT_EQ(kbt_txn_u32(&ret.u.txn, 0), 0x900d);
			ASSERT_OK(kbinder_thread_free_buffer(&pair.t, ret.u.txn.data.ptr.buffer));
		}
	}
	kbt_pair_stop(&pair);
	close(replied[0]);
	close(replied[1]);
}

TEST(free_buffer_of_bad_pointer_is_harmless)
{
	struct kbt_pair pair;
	struct kbinder_reply r;

	kbt_pair_start(&pair, pong, NULL);
	EXPECT_OK(kbinder_thread_free_buffer(&pair.t, 0));
	EXPECT_OK(kbinder_thread_free_buffer(&pair.t, 0x12345678));
	EXPECT_OK(kbinder_thread_free_buffer(&pair.t, (binder_uintptr_t)(uintptr_t)pair.p.map + 8));
	/* a double free of a real buffer is refused quietly, too */
	kbt_call(&pair.t, 0, CODE_PING, NULL, &r);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	EXPECT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(ref_commands_on_unknown_handle_are_harmless)
{
	struct kbt_pair pair;

	kbt_pair_start(&pair, pong, NULL);
	EXPECT_OK(kbinder_thread_ref(&pair.t, BC_ACQUIRE, 777));
	EXPECT_OK(kbinder_thread_ref(&pair.t, BC_RELEASE, 777));
	EXPECT_OK(kbinder_thread_ref(&pair.t, BC_DECREFS, 778));
	EXPECT_OK(kbinder_thread_ref_done(&pair.t, BC_ACQUIRE_DONE, 0x1234, 0x5678));
	EXPECT_OK(kbinder_thread_request_death(&pair.t, 779, 1));
	EXPECT_OK(kbinder_thread_clear_death(&pair.t, 779, 1));
	EXPECT_OK(kbinder_thread_dead_binder_done(&pair.t, 0x4444));
	ASSERT_EQ(kbt_no_event(&pair.t, 100), 0);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

TEST(garbage_command_streams_never_crash)
{
	struct kbt_pair pair;
	uint32_t words[64];
	uint32_t seed = 12345;
	int i, j;

	kbt_pair_start(&pair, pong, NULL);
	for (i = 0; i < 300; i++) {
		for (j = 0; j < 64; j++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly valid codes with random arguments */
			words[j] = (seed >> 8) % 3 ? (uint32_t)(0x40006300 |
				   ((seed >> 4) % 20)) : seed;
			if (words[j] >> 8 == 0x400063) {
				/* with the right size field */
				int n = (int)(words[j] & 0xff);
				uint32_t codes[] = {
					BC_FREE_BUFFER, BC_INCREFS, BC_ACQUIRE,
					BC_RELEASE, BC_DECREFS, BC_INCREFS_DONE,
					BC_ACQUIRE_DONE, BC_EXIT_LOOPER,
					BC_REQUEST_DEATH_NOTIFICATION,
					BC_CLEAR_DEATH_NOTIFICATION,
					BC_DEAD_BINDER_DONE,
				};

				words[j] = codes[n % 11];
			}
		}
		(void)kbinder_ioctl_write(pair.p.fd, words, sizeof(words), NULL);
	}
	/* drain whatever the garbage caused, then check we still work */
	kbt_no_event(&pair.t, 200);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

/*
 * A transaction that fails stops the write right after it: the commands
 * behind it are not consumed (write_consumed says so), the ioctl itself
 * succeeds, and the failure is read as BR_FAILED_REPLY.
 */
TEST(failed_transaction_stops_the_write_after_it)
{
	struct kbt_pair pair;
	struct binder_transaction_data tr;
	struct kbinder_return ret;
	uint8_t wbuf[256];
	struct kbinder_writer w;
	size_t consumed = 0, first;

	kbt_pair_start(&pair, pong, NULL);
	memset(&tr, 0, sizeof(tr));
	tr.target.handle = 4711;	/* no such handle */
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	kbinder_writer_put_handle(&w, BC_INCREFS, 0);
	kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr);
	first = w.len;
	kbinder_writer_put_handle(&w, BC_ACQUIRE, 0);
	kbinder_writer_put_handle(&w, BC_RELEASE, 0);
	ASSERT_OK(kbinder_ioctl_write(pair.p.fd, wbuf, w.len, &consumed));
	ASSERT_EQ(consumed, first);
	kbt_expect(&pair.t, BR_FAILED_REPLY, &ret);
	/* the rest goes through once resubmitted */
	ASSERT_OK(kbinder_ioctl_write(pair.p.fd, wbuf + first, w.len - first, &consumed));
	ASSERT_EQ(consumed, w.len - first);
	ASSERT_OK(kbinder_thread_ref(&pair.t, BC_DECREFS, 0));
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

static void extended_error(int fd, struct binder_extended_error *ee)
{
	memset(ee, 0xff, sizeof(*ee));
	ASSERT_EQ(ioctl(fd, BINDER_GET_EXTENDED_ERROR, ee), 0);
}

/*
 * BINDER_GET_EXTENDED_ERROR tells why the thread's last transaction failed
 * (the command and a negative errno), once: reading it resets it.
 */
TEST(extended_error_describes_last_failure_once)
{
	struct kbt_pair pair;
	struct binder_extended_error ee;

	kbt_pair_start(&pair, pong, NULL);
	extended_error(pair.p.fd, &ee);
	ASSERT_EQ(ee.command, BR_OK);
	ASSERT_EQ(ee.param, 0);
	ASSERT_EQ(kbt_call_status(&pair.t, 4711, CODE_PING, NULL, 0), BR_FAILED_REPLY);
	/* kbt_call_status read it to log it: fail again, then look */
	ASSERT_EQ(kbt_call_status(&pair.t, 4711, CODE_PING, NULL, TF_ONE_WAY),
		  BR_FAILED_REPLY);
	extended_error(pair.p.fd, &ee);
	ASSERT_EQ(ee.command, BR_OK);	/* already taken by the logger */
	{
		struct kbinder_reply r;

		ASSERT_OK(kbinder_thread_transact(&pair.t, 4711, CODE_PING, NULL, 0, &r, NULL,
						  NULL, KBT_WAIT_MS));
		ASSERT_EQ(r.status, BR_FAILED_REPLY);
	}
	extended_error(pair.p.fd, &ee);
	ASSERT_EQ(ee.command, BR_FAILED_REPLY);
	ASSERT_EQ(ee.param, -EINVAL);
	ASSERT_NE(ee.id, 0);
	extended_error(pair.p.fd, &ee);
	ASSERT_EQ(ee.command, BR_OK);
	ASSERT_EQ(ee.param, 0);
	ping_ok(&pair.t);
	kbt_pair_stop(&pair);
}

/*
 * A command stream that runs off its mapping faults at the word that does:
 * a command code, or a 4- or 8-byte argument, of which only 1 to 7 bytes
 * are mapped, fails the write with EFAULT and write_consumed stops after
 * the command before it; a stream at a kernel address, or running past the
 * top of the user range, faults with nothing consumed. The file works on
 * afterwards. (The driver reads codes and one-word arguments with
 * get_user(), structures with copy_from_user(): both must fault alike.)
 */
TEST(a_word_running_off_the_mapping_faults_where_it_starts)
{
	static const struct { uint32_t cmd; unsigned int width; } cases[] = {
		{ 0, 4 },	/* the command code itself */
		{ BC_FREE_BUFFER, 8 }, { BC_DEAD_BINDER_DONE, 8 },
		{ BC_ACQUIRE, 4 }, { BC_DECREFS, 4 },
	};
	static const struct { uint64_t addr; uint64_t size; } outside[] = {
		{ 0xffffffff81000000ULL, 8 },		/* the kernel's */
		{ 0x00007ffffffffffcULL, 12 },		/* past the user range */
	};
	const long page = sysconf(_SC_PAGESIZE);
	const uint32_t loop = BC_ENTER_LOOPER;
	struct binder_write_read bwr;
	struct kbinder_proc p;
	uint8_t *map, *end, *buf;
	size_t i, k, size, consumed;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(munmap(map + page, page), 0);
	end = map + page;
	kbt_open(&p);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (k = 1; k < cases[i].width; k++) {
			/* [BC_ENTER_LOOPER][code][k bytes of the word] | unmapped */
			buf = end - 4 - (cases[i].cmd ? 4 : 0) - k;
			memcpy(buf, &loop, 4);
			if (cases[i].cmd) {
				memcpy(buf + 4, &cases[i].cmd, 4);
				memset(buf + 8, 0, k);
				size = 8 + cases[i].width;
			} else {
				memcpy(buf + 4, &loop, k);
				size = 8;
			}
			consumed = 99;
			EXPECT_EQ(kbinder_ioctl_write(p.fd, buf, size, &consumed), -EFAULT);
			EXPECT_EQ(consumed, (size_t)4);
		}
	}
	for (i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
		memset(&bwr, 0, sizeof(bwr));
		bwr.write_buffer = outside[i].addr;
		bwr.write_size = outside[i].size;
		EXPECT_EQ(kbinder_ioctl_write_read(p.fd, &bwr), -EFAULT);
		EXPECT_EQ(bwr.write_consumed, 0);
	}
	EXPECT_OK(kbinder_ioctl_write(p.fd, &loop, 4, &consumed));
	EXPECT_EQ(consumed, (size_t)4);
	kbinder_proc_close(&p);
	munmap(map, page);
}
