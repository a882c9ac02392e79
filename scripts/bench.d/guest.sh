#!/bin/bash
# The guest half of scripts/bench: runs inside one scripts/vm boot, so that
# every side is measured on the same emulated CPU.  Usage (from scripts/bench):
#   guest.sh BINDIR GROUP...      GROUP: rsa ec sym tls
# Writes to $NCR_VM_OUT: results.tsv (ROUND LABEL ITEM SIDE VALUE, one line
# per measurement, from the R lines of the programs), meta (guest
# facts), missing (sides that could not be measured, with the reason) and
# log.  Rounds are interleaved (round 1 of every side, then round 2 ...) so
# that a slow phase of the host affects every side alike.
set -u
BIN=$1
shift
GROUPS_WANTED=" $* "
OUT=$NCR_VM_OUT
SECS=${NCR_BENCH_SECONDS:-1}
ROUNDS=${NCR_BENCH_ROUNDS:-5}
TLS_SECS=${NCR_BENCH_TLS_SECONDS:-4}
TLS_CLIENTS=${NCR_BENCH_TLS_CLIENTS:-2}
TLS_SLICES=4
SIZES="64 1024 16384 1048576"
# one program run measures up to ~20 items: bound it, should anything hang
LIMIT=$(awk -v s="$SECS" -v t="$TLS_SECS" 'BEGIN { printf "%d", 120 + 40 * s + 4 * t }')
W=/tmp/ncr-bench
NCRCTL=$NCR_BUILD/tools/ncrctl
DATA=$NCR_ROOT/test/data/pk_session
# ncr.so from the build tree; tpm2.so (tpm2-openssl) from OpenSSL's own
# modules directory, so everything tpm2 runs without OPENSSL_MODULES
export OPENSSL_MODULES=$NCR_BUILD/provider
NO_MODULES=(env -u OPENSSL_MODULES)
unset OPENSSL_CONF
rm -rf "$W" && mkdir -p "$W" && chmod 755 "$W"
: > "$OUT/results.tsv"
: > "$OUT/missing"
: > "$OUT/log"

log() { echo "bench: $*" | tee -a "$OUT/log"; }
want() { [[ $GROUPS_WANTED == *" $1 "* ]]; }
missing() {	# SIDE REASON...
	local side=$1
	shift
	printf '%s\t%s\n' "$side" "$*" >> "$OUT/missing"
	log "missing: $side: $*"
}
# run ROUND CMD...: the command's R lines, with the round, into results.tsv
run() {
	local r=$1 rc
	shift
	timeout -k 5 "$LIMIT" "$@" > "$W/run.out" 2> "$W/run.err"
	rc=$?
	awk -v r="$r" -F '\t' '$1 == "R" { sub(/^R\t/, ""); print r "\t" $0 }' \
		"$W/run.out" >> "$OUT/results.tsv"
	# what the programs say on stderr, once per run of the benchmarks
	sed 's/^/    /' "$W/run.err" | sort -u | while IFS= read -r l; do
		grep -qxF -- "$l" "$OUT/log" || echo "$l" | tee -a "$OUT/log"
	done
	if [ $rc != 0 ]; then
		log "FAILED ($rc): $*"
		return 1
	fi
	return 0
}

{
	echo "kernel	$(uname -r)"
	echo "cpus	$(nproc)"
	echo "cpu	$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
	echo "openssl	$(openssl version)"
	echo "nginx	$(nginx -v 2>&1 | sed 's/.*: //')"
	echo "seconds	$SECS"
	echo "rounds	$ROUNDS"
	echo "tls_seconds	$TLS_SECS"
	echo "tls_clients	$TLS_CLIENTS"
	# the kernel's implementations (driver and priority) of what we time
	for a in "cbc(aes)" "ctr(aes)" sha256; do
		echo "kernel $a	$(awk -v n="$a" '$1 == "name" { name = $3 }
			$1 == "driver" { drv = $3 }
			$1 == "priority" && name == n { printf "%s%s(%s)", sep, drv, $3; sep = " " }' /proc/crypto)"
	done
} > "$OUT/meta"

# The storage master key (the key files need it).
if ! timeout 30 "$NCRCTL" status 2>/dev/null | grep -q '^master key: set'; then
	timeout 30 "$NCRCTL" master-key generate "$W/master.key" > /dev/null &&
		timeout 30 "$NCRCTL" master-key load "$W/master.key" > /dev/null ||
		log "could not set the master key"
fi

