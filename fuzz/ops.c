// SPDX-License-Identifier: Apache-2.0
/*
 * kbfuzz operations on the process's state: the handles it knows, reference
 * counts, notifications, loopers, thread exits, freezes, becoming the
 * context manager, and the device itself (open, map, close, unmap).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

/* ------------------------------------------------------------ handles */
bool fz_add_handle(struct fz_proc *p, uint32_t handle, bool strong)
{
	unsigned int i;
	bool added;

	pthread_mutex_lock(&p->lock);
	for (i = 0; i < p->nhandles; i++)
		if (p->handles[i] == handle)
			break;
	if (i == p->nhandles) {
		if (p->nhandles < FZ_MAX_HANDLES)
			p->nhandles++;
		else
			i = handle % FZ_MAX_HANDLES;
		p->strong[i] = false;
		p->handles[i] = handle;
		added = true;
	} else {
		added = strong && !p->strong[i];
	}
	p->strong[i] |= strong;
	pthread_mutex_unlock(&p->lock);
	return added;
}

void fz_drop_handle(struct fz_proc *p, uint32_t handle)
{
	pthread_mutex_lock(&p->lock);
	for (unsigned int i = 0; i < p->nhandles; i++) {
		if (p->handles[i] == handle) {
			p->nhandles--;
			p->handles[i] = p->handles[p->nhandles];
			p->strong[i] = p->strong[p->nhandles];
			break;
		}
	}
	pthread_mutex_unlock(&p->lock);
}

/* Caller holds p->lock. A random known handle, strong if asked; -1 if none. */
static int known_index(struct fz_thread *t, bool strong)
{
	struct fz_proc *p = t->p;
	unsigned int n = p->nhandles, start;

	if (!n)
		return -1;
	start = fz_below(&t->rng, n);
	for (unsigned int k = 0; k < n; k++) {
		unsigned int i = (start + k) % n;

		if (!strong || p->strong[i])
			return (int)i;
	}
	return -1;
}

bool fz_is_ctx_mgr(void)
{
	return atomic_load(&fz_sh->ctx_mgr_pid) == getpid();
}

bool fz_pick_handle(struct fz_thread *t, uint32_t *handle)
{
	struct fz_proc *p = t->p;
	uint32_t roll = fz_below(&t->rng, 1000);
	int i;

	if (roll < 40) {
		*handle = roll < 20 ? 1 + fz_below(&t->rng, 64) : 0xfffffff0u;
		return roll >= 20;	/* small numbers may exist */
	}
	pthread_mutex_lock(&p->lock);
	i = known_index(t, roll < 950);
	/* the context manager calling handle 0 would call itself */
	*handle = i >= 0 && (roll < 700 || fz_is_ctx_mgr()) ? p->handles[i] : 0;
	pthread_mutex_unlock(&p->lock);
	return false;
}

bool fz_pick_known_handle(struct fz_thread *t, uint32_t *handle, bool strong)
{
	struct fz_proc *p = t->p;
	int i;

	pthread_mutex_lock(&p->lock);
	i = known_index(t, strong);
	if (i >= 0)
		*handle = p->handles[i];
	pthread_mutex_unlock(&p->lock);
	return i >= 0;
}

int fz_pick_spare_fd(struct fz_thread *t)
{
	uint32_t i = fz_below(&t->rng, 5);

	if (i == 4 && fz_cfg.no_binder_fds)
		i = 2;
	return i < 4 ? t->p->spare_fds[i] : t->p->fd;
}

/* ------------------------------------------------------------ small ops */
void fz_op_refs(struct fz_thread *t)
{
	static const uint32_t cmds[] = { BC_INCREFS, BC_ACQUIRE, BC_RELEASE, BC_DECREFS };
	_Alignas(8) uint8_t w[16];
	uint32_t handle, k = fz_below(&t->rng, 4);
	size_t at;

	fz_pick_handle(t, &handle);
	fz_record(t, OP_REFS, k, handle);
	k &= 1;		/* increment first, then (mostly) the matching decrement */
	at = fz_put_u32(w, 0, cmds[k]);
	at = fz_put_u32(w, at, handle);
	if (fz_chance(&t->rng, 700)) {
		at = fz_put_u32(w, at, cmds[k | 2]);
		at = fz_put_u32(w, at, handle);
	} else if (fz_chance(&t->rng, 300)) {	/* unbalanced: a lone decrement */
		fz_put_u32(w, 0, cmds[k | 2]);
		if (handle)
			fz_drop_handle(t->p, handle);
	}
	fz_count(C_REF_OPS, 1);
	fz_write_read(t, w, at, fz_chance(&t->rng, 300));
}

