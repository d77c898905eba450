// SPDX-License-Identifier: Apache-2.0
/*
 * insn_plugin_check - the instruction-count plugin (bench/insn/kbinsn.c)
 * driven by a stand-in for QEMU: this program defines the plugin API
 * functions the plugin calls (bench/insn/qemu_plugin_api.h, so the
 * compiler holds them to the same declarations), loads the plugin with
 * dlopen, "translates" made-up blocks of kernel and user code containing
 * marker instructions (insn_marker.h), "executes" them on two vCPUs and
 * checks what the plugin writes: the tag, the kernel and user counts per
 * vCPU with the marker's own block cut exactly at the markers, the
 * per-block profile and its sum, and the errors it must report.
 *
 * usage: insn_plugin_check PLUGIN.so
 * Prints PASS/FAIL lines and "N passed, N failed"; exit 1 on a failure.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insn/insn_marker.h"
#include "insn/qemu_plugin_api.h"

/* ------------------------------------------------------------ QEMU's side */

struct qemu_plugin_insn {
	uint8_t bytes[16];
	size_t size;
	kbi_vcpu_udata_cb cb;
	void *udata;
};

struct qemu_plugin_tb {
	uint64_t vaddr;
	size_t n;
	struct qemu_plugin_insn insn[32];
	kbi_vcpu_udata_cb cb;
	void *udata;
};

static kbi_tb_trans_cb trans_cb;
static kbi_udata_cb exit_cb;
static void *exit_udata;
static char out[1 << 16];
static size_t out_len;

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, kbi_tb_trans_cb cb)
{
	(void)id;
	trans_cb = cb;
}

void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, kbi_vcpu_udata_cb cb,
					  enum kbi_cb_flags flags, void *userdata)
{
	(void)flags;
	tb->cb = cb;
	tb->udata = userdata;
}

void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    kbi_vcpu_udata_cb cb,
					    enum kbi_cb_flags flags, void *userdata)
{
	(void)flags;
	insn->cb = cb;
	insn->udata = userdata;
}

void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, kbi_udata_cb cb, void *userdata)
{
	(void)id;
	exit_cb = cb;
	exit_udata = userdata;
}

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb)
{
	return tb->n;
}

uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb)
{
	return tb->vaddr;
}

struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx)
{
	return idx < tb->n ? (struct qemu_plugin_insn *)&tb->insn[idx] : NULL;
}

const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn)
{
	return insn->bytes;
}

size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn)
{
	return insn->size;
}

void qemu_plugin_outs(const char *string)
{
	size_t n = strlen(string);

	if (out_len + n < sizeof(out)) {
		memcpy(out + out_len, string, n + 1);
		out_len += n;
	}
}

/* ------------------------------------------------------------ blocks */

/* add_plain: a one-byte instruction (nop). */
static void add_plain(struct qemu_plugin_tb *tb, int count)
{
	while (count-- > 0) {
		tb->insn[tb->n].bytes[0] = 0x90;
		tb->insn[tb->n].size = 1;
		tb->n++;
	}
}

/* add_marker: `nopl DISP(%rax)` with @magic in the displacement's upper half. */
static void add_marker(struct qemu_plugin_tb *tb, uint32_t magic, uint32_t op)
{
	struct qemu_plugin_insn *i = &tb->insn[tb->n++];
	uint32_t disp = magic | op;

	i->bytes[0] = KBI_OPCODE0;
	i->bytes[1] = KBI_OPCODE1;
	i->bytes[2] = KBI_MODRM;
	memcpy(&i->bytes[3], &disp, 4);
	i->size = KBI_MARKER_LEN;
}

static void translate(struct qemu_plugin_tb *tb)
{
	trans_cb(1, tb);
}

/* run: the block executes on @vcpu: its callback, then each instruction's. */
static void run(struct qemu_plugin_tb *tb, unsigned int vcpu, int times)
{
	size_t i;

	while (times-- > 0) {
		if (tb->cb)
			tb->cb(vcpu, tb->udata);
		for (i = 0; i < tb->n; i++)
			if (tb->insn[i].cb)
				tb->insn[i].cb(vcpu, tb->insn[i].udata);
	}
}

/* ------------------------------------------------------------ checks */

static int passed, failed;

static void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS insn_plugin/%s\n", name);
		passed++;
		return;
	}
	printf("FAIL insn_plugin/%s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed++;
}

static int has(const char *line)
{
	return strstr(out, line) != NULL;
}

