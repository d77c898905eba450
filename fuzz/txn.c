// SPDX-License-Identifier: Apache-2.0
/*
 * kbfuzz transactions: payloads with a checked header and objects of every
 * type (nodes, handles, descriptors, descriptor arrays, memory blocks with
 * parents), laid out the way a driver must accept them, or broken in one
 * way every driver must refuse (marked in the header: the receiver reports
 * it if such a transaction is ever delivered), or corrupted in ways whose
 * outcome is not fixed (unmarked).
 *
 * Payload header (16 bytes at offset 0, objects start after it):
 *   magic FZ_MAGIC, size (data_size), sum (fz_data_sum), flags
 *   (bit 0: must be rejected; bit 1: do not check, corrupted on purpose;
 *   bits 8..15: which invalid kind).
 */
#include <string.h>

#include "fuzz.h"

struct fz_data_hdr {
	uint32_t magic;
	uint32_t size;
	uint32_t sum;
	uint32_t flags;
};

enum invalid_kind {
	INV_NONE,
	INV_OFFSETS_SIZE,
	INV_MISALIGNED,
	INV_PAST_DATA,
	INV_OVERLAP,
	INV_UNSORTED,
	INV_CUT,
	INV_TYPE,
	INV_HANDLE,
	INV_FD,
	INV_PTR_PARENT,
	INV_PTR_PARENT_OFFSET,
	INV_FDA_PARENT,
	INV_FDA_MISALIGNED,
	INV_FDA_TOO_BIG,
	INV_SG_SMALL,
	INV_SG_UNALIGNED,
	INV_PTR_NO_SG,
	INV_DATA_PTR,
	INV_OFFSETS_PTR,
	INV_NR
};

static const char *const invalid_names[INV_NR] = {
	[INV_NONE] = "none",
	[INV_OFFSETS_SIZE] = "offsets_size not a multiple of 8",
	[INV_MISALIGNED] = "misaligned object offset",
	[INV_PAST_DATA] = "object offset past the data",
	[INV_OVERLAP] = "overlapping objects",
	[INV_UNSORTED] = "unsorted object offsets",
	[INV_CUT] = "last object cut by data_size",
	[INV_TYPE] = "unknown object type",
	[INV_HANDLE] = "handle that does not exist",
	[INV_FD] = "fd that is not open",
	[INV_PTR_PARENT] = "PTR parent index out of range",
	[INV_PTR_PARENT_OFFSET] = "PTR parent_offset beyond the parent",
	[INV_FDA_PARENT] = "FDA parent index out of range",
	[INV_FDA_MISALIGNED] = "FDA parent_offset misaligned",
	[INV_FDA_TOO_BIG] = "FDA larger than its parent",
	[INV_SG_SMALL] = "buffers_size too small for the PTR blocks",
	[INV_SG_UNALIGNED] = "buffers_size not a multiple of 8",
	[INV_PTR_NO_SG] = "PTR block in a transaction without buffers_size",
	[INV_DATA_PTR] = "data pointer that faults",
	[INV_OFFSETS_PTR] = "offsets pointer that faults",
};

size_t fz_object_size(uint32_t type)
{
	switch (type) {
	case BINDER_TYPE_BINDER:
	case BINDER_TYPE_WEAK_BINDER:
	case BINDER_TYPE_HANDLE:
	case BINDER_TYPE_WEAK_HANDLE:
		return sizeof(struct flat_binder_object);
	case BINDER_TYPE_FD:
		return sizeof(struct binder_fd_object);
	case BINDER_TYPE_PTR:
		return sizeof(struct binder_buffer_object);
	case BINDER_TYPE_FDA:
		return sizeof(struct binder_fd_array_object);
	default:
		return 0;
	}
}