/* BC_{REQUEST,CLEAR}_{DEATH,FREEZE}_NOTIFICATION with a small cookie. */
void fz_op_note(struct fz_thread *t, int op)
{
	_Alignas(8) uint8_t w[32];
	uint32_t handle, sub = fz_below(&t->rng, 3), cmd;
	size_t at;

	fz_pick_handle(t, &handle);
	if (op == OP_DEATH)
		cmd = sub ? BC_REQUEST_DEATH_NOTIFICATION : BC_CLEAR_DEATH_NOTIFICATION;
	else
		cmd = sub == 2 ? BC_FREEZE_NOTIFICATION_DONE :
			sub ? BC_REQUEST_FREEZE_NOTIFICATION : BC_CLEAR_FREEZE_NOTIFICATION;
	fz_record(t, op, sub, handle);
	at = fz_put_u32(w, 0, cmd);
	if (cmd != BC_FREEZE_NOTIFICATION_DONE)
		at = fz_put_u32(w, at, handle);
	at = fz_put_u64(w, at, 0xdead0000ull + fz_below(&t->rng, 4));
	fz_write_read(t, w, at, fz_chance(&t->rng, 500));
}

void fz_op_looper(struct fz_thread *t)
{
	static const uint32_t cmds[] = { BC_ENTER_LOOPER, BC_EXIT_LOOPER,
					 BC_REGISTER_LOOPER };
	uint32_t k = fz_below(&t->rng, 3);

	fz_record(t, OP_LOOPER, k, 0);
	fz_write_read(t, &cmds[k], 4, false);
	t->looper = k != 1;
}

void fz_thread_exit_now(struct fz_thread *t)
{
	int zero = 0;

	fz_record(t, OP_THREAD_EXIT, 4, t->depth);
	fz_with_fd(t, CALL_IOCTL, BINDER_THREAD_EXIT, &zero);
	fz_count(C_THREAD_EXITS, 1);
	t->looper = false;
}

void fz_op_thread_exit(struct fz_thread *t)
{
	struct fz_proc *p = t->p;
	uint32_t sub = fz_below(&t->rng, 4);
	int ep = -1, zero = 0;

	fz_record(t, OP_THREAD_EXIT, sub, 0);
	pthread_rwlock_rdlock(&p->dev_lock);
	if (p->fd >= 0) {
		if (sub == 0) {	/* epoll on the thread, then exit it */
			struct epoll_event e = { .events = EPOLLIN };

			ep = epoll_create1(EPOLL_CLOEXEC);
			if (ep >= 0)
				epoll_ctl(ep, EPOLL_CTL_ADD, p->fd, &e);
		}
		fz_call_ioctl(t, CALL_IOCTL, BINDER_THREAD_EXIT, &zero);
		fz_count(C_THREAD_EXITS, 1);
		if (ep >= 0) {
			struct epoll_event e;

			epoll_wait(ep, &e, 1, 0);
		}
	}
	pthread_rwlock_unlock(&p->dev_lock);
	if (ep >= 0)
		close(ep);
	t->looper = false;
	if (sub == 1 || sub == 2)
		t->leave = true;
}

void fz_op_freeze(struct fz_thread *t)
{
	static const uint32_t timeouts[] = { 0, 0, 10, 50, 100 };
	struct binder_freeze_info fi = { 0 };
	struct binder_frozen_status_info st = { 0 };
	uint32_t s = fz_below(&t->rng, fz_cfg.nprocs + 1);
	struct fz_proc_slot *ps = s < fz_cfg.nprocs ? &fz_sh->procs[s] : NULL;
	bool thaw = ps && atomic_load(&ps->frozen_at) && fz_chance(&t->rng, 600);
	int r;

	fi.pid = ps ? (uint32_t)atomic_load(&ps->pid) : 0x3ffff0u;
	fi.enable = thaw ? 0 : fz_chance(&t->rng, 30) ? 2 : 1;
	fi.timeout_ms = timeouts[fz_below(&t->rng, 5)];
	fz_record(t, OP_FREEZE, fi.enable, ((uint64_t)s << 32) | fi.timeout_ms);
	r = fz_with_fd(t, CALL_FREEZE, BINDER_FREEZE, &fi);
	if (r == 0 && ps) {
		if (fi.enable) {
			uint64_t zero = 0;

			atomic_compare_exchange_strong(&ps->frozen_at, &zero,
						       fz_now_ns());
			fz_count(C_FREEZES, 1);
		} else {
			atomic_store(&ps->frozen_at, 0);
			fz_count(C_THAWS, 1);
		}
	}
	st.pid = fi.pid;
	if (fz_with_fd(t, CALL_IOCTL, BINDER_GET_FROZEN_INFO, &st) == 0 &&
	    (st.sync_recv > 3 || st.async_recv > 1))
		fz_finding(t->p->slot, t->idx,
			   "BINDER_GET_FROZEN_INFO: impossible sync_recv %u async_recv %u",
			   st.sync_recv, st.async_recv);
}

