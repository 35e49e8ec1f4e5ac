//! Fuzz target `class_file`: see `thalia_extractors::fuzzing::class_file` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia_extractors::fuzzing::class_file(data);
});
