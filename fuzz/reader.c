// SPDX-License-Identifier: Apache-2.0
/*
 * kbfuzz reader: parse the return stream of one BINDER_WRITE_READ and check
 * everything the driver could get wrong without crashing: unknown or unused
 * BR_ codes, payloads cut short, buffers outside the mapping, objects that
 * were not validated or translated, descriptors that are not open, kernel
 * addresses, data changed in transit, and transactions built to be invalid
 * that were delivered all the same.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <kbinder/binder_cmds.h>

#include "fuzz.h"

struct br_code {
	uint32_t code;
	const char *name;
	bool unused;		/* defined, but never sent by a driver */
};

/* Every return of the protocol: include/kbinder/binder_cmds.h. */
#define FZ_BR_CODE(arg, code, sent) { code, #code, !(sent) },
static const struct br_code br_codes[] = {
	KBINDER_BR_CODES(FZ_BR_CODE, )
};

const char *fz_br_name(uint32_t code)
{
	for (size_t i = 0; i < sizeof(br_codes) / sizeof(br_codes[0]); i++)
		if (br_codes[i].code == code)
			return br_codes[i].name;
	return NULL;
}

static const struct br_code *find_br(uint32_t code)
{
	for (size_t i = 0; i < sizeof(br_codes) / sizeof(br_codes[0]); i++)
		if (br_codes[i].code == code)
			return &br_codes[i];
	return NULL;
}

/* A 64-bit value that userspace could never have put there. */
static bool kernelish(uint64_t v)
{
	return (v >> 47) != 0;
}

struct view {
	uintptr_t base;		/* the mapping, 0 if it cannot be read */
	size_t size;
};

static bool in_map(const struct view *m, uint64_t addr, uint64_t len)
{
	return addr >= m->base && addr <= m->base + m->size &&
		len <= m->base + m->size - addr;
}

#define FIND(...) fz_finding(t->p->slot, t->idx, __VA_ARGS__)

/* For findings about delivered data: what exactly arrived. */
static void dump_data(const struct binder_transaction_data *tr)
{
	const uint8_t *d = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	const binder_size_t *o = (const binder_size_t *)(uintptr_t)tr->data.ptr.offsets;
	size_t n = tr->data_size < 256 ? tr->data_size : 256;

	fprintf(stderr, "  data 0x%llx size %llu, offsets 0x%llx size %llu:",
		(unsigned long long)tr->data.ptr.buffer,
		(unsigned long long)tr->data_size,
		(unsigned long long)tr->data.ptr.offsets,
		(unsigned long long)tr->offsets_size);
	for (size_t i = 0; i < tr->offsets_size / 8 && i < 16; i++)
		fprintf(stderr, " %llu", (unsigned long long)o[i]);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s%02x", i % 32 ? (i % 8 ? "" : " ") : "\n    ", d[i]);
	fprintf(stderr, "\n");
}

static bool fd_is_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

/* Check one received object at @off; the buffer is in the mapping. */
static bool check_object(struct fz_thread *t, const struct view *m,
			 const struct binder_transaction_data *tr,
			 const binder_size_t *offs, size_t i, bool *close_fd,
			 struct fz_event *e)
{
	const uint8_t *data = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	binder_size_t off = offs[i];
	uint32_t type;
	size_t size;

