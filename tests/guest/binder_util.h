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

/** kbt_gettid() - the calling thread's id. */
pid_t kbt_gettid(void);

/**
 * kbt_outcome_str() - a reply call's result: "BR_DEAD_REPLY" and the like
 * for the driver's answer (positive), the errno's text otherwise.
 */
const char *kbt_outcome_str(int err);

/** kbt_open_dev() - open @dev (NULL: $BINDER_DEVICE) with a @map_size mapping (0: none). */
void kbt_open_dev(struct kbinder_proc *p, const char *dev, size_t map_size);
/** kbt_open() - open $BINDER_DEVICE with a KBT_MAP_SIZE mapping. */
void kbt_open(struct kbinder_proc *p);

/** kbt_client() - open $BINDER_DEVICE and make @t this thread's handle on it. */
void kbt_client(struct kbinder_proc *p, struct kbinder_thread *t);

/**
 * kbt_become_ctxmgr() - BINDER_SET_CONTEXT_MGR, retrying for a while on
 * EBUSY: the previous test's manager is released asynchronously (on the
 * debug kernel, on a loaded host, that took more than 5 s once).
 * Return: 0 or -errno.
 */
int kbt_become_ctxmgr(int fd, const struct flat_binder_object *ext);

/**
 * kbt_manager() - open $BINDER_DEVICE as its context manager (with node
 * object @ext, or NULL for a plain node) and enter the looper on @t: the
 * test process serves the calls its children make to handle 0.
 * kbinder_proc_close(@p) when done.
 */
void kbt_manager(struct kbinder_proc *p, struct kbinder_thread *t,
		 const struct flat_binder_object *ext);

/** kbt_default_event() - kbinder_thread_handle_default() that records failures. */
int kbt_default_event(struct kbinder_thread *t,
		      const struct kbinder_return *ret, void *arg);

/**
 * kbt_serve() - serve transactions on @t until KBT_CODE_QUIT arrives.
 * Return: 0 after QUIT, or the -errno that ended the loop.
 */
int kbt_serve(struct kbinder_thread *t, kbt_handler_fn fn, void *arg);

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

/**
 * kbt_server_main() - a kbt_server's process (kbt_fork(kbt_server_main,
 * s)): opens the device, sets @s's options, sends 'R' and serves.
 */
void kbt_server_main(void *arg);

/**
 * kbt_start_ctxmgr() - fork a context manager serving with @fn; returns
 * once it is ready.
 */
void kbt_start_ctxmgr(struct kbt_server *s, kbt_handler_fn fn,
		      void *arg);

/**
 * kbt_call() - a synchronous call that must get BR_REPLY; the caller frees
 * the reply buffer (kbinder_thread_free_buffer).
 */
void kbt_call(struct kbinder_thread *t, uint32_t handle,
	      uint32_t code, const struct kbinder_parcel *data,
	      struct kbinder_reply *reply);

/**
 * kbt_fork_client() - fork a child that opens $BINDER_DEVICE and runs
 * @fn(t, @arg) as a client of it, on its thread @t; the child closes the
 * device when @fn returns (kbt_fork() as to its exit status and fd check).
 * Return: its pid.
 */
#define kbt_fork_client(fn, arg) kbt_fork_client_named((fn), (arg), #fn)
pid_t kbt_fork_client_named(void (*fn)(struct kbinder_thread *t, void *arg),
			    void *arg, const char *name);

/**
 * struct kbt_oneway_call - what kbt_oneway_caller() does: once @chan says
 * 'G', open a client and, @delay_ms later, make one one-way call @code to
 * handle 0 (the context manager).
 */
struct kbt_oneway_call {
	struct kbt_chan *chan;
	uint32_t code;
	int delay_ms;
};
/** kbt_oneway_caller() - a child's function: kbt_fork(kbt_oneway_caller, &call). */
void kbt_oneway_caller(void *arg);

/** KBT_NO_HANDLE - kbt_keep_sent_handle() when the call carried no object. */
#define KBT_NO_HANDLE ((uint32_t)-1)
/**
 * kbt_keep_sent_handle() - if @tr carries an object (a handle), take a
 * strong reference on it that the receiving process keeps.
 * Return: the handle, or KBT_NO_HANDLE.
 */
