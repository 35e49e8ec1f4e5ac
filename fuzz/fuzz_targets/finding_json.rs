//! Fuzz target `finding_json`: see `thalia::fuzzing::finding_json` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia::fuzzing::finding_json(data);
});
