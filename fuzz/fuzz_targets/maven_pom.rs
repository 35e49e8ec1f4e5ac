//! Fuzz target `maven_pom`: see `thalia_extractors::fuzzing::maven_pom` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia_extractors::fuzzing::maven_pom(data);
});
