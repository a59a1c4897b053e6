// SPDX-License-Identifier: MIT
// Polyglot books against python-chess's answers (tests/data/oracle.polyglot_*.epd, from
// ../shared/data): every key of 1,000 positions, and every entry list of 300 positions of
// performance.bin read from tests/data/book/oracle_positions.bin, the 492 entries of the
// book that carry those positions' keys (the 1.5 MB book stays in ../shared/data/book);
// and broken books refused with a reason.
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <inttypes.h>

#include "book.h"
#include "move.h"

static Position pos;

static void test_keys(void **state)
{
    (void)state;
    FILE *f = open_data("oracle.polyglot_keys.epd");
    char line[512], err[128];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        uint64_t want;
        assert_non_null(semi);
        *semi = '\0';
        assert_int_equal(sscanf(semi + 1, " key %" SCNx64, &want), 1);
        if (!pos_set_fen(&pos, line, false, err, sizeof err))
            fail_msg("%s: %s", line, err);
        Key got = book_key(&pos);
        if (got != want)
            fail_msg("%s: key %016" PRIx64 ", want %016" PRIx64, line, got, want);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 1000);
    print_message("1000 of 1000 keys exact\n");
}

static void test_lookups(void **state)
{
    (void)state;
    Book book;
    char err[256];
    assert_true(book_open(&book, "tests/data/book/oracle_positions.bin", err, sizeof err));
    assert_int_equal(book.entries, 492); // performance.bin's entries for the 300 positions
    FILE *f = open_data("oracle.polyglot_book.epd");
    char line[2048];
    int n = 0, entries = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        assert_non_null(semi);
        *semi = '\0';
        assert_true(pos_set_fen(&pos, line, false, err, sizeof err));
        char *moves = strstr(semi + 1, "moves ");
        assert_non_null(moves);
        moves += 6;
        moves[strcspn(moves, ";")] = '\0';
        BookMove got[BOOK_MAX_MOVES];
        int k = book_probe(&book, &pos, got);
        char have[2048] = "";
        for (int i = 0; i < k; i++) {
            char mv[MOVE_STR_MAX], item[32];
            move_to_uci(got[i].move, false, mv);
            snprintf(item, sizeof item, "%s%s:%d", i ? " " : "", mv, got[i].weight);
            strcat(have, item);
        }
        if (strcmp(have, moves))
            fail_msg("%s: got '%s', want '%s'", line, have, moves);
        entries += k;
        n++;
    }
    fclose(f);
    assert_int_equal(n, 300);
    print_message("300 of 300 entry lists exact (%d entries)\n", entries);
    // Not in the book: nothing.
    char e2[64];
    assert_true(pos_set_fen(&pos, "8/8/8/4k3/8/8/8/4K2R w K - 0 1", false, e2, sizeof e2));
    BookMove none[BOOK_MAX_MOVES];
    assert_int_equal(book_probe(&book, &pos, none), 0);
    book_close(&book);
}

static void write_file(const char *path, const uint8_t *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static void test_broken_books(void **state)
{
    (void)state;
    Book book;
    char err[256];
    assert_false(book_open(&book, "build/no such book.bin", err, sizeof err));
    assert_non_null(strstr(err, "cannot open book"));
    static uint8_t data[16 * 3];
    for (int i = 0; i < 3; i++)
        data[16 * i] = (uint8_t)(3 - i); // keys 3, 2, 1: unsorted
    write_file("build/test_book_unsorted.bin", data, sizeof data);
    assert_false(book_open(&book, "build/test_book_unsorted.bin", err, sizeof err));
    assert_non_null(strstr(err, "not sorted"));
    for (int i = 0; i < 3; i++)
        data[16 * i] = (uint8_t)(i + 1); // sorted, but cut short
    write_file("build/test_book_short.bin", data, 16 * 2 + 5);
    assert_false(book_open(&book, "build/test_book_short.bin", err, sizeof err));
    assert_non_null(strstr(err, "16-byte entries"));
    write_file("build/test_book_empty.bin", data, 0);
    assert_false(book_open(&book, "build/test_book_empty.bin", err, sizeof err));
    assert_null(book.f);
    remove("build/test_book_unsorted.bin");
    remove("build/test_book_short.bin");
    remove("build/test_book_empty.bin");
}

static void test_choose(void **state)
{
    (void)state;
    BookMove m[3] = {{1, 60}, {2, 30}, {3, 10}};
    assert_int_equal(book_choose(m, 3, true, 12345), 1);
    int seen[4] = {0};
    for (uint64_t r = 0; r < 100; r++)
        seen[book_choose(m, 3, false, r)]++;
    assert_int_equal(seen[1], 60);
    assert_int_equal(seen[2], 30);
    assert_int_equal(seen[3], 10);
    BookMove z[2] = {{5, 0}, {6, 0}};
    assert_int_equal(book_choose(z, 2, false, 1), 6);
    assert_int_equal(book_choose(z, 0, false, 1), MOVE_NONE);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_lookups),
        cmocka_unit_test(test_broken_books),
        cmocka_unit_test(test_choose),
    };
    return cmocka_run_group_tests_name("book", tests, NULL, NULL);
}
