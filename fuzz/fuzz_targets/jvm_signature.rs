//! Fuzz target `jvm_signature`: see `thalia_extractors::fuzzing::jvm_signature` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia_extractors::fuzzing::jvm_signature(data);
});
