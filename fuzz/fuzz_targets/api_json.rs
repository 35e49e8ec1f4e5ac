//! Fuzz target `api_json`: see `thalia::fuzzing::api_json` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia::fuzzing::api_json(data);
});
