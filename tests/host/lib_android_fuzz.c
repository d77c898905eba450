// SPDX-License-Identifier: Apache-2.0
/*
 * A bounded, deterministic fuzz of the parcel readers (lib/src/android.c,
 * the view of lib/src/parcel.c, the Service union reader of
 * lib/src/servicemanager.c): random and mutated-valid payloads,
 * random offsets arrays, every reader at every API level. Built with
 * AddressSanitizer and UBSan, so any read outside the payload or offsets
 * aborts. Invariants checked on every call: a refused read leaves the
 * cursor where it was, the cursor never passes the end, strings come back
 * NUL-terminated UTF-8 that can be written again.
 *
 * usage: lib_android_fuzz [SECONDS] [SEED]   (defaults: 3 s, seed 1)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kbinder/servicemanager.h>

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 11);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long failures;

#define FAIL(...) do { if (failures++ < 5) { \
	printf("FAIL lib/android_fuzz: " __VA_ARGS__); printf("\n"); } } while (0)

/* A valid payload of random pieces, for mutation. */
static void valid_payload(struct kbinder_parcel *p, const struct kbinder_wire *w)
{
	static const char *const s[] = { "", "x", "android.os.IServiceManager",
					 "\xc3\xa9\xf0\x9d\x84\x9e" };
	int n = (int)(rnd() % 6);

	for (int i = 0; i < n; i++) {
		switch (rnd() % 9) {
		case 0: kbinder_parcel_write_token(p, w, s[rnd() % 4]); break;
		case 6: {
			size_t at = kbinder_parcel_begin_parcelable(p);

			kbinder_parcel_write_string16(p, s[rnd() % 4]);
			kbinder_parcel_write_u32(p, rnd());
			kbinder_parcel_end_parcelable(p, at);
			break;
		}
		case 7:
			kbinder_parcel_write_sm_service(p, w, (enum kbinder_sm_service_layout)(rnd() % 3),
							rnd() % 2, rnd() % 3 ? 0 : 5,
							w->stability, rnd() % 2);
			break;
		case 1: kbinder_parcel_write_string16(p, rnd() % 5 ? s[rnd() % 4] : NULL); break;
		case 2: kbinder_parcel_write_string8(p, s[rnd() % 4]); break;
		case 3: kbinder_parcel_write_strong_binder(p, w, rnd() % 3 ? 0x1000 : 0, 8); break;
		case 4: kbinder_parcel_write_strong_handle(p, w, rnd() % 8, w->stability); break;
		case 5: kbinder_parcel_write_status(p, -(int32_t)(rnd() % 10), s[rnd() % 4], 3); break;
		default: kbinder_parcel_write_u32(p, rnd()); break;
		}
	}
}

