// SPDX-License-Identifier: Apache-2.0
/*
 * libkbinder's service manager tables against AOSP's, release by release.
 *
 * The facts are data (tests/host/data/aosp/servicemanager.tab: the
 * method order of IServiceManager and its callbacks, what each method
 * answers, the parcelables, with the AOSP tag and blob each came from);
 * this program reads them and asks libkbinder the same questions at the
 * --api-level it gives each release. One line per check and release:
 * "PASS sm-tables/<release>/<check>" or "FAIL ...: why". Exit 1 if any
 * failed.
 *
 *	build/host/sm_tables [DATA]
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kbinder/servicemanager.h>

#include "aosp_data.h"

#define SAMPLE_HANDLE	7

/* ------------------------------------------------------- the data itself */

/*
 * The table must be whole before it can judge anything: every release
 * with a level, a source and blobs; every code row a cell per release;
 * each interface's codes in a release exactly 1..n; every range valid.
 */
static void check_data(void)
{
	struct aosp_check c = { .n = 0 };

	if (aosp_n_cols < 2)
		aosp_fail(&c, "no columns line");
	for (int i = 0; i < aosp_n_lines; i++) {
		const struct aosp_line *l = &aosp_lines[i];
		const char *k = l->w[0];

		if (!strcmp(k, "code") && l->n != 3 + aosp_n_cols)
			aosp_fail(&c, "line %d: %d cells, %d releases", l->lineno,
				   l->n - 3, aosp_n_cols);
		if ((!strcmp(k, "answer") || !strcmp(k, "args") ||
		     !strcmp(k, "field") || !strcmp(k, "kind") ||
		     !strcmp(k, "header") || !strcmp(k, "const")) &&
		    aosp_in_range(l->w[l->n - 1], 0) < 0)
			aosp_fail(&c, "line %d: bad range '%s'", l->lineno,
				   l->w[l->n - 1]);
		if ((!strcmp(k, "release") || !strcmp(k, "source") ||
		     !strcmp(k, "blob")) && aosp_col(l->w[1]) < 0)
			aosp_fail(&c, "line %d: no release '%s'", l->lineno, l->w[1]);
	}
	for (int col = 0; col < aosp_n_cols; col++) {
		const char *key = aosp_cols[col];
		const char *ifaces[] = { "IServiceManager", "IServiceCallback",
					 "IClientCallback" };
		bool has_release = false, has_source = false, has_blob = false;

		for (int i = 0; i < aosp_n_lines; i++) {
			if (strcmp(aosp_lines[i].w[1], key))
				continue;
			has_release |= !strcmp(aosp_lines[i].w[0], "release") && aosp_lines[i].n == 4;
			has_source |= !strcmp(aosp_lines[i].w[0], "source") && aosp_lines[i].n == 5;
			has_blob |= !strcmp(aosp_lines[i].w[0], "blob");
		}
		if (!has_release || !has_source || !has_blob)
			aosp_fail(&c, "release %s lacks its release, source or blob lines", key);
		for (size_t f = 0; f < sizeof(ifaces) / sizeof(ifaces[0]); f++) {
			unsigned long seen = 0;
			int n = 0;

			for (int i = 0; i < aosp_n_lines; i++) {
				const struct aosp_line *l = &aosp_lines[i];
				int code;

				if (strcmp(l->w[0], "code") || strcmp(l->w[1], ifaces[f]) ||
				    l->n != 3 + aosp_n_cols)
					continue;
				code = aosp_code(l, col);
				if (!code)
					continue;
				if (code < 0 || code > 63 || (seen & 1ul << code))
					aosp_fail(&c, "%s %s: code %d twice or out of range",
						   key, ifaces[f], code);
				else
					seen |= 1ul << code;
				n++;
			}
			if (seen != (n ? ((1ul << n) - 1) << 1 : 0))
				aosp_fail(&c, "%s %s: codes are not 1..%d", key, ifaces[f], n);
		}
	}
	aosp_report("sm-tables", "data", "whole", &c);
}

