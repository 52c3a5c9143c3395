//! Architecture guards: the engine stays free of terminal crates, and source files stay small.

mod areas;

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Words that would mean the engine depends on a terminal UI crate.
const TERMINAL_CRATES: [&str; 4] = ["ratatui", "crossterm", "termion", "termwiz"];

#[test]
fn engine_does_not_depend_on_terminal_crates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut files = Vec::new();
    for krate in ["base", "models", "records", "engine"] {
        files.extend(rust_files(&root.join(krate).join("src")));
        files.push(root.join(krate).join("Cargo.toml"));
    }
    assert!(!files.is_empty(), "no engine sources found under {root:?}");
    let mut offenders = Vec::new();
    for f in files {
        let text = fs::read_to_string(&f).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in TERMINAL_CRATES {
                let hit = code
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|tok| tok == word);
                if hit {
                    offenders.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "the engine crates must not use terminal crates:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_guard_detects_a_terminal_import() {
    // The check above must be able to fail: feed it a line that would trip it.
    let line = "use ratatui::widgets::Table;";
    let hit = line
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|tok| TERMINAL_CRATES.contains(&tok));
    assert!(hit);
}

#[test]
fn no_source_file_exceeds_600_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut big = Vec::new();
    for dir in ["src", "crates", "tests", "benches"] {
        for f in rust_files(&root.join(dir)) {
            let lines = fs::read_to_string(&f)
                .map(|t| t.lines().count())
                .unwrap_or(0);
            if lines > 600 {
                big.push(format!("{}: {lines} lines", f.display()));
            }
        }
    }
    assert!(big.is_empty(), "files over 600 lines:\n{}", big.join("\n"));
}

/// The headless commands use the engine, not the workbench (#33: `override --where` used to
/// import the TUI's search): only `src/cli/mod.rs`, which starts the workbench, names `crate::tui`.
#[test]
fn headless_commands_do_not_import_the_workbench() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut offenders = Vec::new();
    for e in std::fs::read_dir(&dir).expect("src/cli") {
        let p = e.expect("entry").path();
        if p.file_name().is_some_and(|n| n == "mod.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).expect("read");
        if text.contains("crate::tui") {
            offenders.push(p.display().to_string());
        }
    }
    assert!(offenders.is_empty(), "{offenders:?}");
}