/* Copy into exactly-sized heap blocks, so ASan sees any overread. */
static void one_input(const struct kbinder_wire *w, const struct kbinder_wire *reader)
{
	struct kbinder_parcel p;
	struct binder_transaction_data tr;
	struct kbinder_view v;
	struct flat_binder_object obj;
	uint8_t *data;
	binder_size_t *offs;
	size_t size, n_offs;
	char out[48];
	int32_t ex, code;
	uint32_t u;

	kbinder_parcel_init(&p);
	if (rnd() % 4) {
		valid_payload(&p, w);
	} else {
		size_t n = rnd() % 96;

		for (size_t i = 0; i < n; i += 4)
			kbinder_parcel_write_u32(&p, rnd() % 3 ? rnd() : rnd() % 64);
	}
	size = p.size;
	/* Mutate: flip bytes, cut the end. */
	for (int m = (int)(rnd() % 4); m > 0 && size; m--)
		p.data[rnd() % size] ^= (uint8_t)(1u << (rnd() % 8));
	if (size && rnd() % 3 == 0)
		size = rnd() % (size + 1);
	n_offs = p.n_offsets;
	if (rnd() % 4 == 0)
		n_offs = rnd() % 4;
	data = malloc(size ? size : 1);
	offs = malloc(n_offs ? n_offs * sizeof(*offs) : 1);
	if (!data || !offs)
		abort();
	if (size)
		memcpy(data, p.data, size);
	for (size_t i = 0; i < n_offs; i++)
		offs[i] = i < p.n_offsets && rnd() % 4 ? p.offsets[i] :
			  (rnd() % 2 ? (binder_size_t)(rnd() % (size + 8)) : (binder_size_t)rnd() << 20);
	memset(&tr, 0, sizeof(tr));
	tr.data_size = size;
	tr.offsets_size = n_offs * sizeof(*offs);
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)data;
	tr.data.ptr.offsets = (binder_uintptr_t)(uintptr_t)offs;
	kbinder_view_init(&v, &tr);

	for (int step = 0; step < 12; step++) {
		size_t before = v.pos;
		int r = 0;

		switch (rnd() % 10) {
		case 0: r = kbinder_view_read_token(&v, reader, out, sizeof(out)); break;
		case 7: {
			size_t end = 0;

			r = kbinder_view_begin_parcelable(&v, &end);
			if (!r && (end > v.size || end < v.pos))
				FAIL("a parcelable's end %zu outside %zu..%zu", end, v.pos, v.size);
			if (!r && rnd() % 2 && kbinder_view_end_parcelable(&v, end))
				FAIL("cannot leave a parcelable just entered");
			break;
		}
		case 8: {
			struct kbinder_sm_service svc;

			r = kbinder_view_read_sm_service(&v, reader,
							 (enum kbinder_sm_service_layout)(rnd() % 3),
							 &svc);
			break;
		}
		case 1: r = kbinder_view_read_string16(&v, out, 1 + rnd() % sizeof(out)); break;
		case 2: r = kbinder_view_read_string8(&v, out, 1 + rnd() % sizeof(out)); break;
		case 3: r = kbinder_view_read_strong_binder(&v, reader, &obj, &u); break;
		case 4: r = kbinder_view_read_status(&v, &ex, &code, rnd() % 2 ? out : NULL, sizeof(out)); break;
		case 5: r = kbinder_view_read_fd(&v); r = r >= 0 ? 0 : r; break;
		case 6: r = kbinder_view_read_u32(&v, &u); break;
		default: r = kbinder_view_get_object(&v, rnd() % 5, &obj); if (!r) continue; break;
		}
		if (v.pos > v.size)
			FAIL("cursor %zu past the end %zu", v.pos, v.size);
		if (r < 0 && v.pos != before)
			FAIL("a refused read (%d) moved the cursor %zu -> %zu", r, before, v.pos);
		if (r < 0)
			break;
	}
	/* Strings that were accepted are valid UTF-8 we can write again. */
	v.pos = 0;
	if (kbinder_view_read_string16(&v, out, sizeof(out)) == 0) {
		struct kbinder_parcel again;

		if (strlen(out) >= sizeof(out))
			FAIL("unterminated string");
		kbinder_parcel_init(&again);
		if (kbinder_parcel_write_string16(&again, out))
			FAIL("read a string16 that is not valid UTF-8");
		kbinder_parcel_fini(&again);
	}
	free(data);
	free(offs);
	kbinder_parcel_fini(&p);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 0) : 1;
	unsigned long inputs = 0;
	double end = now() + seconds;

	rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
	while (now() < end && !failures) {
		for (int i = 0; i < 256; i++) {
			struct kbinder_wire w, r;

			kbinder_wire_init(&w, 28 + (int)(rnd() % 9));
			kbinder_wire_init(&r, rnd() % 4 ? w.api_level : 28 + (int)(rnd() % 9));
			if (rnd() % 8 == 0)
				w.marker = KBINDER_MARKER_VENDOR;
			one_input(&w, &r);
			inputs++;
		}
	}
	if (failures)
		return 1;
	printf("PASS lib/android_fuzz (%lu inputs, seed %lu, %.0f s)\n",
	       inputs, seed, seconds);
	return 0;
}
