// SPDX-License-Identifier: Apache-2.0
/*
 * kbfuzz raw operations: every BINDER_* ioctl with right and wrong sizes,
 * directions and arguments; BC_ command streams of every code with valid,
 * corrupted and truncated payloads; and the query ioctls, whose answers are
 * checked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "fuzz.h"

static const unsigned long ioctls[] = {
	BINDER_WRITE_READ, BINDER_SET_IDLE_TIMEOUT, BINDER_SET_MAX_THREADS,
	BINDER_SET_IDLE_PRIORITY, BINDER_SET_CONTEXT_MGR, BINDER_THREAD_EXIT,
	BINDER_VERSION, BINDER_GET_NODE_DEBUG_INFO, BINDER_GET_NODE_INFO_FOR_REF,
	BINDER_SET_CONTEXT_MGR_EXT, BINDER_FREEZE, BINDER_GET_FROZEN_INFO,
	BINDER_ENABLE_ONEWAY_SPAM_DETECTION, BINDER_GET_EXTENDED_ERROR,
};

#define NIOCTLS (sizeof(ioctls) / sizeof(ioctls[0]))

static const uint32_t bc_codes[] = {
	BC_TRANSACTION, BC_REPLY, BC_ACQUIRE_RESULT, BC_FREE_BUFFER, BC_INCREFS,
	BC_ACQUIRE, BC_RELEASE, BC_DECREFS, BC_INCREFS_DONE, BC_ACQUIRE_DONE,
	BC_ATTEMPT_ACQUIRE, BC_REGISTER_LOOPER, BC_ENTER_LOOPER, BC_EXIT_LOOPER,
	BC_REQUEST_DEATH_NOTIFICATION, BC_CLEAR_DEATH_NOTIFICATION,
	BC_DEAD_BINDER_DONE, BC_TRANSACTION_SG, BC_REPLY_SG,
	BC_REQUEST_FREEZE_NOTIFICATION, BC_CLEAR_FREEZE_NOTIFICATION,
	BC_FREEZE_NOTIFICATION_DONE,
};

#define NBC (sizeof(bc_codes) / sizeof(bc_codes[0]))

/* An argument pointer: good scratch memory, NULL, a fault, the read-only map. */
static void *pick_arg(struct fz_thread *t, uint8_t *scratch, size_t size)
{
	uint32_t roll = fz_below(&t->rng, 100);

	if (roll < 75)
		return scratch;
	if (roll < 82)
		return NULL;
	if (roll < 90)	/* straddles into the faulting page */
		return t->p->guard - 1 - fz_below(&t->rng, (uint32_t)size);
	if (roll < 95)
		return t->p->guard;
	return t->p->map ? t->p->map : scratch;
}

/* Fill @scratch with something shaped like the argument of @cmd. */
static void shape_arg(struct fz_thread *t, unsigned long cmd, uint8_t *scratch,
		      size_t size)
{
	struct fz_rng *r = &t->rng;

	for (size_t i = 0; i < size; i += 8) {
		uint64_t v = fz_chance(r, 500) ? fz_below(r, 4) : fz_next(r);

		memcpy(scratch + i, &v, 8);
	}
	if (cmd == BINDER_WRITE_READ) {
		/* never let a random read buffer swallow real work */
		struct binder_write_read *bwr = (void *)scratch;

		bwr->write_buffer = (uintptr_t)(scratch + 128);
		bwr->write_size = fz_below(r, 64);
		bwr->write_consumed = fz_chance(r, 100) ? fz_next(r) : 0;
		bwr->read_size = fz_chance(r, 500) ? 0 : fz_below(r, 256);
		bwr->read_buffer = fz_chance(r, 500) ? 0 : (uintptr_t)t->p->guard;
		bwr->read_consumed = fz_chance(r, 100) ? fz_next(r) : 0;
	} else if (cmd == BINDER_FREEZE) {
		struct binder_freeze_info *fi = (void *)scratch;

		fi->timeout_ms %= 50;	/* bounded: freezing waits this long */
		if (fz_chance(r, 500))
			fi->pid = (uint32_t)atomic_load(
				&fz_sh->procs[fz_below(r, fz_cfg.nprocs)].pid);
		if (fi->enable) {
			fi->enable = 0;	/* freezing is op_freeze's job, tracked */
		}
	} else if (cmd == BINDER_SET_CONTEXT_MGR || cmd == BINDER_SET_CONTEXT_MGR_EXT) {
		struct flat_binder_object *fbo = (void *)scratch;

		fbo->hdr.type = BINDER_TYPE_BINDER;
		fbo->binder = fz_node_ptr(t->p->slot, 0);
		fbo->cookie = fz_node_cookie(fbo->binder);
	}
}

