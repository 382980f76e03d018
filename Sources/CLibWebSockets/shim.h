#ifndef CLIBWEBSOCKETS_SHIM_H
#define CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <linux/filter.h>
#include <netinet/tcp.h>
#include <string.h>

/// LWS_PRE is a macro with `?:` that Swift reports unavailable; this gives its value.
static inline size_t clws_pre(void) { return LWS_PRE; }

/// A `lws_sul_schedule` callback receives only the `lws_sorted_usec_list_t *`. Swift cannot
/// declare a C struct layout, so the shim does: the sul comes first, so a pointer to it is a
/// pointer to the whole struct, and the context pointer leads back to Swift through
/// `lws_context_user`, the same single path every protocol callback uses.
typedef struct clws_timer {
    lws_sorted_usec_list_t sul;
    struct lws_context *context;
} clws_timer;

/// accept4 is a GNU extension: glibc declares it only under _GNU_SOURCE, so Swift's Glibc module
/// does not show it. The shared-port listener (RingCastTransport's EventLoop+SharedPort) accepts
/// with it so that each connection is non-blocking and close-on-exec from its first instant, as
/// lws requires of adopted sockets, with no window for a fork to inherit it.
int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

static inline int clws_accept_nonblocking(int listening) {
    return accept4(listening, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/// The drain (RingCastTransport's EventLoop+Drain) stops a listening socket from taking new
/// connections before it closes it, so that closing resets no connection the kernel has already
/// set up: a classic BPF socket filter on the listener drops every pure SYN (a TCP socket's filter
/// sees the TCP header at offset 0, whose byte 13 holds the flags), while handshakes already under
/// way complete and queue, to be accepted and answered. A client whose SYN was dropped sends it
/// again a second later and finds the port closed (refused). Connections accepted from the
/// listener inherit the filter, which passes everything but a SYN. The kernel copies the program.
/// In C because `struct sock_fprog` and the BPF_* macros of <linux/filter.h> read clearly only here.
static inline int clws_drop_new_connections(int listening) {
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x12),      /* SYN | ACK */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x02, 0, 1), /* SYN alone: */
        BPF_STMT(BPF_RET | BPF_K, 0),                   /*   dropped */
        BPF_STMT(BPF_RET | BPF_K, 0xffffffff),          /* anything else: kept */
    };
    struct sock_fprog program = { .len = sizeof(code) / sizeof(code[0]), .filter = code };
    return setsockopt(listening, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof(program));
}

/// Connections set up by the kernel and waiting for accept() on a listening socket (Linux reports
/// it as a listener's `tcpi_unacked`), or -1. The drain closes a listener only once this is 0.
static inline int clws_accept_queue_length(int listening) {
    struct tcp_info info;
    socklen_t length = sizeof(info);
    if (getsockopt(listening, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
    return (int)info.tcpi_unacked;
}

/// What a viewer's socket still holds for its peer, from TCP_INFO: the peer's advertised receive
/// window, the bytes sent but not acknowledged, and the bytes not sent yet. The broadcaster writes a
/// frame only where the window has room for it (RingCastTransport's EventLoop+SocketOptions), so
/// that no frame waits in the kernel behind a closed window and goes stale there.
/// Linux's struct tcp_info only ever grows at its end (include/uapi/linux/tcp.h), but glibc's copy
/// in <netinet/tcp.h> stops before these fields and <linux/tcp.h> cannot be included beside it, so
/// they are read at their fixed offsets. A kernel older than 6.2 (no tcpi_snd_wnd) answers -1.
typedef struct clws_send_state {
    uint32_t window;
    uint64_t in_flight;
    uint32_t unsent;
} clws_send_state;

static inline int clws_send_state_of(int fd, clws_send_state *state) {
    unsigned char info[256];
    socklen_t length = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, info, &length) != 0 || length < 232) return -1;
    uint64_t acked, sent, retransmitted;
    memcpy(&acked, info + 120, sizeof acked);         /* tcpi_bytes_acked */
    memcpy(&state->unsent, info + 144, sizeof(uint32_t)); /* tcpi_notsent_bytes */
    memcpy(&sent, info + 200, sizeof sent);           /* tcpi_bytes_sent (retransmissions included) */
    memcpy(&retransmitted, info + 208, sizeof retransmitted); /* tcpi_bytes_retrans */
    memcpy(&state->window, info + 228, sizeof(uint32_t)); /* tcpi_snd_wnd */
    uint64_t first = sent - retransmitted;
    state->in_flight = first > acked ? first - acked : 0;
    return 0;
}

/// The SSL_OP_NO_* options are built with SSL_OP_BIT(n), a function-like macro Swift cannot
/// import. The server's TLS policy (RingCastTransport's WebServer+TLSPolicy) refuses every
/// protocol before TLS 1.2; lws hands these to SSL_CTX_set_options (`ssl_options_set`).
static inline long clws_ssl_options_no_tls_before_1_2(void) {
    return (long)(SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1);
}

#endif
