/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared fixtures of the regression programs (tests/guest/cve_*.c), on top
 * of the conformance fixtures in binder_util.h:
 *
 *  - cve_transact(): send one raw transaction (any data, offsets, sizes,
 *    scatter-gather) and return its outcome (BR_REPLY, BR_FAILED_REPLY, ...);
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

/* ---------------------------------------------------------------- */
/* raw transactions                                                  */
/* ---------------------------------------------------------------- */

/**
 * struct cve_txn - one raw transaction.
 * @handle, @code, @flags: as in binder_transaction_data
 * @data, @size:           payload (may be NULL/0)
 * @offs, @offs_size:      offsets array and its size in bytes (any value)
 * @sg:                    send BC_TRANSACTION_SG with @sg_size extra bytes
 * @reply:                 send it as BC_REPLY (BC_REPLY_SG)
 */
struct cve_txn {
	uint32_t handle;
	uint32_t code;
	uint32_t flags;
	const void *data;
	size_t size;
	const void *offs;
	size_t offs_size;
	bool sg;
	size_t sg_size;
	bool reply;
};

/** cve_write_txn() - write the BC_TRANSACTION(_SG) of @x without reading. */
static inline void cve_write_txn(int fd, const struct cve_txn *x)
{
	struct binder_transaction_data_sg sg;
	struct binder_transaction_data *tr = &sg.transaction_data;
	uint8_t wbuf[128];
	struct kbinder_writer w;

	memset(&sg, 0, sizeof(sg));
	tr->target.handle = x->handle;
	tr->code = x->code;
	tr->flags = x->flags;
	tr->data_size = x->size;
	tr->offsets_size = x->offs_size;
	tr->data.ptr.buffer = (binder_uintptr_t)(uintptr_t)x->data;
	tr->data.ptr.offsets = (binder_uintptr_t)(uintptr_t)x->offs;
	sg.buffers_size = x->sg_size;
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	if (x->sg)
		kbinder_writer_put_txn_sg(&w, x->reply ? BC_REPLY_SG : BC_TRANSACTION_SG, &sg);
	else
		kbinder_writer_put_txn(&w, x->reply ? BC_REPLY : BC_TRANSACTION, tr);
	ASSERT_OK(w.err);
	ASSERT_OK(kbinder_ioctl_write(fd, wbuf, w.len, NULL));
}

/**
 * cve_outcome() - read until the outcome of the transaction just written:
 * BR_REPLY (kept in @reply if not NULL, else freed), BR_TRANSACTION_COMPLETE
 * for a one-way one, BR_FAILED_REPLY, BR_DEAD_REPLY or BR_FROZEN_REPLY.
 */
static inline uint32_t cve_outcome(struct kbinder_thread *t, bool oneway,
				   struct kbinder_reply *reply)
{
	struct kbinder_return ret;

	if (reply)
		memset(reply, 0, sizeof(*reply));
	for (;;) {
		ASSERT_OK(kbinder_thread_next(t, &ret, KBT_WAIT_MS));
		switch (ret.cmd) {
		case BR_NOOP:
			continue;
		case BR_TRANSACTION_COMPLETE:
			if (oneway)
				return ret.cmd;
			continue;
		case BR_REPLY:
			if (reply) {
				reply->status = BR_REPLY;
				reply->txn = ret.u.txn;
			} else {
				kbinder_thread_free_buffer(t, ret.u.txn.data.ptr.buffer);
			}
			return ret.cmd;
		case BR_FAILED_REPLY:
		case BR_DEAD_REPLY:
		case BR_FROZEN_REPLY:
			return ret.cmd;
		default:
			kbt_default_event(t, &ret, NULL);
		}
	}
}

/** cve_transact() - send @x and return its outcome (see cve_outcome()). */
static inline uint32_t cve_transact(struct kbinder_thread *t,
				    const struct cve_txn *x,
				    struct kbinder_reply *reply)
{
	cve_write_txn(t->fd, x);
	return cve_outcome(t, x->flags & TF_ONE_WAY, reply);
}

#define CVE_HDR 8

/**
 * cve_transact_hdr() - cve_transact() with CVE_HDR zero bytes put in front
 * of the payload and every offset moved by as much. Scatter-gather payloads
 * look like this in practice (a header before the first object); the
 * upstream driver refuses a fix-up whose parent buffer object sits at offset
 * 0, so valid trees are sent this way.
 */
