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
    /// The Web agent as code: drive every interactive element of APP (a spec app's name or a
    /// folder) in a real Chromium through the screen and check it against the layout tree.
    /// Exit 0 when the app agrees with its spec; each discrepancy names the element and view.
    Check(CheckArgs),
}

#[derive(Debug, Args)]
struct CompileArgs {
    /// The pack folder holding app.spec.toml (e.g. src/apps/todo).
    dir: PathBuf,
}

/// Runs `envgen`.
pub fn run(cli: &super::Cli, args: &EnvgenArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        EnvgenCommand::Compile(a) => compile(a),
        EnvgenCommand::Check(a) => check(cli, a),
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

#[derive(Debug, Args)]
struct CheckArgs {
    /// A built-in spec app's name (`todo`) or a pack folder holding app.spec.toml.
    app: String,
    /// One JSON report instead of lines.
    #[arg(long)]
    json: bool,
}

/// The model and state-API app of `arg`: a folder's spec, or a registered spec pack.
fn load_app(
    arg: &str,
) -> anyhow::Result<(
    crate::engine::envgen::Model,
    std::sync::Arc<crate::engine::env::App>,
)> {
    use crate::engine::envgen::{compile, derive, Model};
    let dir = std::path::Path::new(arg);
    if dir.join("app.spec.toml").is_file() {
        let (model, seed) = compile::load_dir(dir)?;
        let manifest = derive::manifest(&model);
        let app = crate::engine::env::App::parse(arg, &manifest, Some(&seed.to_string()))?;
        return Ok((model, std::sync::Arc::new(app)));
    }
    let pack =
        crate::apps::get(arg).ok_or_else(|| anyhow::anyhow!("no app or spec folder {arg:?}"))?;
    let spec = pack
        .app
        .spec_text()
        .ok_or_else(|| anyhow::anyhow!("{arg} is a hand-written app, not built from a spec"))?;
    let path = std::path::Path::new(pack.app.dir()).join("app.spec.toml");
    let model = Model::new(crate::engine::envgen::parse(&path, spec)?);
    let app = crate::engine::env::App::parse(arg, pack.app.manifest_text(), pack.app.seed_text())?;
    Ok((model, std::sync::Arc::new(app)))
}

fn check(cli: &super::Cli, a: &CheckArgs) -> anyhow::Result<ExitCode> {
    let (model, app) = load_app(&a.app)?;
    let config = super::context::load_config(cli)?;
    config.screen.validate().map_err(anyhow::Error::msg)?;
    let screen = config.screen.clone();
    let ui = crate::engine::envgen::render::SpecUi::leak(model);
    let report = crate::engine::envgen::check::check(app, ui, &screen)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        for d in &report.discrepancies {
            println!("{}: DISCREPANCY {d}", report.app);
        }
        println!(
            "{}: {} element(s) driven, {} discrepanc{} in {:.1} s",
            report.app,
            report.elements,
            report.discrepancies.len(),
            if report.discrepancies.len() == 1 {
                "y"
            } else {
                "ies"
            },
            report.took_ms as f64 / 1000.0
        );
    }
    Ok(if report.discrepancies.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
