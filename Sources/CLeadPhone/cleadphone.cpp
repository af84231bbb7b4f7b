#include "cleadphone.h"

#include <cstring>
#include <strings.h>
#include <string>

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

static void copy_out(char *dst, size_t size, const std::string &src) {
    size_t n = src.size() < size - 1 ? src.size() : size - 1;
    std::memcpy(dst, src.data(), n);
    dst[n] = 0;
}

// The ten digits of a North American number written only with digits, spaces and ( ) - . /
// (an optional leading + before a country code 1, or a leading 1 trunk prefix), and an
// extension written " x12", " ext 12", " ext. 12" or " extension 12" after it; or "" when the
// text has any other shape. libphonenumber's Parse spends most of its time on regular
// expressions that such plain text does not need.
static std::string plain_nanp_digits(const char *number, std::string *extension) {
    std::string digits;
    bool plus = false;
    const char *c = number;
    for (; *c; ++c) {
        if (*c >= '0' && *c <= '9') {
            digits.push_back(*c);
        } else if (*c == '+' && digits.empty() && !plus) {
            plus = true;
        } else if (*c == ' ' || *c == '(' || *c == ')' || *c == '-' || *c == '.' || *c == '/') {
            continue;
        } else {
            break;
        }
    }
    if (*c) {
        // Only an extension may follow, after a space: "x", "ext", "ext." or "extension".
        if (c == number || c[-1] != ' ') return "";
        const char *words[] = {"extension", "ext.", "ext", "x"};
        size_t matched = 0;
        for (const char *w : words) {
            size_t n = std::strlen(w);
            if (strncasecmp(c, w, n) == 0) { matched = n; break; }
        }
        if (matched == 0) return "";
        c += matched;
        while (*c == ' ') ++c;
        const char *start = c;
        while (*c >= '0' && *c <= '9') ++c;
        if (*c || c == start || c - start > 6) return "";
        extension->assign(start, c - start);
    }
    if (digits.size() == 11 && digits[0] == '1') return digits.substr(1);
    if (digits.size() == 10 && !plus) return digits;
    return "";
}

static void finish(const PhoneNumberUtil *util, PhoneNumber &parsed, int want_type, cleadphone_result *out) {
    std::string extension = parsed.has_extension() ? parsed.extension() : std::string();
    copy_out(out->extension, sizeof out->extension, extension);
    parsed.clear_extension();
    std::string text;
    util->Format(parsed, PhoneNumberUtil::E164, &text);
    copy_out(out->e164, sizeof out->e164, text);
    out->country_code = parsed.country_code();
    if (want_type) out->type = static_cast<cleadphone_type>(util->GetNumberType(parsed));
}

extern "C" int cleadphone_parse(const char *number, const char *default_region, int want_type, cleadphone_result *out) {
    std::memset(out, 0, sizeof *out);
    out->type = CLEADPHONE_UNKNOWN;
    // Looked up once: GetInstance takes a lock and the region list is rebuilt on every call.
    static const PhoneNumberUtil *const util = PhoneNumberUtil::GetInstance();
    static const std::string main_region = [] {
        std::string region;
        util->GetRegionCodeForCountryCode(1, &region);
        return region;
    }();
    PhoneNumber parsed;

    // Fast path: a plain ten-digit number valid in the US is what Parse would give: country
    // code 1 and those digits, and the US is the region libphonenumber names for it (the US is
    // the first region of code 1, and a toll-free number is valid in every NANP region, so this
    // holds only for the US as the default). Anything else takes the full path.
    if (main_region == default_region) {
        std::string extension;
        std::string digits = plain_nanp_digits(number, &extension);
        if (!digits.empty()) {
            parsed.set_country_code(1);
            parsed.set_national_number(std::stoull(digits));
            if (!extension.empty()) parsed.set_extension(extension);
            if (util->IsValidNumberForRegion(parsed, default_region)) {
                out->is_valid = 1;
                out->is_possible = 1;
                copy_out(out->region, sizeof out->region, default_region);
                finish(util, parsed, want_type, out);
                return 0;
            }
            parsed.Clear();
        }
    }

    PhoneNumberUtil::ErrorType error = util->Parse(number, default_region, &parsed);
    if (error != PhoneNumberUtil::NO_PARSING_ERROR) {
        out->parse_error = static_cast<int>(error);
        return out->parse_error;
    }
    // IsValidNumber is exactly IsValidNumberForRegion(n, GetRegionCodeForNumber(n)); the
    // region is wanted anyway, so it is looked up once.
    std::string region;
    util->GetRegionCodeForNumber(parsed, &region);
    out->is_valid = region != "ZZ" && util->IsValidNumberForRegion(parsed, region) ? 1 : 0;
    out->is_possible = out->is_valid || util->IsPossibleNumber(parsed) ? 1 : 0;
    copy_out(out->region, sizeof out->region, region);
    finish(util, parsed, want_type, out);
    return 0;
}
