// SPDX-License-Identifier: Apache-2.0
/*
 * The service manager (`kbinder servicemanager`, the real tool, exec'd)
 * and libkbinder's Android conventions, end to end on a binder device:
 * a client finds a service through the manager at every API level from 28
 * to 36 and every quarterly release of 35 and 36; lookups answer the
 * Service union of their release; every object answers the standard
 * transactions as libbinder's do; a dead service is forgotten;
 * registration callbacks fire; errors come back as Android's
 * servicemanager sends them.
 */
#include "binder_util.h"	/* first: it sets _GNU_SOURCE */
#include "sm_util.h"

#include <stdio.h>
#include <string.h>

#include <kbinder/servicemanager.h>

#define ADDER_DESC	"kbinder.test.IAdder"
#define ADDER_ADD	1	/* int add1(int) */
#define CB_COOKIE	0xcb
#define CB2_COOKIE	0xcc

#define ADDER_RELAY	2	/* int relay(ICallback cb, FileDescriptor fd) */
#define CB_DESC		"kbinder.test.ICallback"

/* relay: write to the fd, call the callback back (nested), answer 7. */
static int adder_relay(struct kbinder_call *call)
{
	struct flat_binder_object cb;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int fd, err;

	if (kbinder_view_read_strong_binder(&call->in, call->wire, &cb, NULL) ||
	    cb.hdr.type != BINDER_TYPE_HANDLE)
		return KBINDER_STATUS_BAD_VALUE;
	fd = kbinder_view_read_fd(&call->in);
	if (fd < 0)
		return KBINDER_STATUS_BAD_VALUE;
	err = write(fd, "through the fd", 14) == 14 ? 0 : -EIO;
	close(fd);
	if (err)
		return KBINDER_STATUS_BAD_VALUE;
	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, call->wire, CB_DESC);
	kbinder_parcel_write_string16(&data, "called back");
	err = kbinder_thread_transact(call->thread, cb.handle, 1, &data, 0, &r, NULL, NULL,
				      KBT_WAIT_MS);
	kbinder_parcel_fini(&data);
	if (err || r.status != BR_REPLY)
		return KBINDER_STATUS_BAD_VALUE;
	kbinder_thread_free_buffer(call->thread, r.txn.data.ptr.buffer);
	kbinder_parcel_write_status(call->reply, KBINDER_EX_NONE, NULL, 0);
	return kbinder_parcel_write_u32(call->reply, 7);
}

static int adder_handle(struct kbinder_object *obj, uint32_t code,
			struct kbinder_call *call)
{
	uint32_t x;

	(void)obj;
	if (code == ADDER_RELAY)
		return adder_relay(call);
	if (code != ADDER_ADD)
		return KBINDER_STATUS_UNKNOWN_TRANSACTION;
	if (kbinder_view_read_u32(&call->in, &x))
		return KBINDER_STATUS_BAD_VALUE;
	kbinder_parcel_write_status(call->reply, KBINDER_EX_NONE, NULL, 0);
	return kbinder_parcel_write_u32(call->reply, x + 1);
}

static int adder_dump(struct kbinder_object *obj, int fd, int argc, char **argv)
{
	(void)obj;
	dprintf(fd, "adder dump argc=%d", argc);
	for (int i = 0; i < argc; i++)
		dprintf(fd, " %s", argv[i]);
	return 0;
}

struct service_arg {
	char release[16];	/* the API level, or a release of one */
	const char *name;
	struct kbt_chan *chan;
};

/* A service process: register, say so, serve until killed. */
static void adder_service(void *argp)
{
	struct service_arg *a = argp;
	static struct kbinder_object obj;
	static struct kbinder_wire wire;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_sm sm;

	ASSERT_OK(kbinder_wire_init_name(&wire, a->release));
	obj.descriptor = ADDER_DESC;
	obj.wire = &wire;
	obj.handle = adder_handle;
	obj.dump = adder_dump;
	obj.n_codes = 2;
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_sm_init(&sm, &t, 0));
	sm.wire = wire;
	ASSERT_OK(kbinder_sm_add(&sm, a->name, (binder_uintptr_t)(uintptr_t)&obj,
				 0x5e, false, KBINDER_DUMP_FLAG_PRIORITY_DEFAULT));
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_SIGNAL(a->chan, 'R');
	for (;;) {
		ASSERT_OK(kbinder_thread_next(&t, &ret, -1));
		if (ret.cmd == BR_TRANSACTION) {
			ASSERT_EQ(ret.u.txn.target.ptr, (binder_uintptr_t)(uintptr_t)&obj);
			EXPECT_OK(kbinder_object_dispatch(&obj, &t, &ret.u.txn));
			ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
		} else {
			ASSERT_OK(kbinder_thread_handle_default(&t, &ret, NULL));
		}
	}
}

