// libpq, PostgreSQL's client library, loaded with dlopen on first use: linked, it brings two
// dozen libraries (Kerberos, LDAP, TLS) into every command's start-up. The functions keep
// libpq's names with an lp_ prefix; see libpq-fe.h for each.
#ifndef CLEADPQ_H
#define CLEADPQ_H

typedef struct lp_pg_conn lp_pg_conn;
typedef struct lp_pg_result lp_pg_result;

// libpq's ConnStatusType and ExecStatusType values that LeadPort looks at.
enum { LP_CONNECTION_OK = 0 };
enum { LP_PGRES_EMPTY_QUERY = 0, LP_PGRES_COMMAND_OK = 1, LP_PGRES_TUPLES_OK = 2, LP_PGRES_COPY_IN = 4 };

// 1 when libpq is loaded; 0 with the reason in lp_pq_load_error().
int lp_pq_load(void);
const char *lp_pq_load_error(void);

lp_pg_conn *lp_PQconnectdb(const char *conninfo);
int lp_PQstatus(const lp_pg_conn *conn);
char *lp_PQerrorMessage(const lp_pg_conn *conn);
void lp_PQfinish(lp_pg_conn *conn);
lp_pg_result *lp_PQexec(lp_pg_conn *conn, const char *query);
lp_pg_result *lp_PQexecParams(lp_pg_conn *conn, const char *command, int nParams, const char *const *paramValues);
int lp_PQresultStatus(const lp_pg_result *res);
int lp_PQntuples(const lp_pg_result *res);
int lp_PQnfields(const lp_pg_result *res);
int lp_PQgetisnull(const lp_pg_result *res, int row, int column);
char *lp_PQgetvalue(const lp_pg_result *res, int row, int column);
char *lp_PQresultErrorField(const lp_pg_result *res, int fieldcode);
void lp_PQclear(lp_pg_result *res);
int lp_PQputCopyData(lp_pg_conn *conn, const char *buffer, int nbytes);
int lp_PQputCopyEnd(lp_pg_conn *conn, const char *errormsg);
lp_pg_result *lp_PQgetResult(lp_pg_conn *conn);
#endif
