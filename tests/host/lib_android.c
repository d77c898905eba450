// SPDX-License-Identifier: Apache-2.0
/*
 * Host tests of Android's parcel conventions (lib/src/android.c) at every
 * API level from 28 to 36: round trips, the exact bytes Android writes,
 * and malformed input refused with the cursor left where it was.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kbinder/android.h>
#include "lib_check.h"

#define DESC "android.os.IServiceManager"

/* A view over @p as the receiver would see it (the driver keeps offsets). */
static void view_of(struct kbinder_parcel *p, struct kbinder_view *v)
{
	struct binder_transaction_data tr;

	memset(&tr, 0, sizeof(tr));
	kbinder_parcel_to_txn(p, &tr);
	kbinder_view_init(v, &tr);
}

static uint32_t word(const struct kbinder_parcel *p, size_t i)
{
	uint32_t w;

	memcpy(&w, p->data + i * 4, 4);
	return w;
}

static void wire(struct kbinder_wire *w, int level)
{
	if (kbinder_wire_init(w, level))
		abort();
}

static void wire_levels_outside_28_36_are_refused(void)
{
	struct kbinder_wire w;

	LIB_CHECK_EQ(kbinder_wire_init(&w, 27), -EINVAL);
	LIB_CHECK_EQ(kbinder_wire_init(&w, 37), -EINVAL);
	unsetenv("KBINDER_API_LEVEL");
	LIB_CHECK_EQ(kbinder_wire_init(&w, 0), 0);
	LIB_CHECK_EQ(w.api_level, KBINDER_API_LEVEL_DEFAULT);
	setenv("KBINDER_API_LEVEL", "30", 1);
	LIB_CHECK_EQ(kbinder_wire_default_level(), 30);
	setenv("KBINDER_API_LEVEL", "30x", 1);
	LIB_CHECK_EQ(kbinder_wire_default_level(), KBINDER_API_LEVEL_DEFAULT);
	setenv("KBINDER_API_LEVEL", "99", 1);
	LIB_CHECK_EQ(kbinder_wire_default_level(), KBINDER_API_LEVEL_DEFAULT);
	unsetenv("KBINDER_API_LEVEL");
	LIB_CHECK(!strcmp(kbinder_wire_android_version(30), "11"));
	LIB_CHECK(!strcmp(kbinder_wire_android_version(36), "16"));
}

