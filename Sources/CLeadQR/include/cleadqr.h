#ifndef CLEADQR_H
#define CLEADQR_H

#include <stddef.h>

/// A QR code as a 1-bit greyscale PNG in memory, made with libqrencode and libpng.
/// `level`: 0 = L, 1 = M, 2 = Q, 3 = H. `module_px`: pixels per module. `margin`: quiet zone in
/// modules on every side. `dpi`: written in the PNG's pHYs chunk so that layout programs place
/// the image at its intended size.
/// On success returns 0 and sets `*png` (free with `lq_free`), `*size` and `*modules` (the
/// symbol's width in modules, without the margin); on failure returns -1 and writes a message
/// into `error`.
int lq_qr_png(const char *text, int level, int module_px, int margin, int dpi,
              unsigned char **png, size_t *size, int *modules, char *error, size_t error_size);

void lq_free(void *pointer);

/// Why libqrencode or libpng (opened on first use) cannot be loaded, or NULL when both are.
const char *lq_load_error(void);

#endif
