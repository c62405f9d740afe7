# Sourced by scripts/sanitize.sh and .ci/run: the one definition of how the sanitizers report.
# Any report stops the test that made it (ASan aborts, leaks are errors, UBSan does not recover).
# Values already in the environment win, so a user can add options.
# An allocation the allocator cannot satisfy returns null instead of aborting: Strata turns a
# failed allocation into a strata::Error naming the request, and DeviceBuffer's out-of-memory test
# checks that path (ASan aborted on its 2^61-byte request in the openmp stage, 2026-11-28).
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
