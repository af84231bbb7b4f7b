// libxml2's SAX2 push parser, loaded with dlopen the first time a workbook part is parsed: the
// binary does not link libxml2, so commands that never read a workbook start without it and
// the ICU libraries it brings. libxml2's headers are read by cleadxml2.c alone; the callbacks
// below have libxml2's own SAX2 signatures (xmlChar is unsigned char), so the parser calls
// them directly.
#ifndef CLEADXML2_H
#define CLEADXML2_H
#include <stddef.h>

typedef void (*lp_xml_start_element)(void *ctx, const unsigned char *localname, const unsigned char *prefix,
                                     const unsigned char *uri, int nb_namespaces, const unsigned char **namespaces,
                                     int nb_attributes, int nb_defaulted, const unsigned char **attributes);
typedef void (*lp_xml_end_element)(void *ctx, const unsigned char *localname, const unsigned char *prefix,
                                   const unsigned char *uri);
typedef void (*lp_xml_characters)(void *ctx, const unsigned char *bytes, int length);
typedef void (*lp_xml_internal_subset)(void *ctx, const unsigned char *name, const unsigned char *external_id,
                                       const unsigned char *system_id);

// Why libxml2 could not be loaded, or NULL once it is.
const char *lp_xml_load_error(void);

// A push parser whose events go to these callbacks with `ctx`; `text` receives character data
// and CDATA alike. The network is off and libxml2 prints nothing. NULL when libxml2 is missing
// (lp_xml_load_error says why) or out of memory.
void *lp_xml_create(lp_xml_start_element start, lp_xml_end_element end, lp_xml_characters text,
                    lp_xml_internal_subset doctype, void *ctx);
// Parses the next chunk (terminate = 1 with the last); libxml2's status, 0 when all is well.
int lp_xml_feed(void *parser, const char *bytes, int length, int terminate);
// Stops the parse from inside a callback.
void lp_xml_stop(void *parser);
// Whether the document is still well-formed after a feed of `status`; if not, the line and
// libxml2's message (trailing newline included) of the last error.
int lp_xml_well_formed(void *parser, int status, int *line, char *message, size_t message_size);
void lp_xml_free(void *parser);

#endif
