// SPDX-License-Identifier: GPL-2.0
/*
 * Full TLS handshakes per second against servers on 127.0.0.1, for
 * scripts/bench (nginx with the key in the kernel, in a PEM file or in a
 * TPM).  Usage: tls_client SECONDS VERSION CLIENTS SLICES LABEL SIDE=PORT...
 * VERSION is tls1.3 or tls1.2.  CLIENTS processes each make handshakes for
 * SECONDS per side: connect, SSL_connect (a new SSL object, no session to
 * resume, no certificate chain check: the server's handshake signature is
 * still verified), SSL_shutdown, close.  The sides take turns, SLICES
 * windows of SECONDS/SLICES each, all clients on the same side at the same
 * time, so that every side sees the same host.  Prints per side one
 * tab-separated line
 *	R  LABEL  VERSION  SIDE  HANDSHAKES_PER_S
 * (handshakes of all clients over the time they spent on that side) and,
 * on stderr, the negotiated cipher and signature of each side's first
 * handshake.  A failed handshake is an error.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int handshake(SSL_CTX *ctx, int port, int first)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons((unsigned short)port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1, ok = 0;
	SSL *ssl;

	if (fd < 0)
		return 0;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("tls_client: connect");
		close(fd);
		return 0;
	}
	ssl = SSL_new(ctx);
	if (ssl != NULL && SSL_set_fd(ssl, fd) && SSL_connect(ssl) == 1) {
		ok = 1;
		if (first) {
			int nid = NID_undef;

			SSL_get_peer_signature_type_nid(ssl, &nid);
			fprintf(stderr, "%s %s, server signature %s\n",
				SSL_get_version(ssl),
				SSL_get_cipher_name(ssl), OBJ_nid2sn(nid));
		}
		SSL_shutdown(ssl);
	} else {
		ERR_print_errors_fp(stderr);
	}
	SSL_free(ssl);
	close(fd);
	return ok;
}

#define MAX_SIDES 8

struct tally {
	long n[MAX_SIDES];
	double busy[MAX_SIDES];
};

int main(int argc, char **argv)
{
	int clients, slices, version, nsides, i, k, fds[64];
	int port[MAX_SIDES];
	const char *side[MAX_SIDES];
	struct tally all = { { 0 }, { 0 } };
	double secs, win, t0;
	SSL_CTX *ctx;

	if (argc < 7 || argc - 6 > MAX_SIDES) {
		fprintf(stderr, "usage: tls_client SECONDS tls1.3|tls1.2 "
			"CLIENTS SLICES LABEL SIDE=PORT...\n");
		return 2;
	}
	secs = atof(argv[1]);
	clients = atoi(argv[3]);
	slices = atoi(argv[4]);
	if (strcmp(argv[2], "tls1.3") == 0)
		version = TLS1_3_VERSION;
	else if (strcmp(argv[2], "tls1.2") == 0)
		version = TLS1_2_VERSION;
	else
		version = 0;
	if (!version || clients < 1 || clients > 64 || slices < 1 ||
	    secs <= 0) {
		fprintf(stderr, "tls_client: bad version, client or slice "
			"count\n");
		return 2;
	}
	nsides = argc - 6;
	for (i = 0; i < nsides; i++) {
		char *eq = strchr(argv[6 + i], '=');

		if (eq == NULL) {
			fprintf(stderr, "tls_client: SIDE=PORT\n");
			return 2;
		}
		*eq = 0;
		side[i] = argv[6 + i];
		port[i] = atoi(eq + 1);
	}
	ctx = SSL_CTX_new(TLS_client_method());
	if (ctx == NULL || !SSL_CTX_set_min_proto_version(ctx, version) ||
	    !SSL_CTX_set_max_proto_version(ctx, version)) {
		ERR_print_errors_fp(stderr);
		return 1;
	}
	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
	/* one handshake each first: the servers work, and what they do */
	for (i = 0; i < nsides; i++) {
		fprintf(stderr, "tls_client: %s: ", side[i]);
		if (!handshake(ctx, port[i], 1))
			return 1;
	}

	win = secs / slices;
	t0 = now() + 0.05;	/* the first window, the same for all */
	for (i = 0; i < clients; i++) {
		int p[2];
		pid_t pid;

		if (pipe(p) < 0 || (pid = fork()) < 0) {
			perror("tls_client: fork");
			return 1;
		}
		if (pid == 0) {
			struct tally t = { { 0 }, { 0 } };
			int w;

			close(p[0]);
			for (w = 0; w < slices * nsides; w++) {
				int s = w % nsides;
				double end = t0 + (w + 1) * win, ts;

				while ((ts = now()) < t0 + w * win)
					usleep(1000);
				while (now() < end) {
					if (!handshake(ctx, port[s], 0))
						_exit(1);
					t.n[s]++;
				}
				t.busy[s] += now() - ts;
			}
			if (write(p[1], &t, sizeof(t)) != sizeof(t))
				_exit(1);
			_exit(0);
		}
		close(p[1]);
		fds[i] = p[0];
	}
	for (i = 0; i < clients; i++) {
		struct tally t;
		int st;

		if (read(fds[i], &t, sizeof(t)) != sizeof(t)) {
			fprintf(stderr, "tls_client: a client failed\n");
			return 1;
		}
		close(fds[i]);
		for (k = 0; k < nsides; k++) {
			all.n[k] += t.n[k];
			all.busy[k] += t.busy[k];
		}
		wait(&st);
	}
	/* handshakes of all clients / the mean time a client spent there */
	for (k = 0; k < nsides; k++)
		printf("R\t%s\t%s\t%s\t%.2f\n", argv[5], argv[2], side[k],
		       all.busy[k] > 0 ? all.n[k] * clients / all.busy[k] : 0);
	SSL_CTX_free(ctx);
	return 0;
}
