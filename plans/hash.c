/* plans/hash.c — FNV-1a (see hash.h). */
#include "hash.h"

uint64_t hash_fnv1a64(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL; /* 64-bit FNV prime */
    }
    return h;
}

uint64_t hash_fnv1a64_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL; /* 64-bit FNV prime */
    }
    return h;
}

uint32_t hash_fnv1a32(const char *s)
{
    uint32_t h = 2166136261u; /* offset basis, 32-bit */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u; /* 32-bit FNV prime */
    }
    return h;
}
