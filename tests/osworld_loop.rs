//! The agreement loop on OSWorld guests: each round's V_init and V_gold are two endpoints of the
//! `[osworld]` pool — real `tuplewright env serve --osworld --app files` processes (Xvfb, the
//! files desktop, the sandbox) started and restarted by their revert hooks as a VM pool's
//! snapshot reverts would — with the scripted agents on a shipped files task: setup, golden
//! patch, reward runs, dry runs and probes all run on the guests. A guest going down mid-round
//! is an infrastructure failure (no round, no score), and the retry is accepted.

use crate::osworld_support;
use crate::providers::standin;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use osworld_support::{eventually, pool_toml, terminal_focused, HookedGuest};
use standin::{openai_text, Reply, StandIn};
use tuplewright::engine::agents::scripted::{
    ScriptedConfig, ScriptedDiscriminator, ScriptedGenerator,
};
use tuplewright::engine::bundle::import::import_paths;
use tuplewright::engine::config::Config;
use tuplewright::engine::harness::task::LoopRuntime;
use tuplewright::engine::harness::{run_task, Bus, Fleet, TaskOutcome};
use tuplewright::engine::osworld::{loop_pool, GuestClient};
use tuplewright::engine::rollout::screen::ComputerAction as A;
use tuplewright::engine::rollout::vlm::{ActionFormat, CoordSpace, Coords};
use tuplewright::engine::sandbox::Isolation;
use tuplewright::engine::store::{StateEndpoint, Store};

const TASK: &str = "files_csv-filter_001";

/// A task file holding the shipped files task [`TASK`] only.
fn task_file(dir: &Path) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src/apps/files/tasks.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(src).unwrap()).unwrap();
    let list = v
        .as_array()
        .cloned()
        .or_else(|| v["tasks"].as_array().cloned())
        .unwrap();
    let one: Vec<_> = list.into_iter().filter(|t| t["task_id"] == TASK).collect();
    assert_eq!(
        one.len(),
        1,
        "{TASK} is shipped in crates/engine/src/apps/files/tasks.json"
    );
    let out = dir.join("tasks.json");
    std::fs::write(&out, serde_json::to_string(&one).unwrap()).unwrap();
    out
}

fn open(db: &Path) -> Store {
    Store::open(db, Duration::from_secs(10)).unwrap()
}

/// `tuplewright --no-tui --config CFG --store DB ARGS…`.
fn tw(cfg: &Path, db: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tuplewright"))
        .arg("--no-tui")
        .arg("--config")
        .arg(cfg)
        .arg("--store")
        .arg(db)
        .args(args)
        .env_remove("TUPLEWRIGHT_STORE")
        .output()
        .unwrap()
}