static pid_t start_adder_release(struct service_arg *a, const char *release,
				 const char *name, struct kbt_chan *chan)
{
	pid_t pid;

	snprintf(a->release, sizeof(a->release), "%s", release);
	a->name = name;
	a->chan = chan;
	kbt_chan_init(chan);
	pid = kbt_fork(adder_service, a);
	ASSERT_WAIT(chan, 'R');
	return pid;
}

static pid_t start_adder(struct service_arg *a, int level, const char *name,
			 struct kbt_chan *chan)
{
	char lv[16];

	snprintf(lv, sizeof(lv), "%d", level);
	return start_adder_release(a, lv, name, chan);
}

/* A call with the token, one int32 in; the reply's status and int32 out. */
static int call_add(struct kbinder_thread *t, const struct kbinder_wire *w,
		    uint32_t handle, uint32_t x, uint32_t *out)
{
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int32_t ex, code;
	int err;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, w, ADDER_DESC);
	kbinder_parcel_write_u32(&data, x);
	err = kbinder_thread_transact(t, handle, ADDER_ADD, &data, 0, &r, NULL, NULL,
				      KBT_WAIT_MS);
	kbinder_parcel_fini(&data);
	if (!err)
		err = kbinder_thread_check_reply(t, &r);
	if (err)
		return err;
	kbinder_view_init(&v, &r.txn);
	if (kbinder_view_read_status(&v, &ex, &code, NULL, 0) || ex ||
	    kbinder_view_read_u32(&v, out))
		err = -EBADMSG;
	kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer);
	return err;
}

struct names {
	int n;
	bool seen;
	const char *want;
};

static int collect(const char *name, void *arg)
{
	struct names *st = arg;

	st->n++;
	if (!strcmp(name, st->want))
		st->seen = true;
	return 0;
}

TEST_TIMEOUT(a_client_finds_a_service_through_the_manager_at_every_api_level, 150)
{
	for (size_t i = 0; i < kbt_sm_n_releases; i++) {
		const char *release = kbt_sm_releases[i];
		int level = atoi(release);
		struct names st = { 0, false, "kbinder.test.adder" };
		struct service_arg a;
		struct kbt_chan chan;
		struct kbinder_thread t;
		struct kbinder_proc p;
		struct kbinder_sm sm;
		uint32_t handle, out = 0;
		pid_t smpid, svc;

		smpid = kbt_sm_start_release(release);
		svc = start_adder_release(&a, release, "kbinder.test.adder", &chan);
		kbt_client(&p, &t);
		ASSERT_OK(kbinder_sm_init(&sm, &t, 0));
		ASSERT_OK(kbinder_wire_init_name(&sm.wire, release));
		ASSERT_OK(kbinder_sm_check(&sm, "kbinder.test.adder", &handle));
		ASSERT_OK(call_add(&t, &sm.wire, handle, 41, &out));
		ASSERT_EQ(out, 42);
		ASSERT_OK(kbinder_sm_get(&sm, "kbinder.test.adder", &handle));
		ASSERT_OK(kbinder_thread_ref(&t, BC_RELEASE, handle));
		ASSERT_EQ(kbinder_sm_check(&sm, "kbinder.test.nobody", &handle), -ENOENT);
		ASSERT_OK(kbinder_sm_list(&sm, KBINDER_DUMP_FLAG_PRIORITY_ALL, collect, &st));
		ASSERT_EQ(st.n, 1);
		ASSERT_TRUE(st.seen);
		/* A client of another release's protocol is refused. */
		if (level >= 30) {
			struct kbinder_sm old;

			ASSERT_OK(kbinder_sm_init(&old, &t, 28));
			ASSERT_EQ(kbinder_sm_check(&old, "kbinder.test.adder", &handle),
				  KBINDER_STATUS_BAD_TYPE);
		}
		ASSERT_OK(kbinder_thread_ref(&t, BC_RELEASE, handle));
		kbinder_proc_close(&p);
		kbt_kill(svc);
		kbt_chan_close(&chan);
		kbt_kill(smpid);
	}
}

