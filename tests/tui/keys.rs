//! Keymap and theme files: overrides replace only what they name; bad files name the key path.

use std::path::Path;

use tuplewright::tui::action::{Action, REGISTRY};
use tuplewright::tui::keymap::{parse_keys, Key, Keymap, Resolved};
use tuplewright::tui::theme::{Role, Theme};

fn resolve(map: &Keymap, s: &str) -> Resolved {
    map.resolve(&parse_keys(s).expect("key"))
}

#[test]
fn every_default_key_of_the_registry_parses_and_resolves_to_its_action() {
    let map = Keymap::default();
    for spec in REGISTRY {
        for k in spec.keys {
            assert_eq!(
                resolve(&map, k),
                Resolved::Action(spec.action),
                "{} key {k}",
                spec.name
            );
        }
    }
    assert_eq!(
        resolve(&map, "g"),
        Resolved::Pending,
        "g is the start of g g"
    );
    assert_eq!(resolve(&map, "ctrl-z"), Resolved::Unbound);
}

#[test]
fn keymap_file_overrides_only_the_actions_it_names() {
    let text = "[keys]\ndown = [\"x\", \"ctrl-n\"]\nquit = [\"j\"]\n";
    let map = Keymap::from_toml(text, Path::new("k.toml")).expect("valid keymap");
    assert_eq!(resolve(&map, "x"), Resolved::Action(Action::Down));
    assert_eq!(resolve(&map, "ctrl-n"), Resolved::Action(Action::Down));
    // `j` was down's; the override gives it to quit, and `q` is no longer quit.
    assert_eq!(resolve(&map, "j"), Resolved::Action(Action::Quit));
    assert_eq!(resolve(&map, "q"), Resolved::Unbound);
    // Untouched actions keep their defaults.
    assert_eq!(resolve(&map, "k"), Resolved::Action(Action::Up));
    assert_eq!(map.keys_of(Action::Down), ["x", "ctrl-n"]);
}

#[test]
fn invalid_keymap_files_are_reported_at_their_key_path() {
    let cases = [
        (
            "[keys]\ndown = [\"j\", \"ctl-x\"]\n",
            "keys.down[1]",
            "unknown key `ctl-x`",
        ),
        (
            "[keys]\nfly = [\"j\"]\n",
            "keys.fly",
            "no action named `fly`",
        ),
        ("[keys]\ndown = \"j\"\n", "keys.down", "must be a list"),
        ("[keys]\ndown = [3]\n", "keys.down[0]", "must be a string"),
        ("[colours]\nx = 1\n", "colours", "unknown table"),
        ("[keys]\n\ndown = [\"j\"\n", "line 3", ""),
    ];
    for (text, at, msg) in cases {
        let err = Keymap::from_toml(text, Path::new("my-keys.toml")).expect_err(text);
        let shown = err.to_string();
        assert_eq!(err.at, at, "{shown}");
        assert!(
            shown.contains(msg) && shown.contains("my-keys.toml"),
            "{shown}"
        );
    }
}

#[test]
fn missing_keymap_file_means_defaults() {
    let map = Keymap::load(Path::new("/nonexistent/tw-keys.toml")).expect("defaults");
    assert_eq!(map.resolve(&[Key::ch('q')]), Resolved::Action(Action::Quit));
}

#[test]
fn themes_keep_modifiers_under_no_color_and_reject_bad_roles() {
    for name in ["dark", "light"] {
        let colour = Theme::builtin(name, false).expect("builtin theme");
        let plain = Theme::builtin(name, true).expect("builtin theme");
        for role in [
            Role::Selection,
            Role::Keep,
            Role::Reject,
            Role::Undecided,
            Role::Alert,
        ] {
            assert!(
                colour.style(role).fg.is_some(),
                "{name} {role:?} has a colour"
            );
            assert_eq!(plain.style(role).fg, None, "NO_COLOR drops colours");
            assert_eq!(plain.style(role).bg, None);
            assert!(
                !plain.style(role).add_modifier.is_empty(),
                "{name} {role:?} keeps a modifier"
            );
        }
    }
    let bad = "name = \"x\"\n[roles]\nselection = { fg = \"blue\", modifiers = [\"blink-ish\"] }\n";
    let err = Theme::parse(bad, Path::new("t.toml"), false).expect_err("bad modifier");
    assert_eq!(err.at, "roles.selection.modifiers[0]", "{err}");
}

#[test]
fn a_key_already_bound_elsewhere_is_an_error_not_a_silent_unbind() {
    let cases = [
        (
            "[keys]\nquit = [\"j\"]\n",
            "keys.quit[0]",
            "`j` is already bound to `down` by default",
        ),
        (
            "[keys]\nhelp = [\"x\"]\nquit = [\"Q\", \"x\"]\n",
            "keys",
            "`x` is already bound to",
        ),
        (
            "[keys]\nquit = [\"g\"]\n",
            "keys.quit[0]",
            "overlaps `g g` of `top` by default",
        ),
        ("[keys]\nquit = [\"z\"]\n", "keys.quit[0]", "overlaps `z l`"),
    ];
    for (text, at, msg) in cases {
        let err = Keymap::from_toml(text, Path::new("my-keys.toml")).expect_err(text);
        let shown = err.to_string();
        assert!(err.at.starts_with(at), "{shown}");
        assert!(
            shown.contains(msg) && shown.contains("my-keys.toml"),
            "{shown}"
        );
    }
    // Moving a key: rebind both actions in the file.
    let ok = "[keys]\nquit = [\"j\"]\ndown = [\"ctrl-n\"]\n";
    let map = Keymap::from_toml(ok, Path::new("k.toml")).expect("a moved key is fine");
    assert_eq!(resolve(&map, "j"), Resolved::Action(Action::Quit));
    // The same key twice for one action is harmless.
    Keymap::from_toml("[keys]\nquit = [\"q\", \"q\"]\n", Path::new("k.toml")).expect("dup in one");
}
