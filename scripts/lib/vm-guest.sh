#!/bin/bash
# Pid 1 inside the scripts/vm guest, running from the (read-only) host root.
# Copied by scripts/vm into the run directory ($run, shared read-write with
# the host) next to "env" and "cmd"; leaves "rc", "dmesg" and "started" there.
run=$(dirname "$(readlink -f "$0")")
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1
# shellcheck source=/dev/null
. "$run/env"

say() { echo "ncr-vm: $*"; }
# The first word from the guest side: scripts/vm boots again only when a
# kernel died before it.
say "guest side started"

# Debug kernel (scripts/vm --debug-kernel): explicit kmemleak scans.  An
# object counts only once unreferenced for 5 s and seen by two scans
# (kmemleak's advice), so wait, scan twice, then keep what it reports.
KMEMLEAK=/sys/kernel/debug/kmemleak
kmemleak_scan() {	# $1: result file in $run
	[ "${NCRVM_DEBUG_KERNEL:-0}" = 1 ] || return 0
	if [ ! -w $KMEMLEAK ]; then
		say "error: $KMEMLEAK missing"
		echo "kmemleak not available" > "$run/$1"
		return 0
	fi
	sleep 6
	echo scan > $KMEMLEAK
	sleep 1
	echo scan > $KMEMLEAK
	cat $KMEMLEAK > "$run/$1"
	if [ -s "$run/$1" ]; then
		say "kmemleak ($1): $(grep -c '^unreferenced object' "$run/$1") suspected leaks"
	else
		say "kmemleak ($1): no leaks"
	fi
	echo clear > $KMEMLEAK
}

finish() {
	echo "$1" > "$run/rc"
	dmesg > "$run/dmesg" 2>&1
	sync
	/bin/busybox poweroff -f 2>/dev/null || echo o > /proc/sysrq-trigger
	sleep 30
}

# Guest clock: the RTC normally carries the host time; fall back to the
# host's clock at launch so that TLS certificates validate.
now=$(date +%s)
if [ "$now" -lt $((NCRVM_HOST_EPOCH - 60)) ]; then
	date -s "@$NCRVM_HOST_EPOCH" > /dev/null
fi
hostname ncr-vm
ip link set lo up

# Algorithms the tests use that Debian builds as modules; the rest are
# built in. The kernel would autoload them too, but loading them up front
# keeps their self-tests out of the timed test runs.
if [ "${NCRVM_DEBUG_KERNEL:-0}" = 1 ]; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null ||
		say "warning: cannot mount debugfs"
	# Whatever boot left unreferenced is not ours: scan and forget it.
	if [ -w $KMEMLEAK ]; then
		echo scan > $KMEMLEAK
		echo clear > $KMEMLEAK
	fi
fi

for m in $NCRVM_CRYPTO_MODULES; do
	modprobe -q "$m" || say "warning: modprobe $m failed"
done

if [ -n "$NCR_KO" ]; then
	# What ncr.ko links against (ecc, curve25519, ...), whatever modules
	# this kernel keeps it in: insmod resolves no dependencies itself.
	for m in $(modinfo -F depends "$NCR_KO" 2>/dev/null | tr , ' '); do
		modprobe -q "$m" || say "warning: modprobe $m (needed by ncr.ko) failed"
	done
	if ! insmod "$NCR_KO" $NCRVM_KO_PARAMS; then
		say "insmod $NCR_KO failed"
		finish 126
	fi
	say "loaded $NCR_KO"
	[ -c /dev/crypto ] || say "warning: /dev/crypto did not appear"
fi

cd "$NCR_ROOT" || finish 126
awk '{ printf "%.1f\n", $1 }' /proc/uptime > "$run/started"
say "boot-to-command $(cat "$run/started") s (guest uptime); running: $NCRVM_CMD_TEXT"
if [ "${NCRVM_INTERACTIVE:-0}" = 1 ]; then
	# A controlling terminal, so that ^C and job control work in the guest.
	setsid -c -w bash "$run/cmd" < /dev/ttyS0 > /dev/ttyS0 2>&1
else
	bash "$run/cmd" < /dev/null
fi
rc=$?
say "command exited with status $rc"

# Whatever the command left behind must not keep the module busy.
kill -KILL -1 2>/dev/null
sleep 0.2
kmemleak_scan kmemleak-after-command
if [ -n "$NCR_KO" ]; then
	mod=$(basename "$NCR_KO" .ko)
	if grep -q "^$mod " /proc/modules; then
		if ! rmmod "$mod"; then
			say "error: rmmod $mod failed (a reference leaked?)"
			grep "^$mod " /proc/modules
			[ "$rc" -eq 0 ] && rc=125
		fi
	fi
	kmemleak_scan kmemleak-after-rmmod
fi
[ "${NCRVM_DEBUG_KERNEL:-0}" = 1 ] && cat /proc/lockdep_stats > "$run/lockdep" 2>&1
finish "$rc"
