#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

/// libcurl is opened on first use, not linked. Linking it mapped 27 more shared libraries (LDAP, Kerberos,
/// nghttp2, libssh2, librtmp, ...) into every `ringcast` process at start: an idle `ringcast serve` went from
/// 30.5 to 37.2 MiB VmRSS (RssFile 27.2 to 33.1 MiB), past the bench target of 30 MiB + 16 KiB per viewer,
/// and the same binary is the CLI (`ringcast push`), which never POSTs a webhook. So the module map links
/// nothing: `ccurl_load` dlopens libcurl.so.4 once per process, resolves the functions RingCastClient calls
/// into `ccurl_table`, and the `ccurl_*` functions below call through it. Swift calls only `ccurl_*`; a direct
/// `curl_*` call would not link. The header is still read for libcurl's types and constants.

/// Plain prototypes: GCC's type-checking macros would wrap the variadic calls below.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/// The libcurl functions RingCastClient calls, each typed by its prototype in <curl/curl.h>.
struct ccurl_api {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_multi_init) *multi_init;
    __typeof__(curl_multi_cleanup) *multi_cleanup;
    __typeof__(curl_multi_setopt) *multi_setopt;
    __typeof__(curl_multi_add_handle) *multi_add_handle;
    __typeof__(curl_multi_remove_handle) *multi_remove_handle;
    __typeof__(curl_multi_perform) *multi_perform;
    __typeof__(curl_multi_poll) *multi_poll;
    __typeof__(curl_multi_wakeup) *multi_wakeup;
    __typeof__(curl_multi_info_read) *multi_info_read;
    __typeof__(curl_multi_strerror) *multi_strerror;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
    /// Empty once loaded; else why not, one line.
    char error[512];
};

/// One table and one once-flag per process. Weak definitions, because Swift emits this header's code into
/// each object file that calls it (one per Swift file in a debug build): the linker keeps one of each. Both
/// need their initializer: without one Swift emits only a weak reference, which links as address 0.
__attribute__((weak)) struct ccurl_api ccurl_table = {0};
__attribute__((weak)) pthread_once_t ccurl_table_once = PTHREAD_ONCE_INIT;

/// Runs once (pthread_once): dlopen, dlsym for each function, then curl_global_init (which must not race
/// with other threads' first curl calls). On any failure `ccurl_table.error` says what, and nothing is called.
static void ccurl_resolve(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(ccurl_table.error, sizeof ccurl_table.error, "%s", dlerror());
        return;
    }
#define CCURL_RESOLVE(field, symbol)                                                       \
    ccurl_table.field = (__typeof__(ccurl_table.field))dlsym(library, #symbol);            \
    if (ccurl_table.field == NULL) {                                                       \
        snprintf(ccurl_table.error, sizeof ccurl_table.error,                              \
                 "libcurl.so.4 has no %s (libcurl 7.68 or later needed)", #symbol);        \
        return;                                                                            \
    }
    CCURL_RESOLVE(global_init, curl_global_init)
    CCURL_RESOLVE(easy_init, curl_easy_init)
    CCURL_RESOLVE(easy_cleanup, curl_easy_cleanup)
    CCURL_RESOLVE(easy_setopt, curl_easy_setopt)
    CCURL_RESOLVE(easy_getinfo, curl_easy_getinfo)
    CCURL_RESOLVE(easy_strerror, curl_easy_strerror)
    CCURL_RESOLVE(multi_init, curl_multi_init)
    CCURL_RESOLVE(multi_cleanup, curl_multi_cleanup)
    CCURL_RESOLVE(multi_setopt, curl_multi_setopt)
    CCURL_RESOLVE(multi_add_handle, curl_multi_add_handle)
    CCURL_RESOLVE(multi_remove_handle, curl_multi_remove_handle)
    CCURL_RESOLVE(multi_perform, curl_multi_perform)
    CCURL_RESOLVE(multi_poll, curl_multi_poll)
    CCURL_RESOLVE(multi_wakeup, curl_multi_wakeup)
    CCURL_RESOLVE(multi_info_read, curl_multi_info_read)
    CCURL_RESOLVE(multi_strerror, curl_multi_strerror)
    CCURL_RESOLVE(slist_append, curl_slist_append)
    CCURL_RESOLVE(slist_free_all, curl_slist_free_all)
#undef CCURL_RESOLVE
    CURLcode code = ccurl_table.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(ccurl_table.error, sizeof ccurl_table.error, "curl_global_init failed: %s",
                 ccurl_table.easy_strerror(code));
    }
}

/// Loads libcurl on the first call (later calls only read the outcome): NULL when it is ready, else why not,
/// e.g. dlerror's `libcurl.so.4: cannot open shared object file: No such file or directory`. Every other
/// `ccurl_*` function may be called only after this returned NULL.
static inline const char *ccurl_load(void) {
    pthread_once(&ccurl_table_once, ccurl_resolve);
    return ccurl_table.error[0] == 0 ? NULL : ccurl_table.error;
}

static inline CURL *ccurl_easy_init(void) { return ccurl_table.easy_init(); }
static inline void ccurl_easy_cleanup(CURL *handle) { ccurl_table.easy_cleanup(handle); }
static inline const char *ccurl_easy_strerror(CURLcode code) { return ccurl_table.easy_strerror(code); }
static inline CURLM *ccurl_multi_init(void) { return ccurl_table.multi_init(); }
static inline CURLMcode ccurl_multi_cleanup(CURLM *multi) { return ccurl_table.multi_cleanup(multi); }
static inline CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle) {
    return ccurl_table.multi_add_handle(multi, handle);
}
static inline CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return ccurl_table.multi_remove_handle(multi, handle);
}
static inline CURLMcode ccurl_multi_perform(CURLM *multi, int *running) {
    return ccurl_table.multi_perform(multi, running);
}
static inline CURLMcode ccurl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout,
                                         int *ready) {
    return ccurl_table.multi_poll(multi, extra, count, timeout, ready);
}
/// The one call other threads make (curl allows it).
static inline CURLMcode ccurl_multi_wakeup(CURLM *multi) { return ccurl_table.multi_wakeup(multi); }
static inline CURLMsg *ccurl_multi_info_read(CURLM *multi, int *left) { return ccurl_table.multi_info_read(multi, left); }
static inline const char *ccurl_multi_strerror(CURLMcode code) { return ccurl_table.multi_strerror(code); }
static inline struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line) {
    return ccurl_table.slist_append(list, line);
}
static inline void ccurl_slist_free_all(struct curl_slist *list) { ccurl_table.slist_free_all(list); }

/// `curl_easy_setopt`, `curl_easy_getinfo` and `curl_multi_setopt` are variadic, which Swift cannot
/// call: one typed helper per kind of argument RingCastClient passes.
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return ccurl_table.easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return ccurl_table.easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return ccurl_table.easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return ccurl_table.easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return ccurl_table.easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION take a `curl_write_callback`.
static inline CURLcode ccurl_setopt_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return ccurl_table.easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return ccurl_table.easy_getinfo(handle, info, value);
}

static inline CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return ccurl_table.multi_setopt(multi, option, value);
}

/// A finished transfer's handle and result from `curl_multi_info_read`: the result sits in a union,
/// read here so that Swift need not know its layout.
static inline int ccurl_message_done(CURLMsg *message, CURL **handle, CURLcode *result) {
    if (message->msg != CURLMSG_DONE) return 0;
    *handle = message->easy_handle;
    *result = message->data.result;
    return 1;
}

#endif
