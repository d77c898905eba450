# SPDX-License-Identifier: Apache-2.0
#
# The kbinder tool's promises that need no binder device (README): every
# command takes --help, README's commands are the tool's, and errors are
# one line (tests/host/cli_check.sh; the device-side ones are the guest's
# tests/guest/cli.c):
#   make host-cli-check

.PHONY: host-cli-check
host-cli-check: $(TOOLS_BIN)/kbinder
	@tests/host/cli_check.sh $(TOOLS_BIN)/kbinder README.md
