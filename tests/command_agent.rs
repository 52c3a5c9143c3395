//! The `command` agents against fake coding-agent CLIs (tests/fixtures/agent_cli/fake_agent.py,
//! local stand-ins for Claude Code / Codex / Kimi: they write files, print stream-json with usage,
//! crash, hang, or print fenced blocks only), run under the real bubblewrap sandbox.

use crate::harness::agents;
mod e2e;
mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use support::*;
use tuplewright::engine::agents::command::{
    from_spec, CommandAgentConfig, CommandDiscriminator, CommandGenerator,
};
use tuplewright::engine::agents::{
    AgentError, Discriminator, DiscriminatorInput, Generator, GeneratorInput,
};

fn generate(
    cfg: CommandAgentConfig,
    review: Option<&str>,
) -> Result<(String, String, tuplewright::engine::agents::Usage), AgentError> {
    let brief = brief();
    let g = CommandGenerator::new(cfg, prompts()).unwrap();
    let out = g.generate(&GeneratorInput {
        brief: &brief,
        round: if review.is_some() { 2 } else { 1 },
        previous_review: review,
    })?;
    Ok((out.initial_setup, out.golden_patch, out.usage))
}

fn discriminate(cfg: CommandAgentConfig) -> Result<String, AgentError> {
    let brief = brief();
    let d = CommandDiscriminator::new(cfg, prompts()).unwrap();
    let out = d.write_reward(
        &DiscriminatorInput {
            brief: &brief,
            round: 1,
            previous_review: None,
        },
        &FakeProbe,
    )?;
    Ok(out.reward)
}

#[test]
fn generator_cli_writes_both_files_from_its_private_inputs_and_usage_is_parsed() {
    let rig = rig();
    let (setup, patch, usage) =
        generate(rig.config("generator", &[]), Some("## Verdict: FAIL\n")).unwrap();
    for script in [&setup, &patch] {
        assert!(script.contains("# task: chat_topic_007"), "{script}");
        assert!(
            script.contains("# prompt_has_generator_md: True"),
            "{script}"
        );
        // What the Generator's directory held: its inputs, and nothing of the Discriminator's.
        assert!(
            script.contains(
                "# saw: PROMPT.md REVIEW.md SKILL-issue-tracker.md SKILL.md task_config.json\n"
            ),
            "{script}"
        );
    }
    assert!(setup.contains("print('setup')") && patch.contains("print('patch')"));
    // The Claude-style `result` event: input = input + cache reads, cost = total_cost_usd.
    assert_eq!((usage.input_tokens, usage.output_tokens), (1300, 340));
    assert!((usage.cost_usd - 0.0421).abs() < 1e-12);
    assert_eq!(usage.calls, 1);
    assert_eq!(usage.model, "command:fake_agent.py");
    assert!(
        rig.dirs("gen-").is_empty(),
        "working directories are removed after the call"
    );
}

#[test]
fn discriminator_cli_writes_reward_and_sees_only_task_and_state_snapshots() {
    let rig = rig();
    let reward = discriminate(rig.config("discriminator", &[])).unwrap();
    assert!(
        reward.contains(INIT_MARKER) && reward.contains(GOLD_MARKER),
        "{reward}"
    );
    assert!(
        reward.contains("# saw: PROMPT.md SKILL-issue-tracker.md SKILL.md state_gold.json state_init.json task_config.json\n"),
        "{reward}"
    );
}

#[test]
fn fenced_blocks_in_the_final_stream_json_answer_are_accepted() {
    let rig = rig();
    let (setup, patch, _) = generate(rig.config("fenced", &[]), None).unwrap();
    assert_eq!(setup, "print('fenced setup')\n");
    assert_eq!(patch, "print('fenced patch')\n");
}

