/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared fixtures of the regression programs (tests/guest/cve_*.c), on top
 * of the conformance fixtures in binder_util.h:
 *
 *  - cve_transact_hdr(): a raw transaction (binder_util.h's kbt_transact())
 *    with a header in front of its objects, as scatter-gather payloads have;
 *  - a "registry" context manager: other processes register a node in a
 *    slot, the registry holds a strong+weak reference on it, hands the
 *    handle out (GET), reports the node's counts (GET_NODE_INFO_FOR_REF,
 *    which only a context manager may use) and drops it (DROP);
 *  - a node owner process that registers one node and counts the
 *    BR_INCREFS/BR_ACQUIRE/BR_RELEASE/BR_DECREFS it gets: an over-release
 *    shows up as an early BR_RELEASE, a leaked reference as a missing one;
 *  - scatter-gather object builders (BINDER_TYPE_PTR, BINDER_TYPE_FDA).
 */
#ifndef KBINDER_TEST_CVE_COMMON_H
#define KBINDER_TEST_CVE_COMMON_H

#include "binder_util.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#define CVE_HDR 8

/**
 * cve_transact_hdr() - kbt_transact() with CVE_HDR zero bytes put in front
 * of the payload and every offset moved by as much. Scatter-gather payloads
 * look like this in practice (a header before the first object); the
 * upstream driver refuses a fix-up whose parent buffer object sits at offset
 * 0, so valid trees are sent this way.
 */
uint32_t cve_transact_hdr(struct kbinder_thread *t,
			  const struct kbt_txn *x,
			  struct kbinder_reply *reply);

/* ---------------------------------------------------------------- */
/* object builders                                                   */
/* ---------------------------------------------------------------- */

/**
 * cve_put_flat() - a flat_binder_object of @type at @data + @at: a binder
 * (ptr @binder_or_handle) or a handle, that accepts fds.
 */
void cve_put_flat(uint8_t *data, size_t at, uint32_t type,
		  binder_uintptr_t binder_or_handle,
		  binder_uintptr_t cookie);

/** cve_put_fd() - a BINDER_TYPE_FD object for @fd at @data + @at. */
void cve_put_fd(uint8_t *data, size_t at, int fd);

/** cve_put_ptr() - a BINDER_TYPE_PTR object (40 bytes). */
void cve_put_ptr(uint8_t *data, size_t at, const void *buf,
		 size_t len, bool has_parent, size_t parent,
		 size_t parent_offset);

/** cve_put_fda() - a BINDER_TYPE_FDA object (32 bytes). */
void cve_put_fda(uint8_t *data, size_t at, size_t num_fds,
		 size_t parent, size_t parent_offset);

#define CVE_FLAT_SIZE sizeof(struct flat_binder_object)

/**
 * struct cve_flats - a payload of flat objects, one every CVE_FLAT_SIZE
 * bytes, with its offsets array and @x, the CVE_NOP call that sends them.
 */
#define CVE_MAX_FLATS 8
struct cve_flats {
	uint8_t data[CVE_MAX_FLATS * CVE_FLAT_SIZE];
	binder_size_t offs[CVE_MAX_FLATS];
	struct kbt_txn x;
};
/** cve_flats_init() - @n zeroed objects at offsets 0, 24, ...: @f->x sends them. */
void cve_flats_init(struct cve_flats *f, size_t n);
#define CVE_PTR_SIZE sizeof(struct binder_buffer_object)
#define CVE_FDA_SIZE sizeof(struct binder_fd_array_object)

/* ---------------------------------------------------------------- */
/* servers                                                           */
/* ---------------------------------------------------------------- */

/**
 * struct cve_server - a forked context manager (see kbt_server).
 * @k:        the conformance fixture's server state
 * @map_size: its receive mapping (0: KBT_MAP_SIZE)
 * @threads:  extra looper threads serving the same handler (0: none)
 */
struct cve_server {
	struct kbt_server k;
	size_t map_size;
	int threads;
};

/**
 * cve_server_start() - fork a context manager that accepts fds and serves
 * with @fn; returns once it serves.
 */
void cve_server_start(struct cve_server *s, size_t map_size,
		      kbt_handler_fn fn, void *arg);

/** cve_server_stop() - quit the server (through @t) and reap it. */
void cve_server_stop(struct kbinder_thread *t, struct cve_server *s);

/* ---------------------------------------------------------------- */
/* the registry                                                      */
/* ---------------------------------------------------------------- */

enum {
	CVE_PING = 0x100,	/* reply u32 CVE_PONG */
	CVE_REG,		/* object 0: a handle; u32 slot after it */
	CVE_GET,		/* u32 slot; reply: handle object, u32 handle */
	CVE_INFO,		/* u32 slot; reply: i32 err, u32 strong, u32 weak */
	CVE_DROP,		/* u32 slot */
	CVE_NOP,		/* just free (one-way or sync) */
	CVE_SG_SUM,		/* reply: per object type, length, sum of bytes;
				 * then the number of received fds open */
	CVE_BAD_REPLY,		/* u32 slot, u32 order: reply with slot's handle
				 * and an unknown one (order 1: unknown first) */
};

