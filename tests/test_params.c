// SPDX-License-Identifier: MIT
// The named search parameters and their table.
#include "test_util.h"

#include "params.h"

// The parameter table names every field of SearchParams once, with the default inside
// its range, and param_set refuses values outside it.
static void test_params(void **state)
{
    (void)state;
    SearchParams p = SEARCH_PARAMS_DEFAULT;
    assert_int_equal(PARAM_COUNT * sizeof(int), sizeof(SearchParams));
    for (int i = 0; i < PARAM_COUNT; i++) {
        const ParamInfo *info = &PARAM_TABLE[i];
        assert_ptr_equal(param_find(info->name), info);
        for (int j = 0; j < i; j++)
            assert_true(PARAM_TABLE[j].offset != info->offset);
        int v = param_get(&p, info);
        if (v < info->min || v > info->max)
            fail_msg("%s = %d outside [%d, %d]", info->name, v, info->min, info->max);
        assert_false(param_set(&p, info, info->max + 1));
        assert_int_equal(param_get(&p, info), v);
        assert_true(param_set(&p, info, info->min));
        assert_int_equal(param_get(&p, info), info->min);
    }
    assert_null(param_find("no_such_parameter"));
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests_name("params", tests, NULL, NULL);
}
