// SPDX-License-Identifier: Apache-2.0
/*
 * libkbinder: the listener for binder transaction reports (generic netlink
 * family "binder", multicast group "report"), with raw netlink sockets.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/android/binder_netlink.h>

#include "internal.h"

/* Large enough for any report and for the controller's family answer. */
#define KBINDER_NL_BUF 8192

/* Walk the attributes in [@p, @p + @len); calls @fn(type, data, size). */
typedef int (*kbinder_nla_fn)(uint16_t type, const uint8_t *data, size_t size,
			 void *arg);

static int kbinder_nla_walk(const uint8_t *p, size_t len, kbinder_nla_fn fn, void *arg)
{
	while (len >= NLA_HDRLEN) {
		struct nlattr nla;
		size_t step;
		int err;

		memcpy(&nla, p, sizeof(nla));
		if (nla.nla_len < NLA_HDRLEN || nla.nla_len > len)
			return -EBADMSG;
		err = fn(nla.nla_type & NLA_TYPE_MASK, p + NLA_HDRLEN,
			 nla.nla_len - NLA_HDRLEN, arg);
		if (err)
			return err;
		step = NLA_ALIGN(nla.nla_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static int kbinder_nla_u32(const uint8_t *data, size_t size, uint32_t *out)
{
	if (size < sizeof(*out))
		return -EBADMSG;
	memcpy(out, data, sizeof(*out));
	return 0;
}

/* ---- parsing a report ---- */

struct kbinder_report_parse_state {
	struct kbinder_report *r;
	uint32_t seen;	/* bit per attribute type */
};

/* The u32 attributes, by type: where each goes in struct kbinder_report. */
static const size_t kbinder_report_u32[] = {
	[BINDER_A_REPORT_ERROR] = offsetof(struct kbinder_report, error) + 1,
	[BINDER_A_REPORT_FROM_PID] = offsetof(struct kbinder_report, from_pid) + 1,
	[BINDER_A_REPORT_FROM_TID] = offsetof(struct kbinder_report, from_tid) + 1,
	[BINDER_A_REPORT_TO_PID] = offsetof(struct kbinder_report, to_pid) + 1,
	[BINDER_A_REPORT_TO_TID] = offsetof(struct kbinder_report, to_tid) + 1,
	[BINDER_A_REPORT_FLAGS] = offsetof(struct kbinder_report, flags) + 1,
	[BINDER_A_REPORT_CODE] = offsetof(struct kbinder_report, code) + 1,
	[BINDER_A_REPORT_DATA_SIZE] = offsetof(struct kbinder_report, data_size) + 1,
};	/* + 1: 0 is "not a u32 attribute" */

static int kbinder_report_context(struct kbinder_report *r, const uint8_t *data,
				  size_t size)
{
	size_t n = strnlen((const char *)data, size);

	if (n == size)
		return -EBADMSG;	/* not NUL-terminated */
	if (n >= sizeof(r->context))
		n = sizeof(r->context) - 1;
	memcpy(r->context, data, n);
	r->context[n] = '\0';
	return 0;
}

static int kbinder_report_attr(uint16_t type, const uint8_t *data, size_t size,
			       void *arg)
{
	struct kbinder_report_parse_state *st = arg;
	struct kbinder_report *r = st->r;
	size_t at = type < KBINDER_ARRAY_SIZE(kbinder_report_u32) ? kbinder_report_u32[type] : 0;

	if (at) {
		st->seen |= 1u << type;
		return kbinder_nla_u32(data, size, (uint32_t *)((uint8_t *)r + at - 1));
	}
	if (type == BINDER_A_REPORT_IS_REPLY)
		r->is_reply = true;
	else if (type == BINDER_A_REPORT_CONTEXT && kbinder_report_context(r, data, size))
		return -EBADMSG;
	else if (type != BINDER_A_REPORT_CONTEXT)
		return 0;	/* newer attributes: ignored */
	st->seen |= 1u << type;
	return 0;
}

int kbinder_report_parse(const void *msg, size_t len, uint16_t family,
		    struct kbinder_report *r)
{
	const uint32_t needed = 1u << BINDER_A_REPORT_ERROR |
				1u << BINDER_A_REPORT_CONTEXT |
				1u << BINDER_A_REPORT_FROM_PID |
				1u << BINDER_A_REPORT_FROM_TID |
				1u << BINDER_A_REPORT_FLAGS |
				1u << BINDER_A_REPORT_CODE |
				1u << BINDER_A_REPORT_DATA_SIZE;
	struct kbinder_report_parse_state st = { .r = r };
	struct genlmsghdr genl;
	struct nlmsghdr nlh;
	const uint8_t *p = msg;
	int err;

	if (len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EBADMSG;
	memcpy(&nlh, p, sizeof(nlh));
	if (nlh.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN || nlh.nlmsg_len > len)
		return -EBADMSG;
	if (nlh.nlmsg_type != family)
		return -ENOMSG;
	memcpy(&genl, p + NLMSG_HDRLEN, sizeof(genl));
	if (genl.cmd != BINDER_CMD_REPORT)
		return -ENOMSG;
	memset(r, 0, sizeof(*r));
	err = kbinder_nla_walk(p + NLMSG_HDRLEN + GENL_HDRLEN,
			  nlh.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN,
			  kbinder_report_attr, &st);
	if (err)
		return err;
	return (st.seen & needed) == needed ? 0 : -EBADMSG;
}

/* ---- resolving the family ---- */

struct kbinder_family_state {
	uint16_t family;
	uint32_t group;
	bool have_family;
	bool have_group;
};

static int kbinder_group_attr(uint16_t type, const uint8_t *data, size_t size,
			 void *arg)
{
	uint32_t *id = arg;

	if (type == CTRL_ATTR_MCAST_GRP_ID)
		return kbinder_nla_u32(data, size, id);
	return 0;
}

static int kbinder_group_name_attr(uint16_t type, const uint8_t *data,
			      size_t size, void *arg)
{
	bool *match = arg;

	if (type == CTRL_ATTR_MCAST_GRP_NAME)
		*match = strnlen((const char *)data, size) < size &&
			 !strcmp((const char *)data, BINDER_MCGRP_REPORT);
	return 0;
}

/* One entry of CTRL_ATTR_MCAST_GROUPS: name and id of a group. */
static int kbinder_groups_entry(uint16_t type, const uint8_t *data, size_t size,
			   void *arg)
{
	struct kbinder_family_state *st = arg;
	bool match = false;
	uint32_t id = 0;
	int err;

	(void)type;
	err = kbinder_nla_walk(data, size, kbinder_group_name_attr, &match);
	if (!err && match) {
		err = kbinder_nla_walk(data, size, kbinder_group_attr, &id);
		if (!err && id) {
			st->group = id;
			st->have_group = true;
		}
	}
	return err;
}

static int kbinder_family_attr(uint16_t type, const uint8_t *data, size_t size,
			  void *arg)
{
	struct kbinder_family_state *st = arg;

	switch (type) {
	case CTRL_ATTR_FAMILY_ID:
		if (size < sizeof(uint16_t))
			return -EBADMSG;
		memcpy(&st->family, data, sizeof(uint16_t));
		st->have_family = true;
		return 0;
	case CTRL_ATTR_MCAST_GROUPS:
		return kbinder_nla_walk(data, size, kbinder_groups_entry, st);
	default:
		return 0;
	}
}

static int kbinder_family_request(int fd)
{
	struct {
		struct nlmsghdr nlh;
		struct genlmsghdr genl;
		struct nlattr nla;
		char name[NLA_ALIGN(sizeof(BINDER_FAMILY_NAME))];
	} req;
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = GENL_ID_CTRL;
	req.nlh.nlmsg_flags = NLM_F_REQUEST;
	req.nlh.nlmsg_seq = 1;
	req.genl.cmd = CTRL_CMD_GETFAMILY;
	req.genl.version = 1;
	req.nla.nla_type = CTRL_ATTR_FAMILY_NAME;
	req.nla.nla_len = NLA_HDRLEN + sizeof(BINDER_FAMILY_NAME);
	memcpy(req.name, BINDER_FAMILY_NAME, sizeof(BINDER_FAMILY_NAME));
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&to,
		   sizeof(to)) < 0)
		return -errno;
	return 0;
}

/* Read the controller's answer: the family id and the group id. */
static int kbinder_family_answer(int fd, struct kbinder_family_state *st)
{
	uint8_t buf[KBINDER_NL_BUF];
	struct nlmsghdr nlh;
	ssize_t n;

	do {
		n = recv(fd, buf, sizeof(buf), 0);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n < NLMSG_HDRLEN)
		return -EBADMSG;
	memcpy(&nlh, buf, sizeof(nlh));
	if (nlh.nlmsg_len > (size_t)n || nlh.nlmsg_len < NLMSG_HDRLEN)
		return -EBADMSG;
	if (nlh.nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr e;

		if (nlh.nlmsg_len < NLMSG_HDRLEN + sizeof(e))
			return -EBADMSG;
		memcpy(&e, buf + NLMSG_HDRLEN, sizeof(e));
		return e.error ? e.error : -EBADMSG;
	}
	if (nlh.nlmsg_type != GENL_ID_CTRL ||
	    nlh.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EBADMSG;
	return kbinder_nla_walk(buf + NLMSG_HDRLEN + GENL_HDRLEN,
			   nlh.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN,
			   kbinder_family_attr, st);
}

int kbinder_report_open(struct kbinder_report_listener *l)
{
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	struct kbinder_family_state st = { 0 };
	int fd, err;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&me, sizeof(me)) < 0) {
		err = -errno;
		goto fail;
	}
	err = kbinder_family_request(fd);
	if (!err)
		err = kbinder_family_answer(fd, &st);
	if (!err && (!st.have_family || !st.have_group))
		err = -ENOENT;	/* a "binder" family without "report" */
	if (err)
		goto fail;
	if (setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &st.group,
		       sizeof(st.group)) < 0) {
		err = -errno;
		goto fail;
	}
	l->fd = fd;
	l->family = st.family;
	l->group = st.group;
	return 0;
fail:
	close(fd);
	return err;
}

void kbinder_report_close(struct kbinder_report_listener *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}

int kbinder_report_next(struct kbinder_report_listener *l, struct kbinder_report *r,
		   int timeout_ms)
{
	int64_t deadline = kbinder_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	struct pollfd pfd = { .fd = l->fd, .events = POLLIN };
	uint8_t buf[KBINDER_NL_BUF];
	int wait = timeout_ms;
	ssize_t n;
	int ret;

	for (;;) {
		ret = poll(&pfd, 1, wait);
		if (ret < 0)
			return -errno;	/* -EINTR: the caller decides */
		if (ret == 0)
			return -ETIMEDOUT;
		n = recv(l->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno != EAGAIN)
			return -errno;
		if (n >= 0) {
			/* One report per datagram: the driver sends them one by one. */
			ret = kbinder_report_parse(buf, (size_t)n, l->family, r);
			if (ret != -ENOMSG)
				return ret;
		}
		if (timeout_ms > 0) {
			int64_t left = deadline - kbinder_now_ms();

			wait = left > 0 ? (int)left : 0;
		}
	}
}
