//! `tuplewright tasks list|show|similar`: browse the store from the command line.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde_json::json;

use super::context::{load_config, open_existing_store};
use super::Cli;
use crate::engine::embedder::{select, similar, Backend};
use crate::engine::store::TaskFilter;

/// Arguments of `tasks`.
#[derive(Debug, Args)]
#[command(
    about = "List tasks, show one task with its rounds, votes and decisions, or its nearest neighbours"
)]
pub struct TasksArgs {
    #[command(subcommand)]
    pub command: TasksCommand,
}

/// `tasks` subcommands.
#[derive(Debug, Subcommand)]
pub enum TasksCommand {
    /// One line per task: id, status, difficulty, domain, instruction (filters combine).
    List {
        /// Only this tuple status (pending, loop_accepted, final, vote_rejected, ...).
        #[arg(long)]
        status: Option<String>,
        /// Only this domain label.
        #[arg(long)]
        domain: Option<String>,
        /// Only this difficulty (easy|medium|hard).
        #[arg(long)]
        difficulty: Option<String>,
        /// At most N tasks (0 = all).
        #[arg(long, default_value_t = 0)]
        limit: usize,
        /// A view saved in the workbench (`B`): its search, filters and sort, in its order
        /// (the views file: $TUPLEWRIGHT_VIEWS, else ~/.config/tuplewright/views.toml).
        #[arg(long, value_name = "NAME", conflicts_with_all = ["status", "domain", "difficulty"])]
        view: Option<String>,
        /// JSON output (one array).
        #[arg(long)]
        json: bool,
    },
    /// The views saved in the workbench (name, search, filters, sort).
    Views,
    /// Everything stored about one task.
    Show {
        /// The task id.
        task_id: String,
        /// JSON output.
        #[arg(long)]
        json: bool,
    },
    /// Add a note and/or tags to a tuple (append-only; searchable in the workbench with `tag:T`,
    /// exported in meta.json). Tags must be in `[curate] tags` when that list is set.
    Note {
        /// The task id.
        task_id: String,
        /// The note's text (may be omitted when only tags change).
        text: Option<String>,
        /// A tag to add (repeatable).
        #[arg(long = "tag", value_name = "T")]
        tags: Vec<String>,
        /// A tag to remove (repeatable).
        #[arg(long = "untag", value_name = "T")]
        untags: Vec<String>,
        /// The curator writing it (default: [curate] curator, else $USER).
        #[arg(long = "as", value_name = "NAME")]
        author: Option<String>,
    },
    /// The tasks whose instructions are closest to this one's (sentence-embedding cosine; vectors
    /// are cached in the store, so only new instructions are embedded).
    Similar {
        /// The task id.
        task_id: String,
        /// How many neighbours.
        #[arg(long, default_value_t = 10)]
        top: usize,
        /// auto, model, endpoint or ngram (default: [taskgen.embeddings] backend).
        #[arg(long)]
        embedder: Option<Backend>,
        /// JSON output.
        #[arg(long)]
        json: bool,
    },
}

fn clip(s: &str, n: usize) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= n {
        one_line
    } else {
        format!("{}…", one_line.chars().take(n - 1).collect::<String>())
    }
}

