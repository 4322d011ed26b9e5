// The ceiling every ratio is measured against: C calling expat directly, with
// minimal callbacks and small hand-written state machines for the extract tasks.
// Like most C programs it keeps the character-data callback installed throughout.
#include "cexpat_tasks.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CHUNK = 64 * 1024, MAX_DEPTH = 1024 };

// Element kinds the extract tasks care about; everything else is OTHER.
enum Kind { OTHER, ANIMAL, NESTED, KIND, NAME, URL, NODE, TAG, PAGE, REVISION, TEXT };

typedef struct {
    size_t length, capacity;
    char *bytes;
} Buffer;

static void buffer_append(Buffer *buffer, const char *bytes, size_t length) {
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 256;
        while (capacity < buffer->length + length) capacity *= 2;
        buffer->bytes = realloc(buffer->bytes, capacity);
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
}

typedef struct {
    long elements, text_bytes;
    int depth;
    unsigned char kinds[MAX_DEPTH];
    // zoo
    long records, field_bytes;
    Buffer kind, name, url, *capture;
    // osm
    long nodes, highway_tags;
    double lat_sum;
    // wiki
    long pages, wiki_text_bytes;
    Buffer text;
} State;

static void XMLCALL count_start(void *data, const XML_Char *name, const XML_Char **attributes) {
    (void)name;
    (void)attributes;
    ((State *)data)->elements++;
}

static void XMLCALL count_end(void *data, const XML_Char *name) {
    (void)data;
    (void)name;
}

static void XMLCALL count_text(void *data, const XML_Char *text, int length) {
    (void)text;
    ((State *)data)->text_bytes += length;
}

static unsigned char kind_of(const char *name) {
    switch (name[0]) {
    case 'a': return strcmp(name, "animal") == 0 ? ANIMAL : OTHER;
    case 'k': return strcmp(name, "kind") == 0 ? KIND : OTHER;
    case 'n':
        if (strcmp(name, "name") == 0) return NAME;
        if (strcmp(name, "nested_nonsense") == 0) return NESTED;
        return strcmp(name, "node") == 0 ? NODE : OTHER;
    case 'u': return strcmp(name, "url") == 0 ? URL : OTHER;
    case 't':
        if (strcmp(name, "tag") == 0) return TAG;
        return strcmp(name, "text") == 0 ? TEXT : OTHER;
    case 'p': return strcmp(name, "page") == 0 ? PAGE : OTHER;
    case 'r': return strcmp(name, "revision") == 0 ? REVISION : OTHER;
    default: return OTHER;
    }
}

static unsigned char parent(State *state) {
    return state->depth > 0 ? state->kinds[state->depth - 1] : OTHER;
}

static void XMLCALL extract_start(void *data, const XML_Char *name, const XML_Char **attributes) {
    State *state = data;
    unsigned char kind = kind_of(name);
    switch (kind) {
    case ANIMAL: state->kind.length = state->name.length = state->url.length = 0; break;
    case KIND: if (parent(state) == ANIMAL) state->capture = &state->kind; break;
    case URL: if (parent(state) == ANIMAL) state->capture = &state->url; break;
    case NAME: if (parent(state) == NESTED) state->capture = &state->name; break;
    case NODE:
        state->nodes++;
        for (const XML_Char **attribute = attributes; *attribute; attribute += 2) {
            if (strcmp(attribute[0], "lat") == 0) state->lat_sum += strtod(attribute[1], NULL);
        }
        break;
    case TAG:
        for (const XML_Char **attribute = attributes; *attribute; attribute += 2) {
            if (strcmp(attribute[0], "k") == 0 && strcmp(attribute[1], "highway") == 0) state->highway_tags++;
        }
        break;
    case PAGE: state->pages++; break;
    case TEXT: if (parent(state) == REVISION) { state->text.length = 0; state->capture = &state->text; } break;
    default: break;
    }
    if (state->depth < MAX_DEPTH) state->kinds[state->depth] = kind;
    state->depth++;
}

static void XMLCALL extract_end(void *data, const XML_Char *name) {
    (void)name;
    State *state = data;
    state->depth--;
    unsigned char kind = state->depth < MAX_DEPTH ? state->kinds[state->depth] : OTHER;
    if (kind == ANIMAL) {
        state->records++;
        state->field_bytes += (long)(state->kind.length + state->name.length + state->url.length);
    } else if (kind == TEXT && state->capture == &state->text) {
        state->wiki_text_bytes += (long)state->text.length;
    }
    if (kind == KIND || kind == NAME || kind == URL || kind == TEXT) state->capture = NULL;
}

static void XMLCALL extract_text(void *data, const XML_Char *text, int length) {
    State *state = data;
    if (state->capture) buffer_append(state->capture, text, (size_t)length);
}

int cexpat_run(const char *task, const char *shape, int fd, char *result, size_t result_size) {
    int counting = strcmp(task, "count") == 0;
    State *state = calloc(1, sizeof(State));
    XML_Parser parser = XML_ParserCreate(NULL);
    XML_SetUserData(parser, state);
    if (counting) {
        XML_SetElementHandler(parser, count_start, count_end);
        XML_SetCharacterDataHandler(parser, count_text);
    } else {
        XML_SetElementHandler(parser, extract_start, extract_end);
        XML_SetCharacterDataHandler(parser, extract_text);
    }
    int status = 0;
    for (;;) {
        void *buffer = XML_GetBuffer(parser, CHUNK);
        ssize_t length = read(fd, buffer, CHUNK);
        if (length < 0) {
            snprintf(result, result_size, "read failed");
            status = -1;
            break;
        }
        if (XML_ParseBuffer(parser, (int)length, length == 0) != XML_STATUS_OK) {
            snprintf(result, result_size, "%lu:%lu: %s", (unsigned long)XML_GetCurrentLineNumber(parser),
                     (unsigned long)XML_GetCurrentColumnNumber(parser) + 1, XML_ErrorString(XML_GetErrorCode(parser)));
            status = -1;
            break;
        }
        if (length == 0) break;
    }
    if (status == 0) {
        if (counting) {
            snprintf(result, result_size, "count %s elements=%ld text_bytes=%ld", shape, state->elements, state->text_bytes);
        } else if (strcmp(shape, "zoo") == 0) {
            snprintf(result, result_size, "extract zoo records=%ld field_bytes=%ld", state->records, state->field_bytes);
        } else if (strcmp(shape, "osm") == 0) {
            snprintf(result, result_size, "extract osm nodes=%ld lat_sum=%.6f highway_tags=%ld", state->nodes,
                     state->lat_sum, state->highway_tags);
        } else {
            snprintf(result, result_size, "extract wiki pages=%ld text_bytes=%ld", state->pages, state->wiki_text_bytes);
        }
    }
    XML_ParserFree(parser);
    free(state->kind.bytes);
    free(state->name.bytes);
    free(state->url.bytes);
    free(state->text.bytes);
    free(state);
    return status;
}
