//! Bad specs are refused with the file, the line and the class of problem.

use std::path::Path;

use tuplewright::engine::envgen::{self, seed, Problem, SpecError};

fn example() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src/apps/todo/app.spec.toml");
    std::fs::read_to_string(p).expect("example spec")
}

fn example_seed() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src/apps/todo/seed.json");
    std::fs::read_to_string(p).expect("example seed")
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    let at = text.find(needle).expect("needle in text");
    text[..at].matches('\n').count() + 1
}

fn refuse(text: &str) -> SpecError {
    envgen::parse(Path::new("bad.spec.toml"), text).expect_err("the spec must be refused")
}

#[test]
fn an_unknown_field_type_is_named_with_its_line() {
    let text = example().replace(
        r#"{ name = "due", type = "date", optional = true }"#,
        r#"{ name = "due", type = "moment", optional = true }"#,
    );
    let e = refuse(&text);
    assert_eq!(e.problem, Problem::UnknownFieldType, "{e}");
    assert_eq!(e.line, line_of(&text, r#"type = "moment""#), "{e}");
    assert!(
        e.to_string().starts_with("bad.spec.toml:")
            && e.detail.contains("moment")
            && e.detail.contains("tasks.due"),
        "{e}"
    );
}

#[test]
fn a_view_naming_a_missing_entity_is_named_with_its_line() {
    let text = example().replace(
        "name = \"board\"\nkind = \"board\"\nentity = \"tasks\"",
        "name = \"board\"\nkind = \"board\"\nentity = \"tickets\"",
    );
    let e = refuse(&text);
    assert_eq!(e.problem, Problem::MissingEntity, "{e}");
    assert!(
        e.detail.contains("\"board\"") && e.detail.contains("tickets"),
        "{e}"
    );
    let line = e.line;
    let lines: Vec<&str> = text.lines().collect();
    let block = lines[line - 1..]
        .iter()
        .take(4)
        .copied()
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        block.contains("name = \"board\""),
        "line {line} starts the board view: {block}"
    );
}

#[test]
fn a_declared_effect_that_is_not_what_the_action_does_is_refused() {
    let text = example().replace(
        r#"changes = ["tasks.starred"]"#,
        r#"changes = ["tasks.priority"]"#,
    );
    let e = refuse(&text);
    assert_eq!(e.problem, Problem::EffectMismatch, "{e}");
    assert!(
        e.detail.contains("star_task")
            && e.detail.contains("tasks.priority")
            && e.detail.contains("tasks.starred"),
        "{e}"
    );
    assert_eq!(e.line, line_of(&text, "name = \"star_task\"") - 1, "{e}");
}

#[test]
fn seed_data_violating_the_schema_is_named_with_its_line() {
    let spec = envgen::parse(Path::new("ok.spec.toml"), &example()).expect("example parses");
    let text = example_seed().replace(r#""status": "Doing""#, r#""status": "Someday""#);
    let e = seed::check(&spec, Path::new("seed.json"), &text).expect_err("refused");
    assert_eq!(e.problem, Problem::SeedViolation, "{e}");
    assert_eq!(e.line, line_of(&text, "Someday"), "{e}");
    assert!(
        e.detail.contains("tasks[1].status") && e.detail.contains("Someday"),
        "{e}"
    );
    let dangling = example_seed().replace(r#""assignee": "u3""#, r#""assignee": "u9""#);
    let e = seed::check(&spec, Path::new("seed.json"), &dangling).expect_err("refused");
    assert!(e.detail.contains("u9") && e.detail.contains("users"), "{e}");
}