/* A level or a release of one by name; the environment may name either. */
static void wire_names_are_levels_and_their_quarterly_releases(void)
{
	static const char *const bad[] = {
		"34-qpr1", "35-qpr3", "35-qpr", "35qpr1", "35-QPR1", "36-", "037",
	};
	struct kbinder_wire w;

	LIB_CHECK_EQ(kbinder_wire_init_name(&w, "35"), 0);
	LIB_CHECK_EQ(w.api_level, 35);
	LIB_CHECK_EQ(w.qpr, 0);
	LIB_CHECK(!strcmp(kbinder_wire_release(&w), "15"));
	LIB_CHECK_EQ(kbinder_wire_init_name(&w, "35-qpr2"), 0);
	LIB_CHECK_EQ(w.api_level, 35);
	LIB_CHECK_EQ(w.qpr, 2);
	LIB_CHECK_EQ(w.marker, KBINDER_MARKER_SYSTEM);
	LIB_CHECK(!strcmp(kbinder_wire_name(&w), "35-qpr2"));
	LIB_CHECK(!strcmp(kbinder_wire_release(&w), "15 QPR2"));
	LIB_CHECK_EQ(kbinder_wire_init_name(&w, "36-qpr1"), 0);
	LIB_CHECK(!strcmp(kbinder_wire_release(&w), "16 QPR1"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		LIB_CHECK_EQ(kbinder_wire_init_name(&w, bad[i]), -EINVAL);
	/* A plain level is its first release. */
	LIB_CHECK_EQ(kbinder_wire_init(&w, 36), 0);
	LIB_CHECK_EQ(w.qpr, 0);
	setenv("KBINDER_API_LEVEL", "35-qpr1", 1);
	LIB_CHECK_EQ(kbinder_wire_init(&w, 0), 0);
	LIB_CHECK_EQ(w.api_level, 35);
	LIB_CHECK_EQ(w.qpr, 1);
	LIB_CHECK_EQ(kbinder_wire_init_name(&w, NULL), 0);
	LIB_CHECK_EQ(w.qpr, 1);
	LIB_CHECK_EQ(kbinder_wire_default_level(), 35);
	setenv("KBINDER_API_LEVEL", "34-qpr1", 1);
	LIB_CHECK_EQ(kbinder_wire_default_level(), KBINDER_API_LEVEL_DEFAULT);
	unsetenv("KBINDER_API_LEVEL");
	LIB_CHECK_EQ(kbinder_wire_init_name(&w, ""), 0);
	LIB_CHECK_EQ(w.api_level, KBINDER_API_LEVEL_DEFAULT);
	w.qpr = 3;
	LIB_CHECK(!strcmp(kbinder_wire_name(&w), "?"));
}

/* The header words before the descriptor, as each release writes them. */
static void token_bytes_are_androids_at_every_level(void)
{
	for (int level = 28; level <= 36; level++) {
		struct kbinder_parcel p;
		struct kbinder_wire w;
		size_t words = level >= 30 ? 3 : level >= 29 ? 2 : 1;

		wire(&w, level);
		kbinder_parcel_init(&p);
		LIB_CHECK_EQ(kbinder_parcel_write_token(&p, &w, DESC), 0);
		LIB_CHECK_EQ(word(&p, 0), level >= 29 ? 0x80000000u : 0x00400000u);
		if (level >= 29)
			LIB_CHECK_EQ(word(&p, 1), 0xffffffffu);	/* unset work source */
		if (level >= 30)
			LIB_CHECK_EQ(word(&p, 2), 0x53595354u);	/* 'SYST' */
		LIB_CHECK_EQ(word(&p, words), strlen(DESC));
		LIB_CHECK_EQ(p.size, words * 4 + 4 + ((strlen(DESC) + 1) * 2 + 3) / 4 * 4);
		kbinder_parcel_fini(&p);
	}
}

/* An interface token for DESC at one API level: the parcel, its view, the wire. */
struct token {
	struct kbinder_parcel p;
	struct kbinder_view v;
	struct kbinder_wire w;
	char out[64];
};

static void token_at(struct token *tk, int level)
{
	wire(&tk->w, level);
	kbinder_parcel_init(&tk->p);
	kbinder_parcel_write_token(&tk->p, &tk->w, DESC);
}

static void token_round_trips_at_every_level(void)
{
	for (int level = 28; level <= 36; level++) {
		struct token tk;

		token_at(&tk, level);
		kbinder_parcel_write_u32(&tk.p, 7);
		view_of(&tk.p, &tk.v);
		LIB_CHECK_EQ(kbinder_view_read_token(&tk.v, &tk.w, tk.out, sizeof(tk.out)), 0);
		LIB_CHECK(!strcmp(tk.out, DESC));
		view_of(&tk.p, &tk.v);
		LIB_CHECK_EQ(kbinder_view_check_token(&tk.v, &tk.w, DESC), 0);
		LIB_CHECK_EQ(kbinder_view_read_u32(&tk.v, (uint32_t *)tk.out), 0);
		view_of(&tk.p, &tk.v);
		LIB_CHECK_EQ(kbinder_view_check_token(&tk.v, &tk.w, "android.os.IOther"), -EPERM);
		kbinder_parcel_fini(&tk.p);
	}
}

static void token_with_the_other_partitions_marker_is_refused(void)
{
	for (int level = 28; level <= 36; level++) {
		struct kbinder_view v;
		struct kbinder_wire sys, vnd;
		struct kbinder_parcel p;
		char out[64];

		wire(&sys, level);
		wire(&vnd, level);
		vnd.marker = KBINDER_MARKER_VENDOR;
		kbinder_parcel_init(&p);
		kbinder_parcel_write_token(&p, &vnd, DESC);
		view_of(&p, &v);
		/* No marker before Android 11: nothing to disagree on. */
		LIB_CHECK_EQ(kbinder_view_read_token(&v, &sys, out, sizeof(out)),
			     level >= 30 ? -EBADMSG : 0);
		if (level >= 30)
			LIB_CHECK_EQ(v.pos, 0);
		view_of(&p, &v);
		LIB_CHECK_EQ(kbinder_view_read_token(&v, &vnd, out, sizeof(out)), 0);
		kbinder_parcel_fini(&p);
	}
}

/* Every prefix of a valid token is refused, and the cursor stays put. */
static void truncated_tokens_are_refused(void)
{
	for (int level = 28; level <= 36; level++) {
		struct token tk;

		token_at(&tk, level);
		for (size_t n = 0; n < tk.p.size; n++) {
			view_of(&tk.p, &tk.v);
			tk.v.size = n;
			LIB_CHECK_EQ(kbinder_view_read_token(&tk.v, &tk.w, tk.out, sizeof(tk.out)),
				     -EBADMSG);
			LIB_CHECK_EQ(tk.v.pos, 0);
		}
		kbinder_parcel_fini(&tk.p);
	}
}

static void strings_round_trip(void)
{
	static const char *const texts[] = {
		"", "a", "servicemanager", "h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac",
		"clef \xf0\x9d\x84\x9e end", "\xf4\x8f\xbf\xbf",
	};
	struct kbinder_view v;
	struct kbinder_parcel p;
	char out[64];

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		kbinder_parcel_init(&p);
		LIB_CHECK_EQ(kbinder_parcel_write_string16(&p, texts[i]), 0);
		LIB_CHECK_EQ(kbinder_parcel_write_string8(&p, texts[i]), 0);
		LIB_CHECK_EQ(kbinder_parcel_write_string16(&p, NULL), 0);
		LIB_CHECK_EQ(kbinder_parcel_write_string8(&p, NULL), 0);
		view_of(&p, &v);
		LIB_CHECK_EQ(kbinder_view_read_string16(&v, out, sizeof(out)), 0);
		LIB_CHECK(!strcmp(out, texts[i]));
		LIB_CHECK_EQ(kbinder_view_read_string8(&v, out, sizeof(out)), 0);
		LIB_CHECK(!strcmp(out, texts[i]));
		LIB_CHECK_EQ(kbinder_view_read_string16(&v, out, sizeof(out)), KBINDER_NULL);
		LIB_CHECK_EQ(kbinder_view_read_string8(&v, out, sizeof(out)), KBINDER_NULL);
		LIB_CHECK_EQ(v.pos, p.size);
		kbinder_parcel_fini(&p);
	}
	/* A surrogate pair is two units. */
	kbinder_parcel_init(&p);
	kbinder_parcel_write_string16(&p, "\xf0\x9d\x84\x9e");
	LIB_CHECK_EQ(word(&p, 0), 2);
	LIB_CHECK_EQ(word(&p, 1), 0xdd1ed834u);
	kbinder_parcel_fini(&p);
}

static void invalid_utf8_is_not_written(void)
{
	static const char *const bad[] = {
		"\xff", "\xc0\xaf", "\xed\xa0\x80", "a\xe2\x82", "\xf4\x90\x80\x80",
	};
	struct kbinder_parcel p;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		kbinder_parcel_init(&p);
		LIB_CHECK_EQ(kbinder_parcel_write_string16(&p, bad[i]), -EINVAL);
		LIB_CHECK_EQ(p.size, 0);
		kbinder_parcel_fini(&p);
	}
}

