// AddressSanitizer defaults built into every fuzz target, so that any runner (tools/fuzz.sh, a
// campaign script, a developer's command line) gets them; ASAN_OPTIONS still overrides each.
//
// malloc_context_size=5 (ASan's default is 30): the frames ASan unwinds and stores for every
// malloc and free. On the slow targets that bookkeeping (StackDepot::Put + UnwindFast) was
// 10-20 % of a run (docs/reliability.md). It changes nothing ASan or LeakSanitizer detects:
// only the "allocated by" / "freed by" stacks of a report are cut to 5 frames; the stack of
// the bad access itself stays whole. Replay a reproducer with
// ASAN_OPTIONS=malloc_context_size=30 for the full allocation stacks.
extern "C" const char* __asan_default_options() { return "malloc_context_size=5"; }
