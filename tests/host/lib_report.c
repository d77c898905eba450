// SPDX-License-Identifier: Apache-2.0
/*
 * Host unit tests of kbinder_report_parse(): a BINDER_CMD_REPORT message is
 * taken apart attribute by attribute, and every malformed message (short,
 * lying about its length, of another family or command, missing a
 * mandatory attribute, with an unterminated context) is refused rather than
 * half-parsed. The messages are built here byte by byte, the way the
 * kernel lays them out, so no driver is needed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/android/binder.h>
#include <linux/android/binder_netlink.h>

#include <kbinder/report.h>

#include "lib_check.h"

#define FAMILY 0x1b

/* A message under construction: netlink header, genl header, attributes. */
struct msg {
	_Alignas(4) uint8_t buf[512];
	size_t len;
};

static void msg_start(struct msg *m, uint16_t family, uint8_t cmd)
{
	struct nlmsghdr nlh = { .nlmsg_type = family };
	struct genlmsghdr genl = { .cmd = cmd, .version = BINDER_FAMILY_VERSION };

	memset(m, 0, sizeof(*m));
	memcpy(m->buf, &nlh, sizeof(nlh));
	memcpy(m->buf + NLMSG_HDRLEN, &genl, sizeof(genl));
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

static void msg_attr(struct msg *m, uint16_t type, const void *data,
		     size_t size)
{
	struct nlattr nla = { .nla_len = (uint16_t)(NLA_HDRLEN + size),
			      .nla_type = type };

	memcpy(m->buf + m->len, &nla, sizeof(nla));
	memcpy(m->buf + m->len + NLA_HDRLEN, data, size);
	m->len += NLA_ALIGN(NLA_HDRLEN + size);
}

static void msg_u32(struct msg *m, uint16_t type, uint32_t v)
{
	msg_attr(m, type, &v, sizeof(v));
}

/* Set nlmsg_len to what was built; returns the length to parse. */
static size_t msg_end(struct msg *m)
{
	uint32_t len = (uint32_t)m->len;

	memcpy(m->buf + offsetof(struct nlmsghdr, nlmsg_len), &len,
	       sizeof(len));
	return m->len;
}

/* Everything but @skip (0: nothing skipped), as the kernel sends it. */
static void msg_full_report(struct msg *m, uint16_t skip)
{
	/* u32 attributes, but for the context (a string) and the reply flag */
	static const struct {
		uint16_t type;
		uint32_t v;
		const void *data;
		size_t size;
	} attrs[] = {
		{ .type = BINDER_A_REPORT_ERROR, .v = BR_DEAD_REPLY },
		{ .type = BINDER_A_REPORT_CONTEXT, .data = "hwbinder", .size = 9 },
		{ .type = BINDER_A_REPORT_FROM_PID, .v = 101 },
		{ .type = BINDER_A_REPORT_FROM_TID, .v = 102 },
		{ .type = BINDER_A_REPORT_TO_PID, .v = 201 },
		{ .type = BINDER_A_REPORT_TO_TID, .v = 202 },
		{ .type = BINDER_A_REPORT_IS_REPLY, .data = "", .size = 0 },
		{ .type = BINDER_A_REPORT_FLAGS, .v = TF_ONE_WAY | TF_ACCEPT_FDS },
		{ .type = BINDER_A_REPORT_CODE, .v = 0x5f4e5446 },
		{ .type = BINDER_A_REPORT_DATA_SIZE, .v = 4096 },
	};

	msg_start(m, FAMILY, BINDER_CMD_REPORT);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		if (attrs[i].type == skip)
			continue;
		if (attrs[i].data)
			msg_attr(m, attrs[i].type, attrs[i].data, attrs[i].size);
		else
			msg_u32(m, attrs[i].type, attrs[i].v);
	}
}

/* Parse a report without attribute @skip into @r (filled with 0xa5 first). */
static int parse_without(uint16_t skip, struct kbinder_report *r)
{
	struct msg m;

	msg_full_report(&m, skip);
	memset(r, 0xa5, sizeof(*r));
	return kbinder_report_parse(m.buf, msg_end(&m), FAMILY, r);
}

/* The whole report, ended: the length to parse. */
static size_t full_report(struct msg *m)
{
	msg_full_report(m, 0);
	return msg_end(m);
}

static void every_attribute_lands_in_its_field(void)
{
	struct kbinder_report r;
	struct msg m;
	size_t len;

	len = full_report(&m);
	memset(&r, 0xa5, sizeof(r));
	LIB_CHECK_EQ(kbinder_report_parse(m.buf, len, FAMILY, &r), 0);
	LIB_CHECK_EQ(r.error, BR_DEAD_REPLY);
	LIB_CHECK(strcmp(r.context, "hwbinder") == 0);
	LIB_CHECK_EQ(r.from_pid, 101);
	LIB_CHECK_EQ(r.from_tid, 102);
	LIB_CHECK_EQ(r.to_pid, 201);
	LIB_CHECK_EQ(r.to_tid, 202);
	LIB_CHECK(r.is_reply);
	LIB_CHECK_EQ(r.flags, TF_ONE_WAY | TF_ACCEPT_FDS);
	LIB_CHECK_EQ(r.code, 0x5f4e5446);
	LIB_CHECK_EQ(r.data_size, 4096);
}

