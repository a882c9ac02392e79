#!/bin/bash
# Demo step: nginx serves HTTPS with a private key that only the kernel
# holds; curl fetches a page. The same steps as docs/deploy.md, with every
# file under /tmp (the host's root is read-only in the VM), loopback only.
# nginx is left running (workers as nobody) for 95-attacker.sh; 99-nginx-stop.sh
# stops it (and this step does, if it fails).
set -u
ROOT=${NCR_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${NCR_BUILD:-$ROOT/build}
D=/tmp/demo-nginx
PORT=8443
NCRCTL=$BUILD/tools/ncrctl
rm -rf "$D" && mkdir -p "$D/logs" "$D/tmp" "$D/wd" && chmod 755 "$D"
# the workers' working directory (where a core dump of one would go)
chown nobody:nogroup "$D/wd"

say() { printf '   %s\n' "$*"; }
fail() { echo "!! $*"; exit 1; }
nginx_stop() {
	[ -f "$D/logs/nginx.pid" ] || return 0
	local m
	m=$(cat "$D/logs/nginx.pid")
	timeout 30 nginx -p "$D" -c "$D/nginx.conf" -e "$D/logs/error.log" -s stop 2>/dev/null
	for _ in $(seq 50); do [ -f "$D/logs/nginx.pid" ] || return 0; sleep 0.2; done
	# still there: kill the master we started and its workers by PID
	kill -KILL $(pgrep -P "$m") "$m" 2>/dev/null
	rm -f "$D/logs/nginx.pid"
}
trap nginx_stop EXIT

# 1. The storage master key (once per boot; systemd's ncr-master-key.service
#    does this on a real server).
if timeout 30 "$NCRCTL" status 2>/dev/null | grep -q '^master key: set'; then
	say "The kernel already has a storage master key."
else
	timeout 30 "$NCRCTL" master-key generate "$D/master.key" >/dev/null &&
		timeout 30 "$NCRCTL" master-key load "$D/master.key" >/dev/null ||
		fail "could not set the master key with ncrctl"
	say "Set the storage master key: ncrctl master-key generate + load"
	say "(32 random bytes; key files made now can only be opened with it)."
fi

# 2. OpenSSL's ncr provider, switched on for the commands we start.
export OPENSSL_CONF=$ROOT/openssl.cnf.example
export OPENSSL_MODULES=$BUILD/provider     # not installed: use the build tree
say "OPENSSL_CONF=openssl.cnf.example activates the providers default + ncr."

# 3. An RSA-2048 key generated inside the kernel.
t0=$(date +%s)
timeout 600 openssl genpkey -propquery provider=ncr -algorithm RSA \
	-pkeyopt rsa_keygen_bits:2048 -out "$D/server.key" ||
	fail "openssl genpkey through the ncr provider failed"
say "openssl genpkey -propquery provider=ncr -algorithm RSA (2048 bits):"
say "the kernel generated the key pair in $(($(date +%s) - t0)) s. The file holds:"
sed -n '1p;$p' "$D/server.key" | sed 's/^/      /'
say "i.e. the key wrapped under the master key, plus the public key in clear."
timeout 60 openssl pkey -in "$D/server.key" -text -noout | head -n 1 | sed 's/^/      /'
if timeout 60 env -u OPENSSL_CONF -u OPENSSL_MODULES openssl pkey \
	-in "$D/server.key" -noout 2>/dev/null; then
	fail "stock openssl read the key file as a private key"
fi
say "Stock openssl (without the provider) cannot read it as a private key."

# 4. A self-signed certificate: its signature is made by the kernel.
timeout 300 openssl req -new -x509 -key "$D/server.key" -subj /CN=localhost \
	-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -days 1 \
	-out "$D/server.crt" || fail "openssl req -x509 failed"
say "openssl req -x509 signed a certificate for it (signature made in the kernel)."

# 5. nginx, configured as on a real server but under /tmp.
cat > "$D/nginx.conf" <<EOF
user nobody nogroup;
working_directory $D/wd;
worker_processes 2;
pid $D/logs/nginx.pid;
error_log $D/logs/error.log;
env OPENSSL_CONF;
events { worker_connections 64; }
http {
    access_log $D/logs/access.log;
    client_body_temp_path $D/tmp/body;
    proxy_temp_path $D/tmp/proxy;
    fastcgi_temp_path $D/tmp/fastcgi;
    uwsgi_temp_path $D/tmp/uwsgi;
    scgi_temp_path $D/tmp/scgi;
    server {
        listen 127.0.0.1:$PORT ssl;
        ssl_certificate     $D/server.crt;
        ssl_certificate_key $D/server.key;   # the ncr key file
        ssl_protocols TLSv1.2 TLSv1.3;
        location / {
            default_type text/plain;
            return 200 "Hello from nginx worker \$pid over \$ssl_protocol (\$ssl_cipher); the TLS key never left the kernel.\n";
        }
    }
}
EOF
timeout 300 nginx -p "$D" -c "$D/nginx.conf" -e "$D/logs/error.log" || {
	cat "$D/logs/error.log"
	fail "nginx did not start"
}
for _ in $(seq 100); do
	timeout 5 bash -c "echo > /dev/tcp/127.0.0.1/$PORT" 2>/dev/null && break
	sleep 0.3
done
master=$(cat "$D/logs/nginx.pid")
workers=$(pgrep -P "$master" | paste -sd ' ')
say "nginx is up on https://127.0.0.1:$PORT/ (master $master, workers $workers),"
say "with ssl_certificate_key = the ncr key file. The master loaded it (the"
say "kernel unwrapped the blob into a key handle in the master's /dev/crypto"
say "namespace) and forked the workers, which inherited that descriptor"
say "and run as the unprivileged user nobody:"
for p in $master $workers; do
	printf '      pid %-6s user %-7s %s\n' "$p" "$(ps -o user= -p "$p")" \
		"$(ls -l /proc/"$p"/fd 2>/dev/null | grep -o '[0-9]* -> /dev/crypto' | head -n 1)"
done

# 6. curl (stock, no provider needed on the client side) fetches a page.
echo
say "curl --cacert server.crt https://localhost:$PORT/ (TLS 1.3, then TLS 1.2):"
for v in "--tlsv1.3" "--tlsv1.2 --tls-max 1.2"; do
	# shellcheck disable=SC2086
	out=$(timeout 120 env -u OPENSSL_CONF -u OPENSSL_MODULES curl -sS -v \
		--max-time 100 $v --cacert "$D/server.crt" \
		--resolve "localhost:$PORT:127.0.0.1" "https://localhost:$PORT/" 2>&1) ||
		{ echo "$out" | tail -n 20; fail "curl failed"; }
	echo "$out" | grep -E '^\* SSL connection using' | sed 's/^\*/      curl:/'
	echo "$out" | grep -E '^Hello' | sed 's/^/      page: /'
done
sig=$(timeout 120 env -u OPENSSL_CONF -u OPENSSL_MODULES openssl s_client \
	-connect 127.0.0.1:$PORT -servername localhost -CAfile "$D/server.crt" \
	-tls1_3 </dev/null 2>/dev/null | grep -E '^Peer signature type|^Peer signing digest' | tr '\n' ' ')
say "openssl s_client: $sig(TLS 1.3 handshake signature, made by the kernel)"
grep -E '\[(error|crit|alert|emerg)\]' "$D/logs/error.log" && fail "nginx logged errors"
trap - EXIT    # nginx stays up for the attacker step; 99-nginx-stop.sh ends it

echo
say "What just happened: nginx, curl and OpenSSL are Debian's unmodified"
say "packages. OPENSSL_CONF switched on the ncr provider; the provider"
say "turned the key file into a kernel key handle, and the handshake"
say "signatures (RSA-PSS, in TLS 1.3 and in TLS 1.2's ECDHE-RSA) were"
say "computed by ncr.ko through /dev/crypto. No process ever had the private key in"
say "its memory: a compromised nginx worker can use the key while it runs,"
say "but cannot copy it; the file on disk is useless without the master key."
say "nginx keeps running: the next step attacks it as its workers' user."
