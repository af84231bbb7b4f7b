#include "cleadqr.h"
#include <png.h>
#include <qrencode.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpng reports errors by longjmp, which Swift cannot take part in: everything that touches
   libpng stays in this file. */

/* libqrencode and libpng are opened with dlopen on the first QR code, so that commands other
   than a print run start without them. One pointer per function called, with the libraries'
   own prototypes; the names below then call through them (png_jmpbuf included). */
static struct {
    __typeof__(QRcode_encodeString8bit) *encode;
    __typeof__(QRcode_free) *code_free;
    __typeof__(png_create_write_struct) *create_write_struct;
    __typeof__(png_create_info_struct) *create_info_struct;
    __typeof__(png_destroy_write_struct) *destroy_write_struct;
    __typeof__(png_set_longjmp_fn) *set_longjmp_fn;
    __typeof__(png_get_io_ptr) *get_io_ptr;
    __typeof__(png_set_write_fn) *set_write_fn;
    __typeof__(png_set_IHDR) *set_IHDR;
    __typeof__(png_set_pHYs) *set_pHYs;
    __typeof__(png_set_compression_level) *set_compression_level;
    __typeof__(png_write_info) *write_info;
    __typeof__(png_write_row) *write_row;
    __typeof__(png_write_end) *write_end;
} lib;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static void *open_first(const char *const *names, size_t count) {
    void *handle = NULL;
    for (size_t k = 0; k < count && !handle; k++) handle = dlopen(names[k], RTLD_NOW | RTLD_LOCAL);
    return handle;
}

static void load(void) {
    static const char *const qr_names[] = {"libqrencode.so.4", "libqrencode.so"};
    static const char *const png_names[] = {"libpng16.so.16", "libpng16.so", "libpng.so"};
    void *qr = open_first(qr_names, 2), *png = open_first(png_names, 3);
    if (!qr || !png) {
        snprintf(load_error, sizeof load_error, "%s is not installed (Debian: apt install %s)",
                 qr ? "libpng" : "libqrencode", qr ? "libpng16-16" : "libqrencode4");
        return;
    }
#define SYM(handle, field, name) if (!(*(void **)&lib.field = dlsym(handle, name))) { snprintf(load_error, sizeof load_error, "%s lacks %s", handle == qr ? "libqrencode" : "libpng", name); return; }
    SYM(qr, encode, "QRcode_encodeString8bit")
    SYM(qr, code_free, "QRcode_free")
    SYM(png, create_write_struct, "png_create_write_struct")
    SYM(png, create_info_struct, "png_create_info_struct")
    SYM(png, destroy_write_struct, "png_destroy_write_struct")
    SYM(png, set_longjmp_fn, "png_set_longjmp_fn")
    SYM(png, get_io_ptr, "png_get_io_ptr")
    SYM(png, set_write_fn, "png_set_write_fn")
    SYM(png, set_IHDR, "png_set_IHDR")
    SYM(png, set_pHYs, "png_set_pHYs")
    SYM(png, set_compression_level, "png_set_compression_level")
    SYM(png, write_info, "png_write_info")
    SYM(png, write_row, "png_write_row")
    SYM(png, write_end, "png_write_end")
#undef SYM
    loaded = 1;
}

#define QRcode_encodeString8bit lib.encode
#define QRcode_free lib.code_free
#define png_create_write_struct lib.create_write_struct
#define png_create_info_struct lib.create_info_struct
#define png_destroy_write_struct lib.destroy_write_struct
#define png_set_longjmp_fn lib.set_longjmp_fn
#define png_get_io_ptr lib.get_io_ptr
#define png_set_write_fn lib.set_write_fn
#define png_set_IHDR lib.set_IHDR
#define png_set_pHYs lib.set_pHYs
#define png_set_compression_level lib.set_compression_level
#define png_write_info lib.write_info
#define png_write_row lib.write_row
#define png_write_end lib.write_end

struct buffer { unsigned char *bytes; size_t size, capacity; int failed; };

static void append(png_structp png, png_bytep data, png_size_t length) {
    struct buffer *b = png_get_io_ptr(png);
    if (b->failed) return;
    if (b->size + length > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->size + length) capacity *= 2;
        unsigned char *grown = realloc(b->bytes, capacity);
        if (!grown) { b->failed = 1; return; }
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->size, data, length);
    b->size += length;
}

static void flush(png_structp png) { (void)png; }

int lq_qr_png(const char *text, int level, int module_px, int margin, int dpi,
              unsigned char **out, size_t *size, int *modules, char *error, size_t error_size) {
    static const QRecLevel levels[] = { QR_ECLEVEL_L, QR_ECLEVEL_M, QR_ECLEVEL_Q, QR_ECLEVEL_H };
    if (level < 0 || level > 3 || module_px < 1 || margin < 0) {
        snprintf(error, error_size, "bad QR options");
        return -1;
    }
    pthread_once(&once, load);
    if (!loaded) {
        snprintf(error, error_size, "%s", load_error);
        return -1;
    }
    /* Version 0: the smallest symbol that holds the text; 8-bit mode (URLs are case-sensitive). */
    QRcode *code = QRcode_encodeString8bit(text, 0, levels[level]);
    if (!code) {
        snprintf(error, error_size, "cannot encode \"%.60s\" as a QR code: %s", text, strerror(errno));
        return -1;
    }
    int width = code->width;
    int pixels = (width + 2 * margin) * module_px;
    size_t row_bytes = ((size_t)pixels + 7) / 8;
    unsigned char *row = malloc(row_bytes);
    struct buffer b = { 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!row || !png || !info) {
        snprintf(error, error_size, "out of memory for a QR code");
        png_destroy_write_struct(&png, &info);
        free(row);
        QRcode_free(code);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        snprintf(error, error_size, "libpng failed to write a QR code");
        png_destroy_write_struct(&png, &info);
        free(row);
        free(b.bytes);
        QRcode_free(code);
        return -1;
    }
    png_set_write_fn(png, &b, append, flush);
    png_set_IHDR(png, info, (png_uint_32)pixels, (png_uint_32)pixels, 1, PNG_COLOR_TYPE_GRAY,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (dpi > 0) {
        png_uint_32 per_metre = (png_uint_32)(dpi / 0.0254 + 0.5);
        png_set_pHYs(png, info, per_metre, per_metre, PNG_RESOLUTION_METER);
    }
    png_set_compression_level(png, 9);
    png_write_info(png, info);
    for (int y = 0; y < pixels; y++) {
        /* 1 bit a pixel, 1 = white: start white (the quiet zone), then set each dark module. */
        memset(row, 0xff, row_bytes);
        int my = y / module_px - margin;
        if (my >= 0 && my < width) {
            for (int x = 0; x < pixels; x++) {
                int mx = x / module_px - margin;
                if (mx >= 0 && mx < width && (code->data[my * width + mx] & 1))
                    row[x / 8] &= (unsigned char)~(0x80 >> (x % 8));
            }
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    QRcode_free(code);
    if (b.failed) {
        free(b.bytes);
        snprintf(error, error_size, "out of memory for a QR code");
        return -1;
    }
    *out = b.bytes;
    *size = b.size;
    *modules = width;
    return 0;
}

void lq_free(void *pointer) { free(pointer); }

const char *lq_load_error(void) {
    pthread_once(&once, load);
    return loaded ? NULL : load_error;
}
