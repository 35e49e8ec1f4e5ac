//! Fuzz target `type_string`: see `thalia::fuzzing::type_string` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia::fuzzing::type_string(data);
});
