#ifndef CLIBWEBSOCKETS_SHIM_H
#define CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

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

/// The SSL_OP_NO_* options are built with SSL_OP_BIT(n), a function-like macro Swift cannot
/// import. The server's TLS policy (RingCastTransport's WebServer+TLSPolicy) refuses every
/// protocol before TLS 1.2; lws hands these to SSL_CTX_set_options (`ssl_options_set`).
static inline long clws_ssl_options_no_tls_before_1_2(void) {
    return (long)(SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1);
}

#endif
