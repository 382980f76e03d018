#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// SSL_set_tlsext_host_name is a macro over SSL_ctrl, which Swift cannot import: the server
/// name (SNI) a client sends.
static inline int copenssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl: refuse anything older than TLS 1.2.
static inline int copenssl_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

#endif
