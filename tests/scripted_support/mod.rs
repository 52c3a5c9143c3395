//! A small stand-in for the agreement-loop harness used by the scripted-agent tests: it provisions
//! REAL environments (the embedded state API server on loopback, a fresh session and a fresh home per
//! endpoint) and runs the rendered scripts through the REAL sandbox, then reduces the runs to the
//! agreement module's `RoundObservation`. (The integrator's harness is the production version.)

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::Value;
use tuplewright::engine::agents::scripted::{
    ScriptedConfig, ScriptedDiscriminator, ScriptedGenerator,
};
use tuplewright::engine::agents::{
    AgentError, Discriminator, DiscriminatorInput, Endpoint, EnvProbe, Generator, GeneratorInput,
    GeneratorOutput, TaskBrief,
};
use tuplewright::engine::agreement::{ComponentScore, RewardRun, RoundObservation, ScriptRun};
use tuplewright::engine::env::{self, files, AppRegistry, ServerConfig, ServerHandle};
use tuplewright::engine::sandbox::{
    parse_reward, run_script, Isolation, Limits, Role, RunResult, SandboxConfig, SandboxSpec,
    Script,
};

/// Every built-in web app the state API serves (hand-written and spec-built), in name order.
pub fn served_apps() -> Vec<String> {
    AppRegistry::builtin()
        .unwrap()
        .served()
        .iter()
        .map(|a| a.manifest.name.clone())
        .collect()
}

/// Every shipped task (each pack's tasks.json, assets/tasks/*.json), as briefs (apps = `domains`),
/// labelled with the app (or `cross`).
pub fn shipped_tasks() -> Vec<(String, TaskBrief)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for (file, path) in tuplewright::apps::shipped_task_files(&root) {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for task in doc["tasks"].as_array().unwrap() {
            out.push((file.clone(), brief(task)));
        }
    }
    out
}

pub fn brief(task: &Value) -> TaskBrief {
    let apps = task["domains"]
        .as_array()
        .map(|a| a.iter().map(|v| v.as_str().unwrap().to_string()).collect())
        .unwrap_or_else(|| vec![task["domain"].as_str().unwrap().to_string()]);
    TaskBrief {
        task_id: task["task_id"].as_str().unwrap().to_string(),
        instruction: task["task_instruction"].as_str().unwrap().to_string(),
        context: task["context"].as_str().unwrap().to_string(),
        difficulty: task["difficulty"].as_str().unwrap().to_string(),
        apps,
        skills: Vec::new(),
        structured: task.clone(),
    }
}

/// The web apps a task touches, in `domains` order.
pub fn web_apps(brief: &TaskBrief) -> Vec<String> {
    brief
        .apps
        .iter()
        .filter(|a| served_apps().contains(a))
        .cloned()
        .collect()
}

/// A probe the scripted Discriminator never needs; it records nothing and refuses.
pub struct NoProbe;

impl EnvProbe for NoProbe {
    fn read_state(&self, _: Endpoint) -> Result<Value, AgentError> {
        Err(AgentError::Infra("no probe in this test".into()))
    }
    fn dry_run_reward(&self, _: Endpoint, _: &str) -> Result<String, AgentError> {
        Err(AgentError::Infra("no probe in this test".into()))
    }
}

pub fn agents(cfg: ScriptedConfig) -> (ScriptedGenerator, ScriptedDiscriminator) {
    (
        ScriptedGenerator::new(cfg.clone()).unwrap(),
        ScriptedDiscriminator::new(cfg).unwrap(),
    )
}

pub fn generate(
    g: &ScriptedGenerator,
    b: &TaskBrief,
    round: u32,
    review: Option<&str>,
) -> GeneratorOutput {
    g.generate(&GeneratorInput {
        brief: b,
        round,
        previous_review: review,
    })
    .unwrap()
}

pub fn reward(d: &ScriptedDiscriminator, b: &TaskBrief, round: u32) -> String {
    d.write_reward(
        &DiscriminatorInput {
            brief: b,
            round,
            previous_review: None,
        },
        &NoProbe,
    )
    .unwrap()
    .reward
}

/// One real server for every app, ephemeral ports, plus a scratch root for homes.
pub struct Harness {
    pub server: ServerHandle,
    pub root: tempfile::TempDir,
    pub sandbox: SandboxConfig,
    counter: AtomicUsize,
}

impl Harness {
    pub async fn start() -> Arc<Harness> {
        let root = tempfile::Builder::new()
            .prefix("tw-scripted-")
            .tempdir()
            .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let cfg = ServerConfig {
            port: Some(0),
            state_dir: root.path().join("state"),
            fsync: false,
            ..ServerConfig::default()
        };
        let reg = AppRegistry::builtin().unwrap();
        let apps = served_apps().iter().map(|n| reg.get(n).unwrap()).collect();
        let server = env::spawn(cfg, apps).await.unwrap();
        let sandbox = SandboxConfig::default();
        assert!(
            sandbox.bwrap_path.exists(),
            "these tests need bubblewrap (apt-get install bubblewrap)"
        );
        Arc::new(Harness {
            server,
            root,
            sandbox,
            counter: AtomicUsize::new(0),
        })
    }

    /// A fresh environment: a new sid and a freshly provisioned home (the files desktop's).
    pub fn endpoint(&self, app: Option<&str>) -> SandboxSpec {
        self.endpoint_for(app, &[])
    }