/* A String16 made of raw words. */
static void raw16(struct kbinder_parcel *p, int32_t len, const uint16_t *u,
		  size_t n)
{
	kbinder_parcel_init(p);
	kbinder_parcel_write_u32(p, (uint32_t)len);
	kbinder_parcel_write(p, u, n * 2);
}

static void malformed_string16_is_refused(void)
{
	static const uint16_t lone_high[] = { 'a', 0xd834, 0 };
	static const uint16_t lone_low[] = { 0xdd1e, 'a', 0 };
	static const uint16_t inner_nul[] = { 'a', 0, 'b', 0 };
	static const uint16_t no_end[] = { 'a', 'b', 'c', 'd' };
	static const uint16_t ok[] = { 'a', 'b', 0, 0 };
	struct kbinder_view v;
	struct kbinder_parcel p;
	char out[8];

	raw16(&p, 2, lone_high, 3);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_string16(&v, out, sizeof(out)), -EBADMSG);
	LIB_CHECK_EQ(v.pos, 0);
	kbinder_parcel_fini(&p);
	raw16(&p, 2, lone_low, 3);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_string16(&v, out, sizeof(out)), -EBADMSG);
	kbinder_parcel_fini(&p);
	raw16(&p, 3, inner_nul, 4);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_string16(&v, out, sizeof(out)), -EBADMSG);
	kbinder_parcel_fini(&p);
	raw16(&p, 3, no_end, 4);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_string16(&v, out, sizeof(out)), -EBADMSG);
	kbinder_parcel_fini(&p);
	for (int32_t len = -2; len > -5; len--) {
		raw16(&p, len, ok, 4);
		view_of(&p, &v);
		LIB_CHECK_EQ(kbinder_view_read_string16(&v, out, sizeof(out)), -EBADMSG);
		kbinder_parcel_fini(&p);
	}
	raw16(&p, INT32_MAX, ok, 4);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_string16(&v, out, sizeof(out)), -EBADMSG);
	LIB_CHECK_EQ(kbinder_view_read_string8(&v, out, sizeof(out)), -EBADMSG);
	kbinder_parcel_fini(&p);
	/* Does not fit: -ENOBUFS, cursor unchanged, out empty. */
	kbinder_parcel_init(&p);
	kbinder_parcel_write_string16(&p, "0123456789");
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_string16(&v, out, sizeof(out)), -ENOBUFS);
	LIB_CHECK_EQ(v.pos, 0);
	LIB_CHECK_EQ(out[0], 0);
	kbinder_parcel_fini(&p);
}