#define CVE_PONG 0x900d
#define CVE_SLOTS 8

uint32_t cve_sum(const void *buf, size_t n);

/** cve_registry_start() - fork the registry context manager. */
void cve_registry_start(struct cve_server *s);

/** cve_ping() - the registry (or any cve server) answers a ping. */
void cve_ping(struct kbinder_thread *t, uint32_t handle);

/**
 * struct cve_info - a registered node's counts as its registry sees them.
 * @err:    0, or the ioctl's -errno
 * @strong: strong_count of GET_NODE_INFO_FOR_REF
 * @weak:   weak_count
 */
struct cve_info {
	int32_t err;
	uint32_t strong;
	uint32_t weak;
};

struct cve_info cve_info(struct kbinder_thread *t, uint32_t slot);

#define ASSERT_INFO_EQ(a, b) do {					\
	struct cve_info _x = (a), _y = (b);				\
	kbt_asserted();							\
	if (_x.err != _y.err || _x.strong != _y.strong || _x.weak != _y.weak) \
		kbt_fail(__FILE__, __LINE__, true,			\
			 "node counts changed: err %d strong %u weak %u, " \
			 "was err %d strong %u weak %u", _x.err, _x.strong, \
			 _x.weak, _y.err, _y.strong, _y.weak);		\
} while (0)

/**
 * cve_get() - the handle registered in @slot, as a handle of the caller;
 * the reply buffer (which holds the reference) is kept in @r.
 * Return: the handle, or -1 if the slot is empty.
 */
int64_t cve_get(struct kbinder_thread *t, uint32_t slot,
		struct kbinder_reply *r);

void cve_drop(struct kbinder_thread *t, uint32_t slot);

/* ---------------------------------------------------------------- */
/* the node owner                                                    */
/* ---------------------------------------------------------------- */

/**
 * struct cve_owner - a process that owns one node and registers it.
 * @pid:    its pid
 * @chan:   commands: 'c' -> it sends struct cve_counts; 'x' -> it exits
 * @slot:   registry slot
 * @ptr:    the node's ptr (and cookie)
 * @unacked: register with a write-only one-way transaction and never read:
 *          the node's BR_INCREFS/BR_ACQUIRE stay queued until it exits
 */
struct cve_owner {
	pid_t pid;
	struct kbt_chan chan;
	uint32_t slot;
	binder_uintptr_t ptr;
	bool unacked;
};

/** struct cve_counts - ref-count commands an owner received for its node. */
struct cve_counts {
	uint32_t increfs;
	uint32_t acquire;
	uint32_t release;
	uint32_t decrefs;
	uint32_t transactions;
};

/** cve_owner_start() - fork an owner; returns once its node is registered. */
void cve_owner_start(struct cve_owner *o, uint32_t slot,
		     binder_uintptr_t ptr, bool unacked);

struct cve_counts cve_owner_counts(struct cve_owner *o);

void cve_owner_stop(struct cve_owner *o);

/**
 * cve_owner_expect_released() - within 5 s the owner has been told
 * BR_RELEASE and BR_DECREFS for its node (nothing holds it any more).
 */
void cve_owner_expect_released(struct cve_owner *o);

/* ---------------------------------------------------------------- */
/* a world: registry + owner + the test process holding a handle     */
/* ---------------------------------------------------------------- */

/**
 * struct cve_world - the registry, an owner whose node sits in slot 0, and
 * the test process (@p, @t) holding a handle @h to that node (its reference
 * lives in the kept GET reply @get). @rh is the registry's own handle
 * number for the node; @info0 its counts at the start.
 */
struct cve_world {
	struct cve_server r;
	struct cve_owner o;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply get;
	uint32_t h;
	uint32_t rh;
	struct cve_info info0;
};

#define CVE_OWNER_PTR ((binder_uintptr_t)0xb0b0b000)

void cve_world_up(struct cve_world *w);

/*
 * Drain the test thread's events (acking ref-count work) until it owns no
 * node any more (BINDER_GET_NODE_DEBUG_INFO finds none), for up to 3 s.
 */
void cve_expect_no_nodes(struct kbinder_thread *t);

/**
 * cve_world_check_down() - the node's counts are what they were, its owner
 * was never told to release it; then everything holding it lets go and the
 * owner must be told BR_RELEASE and BR_DECREFS exactly once (no leaked
 * reference); the registry still serves and quits.
 */
void cve_world_check_down(struct cve_world *w);

/* ---------------------------------------------------------------- */
/* misc                                                              */
/* ---------------------------------------------------------------- */

/**
 * cve_pipe_hangs_up() - true if the read end @rfd sees end-of-file within
 * @ms: every copy of the write end, including any the driver holds, is
 * closed.
 */
bool cve_pipe_hangs_up(int rfd, int ms);

/** cve_deadline_passed() - helper for time-bounded stress loops. */
bool cve_deadline_passed(int64_t deadline);

#endif /* KBINDER_TEST_CVE_COMMON_H */