static inline uint32_t cve_transact_hdr(struct kbinder_thread *t,
					const struct cve_txn *x,
					struct kbinder_reply *reply)
{
	size_t n = x->offs_size / sizeof(binder_size_t), i;
	uint8_t *data = calloc(1, CVE_HDR + x->size);
	binder_size_t *offs = calloc(n + 1, sizeof(*offs));
	struct cve_txn y = *x;
	uint32_t st;

	ASSERT_TRUE(data && offs);
	memcpy(data + CVE_HDR, x->data, x->size);
	for (i = 0; i < n; i++)
		offs[i] = ((const binder_size_t *)x->offs)[i] + CVE_HDR;
	y.data = data;
	y.size = CVE_HDR + x->size;
	y.offs = offs;
	st = cve_transact(t, &y, reply);
	free(data);
	free(offs);
	return st;
}

/** cve_status_name() - a printable outcome. */
static inline const char *cve_status_name(uint32_t st)
{
	return kbinder_return_name(st);
}

#define ASSERT_STATUS(got, want) do {					\
	uint32_t _g = (got), _w = (want);				\
	if (_g != _w)							\
		kbt_fail(__FILE__, __LINE__, true, "%s: got %s, want %s", \
			 #got, cve_status_name(_g), cve_status_name(_w)); \
} while (0)

/* ---------------------------------------------------------------- */
/* object builders                                                   */
/* ---------------------------------------------------------------- */

static inline void cve_put_flat(uint8_t *data, size_t at, uint32_t type,
				binder_uintptr_t binder_or_handle,
				binder_uintptr_t cookie)
{
	struct flat_binder_object obj;

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = type;
	obj.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS;
	if (type == BINDER_TYPE_HANDLE || type == BINDER_TYPE_WEAK_HANDLE)
		obj.handle = (uint32_t)binder_or_handle;
	else
		obj.binder = binder_or_handle;
	obj.cookie = cookie;
	memcpy(data + at, &obj, sizeof(obj));
}

static inline void cve_put_fd(uint8_t *data, size_t at, int fd)
{
	struct binder_fd_object obj;

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BINDER_TYPE_FD;
	obj.fd = (uint32_t)fd;
	memcpy(data + at, &obj, sizeof(obj));
}

/** cve_put_ptr() - a BINDER_TYPE_PTR object (40 bytes). */
static inline void cve_put_ptr(uint8_t *data, size_t at, const void *buf,
			       size_t len, bool has_parent, size_t parent,
			       size_t parent_offset)
{
	struct binder_buffer_object obj;

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BINDER_TYPE_PTR;
	obj.flags = has_parent ? BINDER_BUFFER_FLAG_HAS_PARENT : 0;
	obj.buffer = (binder_uintptr_t)(uintptr_t)buf;
	obj.length = len;
	obj.parent = parent;
	obj.parent_offset = parent_offset;
	memcpy(data + at, &obj, sizeof(obj));
}

/** cve_put_fda() - a BINDER_TYPE_FDA object (32 bytes). */
static inline void cve_put_fda(uint8_t *data, size_t at, size_t num_fds,
			       size_t parent, size_t parent_offset)
{
	struct binder_fd_array_object obj;

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BINDER_TYPE_FDA;
	obj.num_fds = num_fds;
	obj.parent = parent;
	obj.parent_offset = parent_offset;
	memcpy(data + at, &obj, sizeof(obj));
}

#define CVE_FLAT_SIZE sizeof(struct flat_binder_object)
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

/*
 * The server's fd table once it serves (in the server's own process): fds
 * that transactions install must be accounted against it (CVE_SG_SUM
 * reports how many are open while it handles a call, and the table must be
 * back to it when the server quits).
 */
static struct kbt_fd_snap cve_srv_fds;

struct cve_looper_arg {
	struct cve_server *s;
	int fd;
};

static inline void *cve_looper(void *arg)
{
	struct cve_looper_arg *a = arg;
	struct kbinder_thread t;

	kbinder_thread_init(&t, a->fd);
	if (kbinder_thread_register_looper(&t))
		return NULL;
	kbt_serve(&t, a->s->k.fn, a->s->k.arg);
	return NULL;
}

