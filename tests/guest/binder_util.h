/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Binder fixtures for the guest conformance suites, on top of libkbinder and
 * the harness: open a device, become the context manager, run a server loop
 * in a forked process, call and quit it.
 *
 * Every helper asserts (ends the calling process on failure) unless it
 * returns a value.
 */
#ifndef KBINDER_TEST_BINDER_UTIL_H
#define KBINDER_TEST_BINDER_UTIL_H

#include "harness.h"	/* first: it sets _GNU_SOURCE */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <kbinder/kbinder.h>

/** Default receive mapping of test processes. */
#define KBT_MAP_SIZE ((size_t)1024 * 1024)
/** Per-wait bound for binder events in tests, ms. */
#define KBT_WAIT_MS 10000

/** Transaction code that makes kbt_serve() reply and return. */
#define KBT_CODE_QUIT 0x51554954u

/* Handler results for kbt_serve(). */
#define KBT_REPLY     0	/* send @reply, free the buffer */
#define KBT_REPLIED   1	/* the handler replied itself (sync) */
#define KBT_KEPT      2	/* the handler keeps (will free) the buffer */

/**
 * typedef kbt_handler_fn - serve one BR_TRANSACTION.
 * @t:     the serving thread
 * @tr:    the transaction
 * @reply: empty parcel to fill for the reply (sync calls); it is sent
 *         before the request's buffer is freed
 * @arg:   the server's argument
 * Return: KBT_REPLY, or an OR of KBT_REPLIED / KBT_KEPT.
 */
typedef int (*kbt_handler_fn)(struct kbinder_thread *t,
			      const struct binder_transaction_data *tr,
			      struct kbinder_parcel *reply, void *arg);

static inline pid_t kbt_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/**
 * kbt_outcome_str() - a reply call's result: "BR_DEAD_REPLY" and the like
 * for the driver's answer (positive), the errno's text otherwise.
 */
static inline const char *kbt_outcome_str(int err)
{
	return err > 0 ? kbinder_return_name((uint32_t)err) : kbt_strerr(err);
}

/** kbt_open() - open $BINDER_DEVICE with a @map_size mapping (0: none). */
static inline void kbt_open_dev(struct kbinder_proc *p, const char *dev,
				size_t map_size)
{
	int ret = kbinder_proc_open(p, dev, map_size, 0);

	if (ret)
		kbt_fail(__FILE__, __LINE__, true, "kbinder_proc_open(%s): %s",
			 dev ? dev : kbinder_proc_default_device(), kbt_strerr(ret));
}

static inline void kbt_open(struct kbinder_proc *p)
{
	kbt_open_dev(p, NULL, KBT_MAP_SIZE);
}

/** kbt_client() - open $BINDER_DEVICE and make @t this thread's handle on it. */
static inline void kbt_client(struct kbinder_proc *p, struct kbinder_thread *t)
{
	kbt_open(p);
	kbinder_thread_init(t, p->fd);
}

/**
 * kbt_become_ctxmgr() - BINDER_SET_CONTEXT_MGR, retrying for a while on
 * EBUSY: the previous test's manager is released asynchronously (on the
 * debug kernel, on a loaded host, that took more than 5 s once).
 * Return: 0 or -errno.
 */
static inline int kbt_become_ctxmgr(int fd,
				    const struct flat_binder_object *ext)
{
	int64_t deadline = kbt_now_ms() + 20000;
	int ret;

	for (;;) {
		ret = ext ? kbinder_ioctl_set_context_mgr_ext(fd, ext) :
			    kbinder_ioctl_set_context_mgr(fd);
		if (ret != -EBUSY || kbt_now_ms() > deadline)
			return ret;
		kbt_msleep(10);
	}
}

/**
 * kbt_manager() - open $BINDER_DEVICE as its context manager (with node
 * object @ext, or NULL for a plain node) and enter the looper on @t: the
 * test process serves the calls its children make to handle 0.
 * kbinder_proc_close(@p) when done.
 */
static inline void kbt_manager(struct kbinder_proc *p, struct kbinder_thread *t,
			       const struct flat_binder_object *ext)
{
	kbt_open(p);
	ASSERT_OK(kbt_become_ctxmgr(p->fd, ext));
	kbinder_thread_init(t, p->fd);
	ASSERT_OK(kbinder_thread_enter_looper(t));
}

