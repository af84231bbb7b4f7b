#ifndef CLEADPHONE_H
#define CLEADPHONE_H

/* A plain C face for Google's libphonenumber (C++), so Swift never needs C++ interop. */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CLEADPHONE_FIXED_LINE = 0,
    CLEADPHONE_MOBILE = 1,
    CLEADPHONE_FIXED_LINE_OR_MOBILE = 2,
    CLEADPHONE_TOLL_FREE = 3,
    CLEADPHONE_PREMIUM_RATE = 4,
    CLEADPHONE_SHARED_COST = 5,
    CLEADPHONE_VOIP = 6,
    CLEADPHONE_PERSONAL_NUMBER = 7,
    CLEADPHONE_PAGER = 8,
    CLEADPHONE_UAN = 9,
    CLEADPHONE_VOICEMAIL = 10,
    CLEADPHONE_UNKNOWN = 11
} cleadphone_type;

/* libphonenumber's ErrorType values, as `cleadphone_parse` returns them. */
enum {
    CLEADPHONE_PARSED = 0,
    CLEADPHONE_INVALID_COUNTRY_CODE = 1,
    CLEADPHONE_NOT_A_NUMBER = 2,
    CLEADPHONE_TOO_SHORT_AFTER_IDD = 3,
    CLEADPHONE_TOO_SHORT_NSN = 4,
    CLEADPHONE_TOO_LONG = 5
};

typedef struct {
    /* 0 when parsed; otherwise libphonenumber's ErrorType (the constants above). */
    int parse_error;
    int is_valid;
    int is_possible;
    cleadphone_type type;
    int country_code;
    char region[8];
    char e164[32];
    char extension[32];
} cleadphone_result;

/* Parses `number` (UTF-8) with `default_region` (ISO 3166 alpha-2, or "ZZ" for none).
   `type` is looked up only when `want_type` is non-zero (it costs as much again as the rest). */
int cleadphone_parse(const char *number, const char *default_region, int want_type, cleadphone_result *out);

/* For the tests: how many of `count` pseudo-random NANP numbers the shim's fixed-line-first
   validity check judges differently from libphonenumber's IsValidNumberForRegion (0 expected;
   -1 when the metadata is missing). */
int cleadphone_check_valid_order(int count, unsigned long long seed);

#ifdef __cplusplus
}
#endif

#endif
