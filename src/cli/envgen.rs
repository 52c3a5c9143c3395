//! `tuplewright envgen compile|check|plan|build`: mock web apps from a spec (issue #32,
//! docs/envgen.md).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

/// `tuplewright envgen`.
#[derive(Debug, Args)]
pub struct EnvgenArgs {
    #[command(subcommand)]
    command: EnvgenCommand,
}

#[derive(Debug, Subcommand)]
enum EnvgenCommand {
    /// Parse and check DIR/app.spec.toml and its seed, then write the derived files into DIR
    /// (manifest.toml, layout.json, CHANGES.md, taxonomy.toml, tasks.json, SKILL.md). A bad spec
    /// is refused with `path:line: problem: detail` and nothing is written.
    Compile(CompileArgs),
}

#[derive(Debug, Args)]
struct CompileArgs {
    /// The pack folder holding app.spec.toml (e.g. src/apps/todo).
    dir: PathBuf,
}

/// Runs `envgen`.
pub fn run(args: &EnvgenArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        EnvgenCommand::Compile(a) => compile(a),
    }
}

fn compile(a: &CompileArgs) -> anyhow::Result<ExitCode> {
    match crate::engine::envgen::compile::compile(&a.dir) {
        Ok(c) => {
            for p in &c.written {
                println!("wrote {}", p.display());
            }
            println!("{}: compiled in {} ms", c.app, c.took.as_millis());
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(1))
        }
    }
}
