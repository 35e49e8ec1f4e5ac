//! Fuzz target `javadoc_page`: see `thalia_extractors::fuzzing::javadoc_page` for what it drives.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia_extractors::fuzzing::javadoc_page(data);
});