/* One transaction with no data; the reply (caller frees) or an error. */
static int bare_call(struct kbinder_thread *t, uint32_t handle, uint32_t code,
		     const struct kbinder_parcel *data, struct kbinder_reply *r)
{
	int err = kbinder_thread_transact(t, handle, code, data, 0, r, NULL, NULL,
					  KBT_WAIT_MS);

	return err ? err : r->status == BR_REPLY ? 0 : -EIO;
}

static int32_t status_of(struct kbinder_thread *t, struct kbinder_reply *r)
{
	uint32_t st = 0;

	if (!(r->txn.flags & TF_STATUS_CODE))
		st = 0;
	else
		memcpy(&st, (void *)(uintptr_t)r->txn.data.ptr.buffer, sizeof(st));
	kbinder_thread_free_buffer(t, r->txn.data.ptr.buffer);
	return (int32_t)st;
}

TEST(every_object_answers_the_standard_transactions)
{
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct service_arg a;
	struct kbt_chan chan;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_sm sm;
	char s[128];
	uint32_t handle, pid;
	int pipefd[2];
	pid_t smpid, svc;
	ssize_t n;

	smpid = kbt_sm_start(33);
	svc = start_adder(&a, 33, "kbinder.test.std", &chan);
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_sm_init(&sm, &t, 33));
	ASSERT_OK(kbinder_sm_check(&sm, "kbinder.test.std", &handle));

	/* PING: an empty reply. */
	ASSERT_OK(bare_call(&t, handle, KBINDER_PING_TRANSACTION, NULL, &r));
	ASSERT_EQ(r.txn.data_size, 0);
	ASSERT_EQ(status_of(&t, &r), 0);
	/* INTERFACE: the descriptor. */
	ASSERT_OK(bare_call(&t, handle, KBINDER_INTERFACE_TRANSACTION, NULL, &r));
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_string16(&v, s, sizeof(s)));
	ASSERT_EQ(strcmp(s, ADDER_DESC), 0);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	/* DEBUG_PID: the service's pid. */
	ASSERT_OK(bare_call(&t, handle, KBINDER_DEBUG_PID_TRANSACTION, NULL, &r));
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_u32(&v, &pid));
	ASSERT_EQ((pid_t)pid, svc);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	/* DUMP: the fd and the String16 arguments reach dump(). */
	ASSERT_EQ(pipe(pipefd), 0);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_fd(&data, pipefd[1], 0);
	kbinder_parcel_write_u32(&data, 2);
	kbinder_parcel_write_string16(&data, "-a");
	kbinder_parcel_write_string16(&data, "x\xc3\xa9");
	ASSERT_OK(bare_call(&t, handle, KBINDER_DUMP_TRANSACTION, &data, &r));
	kbinder_parcel_fini(&data);
	ASSERT_EQ(status_of(&t, &r), 0);
	close(pipefd[1]);
	n = read(pipefd[0], s, sizeof(s) - 1);
	close(pipefd[0]);
	ASSERT_GT(n, 0);
	s[n] = '\0';
	ASSERT_EQ(strcmp(s, "adder dump argc=2 -a x\xc3\xa9"), 0);
	/* An unknown code: UNKNOWN_TRANSACTION in a status-code reply. */
	ASSERT_OK(bare_call(&t, handle, 0x00fffff0, NULL, &r));
	ASSERT_EQ(status_of(&t, &r), KBINDER_STATUS_UNKNOWN_TRANSACTION);
	ASSERT_OK(bare_call(&t, handle, KBINDER_FOURCC('_', 'X', 'Y', 'Z'), NULL, &r));
	ASSERT_EQ(status_of(&t, &r), KBINDER_STATUS_UNKNOWN_TRANSACTION);
	/* A user code with another interface's token: BAD_TYPE. */
	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, &sm.wire, "kbinder.test.IOther");
	kbinder_parcel_write_u32(&data, 1);
	ASSERT_OK(bare_call(&t, handle, ADDER_ADD, &data, &r));
	kbinder_parcel_fini(&data);
	ASSERT_EQ(status_of(&t, &r), KBINDER_STATUS_BAD_TYPE);
	/* The service manager is an object like any other. */
	ASSERT_OK(bare_call(&t, 0, KBINDER_INTERFACE_TRANSACTION, NULL, &r));
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_string16(&v, s, sizeof(s)));
	ASSERT_EQ(strcmp(s, KBINDER_SM_DESCRIPTOR), 0);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	ASSERT_OK(bare_call(&t, 0, KBINDER_DEBUG_PID_TRANSACTION, NULL, &r));
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_u32(&v, &pid));
	ASSERT_EQ((pid_t)pid, smpid);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);

	ASSERT_OK(kbinder_thread_ref(&t, BC_RELEASE, handle));
	kbinder_proc_close(&p);
	kbt_kill(svc);
	kbt_chan_close(&chan);
	kbt_kill(smpid);
}

