#include "cleadphone.h"

#include <cstring>
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

extern "C" int cleadphone_parse(const char *number, const char *default_region, cleadphone_result *out) {
    std::memset(out, 0, sizeof *out);
    out->type = CLEADPHONE_UNKNOWN;
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
    PhoneNumber parsed;
    PhoneNumberUtil::ErrorType error = util->Parse(number, default_region, &parsed);
    if (error != PhoneNumberUtil::NO_PARSING_ERROR) {
        out->parse_error = static_cast<int>(error);
        return out->parse_error;
    }
    out->is_valid = util->IsValidNumber(parsed) ? 1 : 0;
    out->is_possible = util->IsPossibleNumber(parsed) ? 1 : 0;
    out->type = static_cast<cleadphone_type>(util->GetNumberType(parsed));
    out->country_code = parsed.country_code();
    std::string text;
    util->GetRegionCodeForNumber(parsed, &text);
    copy_out(out->region, sizeof out->region, text);
    std::string extension = parsed.has_extension() ? parsed.extension() : std::string();
    copy_out(out->extension, sizeof out->extension, extension);
    parsed.clear_extension();
    util->Format(parsed, PhoneNumberUtil::E164, &text);
    copy_out(out->e164, sizeof out->e164, text);
    util->Format(parsed, PhoneNumberUtil::NATIONAL, &text);
    copy_out(out->national, sizeof out->national, text);
    return 0;
}
