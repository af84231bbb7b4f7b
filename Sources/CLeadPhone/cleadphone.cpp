#include "cleadphone.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <strings.h>
#include <string>
#include <vector>

#include <phonenumbers/phonemetadata.pb.h>
#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>
#include <unicode/regex.h>
#include <unicode/unistr.h>

using i18n::phonenumbers::PhoneMetadata;
using i18n::phonenumbers::PhoneMetadataCollection;
using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberDesc;
using i18n::phonenumbers::PhoneNumberUtil;

namespace i18n {
namespace phonenumbers {
// The compiled-in metadata PhoneNumberUtil loads itself from (libphonenumber's metadata.h,
// which Debian does not install; the functions are exported).
int metadata_size();
const void *metadata_get();
}  // namespace i18n::phonenumbers
}  // namespace i18n

// The main NANP region's metadata, as PhoneNumberUtil holds it.
static const PhoneMetadata *metadata_for(const std::string &region) {
    static PhoneMetadataCollection *collection = [] {
        auto *parsed = new PhoneMetadataCollection();
        parsed->ParseFromArray(i18n::phonenumbers::metadata_get(), i18n::phonenumbers::metadata_size());
        return parsed;
    }();
    for (const PhoneMetadata &m : collection->metadata()) {
        if (m.id() == region) return &m;
    }
    return nullptr;
}

// Each thread's matchers, one for each compiled description (`CompiledDesc::slot`), and the
// number they read. ICU's RegexMatcher is made for one pattern and reset to each new input;
// libphonenumber's ICU adapter made a matcher, and a copy of the input, for every match, and
// freed them after: on the 100k-row benchmark list those took more instructions than the
// matching itself.
struct ThreadMatching {
    icu::UnicodeString input;
    std::vector<std::unique_ptr<icu::RegexMatcher>> matchers;
};

static ThreadMatching &thread_matching() {
    thread_local ThreadMatching matching;
    return matching;
}

// One number description (general, fixed line, mobile, ...) ready to match: its possible lengths
// and its pattern, compiled once (as libphonenumber's ICU adapter compiles it: the pattern's
// UTF-8 text, no flags). PhoneNumberUtil::IsNumberMatchingDesc does the same through a cache
// keyed by the pattern's text, hashing the whole pattern (some 2 KB for US landlines) on every
// call, and after a failed full match runs the pattern again to tell a prefix match, which
// validation never asks for; on the 100k-row benchmark list those were some 3% of the
// import's time.
struct CompiledDesc {
    std::vector<int> lengths;
    std::unique_ptr<icu::RegexPattern> pattern;  // null: an empty pattern, which matches nothing
    size_t slot;

    CompiledDesc(const PhoneNumberDesc &desc, size_t slot)
        : lengths(desc.possible_length().begin(), desc.possible_length().end()), pattern(compile(desc.national_number_pattern())), slot(slot) {}

    static icu::RegexPattern *compile(const std::string &text) {
        if (text.empty()) return nullptr;
        UParseError where;
        UErrorCode status = U_ZERO_ERROR;
        icu::RegexPattern *compiled = icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(text), 0, where, status);
        if (U_FAILURE(status)) {
            delete compiled;
            return nullptr;
        }
        return compiled;
    }

    // Whether the whole of the thread's input (`ThreadMatching::input`, `length` characters)
    // is a number of this description.
    bool matches(ThreadMatching &matching, int length) const {
        if (!lengths.empty() && std::find(lengths.begin(), lengths.end(), length) == lengths.end()) return false;
        if (!pattern) return false;
        UErrorCode status = U_ZERO_ERROR;
        if (matching.matchers.size() <= slot) matching.matchers.resize(slot + 1);
        std::unique_ptr<icu::RegexMatcher> &matcher = matching.matchers[slot];
        if (!matcher) {
            matcher.reset(pattern->matcher(status));
            if (U_FAILURE(status)) {
                matcher.reset();
                return false;
            }
        }
        matcher->reset(matching.input);
        bool matched = matcher->matches(status);
        return U_SUCCESS(status) && matched;
    }
};