/* Wait for the callback's onRegistration of @name, carrying a handle. */
static void expect_registration(struct kbinder_thread *t,
				const struct kbinder_wire *w, const char *name,
				binder_uintptr_t cookie)
{
	struct flat_binder_object obj;

	kbt_sm_expect_registration(t, w, name, cookie, &obj);
}

TEST_TIMEOUT(callbacks_fire_and_a_dead_service_is_forgotten, 120)
{
	static const int levels[] = { 30, 31, 33, 35, 36 };

	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		int level = levels[i];
		struct kbinder_return ret;
		struct service_arg a;
		struct kbt_chan chan;
		struct kbinder_thread t;
		struct kbinder_proc p;
		struct kbinder_sm sm;
		uint32_t handle;
		pid_t smpid, svc;
		int err = 0;

		smpid = kbt_sm_start(level);
		kbt_client(&p, &t);
		ASSERT_OK(kbinder_sm_init(&sm, &t, level));
		/* Watch a name before anyone has it. */
		ASSERT_OK(kbinder_sm_notify(&sm, "kbinder.test.late", true, CB_COOKIE,
					    CB_COOKIE));
		svc = start_adder(&a, level, "kbinder.test.late", &chan);
		expect_registration(&t, &sm.wire, "kbinder.test.late", CB_COOKIE);
		/* A second watcher of a name that is there is told at once. */
		ASSERT_OK(kbinder_sm_notify(&sm, "kbinder.test.late", true, CB2_COOKIE,
					    CB2_COOKIE));
		expect_registration(&t, &sm.wire, "kbinder.test.late", CB2_COOKIE);
		ASSERT_OK(kbinder_sm_check(&sm, "kbinder.test.late", &handle));
		ASSERT_OK(kbinder_thread_request_death(&t, handle, 0xd1e));
		/* The death: we hear it, and the manager forgets the name. */
		kbt_kill(svc);
		ASSERT_OK(kbinder_thread_wait_for(&t, BR_DEAD_BINDER, &ret, NULL, NULL, KBT_WAIT_MS));
		ASSERT_EQ(ret.u.cookie, 0xd1e);
		ASSERT_OK(kbinder_thread_dead_binder_done(&t, ret.u.cookie));
		for (int k = 0; k < 100; k++) {
			uint32_t h;

			err = kbinder_sm_check(&sm, "kbinder.test.late", &h);
			if (err)
				break;
			kbinder_thread_ref(&t, BC_RELEASE, h);
			kbt_msleep(20);
		}
		ASSERT_EQ(err, -ENOENT);
		ASSERT_OK(kbinder_thread_ref(&t, BC_RELEASE, handle));
		/* A new registration of the name fires the callback again. */
		kbt_chan_close(&chan);
		svc = start_adder(&a, level, "kbinder.test.late", &chan);
		expect_registration(&t, &sm.wire, "kbinder.test.late", CB_COOKIE);
		/* Unregistering works once; the second time is EX_ILLEGAL_STATE. */
		ASSERT_OK(kbinder_sm_notify(&sm, "kbinder.test.late", false, CB_COOKIE,
					    CB_COOKIE));
		ASSERT_EQ(kbinder_sm_notify(&sm, "kbinder.test.late", false, CB_COOKIE,
					    CB_COOKIE), -EBUSY);
		ASSERT_EQ(sm.exception, KBINDER_EX_ILLEGAL_STATE);
		kbinder_proc_close(&p);
		kbt_kill(svc);
		kbt_chan_close(&chan);
		kbt_kill(smpid);
	}
}