# ---- the TPM: swtpm on a loopback port, tpm2-openssl, no resource manager
TPM_PORT=2321
TPM=$W/tpm2
export TPM2OPENSSL_TCTI="swtpm:host=127.0.0.1,port=$TPM_PORT"
export TPM2TOOLS_TCTI=$TPM2OPENSSL_TCTI
TPM_OK=
tpm2_setup() {
	local m
	for m in swtpm tpm2_flushcontext; do
		command -v $m > /dev/null || { missing tpm2 "$m not installed"; return 1; }
	done
	[ -f /usr/lib/x86_64-linux-gnu/ossl-modules/tpm2.so ] ||
		{ missing tpm2 "tpm2-openssl not installed"; return 1; }
	mkdir -p "$TPM/state"
	swtpm socket --tpm2 --tpmstate dir="$TPM/state" \
		--server type=tcp,port=$TPM_PORT,bindaddr=127.0.0.1 \
		--ctrl type=tcp,port=$((TPM_PORT + 1)),bindaddr=127.0.0.1 \
		--flags not-need-init,startup-clear --daemon \
		--pid file="$W/swtpm.pid" --log file="$TPM/swtpm.log" ||
		{ missing tpm2 "swtpm did not start"; return 1; }
	# tpm2 must be asked first for what its keys do: otherwise OpenSSL
	# fetches the default provider's RSA signature, exports the TPM key's
	# public half to it and fails with "missing private key"; but not for
	# the TPM's own digests, ciphers and random numbers (slow, and a TPM
	# without a resource manager runs out of object slots).
	cat > "$TPM/openssl.cnf" <<EOF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = algorithm_sect
[algorithm_sect]
default_properties = ?provider=tpm2,tpm2.digest!=yes,tpm2.cipher!=yes,tpm2.rand!=yes
[provider_sect]
default = default_sect
tpm2 = tpm2_sect
[default_sect]
activate = 1
[tpm2_sect]
activate = 1
EOF
	# RSA-2048 made in the TPM (the file is the TPM's wrapped key blob)
	# and a self-signed certificate for it, signed by the TPM
	timeout 600 "${NO_MODULES[@]}" openssl genpkey -provider tpm2 \
		-provider default -algorithm RSA -pkeyopt bits:2048 \
		-out "$TPM/key.pem" 2> "$TPM/genpkey.err" &&
		timeout 300 "${NO_MODULES[@]}" openssl req -provider tpm2 \
			-provider default -new -x509 -key "$TPM/key.pem" \
			-subj /CN=localhost -days 2 -out "$TPM/cert.pem" 2> "$TPM/req.err" ||
		{ missing tpm2 "key or certificate in the TPM failed: $(cat "$TPM"/*.err | tr '\n' ' ')"; return 1; }
	TPM_OK=1
}
# Without a resource manager, what a process loaded into the TPM stays
# there after it exits (3 transient slots): empty them before each user.
tpm2_flush() {
	tpm2_flushcontext -t 2> /dev/null
	tpm2_flushcontext -s 2> /dev/null
	return 0
}

# ---- rsa: raw /dev/crypto (pk_bench), the providers through EVP ----
rsa_setup() {
	local b
	for b in 2048 3072; do
		openssl pkey -in "$DATA/rsa$b.pem" -out "$W/rsa$b.pem" &&
			openssl rsa -in "$DATA/rsa$b.pem" -outform DER \
				-out "$W/rsa$b.der" 2> /dev/null &&
			openssl pkey -in "$DATA/rsa$b.pem" -pubout -outform DER \
				-out "$W/rsa$b.pub.der" &&
			timeout 120 "$NCRCTL" key import --usage sign,decrypt \
				"$DATA/rsa$b.pem" "$W/rsa$b.ncr.pem" > /dev/null ||
			log "rsa$b: key preparation failed"
	done
}
rsa_round() {
	local r=$1 b
	for b in 2048 3072; do
		run "$r" "$BIN/pk_bench" "$W/rsa$b.der" "$W/rsa$b.pub.der" \
			"$SECS" "rsa$b"
		# the same key as an ncr key file and as PEM, in turns
		run "$r" "$BIN/evp_bench" pk "$SECS" "rsa$b" \
			ncr="$W/rsa$b.ncr.pem" default="$W/rsa$b.pem"
	done
	# the TPM's own key (RSA-2048, not the same key: it never leaves the TPM)
	if [ -n "$TPM_OK" ]; then
		tpm2_flush
		run "$r" "${NO_MODULES[@]}" "$BIN/evp_bench" pk "$SECS" rsa2048 \
			tpm2="$TPM/key.pem"
	fi
}

