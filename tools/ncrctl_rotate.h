/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncrctl master-key rotate (ncrctl_rotate.c): a new storage master key,
 * every key file re-wrapped under it, resumable.
 */
#ifndef NCRCTL_ROTATE_H
#define NCRCTL_ROTATE_H

#define NCRCTL_ROTATE_USAGE \
	"master-key rotate [--store PATH] [--backup FILE] [--tpm2-pcrs PCRS] " \
	"FILE|DIR...\n"

/* "ncrctl master-key rotate ..."; argv[0] is "rotate". */
int ncrctl_rotate_main(int argc, char **argv);

#endif /* NCRCTL_ROTATE_H */
