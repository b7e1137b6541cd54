/* plans/ydepth.c — see ydepth.h. */
#include "config.h"

#include <stdbool.h>

#include "ydepth.h"

int ydepth_check(const char *text, size_t len, int max_depth, yaml_mark_t *at)
{
    yaml_parser_t y;
    if (!yaml_parser_initialize(&y))
        return 0; /* out of memory: the loader will say so */
    yaml_parser_set_input_string(&y, (const unsigned char *)text, len);
    int depth = 0, rc = 0;
    for (bool more = true; more;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&y, &ev))
            break;
        switch (ev.type) {
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth > max_depth) {
                *at = ev.start_mark;
                rc = -1;
                more = false;
            }
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        case YAML_STREAM_END_EVENT:
            more = false;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&y);
    return rc;
}

void ydepth_locate(const char *text, size_t len, size_t offset, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; text && i < offset && i < len; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}