uint32_t fz_data_sum(const uint8_t *data, size_t size,
		     const binder_size_t *offs, size_t noffs)
{
	uint32_t h = 2166136261u;
	size_t pos = 0;

	for (size_t i = 0; i <= noffs; i++) {
		size_t end = i < noffs && offs[i] < size ? offs[i] : size;

		for (; pos < end; pos++)
			if (pos < 8 || pos >= 12)
				h = (h ^ data[pos]) * 16777619u;
		if (i < noffs && offs[i] + 4 <= size) {
			uint32_t type;
			size_t skip;

			memcpy(&type, data + offs[i], 4);
			skip = offs[i] + fz_object_size(type);
			if (skip > pos)
				pos = skip;
		}
	}
	return h;
}

void fz_check_payload(struct fz_thread *t, const uint8_t *data, size_t size,
		      const binder_size_t *offs, size_t noffs, const char *what)
{
	struct fz_data_hdr h;

	if (size < sizeof(h))
		return;
	memcpy(&h, data, sizeof(h));
	if (h.magic != FZ_MAGIC || h.size != size || (h.flags & 2))
		return;
	if (h.flags & 1) {
		uint32_t kind = (h.flags >> 8) & 0xff;

		fz_finding(t->p->slot, t->idx,
			   "%s delivered a transaction built to be rejected: %s",
			   what, kind < INV_NR ? invalid_names[kind] : "?");
		return;
	}
	if (fz_data_sum(data, size, offs, noffs) != h.sum) {
		if (atomic_load(&t->p->tainted))
			return;	/* a bogus free of ours may have hit it */
		fz_finding(t->p->slot, t->idx,
			   "%s data (%zu bytes, %zu objects) changed in transit",
			   what, size, noffs);
	}
}

static void fill(struct fz_rng *r, uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 8) {
		uint64_t v = fz_next(r);

		memcpy(p + i, &v, n - i < 8 ? n - i : 8);
	}
}

static void invalid(struct fz_txn_buf *b, enum invalid_kind k)
{
	if (b->must_reject)
		return;	/* keep the first reason */
	b->must_reject = true;
	b->invalid = invalid_names[k];
	b->kind = k;
}

/* Layout state while objects are added. */
struct layout {
	size_t pos;		/* next free data byte */
	size_t noffs;
	size_t sgpos;		/* next free byte of t->sg */
	binder_size_t sgsize;	/* sum of PTR block sizes */
	int parent;		/* offsets index of the PTR children may use */
	binder_size_t parent_len;
	binder_size_t next_fixup; /* lowest parent_offset still allowed */
	unsigned int nptr;
};

static void add_flat(struct fz_thread *t, struct fz_txn_buf *b, struct layout *l,
		     uint32_t type)
{
	struct fz_rng *r = &t->rng;
	struct flat_binder_object fbo = { .hdr.type = type };

	if (type == BINDER_TYPE_BINDER || type == BINDER_TYPE_WEAK_BINDER) {
		fbo.flags = (fz_chance(r, 850) ? FLAT_BINDER_FLAG_ACCEPTS_FDS : 0) |
			(fz_chance(r, 100) ? fz_below(r, 0x80) : 0) |
			(fz_chance(r, 15) ? FLAT_BINDER_FLAG_TXN_SECURITY_CTX : 0);
		fbo.binder = fz_node_ptr(t->p->slot, fz_below(r, FZ_NODES));
		fbo.cookie = fz_node_cookie(fbo.binder);
		fz_count(type == BINDER_TYPE_BINDER ? C_OBJ_BINDER : C_OBJ_WEAK_BINDER, 1);
	} else {
		uint32_t handle;

		/* handles we hold: handle 0 is no reference to send */
		if (!fz_pick_known_handle(t, &handle, type == BINDER_TYPE_HANDLE)) {
			if (!fz_chance(r, 50)) {	/* nothing to send: a node then */
				add_flat(t, b, l, type == BINDER_TYPE_HANDLE ?
					 BINDER_TYPE_BINDER : BINDER_TYPE_WEAK_BINDER);
				return;
			}
			handle = fz_chance(r, 500) ? 0xfffffff0u : fz_below(r, 3);
			if (handle == 0xfffffff0u)
				invalid(b, INV_HANDLE);
		}
		fbo.handle = handle;
		fbo.flags = fz_chance(r, 50) ? (uint32_t)fz_next(r) : 0;
		fz_count(type == BINDER_TYPE_HANDLE ? C_OBJ_HANDLE : C_OBJ_WEAK_HANDLE, 1);
	}
	memcpy(b->data + l->pos, &fbo, sizeof(fbo));
	b->offsets[l->noffs++] = l->pos;
	l->pos += sizeof(fbo);
}