/** kbt_handle_or_fail() - kbinder_thread_handle_default() that records failures. */
static inline int kbt_default_event(struct kbinder_thread *t,
				    const struct kbinder_return *ret, void *arg)
{
	int err = kbinder_thread_handle_default(t, ret, arg);

	if (err)
		kbt_fail(__FILE__, __LINE__, false, "unexpected %s: %s",
			 kbinder_return_name(ret->cmd), kbt_strerr(err));
	return err;
}

/**
 * kbt_serve() - serve transactions on @t until KBT_CODE_QUIT arrives.
 * Return: 0 after QUIT, or the -errno that ended the loop.
 */
static inline int kbt_serve(struct kbinder_thread *t, kbt_handler_fn fn, void *arg)
{
	struct kbinder_parcel reply;
	struct kbinder_return ret;
	int err;

	kbinder_parcel_init(&reply);
	for (;;) {
		const struct binder_transaction_data *tr = &ret.u.txn;
		int r = KBT_REPLY;

		err = kbinder_thread_next(t, &ret, -1);
		if (err)
			break;
		if (ret.cmd != BR_TRANSACTION) {
			err = kbt_default_event(t, &ret, NULL);
			if (err)
				break;
			continue;
		}
		kbinder_parcel_reset(&reply);
		if (tr->code != KBT_CODE_QUIT && fn)
			r = fn(t, tr, &reply, arg);
		/* reply first, as libbinder does: freeing the request drops
		 * the references its objects carried
		 */
		if (!(tr->flags & TF_ONE_WAY) && !(r & KBT_REPLIED))
			err = kbinder_thread_reply(t, &reply, 0, KBT_WAIT_MS);
		if (!err && !(r & KBT_KEPT))
			err = kbinder_thread_free_buffer(t, tr->data.ptr.buffer);
		if (err) {
			kbt_fail(__FILE__, __LINE__, false, "serve: %s",
				 kbt_outcome_str(err));
			break;
		}
		if (tr->code == KBT_CODE_QUIT)
			break;
	}
	kbinder_parcel_fini(&reply);
	return err;
}

/**
 * struct kbt_server - a forked server process.
 * @pid:     its pid
 * @chan:    channel to it ('R' is sent once it serves)
 * @fn, @arg: its handler
 * @ctxmgr:  become the context manager (else it just serves)
 * @max_threads: BINDER_SET_MAX_THREADS value (0: leave default)
 * @ext:     when set, SET_CONTEXT_MGR_EXT with this object
 */
struct kbt_server {
	pid_t pid;
	struct kbt_chan chan;
	kbt_handler_fn fn;
	void *arg;
	bool ctxmgr;
	uint32_t max_threads;
	const struct flat_binder_object *ext;
};

static inline void kbt_server_main(void *arg)
{
	struct kbt_server *s = arg;
	struct kbinder_thread t;
	struct kbinder_proc p;

	kbt_open(&p);
	if (s->max_threads)
		ASSERT_OK(kbinder_ioctl_set_max_threads(p.fd, s->max_threads));
	if (s->ctxmgr)
		ASSERT_OK(kbt_become_ctxmgr(p.fd, s->ext));
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_SIGNAL(&s->chan, 'R');
	ASSERT_OK(kbt_serve(&t, s->fn, s->arg));
	kbinder_proc_close(&p);
}

/**
 * kbt_start_ctxmgr() - fork a context manager serving with @fn; returns
 * once it is ready.
 */
static inline void kbt_start_ctxmgr(struct kbt_server *s, kbt_handler_fn fn,
				    void *arg)
{
	memset(s, 0, sizeof(*s));
	s->fn = fn;
	s->arg = arg;
	s->ctxmgr = true;
	kbt_chan_init(&s->chan);
	s->pid = kbt_fork(kbt_server_main, s);
	ASSERT_WAIT(&s->chan, 'R');
}

/**
 * kbt_call() - a synchronous call that must get BR_REPLY; the caller frees
 * the reply buffer (kbinder_thread_free_buffer).
 */