/* ------------------------------------------------------------ the checks */

/* kbinder's name for the release: a known one, of the release's SDK level. */
static void check_level(const struct aosp_release *r, struct kbinder_wire *w)
{
	struct aosp_check c = { .n = 0 };

	if (kbinder_wire_init_name(w, r->level))
		aosp_fail(&c, "libkbinder has no release '%s'", r->level);
	else if (w->api_level != r->sdk)
		aosp_fail(&c, "'%s' is API level %d in libkbinder, %d in AOSP",
			   r->level, w->api_level, r->sdk);
	else if (strcmp(kbinder_wire_name(w), r->level))
		aosp_fail(&c, "'%s' comes back as '%s'", r->level, kbinder_wire_name(w));
	aosp_report("sm-tables", r->key, "level", &c);
}

/* AIDL IServiceManager exactly where AOSP has IServiceManager.aidl. */
static void check_protocol(const struct aosp_release *r, const struct kbinder_wire *w)
{
	struct aosp_check c = { .n = 0 };
	bool aidl = aosp_blob(r, "IServiceManager.aidl") != NULL;

	if (kbinder_sm_is_aidl(w) != aidl)
		aosp_fail(&c, "libkbinder speaks %s at %s; AOSP's %s is %s",
			   kbinder_sm_is_aidl(w) ? "AIDL" : "the C servicemanager's protocol",
			   r->level, r->key, aidl ? "AIDL" : "hand-written C++");
	aosp_report("sm-tables", r->key, "IServiceManager.protocol", &c);
}

/* Every method at AOSP's code, both ways, and nothing past AOSP's last. */
static void check_sm_codes(const struct aosp_release *r, const struct kbinder_wire *w)
{
	struct aosp_check c = { .n = 0 };
	bool in_aosp[KBINDER_SM_METHODS] = { false };
	int last = 0;

	for (int i = 0; i < aosp_n_lines; i++) {
		const struct aosp_line *l = &aosp_lines[i];
		int code, m, back;

		if (strcmp(l->w[0], "code") || strcmp(l->w[1], "IServiceManager"))
			continue;
		code = aosp_code(l, r->col);
		if (!code)
			continue;
		last = code > last ? code : last;
		m = aosp_method(l->w[2]);
		if (m < 0) {
			aosp_fail(&c, "libkbinder has no method %s (code %d in %s)",
				   l->w[2], code, aosp_where(r, aosp_sm_file(r)));
			continue;
		}
		in_aosp[m] = true;
		back = kbinder_sm_method_of(w, (uint32_t)code);
		if (kbinder_sm_code(w, m) != (uint32_t)code)
			aosp_fail(&c, "%s is code %u in libkbinder at %s, %d in AOSP (%s)",
				   l->w[2], kbinder_sm_code(w, m), r->level, code,
				   aosp_where(r, aosp_sm_file(r)));
		else if (back != m)
			aosp_fail(&c, "code %d is %s in libkbinder at %s, %s in AOSP (%s)",
				   code, back < 0 ? "nothing" : kbinder_sm_method_name(back),
				   r->level, l->w[2], aosp_where(r, aosp_sm_file(r)));
	}
	for (int m = 0; m < KBINDER_SM_METHODS; m++)
		if (!in_aosp[m] && kbinder_sm_code(w, m))
			aosp_fail(&c, "libkbinder has %s at code %u at %s; AOSP's %s has no %s (%s)",
				   kbinder_sm_method_name(m), kbinder_sm_code(w, m),
				   r->level, r->key, kbinder_sm_method_name(m),
				   aosp_where(r, aosp_sm_file(r)));
	if (kbinder_sm_method_of(w, (uint32_t)last + 1) >= 0)
		aosp_fail(&c, "libkbinder answers code %d at %s; AOSP's last is %d (%s)",
			   last + 1, r->level, last, aosp_where(r, aosp_sm_file(r)));
	aosp_report("sm-tables", r->key, "IServiceManager.codes", &c);
}