static void binders_round_trip_with_their_stability(void)
{
	for (int level = 28; level <= 36; level++) {
		struct flat_binder_object obj;
		struct kbinder_view v;
		struct kbinder_parcel p;
		struct kbinder_wire w;
		size_t extra = level >= 30 ? 4 : 0;
		uint32_t stab = 99;

		wire(&w, level);
		kbinder_parcel_init(&p);
		LIB_CHECK_EQ(kbinder_parcel_write_strong_binder(&p, &w, 0x1000, 0x2000), 0);
		LIB_CHECK_EQ(p.size, sizeof(obj) + extra);
		LIB_CHECK_EQ(p.n_offsets, 1);
		if (level == 31 || level == 32)
			LIB_CHECK_EQ(word(&p, 6), 0x0c000001u);	/* version 1, SYSTEM */
		else if (level >= 30)
			LIB_CHECK_EQ(word(&p, 6), KBINDER_STABILITY_SYSTEM);
		kbinder_parcel_write_strong_handle(&p, &w, 5, KBINDER_STABILITY_VINTF);
		kbinder_parcel_write_strong_binder(&p, &w, 0, 0);	/* null */
		LIB_CHECK_EQ(p.n_offsets, 2);	/* the null binder is no object */
		view_of(&p, &v);
		LIB_CHECK_EQ(kbinder_view_read_strong_binder(&v, &w, &obj, &stab), 0);
		LIB_CHECK_EQ(obj.hdr.type, BINDER_TYPE_BINDER);
		LIB_CHECK_EQ(obj.binder, 0x1000);
		LIB_CHECK_EQ(obj.cookie, 0x2000);
		LIB_CHECK_EQ(stab, level >= 30 ? KBINDER_STABILITY_SYSTEM : 0);
		LIB_CHECK_EQ(kbinder_view_read_strong_binder(&v, &w, &obj, &stab), 0);
		LIB_CHECK_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
		LIB_CHECK_EQ(obj.handle, 5);
		LIB_CHECK_EQ(stab, level >= 30 ? KBINDER_STABILITY_VINTF : 0);
		LIB_CHECK_EQ(kbinder_view_read_strong_binder(&v, &w, &obj, &stab),
			     KBINDER_NULL);
		LIB_CHECK_EQ(v.pos, p.size);
		kbinder_parcel_fini(&p);
	}
}