static inline void cve_server_main(void *arg)
{
	static const struct flat_binder_object fds_ok = {
		.hdr.type = BINDER_TYPE_BINDER,
		.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS,
	};
	struct cve_server *s = arg;
	struct cve_looper_arg la = { s, -1 };
	struct kbinder_thread t;
	struct kbinder_proc p;
	pthread_t th;
	int i;

	kbt_open_dev(&p, NULL, s->map_size ? s->map_size : KBT_MAP_SIZE);
	la.fd = p.fd;
	ASSERT_OK(kbinder_ioctl_set_max_threads(p.fd, (uint32_t)s->threads));
	ASSERT_OK(kbt_become_ctxmgr(p.fd, &fds_ok));
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_OK(kbt_fd_snapshot(&cve_srv_fds));
	for (i = 0; i < s->threads; i++)
		ASSERT_EQ(pthread_create(&th, NULL, cve_looper, &la), 0);
	ASSERT_SIGNAL(&s->k.chan, 'R');
	kbt_serve(&t, s->k.fn, s->k.arg);
	/*
	 * The other loopers may still block in the driver: just leave, with
	 * the binder fd open; but every fd a transaction brought must be gone
	 * (fd arrays are closed by the driver when their buffer is freed).
	 */
	kbt_fd_check(&cve_srv_fds, "child cve_server_main");
	_exit(kbt_failed() ? 1 : 0);
}

/**
 * cve_server_start() - fork a context manager that accepts fds and serves
 * with @fn; returns once it serves.
 */
static inline void cve_server_start(struct cve_server *s, size_t map_size,
				    kbt_handler_fn fn, void *arg)
{
	memset(s, 0, sizeof(*s));
	s->map_size = map_size;
	s->k.fn = fn;
	s->k.arg = arg;
	kbt_chan_init(&s->k.chan);
	s->k.pid = kbt_fork(cve_server_main, s);
	ASSERT_WAIT(&s->k.chan, 'R');
}

/** cve_server_stop() - quit the server (through @t) and reap it. */
static inline void cve_server_stop(struct kbinder_thread *t, struct cve_server *s)
{
	kbt_quit(t, 0);
	ASSERT_CHILD_OK(s->k.pid);
	kbt_chan_close(&s->k.chan);
}

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

/* Registry state, in the registry's own (forked) process. */
static uint32_t cve_reg_handle[CVE_SLOTS];
static bool cve_reg_used[CVE_SLOTS];

static inline uint32_t cve_sum(const void *buf, size_t n)
{
	const uint8_t *p = buf;
	uint32_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s = s * 31 + p[i];
	return s;
}

/*
 * Describe every object of @tr into @reply (see CVE_SG_SUM); then the number
 * of fds this process has beyond its table when it started serving: those
 * the transaction's fd objects and arrays installed.
 */
static inline void cve_sg_describe(const struct binder_transaction_data *tr,
				   struct kbinder_parcel *reply)
{
	const uint8_t *data = kbt_txn_data(tr);
	const binder_size_t *offs =
		(const binder_size_t *)(uintptr_t)tr->data.ptr.offsets;
	size_t i, n = tr->offsets_size / sizeof(binder_size_t);

	kbinder_parcel_write_u32(reply, (uint32_t)n);
	for (i = 0; i < n; i++) {
		struct binder_object_header hdr;
		struct binder_buffer_object bo;
		struct binder_fd_array_object fda;

		memcpy(&hdr, data + offs[i], sizeof(hdr));
		kbinder_parcel_write_u32(reply, hdr.type);
		if (hdr.type == BINDER_TYPE_PTR) {
			memcpy(&bo, data + offs[i], sizeof(bo));
			kbinder_parcel_write_u32(reply, (uint32_t)bo.length);
			kbinder_parcel_write_u32(reply,
				cve_sum((const void *)(uintptr_t)bo.buffer,
					bo.length));
		} else if (hdr.type == BINDER_TYPE_FDA) {
			memcpy(&fda, data + offs[i], sizeof(fda));
			kbinder_parcel_write_u32(reply, (uint32_t)fda.num_fds);
			kbinder_parcel_write_u32(reply, (uint32_t)fda.parent_offset);
		} else {
			kbinder_parcel_write_u32(reply, 0);
			kbinder_parcel_write_u32(reply, 0);
		}
	}
	kbinder_parcel_write_u32(reply,
				 (uint32_t)kbt_fd_changes_since(&cve_srv_fds, NULL));
}

static inline int cve_registry_fn(struct kbinder_thread *t,
				  const struct binder_transaction_data *tr,
				  struct kbinder_parcel *reply, void *arg)
{
	struct flat_binder_object obj;
	struct binder_node_info_for_ref info;
	uint32_t slot;
	int err;

