//! Fuzz target `maven_settings`: see `thalia_extractors::fuzzing::maven_settings` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia_extractors::fuzzing::maven_settings(data);
});
