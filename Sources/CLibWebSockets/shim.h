#ifndef CLIBWEBSOCKETS_SHIM_H
#define CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

/// LWS_PRE is a macro with `?:` that Swift reports unavailable; this gives its value.
static inline size_t clws_pre(void) { return LWS_PRE; }

#endif
