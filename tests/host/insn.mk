# SPDX-License-Identifier: Apache-2.0
#
# The instruction count's own tests (tests/host/insn_check.sh): the plugin
# of make bench-insn driven by a stand-in for QEMU, its imports against
# Debian's QEMU, and the host report on made-up logs:
#   make host-insn-check

INSN_HOST_BIN := build/host
$(INSN_HOST_BIN)/insn_plugin_check: tests/host/insn_plugin_check.c $(wildcard bench/insn/*.h)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
		-fno-sanitize-recover=all -Ibench -rdynamic -o $@ $< -ldl

.PHONY: host-insn-check
host-insn-check: $(INSN_PLUGIN) $(INSN_HOST_BIN)/insn_plugin_check
	@tests/host/insn_check.sh $(INSN_PLUGIN) $(INSN_HOST_BIN)/insn_plugin_check
