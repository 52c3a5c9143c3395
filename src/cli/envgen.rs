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
    /// The Plan agent: a spec, seed and DESIGN.md for app NAME modelled on --reference, written
    /// into --out (default crates/engine/src/apps/<NAME with _> in a source checkout, else the local pack
    /// folder apps/<NAME with _>, loaded without a rebuild). Needs --model (the shipped specs are files).
    Plan(PlanArgs),
    /// Plan, then at most --rounds rounds of compile + check + Dev-agent revision until the app
    /// agrees with its spec; every round stored in <out>/rounds/<n>/, the agreed spec compiled
    /// into <out>.
    Build(BuildArgs),
}

#[derive(Debug, Args)]
struct PlanArgs {
    /// The app's public name (`crm`).
    name: String,
    /// The kind of product it is modelled on ("a sales CRM like the common SaaS ones").
    #[arg(long)]
    reference: String,
    /// The model: a provider spec (`openai:MODEL@http://127.0.0.1:8000/v1`, `anthropic:MODEL`).
    #[arg(long)]
    model: String,
    /// The pack folder to write.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct BuildArgs {
    #[command(flatten)]
    plan: PlanArgs,
    /// At most this many rounds (the Plan agent's included).
    #[arg(long, default_value_t = 10)]
    rounds: usize,
    /// JSON output: the rounds.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct CompileArgs {
    /// The pack folder holding app.spec.toml (e.g. crates/engine/src/apps/todo).
    dir: PathBuf,
}

/// Runs `envgen`.
pub fn run(cli: &super::Cli, args: &EnvgenArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        EnvgenCommand::Compile(a) => compile(a),
        EnvgenCommand::Check(a) => check(cli, a),
        EnvgenCommand::Plan(a) => plan(a),
        EnvgenCommand::Build(a) => build(cli, a),
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
    /// Write a screenshot of every view the crawl lands on to DIR/<view>.png.
    #[arg(long, value_name = "DIR")]
    shots: Option<PathBuf>,
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
    let report =
        crate::engine::envgen::check::check_with_shots(app, ui, &screen, a.shots.as_deref())?;
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

fn provider_and_out(
    a: &PlanArgs,
) -> anyhow::Result<(
    std::sync::Arc<dyn crate::engine::providers::ChatProvider>,
    PathBuf,
)> {
    let provider = crate::engine::providers::provider_from_spec(
        &a.model,
        &crate::engine::providers::ProviderConfig::default(),
    )?;
    // In a source checkout the pack goes beside the built-in ones (registered by a line);
    // elsewhere it is a local pack, loaded from `apps/` without a rebuild.
    let parent = if std::path::Path::new("crates/engine/src/apps/mod.rs").is_file() {
        "crates/engine/src/apps"
    } else {
        "apps"
    };
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(parent).join(a.name.replace('-', "_")));
    Ok((provider, out))
}

fn plan(a: &PlanArgs) -> anyhow::Result<ExitCode> {
    let (provider, out) = provider_and_out(a)?;
    match crate::engine::envgen::agents::plan(provider.as_ref(), &a.name, &a.reference, &out)? {
        Ok(_) => {
            println!("{}: planned into {}", a.name, out.display());
            Ok(ExitCode::SUCCESS)
        }
        Err(why) => {
            eprintln!("error: the Plan agent's reply: {why}");
            Ok(ExitCode::from(1))
        }
    }
}

fn build(cli: &super::Cli, a: &BuildArgs) -> anyhow::Result<ExitCode> {
    let (provider, out) = provider_and_out(&a.plan)?;
    let config = super::context::load_config(cli)?;
    config.screen.validate().map_err(anyhow::Error::msg)?;
    let rounds = crate::engine::envgen::agents::build(
        provider.as_ref(),
        &a.plan.name,
        &a.plan.reference,
        &out,
        a.rounds,
        &config.screen,
    )?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rounds)?);
    } else {
        for r in &rounds {
            let found = r
                .refused
                .clone()
                .map(|x| vec![x])
                .unwrap_or_else(|| r.discrepancies.iter().map(ToString::to_string).collect());
            println!(
                "round {} ({}): {}",
                r.n,
                r.agent,
                if r.agreed {
                    "agreed".to_string()
                } else {
                    found.join("; ")
                }
            );
        }
    }
    let agreed = rounds.last().is_some_and(|r| r.agreed);
    Ok(if agreed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
