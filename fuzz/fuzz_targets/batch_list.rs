//! Fuzz target `batch_list`: see `thalia::fuzzing::batch_list` for what it drives.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    thalia::fuzzing::batch_list(data);
});
