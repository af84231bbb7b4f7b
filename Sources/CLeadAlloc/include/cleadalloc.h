#ifndef CLEADALLOC_H
#define CLEADALLOC_H

/// jemalloc's settings for this binary, read by jemalloc before its first allocation (alloc.c).
extern const char *malloc_conf;

#endif
