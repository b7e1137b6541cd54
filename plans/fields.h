/* plans/fields.h — every editable field of a plan (PLAN-FORMAT.md) as one
 * table: its key, where it lives in Plan, its type, unit and how it is
 * parsed (plans/quantity.h syntax) and shown.  The workloads form, the
 * `:set` command and pick lists are all driven by this table. */
#ifndef GPUPLAN_TUI_FIELDS_H
#define GPUPLAN_TUI_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "plan.h"
#include "quantity.h"

typedef enum {
    FS_PLAN = 0, FS_SITE, FS_NETWORK, FS_STORAGE, FS_TENANCY, FS_WORKLOAD, FS_TEAM, FS_JOB,
    FS_COUNT
} FieldScope;

typedef enum { FT_STR = 0, FT_INT, FT_REAL, FT_ENUM, FT_BOOL, FT_TRI, FT_U64, FT_HEADING } FieldType;

#define FF_AUTO0 0x1u       /* 0 (or <0 for enums) shows and parses as "auto" */
#define FF_UNLIMITED 0x2u   /* -1 shows and parses as "unlimited" */
#define FF_AUTONEG 0x4000u  /* -1 shows and parses as "auto" (where 0 is a value) */
#define FF_TRAIN 0x4u       /* workload field for training only */
#define FF_INFER 0x8u       /* workload field for inference only */
#define FF_ACCEL 0x10u      /* a catalog accelerator id */
#define FF_INSTANCE 0x20u   /* a catalog instance id */
#define FF_PRESET 0x40u     /* a model preset: fills the shape */
#define FF_SHAPE 0x80u      /* part of the model shape: editing drops the preset */
#define FF_PLANDEF 0x100u   /* "" shows as "(plan)": inherits the plan's value */
#define FF_NAME 0x200u      /* a name: non-empty */
#define FF_QUOTE 0x400u     /* a site.prices quote: an edit fills an empty source ("entered
                             * in the dashboard") and date (today, UTC) */
#define FF_FRAMEWORK 0x1000u /* a catalog training framework id; "" = the default */
#define FF_ENGINE 0x2000u    /* a catalog serving engine id; "" = the default */
#define FF_NODEQ 0x800u     /* off is within the NodeQuote of the plan's accelerator
                             * (site.prices.nodes; an edit adds it, "none" removes it) */

typedef enum {
    EN_NONE = 0, EN_KIND, EN_PRECISION, EN_RECOMPUTE, EN_SITE, EN_PRICING, EN_COOLING,
    EN_FABRIC, EN_TOPOLOGY, EN_STORAGE, EN_POLICY, EN_DURATION, EN_PRIORITY
} FieldEnum;

typedef struct {
    const char *key;        /* as in the plan file, dotted within its section */
    const char *label;      /* shown in the form */
    FieldScope scope;
    FieldType type;
    unsigned flags;
    size_t off, size;       /* within the scope's struct */
    QuantityKind qk;        /* FT_REAL/FT_INT: how typed text is parsed */
    double bare;            /* durations: seconds in one bare unit (the display unit) */
    double sdiv;            /* stored value = SI value / sdiv (1 for SI fields) */
    const char *unit;       /* shown after the value */
    FieldEnum en;
    const char *help;
} FieldDef;

/* Which object a field is read from / written to. */
typedef struct {
    FieldScope scope;
    int wl, team, job;      /* indices for FS_WORKLOAD / FS_TEAM / FS_JOB */
} FieldTarget;

/* The fields shown for a target (in form order, headings included). */
int fields_for(const Plan *p, FieldTarget t, const FieldDef **out, int max);
/* Look up a field by key: "pue", "site.pue", "tenancy.gpus", "model.layers".
 * Plan-level keys first, then the target's own fields, then the sections.
 * Returns NULL when unknown; sets *resolved to the target it belongs to. */
