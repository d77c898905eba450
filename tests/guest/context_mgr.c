// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: the context manager. BINDER_SET_CONTEXT_MGR (once per
 * device: a second one gets EBUSY), BINDER_SET_CONTEXT_MGR_EXT with its
 * node's ptr, cookie and flags, handle 0, the sticky manager uid, and
 * separate devices being separate binder worlds.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>

static void try_ctxmgr(void *arg)
{
	struct kbinder_proc p;

	(void)arg;
	kbt_open(&p);
	ASSERT_EQ(kbinder_ioctl_set_context_mgr(p.fd), -EBUSY);
	kbinder_proc_close(&p);
}

TEST(second_context_manager_gets_ebusy)
{
	struct kbinder_proc p, q;

	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	/* the same binder process again */
	ASSERT_EQ(kbinder_ioctl_set_context_mgr(p.fd), -EBUSY);
	/* another binder process of this task */
	kbt_open(&q);
	ASSERT_EQ(kbinder_ioctl_set_context_mgr(q.fd), -EBUSY);
	kbinder_proc_close(&q);
	/* another task */
	ASSERT_CHILD_OK(kbt_fork(try_ctxmgr, NULL));
	kbinder_proc_close(&p);
}

static void call_zero(struct kbinder_thread *t, void *arg)
{
	struct kbinder_parcel data;
	struct kbt_fd_snap before;
	int fd = -1;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_u32(&data, 0x11223344);
	if (arg) {
		int exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

		ASSERT_GE(exe, 0);
		/* a number the receiver does not have: it must be translated */
		fd = dup2(exe, 100);
		ASSERT_EQ(fd, 100);
		close(exe);
		kbt_log("sending fd %d", fd);
		kbinder_parcel_write_fd(&data, fd, 0x99);
	}
	ASSERT_OK(kbt_fd_snapshot(&before));
	ASSERT_EQ(kbt_call_status(t, 0, 5, &data, fd >= 0 ? TF_ACCEPT_FDS : 0),
		  BR_REPLY);
	/* sending an fd neither closes nor adds one on the sender's side */
	ASSERT_FDS_UNCHANGED(&before);
	kbt_fd_snap_free(&before);
	if (fd >= 0)
		close(fd);
	kbinder_parcel_fini(&data);
}

