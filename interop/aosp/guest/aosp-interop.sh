# SPDX-License-Identifier: Apache-2.0
#
# Both ends of kbinder's userspace against Android 14's (sourced by
# aosp.sh): kbinder's tool, libkbinder's greeter and an echo service
# against AOSP's servicemanager; AOSP's `service` and a binderLibTest
# server against kbinder's service manager at --api-level 34. Each check
# is an AOSP-CASE line of phase aosp-interop (aosp_check).

# interop_servers: an echo service (kbinder), the greeter (libkbinder) and
# a binderLibTest server (libbinder), backgrounded; pids in srv_pids.
interop_servers() {
	kbinder -a 34 serve kbinder.echo &
	srv_pids=$!
	KBINDER_API_LEVEL=34 greeter-service &
	srv_pids="$srv_pids $!"
	binderLibTest --binderserver 0 3 0 interop 3>/dev/null &
	srv_pids="$srv_pids $!"
	wait_for sh -c "service list | grep -q test.binderLibinterop"
}

# interop_clients PHASE: what every client does against the manager.
interop_clients() {
	aosp_check "$1" kbinder-list '^3$' sh -c "kbinder -a 34 list | tee /dev/stderr |
		grep -c -e kbinder.echo -e example.greeter -e test.binderLibinterop"
	aosp_check "$1" kbinder-ping-kbinder 'alive' kbinder -a 34 ping kbinder.echo
	aosp_check "$1" kbinder-ping-libbinder 'alive' \
		kbinder -a 34 ping test.binderLibinterop
	aosp_check "$1" kbinder-call-echo 's16:"via-aosp"' \
		kbinder -a 34 call kbinder.echo 1 s16:via-aosp
	# binderLibTest's NOP (1) and GET_ID (10) through kbinder's tool
	aosp_check "$1" kbinder-call-libbinder 'reply: 0 bytes' \
		kbinder -a 34 call --raw test.binderLibinterop 1
	aosp_check "$1" kbinder-call-libbinder-id 'i32:0' \
		kbinder -a 34 call --raw test.binderLibinterop 10
	aosp_check "$1" greeter-client 'hello, world' env KBINDER_API_LEVEL=34 greeter-client
	aosp_check "$1" service-list '^3$' sh -c "service list | tee /dev/stderr |
		grep -c -e kbinder.echo -e example.greeter -e test.binderLibinterop"
	aosp_check "$1" service-check ': found' service check kbinder.echo
	aosp_check "$1" service-check-missing ': not found' service check nosuchservice
	aosp_check "$1" service-call-kbinder "f\\.r\\.o\\.m\\.-\\.a\\.o\\.s\\.p\\." \
		service call kbinder.echo 1 s16 from-aosp
	aosp_check "$1" service-call-greeter "h\\.e\\.l\\.l\\.o\\." \
		service call example.greeter 1 s16 from-aosp
}

# interop_death PHASE: the echo service dies; the manager forgets it.
interop_death() {
	set -- "$1" $srv_pids
	kill "$2"
	wait "$2" 2>/dev/null
	sleep 1
	aosp_check "$1" death-forgotten ': not found' service check kbinder.echo
	shift 2
	kill "$@" 2>/dev/null
	wait "$@" 2>/dev/null
}

aosp_interop() {
	echo "################ kbinder's tool and services against AOSP's servicemanager"
	if aosp_sm_start; then
		interop_servers
		interop_clients aosp-interop-aospsm
		interop_death aosp-interop-aospsm
		sm_stop
	else
		aosp_case aosp-interop-aospsm interop servicemanager "FAIL(no-answer)"
		sm_stop
	fi
	echo "################ AOSP's clients against kbinder servicemanager --api-level 34"
	if kbinder_sm_start; then
		interop_servers
		interop_clients aosp-interop-kbindersm
		interop_death aosp-interop-kbindersm
		sm_stop
	else
		aosp_case aosp-interop-kbindersm interop servicemanager "FAIL(no-answer)"
		sm_stop
	fi
}