static void add_fd(struct fz_thread *t, struct fz_txn_buf *b, struct layout *l)
{
	struct binder_fd_object fo = { .hdr.type = BINDER_TYPE_FD };

	if (fz_chance(&t->rng, 30)) {
		fo.fd = 0xfffffu;
		invalid(b, INV_FD);
	} else {
		fo.fd = (uint32_t)fz_pick_spare_fd(t);
	}
	fo.cookie = fz_next(&t->rng);
	memcpy(b->data + l->pos, &fo, sizeof(fo));
	b->offsets[l->noffs++] = l->pos;
	l->pos += sizeof(fo);
	fz_count(C_OBJ_FD, 1);
}

static void add_ptr(struct fz_thread *t, struct fz_txn_buf *b, struct layout *l)
{
	struct fz_rng *r = &t->rng;
	struct binder_buffer_object bo = { .hdr.type = BINDER_TYPE_PTR };
	binder_size_t len = 8 * (1 + fz_below(r, 16));
	bool child = l->parent >= 0 && l->next_fixup + 8 <= l->parent_len &&
		fz_chance(r, 500);

	if (l->sgpos + len > sizeof(t->sg))
		return;
	fill(r, t->sg + l->sgpos, len);
	bo.buffer = (uintptr_t)(t->sg + l->sgpos);
	bo.length = len;
	if (child) {
		bo.flags = BINDER_BUFFER_FLAG_HAS_PARENT;
		bo.parent = (binder_size_t)l->parent;
		bo.parent_offset = l->next_fixup;
		l->next_fixup += 8 + 8 * fz_below(r, 2);
		if (fz_chance(r, 40)) {
			bo.parent_offset = l->parent_len;
			invalid(b, INV_PTR_PARENT_OFFSET);
		}
	} else if (fz_chance(r, 25)) {
		bo.flags = BINDER_BUFFER_FLAG_HAS_PARENT;
		bo.parent = l->noffs + fz_below(r, 3);
		invalid(b, INV_PTR_PARENT);
	} else {	/* a new top-level block: the only one children may use */
		l->parent = (int)l->noffs;
		l->parent_len = len;
		l->next_fixup = 0;
	}
	memcpy(b->data + l->pos, &bo, sizeof(bo));
	b->offsets[l->noffs++] = l->pos;
	l->pos += sizeof(bo);
	l->sgpos += len;
	l->sgsize += len;
	l->nptr++;
	fz_count(C_OBJ_PTR, 1);
}

static void add_fda(struct fz_thread *t, struct fz_txn_buf *b, struct layout *l)
{
	struct fz_rng *r = &t->rng;
	struct binder_fd_array_object fa = { .hdr.type = BINDER_TYPE_FDA };
	binder_size_t num = fz_below(r, 4);
	uint8_t *parent_mem;

	if (l->parent < 0 || l->next_fixup + 4 * num > l->parent_len) {
		if (!fz_chance(r, 300))
			return;
		fa.num_fds = 1;
		fa.parent = l->noffs;	/* itself: never a valid parent */
		invalid(b, INV_FDA_PARENT);
	} else {
		struct binder_buffer_object pbo;

		memcpy(&pbo, b->data + b->offsets[l->parent], sizeof(pbo));
		parent_mem = (uint8_t *)(uintptr_t)pbo.buffer;
		fa.num_fds = num;
		fa.parent = (binder_size_t)l->parent;
		fa.parent_offset = l->next_fixup;
		for (binder_size_t k = 0; k < num; k++) {
			uint32_t fd = (uint32_t)fz_pick_spare_fd(t);

			memcpy(parent_mem + fa.parent_offset + 4 * k, &fd, 4);
		}
		l->next_fixup += (4 * num + 7) / 8 * 8;
		if (num && fz_chance(r, 40)) {
			fa.parent_offset += 2;
			invalid(b, INV_FDA_MISALIGNED);
		} else if (fz_chance(r, 20)) {
			fa.num_fds = l->parent_len / 4 + 1 + fz_below(r, 1000);
			invalid(b, INV_FDA_TOO_BIG);
		}
	}
	memcpy(b->data + l->pos, &fa, sizeof(fa));
	b->offsets[l->noffs++] = l->pos;
	l->pos += sizeof(fa);
	fz_count(C_OBJ_FDA, 1);
}

