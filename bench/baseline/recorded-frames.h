/*
 * The frames `ringcast-bench --record-frames` wrote, as both baseline broadcasters read them: each a
 * little-endian u32 length and that many bytes of a binary RingCast frame (docs/PROTOCOL.md).
 * Header-only, for the two single-file programs of bench/baseline; not part of RingCast.
 */
#ifndef RECORDED_FRAMES_H
#define RECORDED_FRAMES_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct frame {
	size_t length;
	unsigned char *bytes; /* `headroom` bytes, then the frame */
};

/* Reads every frame of `path` into `*frames` (`*count` of them), each after `headroom` spare bytes;
 * -1, saying why on standard error as `program`, when the file cannot be read or holds none. */
static int load_frames(const char *program, const char *path, size_t headroom, struct frame **frames,
		       size_t *count)
{
	FILE *file = fopen(path, "rb");
	unsigned char header[4];
	size_t capacity = 0;

	if (!file) {
		fprintf(stderr, "%s: cannot open %s: %s\n", program, path, strerror(errno));
		return -1;
	}
	while (fread(header, 1, 4, file) == 4) {
		size_t length = (size_t)header[0] | (size_t)header[1] << 8 | (size_t)header[2] << 16 |
				(size_t)header[3] << 24;

		if (length < 8 || length > 1 << 20) {
			fprintf(stderr, "%s: %s: a frame of %zu bytes is not a RingCast frame\n", program, path,
				length);
			fclose(file);
			return -1;
		}
		if (*count == capacity) {
			capacity = capacity ? capacity * 2 : 256;
			*frames = realloc(*frames, capacity * sizeof(**frames));
			if (!*frames) {
				fclose(file);
				return -1;
			}
		}
		(*frames)[*count].length = length;
		(*frames)[*count].bytes = malloc(headroom + length);
		if (!(*frames)[*count].bytes || fread((*frames)[*count].bytes + headroom, 1, length, file) != length) {
			fprintf(stderr, "%s: %s is truncated\n", program, path);
			fclose(file);
			return -1;
		}
		(*count)++;
	}
	fclose(file);
	if (!*count) {
		fprintf(stderr, "%s: %s holds no frames\n", program, path);
		return -1;
	}
	return 0;
}

/* `--frames FILE [--port N] [--fps N]`, as both broadcasters take them; -1 (the usage said) when they are
 * not that. */
static int read_arguments(int argc, char **argv, const char **frames_path, int *port, int *fps)
{
	int n;

	for (n = 1; n + 1 < argc; n += 2) {
		if (!strcmp(argv[n], "--frames"))
			*frames_path = argv[n + 1];
		else if (!strcmp(argv[n], "--port"))
			*port = atoi(argv[n + 1]);
		else if (!strcmp(argv[n], "--fps"))
			*fps = atoi(argv[n + 1]);
		else
			break;
	}
	if (n != argc || !*frames_path || *port < 0 || *port > 65535 || *fps < 1 || *fps > 240) {
		fprintf(stderr, "usage: %s --frames FILE [--port N] [--fps 1-240]\n", argv[0]);
		return -1;
	}
	return 0;
}

#endif
