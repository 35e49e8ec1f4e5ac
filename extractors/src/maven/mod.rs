//! Maven resolution (being written).
