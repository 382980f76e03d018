/*
 * The yardstick for RingCast's broadcast cost: the least a libwebsockets 4.1.6 server can do to
 * send the same frames to every viewer at a fixed rate, and nothing else.
 *
 *   broadcaster --frames FILE [--port N] [--fps N]
 *
 * FILE holds frames recorded from a RingCast viewer by `ringcast-bench --record-frames`: each one
 * a little-endian u32 length and that many bytes of a binary frame (docs/PROTOCOL.md). Every tick
 * the next recorded frame becomes the current one (round and round), with its seq (u32 at byte 4)
 * rewritten so that it keeps rising, and every viewer is asked for a write; a viewer that can
 * write gets the current frame if it has not had it yet. So, like RingCast, a viewer that falls
 * behind skips to the newest frame, and each frame is built once for all viewers. Unlike RingCast
 * there is no layout, keyframe, REST API, state, ping, stall timeout or check of any kind.
 *
 * Any path upgrades to a viewer; other HTTP requests get lws's default answer. When it listens it
 * prints "listening on http://127.0.0.1:PORT"; SIGINT or SIGTERM stops it.
 *
 * Built and run by bench/run.sh (`make bench`); not part of RingCast.
 */

#include <libwebsockets.h>

#include "recorded-frames.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct viewer {
	uint32_t sent_seq;
};

static struct frame *frames;
static size_t frame_count;
static size_t current_index;
static uint32_t current_seq;

static struct lws_context *context;
static lws_sorted_usec_list_t tick_timer;
static lws_usec_t tick_period;
static lws_usec_t next_tick;
static volatile sig_atomic_t interrupted;

static int viewer_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
			   size_t len);

static const struct lws_protocols protocols[] = {
	{ "baseline", viewer_callback, sizeof(struct viewer), 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 }
};

static int viewer_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
			   size_t len)
{
	struct viewer *viewer = user;
	struct frame *frame;

	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		viewer->sent_seq = 0;
		if (current_seq)
			lws_callback_on_writable(wsi);
		return 0;

	case LWS_CALLBACK_SERVER_WRITEABLE:
		if (!current_seq || viewer->sent_seq == current_seq)
			return 0;
		frame = &frames[current_index];
		if (lws_write(wsi, frame->bytes + LWS_PRE, frame->length, LWS_WRITE_BINARY) <
		    (int)frame->length)
			return -1;
		viewer->sent_seq = current_seq;
		return 0;

	case LWS_CALLBACK_RECEIVE:
		return -1; /* viewers only read */

	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static void tick(lws_sorted_usec_list_t *sul)
{
	struct frame *frame;
	lws_usec_t now = lws_now_usecs(), delay;

	(void)sul;
	current_index = current_seq ? (current_index + 1) % frame_count : 0;
	current_seq++;
	frame = &frames[current_index];
	frame->bytes[LWS_PRE + 4] = (unsigned char)current_seq;
	frame->bytes[LWS_PRE + 5] = (unsigned char)(current_seq >> 8);
	frame->bytes[LWS_PRE + 6] = (unsigned char)(current_seq >> 16);
	frame->bytes[LWS_PRE + 7] = (unsigned char)(current_seq >> 24);
	lws_callback_on_writable_all_protocol(context, &protocols[0]);

	next_tick += tick_period;
	if (now - next_tick > tick_period) /* a whole tick late: carry on from now, no burst */
		next_tick = now;
	/* In whole milliseconds, rounded up: lws 4.1 rounds a wait down, then spins until it is due. */
	delay = next_tick > now ? (next_tick - now + 999) / 1000 * 1000 : 0;
	lws_sul_schedule(context, 0, &tick_timer, tick, delay);
}

static void on_signal(int number)
{
	(void)number;
	interrupted = 1;
}

int main(int argc, char **argv)
{
	struct lws_context_creation_info info;
	struct lws_vhost *vhost;
	const char *frames_path = NULL;
	int port = 0, fps = 60, n;

	if (read_arguments(argc, argv, &frames_path, &port, &fps))
		return 2;
	if (load_frames("broadcaster", frames_path, LWS_PRE, &frames, &frame_count))
		return 1;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	lws_set_log_level(LLL_ERR | LLL_WARN, NULL);

	memset(&info, 0, sizeof(info));
	info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
	context = lws_create_context(&info);
	if (!context) {
		fprintf(stderr, "broadcaster: lws_create_context failed\n");
		return 1;
	}
	memset(&info, 0, sizeof(info));
	info.port = port;
	info.iface = "127.0.0.1";
	info.protocols = protocols;
	vhost = lws_create_vhost(context, &info);
	if (!vhost) {
		fprintf(stderr, "broadcaster: cannot listen on 127.0.0.1:%d\n", port);
		lws_context_destroy(context);
		return 1;
	}
	printf("listening on http://127.0.0.1:%d\n", lws_get_vhost_listen_port(vhost));
	fflush(stdout);

	tick_period = 1000000 / fps;
	next_tick = lws_now_usecs() + tick_period;
	lws_sul_schedule(context, 0, &tick_timer, tick, tick_period);

	while (!interrupted && lws_service(context, 0) >= 0)
		;

	lws_context_destroy(context);
	for (n = 0; n < (int)frame_count; n++)
		free(frames[n].bytes);
	free(frames);
	return 0;
}
