// libzip, loaded with dlopen the first time a command opens or writes a ZIP (a workbook, a print
// run's bundle): the binary does not link it, so commands that never touch one start without
// libzip and the libcrypto it brings. The header supplies libzip's types and constants only;
// every call goes through these lp_zip_ functions, which forward to the library once loaded.
#ifndef CLEADZIP_H
#define CLEADZIP_H
#include <stddef.h>
#include <zip.h>

// Why libzip could not be loaded, or NULL once it is.
const char *lp_zip_load_error(void);

// zip_open, with its failure as text: libzip's message for the error code, or why libzip itself
// could not be loaded. Returns NULL on failure.
zip_t *lp_zip_open(const char *path, int flags, char *message, size_t message_size);

// The rest take an archive (or an entry of one) that lp_zip_open returned, so libzip is loaded.
int lp_zip_close(zip_t *archive);
void lp_zip_discard(zip_t *archive);
const char *lp_zip_strerror(zip_t *archive);
zip_int64_t lp_zip_get_num_entries(zip_t *archive, zip_flags_t flags);
const char *lp_zip_get_name(zip_t *archive, zip_uint64_t index, zip_flags_t flags);
void lp_zip_stat_init(zip_stat_t *stat);
int lp_zip_stat_index(zip_t *archive, zip_uint64_t index, zip_flags_t flags, zip_stat_t *stat);
zip_file_t *lp_zip_fopen_index(zip_t *archive, zip_uint64_t index, zip_flags_t flags);
zip_int64_t lp_zip_fread(zip_file_t *file, void *buffer, zip_uint64_t count);
int lp_zip_fclose(zip_file_t *file);
const char *lp_zip_file_strerror(zip_file_t *file);
zip_source_t *lp_zip_source_buffer(zip_t *archive, const void *data, zip_uint64_t length, int free_when_done);
zip_source_t *lp_zip_source_file(zip_t *archive, const char *path, zip_uint64_t start, zip_int64_t length);
void lp_zip_source_free(zip_source_t *source);
zip_int64_t lp_zip_file_add(zip_t *archive, const char *name, zip_source_t *source, zip_flags_t flags);
int lp_zip_set_file_compression(zip_t *archive, zip_uint64_t index, zip_int32_t method, zip_uint32_t level);

#endif