	*close_fd = false;
	if (off % 4 || off > tr->data_size || tr->data_size - off < 4) {
		FIND("delivered object offset %llu (data %llu) was not validated",
		     (unsigned long long)off, (unsigned long long)tr->data_size);
		return false;
	}
	memcpy(&type, data + off, 4);
	size = fz_object_size(type);
	if (!size || tr->data_size - off < size) {
		FIND("delivered object %zu at %llu has type 0x%x / size %zu past data %llu",
		     i, (unsigned long long)off, type, size,
		     (unsigned long long)tr->data_size);
		return false;
	}
	if (i && off < offs[i - 1] + fz_object_size(*(const uint32_t *)(data + offs[i - 1]))) {
		FIND("delivered objects %zu and %zu overlap or are unsorted", i - 1, i);
		return false;
	}
	fz_count(C_RECV_OBJECTS, 1);
	switch (type) {
	case BINDER_TYPE_BINDER:
	case BINDER_TYPE_WEAK_BINDER: {
		struct flat_binder_object fbo;

		memcpy(&fbo, data + off, sizeof(fbo));
		if (!fz_is_own_node(t->p->slot, fbo.binder, fbo.cookie)) {
			FIND("received node 0x%llx cookie 0x%llx that is not ours (object %zu at %llu)",
			     (unsigned long long)fbo.binder,
			     (unsigned long long)fbo.cookie, i,
			     (unsigned long long)off);
			dump_data(tr);
			return false;
		}
		return true;
	}
	case BINDER_TYPE_HANDLE:
	case BINDER_TYPE_WEAK_HANDLE: {
		struct flat_binder_object fbo;

		memcpy(&fbo, data + off, sizeof(fbo));
		if (kernelish(fbo.cookie) || (fbo.binder >> 32)) {
			FIND("received handle object with binder 0x%llx cookie 0x%llx",
			     (unsigned long long)fbo.binder,
			     (unsigned long long)fbo.cookie);
			return false;
		}
		if (fz_add_handle(t->p, fbo.handle, type == BINDER_TYPE_HANDLE) &&
		    e->nkeep < sizeof(e->keep) / sizeof(e->keep[0]))
			e->keep[e->nkeep++] = fbo.handle |
				(type == BINDER_TYPE_HANDLE ? 1u << 31 : 0);
		return true;
	}
	case BINDER_TYPE_FD: {
		struct binder_fd_object fo;

		memcpy(&fo, data + off, sizeof(fo));
		if (!fd_is_open((int)fo.fd)) {
			FIND("received fd %u is not open", fo.fd);
			return false;
		}
		*close_fd = true;
		return true;
	}
	case BINDER_TYPE_PTR: {
		struct binder_buffer_object bo;

		memcpy(&bo, data + off, sizeof(bo));
		if (!in_map(m, bo.buffer, bo.length)) {
			FIND("received PTR block 0x%llx+%llu is outside the mapping",
			     (unsigned long long)bo.buffer,
			     (unsigned long long)bo.length);
			return false;
		}
		if ((bo.flags & BINDER_BUFFER_FLAG_HAS_PARENT) && bo.parent >= i) {
			FIND("received PTR %zu with parent %llu not before it", i,
			     (unsigned long long)bo.parent);
			return false;
		}
		return true;
	}
	case BINDER_TYPE_FDA: {
		struct binder_fd_array_object fa;
		struct binder_buffer_object parent;
		uint32_t ptype;

		memcpy(&fa, data + off, sizeof(fa));
		if (fa.parent >= i) {
			FIND("received FDA %zu with parent %llu not before it", i,
			     (unsigned long long)fa.parent);
			return false;
		}
		memcpy(&ptype, data + offs[fa.parent], 4);
		if (ptype != BINDER_TYPE_PTR) {
			FIND("received FDA %zu whose parent is type 0x%x", i, ptype);
			return false;
		}
		memcpy(&parent, data + offs[fa.parent], sizeof(parent));
		if (fa.num_fds > parent.length / 4 ||
		    fa.parent_offset > parent.length - fa.num_fds * 4 ||
		    fa.parent_offset % 4) {
			FIND("received FDA %zu: %llu fds at %llu do not fit parent of %llu",
			     i, (unsigned long long)fa.num_fds,
			     (unsigned long long)fa.parent_offset,
			     (unsigned long long)parent.length);
			return false;
		}
		for (binder_size_t k = 0; k < fa.num_fds; k++) {
			uint32_t fd;

			memcpy(&fd, (const uint8_t *)(uintptr_t)parent.buffer +
			       fa.parent_offset + 4 * k, 4);
			if (!fd_is_open((int)fd)) {
				FIND("received FDA %zu fd[%llu] = %u is not open", i,
				     (unsigned long long)k, fd);
				return false;
			}
		}
		return true;
	}
	}
	return false;
}

