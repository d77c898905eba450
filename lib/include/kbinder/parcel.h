/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder, parcel: transaction payloads that record the offsets of the
 * binder objects in them (kbinder_parcel_*), and a bounds-checked view
 * over a received payload (kbinder_view_*). Android's conventions on top
 * of both (strings, tokens, Status, ...) are in kbinder/android.h.
 */
#ifndef KBINDER_PARCEL_H
#define KBINDER_PARCEL_H

#include "common.h"

KBINDER_BEGIN_DECLS

/**
 * struct kbinder_parcel - growable transaction payload.
 * @data:      payload bytes
 * @size:      payload size (always a multiple of 4)
 * @cap:       allocated bytes for @data
 * @offsets:   offsets of binder objects within @data
 * @n_offsets: number of entries in @offsets
 * @offsets_cap: allocated entries
 * @err:       first error (sticky), -ENOMEM
 */
struct kbinder_parcel {
	uint8_t *data;
	size_t size;
	size_t cap;
	binder_size_t *offsets;
	size_t n_offsets;
	size_t offsets_cap;
	int err;
	uint64_t reserved[4];
};

void kbinder_parcel_init(struct kbinder_parcel *p);
void kbinder_parcel_reset(struct kbinder_parcel *p);
void kbinder_parcel_fini(struct kbinder_parcel *p);
/** kbinder_parcel_write() - append bytes, zero-padded to a multiple of 4. */
int kbinder_parcel_write(struct kbinder_parcel *p, const void *data, size_t size);
/** kbinder_parcel_write_object() - append an object and record its offset. */
int kbinder_parcel_write_object(struct kbinder_parcel *p, const void *obj, size_t size);
/** kbinder_parcel_write_binder() - a local object (BINDER_TYPE_BINDER or WEAK_BINDER). */
int kbinder_parcel_write_binder(struct kbinder_parcel *p, binder_uintptr_t ptr,
				binder_uintptr_t cookie, uint32_t flags, bool weak);
/** kbinder_parcel_write_handle() - a remote object (BINDER_TYPE_HANDLE or WEAK_HANDLE). */
int kbinder_parcel_write_handle(struct kbinder_parcel *p, uint32_t handle,
				uint32_t flags, bool weak);
/** kbinder_parcel_write_fd() - a BINDER_TYPE_FD object. */
int kbinder_parcel_write_fd(struct kbinder_parcel *p, int fd, binder_uintptr_t cookie);
/** kbinder_parcel_to_txn() - point @tr's data/offsets (and sizes) at @p. */
void kbinder_parcel_to_txn(const struct kbinder_parcel *p,
			   struct binder_transaction_data *tr);

static inline int kbinder_parcel_write_u32(struct kbinder_parcel *p, uint32_t v)
{
	return kbinder_parcel_write(p, &v, sizeof(v));
}

static inline int kbinder_parcel_write_u64(struct kbinder_parcel *p, uint64_t v)
{
	return kbinder_parcel_write(p, &v, sizeof(v));
}

/**
 * struct kbinder_view - bounds-checked reader over received data.
 * @data, @size:         the payload
 * @offsets, @n_offsets: its object offsets
 * @pos:                 read cursor in @data
 */
struct kbinder_view {
	const uint8_t *data;
	size_t size;
	const binder_size_t *offsets;
	size_t n_offsets;
	size_t pos;
	uint64_t reserved[4];
};

void kbinder_view_init(struct kbinder_view *v, const struct binder_transaction_data *tr);
/** kbinder_view_read() - copy @size bytes, advance by size rounded up to 4; -ERANGE past the end. */
int kbinder_view_read(struct kbinder_view *v, void *out, size_t size);
/**
 * kbinder_view_get_object() - copy the @index-th object (a flat_binder_object
 * or binder_fd_object, both 24 bytes). Return: 0, or -ERANGE if out of bounds.
 */
int kbinder_view_get_object(const struct kbinder_view *v, size_t index,
			    struct flat_binder_object *out);

static inline int kbinder_view_read_u32(struct kbinder_view *v, uint32_t *out)
{
	return kbinder_view_read(v, out, sizeof(*out));
}

static inline int kbinder_view_read_u64(struct kbinder_view *v, uint64_t *out)
{
	return kbinder_view_read(v, out, sizeof(*out));
}

KBINDER_END_DECLS

#endif /* KBINDER_PARCEL_H */