	(void)arg;
	switch (tr->code) {
	case CVE_PING:
		kbinder_parcel_write_u32(reply, CVE_PONG);
		break;
	case CVE_REG:
		slot = kbt_txn_u32(tr, CVE_FLAT_SIZE / 4) % CVE_SLOTS;
		kbt_txn_object(tr, 0, &obj);
		EXPECT_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
		if (cve_reg_used[slot]) {
			kbinder_thread_ref(t, BC_RELEASE, cve_reg_handle[slot]);
			kbinder_thread_ref(t, BC_DECREFS, cve_reg_handle[slot]);
		}
		EXPECT_OK(kbinder_thread_ref(t, BC_INCREFS, obj.handle));
		EXPECT_OK(kbinder_thread_ref(t, BC_ACQUIRE, obj.handle));
		cve_reg_handle[slot] = obj.handle;
		cve_reg_used[slot] = true;
		break;
	case CVE_GET:
		slot = kbt_txn_u32(tr, 0) % CVE_SLOTS;
		if (!cve_reg_used[slot])
			break;	/* empty reply: not registered (yet) */
		kbinder_parcel_write_handle(reply, cve_reg_handle[slot], 0, false);
		kbinder_parcel_write_u32(reply, cve_reg_handle[slot]);
		break;
	case CVE_INFO:
		slot = kbt_txn_u32(tr, 0) % CVE_SLOTS;
		memset(&info, 0, sizeof(info));
		info.handle = cve_reg_handle[slot];
		err = cve_reg_used[slot] ? kbinder_ioctl_node_info_for_ref(t->fd, &info)
					 : -ENOENT;
		kbinder_parcel_write_u32(reply, (uint32_t)err);
		kbinder_parcel_write_u32(reply, info.strong_count);
		kbinder_parcel_write_u32(reply, info.weak_count);
		break;
	case CVE_DROP:
		slot = kbt_txn_u32(tr, 0) % CVE_SLOTS;
		if (cve_reg_used[slot]) {
			EXPECT_OK(kbinder_thread_ref(t, BC_RELEASE, cve_reg_handle[slot]));
			EXPECT_OK(kbinder_thread_ref(t, BC_DECREFS, cve_reg_handle[slot]));
			cve_reg_used[slot] = false;
		}
		break;
	case CVE_SG_SUM:
		cve_sg_describe(tr, reply);
		break;
	case CVE_BAD_REPLY: {
		uint8_t d[2 * CVE_FLAT_SIZE];
		binder_size_t o[2] = { 0, CVE_FLAT_SIZE };
		bool bad_first = kbt_txn_u32(tr, 1);
		struct cve_txn x = { .reply = true, .data = d, .size = sizeof(d),
				     .offs = o, .offs_size = sizeof(o) };

		slot = kbt_txn_u32(tr, 0) % CVE_SLOTS;
		cve_put_flat(d, bad_first ? CVE_FLAT_SIZE : 0, BINDER_TYPE_HANDLE,
			     cve_reg_handle[slot], 0);
		cve_put_flat(d, bad_first ? 0 : CVE_FLAT_SIZE, BINDER_TYPE_HANDLE,
			     0x7777, 0);
		/* upstream tells the replier BR_TRANSACTION_COMPLETE anyway */
		cve_write_txn(t->fd, &x);
		cve_outcome(t, true, NULL);
		return KBT_REPLIED;
	}
	default:
		break;
	}
	return KBT_REPLY;
}

/** cve_registry_start() - fork the registry context manager. */
static inline void cve_registry_start(struct cve_server *s)
{
	cve_server_start(s, 0, cve_registry_fn, NULL);
}

/** cve_call_u32() - a sync call with one u32 argument; reply kept. */
static inline void cve_call_u32(struct kbinder_thread *t, uint32_t handle,
				uint32_t code, uint32_t v, struct kbinder_reply *r)
{
	struct kbinder_parcel p;

	kbinder_parcel_init(&p);
	kbinder_parcel_write_u32(&p, v);
	kbt_call(t, handle, code, &p, r);
	kbinder_parcel_fini(&p);
}

/** cve_ping() - the registry (or any cve server) answers a ping. */
static inline void cve_ping(struct kbinder_thread *t, uint32_t handle)
{
	struct kbinder_reply r;

	cve_call_u32(t, handle, CVE_PING, 0, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), CVE_PONG);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
}

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

static inline struct cve_info cve_info(struct kbinder_thread *t, uint32_t slot)
{
	struct cve_info i;
	struct kbinder_reply r;

	cve_call_u32(t, 0, CVE_INFO, slot, &r);
	i.err = (int32_t)kbt_txn_u32(&r.txn, 0);
	i.strong = kbt_txn_u32(&r.txn, 1);
	i.weak = kbt_txn_u32(&r.txn, 2);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
	return i;
}

