#!/bin/busybox sh
# /init of the scripts/vm initramfs (busybox only).  Loads the virtio/9p
# modules, mounts the host root read-only plus the run directory read-write,
# prepares the pseudo file systems and hands over to scripts/lib/vm-guest.sh
# running from the host root as pid 1 (switch_root, so that the kernel's
# usermode helper finds the host's /sbin/modprobe for crypto algorithms).
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev

fail() {
	echo "ncr-vm: init: $*" > /dev/console
	poweroff -f
	sleep 10
}

# In the order scripts/vm wrote, dependencies first (insmod resolves none).
# A kernel that has them built in gets an initramfs without them.
for m in $(cat /modules/order); do
	insmod /modules/$m.ko || fail "insmod $m failed"
done

run=
keep=/nonexistent
src=
srcname=
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	ncrvm_run=*) run=${arg#ncrvm_run=} ;;
	ncrvm_keep=*) keep=${arg#ncrvm_keep=} ;;
	ncrvm_src=*) src=${arg#ncrvm_src=} ;;
	ncrvm_srcname=*) srcname=${arg#ncrvm_srcname=} ;;
	esac
done
[ -n "$run" ] || fail "no ncrvm_run= on the kernel command line"
# Another release's root (scripts/vm --guest): the checkout comes from its
# own share, mounted below over whatever tmpfs holds its path.
[ -z "$src" ] || keep=/nonexistent

R=/newroot
mkdir -p $R
# The mount tag shows up a moment after virtio_pci probes: retry briefly.
i=0
until mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=loose,ro \
		hostroot $R 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || fail "cannot mount the host root (9p tag hostroot)"
	sleep 0.1
done
mount -t proc proc $R/proc
mount -t sysfs sys $R/sys
mount -t devtmpfs dev $R/dev
mkdir -p $R/dev/pts $R/dev/shm 2>/dev/null
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts $R/dev/pts
mount -t tmpfs -o mode=1777 shm $R/dev/shm
# Writable places start empty (tmpfs), except one that holds the checkout
# (and ../shared beside it, e.g. a clone under /tmp or /root): that one
# becomes an overlay, host content visible and writes kept in guest memory.
mkdir -p /ovl
mount -t tmpfs -o mode=755 ovl /ovl
mount -t tmpfs -o mode=755 tmpfs $R/run
# (the places the guest may write; the checkout's share must not cover one)
writable="/tmp /var/tmp /root /var/log /var/lib/nginx /var/cache/nginx"
for d in $writable; do
	[ -d $R$d ] || continue
	case "$keep/" in
	"$d"/*) ;;
	*)	mode=$(stat -c %a $R$d)
		mount -t tmpfs -o mode=$mode tmpfs $R$d || fail "cannot mount tmpfs on $d"
		continue ;;
	esac
	n=$(echo $d | tr / _)
	mkdir -p /ovl/$n/upper /ovl/$n/work
	chmod $(stat -c %a $R$d) /ovl/$n/upper
	mount -t overlay -o lowerdir=$R$d,upperdir=/ovl/$n/upper,workdir=/ovl/$n/work \
		overlay $R$d || mount -t tmpfs -o mode=1777 tmpfs $R$d ||
		fail "cannot make $d writable"
done

if [ -n "$src" ]; then
	mkdir -p "$R$src" 2>/dev/null
	case " $writable " in
	*" $src "*)
		# The share (the checkout's parent, for ../shared beside it)
		# would hide the tmpfs made above: bind in only the checkout
		# and ../shared.
		mkdir -p /ncrsrc
		mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=loose,ro \
			ncrsrc /ncrsrc || fail "cannot mount the checkout's parent (9p tag ncrsrc)"
		for e in "$srcname" shared; do
			[ -n "$e" ] && [ -d "/ncrsrc/$e" ] || continue
			mkdir -p "$R$src/$e"
			mount --bind "/ncrsrc/$e" "$R$src/$e" ||
				fail "cannot bind the checkout's $src/$e"
		done ;;
	*)	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=loose,ro \
			ncrsrc "$R$src" || fail "cannot mount the checkout at $src (9p tag ncrsrc)" ;;
	esac
fi
mkdir -p "$R$run" 2>/dev/null
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,rw \
	ncrout "$R$run" || fail "cannot mount the run directory $run"

umount /proc /sys /dev 2>/dev/null
exec switch_root $R /bin/bash "$run/guest.sh"
fail "switch_root failed"