void fz_op_ctx_mgr(struct fz_thread *t)
{
	struct flat_binder_object fbo = { 0 };
	int32_t zero = 0;
	uint32_t sub = fz_below(&t->rng, 2);

	fz_record(t, OP_CTX_MGR, sub, 0);
	if (sub) {
		fbo.hdr.type = BINDER_TYPE_BINDER;
		fbo.binder = fz_node_ptr(t->p->slot, 0);
		fbo.cookie = fz_node_cookie(fbo.binder);
		fbo.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS |
			(fz_chance(&t->rng, 100) ? FLAT_BINDER_FLAG_TXN_SECURITY_CTX : 0);
		if (fz_with_fd(t, CALL_IOCTL, BINDER_SET_CONTEXT_MGR_EXT, &fbo) == 0)
			atomic_store(&fz_sh->ctx_mgr_pid, getpid());
	} else {
		if (fz_with_fd(t, CALL_IOCTL, BINDER_SET_CONTEXT_MGR, &zero) == 0)
			atomic_store(&fz_sh->ctx_mgr_pid, getpid());
	}
}

/* ------------------------------------------------------------ the device */
static const size_t map_sizes[] = {
	1024 * 1024 - 2 * 4096, 1024 * 1024 - 2 * 4096, 256 * 1024, 64 * 1024,
	16 * 1024, 4096,
};

/* Open and map the device; caller write-holds dev_lock (or is alone). */
int fz_open_device(struct fz_proc *p, struct fz_thread *t, struct fz_rng *r)
{
	size_t size = map_sizes[fz_below(r, 6)];
	void *map;

	/* a blocking fd in two opens of five (see bound_begin() in call.c) */
	p->blocking = fz_chance(r, 400) && !fz_cfg.no_blocking;
	if (t)
		fz_call_begin(t, CALL_OPEN);
	p->fd = open(fz_cfg.device, O_RDWR | O_CLOEXEC |
		     (p->blocking ? 0 : O_NONBLOCK));
	if (t)
		fz_call_end(t);
	if (p->fd < 0)
		return -errno;
	if (fz_cfg.trace)
		fprintf(stderr, "kbfuzz: slot %d.%u opens the device%s\n", p->slot,
			p->generation, p->blocking ? " blocking" : "");
	p->map = NULL;
	if (fz_chance(r, 10))
		return 0;	/* no mapping at all */
	if (t)
		fz_call_begin(t, CALL_MMAP);
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, p->fd, 0);
	if (t)
		fz_call_end(t);
	if (map != MAP_FAILED) {
		p->map = map;
		p->map_size = size;
	}
	return 0;
}

void fz_op_close_reopen(struct fz_thread *t)
{
	struct fz_proc *p = t->p;
	uint32_t sub = fz_below(&t->rng, 3);
	void *old_map;
	size_t old_size;

	fz_record(t, OP_CLOSE_REOPEN, sub, 0);
	pthread_rwlock_wrlock(&p->dev_lock);
	old_map = p->map;
	old_size = p->map_size;
	if (sub == 0 && old_map) {	/* unmap first, then close */
		fz_call_begin(t, CALL_MUNMAP);
		munmap(old_map, old_size);
		fz_call_end(t);
		old_map = NULL;
	}
	fz_call_begin(t, CALL_CLOSE);
	close(p->fd);
	fz_call_end(t);
	fz_count(C_CLOSES, 1);
	atomic_fetch_add(&p->epoch, 1);
	fz_open_device(p, t, &t->rng);
	if (old_map) {	/* the old mapping outlived its fd */
		fz_call_begin(t, CALL_MUNMAP);
		munmap(old_map, old_size);
		fz_call_end(t);
	}
	pthread_mutex_lock(&p->lock);
	p->nhandles = 0;
	pthread_mutex_unlock(&p->lock);
	pthread_rwlock_unlock(&p->dev_lock);
}

void fz_op_munmap(struct fz_thread *t)
{
	struct fz_proc *p = t->p;
	uint32_t sub = fz_below(&t->rng, 2);
	void *map;

	fz_record(t, OP_MUNMAP, sub, 0);
	pthread_rwlock_wrlock(&p->dev_lock);
	if (p->map) {
		fz_call_begin(t, CALL_MUNMAP);
		if (sub)	/* only part of it */
			munmap((uint8_t *)p->map + p->map_size / 2 / 4096 * 4096,
			       4096);
		else
			munmap(p->map, p->map_size);
		fz_call_end(t);
		/* a partial unmap leaves a hole: no more reading it */
		p->map = NULL;
		fz_count(C_MUNMAPS, 1);
		atomic_fetch_add(&p->epoch, 1);
	}
	if (!p->map && p->fd >= 0 && fz_chance(&t->rng, 500)) {
		fz_call_begin(t, CALL_MMAP);
		map = mmap(NULL, 64 * 1024, PROT_READ, MAP_PRIVATE, p->fd, 0);
		fz_call_end(t);
		if (map != MAP_FAILED) {
			p->map = map;
			p->map_size = 64 * 1024;
		}
	}
	pthread_rwlock_unlock(&p->dev_lock);
}
