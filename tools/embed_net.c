// SPDX-License-Identifier: MIT
// Build-time tool: writes the network file given (EVALFILE) as a C array for src/nnue.c
// to include, or an empty array when none is given, with the network's hidden width as
// EMBEDDED_HIDDEN (0 when there is no network or its header is not one of ours): the
// engine's inner loops get that width as a constant.
//
//   embed_net [NETWORK] > embedded_net.inc
#include <stdio.h>
#include <stdlib.h>

#include "nnue_format.h"

int main(int argc, char **argv)
{
    if (argc < 2 || !argv[1][0]) {
        puts("// No network embedded (build with EVALFILE=/path/to/net to embed one).");
        puts("#define EMBEDDED_HIDDEN 0");
        puts("static const unsigned char EMBEDDED_NET[1] = {0};");
        puts("static const unsigned long EMBEDDED_NET_SIZE = 0;");
        return 0;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "embed_net: cannot open %s\n", argv[1]);
        return 1;
    }
    size_t n = 0, cap = 1 << 20;
    unsigned char *data = malloc(cap);
    for (size_t got; data && (got = fread(data + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            unsigned char *bigger = realloc(data, cap *= 2);
            if (!bigger)
                free(data);
            data = bigger;
        }
    }
    fclose(f);
    if (!data) {
        fprintf(stderr, "embed_net: out of memory reading %s\n", argv[1]);
        return 1;
    }
    if (n == 0) {
        fprintf(stderr, "embed_net: %s is empty\n", argv[1]);
        free(data);
        return 1;
    }
    // A file the engine will refuse still embeds (the engine says why at start-up).
    NnueHeader head;
    unsigned hidden = nnue_header_read(data, n, &head) ? (unsigned)head.hidden : 0;
    printf("// Embedded network: %s\n", argv[1]);
    printf("#define EMBEDDED_HIDDEN %u\n", hidden);
    puts("static const unsigned char EMBEDDED_NET[] = {");
    for (size_t i = 0; i < n; i++)
        printf("%d,%s", data[i], (i + 1) % 32 ? "" : "\n");
    puts("};");
    printf("static const unsigned long EMBEDDED_NET_SIZE = %zu;\n", n);
    free(data);
    return 0;
}