void fz_op_raw_ioctl(struct fz_thread *t)
{
	_Alignas(8) uint8_t scratch[512];
	struct fz_rng *r = &t->rng;
	unsigned long cmd = ioctls[fz_below(r, NIOCTLS)];
	uint32_t sub = fz_below(r, 10);
	void *arg;

	shape_arg(t, cmd, scratch, sizeof(scratch));
	switch (sub) {
	case 0:		/* wrong size */
		cmd = _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), _IOC_NR(cmd),
			   fz_below(r, 2) ? _IOC_SIZE(cmd) + 1 + fz_below(r, 16) :
			   fz_below(r, _IOC_SIZE(cmd) + 1));
		break;
	case 1:		/* wrong direction */
		cmd = _IOC(fz_below(r, 4), _IOC_TYPE(cmd), _IOC_NR(cmd), _IOC_SIZE(cmd));
		break;
	case 2:		/* another number, maybe another type */
		cmd = _IOC(fz_below(r, 4), fz_chance(r, 800) ? 'b' : fz_below(r, 256),
			   fz_below(r, 32), fz_below(r, 64));
		break;
	default:
		break;
	}
	/* a freeze or a context manager change through here would go untracked */
	if (_IOC_NR(cmd) == _IOC_NR(BINDER_FREEZE) && _IOC_TYPE(cmd) == 'b' &&
	    cmd != BINDER_FREEZE)
		cmd = BINDER_VERSION;
	/* a random variant can land on SET_CONTEXT_MGR_EXT: a node with a
	 * random ptr is not the driver's fault, so give it one of ours */
	if (cmd == BINDER_SET_CONTEXT_MGR_EXT)
		shape_arg(t, cmd, scratch, sizeof(scratch));
	arg = pick_arg(t, scratch, sizeof(scratch));
	/* whatever a node is made of must be ours (see fz_is_own_node) */
	if (cmd == BINDER_FREEZE || cmd == BINDER_SET_CONTEXT_MGR_EXT)
		arg = scratch;
	if (_IOC_TYPE(cmd) == 'b' && _IOC_NR(cmd) == _IOC_NR(BINDER_WRITE_READ) &&
	    arg == t->p->map)
		arg = scratch;	/* a read into the map would lose real work */
	if (_IOC_TYPE(cmd) == 'b' && _IOC_NR(cmd) == _IOC_NR(BINDER_WRITE_READ) &&
	    arg == scratch) {
		/* only our shaped buffer: random contents could read work away */
		shape_arg(t, BINDER_WRITE_READ, scratch, sizeof(scratch));
	}
	fz_record(t, OP_RAW_IOCTL, sub, cmd);
	fz_count(C_RAW_IOCTLS, 1);
	if (_IOC_NR(cmd) == _IOC_NR(BINDER_THREAD_EXIT))
		t->looper = false;
	if (fz_with_fd(t, CALL_IOCTL, cmd, arg) == 0 &&
	    (cmd == BINDER_SET_CONTEXT_MGR || cmd == BINDER_SET_CONTEXT_MGR_EXT))
		atomic_store(&fz_sh->ctx_mgr_pid, getpid());
}

static size_t put(uint8_t *w, size_t at, const void *v, size_t n)
{
	memcpy(w + at, v, n);
	return at + n;
}

/* One command with a payload shaped for it; returns the new length. */
static size_t add_command(struct fz_thread *t, uint8_t *w, size_t at,
			  struct fz_txn_buf *b)
{
	struct fz_rng *r = &t->rng;
	uint32_t cmd = fz_chance(r, 930) ? bc_codes[fz_below(r, NBC)] :
		fz_chance(r, 500) ? _IOC(_IOC_WRITE, 'c', fz_below(r, 32), fz_below(r, 80)) :
		(uint32_t)fz_next(r);
	uint64_t v64;
	uint32_t v32;