// IsValidNumberForRegion(number, region) for a number whose country code is the region's:
// GetNumberTypeHelper(nsn) != UNKNOWN, that is, the general pattern and then any type's
// pattern. libphonenumber tries the types rarest first (premium rate, toll free, ..., fixed
// line last), five regular expressions for a US landline; the answer does not depend on the
// order, and trying fixed line and mobile first settles most numbers with two.
// cleadphone_check_valid_order compares the two over random numbers (a test calls it).
struct CompiledRegion {
    CompiledDesc general;
    std::vector<CompiledDesc> types;

    explicit CompiledRegion(const PhoneMetadata &m) : general(m.general_desc(), 0) {
        const PhoneNumberDesc *order[] = {&m.fixed_line(), &m.mobile(), &m.toll_free(), &m.premium_rate(), &m.shared_cost(),
                                          &m.voip(), &m.personal_number(), &m.pager(), &m.uan(), &m.voicemail()};
        for (const PhoneNumberDesc *desc : order) types.emplace_back(*desc, types.size() + 1);
    }

    bool valid(const std::string &nsn) const {
        ThreadMatching &matching = thread_matching();
        matching.input = icu::UnicodeString::fromUTF8(nsn);
        int length = matching.input.length();
        if (!general.matches(matching, length)) return false;
        for (const CompiledDesc &desc : types) {
            if (desc.matches(matching, length)) return true;
        }
        return false;
    }
};

// The main NANP region's descriptions, compiled on first use (thread-safe: a function-local
// static); null when the metadata lacks the region.
static const CompiledRegion *main_region_compiled(const std::string &region) {
    static const CompiledRegion *compiled = [&]() -> const CompiledRegion * {
        const PhoneMetadata *m = metadata_for(region);
        return m ? new CompiledRegion(*m) : nullptr;
    }();
    return compiled;
}

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

// `e164`: the number as Format(E164) writes it, when the caller already has it (a NANP number:
// "+1" and its ten digits); empty asks Format.
static void finish(const PhoneNumberUtil *util, PhoneNumber &parsed, int want_type, cleadphone_result *out, std::string e164 = "") {
    std::string extension = parsed.has_extension() ? parsed.extension() : std::string();
    copy_out(out->extension, sizeof out->extension, extension);
    parsed.clear_extension();
    if (e164.empty()) util->Format(parsed, PhoneNumberUtil::E164, &e164);
    copy_out(out->e164, sizeof out->e164, e164);
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
            // The national significant number as GetNationalSignificantNumber writes it.
            const CompiledRegion *compiled = main_region_compiled(main_region);
            std::string nsn = std::to_string(parsed.national_number());
            if (compiled ? compiled->valid(nsn) : util->IsValidNumberForRegion(parsed, default_region)) {
                out->is_valid = 1;
                out->is_possible = 1;
                copy_out(out->region, sizeof out->region, default_region);
                finish(util, parsed, want_type, out, "+1" + nsn);
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

extern "C" int cleadphone_check_valid_order(int count, unsigned long long seed) {
    static const PhoneNumberUtil *const util = PhoneNumberUtil::GetInstance();
    std::string region;
    util->GetRegionCodeForCountryCode(1, &region);
    const CompiledRegion *compiled = main_region_compiled(region);
    if (!compiled) return -1;
    int mismatches = 0;
    unsigned long long state = seed;
    for (int k = 0; k < count; ++k) {
        // SplitMix64 over the ten-digit range, and every tenth one from the special prefixes.
        state += 0x9E3779B97F4A7C15ULL;
        unsigned long long z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        unsigned long long national = 1000000000ULL + z % 9000000000ULL;
        static const unsigned long long prefixes[] = {800, 833, 844, 855, 866, 877, 888, 900, 500, 521, 522, 533, 544, 566, 577, 588, 700, 710, 305, 505};
        if (k % 10 == 0) national = prefixes[(z >> 40) % 20] * 10000000ULL + z % 10000000ULL;
        PhoneNumber number;
        number.set_country_code(1);
        number.set_national_number(national);
        bool reference = util->IsValidNumberForRegion(number, region);
        if (reference != compiled->valid(std::to_string(national))) ++mismatches;
    }
    return mismatches;
}
