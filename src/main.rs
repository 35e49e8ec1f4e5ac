//! The `thalia` command line (see [`cli`]).

#![deny(missing_docs)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
