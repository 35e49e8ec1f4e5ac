//! Fuzz target `program_ir`: see `thalia::fuzzing::program_ir` for what it drives and the input layout.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia::fuzzing::program_ir(data);
});
