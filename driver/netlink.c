// SPDX-License-Identifier: GPL-2.0-only
/*
 * Transaction reports over generic netlink (mainline 6.18).
 *
 * The module registers the generic netlink family "binder" with one
 * multicast group, "report", and no commands. kb_netlink_report() sends one
 * BINDER_CMD_REPORT event per failed transaction (and per one-way call that
 * was flagged as spam or queued to a frozen process), with the attributes
 * mainline sends.
 *
 * Where a report goes: to the listeners in the network namespace of the
 * sending thread, never elsewhere (mainline sends every report to the
 * initial namespace). Numbers in it: pids and tids as the sender's pid
 * namespace sees them; a target outside that namespace is left out, like
 * one that is not known. Joining the group needs CAP_NET_ADMIN in the
 * network namespace's user namespace (mainline: nothing). Nothing in a
 * report is a kernel address.
 *
 * Cost: nothing is allocated unless someone in that namespace listens
 * (genl_has_listeners() is one bitmap test), and the callers only report on
 * failure paths and for the two one-way notices above.
 */
#include "internal.h"

#include <linux/nsproxy.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "../include/uapi/linux/android/binder_netlink.h"

#include "netlink.h"

/* Index of the "report" group in kb_nl_groups (not its global id). */
enum {
	KB_NLGRP_REPORT,
};

/*
 * Reports name the failed calls of every world and user whose sender is in
 * the network namespace: joining the group takes CAP_NET_ADMIN in the user
 * namespace that owns it (the core checks it at bind). Mainline asks for
 * nothing; the root of a container's own user namespace still may listen.
 */
static const struct genl_multicast_group kb_nl_groups[] = {
	[KB_NLGRP_REPORT] = {
		.name = BINDER_MCGRP_REPORT,
		.flags = GENL_MCAST_CAP_NET_ADMIN,
	},
};

/*
 * No commands: userspace only listens. netnsok: the family exists in every
 * network namespace, so a listener in a container finds it too.
 */
static struct genl_family kb_nl_family = {
	.name = BINDER_FAMILY_NAME,
	.version = BINDER_FAMILY_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.mcgrps = kb_nl_groups,
	.n_mcgrps = ARRAY_SIZE(kb_nl_groups),
};

/*
 * The family is ours: set at load, before any device exists, and constant
 * until unload.
 */
static bool kb_nl_registered;

/**
 * kb_netlink_init() - register the "binder" generic netlink family
 *
 * Return: 0, also when another driver owns a family of that name (a
 * mainline binder loaded beside kbinder: kbinder then runs without
 * reports), or a negative errno.
 */
int kb_netlink_init(void)
{
	int ret = genl_register_family(&kb_nl_family);

	if (ret == -EEXIST) {
		pr_warn("netlink family \"%s\" belongs to another driver: no transaction reports\n",
			BINDER_FAMILY_NAME);
		return 0;
	}
	kb_nl_registered = !ret;
	return ret;
}

/**
 * kb_netlink_exit() - unregister the family
 *
 * Called once no binder file is open, so no report is being built; the
 * core drops the group's listeners.
 */
void kb_netlink_exit(void)
{
	if (kb_nl_registered)
		genl_unregister_family(&kb_nl_family);
	kb_nl_registered = false;
}

/* Put a u32 attribute unless it is 0 (unknown or not visible). */
static int kb_netlink_put_known(struct sk_buff *skb, int attr, u32 value)
{
	return value ? nla_put_u32(skb, attr, value) : 0;
}

static int kb_netlink_fill(struct sk_buff *skb, const struct kb_netlink_txn *r)
{
	if (nla_put_u32(skb, BINDER_A_REPORT_ERROR, r->error) ||
	    nla_put_string(skb, BINDER_A_REPORT_CONTEXT, r->context) ||
	    nla_put_u32(skb, BINDER_A_REPORT_FROM_PID, task_tgid_vnr(current)) ||
	    nla_put_u32(skb, BINDER_A_REPORT_FROM_TID, task_pid_vnr(current)) ||
	    kb_netlink_put_known(skb, BINDER_A_REPORT_TO_PID, r->to_pid) ||
	    kb_netlink_put_known(skb, BINDER_A_REPORT_TO_TID, r->to_tid))
		return -EMSGSIZE;
	if (r->is_reply && nla_put_flag(skb, BINDER_A_REPORT_IS_REPLY))
		return -EMSGSIZE;
	if (nla_put_u32(skb, BINDER_A_REPORT_FLAGS, r->flags) ||
	    nla_put_u32(skb, BINDER_A_REPORT_CODE, r->code) ||
	    nla_put_u32(skb, BINDER_A_REPORT_DATA_SIZE, r->data_size))
		return -EMSGSIZE;
	return 0;
}

/* The largest report for @name: nine u32 attributes, the flag, the name. */
static size_t kb_netlink_report_size(const char *name)
{
	return 9 * nla_total_size(sizeof(u32)) + nla_total_size(0) +
	       nla_total_size(strlen(name) + 1);
}

/**
 * kb_netlink_listening() - whether a report would reach anyone
 *
 * Return: true if the "report" group has a listener in the caller's
 * network namespace (one bitmap test: the sender asks before it gathers
 * what a report says).
 */
bool kb_netlink_listening(void)
{
	return kb_nl_registered && current->nsproxy &&
	       genl_has_listeners(&kb_nl_family, current->nsproxy->net_ns,
				  KB_NLGRP_REPORT);
}

/**
 * kb_netlink_report() - multicast one BINDER_CMD_REPORT about a transaction
 * @r: what to report; the sender is the calling thread
 *
 * Does nothing (allocates nothing) unless the "report" group has a
 * listener in the caller's network namespace. Best effort: a report that
 * cannot be allocated is dropped, as mainline does.
 *
 * Context: process context of the sending thread, no spinlock held (the
 * message is allocated with GFP_KERNEL).
 */
void kb_netlink_report(const struct kb_netlink_txn *r)
{
	struct sk_buff *skb;
	struct net *net;
	void *hdr;

	might_sleep();
	if (!kb_netlink_listening())
		return;
	net = current->nsproxy->net_ns;

	skb = genlmsg_new(kb_netlink_report_size(r->context), GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &kb_nl_family, 0, BINDER_CMD_REPORT);
	if (!hdr)
		goto free;
	if (kb_netlink_fill(skb, r)) {
		genlmsg_cancel(skb, hdr);
		goto free;
	}
	genlmsg_end(skb, hdr);
	/* Consumes the skb, also when nobody receives it. */
	genlmsg_multicast_netns(&kb_nl_family, net, skb, 0, KB_NLGRP_REPORT,
				GFP_KERNEL);
	return;
free:
	nlmsg_free(skb);
}
