//! The documented example spec parses and its seed fits it.

use std::path::Path;

use tuplewright::engine::envgen::{self, spec::ViewKind};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_documented_example_parses_and_its_seed_fits() {
    let path = root().join("crates/engine/src/apps/todo/app.spec.toml");
    let spec = envgen::load(&path).expect("the example spec parses");
    assert_eq!(spec.app.name, "todo");
    let kinds: Vec<ViewKind> = spec.views.iter().map(|v| v.get_ref().kind).collect();
    for k in [
        ViewKind::Table,
        ViewKind::Board,
        ViewKind::Calendar,
        ViewKind::Dashboard,
        ViewKind::Form,
        ViewKind::Detail,
        ViewKind::Settings,
    ] {
        assert!(kinds.contains(&k), "the example shows a {k:?} view");
    }
    let seed_path = root().join("crates/engine/src/apps/todo/seed.json");
    let text = std::fs::read_to_string(&seed_path).expect("seed");
    let seed = envgen::seed::check(&spec, &seed_path, &text).expect("the seed fits");
    assert_eq!(seed["tasks"].as_array().map(Vec::len), Some(4));
}