/* The one method of each callback interface, at the code libkbinder calls. */
static void check_callbacks(const struct aosp_release *r)
{
	static const char *const keys[][2] = {
		{ "IServiceCallback", "onRegistration" },
		{ "IClientCallback", "onClients" },
	};
	static const uint32_t ours[] = {
		KBINDER_SM_CALLBACK_ON_REGISTRATION,
		KBINDER_SM_CLIENT_CALLBACK_ON_CLIENTS,
	};
	struct aosp_check c = { .n = 0 };

	for (size_t k = 0; k < sizeof(ours) / sizeof(ours[0]); k++) {
		for (int i = 0; i < aosp_n_lines; i++) {
			const struct aosp_line *l = &aosp_lines[i];
			int code;

			if (strcmp(l->w[0], "code") || strcmp(l->w[1], keys[k][0]) ||
			    strcmp(l->w[2], keys[k][1]))
				continue;
			code = aosp_code(l, r->col);
			if (code && (uint32_t)code != ours[k])
				aosp_fail(&c, "%s.%s is code %u in libkbinder, %d in AOSP (%s)",
					   keys[k][0], keys[k][1], ours[k], code,
					   aosp_where(r, k ? "IClientCallback.aidl" :
						 "IServiceCallback.aidl"));
		}
	}
	aosp_report("sm-tables", r->key, "callbacks.codes", &c);
}

/* IServiceManager's constants that libkbinder names. */
static void check_constants(const struct aosp_release *r)
{
	static const struct {
		const char *name;
		long value;
	} ours[] = {
		{ "DUMP_FLAG_PRIORITY_CRITICAL", KBINDER_DUMP_FLAG_PRIORITY_CRITICAL },
		{ "DUMP_FLAG_PRIORITY_HIGH", KBINDER_DUMP_FLAG_PRIORITY_HIGH },
		{ "DUMP_FLAG_PRIORITY_NORMAL", KBINDER_DUMP_FLAG_PRIORITY_NORMAL },
		{ "DUMP_FLAG_PRIORITY_DEFAULT", KBINDER_DUMP_FLAG_PRIORITY_DEFAULT },
		{ "DUMP_FLAG_PRIORITY_ALL", KBINDER_DUMP_FLAG_PRIORITY_ALL },
		{ "DUMP_FLAG_PROTO", KBINDER_DUMP_FLAG_PROTO },
		{ "FLAG_IS_LAZY_SERVICE", KBINDER_SM_FLAG_IS_LAZY_SERVICE },
	};
	struct aosp_check c = { .n = 0 };

	for (size_t k = 0; k < sizeof(ours) / sizeof(ours[0]); k++) {
		const char *keys[] = { "IServiceManager", ours[k].name };
		const struct aosp_line *l = aosp_find("const", keys, 2, r->col);

		if (l && atol(l->w[3]) != ours[k].value)
			aosp_fail(&c, "%s is %ld in libkbinder, %s in AOSP (%s)",
				   ours[k].name, ours[k].value, l->w[3],
				   aosp_where(r, aosp_sm_file(r)));
	}
	aosp_report("sm-tables", r->key, "IServiceManager.constants", &c);
}