/* Check a BR_TRANSACTION / BR_REPLY and what it points at. */
static void check_txn(struct fz_thread *t, uint32_t cmd,
		      const struct binder_transaction_data *tr,
		      uint64_t secctx, struct fz_event *e)
{
	struct fz_proc *p = t->p;
	struct view m = { (uintptr_t)p->map, p->map ? p->map_size : 0 };
	bool reply = cmd == BR_REPLY;
	const binder_size_t *offs;
	size_t noffs;

	if (reply ? (tr->target.ptr || tr->cookie) :
	    !fz_is_own_node(p->slot, tr->target.ptr, tr->cookie)) {
		FIND("%s target 0x%llx cookie 0x%llx is not one of our nodes",
		     fz_br_name(cmd), (unsigned long long)tr->target.ptr,
		     (unsigned long long)tr->cookie);
		if (p->map && in_map(&m, tr->data.ptr.buffer, tr->data_size) &&
		    in_map(&m, tr->data.ptr.offsets, tr->offsets_size))
			dump_data(tr);
		return;
	}
	if (!reply && (tr->flags & TF_ONE_WAY) && tr->sender_pid != 0) {
		FIND("one-way BR_TRANSACTION with sender_pid %d", tr->sender_pid);
		return;
	}
	if (tr->sender_euid != geteuid()) {
		FIND("%s sender_euid %u, expected %u", fz_br_name(cmd),
		     tr->sender_euid, geteuid());
		return;
	}
	if (tr->offsets_size % sizeof(binder_size_t)) {
		FIND("%s offsets_size %llu is not a multiple of 8", fz_br_name(cmd),
		     (unsigned long long)tr->offsets_size);
		return;
	}
	if (!m.base) {	/* unmapped: nothing readable, but no kernel values */
		if (kernelish(tr->data.ptr.buffer) || kernelish(tr->data.ptr.offsets))
			FIND("%s buffer 0x%llx offsets 0x%llx look like kernel addresses",
			     fz_br_name(cmd), (unsigned long long)tr->data.ptr.buffer,
			     (unsigned long long)tr->data.ptr.offsets);
		return;
	}
	if (!in_map(&m, tr->data.ptr.buffer, tr->data_size) ||
	    !in_map(&m, tr->data.ptr.offsets, tr->offsets_size) ||
	    (tr->offsets_size && tr->data.ptr.offsets <
	     tr->data.ptr.buffer + tr->data_size) ||
	    (secctx && !in_map(&m, secctx, 1))) {
		FIND("%s data 0x%llx+%llu offsets 0x%llx+%llu secctx 0x%llx: outside the mapping 0x%llx+%zu or overlapping",
		     fz_br_name(cmd), (unsigned long long)tr->data.ptr.buffer,
		     (unsigned long long)tr->data_size,
		     (unsigned long long)tr->data.ptr.offsets,
		     (unsigned long long)tr->offsets_size,
		     (unsigned long long)secctx, (unsigned long long)m.base, m.size);
		return;
	}
	offs = (const binder_size_t *)(uintptr_t)tr->data.ptr.offsets;
	noffs = tr->offsets_size / sizeof(binder_size_t);
	for (size_t i = 0; i < noffs; i++) {
		bool close_fd;

		if (!check_object(t, &m, tr, offs, i, &close_fd, e))
			return;
		if (close_fd) {
			const struct binder_fd_object *fo = (const void *)
				((const uint8_t *)(uintptr_t)tr->data.ptr.buffer + offs[i]);

			close((int)fo->fd);
		}
	}
	fz_check_payload(t, (const uint8_t *)(uintptr_t)tr->data.ptr.buffer,
			 tr->data_size, offs, noffs, fz_br_name(cmd));
}

int fz_parse_returns(struct fz_thread *t, const uint8_t *buf, size_t len,
		     struct fz_event *ev, int max)
{
	size_t at = 0;
	int n = 0;

