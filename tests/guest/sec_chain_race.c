// SPDX-License-Identifier: Apache-2.0
/*
 * Security regression (issue 20, item 3): a failed reply must not cut a
 * transaction chain.
 *
 * C calls S (the outer call); S's thread S1, handling it, calls R (the
 * inner call); R's reply fails, so the failure goes to S1, and if S1 is
 * gone, on down the chain to C. kbinder read the inner call's sender
 * once, then took its process's lock: when S1 exited
 * (BINDER_THREAD_EXIT) in between, the failure was handed to a dead
 * thread and C was never answered; its call pinned S's process, world,
 * task and credentials for good. The sender is read again under the lock
 * now, and a sender that is gone passes the failure on, as upstream does.
 *
 * The window is a few instructions wide. To hit it every time, the test
 * widens it with a BPF program on a kretprobe of kb_transaction_get_from()
 * in R's task: R's second call to it, the one of the failed reply, spins
 * for a while (up to 33 x 20 ms) before returning, and S1 exits
 * meanwhile. Without BPF or
 * kprobes (or on the reference driver, which has no such function) the
 * scenario runs without the delay, which proves only that C is answered.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <sys/syscall.h>

#define CODE_GIVE 1		/* R -> S: here is my node */
#define CODE_OUTER 2		/* C -> S: call R, nested */
#define CODE_INNER 3		/* S1 -> R */
#define R_NODE 0x7e500
#define BAD_TYPE 0x7a7a7a7a	/* no object type */
#define EXIT_AFTER_MS 5	/* S1 exits this long after R starts replying */
#define ROUNDS 3

/* ---- a delay in R's kb_transaction_get_from(), with BPF ---- */

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), \
		.src_reg = (s), .off = (o), .imm = (i) })
#define MOV_REG(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_IMM(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define LD_MAP(d, fd) INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), \
		INSN(0, 0, 0, 0, 0)
#define CALL(f) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* The end of both programs: on to program 0 of @map (the spin), with r6's context. */
#define TAIL_CALL(map) MOV_REG(1, 6), LD_MAP(2, map), MOV_IMM(3, 0),	\
		CALL(BPF_FUNC_tail_call), MOV_IMM(0, 0), EXIT()
/*
 * The spin: read the clock until DELAY_NS went by, at most SPIN_MAX times
 * (each step is verified, so the verifier bounds it; under TCG a clock
 * read costs microseconds; the verifier also keeps every branch it has
 * not explored yet, at most 8192), then do it again through a tail call
 * to itself, up to the kernel's limit of 33.
 */
#define DELAY_NS 20000000
#define SPIN_MAX 4000

struct delay {
	int counter, progs, spin, first, event;
};

static long bpf_sys(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int map_create(enum bpf_map_type type, int value_size)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = 4;
	a.value_size = (uint32_t)value_size;
	a.max_entries = 1;
	return (int)bpf_sys(BPF_MAP_CREATE, &a);
}

static int prog_load(const struct bpf_insn *insns, size_t n)
{
	static char log[65536];
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = (uint32_t)n;
	a.license = (uint64_t)(uintptr_t)"GPL";
	fd = (int)bpf_sys(BPF_PROG_LOAD, &a);
	if (fd >= 0)
		return fd;
	/* Again with the verifier's complaint (its last lines). */
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	log[0] = 0;
	fd = (int)bpf_sys(BPF_PROG_LOAD, &a);
	kbt_log("BPF_PROG_LOAD: %s; %.300s", strerror(errno),
		log + (strlen(log) > 300 ? strlen(log) - 300 : 0));
	if (fd >= 0)
		close(fd);
	return -1;
}

static int read_int(const char *path, const char *fmt)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, fmt, &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * Make @pid's @nth call of kb_transaction_get_from() (counted from now)
 * spin before it returns. Return: 0, or -errno (the test then runs without).
 */
