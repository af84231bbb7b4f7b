#include "cleadxml2.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

// One pointer per libxml2 function LeadPort calls, with libxml2's own prototypes.
static struct {
    __typeof__(xmlCreatePushParserCtxt) *create_push;
    __typeof__(xmlCtxtUseOptions) *use_options;
    __typeof__(xmlParseChunk) *parse_chunk;
    __typeof__(xmlStopParser) *stop;
    __typeof__(xmlFreeParserCtxt) *free_ctxt;
    __typeof__(xmlSAX2GetLineNumber) *line_number;
    __typeof__(xmlCtxtGetLastError) *last_error;
    __typeof__(xmlSetGenericErrorFunc) *set_generic_error;
} x;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;
static FILE *dev_null;

static void load(void) {
    const char *names[] = {"libxml2.so.2", "libxml2.so"};
    void *lib = NULL;
    for (size_t k = 0; k < sizeof names / sizeof names[0] && !lib; k++) lib = dlopen(names[k], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "libxml2 is not installed (Debian: apt install libxml2)");
        return;
    }
#define SYM(field, name) if (!(*(void **)&x.field = dlsym(lib, name))) { snprintf(load_error, sizeof load_error, "libxml2 lacks %s", name); return; }
    SYM(create_push, "xmlCreatePushParserCtxt")
    SYM(use_options, "xmlCtxtUseOptions")
    SYM(parse_chunk, "xmlParseChunk")
    SYM(stop, "xmlStopParser")
    SYM(free_ctxt, "xmlFreeParserCtxt")
    SYM(line_number, "xmlSAX2GetLineNumber")
    SYM(last_error, "xmlCtxtGetLastError")
    SYM(set_generic_error, "xmlSetGenericErrorFunc")
#undef SYM
    dev_null = fopen("/dev/null", "w");
    loaded = 1;
}

const char *lp_xml_load_error(void) {
    pthread_once(&once, load);
    return loaded ? NULL : load_error;
}

static void silent(void *ctx, const xmlError *error) { (void)ctx; (void)error; }

void *lp_xml_create(lp_xml_start_element start, lp_xml_end_element end, lp_xml_characters text,
                    lp_xml_internal_subset doctype, void *ctx) {
    if (lp_xml_load_error()) return NULL;
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = start;
    sax.endElementNs = end;
    sax.characters = text;
    sax.cdataBlock = text;
    sax.internalSubset = doctype;
    sax.serror = (xmlStructuredErrorFunc)silent;
    // Errors libxml2 reports without a parser (a part in an encoding it cannot convert) go to
    // its generic handler, which prints on stderr; libxml2 keeps that handler per thread.
    x.set_generic_error(dev_null, NULL);
    xmlParserCtxtPtr parser = x.create_push(&sax, ctx, NULL, 0, NULL);
    if (parser) x.use_options(parser, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    return parser;
}

int lp_xml_feed(void *parser, const char *bytes, int length, int terminate) {
    return x.parse_chunk(parser, bytes, length, terminate);
}

void lp_xml_stop(void *parser) {
    if (parser) x.stop(parser);
}

int lp_xml_well_formed(void *parser, int status, int *line, char *message, size_t message_size) {
    xmlParserCtxtPtr p = parser;
    if (status == 0 && p->wellFormed) return 1;
    *line = x.line_number(p);
    snprintf(message, message_size, "parse error");
    const xmlError *error = x.last_error(p);
    if (error) {
        *line = error->line;
        if (error->message) snprintf(message, message_size, "%s", error->message);
    }
    return 0;
}

void lp_xml_free(void *parser) {
    if (parser) x.free_ctxt(parser);
}
