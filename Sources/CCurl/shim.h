#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

/// Plain prototypes: GCC's type-checking macros would wrap the variadic calls below.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/// `curl_easy_setopt`, `curl_easy_getinfo` and `curl_multi_setopt` are variadic, which Swift cannot
/// call: one typed helper per kind of argument RingCastClient passes.
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION take a `curl_write_callback`.
static inline CURLcode ccurl_setopt_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// CURL_GLOBAL_DEFAULT is a macro of shifted flags, which Swift does not import.
static inline long ccurl_global_default(void) { return CURL_GLOBAL_DEFAULT; }

/// A finished transfer's handle and result from `curl_multi_info_read`: the result sits in a union,
/// read here so that Swift need not know its layout.
static inline int ccurl_message_done(CURLMsg *message, CURL **handle, CURLcode *result) {
    if (message->msg != CURLMSG_DONE) return 0;
    *handle = message->easy_handle;
    *result = message->data.result;
    return 1;
}

#endif