static void optional_attributes_default_to_zero(void)
{
	static const uint16_t optional[] = {
		BINDER_A_REPORT_TO_PID, BINDER_A_REPORT_TO_TID,
		BINDER_A_REPORT_IS_REPLY,
	};
	struct kbinder_report r;

	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++) {
		LIB_CHECK_EQ(parse_without(optional[i], &r), 0);
		if (optional[i] == BINDER_A_REPORT_TO_PID)
			LIB_CHECK_EQ(r.to_pid, 0);
		if (optional[i] == BINDER_A_REPORT_TO_TID)
			LIB_CHECK_EQ(r.to_tid, 0);
		if (optional[i] == BINDER_A_REPORT_IS_REPLY)
			LIB_CHECK(!r.is_reply);
	}
}

static void a_missing_mandatory_attribute_is_refused(void)
{
	static const uint16_t mandatory[] = {
		BINDER_A_REPORT_ERROR, BINDER_A_REPORT_CONTEXT,
		BINDER_A_REPORT_FROM_PID, BINDER_A_REPORT_FROM_TID,
		BINDER_A_REPORT_FLAGS, BINDER_A_REPORT_CODE,
		BINDER_A_REPORT_DATA_SIZE,
	};
	struct kbinder_report r;

	for (size_t i = 0; i < sizeof(mandatory) / sizeof(mandatory[0]); i++)
		LIB_CHECK_EQ(parse_without(mandatory[i], &r), -EBADMSG);
}

static void other_families_and_commands_are_not_reports(void)
{
	struct kbinder_report r;
	struct msg m;
	size_t len;

	len = full_report(&m);
	LIB_CHECK_EQ(kbinder_report_parse(m.buf, len, FAMILY + 1, &r), -ENOMSG);

	msg_start(&m, FAMILY, BINDER_CMD_REPORT + 1);
	msg_u32(&m, BINDER_A_REPORT_ERROR, BR_FAILED_REPLY);
	LIB_CHECK_EQ(kbinder_report_parse(m.buf, msg_end(&m), FAMILY, &r), -ENOMSG);
}

static void a_message_longer_than_the_buffer_is_refused(void)
{
	struct kbinder_report r;
	struct msg m;
	size_t len;

	len = full_report(&m);
	/* The header claims the whole message; only part of it arrived. */
	LIB_CHECK_EQ(kbinder_report_parse(m.buf, len - 4, FAMILY, &r), -EBADMSG);
	LIB_CHECK_EQ(kbinder_report_parse(m.buf, NLMSG_HDRLEN, FAMILY, &r),
		     -EBADMSG);
}

static void an_attribute_past_the_message_end_is_refused(void)
{
	struct nlattr liar = { .nla_len = 200, .nla_type = BINDER_A_REPORT_CODE };
	struct kbinder_report r;
	struct msg m;

	msg_full_report(&m, 0);
	memcpy(m.buf + m.len, &liar, sizeof(liar));
	m.len += NLA_HDRLEN + 4;
	LIB_CHECK_EQ(kbinder_report_parse(m.buf, msg_end(&m), FAMILY, &r),
		     -EBADMSG);
}

static void a_short_number_is_refused(void)
{
	uint16_t two = 7;
	struct kbinder_report r;
	struct msg m;

	msg_full_report(&m, BINDER_A_REPORT_CODE);
	msg_attr(&m, BINDER_A_REPORT_CODE, &two, sizeof(two));
	LIB_CHECK_EQ(kbinder_report_parse(m.buf, msg_end(&m), FAMILY, &r),
		     -EBADMSG);
}

static void an_unterminated_context_is_refused(void)
{
	static const char ctx[4] = { 'b', 'i', 'n', 'd' };
	struct kbinder_report r;
	struct msg m;

	msg_full_report(&m, BINDER_A_REPORT_CONTEXT);
	msg_attr(&m, BINDER_A_REPORT_CONTEXT, ctx, sizeof(ctx));
	LIB_CHECK_EQ(kbinder_report_parse(m.buf, msg_end(&m), FAMILY, &r),
		     -EBADMSG);
}

static void a_long_context_is_cut_and_terminated(void)
{
	char ctx[100];
	struct kbinder_report r;
	struct msg m;

	memset(ctx, 'x', sizeof(ctx) - 1);
	ctx[sizeof(ctx) - 1] = '\0';
	msg_full_report(&m, BINDER_A_REPORT_CONTEXT);
	msg_attr(&m, BINDER_A_REPORT_CONTEXT, ctx, sizeof(ctx));
	LIB_CHECK_EQ(kbinder_report_parse(m.buf, msg_end(&m), FAMILY, &r), 0);
	LIB_CHECK_EQ(strlen(r.context), sizeof(r.context) - 1);
	LIB_CHECK(r.context[0] == 'x');
}

static void unknown_attributes_from_newer_kernels_are_skipped(void)
{
	struct kbinder_report r;
	struct msg m;

	msg_full_report(&m, 0);
	msg_u32(&m, BINDER_A_REPORT_MAX + 1, 0xdeadbeef);
	LIB_CHECK_EQ(kbinder_report_parse(m.buf, msg_end(&m), FAMILY, &r), 0);
	LIB_CHECK_EQ(r.data_size, 4096);
}

int main(void)
{
	LIB_RUN(every_attribute_lands_in_its_field);
	LIB_RUN(optional_attributes_default_to_zero);
	LIB_RUN(a_missing_mandatory_attribute_is_refused);
	LIB_RUN(other_families_and_commands_are_not_reports);
	LIB_RUN(a_message_longer_than_the_buffer_is_refused);
	LIB_RUN(an_attribute_past_the_message_end_is_refused);
	LIB_RUN(a_short_number_is_refused);
	LIB_RUN(an_unterminated_context_is_refused);
	LIB_RUN(a_long_context_is_cut_and_terminated);
	LIB_RUN(unknown_attributes_from_newer_kernels_are_skipped);
	return lib_failures ? 1 : 0;
}
