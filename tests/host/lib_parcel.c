// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests for libkbinder's parcel builder and the received-data view.
 */
#include <errno.h>
#include <string.h>

#include <kbinder/kbinder.h>
#include "lib_check.h"

static void parcel_pads_to_four_bytes(void)
{
	struct kbinder_parcel p;

	kbinder_parcel_init(&p);
	LIB_CHECK_EQ(kbinder_parcel_write(&p, "abcde", 5), 0);
	LIB_CHECK_EQ(p.size, 8);
	LIB_CHECK(!memcmp(p.data, "abcde\0\0\0", 8));
	LIB_CHECK_EQ(kbinder_parcel_write_u32(&p, 0x01020304), 0);
	LIB_CHECK_EQ(p.size, 12);
	LIB_CHECK_EQ(p.n_offsets, 0);
	kbinder_parcel_fini(&p);
	LIB_CHECK(p.data == NULL);
}

static void parcel_records_object_offsets(void)
{
	struct kbinder_parcel p;
	struct binder_transaction_data tr;
	struct flat_binder_object obj;

	kbinder_parcel_init(&p);
	kbinder_parcel_write_u32(&p, 1);
	kbinder_parcel_write_binder(&p, 0x1000, 0x2000, FLAT_BINDER_FLAG_ACCEPTS_FDS, false);
	kbinder_parcel_write_u32(&p, 2);
	kbinder_parcel_write_handle(&p, 5, 0, true);
	kbinder_parcel_write_fd(&p, 9, 0x33);
	LIB_CHECK_EQ(p.err, 0);
	LIB_CHECK_EQ(p.n_offsets, 3);
	LIB_CHECK_EQ(p.offsets[0], 4);
	LIB_CHECK_EQ(p.offsets[1], 4 + 24 + 4);
	LIB_CHECK_EQ(p.offsets[2], 4 + 24 + 4 + 24);
	LIB_CHECK_EQ(p.size, 4 + 24 + 4 + 24 + 24);
	memcpy(&obj, p.data + 4, sizeof(obj));
	LIB_CHECK_EQ(obj.hdr.type, BINDER_TYPE_BINDER);
	LIB_CHECK_EQ(obj.binder, 0x1000);
	LIB_CHECK_EQ(obj.cookie, 0x2000);
	LIB_CHECK_EQ(obj.flags, FLAT_BINDER_FLAG_ACCEPTS_FDS);
	memcpy(&obj, p.data + p.offsets[1], sizeof(obj));
	LIB_CHECK_EQ(obj.hdr.type, BINDER_TYPE_WEAK_HANDLE);
	LIB_CHECK_EQ(obj.handle, 5);

	memset(&tr, 0, sizeof(tr));
	kbinder_parcel_to_txn(&p, &tr);
	LIB_CHECK_EQ(tr.data_size, p.size);
	LIB_CHECK_EQ(tr.offsets_size, 3 * sizeof(binder_size_t));
	LIB_CHECK(tr.data.ptr.buffer == (binder_uintptr_t)(uintptr_t)p.data);
	kbinder_parcel_fini(&p);
}

static void view_reads_back_and_checks_bounds(void)
{
	struct kbinder_parcel p;
	struct binder_transaction_data tr;
	struct kbinder_view v;
	struct flat_binder_object obj;
	uint32_t u;
	uint64_t q;
	char s[3];

	kbinder_parcel_init(&p);
	kbinder_parcel_write_u32(&p, 77);
	kbinder_parcel_write(&p, "xy", 3);
	kbinder_parcel_write_u64(&p, 0x1122334455667788ull);
	kbinder_parcel_write_handle(&p, 4, 0, false);
	memset(&tr, 0, sizeof(tr));
	kbinder_parcel_to_txn(&p, &tr);
	kbinder_view_init(&v, &tr);
	LIB_CHECK_EQ(kbinder_view_read_u32(&v, &u), 0);
	LIB_CHECK_EQ(u, 77);
	LIB_CHECK_EQ(kbinder_view_read(&v, s, 3), 0);
	LIB_CHECK(!strcmp(s, "xy"));
	LIB_CHECK_EQ(kbinder_view_read_u64(&v, &q), 0);
	LIB_CHECK(q == 0x1122334455667788ull);
	LIB_CHECK_EQ(kbinder_view_get_object(&v, 0, &obj), 0);
	LIB_CHECK_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
	LIB_CHECK_EQ(obj.handle, 4);
	LIB_CHECK_EQ(kbinder_view_get_object(&v, 1, &obj), -ERANGE);
	v.pos = v.size - 2;
	LIB_CHECK_EQ(kbinder_view_read_u32(&v, &u), -ERANGE);
	/* an offset pointing near the end must not be read */
	p.offsets[0] = p.size - 8;
	LIB_CHECK_EQ(kbinder_view_get_object(&v, 0, &obj), -ERANGE);
	p.offsets[0] = (binder_size_t)-1;
	LIB_CHECK_EQ(kbinder_view_get_object(&v, 0, &obj), -ERANGE);
	kbinder_parcel_fini(&p);
}

int main(void)
{
	LIB_RUN(parcel_pads_to_four_bytes);
	LIB_RUN(parcel_records_object_offsets);
	LIB_RUN(view_reads_back_and_checks_bounds);
	return lib_failures ? 1 : 0;
}
