//! Fuzz target `results_line`: see `thalia::fuzzing::results_line` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia::fuzzing::results_line(data);
});
