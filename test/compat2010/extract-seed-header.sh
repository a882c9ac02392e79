#!/bin/sh
# Writes include/linux/ncr.h exactly as the 2010 patch "User-space API
# definition" ships it: the added lines of that file's hunk, without the
# leading "+".  Fails unless the line count matches the hunk header.
#   extract-seed-header.sh <patch> <output file>
set -eu
patch=$1
out=$2
mkdir -p "$(dirname "$out")"
awk -v out="$out.tmp" '
	/^\+\+\+ b\/include\/linux\/ncr\.h$/ { state = 1; next }
	state == 1 {
		# @@ -0,0 +1,N @@: a new file of N lines
		if (match($0, /^@@ -0,0 \+1,[0-9]+ @@/) == 0) exit 3
		split($3, a, ","); want = a[2]; state = 2; next
	}
	state == 2 && /^\+/ { print substr($0, 2) > out; n++; next }
	state == 2 { exit }
	END {
		if (state != 2) { print "no include/linux/ncr.h in the patch" > "/dev/stderr"; exit 3 }
		if (n != want) { printf "%d lines, hunk says %d\n", n, want > "/dev/stderr"; exit 3 }
	}' "$patch"
mv "$out.tmp" "$out"
