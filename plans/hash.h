/* plans/hash.h — FNV-1a string hashes (Fowler, Noll, Vo; IETF
 * draft-eastlake-fnv), for the trace reader's team table, the sweep
 * fingerprint and the exporters' collision suffixes.  Not cryptographic. */
#ifndef GPUPLAN_PLANS_HASH_H
#define GPUPLAN_PLANS_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV1A64_BASIS 0xcbf29ce484222325ULL /* offset basis, 64-bit */

/* Continues a 64-bit FNV-1a hash `h` over the bytes of `s`; start with
 * HASH_FNV1A64_BASIS. */
uint64_t hash_fnv1a64(uint64_t h, const char *s);

/* The same over the n bytes at data (NULs included). */
uint64_t hash_fnv1a64_bytes(uint64_t h, const void *data, size_t n);

/* 32-bit FNV-1a of `s`. */
uint32_t hash_fnv1a32(const char *s);

#endif