const FieldDef *fields_find(const Plan *p, FieldTarget sel, const char *key, FieldTarget *resolved);
/* All keys usable in `:set` for the selection (for completion); returns count. */
int fields_keys(const Plan *p, FieldTarget sel, const char **out, int max);
/* A whole plan's keys by dotted path, as `gpuplan sweep --vary` takes them
 * (doc/plan-format.md "Sweeps"):
 *   KEY                               a plan-level key: accelerator, horizon_years …
 *   site.KEY  network.KEY  storage.KEY  tenancy.KEY
 *   workloads.NAME.KEY                a workload's key (KEY may be dotted:
 *                                     model.layers, parallel.tp)
 *   tenancy.teams.NAME.KEY
 *   tenancy.teams.NAME.jobs.NAME.KEY
 * NAME is the item's name as in the plan (case-sensitive; a name may itself
 * hold dots).  Returns the field and sets *resolved, or NULL when the path
 * names no field of this plan. */
#define FIELDS_PATH_LEN 224
const FieldDef *fields_path_find(const Plan *p, const char *path, FieldTarget *resolved);
/* Every path fields_path_find accepts for p (headings excluded), in table
 * order: out[i] is a buffer of FIELDS_PATH_LEN.  Returns the count (≤ max). */
int fields_paths(const Plan *p, char (*out)[FIELDS_PATH_LEN], int max);
/* The canonical path of a field of target t ("workloads.chat-70b.tp"). */
const char *fields_path_of(const FieldDef *f, const Plan *p, FieldTarget t, char *buf,
                           size_t len);
/* True when the field holds a number (FT_INT, FT_U64, FT_REAL). */
bool field_is_number(const FieldDef *f);
/* Set a numeric field from a value in SI units (what quantity_parse
 * returns for the field's kind), with the checks field_set applies to typed
 * text (whole numbers, range of int).  Returns 0, or -1 with a message in
 * err; *p is unchanged on failure. */
int field_set_number(const FieldDef *f, Plan *p, FieldTarget t, double si, char *err,
                     size_t errlen);
/* The current value of a numeric field in SI units (NAN for other fields). */
double field_number(const FieldDef *f, const Plan *p, FieldTarget t);

/* The scope's section name ("site", "tenancy", …; "" for plan and items). */
const char *fields_scope_prefix(FieldScope s);

/* Display text of a field's current value (without the unit). */
const char *field_format(const FieldDef *f, const Plan *p, FieldTarget t, char *buf, size_t len);
/* Parse text into *p (a copy the caller validates), with what the edit
 * implies elsewhere (setting a training run's gpus clears target_days and
 * the reverse; a new plan accelerator maps MIG profiles): note (may be
 * NULL) then says what else changed, "" when nothing did.  Returns 0, or
 * -1 with a message quoting the text in err; *p is unchanged on failure. */
int field_edit(const FieldDef *f, Plan *p, FieldTarget t, const char *text, const Catalog *cat,
               char *note, size_t notelen, char *err, size_t errlen);
/* field_edit without the note. */
int field_set(const FieldDef *f, Plan *p, FieldTarget t, const char *text, const Catalog *cat,
              char *err, size_t errlen);
/* Step an enumeration / bool / catalog choice by dir (±1) in *p (note as
 * for field_edit).  Returns 0, or -1 when the field is not a choice. */
int field_step(const FieldDef *f, Plan *p, FieldTarget t, int dir, const Catalog *cat, char *note,
               size_t notelen);
/* field_step without the note. */
int field_cycle(const FieldDef *f, Plan *p, FieldTarget t, int dir, const Catalog *cat);
/* True when the field is an enumeration-like choice (cycles, has a pick list). */
bool field_is_choice(const FieldDef *f);
/* The choices of a choice field (names as typed); returns count. */
int field_choices(const FieldDef *f, const Plan *p, const Catalog *cat, const char **out, int max);
/* The index among ch[0..n) of the field's current value ("(plan)" or the
 * catalog default when it is unset), or -1. */
int field_choice_index(const FieldDef *f, const Plan *p, FieldTarget t, const char *const *ch, int n);
/* True when the field is unset and shows what it inherits ("(plan)",
 * "megatron (default)"): an edit starts from empty text. */
bool field_is_inherited(const FieldDef *f, const Plan *p, FieldTarget t);

#endif