	at = put(w, at, &cmd, 4);
	fz_count(C_BC_COMMANDS, 1);
	switch (cmd) {
	case BC_TRANSACTION:
	case BC_REPLY:
	case BC_TRANSACTION_SG:
	case BC_REPLY_SG: {
		bool reply = cmd == BC_REPLY || cmd == BC_REPLY_SG;
		uint32_t handle;

		fz_pick_handle(t, &handle);
		fz_build_txn(t, b, reply, handle,
			     (fz_chance(r, 500) ? TF_ONE_WAY : 0) | TF_ACCEPT_FDS);
		if (fz_chance(r, 100)) {	/* flip a byte of the header */
			uint8_t *tb = (uint8_t *)&b->tr;

			tb[fz_below(r, sizeof(b->tr.transaction_data))] ^=
				(uint8_t)(1u << fz_below(r, 8));
			fz_txn_uncheck(b);
		}
		/* the builder chose _SG or not (and judged validity by it) */
		cmd = b->cmd;
		memcpy(w + at - 4, &cmd, 4);
		if (reply)
			fz_count(C_REPLIES, 1);
		else
			fz_count(b->tr.transaction_data.flags & TF_ONE_WAY ?
				 C_TXN_ONEWAY : C_TXN_SYNC, 1);
		if (!reply && !(b->tr.transaction_data.flags & TF_ONE_WAY))
			t->sync_calls++;
		return put(w, at, &b->tr, _IOC_SIZE(cmd));
	}
	case BC_FREE_BUFFER:
		/* never a live buffer's start (see op_free_held) */
		v64 = t->p->map && fz_chance(r, 600) ?
			(uintptr_t)t->p->map + 8 * fz_below(r, 1024) + 1 + fz_below(r, 7) :
			fz_chance(r, 500) ? 0 : fz_next(r) | 1;
		return put(w, at, &v64, 8);
	case BC_INCREFS:
	case BC_ACQUIRE:
	case BC_RELEASE:
	case BC_DECREFS:
		fz_pick_handle(t, &v32);
		return put(w, at, &v32, 4);
	case BC_INCREFS_DONE:
	case BC_ACQUIRE_DONE: {
		struct binder_ptr_cookie pc;

		pc.ptr = fz_chance(r, 700) ? fz_node_ptr(t->p->slot, fz_below(r, FZ_NODES)) :
			fz_next(r);
		pc.cookie = fz_chance(r, 700) ? fz_node_cookie(pc.ptr) : fz_next(r);
		return put(w, at, &pc, sizeof(pc));
	}
	case BC_REQUEST_DEATH_NOTIFICATION:
	case BC_CLEAR_DEATH_NOTIFICATION:
	case BC_REQUEST_FREEZE_NOTIFICATION:
	case BC_CLEAR_FREEZE_NOTIFICATION: {
		struct binder_handle_cookie hc;

		fz_pick_handle(t, &v32);
		hc.handle = v32;
		hc.cookie = 0xdead0000ull + fz_below(r, 4);
		return put(w, at, &hc, sizeof(hc));
	}
	case BC_DEAD_BINDER_DONE:
	case BC_FREEZE_NOTIFICATION_DONE:
		v64 = fz_chance(r, 700) ? 0xdead0000ull + fz_below(r, 4) : fz_next(r);
		return put(w, at, &v64, 8);
	case BC_REGISTER_LOOPER:
	case BC_ENTER_LOOPER:
	case BC_EXIT_LOOPER:
		t->looper = cmd != BC_EXIT_LOOPER;
		return at;
	default: {	/* BC_ACQUIRE_RESULT, BC_ATTEMPT_ACQUIRE, or garbage */
		size_t n = _IOC_SIZE(cmd);

		if (n > 64)
			n = 64;
		for (size_t i = 0; i < n; i++)
			w[at + i] = (uint8_t)fz_next(r);
		return at + n;
	}
	}
}