# ---- ec: ECDSA, ECDH and X25519 through the providers (evp_bench) ----
# P-256, P-384 (ECDSA sign, verify; ECDH derive; key generation) and X25519
# (derive; key generation).  The ncr keys are generated in the kernel, the
# default provider's in software: not the same keys, which does not matter
# to what these operations cost.
EC_KEYS="p256 p384 x25519"
ec_genpkey() {	# NAME, then genpkey's key arguments
	local name=$1
	shift
	openssl genpkey -provider ncr -provider default -propquery \
		provider=ncr "$@" -out "$W/$name.ncr.pem" &&
		openssl genpkey "$@" -out "$W/$name.pem" ||
		log "$name: key preparation failed"
}
ec_setup() {
	ec_genpkey p256 -algorithm EC -pkeyopt ec_paramgen_curve:P-256
	ec_genpkey p384 -algorithm EC -pkeyopt ec_paramgen_curve:P-384
	ec_genpkey x25519 -algorithm X25519
}
ec_round() {
	local k
	for k in $EC_KEYS; do
		run "$1" "$BIN/evp_bench" pk "$SECS" "$k" \
			ncr="$W/$k.ncr.pem" default="$W/$k.pem"
	done
}

# ---- sym: raw /dev/crypto and AF_ALG (sym_bench), EVP (evp_bench) ----
sym_setup() {
	local m
	for m in algif_skcipher algif_hash; do
		modprobe "$m" || log "modprobe $m failed"
	done
}
sym_round() {
	local r=$1
	# shellcheck disable=SC2086 # word splitting of SIZES
	run "$r" "$BIN/sym_bench" "$SECS" $SIZES
	# shellcheck disable=SC2086
	run "$r" "$BIN/evp_bench" sym "$SECS" ncr,default,afalg $SIZES
}

# ---- tls: nginx with the key in the kernel, in a PEM file, in the TPM ----
# RSA-2048 (sides pem, ncr, tpm2; label "nginx") and ECDSA P-256 (sides
# pem-ec, ncr-ec; label "nginx-ecdsa"): one nginx per side, own port.
TLS_SIDES="pem ncr tpm2 pem-ec ncr-ec"
declare -A PORT=([pem]=8441 [ncr]=8442 [tpm2]=8443 [pem-ec]=8444
	[ncr-ec]=8445)
declare -A NGINX_ENV=()
declare -A UP=()

