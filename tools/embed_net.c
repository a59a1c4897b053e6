// SPDX-License-Identifier: MIT
// Build-time tool: writes the network file given (EVALFILE) as a C array for src/nnue.c
// to include, or an empty array when none is given.
//
//   embed_net [NETWORK] > embedded_net.inc
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 2 || !argv[1][0]) {
        puts("// No network embedded (build with EVALFILE=/path/to/net to embed one).");
        puts("static const unsigned char EMBEDDED_NET[1] = {0};");
        puts("static const unsigned long EMBEDDED_NET_SIZE = 0;");
        return 0;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "embed_net: cannot open %s\n", argv[1]);
        return 1;
    }
    printf("// Embedded network: %s\n", argv[1]);
    puts("static const unsigned char EMBEDDED_NET[] = {");
    unsigned long n = 0;
    int c;
    while ((c = fgetc(f)) != EOF)
        printf("%d,%s", c, ++n % 32 ? "" : "\n");
    fclose(f);
    if (n == 0) {
        fprintf(stderr, "embed_net: %s is empty\n", argv[1]);
        return 1;
    }
    puts("};");
    printf("static const unsigned long EMBEDDED_NET_SIZE = %lu;\n", n);
    return 0;
}
