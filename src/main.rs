//! The `tuplewright` binary: parses the command line and hands over to [`tuplewright::cli`].

fn main() -> std::process::ExitCode {
    tuplewright::cli::main()
}
