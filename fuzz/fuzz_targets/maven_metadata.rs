//! Fuzz target `maven_metadata`: see `thalia_extractors::fuzzing::maven_metadata` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia_extractors::fuzzing::maven_metadata(data);
});