static int delay_attach(struct delay *d, pid_t pid, int nth)
{
	struct perf_event_attr pe;
	union bpf_attr a;
	int type, bit, key = 0;

	memset(d, 0xff, sizeof(*d));
	type = read_int("/sys/bus/event_source/devices/kprobe/type", "%d");
	bit = read_int("/sys/bus/event_source/devices/kprobe/format/retprobe",
		       "config:%d");
	if (type < 0 || bit < 0)
		return -ENOENT;
	d->counter = map_create(BPF_MAP_TYPE_ARRAY, 8);
	d->progs = map_create(BPF_MAP_TYPE_PROG_ARRAY, 4);
	if (d->counter < 0 || d->progs < 0)
		return -errno;
	{
		/* spin for DELAY_NS (or SPIN_MAX clock reads), then again */
		const struct bpf_insn spin[] = {
			MOV_REG(6, 1),
			CALL(BPF_FUNC_ktime_get_ns),
			MOV_REG(8, 0),
			INSN(BPF_ALU64 | BPF_ADD | BPF_K, 8, 0, 0, DELAY_NS),
			MOV_IMM(7, SPIN_MAX),
			CALL(BPF_FUNC_ktime_get_ns),
			INSN(BPF_JMP | BPF_JGT | BPF_X, 0, 8, 2, 0),
			INSN(BPF_ALU64 | BPF_SUB | BPF_K, 7, 0, 0, 1),
			INSN(BPF_JMP | BPF_JNE | BPF_K, 7, 0, -4, 0),
			TAIL_CALL(d->progs),
		};

		d->spin = prog_load(spin, sizeof(spin) / sizeof(spin[0]));
	}
	if (d->spin < 0)
		return -errno;
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)d->progs;
	a.key = (uint64_t)(uintptr_t)&key;
	a.value = (uint64_t)(uintptr_t)&d->spin;
	if (bpf_sys(BPF_MAP_UPDATE_ELEM, &a))
		return -errno;
	{
		/* count the calls; the @nth one spins */
		const struct bpf_insn first[] = {
			MOV_REG(6, 1),
			INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 0),
			LD_MAP(1, d->counter),
			MOV_REG(2, 10),
			INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),
			CALL(BPF_FUNC_map_lookup_elem),
			INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 9, 0),
			INSN(BPF_LDX | BPF_MEM | BPF_DW, 1, 0, 0, 0),
			INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, 1),
			INSN(BPF_STX | BPF_MEM | BPF_DW, 0, 1, 0, 0),
			INSN(BPF_JMP | BPF_JNE | BPF_K, 1, 0, 5, nth),
			TAIL_CALL(d->progs),
		};

		d->first = prog_load(first, sizeof(first) / sizeof(first[0]));
	}
	if (d->first < 0)
		return -errno;
	memset(&pe, 0, sizeof(pe));
	pe.size = sizeof(pe);
	pe.type = (uint32_t)type;
	pe.config = 1ull << bit;
	pe.config1 = (uint64_t)(uintptr_t)"kb_transaction_get_from";
	pe.sample_period = 1;
	pe.wakeup_events = 1;
	d->event = (int)syscall(__NR_perf_event_open, &pe, pid, -1, -1,
				PERF_FLAG_FD_CLOEXEC);
	if (d->event < 0)
		return -errno;
	if (ioctl(d->event, PERF_EVENT_IOC_SET_BPF, d->first) ||
	    ioctl(d->event, PERF_EVENT_IOC_ENABLE, 0))
		return -errno;
	return 0;
}

static void delay_detach(struct delay *d)
{
	int *fds[] = { &d->event, &d->first, &d->spin, &d->progs, &d->counter };
	size_t i;

	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

/* ---- the chain ---- */

struct chain {
	struct kbt_chan s_chan, r_chan;
	int go[2];		/* R -> S1: "I am replying now" */
	pid_t s_pid, r_pid;
};

/* S: context manager; S1 takes R's node, then nests the outer call into R. */
static void s_main(void *arg)
{
	struct chain *c = arg;
	struct flat_binder_object obj;
	struct binder_transaction_data tr;
	struct kbinder_return ret;
	struct kbinder_writer w;
	struct kbinder_parcel empty;
	struct kbinder_thread t;
	struct kbinder_proc p;
	uint32_t handle = 0;
	uint8_t cmds[128];
	char token;

	kbt_manager(&p, &t, NULL);
	ASSERT_SIGNAL(&c->s_chan, 'R');
	kbinder_parcel_init(&empty);
	for (;;) {
		ASSERT_OK(kbinder_thread_next(&t, &ret, KBT_WAIT_MS * 3));
		if (ret.cmd != BR_TRANSACTION) {
			kbt_default_event(&t, &ret, NULL);
			continue;
		}
		if (ret.u.txn.code == CODE_OUTER)
			break;
		kbt_txn_object(&ret.u.txn, 0, &obj);
		handle = obj.handle;
		ASSERT_OK(kbinder_thread_ref(&t, BC_ACQUIRE, handle));
		ASSERT_OK(kbinder_thread_reply(&t, &empty, 0, KBT_WAIT_MS));
		ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	}
	/* The outer call is on our stack: call R on top of it, and leave. */
	memset(&tr, 0, sizeof(tr));
	tr.target.handle = handle;
	tr.code = CODE_INNER;
	kbinder_writer_init(&w, cmds, sizeof(cmds));
	kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr);
	ASSERT_OK(kbinder_ioctl_write(p.fd, cmds, w.len, NULL));
	ASSERT_EQ(read(c->go[0], &token, 1), 1);
	kbt_msleep(EXIT_AFTER_MS);
	ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
	kbinder_parcel_fini(&empty);
	ASSERT_SIGNAL(&c->s_chan, 'X');
	ASSERT_OK(kbt_wait(&c->s_chan, 'q', 4 * KBT_WAIT_MS));
	kbinder_proc_close(&p);
}