/* The token headers libbinder writes at this release, as libkbinder names them. */
static void check_headers(const struct aosp_release *r, const struct kbinder_wire *w)
{
	static const struct {
		uint32_t marker;
		const char *build;
	} ours[] = {
		{ KBINDER_MARKER_SYSTEM, "system" }, { KBINDER_MARKER_VENDOR, "vendor" },
		{ KBINDER_MARKER_RECOVERY, "recovery" }, { KBINDER_MARKER_HOST, "host" },
	};
	struct aosp_check c = { .n = 0 };
	int found = 0;

	for (int i = 0; i < aosp_n_lines; i++) {
		const struct aosp_line *l = &aosp_lines[i];
		uint32_t fourcc;
		size_t k;

		if (strcmp(l->w[0], "header") || l->n != 4 || aosp_in_range(l->w[3], r->col) != 1)
			continue;
		found++;
		for (k = 0; k < sizeof(ours) / sizeof(ours[0]); k++)
			if (!strcmp(ours[k].build, l->w[1]))
				break;
		if (strlen(l->w[2]) != 4) {
			aosp_fail(&c, "line %d: '%s' is no fourcc", l->lineno, l->w[2]);
			continue;
		}
		fourcc = KBINDER_FOURCC(l->w[2][0], l->w[2][1], l->w[2][2], l->w[2][3]);
		if (k == sizeof(ours) / sizeof(ours[0]))
			aosp_fail(&c, "libkbinder names no header for a %s build ('%s', %s)",
				   l->w[1], l->w[2], aosp_where(r, "Parcel.cpp"));
		else if (ours[k].marker != fourcc)
			aosp_fail(&c, "a %s build's header is 0x%08x in libkbinder, '%s' in AOSP (%s)",
				   l->w[1], ours[k].marker, l->w[2], aosp_where(r, "Parcel.cpp"));
	}
	/* The header's very presence is the API level's (libkbinder writes it from 30). */
	if ((found > 0) != (w->api_level >= 30))
		aosp_fail(&c, "libkbinder %s a token header at %s; AOSP's %s %s",
			   w->api_level >= 30 ? "writes" : "writes no", r->level, r->key,
			   found ? "has one" : "has none");
	aosp_report("sm-tables", r->key, "token.headers", &c);
}

/* The layout libkbinder should use for an answer of @type at @col. */
static int layout_for(const char *type, int col)
{
	const struct aosp_line *m;

	if (!strcmp(type, "IBinder?") || !strcmp(type, "IBinder"))
		return KBINDER_SM_SERVICE_PLAIN;
	if (!aosp_kind(type, col) || strcmp(aosp_kind(type, col), "union"))
		return -1;	/* not a lookup's answer */
	m = aosp_field(type, KBINDER_SM_SERVICE_TAG_SERVICE, col);
	if (!m)
		return -1;
	if (!strcmp(m->w[4], "IBinder?"))
		return KBINDER_SM_SERVICE_BINDER;
	if (aosp_kind(m->w[4], col) && !strcmp(aosp_kind(m->w[4], col), "parcelable"))
		return KBINDER_SM_SERVICE_METADATA;
	return -1;
}

static const char *layout_name(int layout)
{
	switch (layout) {
	case KBINDER_SM_SERVICE_PLAIN:
		return "a plain binder";
	case KBINDER_SM_SERVICE_BINDER:
		return "Service{binder}";
	case KBINDER_SM_SERVICE_METADATA:
		return "Service{ServiceWithMetadata}";
	}
	return "?";
}

/*
 * One lookup answer both ways: libkbinder's writer makes AOSP's bytes,
 * and its reader takes AOSP's bytes back to the same binder, tag and flag.
 */
