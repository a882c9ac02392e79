# shellcheck shell=bash
# The tested combinations of Debian release (user space) and kernel, in one
# table for scripts/vm --guest and scripts/test (--matrix).  Sourced; needs
# ROOT (the checkout).  A combination's root is the host when the host is
# that release, else a cached root of scripts/guest-root; its kernel is the
# newest one in that root whose version matches the pattern and that has
# headers (and, unless build-only, an image to boot).
#
# name        release   kernel  what
NCR_COMBO_TABLE="
deb12-6.1     bookworm  6.1.*   Debian 12 with its kernel
deb12-6.12    bookworm  6.12.*  Debian 12 with bookworm-backports' kernel
deb13-6.12    trixie    6.12.*  Debian 13 with its kernel
deb13-bpo     trixie    *       Debian 13 with trixie-backports' newest kernel
sid-build     sid       *       sid's newest kernel headers (build check only)
"
NCR_COMBOS=$(echo "$NCR_COMBO_TABLE" | awk 'NF { print $1 }' | xargs)

combo_die() { echo "combo: $*" >&2; exit 2; }

# COMBO_RELEASE, COMBO_KPAT, COMBO_TITLE of combination $1.
combo_lookup() {
	local line
	line=$(echo "$NCR_COMBO_TABLE" | awk -v n="$1" '$1 == n')
	[ -n "$line" ] || combo_die "unknown combination '$1' (one of: $NCR_COMBOS)"
	COMBO_RELEASE=$(echo "$line" | awk '{ print $2 }')
	COMBO_KPAT=$(echo "$line" | awk '{ print $3 }')
	COMBO_TITLE=$(echo "$line" | awk '{ $1 = $2 = $3 = ""; sub(/^ +/, ""); print }')
}

# The Debian codename of the host (bookworm, trixie, ...).
combo_host_release() {
	sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null
}

# COMBO_ROOT: / for a combination the host runs itself (its release, and a
# kernel of the series the combination names: "*", the newest backports
# kernel, is never taken from the host), else its root.
combo_root() {
	combo_lookup "$1"
	if [ "$COMBO_RELEASE" = "$(combo_host_release)" ] && [ "$COMBO_KPAT" != "*" ] &&
	   [ -n "$(combo_kver_in / "$COMBO_KPAT" boot)" ]; then
		COMBO_ROOT=/
		return
	fi
	local out
	out=$("$ROOT/scripts/guest-root" "$COMBO_RELEASE") || combo_die "no $COMBO_RELEASE root"
	COMBO_ROOT=$(printf '%s\n' "$out" | sed -n 's/^ROOT=//p' | tail -n1)
	[ -d "$COMBO_ROOT" ] || combo_die "scripts/guest-root gave no root"
}