/// Runs `tasks`.
pub fn run(cli: &Cli, args: &TasksArgs) -> anyhow::Result<ExitCode> {
    let config = load_config(cli)?;
    let mut store = open_existing_store(cli, &config)?;
    match &args.command {
        TasksCommand::Note {
            task_id,
            text,
            tags,
            untags,
            author,
        } => {
            if cli.readonly {
                anyhow::bail!("tasks note writes to the store: drop --readonly");
            }
            let author = config.curate.curator(author.as_deref());
            let req = crate::engine::curate::notes::NoteRequest {
                task_id,
                author: &author,
                text: text.as_deref().unwrap_or_default(),
                add: tags,
                remove: untags,
            };
            let n = crate::engine::curate::notes::add_note(&mut store, &config.curate, &req)?;
            println!(
                "{task_id}: note #{} by {author}; tags now [{}]",
                n.id,
                n.tags.join(", ")
            );
        }
        TasksCommand::Views => super::tasks_views::list()?,
        TasksCommand::List {
            view: Some(name),
            limit,
            json,
            ..
        } => super::tasks_views::show(&store, name, *limit, *json)?,
        TasksCommand::List {
            status,
            domain,
            difficulty,
            limit,
            json,
            view: None,
        } => {
            let filter = TaskFilter {
                status: status.clone(),
                domain: domain.clone(),
                difficulty: difficulty.clone(),
                limit: *limit,
            };
            let tasks = store.list_tasks(&filter)?;
            if *json {
                println!("{}", serde_json::to_string_pretty(&tasks)?);
                return Ok(ExitCode::SUCCESS);
            }
            println!(
                "{:<40} {:<16} {:<7} {:<20} INSTRUCTION",
                "TASK", "STATUS", "DIFF", "DOMAIN"
            );
            for t in &tasks {
                let l = &t.task.labels;
                println!(
                    "{:<40} {:<16} {:<7} {:<20} {}",
                    t.task.task_id,
                    t.status,
                    l.difficulty.as_deref().unwrap_or("-"),
                    clip(l.domain.as_deref().unwrap_or("-"), 20),
                    clip(&t.task.instruction, 60)
                );
            }
            println!("{} task(s)", tasks.len());
        }
        TasksCommand::Similar {
            task_id,
            top,
            embedder,
            json,
        } => {
            let e = &config.taskgen.embeddings;
            let sel = select(e, embedder.unwrap_or(e.backend), &config.sandbox.venv_dir)?;
            let s = similar::nearest(&mut store, &sel, task_id, *top, !cli.readonly)?;
            if *json {
                println!("{}", serde_json::to_string_pretty(&s)?);
                return Ok(ExitCode::SUCCESS);
            }
            if let Some(why) = &s.degraded {
                eprintln!("warning: {why}; ranking by the weaker character 3-grams");
            }
            println!("{}  {}", s.task_id, clip(&s.instruction, 100));
            println!(
                "nearest of {} task(s) by {} ({} embedded now)",
                s.corpus.saturating_sub(1),
                s.embedder,
                s.computed
            );
            println!("{:<7} {:<40} INSTRUCTION", "COSINE", "TASK");
            for n in &s.neighbours {
                println!(
                    "{:<7.3} {:<40} {}",
                    n.cosine,
                    n.task_id,
                    clip(&n.instruction, 80)
                );
            }
        }
        TasksCommand::Show { task_id, json } => {
            let task = store.task(task_id)?;
            let rounds = store.rounds(task_id)?;
            let decisions = store.decisions(task_id)?;
            let votes = store.votes(task_id)?;
            let rollouts = store.rollouts(task_id)?;
            if *json {
                let v = json!({"task": task, "rounds": rounds, "votes": votes,
                    "decisions": decisions, "rollouts": rollouts});
                println!("{}", serde_json::to_string_pretty(&v)?);
                return Ok(ExitCode::SUCCESS);
            }
            let l = &task.task.labels;
            println!("task        {}", task.task.task_id);
            println!("status      {}", task.status);
            println!(
                "labels      platform={} domain={} difficulty={} scenario={} type={} pass={}",
                l.platform.as_deref().unwrap_or("-"),
                l.domain.as_deref().unwrap_or("-"),
                l.difficulty.as_deref().unwrap_or("-"),
                l.scenario.as_deref().unwrap_or("-"),
                l.task_type.as_deref().unwrap_or("-"),
                l.source_pass.as_deref().unwrap_or("-")
            );
            println!("apps        {}", l.apps.join(", "));
            println!("origin      {}", task.task.origin);
            println!("instruction {}", task.task.instruction);
            println!("context     {}", task.task.context);
            println!("rounds      {}", rounds.len());
            for r in &rounds {
                let rr = &r.round;
                let rewards: Vec<String> = rr
                    .reward_runs
                    .iter()
                    .map(|x| {
                        format!(
                            "{}={}",
                            x.endpoint,
                            x.reward.map_or("-".into(), |v| format!("{v:.2}"))
                        )
                    })
                    .collect();
                println!(
                    "  #{} {} ({}) {} {}",
                    rr.round_no.unwrap_or(0),
                    rr.verdict,
                    rr.source,
                    rr.finished_at,
                    rewards.join(" ")
                );
            }
            println!("votes       {}", votes.len());
            for v in &votes {
                println!(
                    "  {} {}: {}",
                    v.critic,
                    v.model.as_deref().unwrap_or("-"),
                    v.vote
                        .get("verdict")
                        .and_then(|x| x.as_str())
                        .unwrap_or("?")
                );
            }
            println!("rollouts    {}", rollouts.len());
            let notes = store.notes(task_id)?;
            println!("notes       {}", notes.len());
            for n in &notes {
                println!(
                    "  {} {} [{}]: {}",
                    n.created_at,
                    n.author,
                    n.tags.join(", "),
                    n.text
                );
            }
            println!("decisions   {}", decisions.len());
            for d in &decisions {
                println!(
                    "  #{} {} {} ({}) {} -> {}: {}",
                    d.id, d.created_at, d.actor, d.source, d.before, d.after, d.reason
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