/* Break the offsets array or data_size in one way that must be refused. */
static void break_layout(struct fz_thread *t, struct fz_txn_buf *b,
			 struct layout *l, binder_size_t *data_size,
			 binder_size_t *offsets_size)
{
	struct fz_rng *r = &t->rng;
	size_t j = fz_below(r, (uint32_t)l->noffs);

	switch (fz_below(r, 6)) {
	case 0:
		*offsets_size += 1 + fz_below(r, 7);
		invalid(b, INV_OFFSETS_SIZE);
		break;
	case 1:
		b->offsets[j] += 1 + fz_below(r, 3);
		invalid(b, INV_MISALIGNED);
		break;
	case 2:
		b->offsets[j] = fz_chance(r, 500) ? *data_size - 4 :
			*data_size + 8 * fz_below(r, 1000);
		invalid(b, INV_PAST_DATA);
		break;
	case 3:
		if (l->noffs < 2)
			break;
		j = fz_below(r, (uint32_t)l->noffs - 1);
		b->offsets[j + 1] = b->offsets[j] + 8 * fz_below(r, 2);
		invalid(b, INV_OVERLAP);
		break;
	case 4:
		if (l->noffs < 2)
			break;
		j = fz_below(r, (uint32_t)l->noffs - 1);
		{
			binder_size_t tmp = b->offsets[j];

			b->offsets[j] = b->offsets[j + 1];
			b->offsets[j + 1] = tmp;
		}
		invalid(b, INV_UNSORTED);
		break;
	default: {
		uint32_t type;
		size_t last = l->noffs - 1;

		memcpy(&type, b->data + b->offsets[last], 4);
		*data_size = b->offsets[last] + fz_object_size(type) / 2;
		invalid(b, INV_CUT);
		break;
	}
	}
}

static void add_object(struct fz_thread *t, struct fz_txn_buf *b,
		       struct layout *l, bool cm_reply)
{
	struct fz_rng *r = &t->rng;
	uint32_t roll = fz_below(r, 1000);

	if (cm_reply && roll < 500) {	/* the context manager hands out handles */
		add_flat(t, b, l, fz_chance(r, 800) ? BINDER_TYPE_HANDLE :
			 BINDER_TYPE_WEAK_HANDLE);
		return;
	}
	if (roll < 150)
		add_flat(t, b, l, BINDER_TYPE_BINDER);
	else if (roll < 230)
		add_flat(t, b, l, BINDER_TYPE_WEAK_BINDER);
	else if (roll < 380)
		add_flat(t, b, l, BINDER_TYPE_HANDLE);
	else if (roll < 450)
		add_flat(t, b, l, BINDER_TYPE_WEAK_HANDLE);
	else if (roll < 580)
		add_fd(t, b, l);
	else if (roll < 800)
		add_ptr(t, b, l);
	else if (roll < 985)
		add_fda(t, b, l);
	else {
		uint32_t bogus = (uint32_t)fz_next(r);
		struct flat_binder_object fbo = { .hdr.type = bogus };

		if (!fz_object_size(bogus))
			invalid(b, INV_TYPE);
		memcpy(b->data + l->pos, &fbo, sizeof(fbo));
		b->offsets[l->noffs++] = l->pos;
		l->pos += sizeof(fbo);
		fz_count(C_OBJ_BOGUS, 1);
	}
}

