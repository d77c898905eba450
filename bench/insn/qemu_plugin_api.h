/* SPDX-License-Identifier: Apache-2.0 */
/*
 * qemu_plugin_api.h - the few functions and types of QEMU's TCG plugin
 * API (version 1, as Debian 12's QEMU 7.2 has it) that kbinsn.c uses,
 * declared here because Debian ships no qemu-plugin.h.
 *
 * Written from the API's documentation (docs/devel/tcg-plugins.rst and
 * the comments of the functions QEMU exports): QEMU calls the plugin's
 * qemu_plugin_install() with the plugin's id, a description of the
 * emulator and the plugin's "key=value" arguments, after checking the
 * API version the plugin exports in `qemu_plugin_version`. A translation
 * callback sees each translation block once, when it is translated, and
 * may ask for a callback every time the block, or one instruction of it,
 * is executed. qemu_plugin_outs() writes to QEMU's log (`-d plugin -D
 * FILE`). Only the shapes below matter to the ABI: the names of our own
 * types are ours.
 */
#ifndef KBINDER_BENCH_QEMU_PLUGIN_API_H
#define KBINDER_BENCH_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The API level this plugin is written against (QEMU 7.2 speaks 0 to 1). */
#define KBI_QEMU_PLUGIN_API 1

typedef uint64_t qemu_plugin_id_t;

/* What QEMU tells the plugin about itself at install time. */
struct kbi_qemu_info {
	const char *target_name;	/* "x86_64" */
	struct {
		int min;
		int cur;
	} version;			/* API levels QEMU supports */
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
};

/* Opaque handles, valid only during the translation callback. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* Whether an execution callback reads or writes the guest's registers. */
enum kbi_cb_flags { KBI_CB_NO_REGS = 0 };

typedef void (*kbi_tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*kbi_vcpu_udata_cb)(unsigned int vcpu_index, void *userdata);
typedef void (*kbi_udata_cb)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, kbi_tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, kbi_vcpu_udata_cb cb,
					  enum kbi_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    kbi_vcpu_udata_cb cb,
					    enum kbi_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, kbi_udata_cb cb, void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
/* The instruction's bytes (API level 1: a pointer valid during the callback). */
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

void qemu_plugin_outs(const char *string);

#endif /* KBINDER_BENCH_QEMU_PLUGIN_API_H */