#[test]
fn discriminator_cannot_read_the_generator_working_directory_by_any_route() {
    let rig = rig();
    let secret = format!("GENSECRET-{}", uuid::Uuid::new_v4().simple());
    let mut gen_cfg = rig.config("generator", &[&secret]);
    gen_cfg.keep_workdirs = true;
    let (setup, _, _) = generate(gen_cfg, None).unwrap();
    assert!(setup.contains(&secret));
    let gen_dirs = rig.dirs("gen-");
    assert_eq!(gen_dirs.len(), 1, "the kept Generator directory");
    let gen_dir = gen_dirs[0].display().to_string();
    let on_host = std::fs::read_to_string(gen_dirs[0].join("initial_setup.py")).unwrap();
    assert!(
        on_host.contains(&secret),
        "the secret is on the host during the Discriminator call"
    );

    let reward = discriminate(rig.config("spy", &[&gen_dir, &secret, INIT_MARKER])).unwrap();
    let report = header_json(&reward, "REPORT");
    let base = gen_dirs[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_string();
    for key in [
        "abs_list",
        "abs_read",
        "dotdot_read",
        "dotdot_deep_read",
        "symlink_list",
        "symlink_read",
    ] {
        assert_eq!(report[key]["ok"], false, "{key} must fail: {}", report[key]);
    }
    for key in ["dotdot_list", "dotdot2_list"] {
        let v = report[key]["value"].as_str().unwrap_or("");
        assert!(
            !v.contains(&base) && !v.contains("gen-"),
            "{key}: {}",
            report[key]
        );
    }
    let proc = report["proc"].as_object().unwrap();
    assert!(!proc.is_empty());
    for (k, v) in proc {
        if k.ends_with("/root") || k.ends_with("/root_read") {
            assert_eq!(v["ok"], false, "/proc/{k} must fail: {v}");
        } else {
            let listing = v["value"].as_str().unwrap_or("");
            assert!(!listing.contains("initial_setup.py"), "/proc/{k}: {v}");
        }
    }
    // A whole-file-system scan inside the sandbox finds its own snapshot (positive control) and no
    // trace of the Generator's secret.
    assert_eq!(report["secret_hits"], serde_json::json!([]), "{report}");
    let markers = report["init_marker_files"].to_string();
    assert!(
        markers.contains("/home/agent/work/state_init.json"),
        "{markers}"
    );
    assert!(report["scanned"].as_u64().unwrap() > 5);

    // Control: the same spy run WITHOUT the sandbox does read the secret, so the attacks are real
    // and the assertions above can fail.
    let mut open_cfg = rig.config("spy", &[&gen_dir, &secret, INIT_MARKER, "no-walk"]);
    open_cfg.unsafe_no_sandbox = true;
    let control = header_json(&discriminate(open_cfg).unwrap(), "REPORT");
    assert_eq!(control["abs_read"]["ok"], true, "{control}");
    assert!(control["abs_read"]["value"]
        .as_str()
        .unwrap()
        .contains(&secret));
    assert_eq!(control["symlink_read"]["ok"], true, "{control}");
}

#[test]
fn an_output_symlink_to_a_host_file_is_not_followed() {
    let rig = rig();
    let secret_dir = tempfile::tempdir().unwrap();
    let secret_file = secret_dir.path().join("host_secret.py");
    std::fs::write(&secret_file, "HOST-ONLY-SECRET = 1\n").unwrap();
    let target = secret_file.display().to_string();
    let err = discriminate(rig.config("symlink_out", &[&target])).unwrap_err();
    assert!(matches!(err, AgentError::MalformedAfter { .. }), "{err}");
    assert!(!err.to_string().contains("HOST-ONLY-SECRET"));
}

#[test]
fn timeout_kills_a_cli_that_forked_a_background_child() {
    let rig = rig();
    let token = format!("HANG-{}", uuid::Uuid::new_v4().simple());
    let mut cfg = rig.config("hang", &[&token]);
    cfg.timeout_seconds = 2.0;
    cfg.keep_workdirs = true;
    let started = Instant::now();
    let err = generate(cfg, None).unwrap_err();
    let took = started.elapsed();
    assert!(
        matches!(&err, AgentError::Infra(m) if m.contains("timed out after 2 s")),
        "{err}"
    );
    assert!(took < Duration::from_secs(15), "took {took:?}");
    let dir = &rig.dirs("gen-")[0];
    assert_eq!(
        std::fs::read_to_string(dir.join("child_started")).unwrap(),
        token,
        "the setsid grandchild did run"
    );
    let left = processes_with(&token);
    assert!(left.is_empty(), "processes survived the timeout: {left:?}");
}

#[test]
fn missing_bubblewrap_is_infra_with_an_install_hint() {
    let rig = rig();
    let mut cfg = rig.config("generator", &[]);
    cfg.bwrap_path = "/nonexistent/bwrap".into();
    let err = generate(cfg, None).unwrap_err();
    match err {
        AgentError::Infra(m) => {
            assert!(m.contains("/nonexistent/bwrap"), "{m}");
            assert!(m.contains("apt-get install bubblewrap"), "{m}");
        }
        other => panic!("expected Infra, got {other}"),
    }
}

#[test]
fn missing_output_is_malformed_after_exactly_one_rerun_with_a_note() {
    let rig = rig();
    let mut cfg = rig.config("lazy", &[]);
    cfg.keep_workdirs = true;
    let err = generate(cfg, None).unwrap_err();
    match &err {
        AgentError::MalformedAfter { why: m, .. } => {
            assert!(m.contains("initial_setup.py, golden_patch.py"), "{m}")
        }
        other => panic!("expected MalformedAfter, got {other}"),
    }
    let dir = &rig.dirs("gen-")[0];
    assert_eq!(
        std::fs::read_to_string(dir.join("runs.txt")).unwrap(),
        "run\nrun\n"
    );
    let prompt = std::fs::read_to_string(dir.join("PROMPT.md")).unwrap();
    assert!(prompt.contains("Note from the harness"), "{prompt}");
    assert!(prompt.contains("without writing initial_setup.py, golden_patch.py"));
}

#[test]
fn a_cli_that_writes_its_files_on_the_rerun_succeeds_with_two_calls_counted() {
    let rig = rig();
    let (setup, _, usage) = generate(rig.config("second_try", &[]), None).unwrap();
    assert!(setup.contains("# task: chat_topic_007"));
    assert_eq!(usage.calls, 2);
    assert_eq!(usage.output_tokens, 2 * 340);
}

#[test]
fn a_crashing_or_unstartable_cli_is_infra_with_the_stderr_tail() {
    let rig = rig();
    let err = generate(rig.config("crash", &["CRASH-7781"]), None).unwrap_err();
    assert!(
        matches!(&err, AgentError::Infra(m) if m.contains("status 3") && m.contains("fatal error CRASH-7781")),
        "{err}"
    );
    let mut cfg = rig.config("generator", &[]);
    cfg.argv[0] = "/nonexistent/agent-cli".into();
    let err = generate(cfg, None).unwrap_err();
    assert!(
        matches!(&err, AgentError::Infra(m) if m.contains("/nonexistent/agent-cli")),
        "{err}"
    );
}

/// The presets drive stand-ins named `claude`, `codex` and `kimi` found on the sandbox PATH.
#[test]
fn presets_run_the_reference_argv_shapes_with_only_passed_through_env() {
    let rig = rig();
    std::env::set_var("TW_COMMAND_TEST_CANARY", "canary-value");
    for spec in ["command:claude", "command:codex", "command:kimi"] {
        let mut cfg = CommandAgentConfig::from_spec(spec).unwrap();
        cfg.extra_ro_binds = vec![rig.tools.clone()];
        cfg.work_parent = rig.work.clone();
        assert!(
            cfg.network && !cfg.egress_allow.is_empty(),
            "{spec}: proxied network"
        );
        cfg.max_turns = 9;
        cfg.model = "m-1".into();
        cfg.env_passthrough.push("TW_COMMAND_TEST_CANARY".into());
        let (setup, _, usage) = generate(cfg, None).unwrap();
        let rec = header_json(&setup, "RECORD");
        let argv: Vec<String> = serde_json::from_value(rec["argv"].clone()).unwrap();
        let joined = argv.join(" ");
        assert_eq!(rec["cwd"], "/home/agent/work", "{spec}");
        assert_eq!(rec["canary"], "canary-value", "{spec}");
        let env = rec["env"].to_string();
        assert!(
            !env.contains("CARGO_MANIFEST_DIR"),
            "{spec}: host env leaked: {env}"
        );
        match spec {
            "command:claude" => {
                assert_eq!(argv[0], "-p");
                assert!(argv[1].contains("/home/agent/work/PROMPT.md"));
                assert!(joined.contains("--output-format stream-json"), "{joined}");
                assert!(
                    joined.contains("--max-turns 9") && joined.ends_with("--model m-1"),
                    "{joined}"
                );
                assert_eq!(usage.input_tokens, 1300);
            }
            "command:codex" => {
                assert!(joined.starts_with("exec --json --cd /home/agent/work --output-last-message /home/agent/work/last_message.txt"), "{joined}");
                assert!(argv.contains(&"-".to_string()));
                assert!(rec["stdin"].as_str().unwrap().contains("PROMPT.md"));
                assert_eq!((usage.input_tokens, usage.output_tokens), (50, 7));
            }
            _ => {
                assert_eq!(argv[0], "--prompt");
                assert!(joined.contains("--output-format stream-json"), "{joined}");
            }
        }
    }
}

#[test]
fn specs_and_templates_are_checked_with_clear_errors() {
    let (g, d) = from_spec("command:claude", &prompts()).unwrap();
    assert_eq!(g.name(), "command:claude");
    assert_eq!(d.name(), "command:claude");
    let cfg = CommandAgentConfig::from_spec("command:/opt/my agent/run --file '{prompt_file}' -v")
        .unwrap();
    assert_eq!(
        cfg.argv,
        ["/opt/my", "agent/run", "--file", "{prompt_file}", "-v"]
    );
    let quoted = CommandAgentConfig::from_spec("command:'/opt/my agent/run' {workdir}").unwrap();
    assert_eq!(quoted.argv, ["/opt/my agent/run", "{workdir}"]);
    let e = CommandAgentConfig::from_spec("command:agent {promptfile}").unwrap_err();
    assert!(
        e.to_string().contains("unknown placeholder `{promptfile}`"),
        "{e}"
    );
    assert!(CommandAgentConfig::from_spec("command:").is_err());
    assert!(CommandAgentConfig::from_spec("command:agent 'unclosed").is_err());
    assert!(from_spec(
        "command:claude",
        std::path::Path::new("/nonexistent/prompts")
    )
    .is_err());
    let mut named = tuplewright::engine::agents::command::NamedConfigs::new();
    named.insert(
        "mine".into(),
        toml::from_str("argv = [\"/opt/mine/agent\", \"{prompt_file}\"]\nmodel = \"x-1\"").unwrap(),
    );
    named.insert("claude".into(), CommandAgentConfig::kimi());
    let (g, _) =
        tuplewright::engine::agents::command::from_spec_with("command:mine", &named, &prompts())
            .unwrap();
    assert_eq!(g.name(), "command:mine:x-1");
    let own = CommandAgentConfig::from_spec_with("command:claude", &named).unwrap();
    assert_eq!(own.name, "kimi", "a named config wins over the preset");
    let preset = CommandAgentConfig::from_spec_with("command:codex", &named).unwrap();
    assert_eq!(preset.name, "codex");
    let mut unsafe_cfg = CommandAgentConfig::claude();
    unsafe_cfg.unsafe_no_sandbox = true;
    let g = CommandGenerator::new(unsafe_cfg, prompts()).unwrap();
    assert_eq!(g.name(), "command:claude+UNSANDBOXED");
}

#[test]
fn network_off_hides_host_loopback_and_network_on_shares_it() {
    let rig = rig();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let (off, _, _) = generate(rig.config("net", &[&port]), None).unwrap();
    assert!(off.starts_with("# net: refused:"), "{off}");
    let mut cfg = rig.config("net", &[&port]);
    cfg.network = true;
    let (on, _, _) = generate(cfg, None).unwrap();
    assert_eq!(on, "# net: reached\n");
}

#[test]
fn cancelling_kills_the_running_cli_and_reports_cancelled() {
    let rig = rig();
    let token = format!("CANCEL-{}", uuid::Uuid::new_v4().simple());
    let flag = Arc::new(AtomicBool::new(false));
    let g = CommandGenerator::new(rig.config("hang", &[&token]), prompts())
        .unwrap()
        .with_cancel(flag.clone());
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(700));
        flag.store(true, Ordering::SeqCst);
    });
    let brief = brief();
    let started = Instant::now();
    let err = g
        .generate(&GeneratorInput {
            brief: &brief,
            round: 1,
            previous_review: None,
        })
        .unwrap_err();
    setter.join().unwrap();
    assert!(matches!(err, AgentError::Cancelled), "{err}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(processes_with(&token).is_empty());
}

