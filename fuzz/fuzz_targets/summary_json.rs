//! Fuzz target `summary_json`: see `thalia::fuzzing::summary_json` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia::fuzzing::summary_json(data);
});