	while (at < len && n < max) {
		const struct br_code *br;
		const uint8_t *pl;
		struct fz_event e = { 0 };
		uint32_t cmd;
		size_t psz;

		if (len - at < 4) {
			FIND("return stream ends with %zu stray bytes", len - at);
			return n;
		}
		memcpy(&cmd, buf + at, 4);
		br = find_br(cmd);
		if (!br) {
			FIND("unknown return code 0x%08x at byte %zu of %zu", cmd, at, len);
			return n;
		}
		if (br->unused) {
			FIND("driver sent %s, which no driver sends", br->name);
			return n;
		}
		psz = _IOC_SIZE(cmd);
		if (len - at - 4 < psz) {
			FIND("%s payload cut: %zu of %zu bytes", br->name,
			     len - at - 4, psz);
			return n;
		}
		pl = buf + at + 4;
		at += 4 + psz;
		e.cmd = cmd;
		e.kind = EV_OTHER;
		switch (cmd) {
		case BR_NOOP:
		case BR_OK:
		case BR_ERROR:
		case BR_CLEAR_FREEZE_NOTIFICATION_DONE:
			continue;
		case BR_TRANSACTION:
		case BR_TRANSACTION_SEC_CTX:
		case BR_REPLY: {
			struct binder_transaction_data_secctx tx = { 0 };

			memcpy(&tx, pl, psz);
			if (cmd == BR_REPLY && ++t->replies > t->sync_calls) {
				FIND("BR_REPLY number %llu to a thread that made %llu sync calls",
				     (unsigned long long)t->replies,
				     (unsigned long long)t->sync_calls);
				return n;
			}
			check_txn(t, cmd, &tx.transaction_data,
				  cmd == BR_TRANSACTION_SEC_CTX ? tx.secctx : 0, &e);
			e.kind = cmd == BR_REPLY ? EV_REPLY : EV_TXN;
			e.flags = tx.transaction_data.flags;
			e.code = tx.transaction_data.code;
			e.buffer = tx.transaction_data.data.ptr.buffer;
			fz_count(cmd == BR_REPLY ? C_RECV_REPLY : C_RECV_TXN, 1);
			break;
		}
		case BR_DEAD_REPLY:
		case BR_FAILED_REPLY:
		case BR_FROZEN_REPLY:
			e.kind = EV_END;
			fz_count(cmd == BR_DEAD_REPLY ? C_DEAD_REPLY :
				 cmd == BR_FAILED_REPLY ? C_FAILED_REPLY :
				 C_FROZEN_REPLY, 1);
			break;
		case BR_TRANSACTION_COMPLETE:
		case BR_ONEWAY_SPAM_SUSPECT:
		case BR_TRANSACTION_PENDING_FROZEN:
			e.kind = EV_COMPLETE;
			fz_count(C_COMPLETE, 1);
			break;
		case BR_INCREFS:
		case BR_ACQUIRE:
		case BR_RELEASE:
		case BR_DECREFS: {
			struct binder_ptr_cookie pc;

			memcpy(&pc, pl, sizeof(pc));
			if (!fz_is_own_node(t->p->slot, pc.ptr, pc.cookie)) {
				FIND("%s for node 0x%llx cookie 0x%llx that is not ours",
				     br->name, (unsigned long long)pc.ptr,
				     (unsigned long long)pc.cookie);
				return n;
			}
			e.kind = EV_REF;
			e.ptr = pc.ptr;
			e.cookie = pc.cookie;
			break;
		}
		case BR_DEAD_BINDER:
		case BR_CLEAR_DEATH_NOTIFICATION_DONE: {
			uint64_t cookie;

			memcpy(&cookie, pl, 8);
			if (kernelish(cookie)) {
				FIND("%s cookie 0x%llx was never given", br->name,
				     (unsigned long long)cookie);
				return n;
			}
			if (cmd == BR_DEAD_BINDER) {
				fz_count(C_DEAD_BINDER, 1);
				e.kind = EV_DEAD_BINDER;
			}
			e.cookie = cookie;
			break;
		}
		case BR_FROZEN_BINDER: {
			struct binder_frozen_state_info fs;

			memcpy(&fs, pl, sizeof(fs));
			if (fs.is_frozen > 1 || fs.reserved || kernelish(fs.cookie)) {
				FIND("BR_FROZEN_BINDER cookie 0x%llx is_frozen %u reserved %u",
				     (unsigned long long)fs.cookie, fs.is_frozen,
				     fs.reserved);
				return n;
			}
			fz_count(C_FROZEN_BINDER, 1);
			e.kind = EV_FROZEN_BINDER;
			e.cookie = fs.cookie;
			break;
		}
		case BR_SPAWN_LOOPER:
			e.kind = EV_SPAWN;
			break;
		default:
			continue;
		}
		ev[n++] = e;
	}
	return n;
}