static void malformed_binders_are_refused(void)
{
	for (int level = 28; level <= 36; level++) {
		struct flat_binder_object obj, raw;
		struct kbinder_view v;
		struct kbinder_parcel p;
		struct kbinder_wire w;
		uint32_t bad[] = { 5, 0x0c, 0x0c000001u, 0x0c000002u, 0x0c010001u };

		wire(&w, level);
		/* Non-null object bytes the driver never saw (no offset). */
		memset(&raw, 0, sizeof(raw));
		raw.hdr.type = BINDER_TYPE_HANDLE;
		raw.handle = 3;
		kbinder_parcel_init(&p);
		kbinder_parcel_write(&p, &raw, sizeof(raw));
		kbinder_parcel_write_u32(&p, KBINDER_STABILITY_SYSTEM);
		view_of(&p, &v);
		LIB_CHECK_EQ(kbinder_view_read_strong_binder(&v, &w, &obj, NULL), -EBADMSG);
		LIB_CHECK_EQ(v.pos, 0);
		kbinder_parcel_fini(&p);
		/* An fd object where a binder is expected. */
		kbinder_parcel_init(&p);
		kbinder_parcel_write_fd(&p, 4, 0);
		kbinder_parcel_write_u32(&p, KBINDER_STABILITY_SYSTEM);
		view_of(&p, &v);
		LIB_CHECK_EQ(kbinder_view_read_strong_binder(&v, &w, &obj, NULL), -EBADMSG);
		LIB_CHECK_EQ(kbinder_view_read_fd(&v), 4);
		kbinder_parcel_fini(&p);
		if (level < 30)
			continue;
		/* Stability values this level never writes. */
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			bool category = level == 31 || level == 32;
			bool valid = category ? bad[i] == 0x0c000001u : bad[i] == 0x0c;

			kbinder_parcel_init(&p);
			kbinder_parcel_write_handle(&p, 3, 0, false);
			kbinder_parcel_write_u32(&p, bad[i]);
			view_of(&p, &v);
			LIB_CHECK_EQ(kbinder_view_read_strong_binder(&v, &w, &obj, NULL),
				     valid ? 0 : -EBADMSG);
			if (!valid)
				LIB_CHECK_EQ(v.pos, 0);
			/* And the stability field cut off. */
			view_of(&p, &v);
			v.size -= 4;
			LIB_CHECK_EQ(kbinder_view_read_strong_binder(&v, &w, &obj, NULL),
				     -EBADMSG);
			kbinder_parcel_fini(&p);
		}
	}
}

/*
 * libbinder writes handle 0 (the context manager) as bytes with no offset
 * (its Parcel records an object only when the object's binder/handle word
 * is nonzero) and reads such bytes back as handle 0; so does libkbinder.
 * Any other handle, and handle 0 with a cookie, must have been translated.
 */
static void handle_0_as_bytes_is_the_context_manager(void)
{
	for (int level = 28; level <= 36; level++) {
		static const struct { uint32_t handle; uint64_t cookie; int want; } cases[] = {
			{ 0, 0, 0 }, { 1, 0, -EBADMSG }, { 0, 1, -EBADMSG },
		};
		struct flat_binder_object obj, raw;
		struct kbinder_view v;
		struct kbinder_parcel p;
		struct kbinder_wire w;
		uint32_t stab = 99;

		wire(&w, level);
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			memset(&raw, 0, sizeof(raw));
			raw.hdr.type = BINDER_TYPE_HANDLE;
			raw.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | 19;	/* libbinder's */
			raw.handle = cases[i].handle;
			raw.cookie = cases[i].cookie;
			kbinder_parcel_init(&p);
			kbinder_parcel_write(&p, &raw, sizeof(raw));
			if (level >= 30)
				kbinder_parcel_write_u32(&p, level == 31 || level == 32 ?
							 0x0c000001u : KBINDER_STABILITY_SYSTEM);
			view_of(&p, &v);
			LIB_CHECK_EQ(kbinder_view_read_strong_binder(&v, &w, &obj, &stab),
				     cases[i].want);
			if (!cases[i].want) {
				LIB_CHECK_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
				LIB_CHECK_EQ(obj.handle, 0);
				LIB_CHECK_EQ(stab, level >= 30 ? KBINDER_STABILITY_SYSTEM : 0);
				LIB_CHECK_EQ(v.pos, p.size);
			} else {
				LIB_CHECK_EQ(v.pos, 0);
			}
			kbinder_parcel_fini(&p);
		}
	}
}

