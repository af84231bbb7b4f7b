#include "cleadqr.h"
#include <png.h>
#include <qrencode.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpng reports errors by longjmp, which Swift cannot take part in: everything that touches
   libpng stays in this file. */

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