uint32_t kbt_keep_sent_handle(struct kbinder_thread *t,
			      const struct binder_transaction_data *tr);
/**
 * kbt_keeper() - a kbt_handler_fn that keeps a strong reference on every
 * handle it is sent (kbt_keep_sent_handle()) and replies u32 1.
 */
int kbt_keeper(struct kbinder_thread *t, const struct binder_transaction_data *tr,
	       struct kbinder_parcel *reply, void *arg);
/** kbt_reply_arg() - a kbt_handler_fn that answers every call with u32 @arg. */
int kbt_reply_arg(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		  struct kbinder_parcel *reply, void *arg);
/**
 * kbt_reply_node() - a kbt_handler_fn that answers every call with a
 * reference to a node of the server's own: ptr @arg, cookie @arg + 1.
 */
int kbt_reply_node(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		   struct kbinder_parcel *reply, void *arg);
/**
 * kbt_watch_handles() - for every object (a handle) of @tr, in one write:
 * take a weak reference and ask for its death (the cookie is the handle).
 */
void kbt_watch_handles(struct kbinder_thread *t,
		       const struct binder_transaction_data *tr);
/**
 * kbt_deaf_manager() - a child's function (kbt_fork(kbt_deaf_manager,
 * chan)): a context manager with a 4 MiB mapping that never reads, so
 * one-way calls to it pile up; it says 'R' on @chan once it is the
 * manager and leaves when @chan says anything (or in 10 minutes).
 */
void kbt_deaf_manager(void *chan);

/** kbt_call_status() - a call whose outcome code is returned. */
uint32_t kbt_call_status(struct kbinder_thread *t, uint32_t handle,
			 uint32_t code,
			 const struct kbinder_parcel *data,
			 uint32_t flags);

/** kbt_quit() - make the server behind @handle leave kbt_serve(). */
void kbt_quit(struct kbinder_thread *t, uint32_t handle);

/** kbt_stop_ctxmgr() - quit a context manager server and check it exited 0. */
void kbt_stop_ctxmgr(struct kbinder_thread *t, struct kbt_server *s);
/** kbt_quit_ctxmgr() - the same through a client of its own, opened and closed. */
void kbt_quit_ctxmgr(struct kbt_server *s);

/**
 * kbt_start_with_client() - fork a context manager serving with @fn
 * (kbt_start_ctxmgr()) and open this process's client of it on @p/@t.
 */
void kbt_start_with_client(struct kbt_server *s,
			   kbt_handler_fn fn, void *arg,
			   struct kbinder_proc *p, struct kbinder_thread *t);

/**
 * kbt_stop_with_client() - quit the context manager through @t, check it
 * exited 0 (kbt_stop_ctxmgr()) and close the client @p.
 */
void kbt_stop_with_client(struct kbinder_thread *t,
			  struct kbt_server *s,
			  struct kbinder_proc *p);

/**
 * struct kbt_pair - the commonest scenario: a context manager serving
 * (kbt_serve()) in a forked process, and this process as its client.
 * @mgr: the manager's process
 * @p:   this process's connection
 * @t:   this thread's handle on it
 */
struct kbt_pair {
	struct kbt_server mgr;
	struct kbinder_proc p;
	struct kbinder_thread t;
};
/** kbt_pair_start() - fork the manager serving with @fn, @arg; open the client. */
void kbt_pair_start(struct kbt_pair *w, kbt_handler_fn fn, void *arg);
/** kbt_pair_stop() - quit the manager, check it exited 0, close the client. */
void kbt_pair_stop(struct kbt_pair *w);

/** kbt_expect() - the next event (skipping BR_NOOP) must be @cmd. */
void kbt_expect_at(const char *file, int line,
		   struct kbinder_thread *t, uint32_t cmd,
		   struct kbinder_return *ret);
#define kbt_expect(t, cmd, ret) kbt_expect_at(__FILE__, __LINE__, t, cmd, ret)

/*
 * kbt_quiet_next() - the next event within @ms, for "nothing arrives"
 * checks: true with @ret filled when one came, false when the wait timed
 * out. Any other error from the driver fails the test (at @file:@line):
 * an error is not silence.
 */
