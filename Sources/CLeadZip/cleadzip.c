#include "cleadzip.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// One pointer per libzip function LeadPort calls, declared with libzip's own prototypes so the
// compiler checks every forwarding call below.
static struct {
    __typeof__(zip_open) *open;
    __typeof__(zip_close) *close;
    __typeof__(zip_discard) *discard;
    __typeof__(zip_strerror) *strerror;
    __typeof__(zip_error_init_with_code) *error_init_with_code;
    __typeof__(zip_error_strerror) *error_strerror;
    __typeof__(zip_error_fini) *error_fini;
    __typeof__(zip_get_num_entries) *get_num_entries;
    __typeof__(zip_get_name) *get_name;
    __typeof__(zip_stat_init) *stat_init;
    __typeof__(zip_stat_index) *stat_index;
    __typeof__(zip_fopen_index) *fopen_index;
    __typeof__(zip_fread) *fread;
    __typeof__(zip_fclose) *fclose;
    __typeof__(zip_file_strerror) *file_strerror;
    __typeof__(zip_source_buffer) *source_buffer;
    __typeof__(zip_source_file) *source_file;
    __typeof__(zip_source_free) *source_free;
    __typeof__(zip_file_add) *file_add;
    __typeof__(zip_set_file_compression) *set_file_compression;
} z;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static void load(void) {
    // libzip's soname has been 4 since libzip 1.0; the unversioned name is the -dev symlink.
    const char *names[] = {"libzip.so.4", "libzip.so"};
    void *lib = NULL;
    for (size_t k = 0; k < sizeof names / sizeof names[0] && !lib; k++) lib = dlopen(names[k], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "libzip is not installed (Debian: apt install libzip4)");
        return;
    }
#define SYM(field, name) if (!(*(void **)&z.field = dlsym(lib, name))) { snprintf(load_error, sizeof load_error, "libzip lacks %s", name); return; }
    SYM(open, "zip_open")
    SYM(close, "zip_close")
    SYM(discard, "zip_discard")
    SYM(strerror, "zip_strerror")
    SYM(error_init_with_code, "zip_error_init_with_code")
    SYM(error_strerror, "zip_error_strerror")
    SYM(error_fini, "zip_error_fini")
    SYM(get_num_entries, "zip_get_num_entries")
    SYM(get_name, "zip_get_name")
    SYM(stat_init, "zip_stat_init")
    SYM(stat_index, "zip_stat_index")
    SYM(fopen_index, "zip_fopen_index")
    SYM(fread, "zip_fread")
    SYM(fclose, "zip_fclose")
    SYM(file_strerror, "zip_file_strerror")
    SYM(source_buffer, "zip_source_buffer")
    SYM(source_file, "zip_source_file")
    SYM(source_free, "zip_source_free")
    SYM(file_add, "zip_file_add")
    SYM(set_file_compression, "zip_set_file_compression")
#undef SYM
    loaded = 1;
}

const char *lp_zip_load_error(void) {
    pthread_once(&once, load);
    return loaded ? NULL : load_error;
}

zip_t *lp_zip_open(const char *path, int flags, char *message, size_t message_size) {
    const char *why = lp_zip_load_error();
    if (why) {
        snprintf(message, message_size, "%s", why);
        return NULL;
    }
    int code = 0;
    zip_t *archive = z.open(path, flags, &code);
    if (!archive) {
        zip_error_t error;
        z.error_init_with_code(&error, code);
        snprintf(message, message_size, "%s", z.error_strerror(&error));
        z.error_fini(&error);
    }
    return archive;
}

int lp_zip_close(zip_t *archive) { return z.close(archive); }
void lp_zip_discard(zip_t *archive) { z.discard(archive); }
const char *lp_zip_strerror(zip_t *archive) { return z.strerror(archive); }
zip_int64_t lp_zip_get_num_entries(zip_t *archive, zip_flags_t flags) { return z.get_num_entries(archive, flags); }
const char *lp_zip_get_name(zip_t *archive, zip_uint64_t index, zip_flags_t flags) { return z.get_name(archive, index, flags); }
void lp_zip_stat_init(zip_stat_t *stat) { z.stat_init(stat); }
int lp_zip_stat_index(zip_t *archive, zip_uint64_t index, zip_flags_t flags, zip_stat_t *stat) { return z.stat_index(archive, index, flags, stat); }
zip_file_t *lp_zip_fopen_index(zip_t *archive, zip_uint64_t index, zip_flags_t flags) { return z.fopen_index(archive, index, flags); }
zip_int64_t lp_zip_fread(zip_file_t *file, void *buffer, zip_uint64_t count) { return z.fread(file, buffer, count); }
int lp_zip_fclose(zip_file_t *file) { return z.fclose(file); }
const char *lp_zip_file_strerror(zip_file_t *file) { return z.file_strerror(file); }
zip_source_t *lp_zip_source_buffer(zip_t *archive, const void *data, zip_uint64_t length, int free_when_done) {
    return z.source_buffer(archive, data, length, free_when_done);
}
zip_source_t *lp_zip_source_file(zip_t *archive, const char *path, zip_uint64_t start, zip_int64_t length) {
    return z.source_file(archive, path, start, length);
}
void lp_zip_source_free(zip_source_t *source) { z.source_free(source); }
zip_int64_t lp_zip_file_add(zip_t *archive, const char *name, zip_source_t *source, zip_flags_t flags) {
    return z.file_add(archive, name, source, flags);
}
int lp_zip_set_file_compression(zip_t *archive, zip_uint64_t index, zip_int32_t method, zip_uint32_t level) {
    return z.set_file_compression(archive, index, method, level);
}
