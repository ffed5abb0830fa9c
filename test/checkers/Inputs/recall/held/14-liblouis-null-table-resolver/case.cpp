// Reduced from liblouis/liblouis at fe217985~1: liblouis/compileTranslationTable.c,
// liblouis/logging.c, liblouis/metadata.c
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define EXPORT_CALL
#define MAXSTRING 2048

typedef enum { LOU_LOG_ALL = 0, LOU_LOG_DEBUG = 10000, LOU_LOG_INFO = 20000, LOU_LOG_WARN = 30000,
               LOU_LOG_ERROR = 40000, LOU_LOG_FATAL = 50000, LOU_LOG_OFF = 60000 } logLevels;
typedef void (EXPORT_CALL *logcallback)(logLevels level, const char *message);

/* ---- logging.c ---- */
static void EXPORT_CALL
defaultLogCallback(logLevels level, const char *message) {
    (void)level;
    fprintf(stderr, "%s\n", message);
}

static logcallback logCallbackFunction = defaultLogCallback;
void EXPORT_CALL
lou_registerLogCallback(logcallback callback) {
    if (callback == NULL)
        logCallbackFunction = defaultLogCallback;
    else
        logCallbackFunction = callback;
}

static logLevels logLevel = LOU_LOG_INFO;

void EXPORT_CALL
_lou_logMessage(logLevels level, const char *format, ...) {
    if (format == NULL) return;
    if (level < logLevel) return;
    if (logCallbackFunction != NULL) {
        char *s;
        size_t len;
        va_list argp;
        va_start(argp, format);
        len = vsnprintf(0, 0, format, argp);
        va_end(argp);
        if ((s = (char *)malloc(len + 1)) != 0) {
            va_start(argp, format);
            vsnprintf(s, len + 1, format, argp);
            va_end(argp);
            logCallbackFunction(level, s); // RECALL: safe
            free(s);
        }
    }
}

/* ---- compileTranslationTable.c ---- */
void EXPORT_CALL lou_freeTableFiles(char **tables);
char **EXPORT_CALL _lou_defaultTableResolver(const char *tableList, const char *base);

static char **(EXPORT_CALL *tableResolver)(
        const char *tableList, const char *base) = &_lou_defaultTableResolver;

static char **
copyStringArray(char **array) {
    int len;
    char **copy;
    if (!array) return NULL;
    len = 0;
    while (array[len]) len++;
    copy = (char **)malloc((len + 1) * sizeof(char *));
    copy[len] = NULL;
    while (len) {
        len--;
        copy[len] = strdup(array[len]);
    }
    return copy;
}

char **EXPORT_CALL
_lou_resolveTable(const char *tableList, const char *base) {
    char **tableFiles = (*tableResolver)(tableList, base); // RECALL: bug
    char **result = copyStringArray(tableFiles);
    if (tableResolver == &_lou_defaultTableResolver) lou_freeTableFiles(tableFiles);
    return result;
}

/**
 * Register a new table resolver. Overrides the default resolver.
 *
 * @param resolver The new resolver as a function pointer.
 */
void EXPORT_CALL
lou_registerTableResolver(
        char **(EXPORT_CALL *resolver)(const char *tableList, const char *base)) {
    tableResolver = resolver;
}

/* ---- metadata.c ---- */
struct List;

static List *
analyzeTable(const char *table, int activeOnly) {
    static char fileName[MAXSTRING];
    (void)activeOnly;
    {
        char **resolved = _lou_resolveTable(table, NULL);
        if (resolved == NULL) {
            _lou_logMessage(LOU_LOG_ERROR, "Cannot resolve table '%s'", table);
            return NULL;
        }
        snprintf(fileName, sizeof(fileName), "%s", *resolved);
        lou_freeTableFiles(resolved);
    }
    return NULL;
}

void EXPORT_CALL
lou_indexTables(const char **tables) {
    const char **table;
    for (table = tables; *table; table++) {
        _lou_logMessage(LOU_LOG_DEBUG, "Analyzing table %s", *table);
        List *features = analyzeTable(*table, 1);
        (void)features;
    }
}

/* An embedding application that resets the resolver (as in the report's harness). */
void app_reset_resolver_and_search(void) {
    lou_registerTableResolver(NULL);
    lou_registerLogCallback(NULL);
    const char *tables[] = { "en-us-g2.ctb", NULL };
    lou_indexTables(tables);
}