/* A reply with an object of no known type: it fails, for the inner call. */
static void send_bad_reply(struct kbinder_thread *t)
{
	struct binder_transaction_data tr;
	struct flat_binder_object obj;
	binder_size_t off = 0;
	struct kbinder_writer w;
	uint8_t cmds[128];

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BAD_TYPE;
	memset(&tr, 0, sizeof(tr));
	tr.data_size = sizeof(obj);
	tr.offsets_size = sizeof(off);
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)&obj;
	tr.data.ptr.offsets = (binder_uintptr_t)(uintptr_t)&off;
	kbinder_writer_init(&w, cmds, sizeof(cmds));
	kbinder_writer_put_txn(&w, BC_REPLY, &tr);
	ASSERT_OK(kbinder_ioctl_write(t->fd, cmds, w.len, NULL));
}

/* R: gives S its node, then answers the inner call with a reply that fails. */
static void r_main(struct kbinder_thread *t, void *arg)
{
	struct chain *c = arg;
	struct kbinder_parcel data;
	struct kbinder_return ret;
	struct kbinder_reply r;
	binder_uintptr_t buffer;

	ASSERT_OK(kbinder_thread_enter_looper(t));
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, R_NODE, 0, 0, false);
	kbt_call(t, 0, CODE_GIVE, &data, &r);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
	ASSERT_SIGNAL(&c->r_chan, 'R');
	ASSERT_WAIT(&c->r_chan, 'A');	/* the delay is in place */
	for (;;) {
		ASSERT_OK(kbinder_thread_next(t, &ret, KBT_WAIT_MS * 3));
		if (ret.cmd == BR_TRANSACTION)
			break;
		kbt_default_event(t, &ret, NULL);
	}
	ASSERT_EQ(ret.u.txn.code, CODE_INNER);
	ASSERT_EQ(write(c->go[1], "g", 1), 1);
	send_bad_reply(t);
	/* The replier of a failed reply reads BR_TRANSACTION_COMPLETE. */
	buffer = ret.u.txn.data.ptr.buffer;
	do {
		ASSERT_OK(kbinder_thread_next(t, &ret, KBT_WAIT_MS));
	} while (ret.cmd == BR_NOOP);
	EXPECT_EQ(ret.cmd, BR_TRANSACTION_COMPLETE);
	ASSERT_OK(kbinder_thread_free_buffer(t, buffer));
	ASSERT_SIGNAL(&c->r_chan, 'D');
	ASSERT_OK(kbt_wait(&c->r_chan, 'q', 4 * KBT_WAIT_MS));
}

/* One chain; true if the outer call was answered. */
static bool one_chain(bool *delayed)
{
	struct chain c;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;
	struct delay d;
	int err;

	ASSERT_EQ(pipe2(c.go, O_CLOEXEC), 0);
	kbt_chan_init(&c.s_chan);
	kbt_chan_init(&c.r_chan);
	c.s_pid = kbt_fork(s_main, &c);
	ASSERT_WAIT(&c.s_chan, 'R');
	c.r_pid = kbt_fork_client(r_main, &c);
	ASSERT_WAIT(&c.r_chan, 'R');
	memset(&d, 0xff, sizeof(d));	/* no fd yet */
	err = kbt_is_reference() ? -ENOENT : delay_attach(&d, c.r_pid, 2);
	*delayed = !err;
	if (err) {
		kbt_log("no delay in kb_transaction_get_from(): %s",
			kbt_strerr(err));
		delay_detach(&d);
	}
	ASSERT_SIGNAL(&c.r_chan, 'A');

	kbt_client(&p, &t);
	err = kbinder_thread_transact(&t, 0, CODE_OUTER, NULL, 0, &r, kbt_default_event,
				      NULL, KBT_WAIT_MS);
	if (!err && r.status == BR_REPLY)
		kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	kbt_log("the outer call: %s", err ? kbt_strerr(err) :
		kbinder_return_name(r.status));
	ASSERT_WAIT(&c.r_chan, 'D');
	ASSERT_WAIT(&c.s_chan, 'X');
	delay_detach(&d);
	ASSERT_SIGNAL(&c.r_chan, 'q');
	ASSERT_SIGNAL(&c.s_chan, 'q');
	ASSERT_CHILD_OK(c.r_pid);
	ASSERT_CHILD_OK(c.s_pid);
	kbt_chan_close(&c.r_chan);
	kbt_chan_close(&c.s_chan);
	close(c.go[0]);
	close(c.go[1]);
	kbinder_proc_close(&p);
	return !err && (r.status == BR_FAILED_REPLY || r.status == BR_DEAD_REPLY);
}

TEST_TIMEOUT(failed_reply_reaches_the_caller_when_its_sender_exits, 150)
{
	bool delayed = false;
	int i, answered = 0;

	for (i = 0; i < ROUNDS; i++)
		answered += one_chain(&delayed);
	kbt_log("%d of %d outer calls answered (%s)", answered, ROUNDS,
		delayed ? "with the delay" : "without a delay");
	EXPECT_EQ(answered, ROUNDS);
}
