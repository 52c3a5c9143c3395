//! The desktop packs' shared preludes (#31): chrome, code_editor, gimp, thunderbird and vlc join
//! `skills/_common/desktop.py` (stopping this home's program, atomic writes, starting a program
//! on the screen) and their own prelude in front of every setup and golden patch, instead of
//! each template carrying a copy.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::json;

use crate::agents::scripted::render;

const DESKTOP: &str = "skills/_common/desktop.py";

/// (pack, setup and golden preludes, reward preludes), as each pack's `pack_files!` lists them.
const PACKS: &[(&str, &[&str], &[&str])] = &[
    (
        "chrome",
        &[DESKTOP, "crates/engine/src/apps/chrome/prelude.py"],
        &[],
    ),
    (
        "code_editor",
        &[DESKTOP, "crates/engine/src/apps/code_editor/prelude.py"],
        &[],
    ),
    (
        "gimp",
        &[
            DESKTOP,
            "crates/engine/src/apps/gimp/common.py",
            "crates/engine/src/apps/gimp/prelude.py",
        ],
        &["crates/engine/src/apps/gimp/common.py"],
    ),
    (
        "thunderbird",
        &[DESKTOP, "crates/engine/src/apps/thunderbird/prelude.py"],
        &[],
    ),
    (
        "vlc",
        &[DESKTOP, "crates/engine/src/apps/vlc/prelude.py"],
        &[],
    ),
];

fn read(rel: &str) -> String {
    let path = format!("{}/{rel}", crate::checkout_root().display());
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn joined(files: &[&str]) -> String {
    files.iter().map(|f| read(f)).collect()
}

/// Fails on the old packs, whose templates each carried their own copy of the stop-the-app
/// block (`/proc` walked in 9 setups and golden patches) and of the setup helpers: every
/// embedded setup and golden patch is now the preludes joined to the template's own body, the
/// body holds no `/proc` walk, the helper is defined once, and every rendered script compiles.
#[test]
fn desktop_scripts_are_the_shared_preludes_joined_to_each_templates_body() {
    let mut scripts = Vec::new();
    for (name, pre, reward_pre) in PACKS {
        let pack = crate::apps::get(name).unwrap();
        let (pre, reward_pre) = (joined(pre), joined(reward_pre));
        for (t, setup, golden, reward, _) in pack.app.templates() {
            let dir = format!("crates/engine/src/apps/{name}/templates/{t}/");
            for (file, embedded, prelude) in [
                ("initial_setup.py", setup, &pre),
                ("golden_patch.py", golden, &pre),
                ("reward.py", reward, &reward_pre),
            ] {
                let body = read(&format!("{dir}{file}"));
                assert!(
                    !body.contains("/proc/"),
                    "{dir}{file} repeats the stop block"
                );
                assert_eq!(*embedded, format!("{prelude}{body}"), "{dir}{file}");
                let script = render::script(file, t, &json!({}), embedded);
                scripts.push((format!("{dir}{file}"), script));
            }
            assert_eq!(setup.matches("def stop_app(").count(), 1, "{dir}");
            assert_eq!(golden.matches("def write_atomic(").count(), 1, "{dir}");
        }
    }
    assert!(scripts.len() >= 39, "{} scripts", scripts.len());
    let check = "import json, sys\nfor name, code in json.load(sys.stdin):\n    compile(code, name, 'exec')\n";
    let mut child = Command::new("python3")
        .args(["-c", check])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = serde_json::to_vec(&scripts).unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
