use super::*;

fn feed(f: &mut LaunchForm, cfg: &LaunchConfig, keys: &[Key]) -> FormOutcome {
    let mut out = FormOutcome::Editing;
    for k in keys {
        out = f.key(*k, cfg);
    }
    out
}

const VLM: &str = "vlm:openai:Qwen/Qwen2.5-VL-7B@http://127.0.0.1:8000/v1";

fn with_vlm() -> LaunchConfig {
    let mut cfg = LaunchConfig::default();
    cfg.rollout.policies = vec![VLM.parse().unwrap(), PolicySpec::Oracle];
    cfg
}

#[test]
fn command_policy_needs_a_command_and_trials_are_bounded() {
    let cfg = LaunchConfig::default();
    let mut f = LaunchForm::default();
    let right = Key::plain(Code::Right);
    let down = Key::plain(Code::Down);
    let enter = Key::plain(Code::Enter);
    feed(&mut f, &cfg, &[right, right, right]);
    assert_eq!(f.selected(), "command");
    assert_eq!(feed(&mut f, &cfg, &[enter]), FormOutcome::Editing);
    assert!(f.error.as_deref().is_some_and(|e| e.contains("command")));
    feed(
        &mut f,
        &cfg,
        &[down, down, Key::ch('a'), Key::ch(' '), Key::ch('b')],
    );
    assert_eq!(
        f.command, "a b",
        "space and letters are typed in the command"
    );
    let FormOutcome::Launch(l) = feed(&mut f, &cfg, &[enter]) else {
        panic!("a launch expected");
    };
    assert_eq!(
        (l.policy.to_string().as_str(), l.trials, l.vlm),
        ("command:a b", 1, None)
    );
    let mut f = LaunchForm::default();
    feed(
        &mut f,
        &cfg,
        &[down, Key::plain(Code::Backspace), Key::ch('0')],
    );
    assert_eq!(feed(&mut f, &cfg, &[enter]), FormOutcome::Editing);
    assert!(f.error.as_deref().is_some_and(|e| e.contains("1..=100")));
}

#[test]
fn configured_vlm_policies_are_offered_once_with_temperature_and_max_turns() {
    let cfg = with_vlm();
    let mut f = LaunchForm::new(&cfg);
    assert_eq!(
        f.policies.len(),
        BUILTIN.len() + 1,
        "oracle is not offered twice"
    );
    assert_eq!(f.policies.last().map(String::as_str), Some(VLM));
    assert!(
        !f.fields().contains(&Field::Temperature),
        "oracle has no sampling"
    );
    f.policy = f.policies.len() - 1;
    assert_eq!(
        f.fields(),
        vec![
            Field::Policy,
            Field::Trials,
            Field::Temperature,
            Field::MaxTurns,
            Field::Scope
        ]
    );
    assert_eq!((f.temperature.as_str(), f.max_turns.as_str()), ("1", "100"));
    let down = Key::plain(Code::Down);
    let back = Key::plain(Code::Backspace);
    let keys = [
        down,
        Key::ch('4'),
        down,
        back,
        Key::ch('0'),
        Key::ch('.'),
        Key::ch('6'),
        down,
        back,
        back,
        back,
        Key::ch('3'),
        Key::ch('0'),
        Key::plain(Code::Enter),
    ];
    let FormOutcome::Launch(l) = feed(&mut f, &cfg, &keys) else {
        panic!("a launch expected: {:?}", f.error);
    };
    assert_eq!(
        l.policy.to_string(),
        VLM,
        "the spec with its URL goes to the engine"
    );
    assert_eq!(
        l.name, "vlm:openai:Qwen/Qwen2.5-VL-7B",
        "trials are recorded without it"
    );
    assert_eq!(l.trials, 14);
    assert_eq!(
        l.vlm,
        Some(VlmOverrides {
            temperature: 0.6,
            max_turns: 30
        })
    );
    let applied = l.vlm.map(|o| o.apply(&cfg.rollout)).unwrap_or_default();
    assert_eq!((applied.vlm.temperature, applied.vlm.max_turns), (0.6, 30));
}

#[test]
fn bad_numbers_and_bad_specs_are_refused_with_the_parsers_reason() {
    let mut cfg = with_vlm();
    let mut f = LaunchForm::new(&cfg);
    f.policy = f.policies.len() - 1;
    f.temperature = "3".into();
    let e = f.validate(&cfg).err().unwrap_or_default();
    assert!(e.contains("temperature: must be 0..=2"), "{e}");
    f.temperature = "0.".into();
    assert!(f.validate(&cfg).is_ok(), "`0.` reads as 0");
    f.max_turns = "0".into();
    let e = f.validate(&cfg).err().unwrap_or_default();
    assert!(e.contains("max turns: must be 1..=1000"), "{e}");
    f.max_turns = "10".into();
    // The shared spec parser refuses what the engine would refuse.
    cfg.rollout.vlm.format = "xml".into();
    let e = f.validate(&cfg).err().unwrap_or_default();
    assert!(e.contains("unknown action format `xml`"), "{e}");
    cfg.rollout.vlm.format = String::new();
    // A configured spec is parsed at load; one typed into the form is refused here.
    let mut f = LaunchForm::new(&cfg);
    f.policies.push("vlm:anthropic:claude".into());
    f.policy = f.policies.len() - 1;
    let e = f.validate(&cfg).err().unwrap_or_default();
    assert!(e.contains("OpenAI-compatible"), "{e}");
}