void fz_txn_uncheck(struct fz_txn_buf *b)
{
	struct fz_data_hdr h;

	memcpy(&h, b->data, sizeof(h));
	h.flags |= 2;
	memcpy(b->data, &h, sizeof(h));
}

void fz_build_txn(struct fz_thread *t, struct fz_txn_buf *b, bool reply,
		  uint32_t handle, uint32_t flags)
{
	struct fz_rng *r = &t->rng;
	struct binder_transaction_data *tr = &b->tr.transaction_data;
	struct layout l = { .pos = sizeof(struct fz_data_hdr), .parent = -1 };
	unsigned int nobj = fz_chance(r, 250) ? 0 : 1 + fz_below(r, 6);
	binder_size_t data_size, offsets_size;
	struct fz_data_hdr h = { .magic = FZ_MAGIC };
	bool sg;

	memset(&b->tr, 0, sizeof(b->tr));
	b->must_reject = false;
	b->invalid = NULL;
	b->kind = INV_NONE;
	for (unsigned int k = 0; k < nobj; k++) {
		size_t gap = 8 * fz_below(r, 3);

		if (l.pos + gap + 64 > sizeof(b->data) ||
		    l.noffs >= sizeof(b->offsets) / sizeof(b->offsets[0]))
			break;
		fill(r, b->data + l.pos, gap);
		l.pos += gap;
		add_object(t, b, &l, reply && fz_is_ctx_mgr());
	}
	fz_count(C_OBJECTS, l.noffs);
	data_size = l.pos + fz_below(r, 64);
	if (fz_chance(r, 30))
		data_size = sizeof(b->data) - fz_below(r, 64);
	fill(r, b->data + l.pos, data_size - l.pos);
	offsets_size = l.noffs * sizeof(binder_size_t);
	if (l.noffs && fz_chance(r, 40))
		break_layout(t, b, &l, &data_size, &offsets_size);

	sg = l.nptr ? !fz_chance(r, 15) : fz_chance(r, 50);
	if (l.nptr && !sg)
		invalid(b, INV_PTR_NO_SG);
	b->cmd = reply ? (sg ? BC_REPLY_SG : BC_REPLY) :
		(sg ? BC_TRANSACTION_SG : BC_TRANSACTION);
	if (sg) {
		b->tr.buffers_size = l.sgsize + (fz_chance(r, 200) ? 8 * fz_below(r, 8) : 0);
		if (l.sgsize && fz_chance(r, 20)) {
			b->tr.buffers_size = l.sgsize - 8;
			invalid(b, INV_SG_SMALL);
		} else if (fz_chance(r, 15)) {
			b->tr.buffers_size += 4;
			invalid(b, INV_SG_UNALIGNED);
		}
	}

	tr->target.handle = reply ? 0 : handle;
	tr->code = fz_chance(r, 900) ? fz_below(r, 16) : (uint32_t)fz_next(r);
	tr->flags = flags;
	tr->data_size = data_size;
	tr->offsets_size = offsets_size;
	tr->data.ptr.buffer = (uintptr_t)b->data;
	tr->data.ptr.offsets = (uintptr_t)b->offsets;
	if (fz_chance(r, 8)) {
		tr->data.ptr.buffer = fz_chance(r, 500) ? 0 : (uintptr_t)t->p->guard;
		invalid(b, INV_DATA_PTR);
	} else if (offsets_size && fz_chance(r, 8)) {
		tr->data.ptr.offsets = (uintptr_t)t->p->guard;
		invalid(b, INV_OFFSETS_PTR);
	}

	h.size = (uint32_t)data_size;
	h.flags = b->must_reject ? 1u | (uint32_t)b->kind << 8 : 0;
	if (data_size >= sizeof(h)) {
		memcpy(b->data, &h, sizeof(h));
		h.sum = fz_data_sum(b->data, data_size, b->offsets, l.noffs);
		memcpy(b->data, &h, sizeof(h));
	}
}
