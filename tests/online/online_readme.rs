//! `online_*`: every online command block of `README.md` runs as written (the two commands,
//! the first finding), with the test build's `thalia` first on `PATH`, in a temporary
//! working directory, with the user's caches and Maven configuration (`support/readme.rs`
//! says how the blocks are read and run).

use crate::support::readme;
use crate::support::require;

use readme::Lane;

#[test]
fn online_readme_online_blocks_run_as_written() {
    let test = "online_readme_online_blocks_run_as_written";
    if std::process::Command::new("javac")
        .arg("-version")
        .output()
        .is_err()
    {
        require::missing_tool(test, "javac not found on PATH");
        return;
    }
    let n = readme::run_lane(Lane::Online);
    assert!(n >= 2, "README.md has {n} online command blocks");
}