#define ASSERT_INFO_EQ(a, b) do {					\
	struct cve_info _x = (a), _y = (b);				\
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
static inline int64_t cve_get(struct kbinder_thread *t, uint32_t slot,
			      struct kbinder_reply *r)
{
	struct flat_binder_object obj;

	cve_call_u32(t, 0, CVE_GET, slot, r);
	if (r->txn.offsets_size == 0) {
		kbinder_thread_free_buffer(t, r->txn.data.ptr.buffer);
		return -1;
	}
	kbt_txn_object(&r->txn, 0, &obj);
	ASSERT_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
	return obj.handle;
}

/** cve_registry_handle() - the registry's own number for @slot's handle. */
static inline uint32_t cve_registry_handle(const struct kbinder_reply *get_reply)
{
	return kbt_txn_u32(&get_reply->txn, CVE_FLAT_SIZE / 4);
}

static inline void cve_drop(struct kbinder_thread *t, uint32_t slot)
{
	struct kbinder_reply r;

	cve_call_u32(t, 0, CVE_DROP, slot, &r);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
}

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

static inline void cve_owner_register(struct cve_owner *o, struct kbinder_thread *t)
{
	uint8_t data[CVE_FLAT_SIZE + 4];
	binder_size_t off = 0;
	uint32_t slot = o->slot;
	struct cve_txn x = {
		.handle = 0, .code = CVE_REG, .data = data,
		.size = sizeof(data), .offs = &off, .offs_size = sizeof(off),
	};

	cve_put_flat(data, 0, BINDER_TYPE_BINDER, o->ptr, o->ptr);
	memcpy(data + CVE_FLAT_SIZE, &slot, 4);
	if (o->unacked) {
		x.flags = TF_ONE_WAY;
		cve_write_txn(t->fd, &x);
		return;
	}
	ASSERT_STATUS(cve_transact(t, &x, NULL), BR_REPLY);
}

/* Count one event of the owner's node; serve transactions to it. */
static inline void cve_owner_event(struct kbinder_thread *t, struct kbinder_return *ret,
				   struct cve_counts *c)
{
	switch (ret->cmd) {
	case BR_INCREFS:
		c->increfs++;
		break;
	case BR_ACQUIRE:
		c->acquire++;
		break;
	case BR_RELEASE:
		c->release++;
		break;
	case BR_DECREFS:
		c->decrefs++;
		break;
	case BR_TRANSACTION:
		c->transactions++;
		break;
	default:
		break;
	}
	if (ret->cmd != BR_NOOP)
		kbt_default_event(t, ret, NULL);
}

static inline void cve_owner_main(void *arg)
{
	struct cve_owner *o = arg;
	struct cve_counts c;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc p;
	char cmd;

	memset(&c, 0, sizeof(c));
	kbt_client(&p, &t);
	if (o->unacked) {
		cve_owner_register(o, &t);
		ASSERT_SIGNAL(&o->chan, 'R');
		/* never read: leave when told to, work still queued */
		kbt_recv(&o->chan, &cmd, 1, 60000);
		_exit(0);
	}
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	cve_owner_register(o, &t);
	ASSERT_SIGNAL(&o->chan, 'R');
	for (;;) {
		while (kbinder_thread_next(&t, &ret, 10) == 0)
			cve_owner_event(&t, &ret, &c);
		if (kbt_recv(&o->chan, &cmd, 1, 10))
			continue;
		if (cmd == 'x')
			break;
		if (cmd == 'c') {
			while (kbinder_thread_next(&t, &ret, 50) == 0)
				cve_owner_event(&t, &ret, &c);
			ASSERT_OK(kbt_send(&o->chan, &c, sizeof(c)));
		}
	}
	kbinder_proc_close(&p);
}

/** cve_owner_start() - fork an owner; returns once its node is registered. */
static inline void cve_owner_start(struct cve_owner *o, uint32_t slot,
				   binder_uintptr_t ptr, bool unacked)
{
	o->slot = slot;
	o->ptr = ptr;
	o->unacked = unacked;
	kbt_chan_init(&o->chan);
	o->pid = kbt_fork(cve_owner_main, o);
	ASSERT_WAIT(&o->chan, 'R');
}