TEST(the_manager_answers_errors_as_androids_does)
{
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_sm sm;
	pid_t smpid;
	uint32_t handle;

	smpid = kbt_sm_start(33);
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_sm_init(&sm, &t, 33));
	/* An invalid name: EX_ILLEGAL_ARGUMENT. */
	ASSERT_EQ(kbinder_sm_add(&sm, "bad name!", 0x100, 0x100, false,
				 KBINDER_DUMP_FLAG_PRIORITY_DEFAULT), -EINVAL);
	ASSERT_EQ(sm.exception, KBINDER_EX_ILLEGAL_ARGUMENT);
	/* A null binder: EX_ILLEGAL_ARGUMENT too. */
	ASSERT_EQ(kbinder_sm_add(&sm, "kbinder.test.null", 0, 0, false,
				 KBINDER_DUMP_FLAG_PRIORITY_DEFAULT), -EINVAL);
	/* A null callback: EX_NULL_POINTER. */
	ASSERT_EQ(kbinder_sm_notify(&sm, "kbinder.test.x", true, 0, 0), -EFAULT);
	/* Nothing is declared without a VINTF manifest. */
	ASSERT_EQ(kbinder_sm_is_declared(&sm, "android.hardware.foo.IFoo/default"), 0);
	/* A code past the level's last method: UNKNOWN_TRANSACTION. */
	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, &sm.wire, KBINDER_SM_DESCRIPTOR);
	ASSERT_OK(bare_call(&t, 0, 200, &data, &r));
	kbinder_parcel_fini(&data);
	ASSERT_EQ(status_of(&t, &r), KBINDER_STATUS_UNKNOWN_TRANSACTION);
	/* Methods a level does not have are refused before sending. */
	ASSERT_EQ(kbinder_sm_code(&sm.wire, KBINDER_SM_GET_SERVICE2), 0);
	ASSERT_EQ(kbinder_sm_code(&sm.wire, KBINDER_SM_CHECK_SERVICE), 2);
	/* The same manager sees its own registrations only once each. */
	ASSERT_EQ(kbinder_sm_check(&sm, "kbinder.test.null", &handle), -ENOENT);
	kbinder_proc_close(&p);
	kbt_kill(smpid);
}

struct cb_state {
	struct kbinder_object obj;
	struct kbinder_wire wire;
	char got[64];
	int calls;
};

static int cb_handle(struct kbinder_object *obj, uint32_t code,
		     struct kbinder_call *call)
{
	struct cb_state *st = obj->arg;

	if (code != 1 || kbinder_view_read_string16(&call->in, st->got, sizeof(st->got)))
		return KBINDER_STATUS_BAD_VALUE;
	st->calls++;
	return kbinder_parcel_write_status(call->reply, KBINDER_EX_NONE, NULL, 0);
}

/* The nested call back arrives while we wait for our reply. */
static int cb_event(struct kbinder_thread *t, const struct kbinder_return *ret,
		    void *arg)
{
	struct cb_state *st = arg;
	int err;

	if (ret->cmd != BR_TRANSACTION)
		return kbinder_thread_handle_default(t, ret, NULL);
	if (ret->u.txn.target.ptr != (binder_uintptr_t)(uintptr_t)&st->obj)
		return -EPROTO;
	err = kbinder_object_dispatch(&st->obj, t, &ret->u.txn);
	kbinder_thread_free_buffer(t, ret->u.txn.data.ptr.buffer);
	/* an event function aborts the call with an errno, not a BR_ answer */
	return err > 0 ? -EIO : err;
}

