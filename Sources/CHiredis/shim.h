#ifndef CHIREDIS_SHIM_H
#define CHIREDIS_SHIM_H

#include <hiredis/hiredis.h>

/// `reply->element[i]`: element `i` of an array reply, so that Swift does no pointer arithmetic on
/// hiredis's vector. The caller checks `i < reply->elements`.
static inline redisReply *chiredis_element(const redisReply *reply, size_t i) { return reply->element[i]; }

/// `context->errstr` is a `char[128]`, which Swift imports as a 128-element tuple; this hands it
/// over as a C string.
static inline const char *chiredis_error_text(const redisContext *context) { return context->errstr; }

#endif