/// With an egress allow-list the CLI has a private network namespace: only the CONNECT proxy
/// (HTTPS_PROXY) leads out, and only to allowed targets; the host's loopback is not reachable.
#[test]
fn egress_allow_list_lets_only_allowed_targets_through_the_proxy() {
    use std::io::{BufRead, Write};
    let rig = rig();
    let allowed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let denied = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let allowed_port = allowed.local_addr().unwrap().port().to_string();
    let denied_port = denied.local_addr().unwrap().port().to_string();
    std::thread::spawn(move || {
        for conn in allowed.incoming().flatten() {
            let mut line = String::new();
            let mut reader = std::io::BufReader::new(conn.try_clone().unwrap());
            if reader.read_line(&mut line).is_ok() && line.trim() == "ping" {
                let _ = (&conn).write_all(b"pong\n");
            }
        }
    });
    let mut cfg = rig.config("via_proxy", &[&allowed_port, &denied_port]);
    cfg.network = true;
    cfg.egress_allow = vec![format!("127.0.0.1:{allowed_port}")];
    let (setup, _, _) = generate(cfg, None).unwrap();
    let rec = header_json(&setup, "PROXY");
    assert_eq!(
        rec["allowed"], "HTTP/1.1 200 Connection established",
        "{rec}"
    );
    assert_eq!(rec["echoed"], "pong", "{rec}");
    assert_eq!(rec["denied"], "HTTP/1.1 403 Forbidden", "{rec}");
    assert!(
        rec["direct"].as_str().unwrap().starts_with("refused:"),
        "{rec}"
    );
}

