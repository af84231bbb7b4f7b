/* ICU's common data package, empty. libphonenumber needs of ICU only what ICU compiles into its
   code (character properties, case folding, the regular-expression engine), none of the 30 MB
   data package (collation, conversion tables, locales) libicudata carries; ICU looks the package
   up by this symbol, and with no entries it finds none of that, which no phone call asks for.
   LeadPort's phone suite, and the shim's check of every number type over random numbers, pass the
   same with it; the ICU that libxml2 loads on first use is the shared one, with its data. */
#include <unicode/udata.h>
#include <unicode/utypes.h>

/* The layout of a common-data package with a table of contents of pointers ("ToCP"): the mapped
   data header, its UDataInfo, padding to 32 bytes, then the count of entries. */
struct empty_common_data {
    uint16_t header_size;
    uint8_t magic1, magic2;
    UDataInfo info;
    char padding[8];
    uint32_t count, reserved;
};

const struct empty_common_data U_ICUDATA_ENTRY_POINT = {
    32, 0xda, 0x27,
    {sizeof(UDataInfo), 0, U_IS_BIG_ENDIAN, U_CHARSET_FAMILY, U_SIZEOF_UCHAR, 0, {0x54, 0x6f, 0x43, 0x50}, {1, 0, 0, 0}, {0, 0, 0, 0}},
    {0},
    0, 0,
};
