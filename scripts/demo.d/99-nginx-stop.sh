#!/bin/bash
# Demo step: stops the nginx that 90-nginx-https.sh left running (for
# 95-attacker.sh) and checks its error log. The one alert expected is the
# worker the attacker killed for a core dump.
set -u
D=/tmp/demo-nginx
ROOT=${NCR_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
export OPENSSL_CONF=$ROOT/openssl.cnf.example
export OPENSSL_MODULES=${NCR_BUILD:-$ROOT/build}/provider

[ -f "$D/logs/nginx.pid" ] || { echo "   nginx is not running."; exit 0; }
m=$(cat "$D/logs/nginx.pid")
timeout 30 nginx -p "$D" -c "$D/nginx.conf" -e "$D/logs/error.log" -s stop 2>/dev/null
for _ in $(seq 50); do [ -f "$D/logs/nginx.pid" ] || break; sleep 0.2; done
if [ -f "$D/logs/nginx.pid" ]; then
	# still there: kill the master we started and its workers by PID
	kill -KILL $(pgrep -P "$m") "$m" 2>/dev/null
	rm -f "$D/logs/nginx.pid"
fi
echo "   nginx stopped (master $m); closing its /dev/crypto descriptor freed the key."
bad=$(grep -E '\[(error|crit|alert|emerg)\]' "$D/logs/error.log" |
	grep -vE 'worker process [0-9]+ exited on signal (11|6)')
if [ -n "$bad" ]; then
	echo "$bad"
	echo "!! nginx logged errors"
	exit 1
fi
grep -E 'exited on signal (11|6)' "$D/logs/error.log" | sed 's/^/   expected: /'
exit 0