TEST(context_manager_ext_node_has_given_ptr_and_cookie)
{
	struct flat_binder_object obj;
	struct binder_node_debug_info info;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	pid_t c;

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BINDER_TYPE_BINDER;
	obj.binder = 0xabc0;
	obj.cookie = 0xdef0;
	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, &obj));
	memset(&info, 0, sizeof(info));
	ASSERT_OK(kbinder_ioctl_node_debug_info(p.fd, &info));
	ASSERT_EQ(info.ptr, 0xabc0);
	ASSERT_EQ(info.cookie, 0xdef0);
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	c = kbt_fork_client(call_zero, NULL);
	ASSERT_OK(kbinder_thread_wait_for(&t, BR_TRANSACTION, &ret, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	ASSERT_EQ(ret.u.txn.target.ptr, 0xabc0);
	ASSERT_EQ(ret.u.txn.cookie, 0xdef0);
	ASSERT_EQ(ret.u.txn.code, 5);
	ASSERT_EQ(kbt_txn_u32(&ret.u.txn, 0), 0x11223344);
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	kbinder_proc_close(&p);
}

/* A manager node made with FLAT_BINDER_FLAG_ACCEPTS_FDS receives fds. */
TEST(context_manager_ext_flags_allow_fds)
{
	struct flat_binder_object obj;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct kbt_fd_snap before;
	struct stat mine, got;
	pid_t c;

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BINDER_TYPE_BINDER;
	obj.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS;
	kbt_manager(&p, &t, &obj);
	ASSERT_OK(kbt_fd_snapshot(&before));
	c = kbt_fork_client(call_zero, (void *)1);
	ASSERT_OK(kbinder_thread_wait_for(&t, BR_TRANSACTION, &ret, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	{
		struct flat_binder_object fo;
		struct binder_fd_object fdo;

		kbt_txn_object(&ret.u.txn, 0, &fo);
		memcpy(&fdo, &fo, sizeof(fdo));
		ASSERT_EQ(fdo.hdr.type, BINDER_TYPE_FD);
		ASSERT_EQ(fdo.cookie, 0x99);
		/* a new fd in this process for the sender's file */
		kbt_log("received fd %u", fdo.fd);
		ASSERT_NE(fdo.fd, 100);
		ASSERT_ONE_NEW_FD(&before, (int)fdo.fd);
		kbt_fd_snap_free(&before);
		ASSERT_EQ(fstat((int)fdo.fd, &got), 0);
		ASSERT_EQ(stat("/proc/self/exe", &mine), 0);
		ASSERT_EQ(got.st_ino, mine.st_ino);
		close((int)fdo.fd);
	}
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	kbinder_proc_close(&p);
}

static void ctxmgr_as_other_uid(void *arg)
{
	const char *dev = arg;
	struct kbinder_proc p;

	int64_t deadline = kbt_now_ms() + 5000;
	int ret;

	kbt_open_dev(&p, dev, 0);
	ASSERT_EQ(setresuid(4321, 4321, 0), 0);
	do {	/* EBUSY while the last manager is still being released */
		ret = kbinder_ioctl_set_context_mgr(p.fd);
		if (ret == -EBUSY)
			kbt_msleep(10);
	} while (ret == -EBUSY && kbt_now_ms() < deadline);
	ASSERT_EQ(ret, -EPERM);
	kbinder_proc_close(&p);
}

/*
 * The first manager's euid is remembered: a later manager must have the
 * same one. Run on vndbinder so a wrong driver cannot lock the others.
 */
TEST(context_manager_uid_is_sticky)
{
	const char *dev = "/dev/vndbinder";
	struct kbinder_proc p;

	if (access(dev, F_OK))
		SKIP("%s does not exist", dev);
	if (geteuid() != 0)
		SKIP("needs root");
	kbt_open_dev(&p, dev, 0);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	kbinder_proc_close(&p);
	ASSERT_CHILD_OK(kbt_fork(ctxmgr_as_other_uid, (void *)dev));
	/* while root may take it again */
	kbt_open_dev(&p, dev, 0);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	kbinder_proc_close(&p);
}

static void hw_manager(void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct kbinder_parcel reply;

	kbt_open_dev(&p, "/dev/hwbinder", KBT_MAP_SIZE);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_SIGNAL(chan, 'R');
	ASSERT_OK(kbinder_thread_wait_for(&t, BR_TRANSACTION, &ret, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	kbinder_parcel_init(&reply);
	kbinder_parcel_write_u32(&reply, 0x4844);	/* "HD" */
	ASSERT_OK(kbinder_thread_reply(&t, &reply, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	kbinder_parcel_fini(&reply);
	kbinder_proc_close(&p);
}

/* Each device has its own manager and its own handles. */
TEST(devices_are_separate_contexts)
{
	struct kbinder_proc p, hw;
	struct kbinder_thread t;
	struct kbt_chan chan;
	struct kbinder_reply r;
	pid_t c;

	if (access("/dev/hwbinder", F_OK))
		SKIP("/dev/hwbinder does not exist");
	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));	/* manager of binder */
	kbt_chan_init(&chan);
	c = kbt_fork(hw_manager, &chan);	/* and of hwbinder */
	ASSERT_WAIT(&chan, 'R');
	/* handle 0 on hwbinder reaches the hwbinder manager, not us */
	kbt_open_dev(&hw, "/dev/hwbinder", KBT_MAP_SIZE);
	kbinder_thread_init(&t, hw.fd);
	kbt_call(&t, 0, 1, NULL, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 0x4844);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	/* we are the manager of binder: asking again there is EBUSY */
	ASSERT_EQ(kbinder_ioctl_set_context_mgr(p.fd), -EBUSY);
	kbt_chan_close(&chan);
	kbinder_proc_close(&hw);
	kbinder_proc_close(&p);
}

static void call_at_nice(void *arg)
{
	int nice = (int)(intptr_t)arg;
	struct kbinder_proc p;
	struct kbinder_thread t;

	ASSERT_EQ(setpriority(PRIO_PROCESS, 0, nice), 0);
	kbt_client(&p, &t);
	ASSERT_EQ(kbt_call_status(&t, 0, 1, NULL, 0), BR_REPLY);
	kbinder_proc_close(&p);
}

/* Serve one call, return the nice level the serving thread ran at. */
static int serve_nice(struct kbinder_thread *t, int caller_nice)
{
	struct kbinder_return ret;
	pid_t c = kbt_fork(call_at_nice, (void *)(intptr_t)caller_nice);
	int nice;

	ASSERT_OK(kbinder_thread_wait_for(t, BR_TRANSACTION, &ret, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	errno = 0;
	nice = getpriority(PRIO_PROCESS, 0);
	ASSERT_OK(kbinder_thread_reply(t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(t, ret.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	kbt_log("caller nice %d -> callee nice %d", caller_nice, nice);
	return nice;
}

/*
 * The callee runs at the caller's nice level, but never below the node's
 * minimum priority (FLAT_BINDER_FLAG_PRIORITY_MASK of its flags, here 5),
 * and gets its own level back after replying.
 */
TEST(callee_nice_is_bounded_by_node_min_priority)
{
	struct flat_binder_object obj;
	struct kbinder_proc p;
	struct kbinder_thread t;

	if (geteuid() != 0)
		SKIP("needs root");
	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BINDER_TYPE_BINDER;
	obj.flags = 5;
	kbt_manager(&p, &t, &obj);
	ASSERT_EQ(serve_nice(&t, 2), 2);	/* more urgent than 5: as caller */
	ASSERT_EQ(getpriority(PRIO_PROCESS, 0), 0);	/* restored */
	ASSERT_EQ(serve_nice(&t, 12), 5);	/* less urgent: the node's 5 */
	ASSERT_EQ(getpriority(PRIO_PROCESS, 0), 0);
	kbinder_proc_close(&p);
}