#[test]
fn run_env_osworld_accepts_a_files_task_on_two_guests_and_rollouts_and_a_vlm_standin_score_there() {
    let (a, b) = (HookedGuest::new(), HookedGuest::new());
    let dir = tempfile::tempdir().unwrap();
    let tasks = task_file(dir.path());
    let cfg = dir.path().join("tw.toml");
    std::fs::write(&cfg, pool_toml(&[&a, &b])).unwrap();
    let db = dir.path().join("t.db");
    let tasks = tasks.to_str().unwrap();
    let o = tw(
        &cfg,
        &db,
        &["run", tasks, "--env", "osworld", "--no-export"],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "{stderr}\nguest logs:\n{}\n{}",
        a.log(),
        b.log()
    );
    assert!(stderr.contains("accepted         1"), "{stderr}");
    // Each guest was reverted before the round; V_init once more for the noop probe.
    assert_eq!(a.starts() + b.starts(), 3, "{stderr}");
    let store = open(&db);
    assert_eq!(store.effective_status(TASK).unwrap(), "loop_accepted");
    let rounds = store.rounds(TASK).unwrap();
    assert_eq!(rounds.len(), 1);
    let r = &rounds[0].round;
    assert_eq!(r.verdict, "pass", "{}", r.review_md);
    let by = |endpoint: &str| -> Vec<Option<f64>> {
        r.reward_runs
            .iter()
            .filter(|x| x.endpoint == endpoint)
            .map(|x| x.reward)
            .collect()
    };
    assert_eq!(by("golden"), vec![Some(1.0), Some(1.0)]);
    assert_eq!(by("initial"), vec![Some(0.0), Some(0.0)]);
    assert_eq!(
        r.reward_runs.len(),
        7,
        "two runs per endpoint and three probes"
    );
    assert!(
        r.review_md
            .contains("V_init with every file under /home/user deleted"),
        "{}",
        r.review_md
    );
    // The golden state read from the guest's home holds the file the golden patch wrote.
    let states = store.round_states(rounds[0].id).unwrap();
    let gold = states
        .iter()
        .find(|s| s.endpoint == StateEndpoint::Golden && s.env == "files")
        .expect("a files state of V_gold");
    let files = &gold.state;
    assert!(
        files["Documents/reports/north.csv"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("month,region,units,revenue")),
        "{files}"
    );
    drop(store);
    // Probe rollouts of the accepted tuple on a guest each: the golden patch scores 1, nothing 0.
    for (policy, want) in [("oracle", 1.0), ("noop", 0.0)] {
        let o = tw(
            &cfg,
            &db,
            &[
                "rollout", "--policy", policy, "--tasks", TASK, "--env", "osworld",
            ],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{policy}: {err}");
        let trials = open(&db).rollouts(TASK).unwrap();
        let t = trials
            .iter()
            .find(|t| t.model == policy)
            .unwrap_or_else(|| panic!("a {policy} trial: {trials:?}"));
        assert_eq!(t.reward, Some(want), "{policy}: {:?} {err}", t.failure);
    }
    assert_eq!(a.starts() + b.starts(), 5, "one more revert per trial");
    screen_policies_score_on_the_guests_screen(&cfg, &db, &[&a, &b]);
}

/// The screen policies of the accepted tuple, each on a guest's own screen (screenshots and
/// pyautogui over the OSWorld protocol, windows from its `/accessibility`): `ui-oracle` types
/// the command into the guest's terminal and scores 1, `noop --screen` looks and scores 0, and
/// a VLM teacher — a stand-in speaking OpenAI chat completions in the qwen-xml format — clicks
/// the terminal, types its command and terminates, and scores 1.
fn screen_policies_score_on_the_guests_screen(cfg: &Path, db: &Path, guests: &[&HookedGuest]) {
    for (args, model, want) in [
        (vec!["--policy", "ui-oracle"], "ui-oracle", 1.0),
        (vec!["--policy", "noop", "--screen"], "noop-screen", 0.0),
    ] {
        let mut all = vec![
            "rollout", "--tasks", TASK, "--env", "osworld", "--trials", "1",
        ];
        all.extend(args);
        let o = tw(cfg, db, &all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{model}: {err}");
        let trials = open(db).rollouts(TASK).unwrap();
        let t = trials
            .iter()
            .find(|t| t.model == model)
            .unwrap_or_else(|| panic!("a {model} trial: {trials:?}"));
        assert_eq!(t.reward, Some(want), "{model}: {:?} {err}", t.failure);
    }
    let coords = Coords::new(CoordSpace::Relative1000, 1280, 800).unwrap();
    let turn = |actions: &[A]| {
        Reply::json(openai_text(
            &ActionFormat::QwenXml.render("", actions, &coords),
            100,
            20,
        ))
    };
    let command = "awk -F, 'NR==1 || $2==\"North\"' ~/Documents/reports/sales-2025.csv \
                   > ~/Documents/reports/north.csv";
    // Keys go where the focus is, and the guest's window manager moves it in its own time: the
    // stand-in looks before its second turn, as a model reads the next screenshot, and types
    // once the accessibility tree of the guest this trial reverted shows the terminal focused.
    let (click, typing, done) = (
        turn(&[A::LeftClick { x: 640, y: 620 }]),
        turn(&[
            A::Type {
                text: command.into(),
            },
            A::Key {
                key: "Return".into(),
            },
            A::Wait { seconds: 2.0 },
        ]),
        turn(&[A::Terminate { success: true }]),
    );
    let guests: Vec<(String, usize, PathBuf)> = guests
        .iter()
        .map(|g| (g.url.clone(), g.starts(), g.starts_file()))
        .collect();
    let turns = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let model = StandIn::responding(Arc::new(move |_| {
        match turns.fetch_add(1, Ordering::SeqCst) {
            0 => click.clone(),
            1 => {
                let reverted = guests.iter().find(|(_, before, file)| {
                    std::fs::read_to_string(file).map_or(0, |s| s.lines().count()) > *before
                });
                if let Some((url, _, _)) = reverted {
                    let client = GuestClient::new(url).unwrap();
                    eventually(60, || terminal_focused(&client));
                }
                typing.clone()
            }
            _ => done.clone(),
        }
    }));
    let vlm_cfg = std::fs::read_to_string(cfg).unwrap()
        + "[rollout.vlm]\nformat = \"qwen-xml\"\ncoords = \"rel1000\"\nbackoff_base_ms = 10\n";
    std::fs::write(cfg, vlm_cfg).unwrap();
    let spec = format!("vlm:openai:standin@{}/v1", model.base);
    let o = tw(
        cfg,
        db,
        &[
            "rollout", "--policy", &spec, "--tasks", TASK, "--env", "osworld", "--trials", "1",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let trials = open(db).rollouts(TASK).unwrap();
    let t = trials
        .iter()
        .find(|t| t.model.contains("standin"))
        .unwrap_or_else(|| panic!("a VLM trial: {trials:?}"));
    assert_eq!(t.reward, Some(1.0), "{:?} {err}", t.failure);
    // The model saw the guest's screenshots: one image per request, at the guest's size.
    let asked = model.requests();
    assert!(asked.len() >= 2, "{asked:?}");
    assert!(asked[0].body.to_string().contains("data:image/png;base64,"));
}

#[test]
fn a_guest_going_down_mid_round_is_infrastructure_and_the_retry_is_accepted() {
    let (a, b) = (HookedGuest::new(), Arc::new(HookedGuest::new()));
    let dir = tempfile::tempdir().unwrap();
    let config: Config = toml::from_str(&pool_toml(&[&a, &b])).unwrap();
    let mut store = open(&dir.path().join("t.db"));
    import_paths(&mut store, &[task_file(dir.path())], &mut |_, _| {}).unwrap();
    // V_gold (the pool's second endpoint) goes down as the round turns to it.
    let downed = Arc::new(AtomicBool::new(false));
    let (guest, flag) = (b.clone(), downed.clone());
    let bus = Bus::new(
        store,
        vec![Box::new(move |e| {
            if e.kind == "round.phase"
                && e.payload["phase"] == "golden"
                && !flag.swap(true, Ordering::SeqCst)
            {
                guest.kill();
            }
        })],
    )
    .unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut fleet = rt.block_on(Fleet::start(&dir.path().join("work"))).unwrap();
    fleet.set_osworld(loop_pool(&config.osworld).unwrap());
    let scripted = ScriptedConfig {
        seed: 7,
        fault_rate: 0.0,
        fault_depth: 1,
        templates_dir: None,
    };
    let generator = ScriptedGenerator::new(scripted.clone()).unwrap();
    let discriminator = ScriptedDiscriminator::new(scripted).unwrap();
    let cancel = AtomicBool::new(false);
    let loop_rt = LoopRuntime {
        rt: rt.handle().clone(),
        fleet: &fleet,
        cfg: &config.agreement,
        sandbox: &config.sandbox,
        isolation: Isolation::Required,
        generator: &generator,
        discriminator: &discriminator,
        cancel: &cancel,
    };
    let out = run_task(&loop_rt, &bus, TASK);
    assert!(downed.load(Ordering::SeqCst), "the round reached V_gold");
    match &out {
        TaskOutcome::Infra(m) => assert!(m.contains(&b.url), "{m}\n{}\n{}", a.log(), b.log()),
        other => panic!(
            "a guest down is infrastructure, got {other:?}\n{}\n{}",
            a.log(),
            b.log()
        ),
    }
    assert!(
        bus.read(|s| s.rounds(TASK)).unwrap().is_empty(),
        "no round (and no score) is recorded"
    );
    assert_ne!(
        bus.read(|s| s.effective_status(TASK)).unwrap(),
        "loop_rejected"
    );
    // The retry: the revert hook brings V_gold back and the task is accepted.
    let out = run_task(&loop_rt, &bus, TASK);
    assert_eq!(
        out,
        TaskOutcome::Accepted { rounds: 1 },
        "{}\n{}",
        a.log(),
        b.log()
    );
    assert!(b.starts() >= 2, "V_gold was started again by its hook");
    drop(loop_rt);
    rt.block_on(fleet.shutdown());
}
