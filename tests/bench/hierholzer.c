/* A plain C Hierholzer, the measuring stick of tests/bench/bench_perf.py (not part of
   trailkit). Reads "n m" then m lines "u v" (two-way edges), builds compressed
   sparse rows by a counting sort, walks an Euler circuit from the first edge's
   tail, and prints: steps walked, seconds (parse included), a checksum of the
   walk's edges. Compiled at benchmark time with cc -O2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static long read_int(const char **p) {
    const char *s = *p;
    long x = 0;
    while (*s < '0' || *s > '9') s++;
    while (*s >= '0' && *s <= '9') x = x * 10 + (*s++ - '0');
    *p = s;
    return x;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s EDGES.txt\n", argv[0]); return 2; }
    double t0 = now();
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc(size + 1);
    if (fread(text, 1, size, f) != (size_t)size) return 2;
    text[size] = 0;
    fclose(f);
    const char *p = text;
    long n = read_int(&p), m = read_int(&p);
    int *end = malloc(sizeof(int) * 2 * m);  /* half-edge h leaves end[h], h ^ 1 is its twin */
    for (long e = 0; e < m; e++) { end[2 * e] = read_int(&p); end[2 * e + 1] = read_int(&p); }
    long *ptr = calloc(n + 1, sizeof(long));
    for (long h = 0; h < 2 * m; h++) ptr[end[h] + 1]++;
    for (long v = 0; v < n; v++) ptr[v + 1] += ptr[v];
    long *fill = malloc(sizeof(long) * n);
    memcpy(fill, ptr, sizeof(long) * n);
    int *to = malloc(sizeof(int) * 2 * m), *arc = malloc(sizeof(int) * 2 * m);
    for (long h = 0; h < 2 * m; h++) { long i = fill[end[h]]++; to[i] = end[h ^ 1]; arc[i] = (int)h; }
    unsigned char *used = calloc(m, 1);
    long *nxt = malloc(sizeof(long) * n);
    memcpy(nxt, ptr, sizeof(long) * n);
    long *stack = malloc(sizeof(long) * m), *out = malloc(sizeof(long) * m);
    long top = 0, k = m, s = m ? end[0] : 0, v = s;
    for (;;) {
        long i = nxt[v], stop = ptr[v + 1];
        while (i < stop && used[arc[i] >> 1]) i++;
        if (i < stop) {
            used[arc[i] >> 1] = 1;
            nxt[v] = i + 1;
            stack[top++] = i;
            v = to[i];
        } else {
            nxt[v] = stop;
            if (top == 0) break;
            out[--k] = stack[--top];
            v = top ? to[stack[top - 1]] : s;
        }
    }
    long checksum = 0;
    for (long j = k; j < m; j++) checksum += arc[out[j]] >> 1;
    printf("%ld %.6f %ld\n", m - k, now() - t0, checksum);
    return 0;
}
