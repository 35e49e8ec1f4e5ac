//! Fuzz target `docs_page`: see `thalia_extractors::fuzzing::docs_page` for what it drives.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia_extractors::fuzzing::docs_page(data);
});
