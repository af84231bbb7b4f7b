// libpq, PostgreSQL's client library (design.md §6).
#include <libpq-fe.h>