TEST(an_object_passed_in_a_call_is_called_back_and_an_fd_passes_through)
{
	static struct cb_state st;
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct service_arg a;
	struct kbt_chan chan;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_sm sm;
	int32_t ex, code;
	uint32_t handle, out;
	char buf[32];
	int pipefd[2];
	pid_t smpid, svc;
	ssize_t n;

	smpid = kbt_sm_start(35);
	svc = start_adder(&a, 35, "kbinder.test.relay", &chan);
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_sm_init(&sm, &t, 35));
	ASSERT_OK(kbinder_sm_check(&sm, "kbinder.test.relay", &handle));
	ASSERT_OK(kbinder_wire_init(&st.wire, 35));
	st.obj.descriptor = CB_DESC;
	st.obj.wire = &st.wire;
	st.obj.handle = cb_handle;
	st.obj.n_codes = 1;
	st.obj.arg = &st;
	ASSERT_EQ(pipe(pipefd), 0);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, &sm.wire, ADDER_DESC);
	kbinder_parcel_write_strong_binder(&data, &sm.wire,
					   (binder_uintptr_t)(uintptr_t)&st.obj, 0);
	kbinder_parcel_write_fd(&data, pipefd[1], 0);
	ASSERT_OK(kbinder_thread_transact(&t, handle, ADDER_RELAY, &data, 0, &r, cb_event,
					  &st, KBT_WAIT_MS));
	kbinder_parcel_fini(&data);
	ASSERT_EQ(r.status, BR_REPLY);
	ASSERT_FALSE(r.txn.flags & TF_STATUS_CODE);
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_status(&v, &ex, &code, NULL, 0));
	ASSERT_EQ(ex, 0);
	ASSERT_OK(kbinder_view_read_u32(&v, &out));
	ASSERT_EQ(out, 7);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	/* The callback ran once, nested in our call, with its argument. */
	ASSERT_EQ(st.calls, 1);
	ASSERT_EQ(strcmp(st.got, "called back"), 0);
	/* The service wrote into our pipe through the fd it received. */
	close(pipefd[1]);
	n = read(pipefd[0], buf, sizeof(buf));
	close(pipefd[0]);
	ASSERT_EQ(n, 14);
	ASSERT_MEM_EQ(buf, "through the fd", 14);
	ASSERT_OK(kbinder_thread_ref(&t, BC_RELEASE, handle));
	kbinder_proc_close(&p);
	kbt_kill(svc);
	kbt_chan_close(&chan);
	kbt_kill(smpid);
}

/*
 * One lookup at @code, parsed by hand as @release's AOSP answers it:
 * 'p' a plain binder, 'b' the Service union with a binder in member 0
 * (15 QPR1), 'm' with ServiceWithMetadata in it (15 QPR2 on). The binder
 * it holds is called, to show it is the service.
 */
static void lookup_answers_as(struct kbinder_thread *t, const struct kbinder_wire *w,
			      uint32_t code, char layout, const char *name)
{
	struct flat_binder_object obj;
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	uint32_t word, size, out = 0;
	int32_t ex, scode;
	size_t start;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, w, KBINDER_SM_DESCRIPTOR);
	kbinder_parcel_write_string16(&data, name);
	ASSERT_OK(bare_call(t, 0, code, &data, &r));
	kbinder_parcel_fini(&data);
	ASSERT_FALSE(r.txn.flags & TF_STATUS_CODE);
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_status(&v, &ex, &scode, NULL, 0));
	ASSERT_EQ(ex, 0);
	if (layout != 'p') {
		ASSERT_OK(kbinder_view_read_u32(&v, &word));
		ASSERT_EQ(word, 1);		/* a non-null Service */
		ASSERT_OK(kbinder_view_read_u32(&v, &word));
		ASSERT_EQ(word, 0);		/* member 0 */
	}
	if (layout == 'm') {
		ASSERT_OK(kbinder_view_read_u32(&v, &word));
		ASSERT_EQ(word, 1);		/* a non-null ServiceWithMetadata */
		start = v.pos;
		ASSERT_OK(kbinder_view_read_u32(&v, &size));
	}
	ASSERT_EQ(kbinder_view_read_strong_binder(&v, w, &obj, NULL), 0);
	ASSERT_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
	if (layout == 'm') {
		ASSERT_OK(kbinder_view_read_u32(&v, &word));
		ASSERT_EQ(word, 0);		/* isLazyService */
		ASSERT_EQ(size, v.pos - start);
	}
	ASSERT_EQ(v.pos, v.size);
	ASSERT_OK(kbinder_thread_ref(t, BC_ACQUIRE, obj.handle));
	kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer);
	ASSERT_OK(call_add(t, w, obj.handle, 1, &out));
	ASSERT_EQ(out, 2);
	ASSERT_OK(kbinder_thread_ref(t, BC_RELEASE, obj.handle));
}

