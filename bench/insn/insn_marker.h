/* SPDX-License-Identifier: Apache-2.0 */
/*
 * insn_marker.h - how a guest program talks to the instruction counter
 * (bench/insn/kbinsn.c, a QEMU TCG plugin): by executing marker
 * instructions. A marker is `nopl DISP(%rax)` (0f 1f 80 + a 32-bit
 * displacement) with KBI_MAGIC in the displacement's upper half: a no-op
 * on any x86-64 CPU, which the plugin recognises by its bytes when it
 * translates the code. The lower half says what it means:
 *
 *   KBI_OP_NIBBLE + 0..15  shift four bits into the tag (the tag names the
 *                          next window: eight of them send 32 bits)
 *   KBI_OP_START           a window opens after this instruction
 *   KBI_OP_STOP            the window closes before this instruction; the
 *                          plugin prints the instructions executed in it,
 *                          kernel and user, per vCPU (and per translation
 *                          block of the kernel, in its profile mode)
 *
 * Plugins of QEMU 7.2 cannot read the guest's registers, so everything a
 * marker says is in its own bytes: sixteen nibble markers carry any tag.
 * Guest side: kbi_window_start(tag) ... kbi_window_stop().
 */
#ifndef KBINDER_BENCH_INSN_MARKER_H
#define KBINDER_BENCH_INSN_MARKER_H

#include <stdint.h>

#define KBI_MAGIC 0x4b490000u		/* "KI" */
#define KBI_MAGIC_MASK 0xffff0000u
#define KBI_OP_NIBBLE 0x00u		/* 0x00 .. 0x0f */
#define KBI_OP_START 0x10u
#define KBI_OP_STOP 0x11u

/* The marker's bytes: the opcode, then the displacement (little-endian). */
#define KBI_MARKER_LEN 7
#define KBI_OPCODE0 0x0f
#define KBI_OPCODE1 0x1f
#define KBI_MODRM 0x80			/* [rax + disp32] */

#if defined(__x86_64__) && !defined(KBI_PLUGIN)
#define KBI_MARK(op) \
	__asm__ volatile("nopl %c0(%%rax)" : : "i"(KBI_MAGIC | (op)) : "memory")

static inline void kbi_nibble(unsigned int v)
{
	switch (v & 15) {
	case 0: KBI_MARK(0); break;
	case 1: KBI_MARK(1); break;
	case 2: KBI_MARK(2); break;
	case 3: KBI_MARK(3); break;
	case 4: KBI_MARK(4); break;
	case 5: KBI_MARK(5); break;
	case 6: KBI_MARK(6); break;
	case 7: KBI_MARK(7); break;
	case 8: KBI_MARK(8); break;
	case 9: KBI_MARK(9); break;
	case 10: KBI_MARK(10); break;
	case 11: KBI_MARK(11); break;
	case 12: KBI_MARK(12); break;
	case 13: KBI_MARK(13); break;
	case 14: KBI_MARK(14); break;
	default: KBI_MARK(15); break;
	}
}

/* kbi_window_start: name the window @tag (most significant nibble first), open it. */
static inline void kbi_window_start(uint32_t tag)
{
	int shift;

	for (shift = 28; shift >= 0; shift -= 4)
		kbi_nibble(tag >> shift);
	KBI_MARK(KBI_OP_START);
}

static inline void kbi_window_stop(void)
{
	KBI_MARK(KBI_OP_STOP);
}
#endif

#endif /* KBINDER_BENCH_INSN_MARKER_H */