void fz_op_bc_stream(struct fz_thread *t)
{
	_Alignas(8) uint8_t w[8 * (4 + sizeof(struct binder_transaction_data_sg))];
	struct fz_txn_buf *b;
	struct fz_rng *r = &t->rng;
	unsigned int n = 1 + fz_below(r, 8);
	uint32_t sub = fz_below(r, 10);
	size_t at = 0, len;

	/* one buffer per command: each transaction points into its own */
	b = malloc(n * sizeof(*b));
	if (!b)
		return;
	for (unsigned int i = 0; i < n; i++)
		at = add_command(t, w, at, &b[i]);
	len = at;
	if (sub == 0 && len)		/* truncated mid-command */
		len = fz_below(r, (uint32_t)len);
	fz_record(t, OP_BC_STREAM, sub, ((uint64_t)n << 32) | len);
	fz_count(C_BC_STREAMS, 1);
	if (sub == 1) {			/* the stream runs into a faulting page */
		size_t keep = len > 64 ? 64 : len;
		uint8_t *tail = t->p->guard - keep;

		memcpy(tail, w, keep);
		fz_write_read(t, tail, keep + 4 * fz_below(r, 4),
			      fz_chance(r, 500));
	} else {
		fz_write_read(t, w, len, fz_chance(r, 600));
	}
	free(b);
}

/* The query ioctls, whose answers must make sense. */
void fz_op_info(struct fz_thread *t)
{
	struct fz_rng *r = &t->rng;
	struct fz_proc *p = t->p;
	uint32_t sub = fz_below(r, 5);
	int rc;

	fz_record(t, OP_INFO, sub, 0);
	switch (sub) {
	case 0: {
		struct binder_version v = { -1 };

		rc = fz_with_fd(t, CALL_IOCTL, BINDER_VERSION, &v);
		if (rc == 0 && v.protocol_version != BINDER_CURRENT_PROTOCOL_VERSION)
			fz_finding(p->slot, t->idx, "BINDER_VERSION says %d",
				   v.protocol_version);
		break;
	}
	case 1: {	/* walk our nodes: ours only, ascending */
		struct binder_node_debug_info di = { 0 };
		uint64_t last = 0;

		for (int i = 0; i < 64; i++) {
			di.cookie = 0;
			if (fz_with_fd(t, CALL_IOCTL, BINDER_GET_NODE_DEBUG_INFO, &di) < 0 ||
			    di.ptr == 0)
				break;
			if (!fz_is_own_node(p->slot, di.ptr, di.cookie) ||
			    di.ptr <= last || di.has_strong_ref > 1 || di.has_weak_ref > 1) {
				fz_finding(p->slot, t->idx,
					   "BINDER_GET_NODE_DEBUG_INFO after 0x%llx gave ptr 0x%llx cookie 0x%llx strong %u weak %u",
					   (unsigned long long)last,
					   (unsigned long long)di.ptr,
					   (unsigned long long)di.cookie,
					   di.has_strong_ref, di.has_weak_ref);
				break;
			}
			last = di.ptr;
		}
		break;
	}
	case 2: {
		struct binder_node_info_for_ref ni = { 0 };

		fz_pick_handle(t, &ni.handle);
		if (fz_chance(r, 100))
			ni.reserved2 = 1;
		fz_with_fd(t, CALL_IOCTL, BINDER_GET_NODE_INFO_FOR_REF, &ni);
		break;
	}
	case 3: {
		struct binder_extended_error ee = { 0 };

		rc = fz_with_fd(t, CALL_IOCTL, BINDER_GET_EXTENDED_ERROR, &ee);
		if (rc == 0 && (!fz_br_name(ee.command) || ee.param > 0))
			fz_finding(p->slot, t->idx,
				   "BINDER_GET_EXTENDED_ERROR: id %u command 0x%x param %d",
				   ee.id, ee.command, ee.param);
		break;
	}
	default: {
		uint32_t v = fz_below(r, 2);

		if (fz_chance(r, 500)) {
			fz_with_fd(t, CALL_IOCTL, BINDER_ENABLE_ONEWAY_SPAM_DETECTION, &v);
		} else {
			v = fz_chance(r, 900) ? fz_below(r, 5) : (uint32_t)fz_next(r);
			fz_with_fd(t, CALL_IOCTL, BINDER_SET_MAX_THREADS, &v);
		}
		break;
	}
	}
}