static void status_round_trips(void)
{
	struct kbinder_view v;
	struct kbinder_parcel p;
	int32_t ex, code;
	char msg[64];

	kbinder_parcel_init(&p);
	kbinder_parcel_write_status(&p, KBINDER_EX_NONE, NULL, 0);
	kbinder_parcel_write_status(&p, KBINDER_EX_ILLEGAL_ARGUMENT, "bad name", 0);
	kbinder_parcel_write_status(&p, KBINDER_EX_SERVICE_SPECIFIC, NULL, 42);
	kbinder_parcel_write_status(&p, KBINDER_EX_SECURITY, "a long message that does not fit", 0);
	/* A reply header (Java writers), skipped: 12 bytes counting its size. */
	kbinder_parcel_write_u32(&p, (uint32_t)KBINDER_EX_HAS_REPLY_HEADER);
	kbinder_parcel_write_u32(&p, 12);
	kbinder_parcel_write_u64(&p, 0);
	LIB_CHECK_EQ(word(&p, 0), 0);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_status(&v, &ex, &code, msg, sizeof(msg)), 0);
	LIB_CHECK_EQ(ex, KBINDER_EX_NONE);
	LIB_CHECK_EQ(kbinder_view_read_status(&v, &ex, &code, msg, sizeof(msg)), 0);
	LIB_CHECK_EQ(ex, KBINDER_EX_ILLEGAL_ARGUMENT);
	LIB_CHECK(!strcmp(msg, "bad name"));
	LIB_CHECK_EQ(kbinder_view_read_status(&v, &ex, &code, msg, sizeof(msg)), 0);
	LIB_CHECK_EQ(ex, KBINDER_EX_SERVICE_SPECIFIC);
	LIB_CHECK_EQ(code, 42);
	LIB_CHECK_EQ(kbinder_view_read_status(&v, &ex, &code, msg, 8), 0);
	LIB_CHECK_EQ(ex, KBINDER_EX_SECURITY);
	LIB_CHECK_EQ(kbinder_view_read_status(&v, &ex, &code, NULL, 0), 0);
	LIB_CHECK_EQ(ex, KBINDER_EX_NONE);
	LIB_CHECK_EQ(v.pos, p.size);
	kbinder_parcel_fini(&p);
}

static void malformed_status_is_refused(void)
{
	struct kbinder_view v;
	struct kbinder_parcel p;
	int32_t ex, code;

	/* Service-specific without its code. */
	kbinder_parcel_init(&p);
	kbinder_parcel_write_u32(&p, (uint32_t)KBINDER_EX_SERVICE_SPECIFIC);
	kbinder_parcel_write_string16(&p, "x");
	kbinder_parcel_write_u32(&p, 0);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_status(&v, &ex, &code, NULL, 0), -EBADMSG);
	LIB_CHECK_EQ(v.pos, 0);
	kbinder_parcel_fini(&p);
	/* A stack trace longer than the data; a negative one. */
	for (int32_t trace = -4; trace <= 400; trace += 404) {
		kbinder_parcel_init(&p);
		kbinder_parcel_write_u32(&p, (uint32_t)KBINDER_EX_SECURITY);
		kbinder_parcel_write_string16(&p, NULL);
		kbinder_parcel_write_u32(&p, (uint32_t)trace);
		view_of(&p, &v);
		LIB_CHECK_EQ(kbinder_view_read_status(&v, &ex, &code, NULL, 0), -EBADMSG);
		kbinder_parcel_fini(&p);
	}
	/* A reply header whose size is below its own word, or past the end. */
	for (uint32_t size = 0; size <= 100; size += 100) {
		kbinder_parcel_init(&p);
		kbinder_parcel_write_u32(&p, (uint32_t)KBINDER_EX_HAS_REPLY_HEADER);
		kbinder_parcel_write_u32(&p, size);
		view_of(&p, &v);
		LIB_CHECK_EQ(kbinder_view_read_status(&v, &ex, &code, NULL, 0), -EBADMSG);
		kbinder_parcel_fini(&p);
	}
	/* Nothing at all. */
	kbinder_parcel_init(&p);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_status(&v, &ex, &code, NULL, 0), -EBADMSG);
	kbinder_parcel_fini(&p);
}

/* A recovery image's token ('RECO'): only a recovery-build reader takes it. */
static void recovery_token_is_its_own_partition(void)
{
	struct kbinder_view v;
	struct kbinder_wire sys, reco;
	struct kbinder_parcel p;
	char out[64];

	wire(&sys, 33);
	wire(&reco, 33);
	reco.marker = KBINDER_MARKER_RECOVERY;
	kbinder_parcel_init(&p);
	kbinder_parcel_write_token(&p, &reco, DESC);
	LIB_CHECK_EQ(word(&p, 2), 0x5245434fu);	/* 'RECO' */
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_token(&v, &sys, out, sizeof(out)), -EBADMSG);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_read_token(&v, &reco, out, sizeof(out)), 0);
	LIB_CHECK(!strcmp(out, DESC));
	LIB_CHECK_EQ(KBINDER_MARKER_HOST, 0x554e4b4eu);	/* 'UNKN' */
	kbinder_parcel_fini(&p);
}

