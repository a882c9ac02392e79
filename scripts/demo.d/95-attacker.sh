#!/bin/bash
# Demo step: the nginx of 90-nginx-https.sh is still running, its workers as
# nobody. We play a compromised worker: test/attack/ncr_attack.py, run as
# nobody, takes a worker's /dev/crypto descriptor, tries every ioctl that
# could hand out the key, reads the workers' memory with ptrace and makes a
# core dump of one, searching all of it for the key's bytes. To search, it
# must know the key: a key generated in the kernel is known to nobody, so
# nginx is first pointed (nginx -s reload) at a key made in software and
# imported with `ncrctl key import`. Two controls show that the search does
# find a key where one is. 99-nginx-stop.sh stops nginx afterwards.
set -u
ROOT=${NCR_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${NCR_BUILD:-$ROOT/build}
D=/tmp/demo-nginx
A=$D/attack
PORT=8443
CTL_PORT=8444
NCRCTL=$BUILD/tools/ncrctl
ATTACK=$ROOT/test/attack/ncr_attack.py
YAMA=/proc/sys/kernel/yama/ptrace_scope

say() { printf '   %s\n' "$*"; }
fail() { echo "!! $*"; exit 1; }
indent() { sed 's/^/      /'; }
# ncr_attack.py as nobody:nogroup, no supplementary groups, no provider
as_nobody() {
	env -u OPENSSL_CONF -u OPENSSL_MODULES PYTHONDONTWRITEBYTECODE=1 \
		/usr/bin/python3 -c 'import grp, os, pwd, sys
os.setgroups([])
os.setgid(grp.getgrnam("nogroup").gr_gid)
os.setuid(pwd.getpwnam("nobody").pw_uid)
os.execv(sys.executable, [sys.executable] + sys.argv[1:])' "$ATTACK" "$@"
}
workers_of() { pgrep -P "$1" | paste -sd ' '; }

[ -f "$D/logs/nginx.pid" ] || fail "nginx of 90-nginx-https.sh is not running"
master=$(cat "$D/logs/nginx.pid")
export OPENSSL_CONF=$ROOT/openssl.cnf.example
export OPENSSL_MODULES=$BUILD/provider
mkdir -p "$A" && chmod 755 "$A"

# 1. A key we know, imported into the kernel; nginx reloads with it.
say "1. A key the attacker's judge knows: RSA-2048 made in software (stock"
say "   openssl), imported into the kernel with ncrctl key import (as when an"
say "   existing server key is migrated); nginx -s reload switches to it."
timeout 120 env -u OPENSSL_CONF -u OPENSSL_MODULES openssl genpkey \
	-algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$A/known.pem" 2>/dev/null ||
	fail "openssl genpkey failed"
chmod 644 "$A/known.pem"   # the search needs it; nginx never sees this file
timeout 120 env -u OPENSSL_CONF -u OPENSSL_MODULES openssl req -new -x509 \
	-key "$A/known.pem" -subj /CN=localhost \
	-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -days 1 \
	-out "$A/known.crt" 2>/dev/null || fail "openssl req failed"
timeout 300 "$NCRCTL" key import "$A/known.pem" "$A/known.ncr.key" >/dev/null ||
	fail "ncrctl key import failed"
sed -i -e "s|ssl_certificate .*|ssl_certificate     $A/known.crt;|" \
	-e "s|ssl_certificate_key .*|ssl_certificate_key $A/known.ncr.key;   # the ncr key file|" \
	"$D/nginx.conf"
old=$(workers_of "$master")
timeout 300 nginx -p "$D" -c "$D/nginx.conf" -e "$D/logs/error.log" -s reload ||
	fail "nginx -s reload failed"
for _ in $(seq 300); do
	now=$(workers_of "$master")
	[ "$(echo "$now" | wc -w)" = 2 ] && ! echo " $old " | grep -qE " ($(echo "$now" | tr ' ' '|')) " && break
	sleep 0.3
done
workers=$(workers_of "$master")
page=$(timeout 120 env -u OPENSSL_CONF -u OPENSSL_MODULES curl -sS --max-time 100 \
	--cacert "$A/known.crt" --resolve "localhost:$PORT:127.0.0.1" \
	"https://localhost:$PORT/") || fail "curl after the reload failed"
say "   nginx serves with it (workers $workers, user nobody): $page"

# The strongest attacker of one uid may ptrace any of its processes.
yama_old=
if [ -f "$YAMA" ] && [ "$(cat "$YAMA")" != 0 ]; then
	yama_old=$(cat "$YAMA")
	echo 0 > "$YAMA"
	say "(Yama's ptrace_scope was $yama_old; set to 0 for this step so that"
	say " the attacker may ptrace processes that are not its children.)"
fi
# shellcheck disable=SC2317  # run by the EXIT trap
restore() { if [ -n "$yama_old" ]; then echo "$yama_old" > "$YAMA"; fi; }
trap restore EXIT
rc=0

# 2. Control: the search finds a key that is in a process's memory.
echo
say "2. Control: ncr_attack.py --self-test, as nobody. A child process reads"
say "   the same key file into its memory; the same ptrace read and core dump"
say "   must find the key there (else a pass below would prove nothing):"
as_nobody --self-test --key "$A/known.pem" 2>&1 | indent
[ "${PIPESTATUS[0]}" = 0 ] || { echo "!! the self-test did not find the key"; rc=1; }

# 3. The attack on the ncr nginx.
echo
say "3. The attack: ncr_attack.py --pid <both workers> --key known.pem, as"
say "   nobody (the workers' user), against the running nginx. Each line:"
say "   what was tried -> what happened -> what it shows."
# shellcheck disable=SC2086
set -- $workers
as_nobody --pid "$1" --pid "$2" --key "$A/known.pem" --core-dir "$D/wd" 2>&1 | indent
arc=${PIPESTATUS[0]}
if [ "$arc" = 0 ]; then
	say "=> exit 0: as the workers' own user, with their descriptor and every"
	say "   key handle in hand, the attacker got no byte of the private key."
else
	echo "!! ncr_attack.py exit $arc: see the LEAK lines above"
	rc=1
fi
page=$(timeout 120 env -u OPENSSL_CONF -u OPENSSL_MODULES curl -sS --max-time 100 \
	--cacert "$A/known.crt" --resolve "localhost:$PORT:127.0.0.1" \
	"https://localhost:$PORT/") || { echo "!! nginx stopped serving"; rc=1; }
say "   nginx's master started a new worker for the one dumped; it serves:"
say "   $page"

# 4. Control: the same attack on nginx with the plain PEM key file.
echo
say "4. Control: the same attack on a second nginx (port $CTL_PORT) serving the"
say "   same key from the plain PEM file, without ncr:"
C=$A/plain
mkdir -p "$C/logs" "$C/tmp" "$C/wd" && chmod 755 "$C"
chown nobody:nogroup "$C/wd"
sed -e "s|$D/logs|$C/logs|g; s|$D/tmp|$C/tmp|g; s|$D/wd|$C/wd|" \
	-e "s|127.0.0.1:$PORT|127.0.0.1:$CTL_PORT|" \
	-e "s|ssl_certificate_key .*|ssl_certificate_key $A/known.pem;   # plain PEM|" \
	"$D/nginx.conf" > "$C/nginx.conf"
if timeout 120 env -u OPENSSL_CONF -u OPENSSL_MODULES \
	nginx -p "$C" -c "$C/nginx.conf" -e "$C/logs/error.log"; then
	for _ in $(seq 100); do
		cm=$(cat "$C/logs/nginx.pid" 2>/dev/null) && [ "$(workers_of "$cm" | wc -w)" = 2 ] && break
		sleep 0.2
	done
	cw=$(workers_of "$cm" | cut -d' ' -f1)
	as_nobody --pid "$cw" --key "$A/known.pem" --core-dir "$C/wd" 2>&1 | indent
	crc=${PIPESTATUS[0]}
	timeout 30 env -u OPENSSL_CONF -u OPENSSL_MODULES \
		nginx -p "$C" -c "$C/nginx.conf" -e "$C/logs/error.log" -s stop
	for _ in $(seq 50); do [ -f "$C/logs/nginx.pid" ] || break; sleep 0.2; done
	if [ "$crc" = 1 ]; then
		say "=> exit 1: with a plain key file the key IS in the worker's memory"
		say "   (and its core dump); the same search found nothing with ncr."
	else
		echo "!! the control attack did not find the key (exit $crc)"
		rc=1
	fi
else
	cat "$C/logs/error.log"
	echo "!! the control nginx did not start"
	rc=1
fi
exit $rc
