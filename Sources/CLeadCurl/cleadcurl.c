#include "cleadcurl.h"
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void load(void) {
    const char *names[] = {"libcurl.so.4", "libcurl.so", "libcurl-gnutls.so.4"};
    void *lib = NULL;
    for (size_t k = 0; k < sizeof names / sizeof names[0] && !lib; k++) lib = dlopen(names[k], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        strncpy(load_error, "libcurl is not installed (Debian: apt install libcurl4)", sizeof load_error - 1);
        return;
    }
#define SYM(field, name) if (!(*(void **)&curl.field = dlsym(lib, name))) { snprintf(load_error, sizeof load_error, "libcurl lacks %s", name); return; }
    SYM(global_init, "curl_global_init")
    SYM(easy_init, "curl_easy_init")
    SYM(easy_setopt, "curl_easy_setopt")
    SYM(easy_perform, "curl_easy_perform")
    SYM(easy_getinfo, "curl_easy_getinfo")
    SYM(easy_reset, "curl_easy_reset")
    SYM(easy_cleanup, "curl_easy_cleanup")
    SYM(easy_strerror, "curl_easy_strerror")
    SYM(slist_append, "curl_slist_append")
    SYM(slist_free_all, "curl_slist_free_all")
#undef SYM
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        strncpy(load_error, "libcurl did not initialise", sizeof load_error - 1);
        return;
    }
    loaded = 1;
}

const char *lp_http_load_error(void) { return load_error; }

void *lp_http_open(void) {
    pthread_once(&once, load);
    return loaded ? curl.easy_init() : NULL;
}

void lp_http_close(void *handle) {
    if (handle && loaded) curl.easy_cleanup(handle);
}

typedef struct { char *data; size_t len; size_t cap; } buffer;

static size_t append(char *data, size_t size, size_t count, void *user) {
    buffer *b = user;
    size_t n = size * count;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown) return 0;  // libcurl then fails the transfer
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = 0;
    return n;
}

int lp_http_perform(void *handle, const char *method, const char *url, const char *const *headers, int header_count,
                    const void *body, size_t body_length, double timeout_seconds, lp_http_response *out) {
    memset(out, 0, sizeof *out);
    CURL *h = handle;
    // Options start afresh for each request; the connection cache stays with the handle.
    curl.easy_reset(h);
    buffer head = {0}, payload = {0};
    struct curl_slist *list = NULL;
    for (int k = 0; k < header_count; k++) list = curl.slist_append(list, headers[k]);
    list = curl.slist_append(list, "Expect:");  // no 100-continue round trip before a body
    curl.easy_setopt(h, CURLOPT_URL, url);
    curl.easy_setopt(h, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)(timeout_seconds * 1000));
    curl.easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)(timeout_seconds * 1000));
    curl.easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    curl.easy_setopt(h, CURLOPT_WRITEFUNCTION, append);
    curl.easy_setopt(h, CURLOPT_WRITEDATA, &payload);
    curl.easy_setopt(h, CURLOPT_HEADERFUNCTION, append);
    curl.easy_setopt(h, CURLOPT_HEADERDATA, &head);
    if (body) {
        curl.easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
        curl.easy_setopt(h, CURLOPT_POSTFIELDS, body);
    }
    if (strcmp(method, "GET") == 0 && !body) {
        curl.easy_setopt(h, CURLOPT_HTTPGET, 1L);
    } else if (strcmp(method, "HEAD") == 0) {
        curl.easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (strcmp(method, "POST") != 0 || !body) {
        curl.easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    }
    CURLcode code = curl.easy_perform(h);
    curl.slist_free_all(list);
    out->curl_code = code;
    if (code != CURLE_OK) {
        strncpy(out->error, curl.easy_strerror(code), sizeof out->error - 1);
    } else {
        curl.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out->status);
    }
    out->headers = head.data;
    out->headers_len = head.len;
    out->body = payload.data;
    out->body_len = payload.len;
    return code;
}

void lp_http_response_free(lp_http_response *response) {
    free(response->headers);
    free(response->body);
    response->headers = response->body = NULL;
}

int lp_http_is_timeout(int code) { return code == CURLE_OPERATION_TIMEDOUT; }

/* The server was never reached: its name does not resolve, nothing listens on its port, or the
   TLS handshake (or the certificate's check) failed. Nothing can have been applied. */
int lp_http_is_unreachable(int code) {
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST: case CURLE_COULDNT_RESOLVE_PROXY: case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR: case CURLE_PEER_FAILED_VERIFICATION: case CURLE_SSL_CERTPROBLEM: case CURLE_SSL_CACERT_BADFILE:
        return 1;
    default:
        return 0;
    }
}

/* The connection broke after the request may have reached the server. */
int lp_http_is_connection_problem(int code) {
    switch (code) {
    case CURLE_GOT_NOTHING: case CURLE_SEND_ERROR: case CURLE_RECV_ERROR: case CURLE_PARTIAL_FILE: case CURLE_HTTP2: case CURLE_HTTP2_STREAM:
        return 1;
    default:
        return 0;
    }
}