    /// [`Harness::endpoint`] for a task using `apps`: when one of them is a desktop pack, the
    /// home holds those packs' seed homes (a desktop application's profile and documents), as
    /// the engine's environments provision it.
    pub fn endpoint_for(&self, app: Option<&str>, apps: &[String]) -> SandboxSpec {
        let n = self.counter.fetch_add(1, Ordering::SeqCst);
        let home = self.root.path().join(format!("env{n}")).join("home");
        if apps.iter().any(|a| tuplewright::apps::is_desktop(a)) {
            files::provision_home_for(&home, apps).unwrap();
        } else {
            files::provision_home(&home, None).unwrap();
        }
        let (upstream, port) = match app {
            Some(a) => {
                let reg = AppRegistry::builtin().unwrap();
                let port = reg.get(a).unwrap().manifest.port.unwrap();
                (self.server.addr(a), port)
            }
            None => (None, 0),
        };
        SandboxSpec {
            home,
            sid: format!("scripted-{n}-{}", uuid::Uuid::new_v4().simple()),
            app: app.unwrap_or("").to_string(),
            upstream,
            api_port: port,
            extra_apis: vec![],
            hand_home_to_reader: true,
            localise: Default::default(),
            // As the engine's own environments do: the built-in app's role check needs the
            // forwarder secret (issue #35).
            forward_headers: app
                .map(|a| {
                    let (k, v) = tuplewright::engine::access::forwarder::secret_header();
                    (a.to_string(), vec![(k.to_string(), v)])
                })
                .into_iter()
                .collect(),
            display: None,
            run_as: None,
        }
    }

    pub fn addr(&self, app: &str) -> SocketAddr {
        self.server.addr(app).unwrap()
    }

    pub async fn run(&self, spec: &SandboxSpec, role: Role, name: &str, source: &str) -> RunResult {
        let script = Script {
            name: name.into(),
            source: source.into(),
        };
        let limits = Limits {
            wall_seconds: 60.0,
            ..Limits::default()
        };
        run_script(
            &self.sandbox,
            spec,
            role,
            &script,
            &limits,
            Isolation::Required,
        )
        .await
        .unwrap()
    }
}

pub fn script_run(r: &RunResult) -> ScriptRun {
    ScriptRun {
        ok: r.succeeded(),
        failure: (!r.succeeded()).then(|| {
            let tail: String = r
                .stderr
                .text
                .lines()
                .rev()
                .take(3)
                .collect::<Vec<_>>()
                .join(" / ");
            format!("{:?}: {tail}", r.outcome)
        }),
    }
}

pub fn reward_run(r: &RunResult) -> RewardRun {
    if !r.succeeded() {
        return RewardRun::Error(format!("{:?}: {}", r.outcome, r.stderr.text));
    }
    match parse_reward(&r.stdout.text) {
        Ok(rep) => RewardRun::Scored {
            score: rep.score,
            components: rep
                .components
                .iter()
                .filter(|c| c.weight.is_some())
                .map(|c| ComponentScore {
                    name: c.name.clone(),
                    weight: c.weight.unwrap_or(0.0),
                    score: c.score,
                    detail: c.detail.clone(),
                })
                .collect(),
        },
        Err(e) => RewardRun::Error(e.to_string()),
    }
}

/// One round in the sandbox: setup on V_init and V_gold (C1), golden on V_gold (C2), the reward on
/// both (C3/C4). A failed setup stops the round like the real harness does.
pub async fn sandboxed_round(
    h: &Harness,
    b: &TaskBrief,
    round: u32,
    gen: &GeneratorOutput,
    reward: &str,
) -> RoundObservation {
    let app = web_apps(b).first().cloned();
    let v_init = h.endpoint_for(app.as_deref(), &b.apps);
    let v_gold = h.endpoint_for(app.as_deref(), &b.apps);
    let mut obs = RoundObservation {
        round,
        setup: ScriptRun {
            ok: true,
            failure: None,
        },
        golden: None,
        scan: Vec::new(),
        gold_runs: Vec::new(),
        init_runs: Vec::new(),
        probes: Vec::new(),
        probe_threshold: 0.0,
    };
    let s1 = h
        .run(&v_init, Role::Setup, "initial_setup.py", &gen.initial_setup)
        .await;
    let s2 = h
        .run(&v_gold, Role::Setup, "initial_setup.py", &gen.initial_setup)
        .await;
    obs.setup = script_run(if s1.succeeded() { &s2 } else { &s1 });
    if !obs.setup.ok {
        return obs;
    }
    let g = h
        .run(&v_gold, Role::Golden, "golden_patch.py", &gen.golden_patch)
        .await;
    obs.golden = Some(script_run(&g));
    if !g.succeeded() {
        return obs;
    }
    // One run per endpoint: the harness's determinism check (two runs) is not what is tested here,
    // and every sandbox start costs ~0.1 s on the 2-core CI machine.
    obs.gold_runs.push(reward_run(
        &h.run(&v_gold, Role::Reader, "reward.py", reward).await,
    ));
    obs.init_runs.push(reward_run(
        &h.run(&v_init, Role::Reader, "reward.py", reward).await,
    ));
    obs
}

/// Runs a script with Debian's python3 WITHOUT the sandbox (for web + web tasks, which need two
/// upstreams the single-upstream sandbox does not provide yet): every app is addressed through its
/// `TW_URL_<APP>` override, the sid through `TW_SID`. Returns (exit ok, stdout, stderr).
pub async fn run_unsandboxed(h: &Harness, sid: &str, source: &str) -> (bool, String, String) {
    let mut cmd = std::process::Command::new("/usr/bin/python3");
    cmd.arg("-c")
        .arg(source)
        .env("TW_SID", sid)
        .env_remove("TW_APP")
        .env_remove("TW_STATE_URL");
    for app in served_apps() {
        let var = format!("TW_URL_{}", app.to_uppercase().replace('-', "_"));
        cmd.env(var, format!("http://{}", h.addr(&app)));
    }
    let out = tokio::task::spawn_blocking(move || cmd.output())
        .await
        .unwrap()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