/* A structured parcelable: marker, a size counting itself, the fields. */
static void parcelables_are_framed_as_aidl_does(void)
{
	struct kbinder_view v;
	struct kbinder_parcel p;
	uint32_t x = 0;
	size_t at, end;

	kbinder_parcel_init(&p);
	at = kbinder_parcel_begin_parcelable(&p);
	kbinder_parcel_write_u32(&p, 5);
	kbinder_parcel_write_u32(&p, 6);
	LIB_CHECK_EQ(kbinder_parcel_end_parcelable(&p, at), 0);
	kbinder_parcel_write_u32(&p, 0);		/* a null one after it */
	kbinder_parcel_write_u32(&p, 0xabcd);
	LIB_CHECK_EQ(word(&p, 0), 1);
	LIB_CHECK_EQ(word(&p, 1), 12);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_begin_parcelable(&v, &end), 0);
	LIB_CHECK_EQ(end, 16);
	LIB_CHECK(kbinder_view_has_field(&v, end));
	LIB_CHECK_EQ(kbinder_view_read_u32(&v, &x), 0);
	LIB_CHECK_EQ(x, 5);
	/* A field we do not know (6) is skipped. */
	LIB_CHECK_EQ(kbinder_view_end_parcelable(&v, end), 0);
	LIB_CHECK_EQ(v.pos, 16);
	LIB_CHECK_EQ(kbinder_view_begin_parcelable(&v, &end), KBINDER_NULL);
	LIB_CHECK_EQ(kbinder_view_read_u32(&v, &x), 0);
	LIB_CHECK_EQ(x, 0xabcd);
	kbinder_parcel_fini(&p);
}

static void malformed_parcelables_are_refused(void)
{
	static const uint32_t bad[][3] = {
		{ 2, 8, 0 },		/* a marker other than 0 and 1 */
		{ 1, 3, 0 },		/* a size that does not count itself */
		{ 1, 12, 0 },		/* a size past the data */
		{ 1, 0x80000000u, 0 },	/* a negative size */
	};
	struct kbinder_view v;
	struct kbinder_parcel p;
	size_t end = 0;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		kbinder_parcel_init(&p);
		for (int k = 0; k < 3; k++)
			kbinder_parcel_write_u32(&p, bad[i][k]);
		view_of(&p, &v);
		LIB_CHECK_EQ(kbinder_view_begin_parcelable(&v, &end), -EBADMSG);
		LIB_CHECK_EQ(v.pos, 0);
		kbinder_parcel_fini(&p);
	}
	/* Fields read past the end: leaving is refused. */
	kbinder_parcel_init(&p);
	kbinder_parcel_write_u32(&p, 1);
	kbinder_parcel_write_u32(&p, 4);
	kbinder_parcel_write_u32(&p, 9);
	view_of(&p, &v);
	LIB_CHECK_EQ(kbinder_view_begin_parcelable(&v, &end), 0);
	LIB_CHECK(!kbinder_view_has_field(&v, end));
	v.pos += 4;
	LIB_CHECK_EQ(kbinder_view_end_parcelable(&v, end), -EBADMSG);
	kbinder_parcel_fini(&p);
	/* Nothing to fill in: an error, sticky. */
	kbinder_parcel_init(&p);
	LIB_CHECK_EQ(kbinder_parcel_end_parcelable(&p, 0), -EINVAL);
	LIB_CHECK_EQ(p.err, -EINVAL);
	kbinder_parcel_fini(&p);
}

int main(void)
{
	LIB_RUN(wire_levels_outside_28_36_are_refused);
	LIB_RUN(wire_names_are_levels_and_their_quarterly_releases);
	LIB_RUN(token_bytes_are_androids_at_every_level);
	LIB_RUN(token_round_trips_at_every_level);
	LIB_RUN(token_with_the_other_partitions_marker_is_refused);
	LIB_RUN(recovery_token_is_its_own_partition);
	LIB_RUN(truncated_tokens_are_refused);
	LIB_RUN(strings_round_trip);
	LIB_RUN(invalid_utf8_is_not_written);
	LIB_RUN(malformed_string16_is_refused);
	LIB_RUN(binders_round_trip_with_their_stability);
	LIB_RUN(malformed_binders_are_refused);
	LIB_RUN(handle_0_as_bytes_is_the_context_manager);
	LIB_RUN(status_round_trips);
	LIB_RUN(malformed_status_is_refused);
	LIB_RUN(parcelables_are_framed_as_aidl_does);
	LIB_RUN(malformed_parcelables_are_refused);
	return lib_failures ? 1 : 0;
}
