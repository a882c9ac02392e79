// SPDX-License-Identifier: GPL-2.0
/*
 * Full TLS handshakes per second against a server on 127.0.0.1, for
 * scripts/bench (nginx with the key in the kernel, in a PEM file or in a
 * TPM).  Usage: tls_client PORT SECONDS VERSION CLIENTS LABEL SIDE
 * VERSION is tls1.3 or tls1.2.  CLIENTS processes each loop for SECONDS:
 * connect, SSL_connect (a new SSL object, no session to resume, no
 * certificate chain check: the server's handshake signature is still
 * verified), SSL_shutdown, close.  Prints one tab-separated line
 *	R  LABEL  VERSION  SIDE  HANDSHAKES_PER_S
 * (the sum over the clients) and, on stderr, the negotiated cipher and
 * signature of the first handshake.  A failed handshake is an error.
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
			fprintf(stderr, "tls_client: %s %s, server signature "
				"%s\n", SSL_get_version(ssl),
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

int main(int argc, char **argv)
{
	int port, clients, version, i, fds[64];
	double secs, t0, total = 0;
	SSL_CTX *ctx;

	if (argc != 7) {
		fprintf(stderr, "usage: tls_client PORT SECONDS tls1.3|tls1.2 "
			"CLIENTS LABEL SIDE\n");
		return 2;
	}
	port = atoi(argv[1]);
	secs = atof(argv[2]);
	clients = atoi(argv[4]);
	if (strcmp(argv[3], "tls1.3") == 0)
		version = TLS1_3_VERSION;
	else if (strcmp(argv[3], "tls1.2") == 0)
		version = TLS1_2_VERSION;
	else
		version = 0;
	if (!version || clients < 1 || clients > 64) {
		fprintf(stderr, "tls_client: bad version or client count\n");
		return 2;
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
	/* one handshake first: the server works, and what it negotiates */
	if (!handshake(ctx, port, 1))
		return 1;

	t0 = now();
	for (i = 0; i < clients; i++) {
		int p[2];
		pid_t pid;

		if (pipe(p) < 0 || (pid = fork()) < 0) {
			perror("tls_client: fork");
			return 1;
		}
		if (pid == 0) {
			long n = 0;
			double t;

			close(p[0]);
			while ((t = now()) - t0 < secs) {
				if (!handshake(ctx, port, 0))
					_exit(1);
				n++;
			}
			if (write(p[1], &n, sizeof(n)) != sizeof(n))
				_exit(1);
			_exit(0);
		}
		close(p[1]);
		fds[i] = p[0];
	}
	for (i = 0; i < clients; i++) {
		long n = 0;
		int st;

		if (read(fds[i], &n, sizeof(n)) != sizeof(n)) {
			fprintf(stderr, "tls_client: a client failed\n");
			return 1;
		}
		close(fds[i]);
		total += n;
		wait(&st);
	}
	printf("R\t%s\t%s\t%s\t%.2f\n", argv[5], argv[3], argv[6],
	       total / (now() - t0));
	SSL_CTX_free(ctx);
	return 0;
}