/// Every TOML example of docs/command-agents.md parses into a valid config (unknown keys are
/// rejected), so the documented configuration stays true.
#[test]
fn documented_toml_examples_parse_and_validate() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/command-agents.md"),
    )
    .unwrap();
    let mut examples = 0;
    for block in doc.split("```toml\n").skip(1) {
        let text = block.split("```").next().unwrap();
        let cfg: CommandAgentConfig =
            toml::from_str(text).unwrap_or_else(|e| panic!("{e}\nin:\n{text}"));
        cfg.validate().unwrap();
        assert!(cfg.network && !cfg.egress_allow.is_empty());
        examples += 1;
    }
    assert_eq!(examples, 3);
    let typo = toml::from_str::<CommandAgentConfig>("argv = [\"x\"]\ntimeout = 5\n").unwrap_err();
    assert!(typo.to_string().contains("timeout"), "{typo}");
}

#[test]
fn a_failing_state_probe_is_infra_and_the_cli_never_starts() {
    let rig = rig();
    let mut cfg = rig.config("discriminator", &[]);
    cfg.keep_workdirs = true;
    let d = CommandDiscriminator::new(cfg, prompts()).unwrap();
    let brief = brief();
    let err = d
        .write_reward(
            &DiscriminatorInput {
                brief: &brief,
                round: 1,
                previous_review: None,
            },
            &DownProbe,
        )
        .unwrap_err();
    assert!(
        matches!(&err, AgentError::Infra(m) if m.contains("connection refused")),
        "{err}"
    );
    assert!(
        rig.dirs("disc-").is_empty(),
        "no working directory was made"
    );
}

/// Command agents drive the real loop to an accepted tuple: the Discriminator's CLI only writes
/// reward.py when its state_gold.json (from the harness's probe) shows the golden change.
#[test]
fn command_agents_produce_an_accepted_tuple_in_the_real_loop() {
    let rig = rig();
    let (out, review) = e2e::run_loop(&rig);
    assert_eq!(
        out,
        tuplewright::engine::harness::TaskOutcome::Accepted { rounds: 1 },
        "{review}"
    );
    assert!(review.contains("## Verdict: PASS"), "{review}");
}
