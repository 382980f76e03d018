/*
 * The floor of RingCast's broadcast cost (issue 35): the same frames as broadcaster.c, sent with
 * nothing but epoll and one non-blocking send() per viewer per frame — no libwebsockets, no
 * writeable round trip.
 *
 *   epoll-broadcaster --frames FILE [--port N] [--fps N]
 *
 * FILE is what `ringcast-bench --record-frames` wrote (broadcaster.c reads the same). Every tick the
 * next recorded frame becomes the current one, its seq (u32 at byte 4) rewritten to keep rising, and
 * is framed once as a WebSocket binary message; each viewer then gets one send() of it. A send that
 * takes only part of the message keeps the rest, sent when the socket has room (EPOLLOUT), and the
 * viewer skips frames until it is sent; a send that takes nothing skips the frame. So, as with
 * RingCast, a viewer that falls behind skips to the newest frame.
 *
 * Any request upgrades to a viewer (its Sec-WebSocket-Key answered, nothing else checked); what a
 * viewer sends is read and dropped, and its end closes it. When it listens it prints
 * "listening on http://127.0.0.1:PORT"; SIGINT or SIGTERM stops it.
 *
 * Built and run by bench/run.sh (`make bench`); not part of RingCast.
 */

#define _GNU_SOURCE /* accept4, strcasestr */

#include <openssl/sha.h>

#include "recorded-frames.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#define MAX_FDS 65536
#define REQUEST_LIMIT 4096

struct connection {
	int open;		/* 0: reading the upgrade request; 1: a viewer */
	size_t request_length;
	char request[REQUEST_LIMIT];
	unsigned char *pending;	/* the unsent rest of a message, or NULL */
	size_t pending_length;
	size_t pending_offset;
};

static struct frame *frames;
static size_t frame_count;
static struct connection *connections[MAX_FDS];
static int epoll_fd;
static volatile sig_atomic_t interrupted;

static void on_signal(int number)
{
	(void)number;
	interrupted = 1;
}

static void close_connection(int fd)
{
	struct connection *connection = connections[fd];

	if (connection) {
		free(connection->pending);
		free(connection);
		connections[fd] = NULL;
	}
	epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, NULL);
	close(fd);
}

static void watch_writes(int fd, int writes)
{
	struct epoll_event event = { .events = EPOLLIN | (writes ? EPOLLOUT : 0), .data.fd = fd };

	epoll_ctl(epoll_fd, EPOLL_CTL_MOD, fd, &event);
}

/* RFC 6455 §4.2.2: base64 of the SHA-1 of the key and the protocol's GUID. */
static void accept_value(const char *key, size_t key_length, char out[29])
{
	static const char guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char input[128], digest[SHA_DIGEST_LENGTH];
	size_t i, o = 0;

	memcpy(input, key, key_length);
	memcpy(input + key_length, guid, sizeof(guid) - 1);
	SHA1(input, key_length + sizeof(guid) - 1, digest);
	for (i = 0; i < SHA_DIGEST_LENGTH; i += 3) {
		unsigned value = (unsigned)digest[i] << 16 | (i + 1 < SHA_DIGEST_LENGTH ? (unsigned)digest[i + 1] << 8 : 0) |
				 (i + 2 < SHA_DIGEST_LENGTH ? digest[i + 2] : 0);

		out[o++] = alphabet[value >> 18 & 63];
		out[o++] = alphabet[value >> 12 & 63];
		out[o++] = i + 1 < SHA_DIGEST_LENGTH ? alphabet[value >> 6 & 63] : '=';
		out[o++] = i + 2 < SHA_DIGEST_LENGTH ? alphabet[value & 63] : '=';
	}
	out[o] = '\0';
}

/* Reads the upgrade request; answers it once whole. Returns -1 to close. */
static int read_request(int fd, struct connection *connection)
{
	char answer[256], accept[29];
	const char *key, *end;
	ssize_t got = recv(fd, connection->request + connection->request_length,
			   REQUEST_LIMIT - 1 - connection->request_length, 0);
	int length;

	if (got <= 0)
		return got < 0 && (errno == EAGAIN || errno == EINTR) ? 0 : -1;
	connection->request_length += (size_t)got;
	connection->request[connection->request_length] = '\0';
	if (!strstr(connection->request, "\r\n\r\n"))
		return connection->request_length < REQUEST_LIMIT - 1 ? 0 : -1;
	key = strcasestr(connection->request, "\r\nSec-WebSocket-Key:");
	if (!key)
		return -1;
	key += strlen("\r\nSec-WebSocket-Key:");
	while (*key == ' ')
		key++;
	end = strstr(key, "\r\n");
	if (!end || end - key > 64)
		return -1;
	accept_value(key, (size_t)(end - key), accept);
	length = snprintf(answer, sizeof(answer),
			  "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
			  "Sec-WebSocket-Accept: %s\r\n\r\n",
			  accept);
	if (send(fd, answer, (size_t)length, MSG_NOSIGNAL | MSG_DONTWAIT) != length)
		return -1;
	connection->open = 1;
	return 0;
}

