#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU; Foundation carries its own ICU headers and a clean build
// fails on the clash. We only hold pointers to the ICU-bearing struct, so hide its fields.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
