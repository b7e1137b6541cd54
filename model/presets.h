/* model/presets.h — published model shapes by name (`preset: llama-3-70b`). */
#ifndef GPUPLAN_MODEL_PRESETS_H
#define GPUPLAN_MODEL_PRESETS_H

#include <stddef.h>

#include "plan.h"

typedef struct {
    const char *name;        /* "llama-3-70b" */
    const char *source;      /* config.json / paper the shape comes from */
    ModelShape shape;
} ModelPreset;

/* Case-insensitive lookup; NULL when unknown. */
const ModelPreset *preset_find(const char *name);
/* All presets, for listing and "did you mean". */
const ModelPreset *preset_all(size_t *n);

#endif
