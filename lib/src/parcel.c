// SPDX-License-Identifier: Apache-2.0
/*
 * Transaction payloads: a growable byte buffer (4-byte granular, like a
 * libbinder Parcel) plus the list of offsets at which binder objects sit,
 * and a bounds-checked view for reading received payloads.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void kbinder_parcel_init(struct kbinder_parcel *p)
{
	memset(p, 0, sizeof(*p));
}

void kbinder_parcel_reset(struct kbinder_parcel *p)
{
	p->size = 0;
	p->n_offsets = 0;
	p->err = 0;
}

void kbinder_parcel_fini(struct kbinder_parcel *p)
{
	free(p->data);
	free(p->offsets);
	kbinder_parcel_init(p);
}

/* Make room for @extra more payload bytes. */
static int kbinder_parcel_grow(struct kbinder_parcel *p, size_t extra)
{
	size_t cap;
	uint8_t *data;

	if (p->err)
		return p->err;
	if (extra > SIZE_MAX / 2 - p->size)
		return p->err = -ENOMEM;
	if (p->size + extra <= p->cap)
		return 0;
	cap = p->cap ? p->cap : 64;
	while (cap < p->size + extra)
		cap *= 2;
	data = realloc(p->data, cap);
	if (!data)
		return p->err = -ENOMEM;
	p->data = data;
	p->cap = cap;
	return 0;
}

int kbinder_parcel_write(struct kbinder_parcel *p, const void *data, size_t size)
{
	size_t padded;
	int ret;

	if (size > SIZE_MAX / 2)
		return p->err = -ENOMEM;
	padded = kbinder_align4(size);
	ret = kbinder_parcel_grow(p, padded);
	if (ret)
		return ret;
	if (size)
		memcpy(p->data + p->size, data, size);
	memset(p->data + p->size + size, 0, padded - size);
	p->size += padded;
	return 0;
}

int kbinder_parcel_write_object(struct kbinder_parcel *p, const void *obj, size_t size)
{
	size_t at = p->size;
	int ret;

	if (p->err)
		return p->err;
	if (p->n_offsets == p->offsets_cap) {
		size_t cap = p->offsets_cap ? p->offsets_cap * 2 : 4;
		binder_size_t *offs = realloc(p->offsets, cap * sizeof(*offs));

		if (!offs)
			return p->err = -ENOMEM;
		p->offsets = offs;
		p->offsets_cap = cap;
	}
	ret = kbinder_parcel_write(p, obj, size);
	if (ret)
		return ret;
	p->offsets[p->n_offsets++] = at;
	return 0;
}

int kbinder_parcel_write_binder(struct kbinder_parcel *p, binder_uintptr_t ptr,
			   binder_uintptr_t cookie, uint32_t flags, bool weak)
{
	struct flat_binder_object obj;

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = weak ? BINDER_TYPE_WEAK_BINDER : BINDER_TYPE_BINDER;
	obj.flags = flags;
	obj.binder = ptr;
	obj.cookie = cookie;
	return kbinder_parcel_write_object(p, &obj, sizeof(obj));
}

int kbinder_parcel_write_handle(struct kbinder_parcel *p, uint32_t handle,
			   uint32_t flags, bool weak)
{
	struct flat_binder_object obj;

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = weak ? BINDER_TYPE_WEAK_HANDLE : BINDER_TYPE_HANDLE;
	obj.flags = flags;
	obj.handle = handle;
	return kbinder_parcel_write_object(p, &obj, sizeof(obj));
}

int kbinder_parcel_write_fd(struct kbinder_parcel *p, int fd, binder_uintptr_t cookie)
{
	struct binder_fd_object obj;

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BINDER_TYPE_FD;
	obj.fd = (uint32_t)fd;
	obj.cookie = cookie;
	return kbinder_parcel_write_object(p, &obj, sizeof(obj));
}

void kbinder_parcel_to_txn(const struct kbinder_parcel *p,
		      struct binder_transaction_data *tr)
{
	tr->data_size = p->size;
	tr->offsets_size = p->n_offsets * sizeof(binder_size_t);
	tr->data.ptr.buffer = kbinder_ptr(p->data);
	tr->data.ptr.offsets = kbinder_ptr(p->offsets);
}

void kbinder_view_init(struct kbinder_view *v, const struct binder_transaction_data *tr)
{
	memset(v, 0, sizeof(*v));
	v->data = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	v->size = v->data ? tr->data_size : 0;
	v->offsets = (const binder_size_t *)(uintptr_t)tr->data.ptr.offsets;
	v->n_offsets = v->offsets ? tr->offsets_size / sizeof(binder_size_t) : 0;
	v->pos = 0;
}

int kbinder_view_read(struct kbinder_view *v, void *out, size_t size)
{
	size_t padded = kbinder_align4(size);

	if (size > v->size || v->pos > v->size - size)
		return -ERANGE;
	memcpy(out, v->data + v->pos, size);
	v->pos = padded > v->size - v->pos ? v->size : v->pos + padded;
	return 0;
}

int kbinder_view_get_object(const struct kbinder_view *v, size_t index,
			    struct flat_binder_object *out)
{
	binder_size_t off;

	if (index >= v->n_offsets)
		return -ERANGE;
	memcpy(&off, &v->offsets[index], sizeof(off));
	if (off > v->size || v->size - off < sizeof(*out))
		return -ERANGE;
	memcpy(out, v->data + off, sizeof(*out));
	return 0;
}