TEST_TIMEOUT(lookups_answer_the_service_union_of_their_release, 90)
{
	/* Codes 2 (getService2), 3 (checkService), 4 (checkService2 from 16). */
	static const struct {
		const char *release;
		char layout[3];		/* of codes 2, 3, 4; 0: no such code */
	} releases[] = {
		{ "35", { 'p', 'a', 0 } },	/* 14's: checkService 2, addService 3 */
		{ "35-qpr1", { 'b', 'b', 0 } },
		{ "35-qpr2", { 'm', 'm', 0 } },
		{ "36", { 'm', 'p', 'm' } },
		{ "36-qpr1", { 'm', 'p', 'm' } },
	};

	for (size_t i = 0; i < sizeof(releases) / sizeof(releases[0]); i++) {
		const char *release = releases[i].release;
		struct service_arg a;
		struct kbt_chan chan;
		struct kbinder_thread t;
		struct kbinder_proc p;
		struct kbinder_sm sm;
		uint32_t handle, out = 0;
		pid_t smpid, svc;

		kbt_log("release %s", release);
		smpid = kbt_sm_start_release(release);
		svc = start_adder_release(&a, release, "kbinder.test.v2", &chan);
		kbt_client(&p, &t);
		ASSERT_OK(kbinder_sm_init(&sm, &t, 0));
		ASSERT_OK(kbinder_wire_init_name(&sm.wire, release));
		for (uint32_t code = 2; code <= 4; code++) {
			char layout = releases[i].layout[code - 2];

			if (layout && layout != 'a')
				lookup_answers_as(&t, &sm.wire, code, layout, "kbinder.test.v2");
		}
		/* libkbinder's client reads its release's answer too. */
		ASSERT_OK(kbinder_sm_check(&sm, "kbinder.test.v2", &handle));
		ASSERT_OK(call_add(&t, &sm.wire, handle, 2, &out));
		ASSERT_EQ(out, 3);
		ASSERT_OK(kbinder_thread_ref(&t, BC_RELEASE, handle));
		ASSERT_EQ(kbinder_sm_check(&sm, "kbinder.test.nobody", &handle), -ENOENT);
		kbinder_proc_close(&p);
		kbt_kill(svc);
		kbt_chan_close(&chan);
		kbt_kill(smpid);
	}
}

/* A call to the manager with @w's token and @name (NULL: none) at @code. */
static void sm_call(struct kbinder_thread *t, const struct kbinder_wire *w,
		    uint32_t code, const char *name, struct kbinder_reply *r)
{
	struct kbinder_parcel data;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, w, KBINDER_SM_DESCRIPTOR);
	if (name)
		kbinder_parcel_write_string16(&data, name);
	ASSERT_OK(bare_call(t, 0, code, &data, r));
	kbinder_parcel_fini(&data);
}

/*
 * Android 13's own codes, written out here (android-13.0.0_r1's
 * IServiceManager.aidl), not taken from libkbinder: 10 is
 * getConnectionInfo, 13 getServiceDebugInfo, and there is no 14.
 */