nginx_conf() {	# SIDE CERT KEY
	local d=$W/nginx-$1
	mkdir -p "$d/logs" "$d/tmp"
	cat > "$d/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $d/logs/nginx.pid;
error_log $d/logs/error.log;
env OPENSSL_CONF;
env TPM2OPENSSL_TCTI;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $d/tmp/body;
    proxy_temp_path $d/tmp/proxy;
    fastcgi_temp_path $d/tmp/fastcgi;
    uwsgi_temp_path $d/tmp/uwsgi;
    scgi_temp_path $d/tmp/scgi;
    server {
        listen 127.0.0.1:${PORT[$1]} ssl;
        ssl_certificate     $2;
        ssl_certificate_key $3;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache off;
        ssl_session_tickets off;
        location / { return 200 "ok\n"; }
    }
}
EOF
}
# nginx of SIDE, in the foreground (daemon off) of a background job: with
# daemon on, the parent that loaded the key would exit (and free it).
nginx_start() {
	local side=$1 d=$W/nginx-$1 pid
	# shellcheck disable=SC2086 # NGINX_ENV holds env(1) arguments
	env ${NGINX_ENV[$side]} nginx -p "$d" -c "$d/nginx.conf" \
		-e "$d/logs/error.log" > "$d/logs/stdout" 2>&1 &
	pid=$!
	for _ in $(seq 300); do
		if timeout 5 bash -c "echo > /dev/tcp/127.0.0.1/${PORT[$side]}" 2> /dev/null; then
			UP[$side]=$pid
			return 0
		fi
		kill -0 $pid 2> /dev/null || break
		sleep 0.2
	done
	missing "nginx-$side" "nginx did not start: $(tail -n 3 "$d/logs/error.log" "$d/logs/stdout" 2>/dev/null | tr '\n' ' ')"
	NGINX_ENV[$side]=
	kill -KILL $(pgrep -P $pid) $pid 2> /dev/null
	return 1
}
nginx_stop() {
	local side=$1 d=$W/nginx-$1 m=${UP[$1]:-}
	[ -n "$m" ] || return 0
	kill -QUIT "$m" 2> /dev/null
	for _ in $(seq 50); do kill -0 "$m" 2> /dev/null || break; sleep 0.2; done
	kill -KILL $(pgrep -P "$m") "$m" 2> /dev/null
	wait "$m" 2> /dev/null
	unset "UP[$side]"
	grep -E '\[(crit|alert|emerg)\]' "$d/logs/error.log" | sort -u | head -n 5 |
		sed "s/^/    nginx-$side: /" | tee -a "$OUT/log"
	: > "$d/logs/error.log"
}
stop_all() {
	local side
	for side in "${!UP[@]}"; do nginx_stop "$side"; done
	[ -f "$W/swtpm.pid" ] && kill "$(cat "$W/swtpm.pid")" 2> /dev/null
	return 0
}
tls_setup() {
	local k=$W/tls-rsa2048.pem e=$W/tls-p256.pem
	# the same key and certificate, as a PEM file and as an ncr key file
	openssl pkey -in "$DATA/rsa2048.pem" -out "$k" &&
		openssl req -new -x509 -key "$k" -subj /CN=localhost -days 2 \
			-out "$W/tls-pem.crt" 2> /dev/null &&
		timeout 120 "$NCRCTL" key import --usage sign "$k" \
			"$W/tls-rsa2048.ncr.pem" > /dev/null ||
		log "tls: key preparation failed"
	nginx_conf pem "$W/tls-pem.crt" "$k"
	NGINX_ENV[pem]="-u OPENSSL_CONF"
	nginx_conf ncr "$W/tls-pem.crt" "$W/tls-rsa2048.ncr.pem"
	NGINX_ENV[ncr]="OPENSSL_CONF=$NCR_ROOT/openssl.cnf.example"
	if [ -n "$TPM_OK" ]; then
		nginx_conf tpm2 "$TPM/cert.pem" "$TPM/key.pem"
		NGINX_ENV[tpm2]="-u OPENSSL_MODULES OPENSSL_CONF=$TPM/openssl.cnf"
	fi
	# ECDSA P-256 the same way: made by stock openssl, imported (an EC
	# key always derives too: ncrctl wants "derive" listed)
	openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
		-out "$e" &&
		openssl req -new -x509 -key "$e" -subj /CN=localhost -days 2 \
			-out "$W/tls-ec.crt" 2> /dev/null &&
		timeout 120 "$NCRCTL" key import --usage sign,derive "$e" \
			"$W/tls-p256.ncr.pem" > /dev/null ||
		log "tls: ECDSA key preparation failed"
	nginx_conf pem-ec "$W/tls-ec.crt" "$e"
	NGINX_ENV[pem-ec]="-u OPENSSL_CONF"
	nginx_conf ncr-ec "$W/tls-ec.crt" "$W/tls-p256.ncr.pem"
	NGINX_ENV[ncr-ec]="OPENSSL_CONF=$NCR_ROOT/openssl.cnf.example"
}
# The nginx run during the round (idle but for the clients talking to one
# of them) and are stopped after it: the TPM takes one connection at a
# time, which nginx keeps open, and the rsa group measures the TPM too.
# tls_client makes the sides of one key type take turns (TLS_SLICES
# windows per version), so that they see the same host.
tls_round() {
	local r=$1 v side rsa=() ec=()
	for side in $TLS_SIDES; do
		[ -n "${NGINX_ENV[$side]:-}" ] || continue
		[ "$side" = tpm2 ] && tpm2_flush
		nginx_start "$side" || continue
		case $side in
		*-ec) ec+=("$side=${PORT[$side]}") ;;
		*) rsa+=("$side=${PORT[$side]}") ;;
		esac
	done
	for v in tls1.3 tls1.2; do
		[ ${#rsa[@]} -eq 0 ] ||
			run "$r" "$BIN/tls_client" "$TLS_SECS" "$v" \
				"$TLS_CLIENTS" "$TLS_SLICES" nginx "${rsa[@]}"
		[ ${#ec[@]} -eq 0 ] ||
			run "$r" "$BIN/tls_client" "$TLS_SECS" "$v" \
				"$TLS_CLIENTS" "$TLS_SLICES" nginx-ecdsa \
				"${ec[@]}"
	done
	for side in $TLS_SIDES; do nginx_stop "$side"; done
}

t0=$(date +%s)
trap stop_all EXIT
if want rsa || want tls; then
	log "setup tpm2"
	tpm2_setup
fi
for g in rsa ec sym tls; do
	want $g || continue
	log "setup $g"
	${g}_setup
done
log "setup done in $(($(date +%s) - t0)) s"
for r in $(seq "$ROUNDS"); do
	for g in rsa ec sym tls; do
		want $g || continue
		t1=$(date +%s)
		${g}_round "$r"
		log "round $r $g: $(($(date +%s) - t1)) s"
	done
done
stop_all
trap - EXIT
log "all rounds done in $(($(date +%s) - t0)) s"