/* Sends the rest of a message the socket did not take whole. Returns -1 to close. */
static int flush(int fd, struct connection *connection)
{
	ssize_t sent = send(fd, connection->pending + connection->pending_offset,
			    connection->pending_length - connection->pending_offset, MSG_NOSIGNAL | MSG_DONTWAIT);

	if (sent < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	connection->pending_offset += (size_t)sent;
	if (connection->pending_offset == connection->pending_length) {
		free(connection->pending);
		connection->pending = NULL;
		watch_writes(fd, 0);
	}
	return 0;
}

/* One send() of `message` to every viewer that owes nothing. */
static void broadcast(const unsigned char *message, size_t length)
{
	int fd;

	for (fd = 0; fd < MAX_FDS; fd++) {
		struct connection *connection = connections[fd];
		ssize_t sent;

		if (!connection || !connection->open || connection->pending)
			continue;
		sent = send(fd, message, length, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (sent == (ssize_t)length || (sent < 0 && (errno == EAGAIN || errno == EINTR)))
			continue;
		if (sent < 0) {
			close_connection(fd);
			continue;
		}
		connection->pending = malloc(length - (size_t)sent);
		if (!connection->pending) {
			close_connection(fd);
			continue;
		}
		memcpy(connection->pending, message + sent, length - (size_t)sent);
		connection->pending_length = length - (size_t)sent;
		connection->pending_offset = 0;
		watch_writes(fd, 1);
	}
}

int main(int argc, char **argv)
{
	const char *frames_path = NULL;
	int port = 0, fps = 60, n, listener, timer, one = 1;
	struct sockaddr_in address;
	socklen_t address_length = sizeof(address);
	struct itimerspec period;
	struct epoll_event event, events[256];
	unsigned char *message;
	size_t index = 0, largest = 0;
	uint32_t seq = 0;

	if (read_arguments(argc, argv, &frames_path, &port, &fps))
		return 2;
	if (load_frames("epoll-broadcaster", frames_path, 0, &frames, &frame_count))
		return 1;
	for (index = 0; index < frame_count; index++)
		largest = frames[index].length > largest ? frames[index].length : largest;
	message = malloc(largest + 10);
	if (!message)
		return 1;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&address, 0, sizeof(address));
	address.sin_family = AF_INET;
	address.sin_port = htons((uint16_t)port);
	address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof(address)) ||
	    listen(listener, 4096) || getsockname(listener, (struct sockaddr *)&address, &address_length)) {
		fprintf(stderr, "epoll-broadcaster: cannot listen on 127.0.0.1:%d: %s\n", port, strerror(errno));
		return 1;
	}
	timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	period.it_interval.tv_sec = 0;
	period.it_interval.tv_nsec = 1000000000L / fps;
	period.it_value = period.it_interval;
	epoll_fd = epoll_create1(0);
	if (timer < 0 || epoll_fd < 0 || timerfd_settime(timer, 0, &period, NULL)) {
		fprintf(stderr, "epoll-broadcaster: %s\n", strerror(errno));
		return 1;
	}
	event.events = EPOLLIN;
	event.data.fd = listener;
	epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listener, &event);
	event.data.fd = timer;
	epoll_ctl(epoll_fd, EPOLL_CTL_ADD, timer, &event);
	printf("listening on http://127.0.0.1:%d\n", ntohs(address.sin_port));
	fflush(stdout);

	index = frame_count - 1;
	while (!interrupted) {
		int ready = epoll_wait(epoll_fd, events, 256, -1), i;

		for (i = 0; i < ready; i++) {
			int fd = events[i].data.fd;

			if (fd == listener) {
				int viewer;

				while ((viewer = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
					if (viewer >= MAX_FDS || !(connections[viewer] = calloc(1, sizeof(struct connection)))) {
						close(viewer);
						continue;
					}
					setsockopt(viewer, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
					event.events = EPOLLIN;
					event.data.fd = viewer;
					epoll_ctl(epoll_fd, EPOLL_CTL_ADD, viewer, &event);
				}
			} else if (fd == timer) {
				uint64_t expirations;
				struct frame *frame;
				size_t header;

				if (read(timer, &expirations, sizeof(expirations)) != sizeof(expirations))
					continue;
				/* The next frame, seq rising, framed once: FIN + binary, then the length. */
				index = (index + 1) % frame_count;
				frame = &frames[index];
				seq++;
				message[0] = 0x82;
				if (frame->length < 126) {
					message[1] = (unsigned char)frame->length;
					header = 2;
				} else if (frame->length < 65536) {
					message[1] = 126;
					message[2] = (unsigned char)(frame->length >> 8);
					message[3] = (unsigned char)frame->length;
					header = 4;
				} else {
					message[1] = 127;
					for (n = 0; n < 8; n++)
						message[2 + n] = (unsigned char)((uint64_t)frame->length >> (56 - 8 * n));
					header = 10;
				}
				memcpy(message + header, frame->bytes, frame->length);
				message[header + 4] = (unsigned char)seq;
				message[header + 5] = (unsigned char)(seq >> 8);
				message[header + 6] = (unsigned char)(seq >> 16);
				message[header + 7] = (unsigned char)(seq >> 24);
				broadcast(message, header + frame->length);
			} else if (connections[fd]) {
				struct connection *connection = connections[fd];

				if (events[i].events & (EPOLLHUP | EPOLLERR)) {
					close_connection(fd);
				} else if (!connection->open) {
					if (read_request(fd, connection))
						close_connection(fd);
				} else {
					if ((events[i].events & EPOLLOUT) && connection->pending && flush(fd, connection)) {
						close_connection(fd);
						continue;
					}
					if (events[i].events & EPOLLIN) {
						char dropped[4096];
						ssize_t got = recv(fd, dropped, sizeof(dropped), 0);

						if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR))
							close_connection(fd);
					}
				}
			}
		}
	}
	for (n = 0; n < MAX_FDS; n++)
		if (connections[n])
			close_connection(n);
	close(listener);
	return 0;
}