TEST_TIMEOUT(an_android_13_client_s_codes_reach_android_13_s_methods, 60)
{
	struct kbinder_view v;
	struct kbinder_reply r;
	struct service_arg a;
	struct kbt_chan chan;
	struct kbinder_thread t;
	struct kbinder_wire w;
	struct kbinder_proc p;
	uint32_t word, pid, size;
	int32_t ex, code;
	char name[64];
	pid_t smpid, svc;
	size_t start;

	smpid = kbt_sm_start(33);
	svc = start_adder(&a, 33, "kbinder.test.adder", &chan);
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_wire_init(&w, 33));
	/* getConnectionInfo(name): a null ConnectionInfo, nothing else. */
	sm_call(&t, &w, 10, "kbinder.test.adder", &r);
	ASSERT_FALSE(r.txn.flags & TF_STATUS_CODE);
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_status(&v, &ex, &code, NULL, 0));
	ASSERT_EQ(ex, 0);
	ASSERT_OK(kbinder_view_read_u32(&v, &word));
	ASSERT_EQ(word, 0);
	ASSERT_EQ(v.pos, v.size);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	/* getServiceDebugInfo(): the adder, with its pid. */
	sm_call(&t, &w, 13, NULL, &r);
	ASSERT_FALSE(r.txn.flags & TF_STATUS_CODE);
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_status(&v, &ex, &code, NULL, 0));
	ASSERT_EQ(ex, 0);
	ASSERT_OK(kbinder_view_read_u32(&v, &word));
	ASSERT_EQ(word, 1);			/* one entry */
	ASSERT_OK(kbinder_view_read_u32(&v, &word));
	ASSERT_EQ(word, 1);			/* a non-null ServiceDebugInfo */
	start = v.pos;
	ASSERT_OK(kbinder_view_read_u32(&v, &size));
	ASSERT_OK(kbinder_view_read_string16(&v, name, sizeof(name)));
	ASSERT_OK(kbinder_view_read_u32(&v, &pid));
	ASSERT_EQ(size, v.pos - start);
	ASSERT_EQ(strcmp(name, "kbinder.test.adder"), 0);
	ASSERT_EQ(pid, (uint32_t)svc);
	ASSERT_EQ(v.pos, v.size);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	/* Past getServiceDebugInfo: UNKNOWN_TRANSACTION. */
	sm_call(&t, &w, 14, NULL, &r);
	ASSERT_EQ(status_of(&t, &r), KBINDER_STATUS_UNKNOWN_TRANSACTION);
	kbinder_proc_close(&p);
	kbt_kill(svc);
	kbt_chan_close(&chan);
	kbt_kill(smpid);
}

/* checkServiceAccess(CallerContext, name, permission) at @w's code 17. */
static void check_access_call(struct kbinder_thread *t, const struct kbinder_wire *w,
			      const char *perm, struct kbinder_reply *r)
{
	struct kbinder_parcel data;
	size_t at;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, w, KBINDER_SM_DESCRIPTOR);
	at = kbinder_parcel_begin_parcelable(&data);
	kbinder_parcel_write_string16(&data, "u:r:virtualizationmanager:s0");
	kbinder_parcel_write_u32(&data, 1234);	/* debugPid */
	kbinder_parcel_write_u32(&data, 1000);	/* uid */
	kbinder_parcel_end_parcelable(&data, at);
	kbinder_parcel_write_string16(&data, "kbinder.test.anything");
	kbinder_parcel_write_string16(&data, perm);
	ASSERT_OK(bare_call(t, 0, 17, &data, r));
	kbinder_parcel_fini(&data);
}

TEST(check_service_access_is_code_17_from_16_qpr1)
{
	struct kbinder_view v;
	struct kbinder_reply r;
	struct kbinder_thread t;
	struct kbinder_wire w;
	struct kbinder_proc p;
	int32_t ex, code;
	uint32_t yes;
	pid_t smpid;

	smpid = kbt_sm_start_release("36-qpr1");
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_wire_init_name(&w, "36-qpr1"));
	check_access_call(&t, &w, "find", &r);
	ASSERT_FALSE(r.txn.flags & TF_STATUS_CODE);
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_status(&v, &ex, &code, NULL, 0));
	ASSERT_EQ(ex, 0);
	ASSERT_OK(kbinder_view_read_u32(&v, &yes));
	ASSERT_EQ(yes, 1);			/* no policy here: allowed */
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	/* A permission servicemanager does not know: EX_SECURITY, as Android's. */
	check_access_call(&t, &w, "call", &r);
	kbinder_view_init(&v, &r.txn);
	ASSERT_OK(kbinder_view_read_status(&v, &ex, &code, NULL, 0));
	ASSERT_EQ(ex, KBINDER_EX_SECURITY);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	kbinder_proc_close(&p);
	kbt_kill(smpid);
	/* Android 16's first release has no code 17. */
	smpid = kbt_sm_start(36);
	kbt_client(&p, &t);
	check_access_call(&t, &w, "find", &r);
	ASSERT_EQ(status_of(&t, &r), KBINDER_STATUS_UNKNOWN_TRANSACTION);
	kbinder_proc_close(&p);
	kbt_kill(smpid);
}