static inline void kbt_call(struct kbinder_thread *t, uint32_t handle,
			    uint32_t code, const struct kbinder_parcel *data,
			    struct kbinder_reply *reply)
{
	int err = kbinder_thread_transact(t, handle, code, data, 0, reply,
					  kbt_default_event, NULL, KBT_WAIT_MS);

	if (err)
		kbt_fail(__FILE__, __LINE__, true, "transact(%u, %#x): %s",
			 handle, code, kbt_strerr(err));
	if (reply->status != BR_REPLY)
		kbt_fail(__FILE__, __LINE__, true,
			 "transact(%u, %#x): got %s, want BR_REPLY", handle,
			 code, kbinder_return_name(reply->status));
}

/** kbt_log_extended_error() - log BINDER_GET_EXTENDED_ERROR, if any. */
static inline void kbt_log_extended_error(int fd)
{
	struct binder_extended_error ee;

	memset(&ee, 0, sizeof(ee));
	if (ioctl(fd, BINDER_GET_EXTENDED_ERROR, &ee) == 0 && ee.command &&
	    ee.command != BR_OK)
		kbt_log("extended error: id %u, %s, param %d (%s)", ee.id,
			kbinder_return_name(ee.command), ee.param,
			kbt_strerr(ee.param));
}

/** kbt_call_status() - a call whose outcome code is returned. */
static inline uint32_t kbt_call_status(struct kbinder_thread *t, uint32_t handle,
				       uint32_t code,
				       const struct kbinder_parcel *data,
				       uint32_t flags)
{
	struct kbinder_reply reply;
	int err = kbinder_thread_transact(t, handle, code, data, flags, &reply,
					  kbt_default_event, NULL, KBT_WAIT_MS);

	if (err)
		kbt_fail(__FILE__, __LINE__, true, "transact(%u, %#x): %s",
			 handle, code, kbt_strerr(err));
	if (reply.status == BR_REPLY)
		kbinder_thread_free_buffer(t, reply.txn.data.ptr.buffer);
	if (reply.status == BR_FAILED_REPLY || reply.status == BR_DEAD_REPLY)
		kbt_log_extended_error(t->fd);
	return reply.status;
}

/** kbt_quit() - make the server behind @handle leave kbt_serve(). */
static inline void kbt_quit(struct kbinder_thread *t, uint32_t handle)
{
	struct kbinder_reply reply;

	kbt_call(t, handle, KBT_CODE_QUIT, NULL, &reply);
	kbinder_thread_free_buffer(t, reply.txn.data.ptr.buffer);
}

/** kbt_stop() - quit a context manager server and check it exited 0. */
static inline void kbt_stop_ctxmgr(struct kbinder_thread *t, struct kbt_server *s)
{
	kbt_quit(t, 0);
	ASSERT_CHILD_OK(s->pid);
	kbt_chan_close(&s->chan);
}

/**
 * kbt_start_with_client() - fork a context manager serving with @fn
 * (kbt_start_ctxmgr()) and open this process's client of it on @p/@t.
 */
static inline void kbt_start_with_client(struct kbt_server *s,
					 kbt_handler_fn fn, void *arg,
					 struct kbinder_proc *p, struct kbinder_thread *t)
{
	kbt_start_ctxmgr(s, fn, arg);
	kbt_client(p, t);
}

/**
 * kbt_stop_with_client() - quit the context manager through @t, check it
 * exited 0 (kbt_stop_ctxmgr()) and close the client @p.
 */
static inline void kbt_stop_with_client(struct kbinder_thread *t,
					struct kbt_server *s,
					struct kbinder_proc *p)
{
	kbt_stop_ctxmgr(t, s);
	kbinder_proc_close(p);
}

/** kbt_expect() - the next event (skipping BR_NOOP) must be @cmd. */
static inline void kbt_expect_at(const char *file, int line,
				 struct kbinder_thread *t, uint32_t cmd,
				 struct kbinder_return *ret)
{
	int err;

