// A blocking HTTP exchange through libcurl, loaded with dlopen on first use: the binary does not
// link libcurl (and its forty libraries), so commands that send nothing start as fast as
// before. See docs/http.md.
#ifndef CLEADCURL_H
#define CLEADCURL_H
#include <stddef.h>

typedef struct lp_http_response {
    long status;
    char *headers;      // the raw header lines of every response received (malloc'd)
    size_t headers_len;
    char *body;         // malloc'd
    size_t body_len;
    int curl_code;      // 0, or libcurl's CURLcode
    char error[256];    // libcurl's message when curl_code != 0
} lp_http_response;

// A handle (one connection cache), or NULL with lp_http_load_error() when libcurl is missing.
void *lp_http_open(void);
void lp_http_close(void *handle);
const char *lp_http_load_error(void);

// Sends one request; headers are "Name: value" strings. Returns curl_code (also in out).
int lp_http_perform(void *handle, const char *method, const char *url, const char *const *headers, int header_count,
                    const void *body, size_t body_length, double timeout_seconds, lp_http_response *out);
void lp_http_response_free(lp_http_response *response);

// CURLcode groups, for the Swift side's error kinds.
int lp_http_is_timeout(int code);
int lp_http_is_connection_problem(int code);
int lp_http_is_unreachable(int code);
#endif