static inline struct cve_counts cve_owner_counts(struct cve_owner *o)
{
	struct cve_counts c;

	ASSERT_SIGNAL(&o->chan, 'c');
	ASSERT_OK(kbt_recv(&o->chan, &c, sizeof(c), KBT_WAIT_MS));
	return c;
}

static inline void cve_owner_stop(struct cve_owner *o)
{
	ASSERT_SIGNAL(&o->chan, 'x');
	ASSERT_CHILD_OK(o->pid);
	kbt_chan_close(&o->chan);
}

/**
 * cve_owner_expect_released() - within 5 s the owner has been told
 * BR_RELEASE and BR_DECREFS for its node (nothing holds it any more).
 */
static inline void cve_owner_expect_released(struct cve_owner *o)
{
	int64_t deadline = kbt_now_ms() + 5000;
	struct cve_counts c;

	do {
		c = cve_owner_counts(o);
		if (c.release >= 1 && c.decrefs >= 1)
			break;
	} while (kbt_now_ms() < deadline);
	if (c.release != 1 || c.decrefs != 1)
		kbt_fail(__FILE__, __LINE__, true,
			 "node not released exactly once: increfs %u acquire %u release %u decrefs %u",
			 c.increfs, c.acquire, c.release, c.decrefs);
}

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

static inline void cve_world_up(struct cve_world *w)
{
	int64_t h;

	cve_registry_start(&w->r);
	cve_owner_start(&w->o, 0, CVE_OWNER_PTR, false);
	kbt_client(&w->p, &w->t);
	h = cve_get(&w->t, 0, &w->get);
	ASSERT_GE(h, 0);
	w->h = (uint32_t)h;
	w->rh = cve_registry_handle(&w->get);
	w->info0 = cve_info(&w->t, 0);
	ASSERT_EQ(w->info0.err, 0);
	ASSERT_GE(w->info0.strong, 1);
}

/*
 * Drain the test thread's events (acking ref-count work) until it owns no
 * node any more (BINDER_GET_NODE_DEBUG_INFO finds none), for up to 3 s.
 */
static inline void cve_expect_no_nodes(struct kbinder_thread *t)
{
	int64_t deadline = kbt_now_ms() + 3000;
	struct binder_node_debug_info info;
	struct kbinder_return ret;

	for (;;) {
		while (kbinder_thread_next(t, &ret, 20) == 0)
			if (ret.cmd != BR_NOOP)
				kbt_default_event(t, &ret, NULL);
		memset(&info, 0, sizeof(info));
		ASSERT_OK(kbinder_ioctl_node_debug_info(t->fd, &info));
		if (info.ptr == 0)
			return;
		if (kbt_now_ms() >= deadline)
			kbt_fail(__FILE__, __LINE__, true,
				 "a node (ptr %#llx) is still alive",
				 (unsigned long long)info.ptr);
	}
}

/**
 * cve_world_check_down() - the node's counts are what they were, its owner
 * was never told to release it; then everything holding it lets go and the
 * owner must be told BR_RELEASE and BR_DECREFS exactly once (no leaked
 * reference); the registry still serves and quits.
 */
static inline void cve_world_check_down(struct cve_world *w)
{
	struct cve_counts c;

	ASSERT_INFO_EQ(cve_info(&w->t, 0), w->info0);
	c = cve_owner_counts(&w->o);
	if (c.release || c.decrefs)
		kbt_fail(__FILE__, __LINE__, true,
			 "owner told to release its node too early: release %u decrefs %u",
			 c.release, c.decrefs);
	cve_ping(&w->t, 0);
	ASSERT_OK(kbinder_thread_free_buffer(&w->t, w->get.txn.data.ptr.buffer));
	cve_drop(&w->t, 0);
	cve_owner_expect_released(&w->o);
	cve_owner_stop(&w->o);
	cve_server_stop(&w->t, &w->r);
	kbinder_proc_close(&w->p);
}

/* ---------------------------------------------------------------- */
/* misc                                                              */
/* ---------------------------------------------------------------- */

/**
 * cve_pipe_hangs_up() - true if the read end @rfd sees end-of-file within
 * @ms: every copy of the write end, including any the driver holds, is
 * closed.
 */
static inline bool cve_pipe_hangs_up(int rfd, int ms)
{
	struct pollfd pfd = { .fd = rfd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLHUP);
}

/** cve_deadline_passed() - helper for time-bounded stress loops. */
static inline bool cve_deadline_passed(int64_t deadline)
{
	return kbt_now_ms() >= deadline;
}

#endif /* KBINDER_TEST_CVE_COMMON_H */