	do {
		err = kbinder_thread_next(t, ret, KBT_WAIT_MS);
	} while (!err && ret->cmd == BR_NOOP);
	if (err)
		kbt_fail(file, line, true, "waiting for %s: %s",
			 kbinder_return_name(cmd), kbt_strerr(err));
	if (ret->cmd != cmd)
		kbt_fail(file, line, true, "got %s, want %s",
			 kbinder_return_name(ret->cmd), kbinder_return_name(cmd));
}
#define kbt_expect(t, cmd, ret) kbt_expect_at(__FILE__, __LINE__, t, cmd, ret)

/*
 * kbt_quiet_next() - the next event within @ms, for "nothing arrives"
 * checks: true with @ret filled when one came, false when the wait timed
 * out. Any other error from the driver fails the test (at @file:@line):
 * an error is not silence.
 */
static inline bool kbt_quiet_next(const char *file, int line,
				  struct kbinder_thread *t, struct kbinder_return *ret,
				  int64_t deadline)
{
	int64_t left = deadline - kbt_now_ms();
	int err;

	if (left <= 0)
		return false;
	err = kbinder_thread_next(t, ret, (int)left);
	if (err == -ETIMEDOUT)
		return false;
	if (err)
		kbt_fail(file, line, true,
			 "waiting for nothing to arrive: the driver said %d (%s)",
			 err, kbt_strerr(err));
	return true;
}

/**
 * kbt_no_event() - nothing but BR_NOOP arrives within @ms; returns the
 * unexpected command's code, or 0. A driver error fails the test.
 */
static inline uint32_t kbt_no_event_at(const char *file, int line,
				       struct kbinder_thread *t, int ms)
{
	int64_t deadline = kbt_now_ms() + ms;
	struct kbinder_return ret;

	while (kbt_quiet_next(file, line, t, &ret, deadline))
		if (ret.cmd != BR_NOOP)
			return ret.cmd;
	return 0;
}
#define kbt_no_event(t, ms) kbt_no_event_at(__FILE__, __LINE__, (t), (ms))

/**
 * kbt_no_work() - like kbt_no_event(), but reference-count commands
 * (BR_INCREFS/ACQUIRE/RELEASE/DECREFS) are handled and ignored. A driver
 * error fails the test.
 */
static inline uint32_t kbt_no_work_at(const char *file, int line,
				      struct kbinder_thread *t, int ms)
{
	int64_t deadline = kbt_now_ms() + ms;
	struct kbinder_return ret;

	while (kbt_quiet_next(file, line, t, &ret, deadline)) {
		switch (ret.cmd) {
		case BR_NOOP:
			continue;
		case BR_INCREFS:
		case BR_ACQUIRE:
		case BR_RELEASE:
		case BR_DECREFS:
			kbt_default_event(t, &ret, NULL);
			continue;
		default:
			return ret.cmd;
		}
	}
	return 0;
}
#define kbt_no_work(t, ms) kbt_no_work_at(__FILE__, __LINE__, (t), (ms))

/** kbt_fill() - a reproducible byte pattern. */
static inline void kbt_fill(void *buf, size_t n, uint32_t seed)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

/** kbt_txn_data() - the payload of a received transaction. */
static inline const uint8_t *kbt_txn_data(const struct binder_transaction_data *tr)
{
	return (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
}

/** kbt_txn_u32() - the @i-th u32 of a payload (0 if out of range). */
static inline uint32_t kbt_txn_u32(const struct binder_transaction_data *tr,
				   size_t i)
{
	uint32_t v = 0;

	if ((i + 1) * 4 <= tr->data_size)
		memcpy(&v, kbt_txn_data(tr) + i * 4, 4);
	return v;
}

/** kbt_txn_object() - the @i-th object of a payload. */
static inline void kbt_txn_object(const struct binder_transaction_data *tr,
				  size_t i, struct flat_binder_object *obj)
{
	struct kbinder_view v;

	kbinder_view_init(&v, tr);
	ASSERT_OK(kbinder_view_get_object(&v, i, obj));
}

/** kbt_reply_u32() - a one-u32 reply parcel. */
static inline void kbt_reply_u32(struct kbinder_parcel *reply, uint32_t v)
{
	kbinder_parcel_write_u32(reply, v);
}

#endif /* KBINDER_TEST_BINDER_UTIL_H */
