#include "cleadpq.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static struct {
    lp_pg_conn *(*connectdb)(const char *);
    int (*status)(const lp_pg_conn *);
    char *(*error_message)(const lp_pg_conn *);
    void (*finish)(lp_pg_conn *);
    lp_pg_result *(*exec)(lp_pg_conn *, const char *);
    lp_pg_result *(*exec_params)(lp_pg_conn *, const char *, int, const unsigned *, const char *const *, const int *, const int *, int);
    int (*result_status)(const lp_pg_result *);
    int (*ntuples)(const lp_pg_result *);
    int (*nfields)(const lp_pg_result *);
    int (*getisnull)(const lp_pg_result *, int, int);
    char *(*getvalue)(const lp_pg_result *, int, int);
    char *(*result_error_field)(const lp_pg_result *, int);
    void (*clear)(lp_pg_result *);
    int (*put_copy_data)(lp_pg_conn *, const char *, int);
    int (*put_copy_end)(lp_pg_conn *, const char *);
    lp_pg_result *(*get_result)(lp_pg_conn *);
} pq;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static void load(void) {
    void *lib = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "libpq is not installed (Debian: apt install libpq5): %s", dlerror());
        return;
    }
#define SYM(field, name) if (!(*(void **)&pq.field = dlsym(lib, name))) { snprintf(load_error, sizeof load_error, "libpq lacks %s", name); return; }
    SYM(connectdb, "PQconnectdb")
    SYM(status, "PQstatus")
    SYM(error_message, "PQerrorMessage")
    SYM(finish, "PQfinish")
    SYM(exec, "PQexec")
    SYM(exec_params, "PQexecParams")
    SYM(result_status, "PQresultStatus")
    SYM(ntuples, "PQntuples")
    SYM(nfields, "PQnfields")
    SYM(getisnull, "PQgetisnull")
    SYM(getvalue, "PQgetvalue")
    SYM(result_error_field, "PQresultErrorField")
    SYM(clear, "PQclear")
    SYM(put_copy_data, "PQputCopyData")
    SYM(put_copy_end, "PQputCopyEnd")
    SYM(get_result, "PQgetResult")
#undef SYM
    loaded = 1;
}

int lp_pq_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *lp_pq_load_error(void) { return load_error; }

// Callers load first (lp_pq_load); PostgresConnection does, before its first connection.
lp_pg_conn *lp_PQconnectdb(const char *conninfo) { return pq.connectdb(conninfo); }
int lp_PQstatus(const lp_pg_conn *conn) { return pq.status(conn); }
char *lp_PQerrorMessage(const lp_pg_conn *conn) { return pq.error_message(conn); }
void lp_PQfinish(lp_pg_conn *conn) { if (loaded && conn) pq.finish(conn); }
lp_pg_result *lp_PQexec(lp_pg_conn *conn, const char *query) { return pq.exec(conn, query); }
lp_pg_result *lp_PQexecParams(lp_pg_conn *conn, const char *command, int n, const char *const *values) {
    return pq.exec_params(conn, command, n, NULL, values, NULL, NULL, 0);  // text in, text out
}
int lp_PQresultStatus(const lp_pg_result *res) { return pq.result_status(res); }
int lp_PQntuples(const lp_pg_result *res) { return pq.ntuples(res); }
int lp_PQnfields(const lp_pg_result *res) { return pq.nfields(res); }
int lp_PQgetisnull(const lp_pg_result *res, int row, int column) { return pq.getisnull(res, row, column); }
char *lp_PQgetvalue(const lp_pg_result *res, int row, int column) { return pq.getvalue(res, row, column); }
char *lp_PQresultErrorField(const lp_pg_result *res, int fieldcode) { return res ? pq.result_error_field(res, fieldcode) : NULL; }
void lp_PQclear(lp_pg_result *res) { if (res) pq.clear(res); }
int lp_PQputCopyData(lp_pg_conn *conn, const char *buffer, int nbytes) { return pq.put_copy_data(conn, buffer, nbytes); }
int lp_PQputCopyEnd(lp_pg_conn *conn, const char *errormsg) { return pq.put_copy_end(conn, errormsg); }
lp_pg_result *lp_PQgetResult(lp_pg_conn *conn) { return pq.get_result(conn); }