int main(int argc, char **argv)
{
	static struct qemu_plugin_tb start, stop, user, kern, fake;
	struct kbi_qemu_info info = { .target_name = "x86_64", .version = { 0, 1 },
				      .system_emulation = true,
				      .system = { .smp_vcpus = 2, .max_vcpus = 2 } };
	int (*install)(qemu_plugin_id_t, const struct kbi_qemu_info *, int, char **);
	char arg_profile[] = "profile=on", arg_bad[] = "colour=blue";
	char *args[] = { arg_profile }, *bad[] = { arg_bad };
	const int *version;
	void *h;
	int s;

	if (argc != 2) {
		fprintf(stderr, "usage: insn_plugin_check PLUGIN.so\n");
		return 2;
	}
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("FAIL insn_plugin/loads: %s\n0 passed, 1 failed\n", dlerror());
		return 1;
	}
	install = (int (*)(qemu_plugin_id_t, const struct kbi_qemu_info *, int, char **))
		dlsym(h, "qemu_plugin_install");
	version = dlsym(h, "qemu_plugin_version");
	check(install && version && *version == 1, "exports_install_and_api_version_1",
	      "install %p, version %d", (void *)install, version ? *version : -1);
	if (!install)
		return 1;
	check(install(1, &info, 1, bad) != 0, "refuses_an_unknown_argument", "it installed");
	check(install(1, &info, 1, args) == 0 && trans_cb, "installs_with_profile_on",
	      "install failed");
	if (!trans_cb)
		return 1;

	/* User block: tag 0xdeadbeef in eight nibbles, START, 2 instructions. */
	start.vaddr = 0x401000;
	for (s = 28; s >= 0; s -= 4)
		add_marker(&start, KBI_MAGIC, (0xdeadbeefu >> s) & 15);
	add_marker(&start, KBI_MAGIC, KBI_OP_START);
	add_plain(&start, 2);
	/* User block: 3 instructions, STOP, 1 more. */
	stop.vaddr = 0x402000;
	add_plain(&stop, 3);
	add_marker(&stop, KBI_MAGIC, KBI_OP_STOP);
	add_plain(&stop, 1);
	user.vaddr = 0x403000;
	add_plain(&user, 4);
	kern.vaddr = 0xffffffff81000000ull;
	add_plain(&kern, 5);
	/* Not a marker: another magic. */
	fake.vaddr = 0x404000;
	add_marker(&fake, 0x4b4a0000u, KBI_OP_STOP);
	translate(&start);
	translate(&stop);
	translate(&user);
	translate(&kern);
	translate(&fake);
	check(start.insn[8].cb && stop.insn[3].cb && !user.insn[0].cb && !fake.insn[0].cb,
	      "instruments_markers_and_nothing_else", "marker callbacks: start %d stop %d plain %d other magic %d",
	      !!start.insn[8].cb, !!stop.insn[3].cb, !!user.insn[0].cb, !!fake.insn[0].cb);

	run(&kern, 0, 7);	/* before the window: not counted */
	run(&stop, 0, 1);	/* a stop without a start */
	check(has("KBINSN error: a window closed that was never opened"),
	      "reports_a_stop_without_a_start", "output: %s", out);
	out_len = 0;
	out[0] = 0;
	run(&start, 0, 1);
	run(&kern, 0, 3);
	run(&user, 0, 2);
	run(&fake, 0, 1);
	run(&kern, 1, 1);
	run(&user, 1, 1);
	run(&stop, 0, 1);
	run(&kern, 0, 4);	/* after the window: not counted */
	/* vCPU 0: user 2 + 8 + 1 + 3 = 14, kernel 15; vCPU 1: kernel 5, user 4. */
	check(has("KBINSN window tag=deadbeef vcpu=0 kernel=15 user=14\n"),
	      "counts_vcpu0_cut_at_the_markers", "output: %s", out);
	check(has("KBINSN window tag=deadbeef vcpu=1 kernel=5 user=4\n"),
	      "counts_vcpu1", "output: %s", out);
	check(has("KBINSN total tag=deadbeef kernel=20 user=18\n"), "totals_all_vcpus",
	      "output: %s", out);
	check(has("KBINSN block tag=deadbeef ffffffff81000000 20 4\n") &&
	      !has("KBINSN block tag=deadbeef 0000000000403000"),
	      "profiles_kernel_blocks_only", "output: %s", out);
	check(has("profiled=20\n"), "profile_adds_up_to_the_kernel_count", "output: %s", out);
	if (exit_cb)
		exit_cb(1, exit_udata);
	check(has("KBINSN exit blocks="), "reports_at_exit", "output: %s", out);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