# The newest kernel version in root $1 matching pattern $2 with headers
# (and /boot/vmlinuz-VERSION when $3 is "boot").
combo_kver_in() {
	local r=${1%/} pat=$2 need=${3:-} v best=
	for d in "$r"/lib/modules/*/build; do
		# an absolute link points into that root, not the host
		case $(readlink "$d") in
		/*) [ -e "$r$(readlink "$d")" ] || continue ;;
		*) [ -e "$d" ] || continue ;;
		esac
		v=$(basename "$(dirname "$d")")
		# shellcheck disable=SC2254
		case "$v" in $pat) ;; *) continue ;; esac
		[ "$need" != boot ] || [ -f "$r/boot/vmlinuz-$v" ] || continue
		best=$(printf '%s\n%s\n' "$best" "$v" | sed '/^$/d' | sort -V | tail -n1)
	done
	echo "$best"
}

# Everything about combination $1: COMBO_ROOT, COMBO_KVER, COMBO_BUILD (its
# own build dir, build/combo/NAME, even on the host: build/ is the main
# run's, which a combination built meanwhile must not touch).
combo_resolve() {
	local need=boot
	combo_root "$1"
	[ "$1" != sid-build ] || need=
	COMBO_KVER=$(combo_kver_in "$COMBO_ROOT" "$COMBO_KPAT" $need)
	[ -n "$COMBO_KVER" ] || combo_die "$1: no kernel $COMBO_KPAT with headers in $COMBO_ROOT"
	COMBO_BUILD=$ROOT/build/combo/$1
}

# The OpenSSL (libssl) version of root $1.
combo_openssl() {
	dpkg-query --admindir="${1%/}/var/lib/dpkg" -W \
		-f '${db:Status-Abbrev} ${Version}\n' 'libssl3*' 2>/dev/null |
		awk '$1 == "ii" { print "OpenSSL " $2; exit }'
}

# Runs "$@" inside root $1 with the checkout's parent (so ../shared too)
# bind-mounted at its own path, in a private mount namespace: nothing stays
# mounted afterwards.
combo_chroot() {
	local r=$1 top
	shift
	top=$(dirname "$ROOT")
	unshare --mount --propagation private -- /bin/bash -c '
		set -e
		r=$1 top=$2; shift 2
		mount -t tmpfs tmpfs "$r/tmp"
		mkdir -p "$r$top"
		mount --bind "$top" "$r$top"
		mount -t proc proc "$r/proc"
		mount --rbind /dev "$r/dev"
		exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 "$@"' combo "$r" "$top" "$@"
}

# Builds combination $1 (module for its kernel; user space for its release
# unless build-only) into COMBO_BUILD.
combo_build() {
	combo_resolve "$1"
	local cfg=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DNCR_KVER=$COMBO_KVER")
	[ "$1" != sid-build ] || cfg+=(-DNCR_BUILD_PROVIDER=OFF -DNCR_BUILD_TOOLS=OFF -DNCR_BUILD_TESTS=OFF)
	mkdir -p "$COMBO_BUILD"
	if [ "$COMBO_ROOT" = / ]; then
		cmake -S "$ROOT" -B "$COMBO_BUILD" "${cfg[@]}" &&
			cmake --build "$COMBO_BUILD" -j "$(nproc)"
	elif [ "$1" = sid-build ]; then
		# No cmake there: kbuild on its own.
		"$ROOT/scripts/lib/kbuild-tree" "$ROOT" "$COMBO_BUILD/kbuild" &&
		combo_chroot "$COMBO_ROOT" make -C "$COMBO_BUILD/kbuild/driver" \
			KDIR="/lib/modules/$COMBO_KVER/build" W=1 modules
	else
		combo_chroot "$COMBO_ROOT" /bin/sh -c 'src=$1 b=$2; shift 2
			cmake -S "$src" -B "$b" "$@" && cmake --build "$b" -j "$(nproc)"' \
			sh "$ROOT" "$COMBO_BUILD" "${cfg[@]}"
	fi
}

# Sparse (make C=2 W=1: every file) over the module in kbuild tree $3,
# built for kernel $2 of root $1; its output in $4.  Prints the number of
# sparse warnings and errors, or "n/a" when nothing was checked.
module_sparse() {
	local r=$1 kdir=/lib/modules/$2/build tree=$3 log=$4
	if [ "$r" = / ]; then
		command -v sparse > /dev/null || { echo n/a; return; }
		make -C "$kdir" M="$tree" C=2 W=1 modules > "$log" 2>&1
	else
		[ -x "$r/usr/bin/sparse" ] || { echo n/a; return; }
		combo_chroot "$r" make -C "$kdir" M="$tree" C=2 W=1 modules \
			> "$log" 2>&1
	fi
	# (some kernels' header packages lack scripts/checker-valid.sh, and
	# then kbuild skips sparse: nothing was checked)
	if ! grep -q '^  CHECK ' "$log"; then
		echo "n/a (kbuild ran no sparse)"
		return
	fi
	grep -cE '(warning|error):' "$log" || true
}

# module_sparse of combination $1's build (after combo_build).
combo_sparse() {
	combo_resolve "$1"
	module_sparse "$COMBO_ROOT" "$COMBO_KVER" "$COMBO_BUILD/kbuild/driver" "$2"
}