bool kbt_quiet_next(const char *file, int line,
		    struct kbinder_thread *t, struct kbinder_return *ret,
		    int64_t deadline);

/**
 * kbt_no_event() - nothing but BR_NOOP arrives within @ms; returns the
 * unexpected command's code, or 0. A driver error fails the test.
 */
uint32_t kbt_no_event_at(const char *file, int line,
			 struct kbinder_thread *t, int ms);
#define kbt_no_event(t, ms) kbt_no_event_at(__FILE__, __LINE__, (t), (ms))

/**
 * kbt_no_work() - like kbt_no_event(), but reference-count commands
 * (BR_INCREFS/ACQUIRE/RELEASE/DECREFS) are handled and ignored. A driver
 * error fails the test.
 */
uint32_t kbt_no_work_at(const char *file, int line,
			struct kbinder_thread *t, int ms);
#define kbt_no_work(t, ms) kbt_no_work_at(__FILE__, __LINE__, (t), (ms))

/* ---- raw transactions (fixtures/raw.c) ---- */

/**
 * struct kbt_txn - one raw transaction, sent as written.
 * @handle, @code, @flags: as in binder_transaction_data
 * @data, @size:           payload (may be NULL/0)
 * @offs, @offs_size:      offsets array and its size in bytes (any value)
 * @sg:                    send BC_TRANSACTION_SG with @sg_size extra bytes
 * @reply:                 send it as BC_REPLY (BC_REPLY_SG)
 */
struct kbt_txn {
	uint32_t handle;
	uint32_t code;
	uint32_t flags;
	const void *data;
	binder_size_t size;	/* the ABI's widths: a 32-bit test can lie too */
	const void *offs;
	binder_size_t offs_size;
	bool sg;
	binder_size_t sg_size;
	bool reply;
};

/** kbt_write_txn() - write the BC_TRANSACTION(_SG) of @x without reading. */
void kbt_write_txn(int fd, const struct kbt_txn *x);

/**
 * kbt_outcome() - read (each wait up to @ms) until the outcome of the
 * transaction just written: BR_REPLY (kept in @reply if not NULL, else
 * freed), BR_TRANSACTION_COMPLETE (or BR_ONEWAY_SPAM_SUSPECT, which
 * stands for it) for a one-way one, BR_FAILED_REPLY, BR_DEAD_REPLY or
 * BR_FROZEN_REPLY. Other work is handled by kbt_default_event().
 */
uint32_t kbt_outcome(struct kbinder_thread *t, bool oneway,
		     struct kbinder_reply *reply, int ms);

/** kbt_transact() - send @x and return its outcome (see kbt_outcome()). */
uint32_t kbt_transact(struct kbinder_thread *t, const struct kbt_txn *x,
		      struct kbinder_reply *reply);

/** ASSERT_STATUS() - an outcome is @want; the message names both. */
#define ASSERT_STATUS(got, want) do {					\
	uint32_t _g = (got), _w = (want);				\
	kbt_asserted();							\
	if (_g != _w)							\
		kbt_fail(__FILE__, __LINE__, true, "%s: got %s, want %s", \
			 #got, kbinder_return_name(_g),			\
			 kbinder_return_name(_w));			\
} while (0)

/** kbt_fill() - a reproducible byte pattern. */
void kbt_fill(void *buf, size_t n, uint32_t seed);

/** kbt_txn_data() - the payload of a received transaction. */
static inline const uint8_t *kbt_txn_data(const struct binder_transaction_data *tr)
{
	return (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
}

/** kbt_txn_u32() - the @i-th u32 of a payload (0 if out of range). */
uint32_t kbt_txn_u32(const struct binder_transaction_data *tr,
		     size_t i);

/** kbt_txn_object() - the @i-th object of a payload. */
void kbt_txn_object(const struct binder_transaction_data *tr,
		    size_t i, struct flat_binder_object *obj);

/**
 * kbt_enter_user_ns() - move the calling process into a new user namespace,
 *	where it is root (uid and gid 0 map to 0), and a private mount
 *	namespace; fails the test if it cannot
 */
void kbt_enter_user_ns(void);

#endif /* KBINDER_TEST_BINDER_UTIL_H */
