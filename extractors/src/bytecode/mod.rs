//! Bytecode extraction (being written).