static void check_service_value(struct aosp_check *c, const struct aosp_release *r,
				const struct kbinder_wire *w, const char *method,
				const char *type, int layout, const struct aosp_sample *v)
{
	struct kbinder_parcel aosp, ours;
	struct kbinder_view view;
	struct kbinder_sm_service got;
	int err;

	kbinder_parcel_init(&aosp);
	kbinder_parcel_init(&ours);
	if (aosp_encode(&aosp, w, type, r->col, v) || aosp.err) {
		aosp_fail(c, "the data cannot lay out %s's %s at %s", method, type, r->key);
		goto out;
	}
	kbinder_parcel_write_sm_service(&ours, w, layout, v->tag, v->handle,
					KBINDER_STABILITY_SYSTEM, v->flag);
	if (ours.err || !aosp_same_parcel(&aosp, &ours)) {
		size_t at = 0;

		while (at < ours.size && at < aosp.size && ours.data[at] == aosp.data[at])
			at++;
		aosp_fail(c, "libkbinder's %s answer (tag %u, %s binder%s) differs from AOSP's %s at byte %zu (%zu and %zu bytes; %s)",
			   method, v->tag, v->handle ? "a" : "null",
			   v->flag ? ", lazy" : "", type, at, ours.size, aosp.size,
			   aosp_where(r, "Service.aidl"));
		goto out;
	}
	aosp_view_of(&aosp, &view);
	err = kbinder_view_read_sm_service(&view, w, layout, &got);
	if (err != (v->handle ? 0 : KBINDER_NULL) || view.pos != aosp.size ||
	    got.tag != v->tag || (v->handle && got.obj.handle != v->handle) ||
	    (layout == KBINDER_SM_SERVICE_METADATA && v->tag == 0 && got.is_lazy != v->flag))
		aosp_fail(c, "libkbinder reads AOSP's %s answer of %s (tag %u) as %d, tag %u",
			   type, method, v->tag, err, got.tag);
out:
	kbinder_parcel_fini(&aosp);
	kbinder_parcel_fini(&ours);
}

/*
 * Every lookup answers as AOSP's does at this release: a plain binder or
 * the Service union, and then with AOSP's bytes for each member; every
 * other method with neither.
 */
static void check_answers(const struct aosp_release *r, const struct kbinder_wire *w)
{
	static const struct aosp_sample samples[] = {
		{ .handle = SAMPLE_HANDLE, .tag = KBINDER_SM_SERVICE_TAG_SERVICE },
		{ .handle = SAMPLE_HANDLE, .tag = KBINDER_SM_SERVICE_TAG_SERVICE, .flag = true },
		{ .handle = 0, .tag = KBINDER_SM_SERVICE_TAG_SERVICE },
		{ .handle = SAMPLE_HANDLE, .tag = KBINDER_SM_SERVICE_TAG_ACCESSOR },
	};
	struct aosp_check c = { .n = 0 };

	if (!kbinder_sm_is_aidl(w)) {
		aosp_report("sm-tables", r->key, "IServiceManager.answers", &c);	/* no union before 11 */
		return;
	}
	for (int m = 0; m < KBINDER_SM_METHODS; m++) {
		const char *keys[] = { "IServiceManager", kbinder_sm_method_name(m) };
		const struct aosp_line *l = aosp_find("answer", keys, 2, r->col);
		int want, ours = kbinder_sm_answer_layout(w, m);

		if (!l)
			continue;	/* not at this release: codes says the rest */
		want = layout_for(l->w[3], r->col);
		if (want < 0)
			want = KBINDER_SM_SERVICE_PLAIN;	/* not a lookup */
		if (ours != want) {
			aosp_fail(&c, "%s answers %s in libkbinder at %s, %s (%s) in AOSP (%s)",
				   keys[1], layout_name(ours), r->level, layout_name(want),
				   l->w[3], aosp_where(r, aosp_sm_file(r)));
			continue;
		}
		if (strcmp(l->w[3], "Service"))
			continue;
		for (size_t k = 0; k < sizeof(samples) / sizeof(samples[0]); k++)
			check_service_value(&c, r, w, keys[1], l->w[3], want, &samples[k]);
	}
	aosp_report("sm-tables", r->key, "IServiceManager.answers", &c);
}

int main(int argc, char **argv)
{
	if (!aosp_load_args("sm-tables", argc, argv))
		return 1;
	check_data();
	for (int col = 0; col < aosp_n_cols; col++) {
		struct aosp_release r;
		struct kbinder_wire w;

		if (!aosp_release(col, &r))
			continue;	/* check_data said so */
		check_level(&r, &w);
		if (kbinder_wire_init_name(&w, r.level))
			continue;
		check_protocol(&r, &w);
		check_sm_codes(&r, &w);
		check_answers(&r, &w);
		check_callbacks(&r);
		check_constants(&r);
		check_headers(&r, &w);
	}
	return aosp_failures() ? 1 : 0;
}
